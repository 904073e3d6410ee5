"""Tam Quan's program files as pure strings: STATE.INP (written) and MOVE.OUT (read).

STATE.INP, one item a line, numbers separated by single spaces, a final newline::

    N T            board size, turn number (turns already played, placements included)
    C S            own team letter (R, B, Y, G), number of own members
    N rows         N characters each: '.' empty, or a team letter
    Z              number of zones still free (0 once setup is over)
    Z lines        K M R1 C1 ... RM CM: zone number, its cell count, its cells

MOVE.OUT during setup: ``K`` (a free zone), then S lines ``R C`` (the members' cells).
During play: one line ``R1 C1 R2 C2`` per member, in the order they step (from-square,
to-square; to = from for a member with no empty neighbour).  Rows and columns count
from 0, row 0 at the top.  Any whitespace between numbers is accepted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from games.api import Message, MoveSyntaxError, RecordFormatError
from games.tamquan.rules import LETTERS, Placement, Steps, TamQuanState

MAX_MOVE_BYTES = 4096
_NUMBER = re.compile(r"-?\d{1,6}")


def write_state_inp(state: TamQuanState, seat: int) -> str:
    """The STATE.INP team ``seat`` reads before answering."""
    L = state.layout
    own = L.members if state.setup else state.piece_counts()[seat]
    lines = [f"{L.size} {state.turn_number()}", f"{LETTERS[seat]} {own}"]
    lines += state.rows()
    free = state.free_zones() if state.setup else []
    lines.append(str(len(free)))
    for k in free:
        zone = sorted(L.zones[k])
        lines.append(" ".join([str(k + 1), str(len(zone))] + [f"{r} {c}" for r, c in zone]))
    return "\n".join(lines) + "\n"


def parse_move_out(text: str, state: TamQuanState, seat: int) -> Placement | Steps:
    """MOVE.OUT read as a move of ``seat`` (raise :class:`MoveSyntaxError` when its
    numbers do not make one: wrong count, or text that is not numbers)."""
    if len(text) > MAX_MOVE_BYTES:
        raise MoveSyntaxError(Message("MOVE.OUT is {size} bytes; expected a few short lines", size=len(text)))
    if "\0" in text:
        raise MoveSyntaxError(Message("{file} holds binary data", file="MOVE.OUT"))
    words = text.split()
    for word in words:
        if not _NUMBER.fullmatch(word):
            raise MoveSyntaxError(Message("MOVE.OUT holds {word}; expected whole numbers only", word=repr(word[:20])))
    numbers = [int(w) for w in words]
    if state.setup:
        want = 1 + 2 * state.layout.members
        if len(numbers) != want:
            raise MoveSyntaxError(Message("expected a zone number and {members} cells ({want} numbers), "
                                          "got {count} numbers", members=state.layout.members, want=want,
                                          count=len(numbers)))
        cells = tuple((numbers[i], numbers[i + 1]) for i in range(1, want, 2))
        return Placement(numbers[0] - 1, cells)
    members = state.piece_counts()[seat]
    if len(numbers) != 4 * members:
        raise MoveSyntaxError(Message("expected {members} lines 'R1 C1 R2 C2' ({want} numbers), got {count} numbers",
                                      members=members, want=4 * members, count=len(numbers)))
    return Steps(tuple(((numbers[i], numbers[i + 1]), (numbers[i + 2], numbers[i + 3]))
                       for i in range(0, len(numbers), 4)))


def move_text_of(text: str) -> str:
    """MOVE.OUT's numbers as a move's text, without the state: an odd count is a
    placement (``K`` then cells), a multiple of four is a list of steps.  Whether the
    move fits the position (member count, zone, steps) is the referee's check; a file
    that holds anything but numbers, or another count, is unreadable."""
    if len(text) > MAX_MOVE_BYTES:
        raise MoveSyntaxError(Message("MOVE.OUT is {size} bytes; expected a few short lines", size=len(text)))
    words = text.split()
    for word in words:
        if not _NUMBER.fullmatch(word):
            raise MoveSyntaxError(Message("MOVE.OUT holds {word}; expected whole numbers only", word=repr(word[:20])))
    numbers = [int(w) for w in words]
    if not numbers:
        raise MoveSyntaxError(Message("{file} is empty", file="MOVE.OUT"))
    if any(x < 0 or x > 999 for x in numbers):
        raise MoveSyntaxError(Message("MOVE.OUT holds a number outside 0-999"))
    if len(numbers) % 2:
        cells = " ".join(f"{numbers[i]},{numbers[i + 1]}" for i in range(1, len(numbers), 2))
        if numbers[0] < 1:
            raise MoveSyntaxError(Message("zones are numbered from 1"))
        return f"zone {numbers[0]}:" + (" " + cells if cells else "")
    if len(numbers) % 4:
        raise MoveSyntaxError(Message("{count} numbers: expected lines 'R1 C1 R2 C2' "
                                      "(or a zone number and cells during setup)", count=len(numbers)))
    return " ".join(f"{numbers[i]},{numbers[i + 1]}-{numbers[i + 2]},{numbers[i + 3]}"
                    for i in range(0, len(numbers), 4))


def format_move_out(move: Placement | Steps) -> str:
    """The MOVE.OUT a program would write for ``move``."""
    if isinstance(move, Placement):
        return "\n".join([str(move.zone + 1)] + [f"{r} {c}" for r, c in move.cells]) + "\n"
    return "".join(f"{a[0]} {a[1]} {b[0]} {b[1]}\n" for a, b in move.steps)


@dataclass
class StateInput:
    """A STATE.INP read back: what a program sees."""

    size: int
    turn: int
    team: str
    members: int
    rows: list[str]
    zones: dict[int, list[tuple[int, int]]]


def read_state_inp(text: str, path: str = "STATE.INP") -> StateInput:
    """Parse a STATE.INP (raise :class:`RecordFormatError` naming the line)."""
    lines = text.replace("\r", "").split("\n")

    def line(i: int, expected: str) -> list[str]:
        if i >= len(lines) or not lines[i].strip():
            raise RecordFormatError(path, i + 1, expected)
        return lines[i].split()

    def ints(words: list[str], i: int, count: int | None, expected: str) -> list[int]:
        try:
            values = [int(w) for w in words]
        except ValueError:
            raise RecordFormatError(path, i + 1, expected) from None
        if count is not None and len(values) != count:
            raise RecordFormatError(path, i + 1, expected)
        return values

    size, turn = ints(line(0, "'N T'"), 0, 2, "'N T' (board size, turn number)")
    words = line(1, "'C S' (team letter, members)")
    if len(words) != 2 or words[0] not in LETTERS:
        raise RecordFormatError(path, 2, "'C S' with C one of " + " ".join(LETTERS))
    members = ints(words[1:], 1, 1, "'C S' (team letter, members)")[0]
    rows = []
    for r in range(size):
        row = "".join(line(2 + r, f"board row {r}"))
        if len(row) != size or any(ch != "." and ch not in LETTERS for ch in row):
            raise RecordFormatError(path, 3 + r, f"{size} cells ('.' or a team letter)")
        rows.append(row)
    at = 2 + size
    count = ints(line(at, "Z (free zones)"), at, 1, "Z (free zones)")[0]
    zones = {}
    for i in range(count):
        values = ints(line(at + 1 + i, "'K M R1 C1 ...' (a zone)"), at + 1 + i, None,
                      "'K M R1 C1 ...' (a zone)")
        if len(values) < 2 or len(values) != 2 + 2 * values[1]:
            raise RecordFormatError(path, at + 2 + i, "'K M' then M cells 'R C'")
        zones[values[0]] = [(values[j], values[j + 1]) for j in range(2, len(values), 2)]
    return StateInput(size, turn, words[0], members, rows, zones)
