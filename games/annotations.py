"""Bot annotations: what a program draws on the board to show what it was thinking.

A program may write simple drawing commands, one a line (``docs/ANNOTATIONS.md``):

    mark CELL [COLOUR] [LABEL...]     a ring round a cell, with a short label
    line CELL CELL [COLOUR]           a line between two cells
    arrow CELL CELL [COLOUR]          an arrow from the first cell to the second
    text [COLOUR] MESSAGE...          a line of text in the board's corner
    heat CELL NUMBER                  a number on a cell, its colour on a cold-hot scale

File protocols read them from the side file ``DEBUG.OUT``; line protocols from output
lines starting ``# debug`` (:data:`DEBUG_PREFIX`).  Cells are written in the game's own
notation and read by :meth:`games.api.Game.parse_cell`, so a new game only declares that.

This module is pure (standard library only, no files): :func:`parse_annotations` turns
text into :class:`Annotations`, never raising; every line it cannot read becomes a note
naming the line and what was expected, and the sizes are capped (:data:`MAX_BYTES`,
:data:`MAX_COMMANDS`, ...).  :func:`annotations_from_json` type-checks what a record
holds.  The JSON form of a command is a list:

    ["mark", [a, b], "#rrggbb" or "", "label"]
    ["line" | "arrow", [a, b], [c, d], "#rrggbb" or ""]
    ["text", "#rrggbb" or "", "message"]
    ["heat", [a, b], number]

(``""`` colour: the seat's own colour; a cell is the pair of whole numbers the game's
``parse_cell`` returned.)
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

#: The start of an annotation line in a line protocol's output (and optional in DEBUG.OUT).
DEBUG_PREFIX = "# debug"
#: The side file a file-protocol program may write.
DEBUG_FILE = "DEBUG.OUT"
#: Bytes of annotation text read per turn and seat (DEBUG.OUT, or ``# debug`` lines).
MAX_BYTES = 16_384
#: Commands kept per turn and seat; later ones are dropped with a note.
MAX_COMMANDS = 256
#: Characters of one command line read; a longer line is a note.
MAX_LINE = 200
#: Characters kept of a mark's label and of a text.
MAX_LABEL = 24
MAX_TEXT = 120
#: Notes kept per turn and seat (then one saying more were left out).
MAX_NOTES = 10
#: Largest heat value taken (its absolute value).
MAX_HEAT = 1e9
#: Words a cell may take (Robot's ``row col`` takes two).
MAX_CELL_WORDS = 2

#: Colour names a command may use (or ``#rgb`` / ``#rrggbb``).
COLOURS = {
    "red": "#e53935", "orange": "#fb8c00", "yellow": "#fdd835", "green": "#43a047",
    "cyan": "#00acc1", "blue": "#1e88e5", "purple": "#8e24aa", "pink": "#ec407a",
    "white": "#ffffff", "black": "#000000", "grey": "#9e9e9e", "gray": "#9e9e9e",
}
_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
KINDS = ("mark", "line", "arrow", "text", "heat")

Cell = tuple[int, int]
CellParser = Callable[[str], "Cell | None"]


@dataclass
class Annotations:
    """One seat's drawing commands for one turn (JSON lists) and the notes on its text."""

    commands: list[list] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"draw": self.commands}
        if self.notes:
            data["notes"] = self.notes
        return data

    def note(self, text: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(text)
        elif len(self.notes) == MAX_NOTES:
            self.notes.append("(further notes left out)")

    def __bool__(self) -> bool:
        return bool(self.commands or self.notes)


def colour_of(word: str) -> str | None:
    """``"#rrggbb"`` for a colour name or hex colour, None when ``word`` is not one."""
    word = word.lower()
    if word in COLOURS:
        return COLOURS[word]
    match = _HEX.match(word)
    if not match:
        return None
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return "#" + digits.lower()


def debug_lines(text: str) -> list[str]:
    """The ``# debug`` lines of a program's output, the prefix removed (line protocols)."""
    return [strip_debug_prefix(line) for line in text.splitlines() if is_debug_line(line)]


def is_debug_line(line: str) -> bool:
    """True for an annotation line of a line protocol: ``# debug ...``, or UCI/UCCI's
    ``info string # debug ...``."""
    line = line.lstrip()
    if line.startswith("info string "):
        line = line[len("info string "):].lstrip()
    return line[:len(DEBUG_PREFIX)].lower() == DEBUG_PREFIX and (
        len(line) == len(DEBUG_PREFIX) or line[len(DEBUG_PREFIX)].isspace())


def strip_debug_prefix(line: str) -> str:
    """The command of a ``# debug`` (or ``info string # debug``) line."""
    line = line.lstrip()
    if line.startswith("info string "):
        line = line[len("info string "):].lstrip()
    return line[len(DEBUG_PREFIX):].strip()


def parse_annotations(text: str, parse_cell: CellParser, source: str = DEBUG_FILE) -> Annotations:
    """Read annotation commands from ``text`` (DEBUG.OUT, or the ``# debug`` lines of a
    turn with their prefix removed or kept).  Never raises: a line that is not a command
    becomes a note ``"DEBUG.OUT line 3: ..."`` and is skipped; blank lines and other
    ``#`` comments are skipped silently; at most :data:`MAX_BYTES` characters and
    :data:`MAX_COMMANDS` commands are read."""
    result = Annotations()
    if not isinstance(text, str):
        result.note(f"{source}: not text")
        return result
    if len(text) > MAX_BYTES:
        result.note(f"{source}: only the first {MAX_BYTES} bytes were read")
        text = text[:MAX_BYTES]
    if "\0" in text:
        result.note(f"{source}: holds binary data; ignored")
        return result
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if is_debug_line(line):
            line = strip_debug_prefix(line)
        if not line or line.startswith("#"):
            continue
        if len(result.commands) >= MAX_COMMANDS:
            result.note(f"{source}: more than {MAX_COMMANDS} commands; the rest were ignored")
            break
        if len(line) > MAX_LINE:
            result.note(f"{source} line {number}: longer than {MAX_LINE} characters; ignored")
            continue
        try:
            result.commands.append(parse_command(line, parse_cell))
        except ValueError as exc:
            result.note(f"{source} line {number}: {exc}")
    return result


def parse_command(line: str, parse_cell: CellParser) -> list:
    """One command line as its JSON list; ``ValueError`` saying what was expected."""
    words = line.split()
    kind, rest = words[0].lower(), words[1:]
    if kind == "mark":
        cell, rest = _take_cell(rest, parse_cell, "mark CELL [COLOUR] [LABEL]")
        colour, rest = _take_colour(rest)
        return ["mark", list(cell), colour, _clip(" ".join(rest), MAX_LABEL)]
    if kind in ("line", "arrow"):
        usage = f"{kind} CELL CELL [COLOUR]"
        start, rest = _take_cell(rest, parse_cell, usage)
        end, rest = _take_cell(rest, parse_cell, usage)
        colour, rest = _take_colour(rest)
        if rest:
            raise ValueError(f"unexpected {' '.join(rest)[:30]!r} (expected {usage})")
        return [kind, list(start), list(end), colour]
    if kind == "text":
        colour, rest = _take_colour(rest)
        if not rest:
            raise ValueError("expected text [COLOUR] MESSAGE")
        return ["text", colour, _clip(" ".join(rest), MAX_TEXT)]
    if kind == "heat":
        cell, rest = _take_cell(rest, parse_cell, "heat CELL NUMBER")
        if len(rest) != 1:
            raise ValueError("expected heat CELL NUMBER")
        return ["heat", list(cell), _number(rest[0])]
    raise ValueError(f"unknown command {words[0][:20]!r} (expected one of {', '.join(KINDS)})")


def _take_cell(words: list[str], parse_cell: CellParser, usage: str) -> tuple[Cell, list[str]]:
    """The cell the fewest leading words spell, and the words after it."""
    for count in range(1, min(MAX_CELL_WORDS, len(words)) + 1):
        try:
            cell = parse_cell(" ".join(words[:count]))
        except Exception:             # a game's parser must not crash the referee
            cell = None
        if _is_cell(cell):
            return (int(cell[0]), int(cell[1])), words[count:]
    shown = " ".join(words[:MAX_CELL_WORDS])[:30]
    raise ValueError(f"{shown!r} is not a cell of this game (expected {usage})" if words
                     else f"a cell is missing (expected {usage})")


def _is_cell(cell: Any) -> bool:
    return (isinstance(cell, tuple) and len(cell) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10_000 for v in cell))


