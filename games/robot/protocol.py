"""Robot's contest files as pure strings: MAP.INP (written) and MOVE.OUT (read).

MAP.INP (RULES.md, "Files"): line 1 ``M N K T``; line 2 ``X Y C`` (own position,
``-1 -1`` while placing or after leaving, own colour); line 3 ``P``; P lines ``X Y C``
for the other players in seat order; M map rows written as N characters separated by
single spaces (**RULING**); ``Z``; Z lines ``X Y C`` for the items; a final newline.
:func:`read_map_inp` accepts rows with or without spaces (bots and tests read it).
"""
from __future__ import annotations

from dataclasses import dataclass

from games.api import Message, MoveSyntaxError, RecordFormatError
from games.robot.rules import COLOURS, Item, RobotState, parse_move_text

MAX_MOVE_BYTES = 4096


def _pos_text(state: RobotState, seat: int) -> str:
    pos = state.position(seat)
    x, y = pos if pos is not None else (-1, -1)
    return f"{x} {y} {COLOURS[seat]}"


def write_map_inp(state: RobotState, seat: int) -> str:
    """The MAP.INP that ``seat`` reads before answering turn ``state.turn``."""
    b = state.board
    lines = [f"{b.height} {b.width} {b.period} {state.turn}", _pos_text(state, seat)]
    others = [s for s in range(state.players) if s != seat]
    lines.append(str(len(others)))
    lines += [_pos_text(state, s) for s in others]
    lines += [" ".join(row) for row in state.map_rows()]
    items = state.item_list()
    lines.append(str(len(items)))
    lines += [f"{i.x} {i.y} {i.kind}" for i in items]
    return "\n".join(lines) + "\n"


def parse_move_out(text: str) -> tuple[int, int]:
    """MOVE.OUT's first line ``NEXT_X NEXT_Y`` (raise MoveSyntaxError when it is not)."""
    if len(text) > MAX_MOVE_BYTES:
        raise MoveSyntaxError(Message("MOVE.OUT is {size} bytes; expected one short line", size=len(text)))
    if "\0" in text:
        raise MoveSyntaxError(Message("{file} holds binary data", file="MOVE.OUT"))
    return parse_move_text(text)


def organizers_reading(text: str) -> tuple[int, int] | None:
    """MOVE.OUT as the organizers' referee reads it, or None when it reads no cell.

    Their referee takes the first line with its newline, drops the line's last
    character (meant to be the newline), splits the rest on single spaces and wants two
    whole numbers; anything else is read as (-1, -1): stay, or a random placement."""
    end = text.find("\n")
    line = text if end < 0 else text[:end + 1]
    try:
        values = [int(v) for v in line[:-1].split(" ")]
    except ValueError:
        return None
    return (values[0], values[1]) if len(values) == 2 else None


def organizers_warning(text: str) -> str:
    """A warning when the organizers' referee would read MOVE.OUT otherwise than the
    arena does (the arena accepts commas, several spaces, leading spaces and a missing
    final newline); "" when both read the same cell."""
    try:
        ours = parse_move_out(text)
    except MoveSyntaxError:
        return ""
    if organizers_reading(text) == ours:
        return ""
    first = text.split("\n", 1)[0]
    if "\n" not in text:
        why = Message("has no newline after the move")
    elif "," in first:
        why = Message("separates the numbers with a comma")
    elif first[:1].isspace():
        why = Message("starts with a space")
    else:
        why = Message("does not separate the numbers with exactly one space")
    return Message("MOVE.OUT {why} ({line}): the organizers' referee reads this as no move (stay, or a "
                   "random placement)", why=why, line=repr(first[:20]))


@dataclass
class MapInput:
    """A MAP.INP read back: what a program sees."""

    height: int
    width: int
    period: int
    turn: int
    me: tuple[int, int, str]
    others: list[tuple[int, int, str]]
    rows: list[str]
    items: list[Item]


def read_map_inp(text: str, path: str = "MAP.INP") -> MapInput:
    """Parse a MAP.INP; map rows may have spaces between cells or not."""
    lines = text.replace("\r", "").split("\n")
    cursor = [0]

    def next_line(expected: str) -> list[str]:
        while cursor[0] < len(lines) and not lines[cursor[0]].strip():
            cursor[0] += 1
        if cursor[0] >= len(lines):
            raise RecordFormatError(path, cursor[0] + 1, expected + " (the file ends early)")
        cursor[0] += 1
        return lines[cursor[0] - 1].split()

    def numbers(parts: list[str], count: int, expected: str) -> list[int]:
        try:
            values = [int(v) for v in parts[:count]]
        except ValueError:
            values = []
        if len(values) != count:
            raise RecordFormatError(path, cursor[0], expected)
        return values

    def player(expected: str) -> tuple[int, int, str]:
        parts = next_line(expected)
        x, y = numbers(parts, 2, expected)
        if len(parts) < 3 or parts[2] not in COLOURS:
            raise RecordFormatError(path, cursor[0], expected)
        return x, y, parts[2]

    height, width, period, turn = numbers(next_line("'M N K T'"), 4, "'M N K T'")
    me = player("'X Y C' (own position and colour)")
    count = numbers(next_line("P (number of other players)"), 1, "P (number of other players)")[0]
    others = [player("'X Y C' (another player)") for _ in range(count)]
    rows = []
    for r in range(height):
        row = "".join(next_line(f"map row {r}"))
        if len(row) != width:
            raise RecordFormatError(path, cursor[0], f"{width} cells in map row {r}")
        rows.append(row)
    z = numbers(next_line("Z (number of items)"), 1, "Z (number of items)")[0]
    items = []
    for _ in range(z):
        parts = next_line("'X Y C' (an item)")
        x, y = numbers(parts, 2, "'X Y C' (an item)")
        if len(parts) < 3 or parts[2] not in "GEF":
            raise RecordFormatError(path, cursor[0], "'X Y C' with C one of G E F")
        items.append(Item(x, y, parts[2]))
    return MapInput(height, width, period, turn, me, others, rows, items)
