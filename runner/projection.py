"""What the projection shows when: a pygame-free model of a projected event.

:class:`ProjectionModel` follows an event folder (:class:`runner.live.EventFollower`) and
decides, frame by frame, which running match is on the big board (or on each cell of the
grid), which turn of it is shown at the event's pace, and when the hold, the intermission
card and the final standings come; :class:`Playback` is one board following one match.
The window (:mod:`ui.scenes.projection`) owns the keys and the drawing and asks this model
what to draw, so the timing can be tested without a window: ``update(dt, now)`` takes the
clock as an argument.
"""
from __future__ import annotations

from pathlib import Path

from runner.i18n import _
from runner.live import EventFollower, LiveMatch

#: Turns a second the keys step through (0 = as fast as the programs answer).
PACES = (0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 0.0)
#: Seconds between looks at the event folder while a match is shown / while waiting.
POLL_PLAYING = 0.25
POLL_WAITING = 0.5
#: Seconds between redraws of the thumbnails (they follow their matches' latest turn).
THUMB_EVERY = 1.0
#: A seat whose answer has not come for this long is named on the screen.
SLOW_ANSWER = 5.0
#: Most cells of the grid layout.
MAX_CELLS = 4
TOAST_SECONDS = 3.0


class Playback:
    """One board following one live match at a pace, turn by turn, from its start.

    It plays its own copy of the position; when the display falls behind the match by
    more than a couple of seconds it runs at three times the pace until it has caught up.
    ``renderer`` and ``view`` are the window's drawing of this board, attached by the window
    (the model never draws).
    """

    def __init__(self, match: LiveMatch):
        self.match = match
        self.shown = 0
        self.cursor = 0.0
        self.state = match.initial.clone() if match.initial is not None else None
        self.renderer = None
        self.view = None
        self.ended_at: float | None = None

    @property
    def ended(self) -> bool:
        return self.ended_at is not None

    def advance(self, dt: float, pace: float, now: float) -> bool:
        """Move the shown turn on by the pace; True when the picture changed."""
        match = self.match
        if match.initial is None:
            return False
        if self.state is None or self.shown > len(match.turns):      # the record started over
            self.state, self.shown, self.cursor, self.ended_at = match.initial.clone(), 0, 0.0, None
        available = len(match.turns)
        if pace <= 0:
            self.cursor = float(available)
        else:
            lag = available - self.cursor
            rate = pace * 3 if lag > max(2.0, pace * 2) else pace
            self.cursor = min(float(available), self.cursor + rate * dt)
        changed = False
        while self.shown < int(self.cursor):
            self._apply(match.turns[self.shown])
            self.shown += 1
            changed = True
        if self.ended_at is None and self.shown >= available and match.finished:
            self.ended_at = now
            changed = True
        return changed

    def _apply(self, info) -> None:
        try:
            self.match.play_turn(self.state, info)
        except Exception as exc:       # the follower checked it already; never stop the room
            self.match.error = self.match.error or f"{type(exc).__name__}: {exc}"

    def clocks(self) -> dict[int, float]:
        return self.match.turns[self.shown - 1].clocks if self.shown else {}


