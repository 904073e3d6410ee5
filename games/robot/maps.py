"""Robot maps: the organizers' map format, validation, and the maps shipped with Arena.

A map file is line 1 ``M N K`` (rows, columns, shrink period), then M lines of N
characters ``.`` (empty) or ``#`` (forbidden); spaces between characters are allowed.
The statement promises a connected maze: every non-forbidden cell reaches every other
through side-adjacent cells.  A malformed or disconnected map raises :class:`MapError`,
which names the file, the line and what was expected.

:func:`parse_map` is a pure string function (the rules use it); :func:`load_map`,
:func:`shipped_maps` and :func:`map_text` read files.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from games.api import RecordFormatError

MAPS_DIR = Path(__file__).with_name("maps")
MIN_SIDE, MAX_SIDE = 11, 21          # the statement's bounds (strict mode)
MIN_PERIOD, MAX_PERIOD = 5, 20


class MapError(RecordFormatError):
    """A map that cannot be played: names the file, the line and the expectation."""


@dataclass(frozen=True)
class RobotMap:
    """A parsed map: ``rows[r][c]`` is ``'.'`` or ``'#'``."""

    name: str
    height: int          # M
    width: int           # N
    period: int          # K
    rows: tuple[str, ...]

    def text(self) -> str:
        """The map in the organizers' file format (no spaces between cells)."""
        return f"{self.height} {self.width} {self.period}\n" + "\n".join(self.rows) + "\n"


def parse_map(text: str, path: str = "<map>", strict: bool = False) -> RobotMap:
    """Read a map from text; ``strict`` also enforces the statement's size bounds.

    Without ``strict`` any odd size from 3 to 21 and any period from 1 is accepted
    (the RULEBOOK allows smaller maps in tests, such as the statement's 7×7 example).
    """
    lines = [line for line in text.replace("\r", "").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not lines[0].strip():
        raise MapError(path, 1, "'M N K' (rows, columns, shrink period)")
    head = lines[0].split()
    if len(head) != 3 or not all(_is_int(x) for x in head):
        raise MapError(path, 1, f"'M N K' as three whole numbers, not {lines[0].strip()!r}")
    height, width, period = (int(x) for x in head)
    low, high = (MIN_SIDE, MAX_SIDE) if strict else (3, MAX_SIDE)
    for label, value in (("M", height), ("N", width)):
        if value % 2 == 0 or not low <= value <= high:
            raise MapError(path, 1, f"{label} odd and between {low} and {high}, not {value}")
    p_low, p_high = (MIN_PERIOD, MAX_PERIOD) if strict else (1, 1000)
    if not p_low <= period <= p_high:
        raise MapError(path, 1, f"K between {p_low} and {p_high}, not {period}")
    rows = []
    for index in range(height):
        number = index + 2
        if number > len(lines):
            raise MapError(path, number, f"map row {index} of {height} (the file ends early)")
        row = "".join(lines[number - 1].split())
        if len(row) != width:
            raise MapError(path, number, f"{width} cells in map row {index}, found {len(row)}")
        bad = next((ch for ch in row if ch not in ".#"), None)
        if bad is not None:
            raise MapError(path, number, f"only '.' and '#' in map row {index}, found {bad!r}")
        rows.append(row)
    for number in range(height + 2, len(lines) + 1):
        if lines[number - 1].strip():
            raise MapError(path, number, f"the end of the file after {height} map rows")
    robot_map = RobotMap(Path(path).stem if path != "<map>" else "custom", height, width, period,
                         tuple(rows))
    _check_connected(robot_map, path)
    return robot_map


def _is_int(text: str) -> bool:
    try:
        int(text)
        return True
    except ValueError:
        return False


def _check_connected(robot_map: RobotMap, path: str) -> None:
    """Every open cell must reach every other (the statement's 'mê cung liên thông')."""
    cells = {(r, c) for r, row in enumerate(robot_map.rows) for c, ch in enumerate(row) if ch == "."}
    if not cells:
        raise MapError(path, 2, "at least one open '.' cell")
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    if len(seen) != len(cells):
        r, c = min(cells - seen)
        raise MapError(path, r + 2, f"a connected map: cell ({r}, {c}) cannot be reached "
                       f"from cell {start}")


def load_map(path: str | Path, strict: bool = False) -> RobotMap:
    """Read and check a map file."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise MapError(str(path), None, f"a readable map file ({exc.strerror})") from None
    return parse_map(text, str(path), strict)


def shipped_maps() -> list[str]:
    """Names of the maps shipped with Arena (file stems in ``games/robot/maps``)."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.txt"))


def map_text(option: str) -> str:
    """The map text for a ``map`` option: a shipped map name, a file path, or map text."""
    if "\n" in option:
        return option
    shipped = MAPS_DIR / f"{option}.txt"
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    if Path(option).is_file():
        return Path(option).read_text(encoding="utf-8-sig", errors="replace")
    raise MapError(option, None, "a shipped map name (" + ", ".join(shipped_maps())
                   + "), a map file, or map text")
