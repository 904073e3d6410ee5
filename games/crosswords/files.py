"""The game's files as text: ``input.txt``, ``seconds.txt`` and ``output.txt``.

Pure string functions (no file system): callers read and write the files.  Every
malformed input is a :class:`games.api.RecordFormatError` naming the file and line.

``output.txt`` (the notation the arena writes, and verifies for any program)::

    412                          line 1: the total score
    .................            lines 2-18: the final board, '.' for an empty square
    ...
    # comment lines, each starting with '#', explain the notation
    draw 2 ATCEE                 take ATCEE from the left end of pile 2 (piles 1-3)
    discard QX -17               throw Q and X away, losing 17 points
    play I9 across CAT 24 (AT 5) (TO 6) = 35
                                 CAT from square I9 (column I, row 9) reading right
                                 (across) or down; CAT scores 24, each cross word its
                                 own points in brackets, then +50 or +100 for seven
                                 or eight letters placed, and '=' the move's total
    stop                         optional last line

Blank lines are ignored anywhere after the board.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Container, Sequence

from games.api import IllegalMoveError, Message, MoveSyntaxError, RecordFormatError
from games.crosswords.rules import (SIZE, CrosswordsState, Discard, Place, Stop, discard_points,
                                    format_move, parse_move, parse_piles)

NOTATION = (
    "# Crossed Words Solitaire, written by Arena. Line 1: the total; then the board,",
    "# 17 rows of 17 squares, '.' empty. Squares are named by column A-Q (left to right)",
    "# and row 1-17 (top to bottom). Then one step a line:",
    "#   draw P LETTERS        take LETTERS from the left end of pile P (1, 2 or 3)",
    "#   discard LETTERS -N    throw LETTERS away, losing N points",
    "#   play SQ across|down WORD N (CROSS N)... [+50|+100] = T",
    "#       WORD starts at square SQ and reads right (across) or down; it scores N,",
    "#       each cross word formed scores the N beside it, +50/+100 is the bonus for",
    "#       7/8 letters placed, and T is the move's total",
    "#   stop                  the player stops",
)


def _lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


def read_input(text: str, path: str = "input.txt") -> tuple[str, str, str]:
    """The three piles: exactly three lines of 66 letters (see :func:`parse_piles`)."""
    return parse_piles(text, path)


def write_input(piles: Sequence[str]) -> str:
    return "".join(p + "\n" for p in piles)


def read_seconds(text: str, path: str = "seconds.txt") -> float:
    """The time limit in seconds: one positive number on the first line."""
    lines = [line.strip() for line in _lines(text)]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) != 1:
        raise RecordFormatError(path, 1 if not lines else 2, "one number of seconds on one line")
    try:
        value = float(lines[0])
    except ValueError:
        raise RecordFormatError(path, 1, f"a number of seconds, not {lines[0][:20]!r}") from None
    if not 0 < value < 1e7:
        raise RecordFormatError(path, 1, f"a positive number of seconds, not {lines[0]}")
    return value


# -- output.txt ------------------------------------------------------------------------
@dataclass
class StepLine:
    """One step of output.txt: its line number, the move and the numbers it claims."""

    line: int
    move: Any
    text: str
    claimed: tuple = ()          # discard: (points,); play: (points, ((cross, pts)...), bonus, total)


@dataclass
class Output:
    total: int
    board: list[str]
    steps: list[StepLine]


# Numbers have at most 9 digits: a longer one is a malformed line, not a 5,000-digit int().
_PLAY = re.compile(r"(play\s+\S+\s+\S+\s+\S+)\s+(\d{1,9})((?:\s+\(\s*[A-Za-z]+\s+\d{1,9}\s*\))*)"
                   r"(?:\s+\+(\d{1,9}))?\s*=\s*(\d{1,9})\s*$", re.IGNORECASE)
_CROSS = re.compile(r"\(\s*([A-Za-z]+)\s+(\d{1,9})\s*\)")
_DISCARD = re.compile(r"(discard\s+\S+)\s+-(\d{1,9})\s*$", re.IGNORECASE)
_TOTAL = re.compile(r"-?\d{1,9}")


def parse_output(text: str, path: str = "output.txt") -> Output:
    """Read output.txt's shape (no rules checked): total, board, steps."""
    lines = _lines(text)
    if not lines or not _TOTAL.fullmatch(lines[0].strip()):
        raise RecordFormatError(path, 1, "the total score, a whole number of at most 9 digits, on line 1")
    total = int(lines[0].strip())
    board = []
    for number in range(2, SIZE + 2):
        row = lines[number - 1].strip() if number <= len(lines) else None
        if row is None or len(row) != SIZE or not re.fullmatch(r"[.A-Za-z]+", row):
            raise RecordFormatError(path, number, Message("board row {row} of 17: {size} characters, '.' or "
                                                          "a letter", row=number - 1, size=SIZE))
        board.append(row.upper())
    steps = []
    for number in range(SIZE + 2, len(lines) + 1):
        raw = lines[number - 1].strip()
        if not raw or raw.startswith("#"):
            continue
        steps.append(_parse_step(raw, path, number))
    return Output(total, board, steps)


