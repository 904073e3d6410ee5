"""A tournament's standings in the window: ``arena tournament EVENT.toml --window``.

The event runs headless (:func:`runner.tournament.run_event`) on a background thread,
or has already run; this screen only reads the event folder's ``standings.json``,
which the runner rewrites every few seconds, and shows the table with the latest
finished matches.  Closing the screen does not stop the event: the command goes on
until its last match, as it would without a window.  Project opens the projection
(:mod:`ui.scenes.projection`) of the same folder, fullscreen.
"""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Callable

import pygame

from runner.i18n import N_, _
from ui.scene import Scene, is_pressed

#: Seconds between reads of standings.json.
REFRESH = 1.0


class TournamentScene(Scene):
    """The standings table of one event folder, refreshed while the event runs."""

    def __init__(self, app, folder: str | Path, thread: threading.Thread | None = None,
                 log: list[str] | None = None, error: Callable[[], str] = lambda: ""):
        super().__init__(app)
        self.folder = Path(folder)
        self.thread = thread
        self.log = log if log is not None else []
        self.error = error
        self.table: dict = {}
        self.stamp: float | None = None
        self.since = REFRESH
        from runner.live import EventFollower
        #: The folder's event.json and live/schedule.json: the event's name, the matches
        #: playing and next, from the first second (standings come every few seconds).
        self.follower = EventFollower(self.folder)

    def title_name(self) -> str:
        return str(self.table.get("event") or self.follower.event.get("name") or self.folder.name)

    def layout(self) -> None:
        name = self.title_name()
        self.top_bar(_("Tournament: {name}").format(name=name), right=self.dw - 200)
        self.project_button = self.button(self.rect(self.dw - 180, 12, 164, 44), _("Project"),
                                          tooltip=_("Show the event fullscreen for a room: live "
                                                    "boards, intermissions, standings (Esc returns)"))

    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def read(self) -> bool:
        """Read standings.json if it changed; True when it did."""
        path = self.folder / "standings.json"
        try:
            stamp = path.stat().st_mtime
            if stamp == self.stamp:
                return False
            self.table = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        self.stamp = stamp
        return True

    def enter(self) -> None:
        self.read()
        self.follower.poll(0.0)
        super().enter()

    def exit(self) -> None:
        self.follower.close()
        super().exit()

    def update(self, dt: float) -> bool:
        self.since += dt
        if self.since < REFRESH:
            return False
        self.since = 0.0
        title = self.title_name()
        changed = self.read()
        snap = self.follower.poll(0.0)
        changed = changed or snap.matches_changed or bool(snap.new_results)
        if self.title_name() != title:
            self.relayout()
        return changed or self.running()

    def wake_interval(self) -> float | None:
        return REFRESH if self.running() or not self.table else None

    def process_event(self, event: pygame.event.Event) -> bool:
        if is_pressed(event, self.back_button):
            self.app.pop()
            return True
        if is_pressed(event, self.project_button):
            self.project()
            return True
        return False

    def project(self) -> None:
        """The projection of this folder, fullscreen; the event's matches (if it runs
        here, unpaced until now) are played at the event's pace while it is shown."""
        from ui.scenes.projection import ProjectionScene
        self.app.push(ProjectionScene(self.app, self.folder, self.thread, fullscreen=True,
                                      claim_pace=self.running()))

    # ------------------------------------------------------------ drawing
    COLUMNS = (("#", 44, "rank"), (N_("contestant"), 330, "name"), (N_("played"), 90, "played"),
               (N_("points"), 100, "points"), (N_("score"), 100, "score"), (N_("W-D-L"), 130, "wdl"),
               (N_("rating"), 190, "rating"), (N_("failures"), 100, "failures"))

    def rows(self) -> list[dict]:
        out = []
        table = self.table.get("standings", [])
        # One kind of rating down the column (Elo when the table has it, else OpenSkill's
        # mu ± sigma), and none for an entrant who has not played: "+0 ± 482" beside
        # "25.0 ± 8.3" read as figures when they are only priors.
        kind = "elo" if any("elo" in r for r in table) else "mu" if any("mu" in r for r in table) else None
        for row in table:
            if not row.get("played") or kind not in row:
                rating = "—" if kind else ""
            elif kind == "elo":
                rating = f"{row['elo']:+.0f} ± {row['elo_error']:.0f}"
            else:
                rating = f"{row['mu']:.1f} ± {row['sigma']:.1f}"
            out.append({"rank": str(row.get("rank", "")), "name": row.get("name", ""),
                        "played": str(row.get("played", 0)), "points": _number(row.get("points", 0)),
                        "score": _number(row.get("score", 0)),
                        "wdl": f"{row.get('wins', 0)}-{row.get('draws', 0)}-{row.get('losses', 0)}",
                        "rating": rating, "failures": str(row.get("failures") or "")})
        return out

    def status(self) -> str:
        played, planned = self.follower.counts()
        matches = self.table.get("matches", {})
        played, planned = max(played, matches.get("played", 0) or 0), max(planned, matches.get("planned", 0) or 0)
        event = self.follower.event
        game = self.table.get("game") or event.get("game", "")
        fmt = (self.table.get("format_name") or event.get("format_name")       # as the event file said
               or self.table.get("format") or event.get("format", ""))
        text = (f"{game} · {fmt} · " if game else "") + (
            _("{played} of {planned} matches").format(played=played, planned=planned) if planned else "")
        if self.running():
            text += _(" · running")
        if "sprt" in self.table:
            s = self.table["sprt"]
            text += f" · SPRT LLR {s['llr']:.2f} ({s['lower']:.2f}, {s['upper']:.2f}) {s['decision']}"
        if self.error():
            text += f" · {self.error()}"
        return text

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        surface.fill(theme.background)
        left = self.px(24)
        width = min(self.px(1232), surface.get_width() - 2 * left)
        if not self.table:
            self.draw_text(surface, self.status(), (left, self.px(72)), 18, theme.muted, max_width=width)
            y = self.draw_schedule(surface, left, self.px(108), width)
            if y == self.px(108):
                self.draw_text(surface, _("Waiting for the first standings ..."), (left, y), 22, theme.muted)
            return
        self.draw_text(surface, self.status(), (left, self.px(72)), 18, theme.muted,
                       max_width=width)
        y = self.px(108)
        total = sum(w for _, w, _ in self.COLUMNS)
        scale = width / self.px(total)
        xs, x = [], left
        for _head, w, _key in self.COLUMNS:
            xs.append((x, int(self.px(w) * scale)))
            x += int(self.px(w) * scale)
        for (head, _width, _key), (cx, cw) in zip(self.COLUMNS, xs):
            self.draw_text(surface, _(head), (cx + self.px(6), y), 18, theme.muted, bold=True,
                           max_width=cw - self.px(8))
        y += self.px(32)
        line_h = self.px(34)
        bottom = surface.get_height() - self.px(130)
        for index, row in enumerate(self.rows()):
            if y + line_h > bottom:
                break
            if index % 2 == 0:
                pygame.draw.rect(surface, theme.panel, pygame.Rect(left, y - self.px(3), width, line_h))
            colour = theme.accent if row["rank"] == "1" else theme.text
            for (_head, _width, key), (cx, cw) in zip(self.COLUMNS, xs):
                self.draw_text(surface, row[key], (cx + self.px(6), y), 20,
                               theme.bad if key == "failures" else colour,
                               bold=key == "name", max_width=cw - self.px(8))
            y += line_h
        y = max(y + self.px(12), bottom)
        for text in self.log[-4:]:
            self.draw_text(surface, text, (left, y), 16, theme.muted, mono=True, max_width=width)
            y += self.px(26)


    def schedule_lines(self) -> list[tuple[str, bool]]:
        """(text, playing) lines: the matches playing now (with their turn) and the next
        ones, from ``live/schedule.json`` and the live records."""
        lines = []
        schedule = self.follower.schedule
        live = {m.id: m for m in self.follower.running()}
        for key, playing in (("running", True), ("next", False)):
            entries = schedule.get(key) if isinstance(schedule.get(key), list) else []
            for entry in entries:
                if not isinstance(entry, dict) or not isinstance(entry.get("contestants"), list):
                    continue
                names = _(" vs ").join(str(n) for n in entry["contestants"])
                match = live.get(str(entry.get("id")))
                turns = len(match.turns) if match is not None else 0
                text = (_("Playing: {names} · turn {n}").format(names=names, n=turns) if playing
                        else _("Next: {names}").format(names=names))
                lines.append((text, playing))
        return lines

    def draw_schedule(self, surface: pygame.Surface, left: int, y: int, width: int) -> int:
        """The schedule lines from ``y`` down; the y below them."""
        theme = self.app.theme
        bottom = surface.get_height() - self.px(130)
        for text, playing in self.schedule_lines():
            if y + self.px(30) > bottom:
                break
            self.draw_text(surface, text, (left, y), 20, theme.text if playing else theme.muted,
                           bold=playing, max_width=width)
            y += self.px(30)
        return y


def _number(value) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.2f}"


def open_tournament_window(args, request):
    """The window for ``arena tournament --window`` (the standings screen) or, with
    ``request.project``, the projection (``--project``, ``arena project FOLDER``)."""
    if request.project:
        from ui.scenes.projection import open_projection
        return open_projection(args, request)
    from ui.app import open_app
    app = open_app(args)
    app.push(TournamentScene(app, request.folder, request.thread, request.log, request.error))
    return app
