"""The built-in bot's opening book: standard lines from ``openings.txt``, keyed by position.

Each line of ``openings.txt`` is ``WEIGHT | NAME | ICCS moves``.  The lines are
replayed from the usual start and every position on the way records the move the line
plays there, with the line's weight; lines that share a position add up their weights.
Keying by position (placement and side to move, the Zobrist key) rather than by move
order lets the bot find the book after transpositions and from a FEN start that
happens to be a book position.  A move that is not legal where it stands is an error
naming the file, the line and the move, so a bad edit to the data cannot reach a game.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from games.api import GameSetupError
from games.xiangqi.rules import START_FEN, Position, move_text, parse_move_text

BOOK_PATH = Path(__file__).with_name("openings.txt")


@dataclass(frozen=True)
class BookLine:
    """One opening line: its weight, its name and its moves (ICCS, upper case)."""

    weight: int
    name: str
    moves: tuple[str, ...]


@dataclass
class BookChoice:
    """A move the book offers in a position: its total weight and the lines that play it."""

    move: int
    weight: int
    names: list[str]


def parse_book(text: str, source: str = "openings.txt") -> list[BookLine]:
    """The lines of a book file; raises :class:`GameSetupError` naming the line at fault."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        fields = [field.strip() for field in stripped.split("|")]
        where = f"{source} line {number}"
        if len(fields) != 3:
            raise GameSetupError(f"{where}: expected 'WEIGHT | NAME | MOVES', got {stripped!r}")
        weight_text, name, moves_text = fields
        if not weight_text.isdigit() or int(weight_text) <= 0:
            raise GameSetupError(f"{where}: the weight must be a whole number above 0, got {weight_text!r}")
        moves = tuple(moves_text.upper().split())
        if not name or not moves:
            raise GameSetupError(f"{where}: a line needs a name and at least one move")
        lines.append(BookLine(int(weight_text), name, moves))
    return lines


class OpeningBook:
    """Position key -> the book's moves there, built by replaying every line from the start."""

    def __init__(self, lines: list[BookLine], source: str = "openings.txt"):
        self.lines = lines
        self.entries: dict[int, list[BookChoice]] = {}
        for line in lines:
            self._add(line, source)

    def _add(self, line: BookLine, source: str) -> None:
        position = Position.from_fen(START_FEN)[0]
        for ply, text in enumerate(line.moves, start=1):
            try:
                move = parse_move_text(text)
            except Exception as exc:
                raise GameSetupError(f"{source}, line {line.name!r}, move {ply}: {exc}") from None
            if move not in position.legal_moves():
                raise GameSetupError(f"{source}, line {line.name!r}, move {ply} ({text}) is not legal "
                                     f"in {position.fen()}")
            choices = self.entries.setdefault(position.key, [])
            for choice in choices:
                if choice.move == move:
                    choice.weight += line.weight
                    choice.names.append(line.name)
                    break
            else:
                choices.append(BookChoice(move, line.weight, [line.name]))
            position.make(move)

    def choices(self, position: Position) -> list[BookChoice]:
        """The book's moves in ``position`` (empty when it is out of book)."""
        return self.entries.get(position.key, [])

    def pick(self, position: Position, rng: random.Random) -> BookChoice | None:
        """A book move chosen at random in proportion to its weight, or None out of book.

        The book's moves are re-checked against the position's legal moves, so a key
        collision can never make the bot play an illegal move.
        """
        legal = set(position.legal_moves())
        choices = [choice for choice in self.choices(position) if choice.move in legal]
        if not choices:
            return None
        return rng.choices(choices, weights=[choice.weight for choice in choices])[0]

    def describe(self, choice: BookChoice) -> str:
        """``"H2E2 (Central cannon, ...)"``: the move and the first line that plays it."""
        return f"{move_text(choice.move)} ({choice.names[0]})"


_BOOK: OpeningBook | None = None


def default_book() -> OpeningBook:
    """The book from ``openings.txt``, read once per process."""
    global _BOOK
    if _BOOK is None:
        _BOOK = OpeningBook(parse_book(BOOK_PATH.read_text(encoding="utf-8"), BOOK_PATH.name), BOOK_PATH.name)
    return _BOOK