class ProjectionModel:
    """A running (or finished) event as the projection shows it, without a window.

    ``phase`` is ``waiting`` (for a match to follow), ``playing``, ``holding`` (the final
    position), ``intermission`` (the card) or ``final`` (the standings, the event over);
    the focus layout shows ``main``, the grid layout ``cells``.  ``thread`` is the event's
    own thread when it runs in this process (it tells when the event is over).
    """

    def __init__(self, folder: str | Path, thread=None, claim_pace: bool = False, now: float = 0.0):
        self.folder = Path(folder)
        self.thread = thread
        self.follower = EventFollower(self.folder)
        self.claim_pace = claim_pace
        self.pace: float | None = None          # turns a second chosen with the keys
        self.organizer_pace: float | None = None
        self.layout_name: str | None = None
        self.main: Playback | None = None
        self.cells: list[Playback | None] = []
        self.freed_at: list[float] = []
        self.seen: set[str] = set()              # matches shown (or being shown) on a board
        self.phase = "waiting"                   # waiting, playing, holding, intermission, final
        self.phase_since = now
        self.last: dict | None = None            # the last result shown (for the card)
        self.show_standings = False
        self.since_poll = 1e9
        self.since_thumbs = 0.0
        self.thumbs_seen: tuple = ()
        self.toast = ("", 0.0)
        self.shown_count = 0
        self.followed: list[str] = []            # ids of the matches shown, in order (tests, bench)

    # ------------------------------------------------------------ life cycle
    def start(self, now: float) -> None:
        """The first look at the folder; a window that runs the event takes the pace over."""
        self.refresh(now)
        if self.claim_pace:                     # the window's event runs unpaced until now
            self.pace = self.follower.setting("pace", 2.0)
            self.follower.set_pace(self.pace)

    def close(self) -> None:
        if self.claim_pace:
            self.follower.set_pace(0.0)
        self.follower.close()
        self.main, self.cells = None, []

    # ------------------------------------------------------------ settings
    def current_pace(self) -> float:
        """Turns a second shown: the keys' choice, else the pace the organizer's matches
        are played at now (``live/pace.json``), else the event file's."""
        if self.pace is not None:
            return self.pace
        if self.organizer_pace is not None:
            return self.organizer_pace
        return self.follower.setting("pace", 2.0)

    def current_layout(self) -> str:
        if self.layout_name is None:
            return "grid" if self.follower.projection.get("layout") == "grid" else "focus"
        return self.layout_name

    def event_running(self) -> bool:
        if self.thread is not None:
            return self.thread.is_alive()
        return not self.follower.finished()

    # ------------------------------------------------------------ the keys' actions
    def toggle_layout(self, now: float) -> None:
        """Grid to focus or back; every board starts again from the next match."""
        self.layout_name = "focus" if self.current_layout() == "grid" else "grid"
        self.main, self.cells, self.freed_at = None, [], []
        self.seen.clear()
        self.set_phase("waiting", now)

    def step_pace(self, direction: int, now: float) -> None:
        """The next pace up or down; the organizer's matches follow it when the folder
        can be written (else only this screen's replay speed changes)."""
        speed = lambda p: p if p > 0 else float("inf")        # 0: as fast as they play
        pace = speed(self.current_pace())
        faster = [p for p in PACES if speed(p) > pace]
        slower = [p for p in PACES if speed(p) < pace]
        if direction > 0 and faster:
            self.pace = min(faster, key=speed)
        elif direction < 0 and slower:
            self.pace = max(slower, key=speed)
        else:
            self.pace = self.current_pace()
        written = self.follower.set_pace(self.pace)
        text = (_("As fast as they play") if not self.pace
                else _("{n} turns a second").format(n=f"{self.pace:g}"))
        if not written:
            text += " · " + _("this screen only")
        self.toast = (text, now)

    def skip(self, now: float) -> None:
        """Leave the hold or intermission (or the current match) for the next match now."""
        if self.main is not None:
            self.finish_main(now, card=False)
        self.set_phase("waiting", now)

    # ------------------------------------------------------------ time
    def set_phase(self, phase: str, now: float) -> None:
        self.phase, self.phase_since = phase, now

    def refresh(self, now: float) -> bool:
        snap = self.follower.poll(now)
        self.organizer_pace = self.follower.pace()
        return bool(snap.new_results or snap.standings_changed or snap.matches_changed)

    def update(self, dt: float, now: float) -> bool:
        """Time moves on by ``dt`` seconds, to ``now``; True when the picture changed."""
        changed = False
        self.since_poll += dt
        if self.since_poll >= (POLL_PLAYING if self.phase == "playing" else POLL_WAITING):
            self.since_poll = 0.0
            changed = self.refresh(now) and self.phase != "playing" or changed
            thumbs = self.since_thumbs + dt >= THUMB_EVERY
        else:
            thumbs = False
        self.since_thumbs = 0.0 if thumbs else self.since_thumbs + dt
        if self.current_layout() == "grid":
            changed = self.update_grid(dt, now) or changed
        else:
            changed = self.update_focus(dt, now) or changed
            if thumbs:
                moved = self.thumbs_revision()
                if moved != self.thumbs_seen:           # a thumbnail's match moved on
                    self.thumbs_seen = moved
                    changed = True
        if self.toast[0] and now - self.toast[1] > TOAST_SECONDS:
            self.toast = ("", 0.0)
            changed = True
        self.forget_finished()
        return changed

    def follow(self, match: LiveMatch) -> Playback:
        """A new board for ``match``, counted as shown."""
        self.seen.add(match.id)
        self.followed = (self.followed + [match.id])[-50:]
        self.shown_count += 1
        return Playback(match)

    def update_focus(self, dt: float, now: float) -> bool:
        pace = self.current_pace()
        held = now - self.phase_since
        if self.phase in ("waiting", "final"):
            match = self.pick()
            if match is not None:
                self.main = self.follow(match)
                self.set_phase("playing", now)
                return True
            if not self.event_running() and self.phase != "final" and not self.follower.running():
                self.refresh(now)                   # the last standings, written as it ended
                self.set_phase("final", now)
                return True
            return False
        if self.phase == "playing":
            changed = self.main.advance(dt, pace, now)
            if self.main.ended:
                self.set_phase("holding", now)
                return True
            if self.slow_seat(self.main, now) and int(held) != int(held - dt):
                changed = True                      # the "waiting for" line counts seconds
            return changed
        if self.phase == "holding":
            if held >= self.follower.setting("hold", 3.0):
                self.finish_main(now, card=True)
                return True
            return False
        if self.phase == "intermission":
            length = self.follower.setting("intermission", 8.0)
            if held >= length:
                self.set_phase("waiting", now)
                return True
            return int(held) != int(held - dt)      # the card's bar moves once a second
        return False

    def thumbs_revision(self) -> tuple:
        """What the thumbnails show: which matches, how many turns each."""
        main = self.main.match.id if self.main is not None else None
        return tuple((m.id, len(m.turns)) for m in self.follower.running() if m.id != main)[:3]

    def finish_main(self, now: float, card: bool) -> None:
        match = self.main.match
        self.last = {"names": match.names, "outcome": match.outcome, "error": match.error,
                     "id": match.id}
        self.main = None
        wait = card and self.follower.setting("intermission", 8.0) > 0
        self.set_phase("intermission" if wait else "waiting", now)

    def pick(self) -> LiveMatch | None:
        """The next match to follow: a running one nobody has shown, the newest start
        first (so the room sees it from its first move with the least catching up)."""
        fresh = [m for m in self.follower.running() if m.id not in self.seen]
        return min(fresh, key=lambda m: (len(m.turns), m.id)) if fresh else None

    def update_grid(self, dt: float, now: float) -> bool:
        pace = self.current_pace()
        count = self.cell_count()
        if len(self.cells) != count:
            self.cells = (self.cells + [None] * count)[:count]
            self.freed_at = (self.freed_at + [0.0] * count)[:count]
        changed = False
        for i, cell in enumerate(self.cells):
            if cell is not None:
                changed = cell.advance(dt, pace, now) or changed
                if cell.ended and now - cell.ended_at >= self.follower.setting("hold", 3.0):
                    self.last = {"names": cell.match.names, "outcome": cell.match.outcome,
                                 "error": cell.match.error, "id": cell.match.id}
                    self.cells[i], self.freed_at[i] = None, now
                    changed = True
            elif now - self.freed_at[i] >= self.follower.setting("intermission", 8.0) / 2:
                match = self.pick()
                if match is not None:
                    self.cells[i] = self.follow(match)
                    changed = True
        phase = ("playing" if any(self.cells) else
                 "final" if not self.event_running() and not self.follower.running() else "waiting")
        if phase != self.phase:
            if phase == "final":
                self.refresh(now)
            self.set_phase(phase, now)
            changed = True
        return changed

    def cell_count(self) -> int:
        wanted = self.follower.event.get("concurrency", 4)
        wanted = wanted if isinstance(wanted, int) and not isinstance(wanted, bool) else 4
        return max(1, min(MAX_CELLS, wanted))

    def forget_finished(self) -> None:
        """Drop finished matches no board shows, so hours of matches keep memory flat."""
        shown = {p.match.id for p in [self.main, *self.cells] if p is not None}
        for match_id, match in list(self.follower.matches.items()):
            if match.finished and match_id not in shown:
                self.follower.forget(match_id)
                self.seen.add(match_id)

    def slow_seat(self, playback: Playback, now: float) -> str:
        """The name of the seat the live match has waited for a while, else ''."""
        match = playback.match
        if match.finished or playback.shown < len(match.turns) or match.state is None:
            return ""
        if now - (match.updated or now) < SLOW_ANSWER:
            return ""
        try:
            seats = match.state.to_move()
        except Exception:
            return ""
        names = match.names
        return ", ".join(names[s] for s in seats if s < len(names))

    def wake_interval(self) -> float | None:
        if self.phase == "playing" and self.current_pace() > 0:
            return max(0.03, min(0.25, 0.5 / self.current_pace()))
        if self.phase == "playing":
            return POLL_PLAYING
        return POLL_WAITING
