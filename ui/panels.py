"""Drawn panels shared by the Match and Replay screens: players, move list, debug text.

These are drawn with the shipped Noto fonts (large type, fast to repaint) rather than
built from widgets; each keeps only view state (scroll, selection) and is drawn from
the data it is given.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import pygame

from games.api import Outcome, Termination, kept_message
from games.replay import TurnInfo
from games.render import Theme, elide, font, mix
from runner.i18n import N_, _, ngettext
from ui.game_texts import rules_text

Segment = tuple[str, tuple]          # (text, colour)

GIVEN_LINES = 40
OUTPUT_LINES = 20
LINE_CHARS = 160

#: What a result says when the game gives no detail, by :class:`Termination` value.
REASON_WORDS = {
    "win": N_("win"), "draw": N_("draw"), "stalemate": N_("stalemate"), "repetition": N_("repetition"),
    "no-material": N_("no material left"), "move-limit": N_("move limit"), "board-full": N_("board full"),
    "elimination": N_("elimination"), "score": N_("score"), "resignation": N_("resignation"),
    "stopped": N_("stopped"), "timeout": N_("time-out"), "illegal-move": N_("illegal move"),
    "crash": N_("crash"), "bad-file": N_("bad file"), "adjudication": N_("adjudication"),
    "aborted": N_("aborted"), "not-played": N_("not played"),
}


def answer_time_text(answer: Mapping) -> str:
    """An answer's time as the debug panel shows it: both figures, the charged one first
    (CPU on the CPU clock), or the one the record has."""
    elapsed, wall, cpu = answer.get("elapsed"), answer.get("wall"), answer.get("cpu")
    if not isinstance(cpu, (int, float)) or not isinstance(wall, (int, float)):
        return f" · {elapsed:.3f} s" if isinstance(elapsed, (int, float)) else ""
    if answer.get("clock") == "cpu":
        return _(" · {cpu} s CPU (charged) · {wall} s wall").format(cpu=f"{cpu:.3f}", wall=f"{wall:.3f}")
    return _(" · {wall} s · {cpu} s CPU").format(wall=f"{wall:.3f}", cpu=f"{cpu:.3f}")


@dataclass
class PlayerLine:
    """What the players panel shows for one seat."""

    name: str                # the game's seat name ("Player 1 (columns)", "Red")
    label: str               # who sits there ("Bot (level 2)", "Anna", "./mybot")
    colour: tuple
    clock: str = ""          # big: time used, or left when the match has a total
    clock_note: str = ""     # small: the other figure
    score: str = ""
    to_move: bool = False
    winner: bool = False
    out: bool = False        # forfeited / lost


def format_clock(seconds: float | None) -> str:
    if seconds is None:
        return ""
    tenths = round(max(0.0, seconds) * 10)     # rounded first: 599.96 s is 10:00.0, not 9:60.0
    minutes, rest = divmod(tenths, 600)
    return f"{minutes}:{rest / 10:04.1f}"


def clock_texts(used: float, left: float | None) -> tuple[str, str]:
    """(big, small) clock texts: time left when the match has a total, else time used."""
    if left is None:
        return format_clock(used), _("used")
    return format_clock(left), _("left · {used} used").format(used=format_clock(used))


def seat_score(spec, outcome, state, seat: int) -> str:
    """The final score once the game is over, else the running one for games whose spec
    declares ``live_scores``, else ""."""
    stopped = outcome is not None and outcome.reason in (Termination.ABORTED, Termination.NOT_PLAYED) \
        and not outcome.winners
    if outcome is not None and not stopped:
        scores = outcome.scores
    else:
        scores = state.live_scores() if spec.live_scores else None
    return format_score(scores[seat]) if scores and seat < len(scores) else ""


def format_score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def draw_players(surface: pygame.Surface, rect: pygame.Rect, players: Sequence[PlayerLine],
                 theme: Theme, scale: float) -> None:
    """One row per seat: colour disc, names, clock right-aligned (large type)."""
    if not players:
        return
    row_h = rect.height // len(players)
    big = font(round(24 * scale), bold=True)
    small = font(round(15 * scale))
    clock_font = font(round(26 * scale), bold=True, mono=True)
    for index, player in enumerate(players):
        row = pygame.Rect(rect.x, rect.y + index * row_h, rect.width, row_h - round(6 * scale))
        background = theme.panel
        pygame.draw.rect(surface, background, row, border_radius=round(8 * scale))
        if player.to_move:
            pygame.draw.rect(surface, theme.accent, row, width=max(2, round(3 * scale)),
                             border_radius=round(8 * scale))
        radius = max(6, min(row.height // 4, round(14 * scale)))
        centre = (row.x + round(12 * scale) + radius, row.centery)
        pygame.draw.circle(surface, player.colour, centre, radius)
        pygame.draw.circle(surface, theme.text, centre, radius, width=max(1, round(scale)))
        text_x = centre[0] + radius + round(12 * scale)
        clock_w = clock_font.size(player.clock or "0:00.0")[0] if player.clock else 0
        right = row.right - round(12 * scale)
        name_w = right - clock_w - round(16 * scale) - text_x
        title = player.name
        colour = theme.good if player.winner else (theme.muted if player.out else theme.text)
        line_gap = round(2 * scale)
        top = row.centery - (big.get_linesize() + small.get_linesize() + line_gap) // 2
        surface.blit(big.render(elide(big, title, name_w), True, colour), (text_x, top))
        label = player.label + (_(" · score {score}").format(score=player.score) if player.score else "")
        note_w = small.size(player.clock_note)[0] if player.clock and player.clock_note else 0
        # The label's line has only the small clock note beside it, not the big clock.
        label_w = right - note_w - round(12 * scale) - text_x if note_w else right - text_x
        if player.winner and small.size(label + _(" · winner"))[0] <= label_w:
            label += _(" · winner")     # where it fits: the name's colour already says it
        surface.blit(small.render(elide(small, label, label_w), True, theme.muted),
                     (text_x, top + big.get_linesize() + line_gap))
        if player.clock:
            image = clock_font.render(player.clock, True, theme.text)
            surface.blit(image, image.get_rect(topright=(right, top - round(2 * scale))))
            note = small.render(player.clock_note, True, theme.muted)
            surface.blit(note, note.get_rect(topright=(right, top + big.get_linesize() + line_gap)))


@dataclass
class ScrollList:
    """A scrollable list of rows, each a list of coloured segments; rows may be clickable.

    With ``fit`` a row too wide for the list continues on the next lines (the move list:
    a Robot turn's event stays readable) and keeps its index: ``first``, ``selected``,
    :meth:`row_top` and :meth:`row_at` still speak of rows.
    """

    rows: list[list[Segment]] = field(default_factory=list)
    selected: int | None = None
    first: int = 0                      # index of the top visible row
    follow_end: bool = True             # keep the last row visible as rows are added
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    size: int = 18                      # font size in pixels
    mono: bool = False
    wrap: bool = False                  # long rows continue on the next rows (the debug panels)
    fit: bool = False                   # long rows continue on more lines of the same row
    spans: list[list[list[Segment]]] = field(default_factory=list)   # each row's drawn lines

    def line_height(self) -> int:
        return font(self.size, mono=self.mono).get_linesize() + max(2, self.size // 6)

    def lines_of(self, index: int) -> int:
        """How many lines row ``index`` takes (1 unless ``fit`` wrapped it)."""
        return len(self.spans[index]) if 0 <= index < len(self.spans) else 1

    def room_lines(self) -> int:
        return max(1, (self.rect.height - self.size // 2) // self.line_height())

    def visible_rows(self) -> int:
        """How many rows from ``first`` are shown whole (at least one)."""
        room, count = self.room_lines(), 0
        for index in range(self.first, len(self.rows)):
            room -= self.lines_of(index)
            if room < 0:
                break
            count += 1
        return max(1, count if self.rows else self.room_lines())

    def last_first(self) -> int:
        """The largest ``first`` that still fills the list (the end in view)."""
        room, index = self.room_lines(), len(self.rows)
        while index > 0 and room - self.lines_of(index - 1) >= 0:
            index -= 1
            room -= self.lines_of(index)
        return min(index, max(0, len(self.rows) - 1))

    def set_rows(self, rows: list[list[Segment]]) -> None:
        if self.wrap and self.rect.width > 0:
            rows = [line for row in rows for line in self.wrapped(row)]
        self.rows = rows
        self.spans = [self.fitted(row) if self.fit and self.rect.width > 0 else [row] for row in rows]
        if self.follow_end:
            self.first = self.last_first()
        self.first = min(self.first, max(0, len(rows) - 1))

    def number_column(self, segments: list[Segment]) -> int:
        """The width of the right-aligned turn-number column when the row starts with one."""
        if segments and segments[0][0].strip().rstrip(".").isdigit():
            return font(self.size, mono=self.mono).size(f"{len(self.rows)}. ")[0]
        return 0

    def fitted(self, row: list[Segment]) -> list[list[Segment]]:
        """``row`` as the lines it is drawn on: a segment that does not fit the rest of a
        line starts the next one (under the move texts, past the number column), and one
        wider than a whole line is broken between words; a word wider still is cut."""
        face = font(self.size, mono=self.mono)
        column = self.number_column(row)
        width = self.rect.width - 2 * (self.size // 2) - column
        body = row[1:] if column else row
        if sum(face.size(text)[0] for text, _ in body) <= width:
            return [row]
        lines: list[list[Segment]] = [row[:1] if column else []]
        used = 0
        for text, colour in body:
            if used and face.size(text.rstrip())[0] > width - used:
                text = text.lstrip()
                lines.append([])
                used = 0
            for word in re.split(r"(?<= )", text):
                w = face.size(word.rstrip())[0]
                if used and w > width - used:
                    lines.append([])
                    used = 0
                lines[-1].append((word, colour))
                used += face.size(word)[0]
        return [line for line in lines if line]

    def wrapped(self, row: list[Segment]) -> list[list[Segment]]:
        """``row`` as rows that fit the list's width, broken between words (a word wider
        than the whole width is cut), each continuation indented."""
        face = font(self.size, mono=self.mono)
        width = self.rect.width - self.size - 8
        if sum(face.size(text)[0] for text, _ in row) <= width:
            return [row]
        lines: list[list[Segment]] = [[]]
        used = 0
        indent = "  "
        for text, colour in row:
            for word in text.split(" "):
                piece = word + " "
                w = face.size(piece)[0]
                if used + w > width and used > 0:
                    lines.append([(indent, colour)])
                    used = face.size(indent)[0]
                while face.size(piece)[0] > width - used and len(piece) > 1:
                    cut = max(1, next((n for n in range(len(piece), 0, -1)
                                       if face.size(piece[:n])[0] <= width - used), 1))
                    lines[-1].append((piece[:cut], colour))
                    lines.append([(indent, colour)])
                    used = face.size(indent)[0]
                    piece = piece[cut:]
                lines[-1].append((piece, colour))
                used += face.size(piece)[0]
        return [line for line in lines if line]

    def is_cut(self, index: int) -> bool:
        """True when a line of row ``index`` is wider than the list (drawn with an ellipsis)."""
        if not 0 <= index < len(self.rows):
            return False
        face = font(self.size, mono=self.mono)
        column = self.number_column(self.rows[index])
        room = self.rect.width - 2 * (self.size // 2) - column
        for number, segments in enumerate(self.spans[index] if index < len(self.spans) else [self.rows[index]]):
            if number == 0 and column:
                segments = segments[1:]
            if sum(face.size(text)[0] for text, _ in segments) > room:
                return True
        return False

    def row_top(self, index: int) -> int:
        """The y where row ``index`` is drawn (rows above the view give a y above it)."""
        if index >= self.first:
            lines = sum(self.lines_of(i) for i in range(self.first, index))
        else:
            lines = -sum(self.lines_of(i) for i in range(index, self.first))
        return self.rect.y + self.size // 4 + lines * self.line_height()

    def scroll(self, lines: int) -> None:
        limit = self.last_first()
        self.first = max(0, min(limit, self.first + lines))
        self.follow_end = self.first >= limit

    def reveal(self, index: int) -> None:
        """Scroll so row ``index`` is visible."""
        if index < self.first:
            self.first = index
        else:
            while index >= self.first + self.visible_rows() and self.first < index:
                self.first += 1
        self.follow_end = self.first >= self.last_first()

    def row_at(self, pos: tuple[int, int]) -> int | None:
        if not self.rect.collidepoint(pos):
            return None
        line = (pos[1] - self.rect.y - self.size // 4) // self.line_height()
        index = self.first
        while index < len(self.rows) and line >= self.lines_of(index):
            line -= self.lines_of(index)
            index += 1
        return index if 0 <= index < len(self.rows) and line >= 0 else None

    def handle_wheel(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.scroll(-3 * event.y)
            return True
        return False

    def draw(self, surface: pygame.Surface, theme: Theme, empty_text: str = "") -> None:
        pygame.draw.rect(surface, theme.panel, self.rect, border_radius=6)
        face = font(self.size, mono=self.mono)
        pad = self.size // 2
        height = self.line_height()
        y = self.rect.y + self.size // 4
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        if not self.rows and empty_text:
            surface.blit(face.render(empty_text, True, theme.muted), (self.rect.x + pad, y))
        index = self.first
        while index < len(self.rows) and y < self.rect.bottom:
            lines = self.spans[index] if index < len(self.spans) else [self.rows[index]]
            if index == self.selected:
                band = pygame.Rect(self.rect.x + 2, y - 1, self.rect.width - 4, height * len(lines))
                pygame.draw.rect(surface, mix(theme.panel, theme.accent, 0.3), band, border_radius=4)
            column = self.number_column(self.rows[index])
            for number, segments in enumerate(lines):
                x = self.rect.x + pad
                if number == 0 and column:
                    text, colour = segments[0]       # turn numbers right-aligned in one column
                    image = face.render(text.strip() + " ", True, colour)
                    surface.blit(image, (x + column - image.get_width(), y))
                    segments = segments[1:]
                x += column
                for text, colour in segments:
                    room = self.rect.right - pad - x
                    if room <= 0:
                        break
                    image = face.render(elide(face, text, room), True, colour)
                    surface.blit(image, (x, y))
                    x += image.get_width()
                y += height
            index += 1
        surface.set_clip(clip)
        if self.first > 0 or index < len(self.rows) or y > self.rect.bottom:
            self._draw_scrollbar(surface, theme)

    def _draw_scrollbar(self, surface: pygame.Surface, theme: Theme) -> None:
        total, shown = len(self.rows), self.visible_rows()
        track = pygame.Rect(self.rect.right - 6, self.rect.y + 4, 4, self.rect.height - 8)
        thumb_h = max(12, track.height * shown // max(1, total))
        thumb_y = track.y + (track.height - thumb_h) * self.first // max(1, total - shown)
        pygame.draw.rect(surface, theme.muted, (track.x, thumb_y, track.width, thumb_h), border_radius=2)


# ---------------------------------------------------------------- move list rows
def move_rows(turns: Sequence[TurnInfo], seat_colours: Sequence[tuple], theme: Theme,
              labels: Sequence[dict[int, str]] | None = None) -> list[list[Segment]]:
    """Row 0 is the start position; row i is turn i (coloured move texts, verdicts).

    ``labels`` (one dict per turn, from the renderer's ``move_labels``) replace the
    record's move texts, e.g. with another notation.
    """
    rows: list[list[Segment]] = [[(_("Start"), theme.muted)]]
    for index, turn in enumerate(turns):
        texts = labels[index] if labels is not None and index < len(labels) else turn.moves
        row: list[Segment] = [(f"{turn.number}.", theme.muted)]
        for seat in sorted(set(turn.moves) | set(turn.forfeits) | set(turn.answers)):
            colour = seat_colours[seat % len(seat_colours)] if seat_colours else theme.text
            row.append(("• ", colour))
            if seat in turn.forfeits:
                row.append((f"{_(REASON_WORDS.get(turn.forfeits[seat].get('reason'), 'forfeit'))}  ", theme.bad))
            elif seat in turn.moves:
                failure = (turn.answers.get(seat) or {}).get("failure")
                text = texts.get(seat, turn.moves[seat])
                if failure == "timeout":       # the referee moved for a seat out of time: say so
                    text = _("{reason}: {move}").format(reason=_(REASON_WORDS["timeout"]), move=text)
                row.append((f"{text}  ", theme.bad if failure else theme.text))
            else:
                row.append(("—  ", theme.muted))
        if turn.events:
            row.append(("  " + rules_text(turn.events[0].text), theme.accent))
        rows.append(row)
    return rows


# ---------------------------------------------------------------- debug text
def _tail(text: str, lines: int) -> list[str]:
    parts = text.rstrip("\n").splitlines()
    cut = len(parts) - lines
    shown = [p if len(p) <= LINE_CHARS else p[:LINE_CHARS] + "…" for p in parts[-lines:]]
    return ([_("… {count} earlier lines").format(count=cut)] if cut > 0 else []) + shown


def engine_line(described: dict | None) -> str:
    """ "Fairy-Stockfish 14 · by F. Fichter", "MoHex 2.0": an engine seat's name, version
    and author (UCI/UCCI ``id name``/``id author``, GTP ``name``/``version``, kept in the
    record's header); "" for other seats."""
    described = described or {}
    name, author = str(described.get("engine") or ""), str(described.get("author") or "")
    version = str(described.get("version") or "")
    if not name:
        return ""
    name += f" {version}" if version else ""
    return name + (" · " + _("by {author}").format(author=author) if author else "")


def format_engine_score(text) -> str:
    """An engine's score in plain words: ``cp 34`` -> "+0.34 pawns", ``mate -3`` -> "mated in 3"."""
    words = str(text).split()
    try:
        value = int(words[-1])
    except (ValueError, IndexError):
        return str(text)
    if words[0] == "mate":
        return (_("mate in {n}") if value > 0 else _("mated in {n}")).format(n=abs(value))
    if words[0] == "cp":
        return _("{pawns} pawns").format(pawns=f"{value / 100:+.2f}")
    return f"{value:+d}"


def _figure(value, form: str) -> str:
    """A record's number formatted (``,d``: whole, ``.0%``: a share), or "" when the
    record holds none or something else there (records are read from disk)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    return format(int(value) if form.endswith("d") else float(value), form)


def search_rows(search: dict, theme: Theme, pv_labels=None) -> list[list[Segment]]:
    """The search an engine or bot reported for a move: depth, score, win rate and
    playouts (MCTS engines such as MoHex), nodes, and its
    principal variation (``pv_labels(moves)`` gives the texts the move list uses)."""
    parts = []
    if "depth" in search:
        depth = f"{search['depth']}" + (f"/{search['seldepth']}" if "seldepth" in search else "")
        parts.append(_("depth {depth}").format(depth=depth))
    if "score" in search:
        parts.append(_("score {score}").format(score=format_engine_score(search["score"])))
    winrate, playouts, nodes = (_figure(search.get(key), form) for key, form in
                                (("winrate", ".0%"), ("playouts", ",d"), ("nodes", ",d")))
    if winrate:
        parts.append(_("win rate {percent}").format(percent=winrate))
    if playouts:
        parts.append(_("{playouts} playouts").format(playouts=playouts))
    if nodes:
        parts.append(_("{nodes} nodes").format(nodes=nodes))
    rows = []
    if parts:
        rows.append([(_("Search: "), theme.muted), (" · ".join(parts), theme.text)])
    pv = [str(m) for m in search.get("pv") or []]
    if pv:
        try:
            texts = pv_labels(pv) if pv_labels else pv
        except Exception:              # a renderer bug must not empty the panel
            texts = pv
        rows.append([(_("Best line: "), theme.muted), (" ".join(texts), theme.text)])
    return rows


def debug_rows(turn: TurnInfo | None, seat: int, seat_name: str, theme: Theme,
               names=None, engine: str = "", pv_labels=None) -> list[list[Segment]]:
    """What seat ``seat`` was given and answered in ``turn``, and the referee's verdict.

    ``names(seat)`` names the other seats (for "Black moved; Red had no move");
    ``engine`` is the engine's name and author (:func:`engine_line`), shown first;
    ``pv_labels`` writes a search's principal variation in the move list's notation.
    """
    head = theme.accent
    rows: list[list[Segment]] = []
    if engine:
        rows.append([(_("Engine: "), theme.muted), (engine, theme.accent)])
    if turn is None:
        return rows + [[(_("{seat}: start position; no turn selected.").format(seat=seat_name), theme.muted)]]
    answer = turn.answers.get(seat)
    forfeit = turn.forfeits.get(seat)
    if answer is None and forfeit is None:
        move = turn.moves.get(seat)
        if move is not None:          # a record that keeps the moves only (a contest's turn log)
            return rows + [[(_("Turn {n}: {seat} played {move}.").format(n=turn.number, seat=seat_name, move=move),
                      theme.text)],
                    [(_("This record keeps only the moves, not what the seat was given or answered."),
                      theme.muted)]]
        movers = [names(s) if names else _("seat {n}").format(n=s + 1) for s in sorted(turn.moves) if s != seat]
        moved = _("{seats} moved; ").format(seats=", ".join(movers)) if movers else ""
        return rows + [[(_("Turn {n}: {moved}{seat} had no move this turn.").format(
            n=turn.number, moved=moved, seat=seat_name), theme.muted)]]
    answer = answer or {}
    timing = answer_time_text(answer)
    rows.append([(_("Turn {n} · {seat}").format(n=turn.number, seat=seat_name), head)]
                + ([(timing, theme.muted)] if timing else []))
    move = turn.moves.get(seat)
    failure, detail = answer.get("failure"), kept_message(answer, "detail")
    if forfeit:
        rows.append([(_("Verdict: "), theme.muted),
                     (_("forfeit ({reason}) {detail}").format(
                         reason=_(REASON_WORDS.get(forfeit.get("reason"), str(forfeit.get("reason")))),
                         detail=rules_text(kept_message(forfeit, "detail"))), theme.bad)])
    elif failure:
        rows.append([(_("Verdict: "), theme.muted), (f"{rules_text(failure)}: {rules_text(detail)}", theme.bad)])
    else:
        rows.append([(_("Verdict: "), theme.muted), (_("accepted, played {move}").format(move=move), theme.good)])
    if isinstance(answer.get("search"), dict):
        rows.extend(search_rows(answer["search"], theme, pv_labels))
    for note in kept_message(answer, "notes") or []:
        rows.append([(_("Note: "), theme.muted), (rules_text(note), theme.accent)])
    debug = answer.get("debug")
    if isinstance(debug, dict):           # bot annotations: how many, and what was skipped
        count = len(debug.get("draw", []))
        rows.append([(_("Annotations: "), theme.muted),
                      (ngettext("{n} drawing command", "{n} drawing commands", count).format(n=count),
                       theme.text)])
        for note in debug.get("notes", []):
            rows.append([(_("Annotation note: "), theme.muted), (rules_text(note), theme.accent)])
    sections = ((N_("Given"), answer.get("given", ""), GIVEN_LINES),
                (N_("Answered"), answer.get("answered", "") or (answer.get("text") or ""), GIVEN_LINES),
                (N_("stdout (tail)"), answer.get("stdout", ""), OUTPUT_LINES),
                (N_("stderr (tail)"), answer.get("stderr", ""), OUTPUT_LINES))
    for title, text, limit in sections:
        if not text:
            continue
        rows.append([(f"— {_(title)} —", head)])
        rows.extend([[(line, theme.text)] for line in _tail(text, limit)])
    return rows


def result_parts(outcome: Outcome | None, seat_name) -> tuple[str, str]:
    """(headline, detail) for a finished game: ("Player 1 wins", "connected columns 1 and N")."""
    if outcome is None:
        return "", ""
    if outcome.reason is Termination.NOT_PLAYED:
        head = _("Not played")
    elif outcome.reason is Termination.ABORTED and not outcome.winners:
        head = _("Stopped")
    elif outcome.score_only:
        head = _("Score {score}").format(score=format_score(outcome.scores[0]))
    elif outcome.is_draw:
        head = _("Draw")
    elif outcome.winners:
        head = _("{names} wins").format(names=_(" and ").join(seat_name(s) for s in outcome.winners))
    else:                                 # a shared first place in a ranked game
        head = _("Tie for first: ") + ", ".join(seat_name(s) for s, r in enumerate(outcome.ranks) if r == 1)
    detail = rules_text(outcome.detail) or _(REASON_WORDS.get(outcome.reason.value, outcome.reason.value))
    if detail.lower().startswith(head.lower()):          # "Draw: the position repeated ..."
        detail = detail[len(head):].lstrip(" :—-") or detail
    return head, detail


def result_text(outcome: Outcome | None, seat_name) -> str:
    """The result on one line ("Player 1 wins: Player 1 connected ...")."""
    head, detail = result_parts(outcome, seat_name)
    return f"{head}: {detail}" if detail else head
