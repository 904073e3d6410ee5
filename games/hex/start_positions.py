"""The shipped Hex start positions (``positions/*.txt``): a name, a size and a position.

Each file holds ``#`` comment lines (what the position is and how it was checked)
and one line in the ``position`` option's format: N rows of ``.12`` joined by ``/``,
with equal stone counts, player 1 to move and winning with perfect play.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from games.api import GameSetupError, RecordFormatError
from games.hex.rules import parse_position

FOLDER = Path(__file__).resolve().parent / "positions"


@dataclass(frozen=True)
class StartPosition:
    name: str          # the file's stem: "hex5-one-winning-move"
    size: int
    position: str      # the ``position`` option's value
    notes: str         # the file's comment lines, without the ``#``

    def options(self) -> dict:
        """Match options that start from this position."""
        return {"size": self.size, "position": self.position}


def load_position(path: str | Path) -> StartPosition:
    """Read one position file; a malformed one raises RecordFormatError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordFormatError(str(path), None, f"a readable file ({exc.strerror})") from None
    notes, position, line_number = [], None, None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            notes.append(stripped[1:].strip())
        elif stripped:
            if position is not None:
                raise RecordFormatError(str(path), number, "a single position line")
            position, line_number = stripped, number
    if position is None:
        raise RecordFormatError(str(path), None, "a position line of rows like ..12. joined by /")
    size = len(position.split("/"))
    try:
        cells = parse_position(position, size)
    except GameSetupError as exc:
        raise RecordFormatError(str(path), line_number, f"a valid position ({exc})") from None
    if cells.count(1) != cells.count(2):
        raise RecordFormatError(str(path), line_number, "equal stone counts (a shipped position has "
                                f"player 1 to move), not {cells.count(1)} and {cells.count(2)}")
    return StartPosition(path.stem, size, position, "\n".join(notes))


def list_positions(folder: Path = FOLDER) -> list[StartPosition]:
    """Every shipped position, smallest board first."""
    positions = [load_position(p) for p in sorted(folder.glob("*.txt"))]
    return sorted(positions, key=lambda p: (p.size, p.name))