def _parse_step(raw: str, path: str, number: int) -> StepLine:
    head = raw.split()[0].lower()
    try:
        if head == "play":
            m = _PLAY.match(raw)
            if not m:
                raise MoveSyntaxError(Message("a word step is: play SQ across|down WORD N (CROSS N)... "
                                              "[+50|+100] = T"))
            crosses = tuple((c.upper(), int(p)) for c, p in _CROSS.findall(m.group(3)))
            claimed = (int(m.group(2)), crosses, int(m.group(4) or 0), int(m.group(5)))
            return StepLine(number, parse_move(m.group(1)), raw, claimed)
        if head == "discard":
            m = _DISCARD.match(raw)
            if not m:
                raise MoveSyntaxError(Message("a discard step is: discard LETTERS -N"))
            return StepLine(number, parse_move(m.group(1)), raw, (int(m.group(2)),))
        return StepLine(number, parse_move(raw), raw)
    except MoveSyntaxError as exc:
        raise RecordFormatError(path, number, Message("a step ({error})", error=_error_of(exc))) from None


def _error_of(exc: BaseException) -> str:
    """An error's message, keeping its id when it was raised with one."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Message) else Message.of(str(exc))


def step_text(state: CrosswordsState, move: Any) -> str:
    """The output.txt line for ``move`` played from ``state`` (before it is applied)."""
    if isinstance(move, Discard):
        return f"{format_move(move)} -{discard_points(move.letters)}"
    if isinstance(move, Place):
        s = state.score_place(move)
        parts = [format_move(move), str(s.points)]
        parts += [f"({w} {p})" for w, p in s.crosses]
        if s.bonus:
            parts.append(f"+{s.bonus}")
        parts += ["=", str(s.total)]
        return " ".join(parts)
    return format_move(move)


def write_output(start: CrosswordsState, moves: Sequence[Any]) -> str:
    """output.txt for ``moves`` played from ``start`` (checked as they are played)."""
    state = start.clone()
    steps = []
    for move in moves:
        if isinstance(move, Stop):
            break
        steps.append(step_text(state, move))
        state.play({0: move})
    lines = [str(state.total), *state.board_rows(), *NOTATION, *steps, "stop"]
    return "\n".join(lines) + "\n"


@dataclass
class Verdict:
    """What verifying an output.txt found: valid or the first wrong line and why."""

    valid: bool
    score: int                     # the score of the steps that were valid
    claimed: int | None            # line 1, when it could be read
    line: int | None = None
    reason: str = ""
    moves: list = field(default_factory=list)       # the valid steps, in order
    lines: list = field(default_factory=list)       # the line number of each valid step

    def text(self) -> str:
        return f"VALID {self.score}" if self.valid else f"INVALID line {self.line}: {self.reason}"


def verify_output(text: str, piles: Sequence[str], words: Container[str],
                  path: str = "output.txt") -> Verdict:
    """Replay output.txt against the piles and the dictionary.

    The steps are checked first, in order (legality, then every number they claim);
    then the board, then the total on line 1.  The first fault found is reported
    with its line.
    """
    try:
        out = parse_output(text, path)
    except RecordFormatError as exc:
        claimed = None
        first = _lines(text)[0].strip() if text else ""
        if _TOTAL.fullmatch(first):
            claimed = int(first)
        return Verdict(False, 0, claimed, exc.line, exc.expected)
    state = CrosswordsState(words, piles)
    verdict = Verdict(False, 0, out.total)
    for index, step in enumerate(out.steps):
        move = step.move
        try:
            if isinstance(move, Stop) and index != len(out.steps) - 1:
                raise IllegalMoveError(Message("stop must be the last step"))
            state.check_move(0, move)
            problem = _claim_problem(state, step)
        except IllegalMoveError as exc:
            problem = _error_of(exc)
        if problem:
            verdict.line, verdict.reason, verdict.score = step.line, problem, state.total
            return verdict
        state.apply({0: move})
        verdict.moves.append(move)
        verdict.lines.append(step.line)
    verdict.score = state.total
    for r, (want, got) in enumerate(zip(state.board_rows(), out.board)):
        if want != got:
            verdict.line = r + 2
            verdict.reason = Message("board row {row} after the steps is {want}, not {got}", row=r + 1, want=want,
                                     got=got)
            return verdict
    if out.total != state.total:
        verdict.line, verdict.reason = 1, Message("the steps score {total}, not {claimed}", total=state.total,
                                                  claimed=out.total)
        return verdict
    verdict.valid = True
    return verdict


def _claim_problem(state: CrosswordsState, step: StepLine) -> str:
    move = step.move
    if isinstance(move, Discard):
        lost = discard_points(move.letters)
        return "" if step.claimed[0] == lost else Message("discarding {letters} loses {lost}, not {claimed}",
                                                          letters=move.letters, lost=lost, claimed=step.claimed[0])
    if isinstance(move, Place):
        s = state.score_place(move)
        points, crosses, bonus, total = step.claimed
        if points != s.points:
            return Message("{word} scores {points}, not {claimed}", word=s.word, points=s.points, claimed=points)
        if sorted(crosses) != sorted(s.crosses):
            said = " ".join(f"({w} {p})" for w, p in s.crosses) or Message("no cross word")
            return Message("the cross words are {words}", words=said)
        if bonus != s.bonus:
            return Message("the bonus is {bonus}, not {claimed}", bonus=s.bonus or Message("none"), claimed=bonus)
        if total != s.total:
            return Message("the move scores {total} in all, not {claimed}", total=s.total, claimed=total)
    return ""