def _take_colour(words: list[str]) -> tuple[str, list[str]]:
    if words and (colour := colour_of(words[0])) is not None:
        return colour, words[1:]
    return "", words


def _number(word: str) -> float:
    try:
        value = float(word)
    except ValueError:
        raise ValueError(f"{word[:20]!r} is not a number (expected heat CELL NUMBER)") from None
    if not math.isfinite(value) or abs(value) > MAX_HEAT:
        raise ValueError(f"{word[:20]!r} is out of range (at most {MAX_HEAT:g} either way)")
    return int(value) if value.is_integer() else value


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---------------------------------------------------------------- records

def annotations_from_json(data: Any) -> Annotations:
    """Type-check a record's ``"debug"`` field; ``ValueError`` saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError('"debug" must be an object')
    commands, notes = data.get("draw", []), data.get("notes", [])
    if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
        raise ValueError(f'"debug"."draw" must be a list of at most {MAX_COMMANDS} commands')
    if not isinstance(notes, list) or len(notes) > MAX_NOTES + 1 or not all(
            isinstance(n, str) for n in notes):
        raise ValueError('"debug"."notes" must be a short list of text')
    for command in commands:
        _check_command(command)
    return Annotations([list(c) for c in commands], list(notes))


def _check_command(command: Any) -> None:
    if not isinstance(command, list) or not command or command[0] not in KINDS:
        raise ValueError(f"an annotation is a list starting with one of {', '.join(KINDS)}")
    kind = command[0]
    shapes = {"mark": (_json_cell, _json_colour, _text(MAX_LABEL)),
              "line": (_json_cell, _json_cell, _json_colour),
              "arrow": (_json_cell, _json_cell, _json_colour),
              "text": (_json_colour, _text(MAX_TEXT)),
              "heat": (_json_cell, _json_number)}[kind]
    if len(command) != len(shapes) + 1 or not all(check(v) for check, v in zip(shapes, command[1:])):
        raise ValueError(f"a {kind!r} annotation of the wrong shape: {str(command)[:60]}")


def _json_cell(value: Any) -> bool:
    return isinstance(value, list) and _is_cell(tuple(value))


def _json_colour(value: Any) -> bool:
    return value == "" or (isinstance(value, str) and bool(re.fullmatch(r"#[0-9a-f]{6}", value)))


def _text(limit: int) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and len(value) <= limit


def _json_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and abs(value) <= MAX_HEAT)
