"""Crossed Words Solitaire rules: pure Python, standard library only.

One player builds crossing words on a 17x17 board from letters drawn off three piles
of 66.  ``games/crosswords/RULES.md`` states the rules in full; this module is their
reference implementation.

A move in the game API is one *step*, so that a replay steps line by line:

* :class:`Draw` ``draw 2 ATC``: take ``ATC`` from the left end of pile 2 (piles 1-3);
* :class:`Discard` ``discard QX``: throw letters of the hand away, losing their values;
* :class:`Place` ``play I9 across CAT``: the whole word read left to right (``across``)
  or top to bottom (``down``) from its first square, old letters included; squares are
  a column letter ``A``-``Q`` and a row number ``1``-``17``;
* :class:`Stop` ``stop``: the game ends.

Steps follow each other as the rules say: a draw may come at the start, after a word,
or after a discard (never two draws in a row); an empty hand must draw (or stop).

The dictionary is data handed to :class:`CrosswordsGame`: anything with ``in`` for
lower-case words (a :class:`games.crosswords.lexicon.Lexicon` for speed).  The rules
never read a file; the piles come as the text of a letters file or from the seed.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Container, Mapping, Sequence

from games.api import (Event, Game, GameKind, GameSetupError, GameSpec, IllegalMoveError,
                       Message, MoveSyntaxError, Option, Outcome, RecordFormatError, State,
                       Termination, Variant)

SIZE = 17
PILES = 3
PILE_LENGTH = 66
HAND_LIMIT = 8
MIN_WORD, MAX_WORD = 2, 12
BONUS_SEVEN, BONUS_EIGHT = 50, 100
COLUMNS = "ABCDEFGHIJKLMNOPQ"
SAMPLE_WORDS = 24

#: Face value of each letter.
LETTER_VALUES: dict[str, int] = {
    "Q": 9, "J": 9, "X": 8, "Z": 8, "V": 8, "W": 7, "K": 7, "F": 7, "Y": 6, "B": 6,
    "H": 6, "M": 5, "P": 5, "G": 5, "U": 4, "C": 4, "D": 4, "L": 3, "T": 3, "O": 3,
    "N": 2, "R": 2, "A": 2, "I": 1, "S": 1, "E": 1}

#: How many of each letter the three piles hold together (198 letters).
LETTER_COUNTS: dict[str, int] = {
    "Q": 1, "J": 1, "X": 2, "Z": 2, "V": 3, "W": 3, "K": 4, "F": 4, "Y": 5, "B": 5,
    "H": 6, "M": 6, "P": 7, "G": 7, "U": 8, "C": 8, "D": 9, "L": 9, "T": 10, "O": 11,
    "N": 12, "R": 13, "A": 14, "I": 15, "S": 16, "E": 17}


def _bonus_grid() -> tuple[str, ...]:
    """One character per square, row by row: ``T`` triple word, ``D`` double word,
    ``2`` double letter, ``3`` triple letter, ``.`` plain."""
    grid = [["."] * SIZE for _ in range(SIZE)]
    for group in ((0, 8, 16), (4, 12)):
        for r in group:
            for c in group:
                grid[r][c] = "T"
    for r in (2, 6, 10, 14):
        for c in (2, 6, 10, 14):
            grid[r][c] = "D"
    # Double letter: halfway between two triple-word squares of the same row or column.
    for a in range(SIZE):
        for b in range(SIZE):
            if grid[a][b] == "T":
                for step in (8, 16):
                    for (r, c) in ((a, b + step), (a + step, b)):
                        if r < SIZE and c < SIZE and grid[r][c] == "T" and step == 8:
                            grid[(a + r) // 2][(b + c) // 2] = "2"
    # Triple letter: the two main diagonals and the diamond through the edges' middles,
    # wherever nothing else is.
    for r in range(SIZE):
        for c in range(SIZE):
            on_diagonal = r == c or r + c == SIZE - 1
            on_diamond = abs(r - 8) + abs(c - 8) == 8
            if (on_diagonal or on_diamond) and grid[r][c] == ".":
                grid[r][c] = "3"
    return tuple("".join(row) for row in grid)


BONUS_ROWS = _bonus_grid()
BONUS = "".join(BONUS_ROWS)                     # BONUS[r * SIZE + c]
LETTER_FACTOR = tuple({"2": 2, "3": 3}.get(b, 1) for b in BONUS)
WORD_FACTOR = tuple({"D": 2, "T": 3}.get(b, 1) for b in BONUS)


def square_name(row: int, col: int) -> str:
    """``square_name(8, 8) == "I9"``: column letter, then row number from 1."""
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([A-Qa-q])(\d{1,2})", text)
    if not m or not 1 <= int(m.group(2)) <= SIZE:
        raise MoveSyntaxError(Message("{square} is not a square (A1 to Q17)", square=repr(text)))
    return int(m.group(2)) - 1, COLUMNS.index(m.group(1).upper())


# -- moves ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Draw:
    pile: int          # 1-3
    letters: str       # upper case, as they lie at the pile's left end


@dataclass(frozen=True)
class Discard:
    letters: str


@dataclass(frozen=True)
class Place:
    row: int
    col: int
    across: bool
    word: str          # upper case, the whole word including letters already there

    def squares(self) -> list[tuple[int, int]]:
        dr, dc = (0, 1) if self.across else (1, 0)
        return [(self.row + i * dr, self.col + i * dc) for i in range(len(self.word))]


@dataclass(frozen=True)
class Stop:
    pass


STOP = Stop()


def format_move(move: Any) -> str:
    if isinstance(move, Draw):
        return f"draw {move.pile} {move.letters}"
    if isinstance(move, Discard):
        return f"discard {move.letters}"
    if isinstance(move, Place):
        return f"play {square_name(move.row, move.col)} {'across' if move.across else 'down'} {move.word}"
    if isinstance(move, Stop):
        return "stop"
    raise MoveSyntaxError(Message("{move} is not a Crossed Words move", move=repr(move)))


def parse_move(text: str) -> Any:
    """Read ``draw P LETTERS``, ``discard LETTERS``, ``play SQ across|down WORD``, ``stop``."""
    words = text.split()
    if not words:
        raise MoveSyntaxError(Message("an empty line is not a move"))
    head = words[0].lower()
    if head == "stop" and len(words) == 1:
        return STOP
    if head == "draw" and len(words) == 3 and words[1] in ("1", "2", "3") and _letters(words[2]):
        return Draw(int(words[1]), words[2].upper())
    if head == "discard" and len(words) == 2 and _letters(words[1]):
        return Discard(words[1].upper())
    if head == "play" and len(words) == 4 and words[2].lower() in ("across", "down"):
        row, col = parse_square(words[1])
        if not _letters(words[3]):
            raise MoveSyntaxError(Message("{word} is not a word of letters A-Z", word=repr(words[3])))
        return Place(row, col, words[2].lower() == "across", words[3].upper())
    raise MoveSyntaxError(Message("{text} is not a move (draw P LETTERS, discard LETTERS, "
                                  "play SQUARE across|down WORD, stop)", text=repr(text.strip())))


def _letters(text: str) -> bool:
    return text.isascii() and text.isalpha() and 1 <= len(text) <= SIZE


# -- scoring -------------------------------------------------------------------------
@dataclass(frozen=True)
class Scored:
    """What a word placement scores: the main word, each cross word, the bonus."""

    word: str
    points: int
    crosses: tuple[tuple[str, int], ...]
    bonus: int
    placed: tuple[tuple[int, int], ...]      # squares that received a letter from the hand

    @property
    def total(self) -> int:
        return self.points + sum(p for _, p in self.crosses) + self.bonus


def word_points(board: Sequence[str], squares: Sequence[tuple[int, int]]) -> int:
    """Sum of letter values times letter factors, times every word factor covered."""
    total, factor = 0, 1
    for r, c in squares:
        i = r * SIZE + c
        total += LETTER_VALUES[board[i]] * LETTER_FACTOR[i]
        factor *= WORD_FACTOR[i]
    return total * factor


def discard_points(letters: str) -> int:
    return sum(LETTER_VALUES[ch] for ch in letters)


def random_piles(seed: int) -> tuple[str, str, str]:
    """The 198 letters shuffled into three piles of 66 by ``random.Random(seed)``."""
    letters = [ch for ch, n in LETTER_COUNTS.items() for _ in range(n)]
    random.Random(seed).shuffle(letters)
    text = "".join(letters)
    return tuple(text[i * PILE_LENGTH:(i + 1) * PILE_LENGTH] for i in range(PILES))


def parse_piles(text: str, path: str = "input.txt") -> tuple[str, str, str]:
    """The three piles of a letters file's text: exactly three lines of 66 letters (any
    line ends; a final line end and trailing blank lines are allowed).  Any other
    shape is a :class:`RecordFormatError` naming the line."""
    lines = re.split(r"\r\n|\r|\n", text)
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if number > PILES:
            raise RecordFormatError(path, number, f"only {PILES} lines of letters")
        letters = line.strip()
        if len(letters) != PILE_LENGTH or not (letters.isascii() and letters.isalpha()):
            raise RecordFormatError(path, number, f"{PILE_LENGTH} letters A-Z "
                                    f"(found {len(letters)} characters: {letters[:20]!r})")
    if len(lines) < PILES:
        raise RecordFormatError(path, len(lines) + 1 if lines else 1,
                                f"{PILES} lines of {PILE_LENGTH} letters, one per pile")
    return tuple(line.strip().upper() for line in lines)  # type: ignore[return-value]


# -- state ---------------------------------------------------------------------------
class CrosswordsState(State):
    """The board, the piles' remaining letters, the hand and the running score."""

    def __init__(self, words: Container[str], piles: Sequence[str],
                 generator: Callable[..., list] | None = None):
        self.words = words
        self.generator = generator            # movegen.generate, for legal_moves' words
        self.start_piles = tuple(piles)
        self.piles = list(piles)
        self.board = ["."] * (SIZE * SIZE)
        self.hand = ""
        self.moves_points = 0
        self.discarded_points = 0
        self.turn = 0                         # steps played (the API's turn number)
        self.may_draw = True
        self.stopped = False
        self.words_played = 0
        self.last: Scored | None = None       # the last word placed (for drawing)
        self.last_squares: tuple[tuple[int, int], ...] = ()
        self._events: tuple[Event, ...] = ()
        self.forfeited: tuple[Termination, str] | None = None
        self.ruling: Outcome | None = None

    # -- views --------------------------------------------------------------------------
    @property
    def total(self) -> int:
        return self.moves_points - self.discarded_points

    def letter(self, row: int, col: int) -> str:
        return self.board[row * SIZE + col]

    def board_rows(self) -> list[str]:
        return ["".join(self.board[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]

    def board_text(self) -> str:
        return "\n".join(self.board_rows())

    def board_empty(self) -> bool:
        return self.words_played == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CrosswordsState) and self._key() == other._key()

    def _key(self) -> tuple:
        return (tuple(self.piles), tuple(self.board), self.hand, self.moves_points,
                self.discarded_points, self.turn, self.may_draw, self.stopped,
                self.start_piles, self.forfeited, self.ruling)

    __hash__ = None  # type: ignore[assignment]

    def clone(self) -> "CrosswordsState":
        twin = CrosswordsState.__new__(CrosswordsState)
        twin.__dict__.update(self.__dict__)
        twin.piles = list(self.piles)
        twin.board = list(self.board)
        return twin

    # -- API ----------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return () if self.stopped else (0,)

    def turn_number(self) -> int:
        return self.turn

    def live_scores(self) -> tuple[float, ...]:
        return (float(self.total),)

    def events(self) -> tuple[Event, ...]:
        return self._events

    def outcome(self) -> Outcome | None:
        if not self.stopped:
            return None
        if self.ruling is not None:
            return self.ruling
        if self.forfeited:
            reason, detail = self.forfeited
            return Outcome.solo(self.total, reason,
                                detail or Message("stopped by the referee at {score}", score=self.total))
        return Outcome.solo(self.total, Termination.STOPPED,
                            Message("{words} words, {points} points, {lost} lost to discards",
                                    words=self.words_played, points=self.moves_points,
                                    lost=self.discarded_points))

    def forfeit(self, seat: int, reason: Termination, detail: str = "") -> None:
        """The referee ends the game; the score reached so far stands."""
        self.stopped = True
        self.forfeited = (reason, detail)
        self._events = (Event("verdict", detail or reason.value, (0,)),)

    def adjudicate(self, outcome: Outcome) -> None:
        """The referee ends the game with ``outcome`` (a ruling the rules cannot reach)."""
        self.stopped = True
        self.ruling = outcome
        self._events = (Event("verdict", outcome.detail or outcome.reason.value, (0,)),)

    def draw_options(self) -> list[Draw]:
        if not self.may_draw or self.stopped:
            return []
        room = HAND_LIMIT - len(self.hand)
        return [Draw(p + 1, pile[:n]) for p, pile in enumerate(self.piles)
                for n in range(1, min(room, len(pile)) + 1)]

    def legal_moves(self, seat: int = 0) -> list[Any]:
        """A representative sample: every draw, each single-letter discard and the
        whole-hand discard, stop, and the best-scoring word placements (at most
        ``SAMPLE_WORDS``) when the state was given a move generator (the arena gives
        :func:`games.crosswords.movegen.generate`).  Any other legal step passes
        :meth:`check_move` too."""
        if self.stopped:
            return []
        moves: list[Any] = list(self.draw_options())
        if self.hand:
            moves += [Discard(ch) for ch in sorted(set(self.hand))]
            if len(self.hand) > 1:
                moves.append(Discard(self.hand))
            if self.generator is not None:
                found = self.generator(self.board, self.hand, self.words, top=SAMPLE_WORDS)
                moves += [candidate.move for candidate in found]
        moves.append(STOP)
        return moves

    def check_move(self, seat: int, move: Any) -> None:
        if seat != 0 or self.stopped:
            raise IllegalMoveError(Message("the game is over") if self.stopped else "there is one seat, 0")
        if isinstance(move, Stop):
            return
        if isinstance(move, Draw):
            self._check_draw(move)
        elif isinstance(move, Discard):
            _take(self.hand, move.letters)
        elif isinstance(move, Place):
            self.score_place(move)
        else:
            raise IllegalMoveError(Message("{move} is not a Crossed Words move", move=repr(move)))

    def _check_draw(self, move: Draw) -> None:
        if not self.may_draw:
            raise IllegalMoveError(Message("a second draw must follow a discard"))
        pile = self.piles[move.pile - 1] if 1 <= move.pile <= PILES else None
        if pile is None:
            raise IllegalMoveError(Message("there is no pile {pile}", pile=move.pile))
        n = len(move.letters)
        if not 1 <= n <= HAND_LIMIT:
            raise IllegalMoveError(Message("a draw takes 1 to {limit} letters, not {count}", limit=HAND_LIMIT, count=n))
        if len(self.hand) + n > HAND_LIMIT:
            raise IllegalMoveError(Message("the hand would hold {count} letters (at most {limit})",
                                           count=len(self.hand) + n, limit=HAND_LIMIT))
        if not pile.startswith(move.letters):
            raise IllegalMoveError(Message("pile {pile} starts with {found}, not {letters}", pile=move.pile,
                                           found=pile[:n] or "nothing", letters=move.letters))

    def score_place(self, move: Place) -> Scored:
        """Check a word placement and score it (raise :class:`IllegalMoveError`)."""
        word = move.word
        if not MIN_WORD <= len(word) <= SIZE:
            raise IllegalMoveError(Message("{word} is not 2 to {size} letters long", word=word, size=SIZE))
        squares = move.squares()
        r_end, c_end = squares[-1]
        if r_end >= SIZE or c_end >= SIZE:
            raise IllegalMoveError(Message("{word} runs off the board", word=word))
        dr, dc = (0, 1) if move.across else (1, 0)
        board = self.board
        before = (move.row - dr, move.col - dc)
        after = (r_end + dr, c_end + dc)
        for r, c in (before, after):
            if 0 <= r < SIZE and 0 <= c < SIZE and board[r * SIZE + c] != ".":
                raise IllegalMoveError(Message("{word} is not the whole word: the letter at {square} joins it",
                                               word=word, square=square_name(r, c)))
        placed, touches = [], False
        for (r, c), ch in zip(squares, word):
            here = board[r * SIZE + c]
            if here == ".":
                placed.append((r, c))
            elif here != ch:
                raise IllegalMoveError(Message("{square} holds {here}, not {letter}", square=square_name(r, c),
                                               here=here, letter=ch))
            else:
                touches = True
        if not placed:
            raise IllegalMoveError(Message("{word} places no new letter", word=word))
        _take(self.hand, "".join(word[squares.index(sq)] for sq in placed))
        if not self.board_empty() and not touches:
            for r, c in placed:
                for nr, nc in ((r - dc, c - dr), (r + dc, c + dr)):
                    if 0 <= nr < SIZE and 0 <= nc < SIZE and board[nr * SIZE + nc] != ".":
                        touches = True
            if not touches:
                raise IllegalMoveError(Message("{word} touches no letter on the board", word=word))
        if word.lower() not in self.words:
            raise IllegalMoveError(Message("{word} is not in the dictionary", word=word))
        after_board = list(board)
        for (r, c), ch in zip(squares, word):
            after_board[r * SIZE + c] = ch
        crosses = []
        for r, c in placed:
            cross = _run(after_board, r, c, not move.across)
            if len(cross) > 1:
                text = "".join(after_board[a * SIZE + b] for a, b in cross)
                if text.lower() not in self.words:
                    raise IllegalMoveError(Message("{text} (across {word} at {square}) is not in the dictionary",
                                                   text=text, word=word, square=square_name(r, c)))
                crosses.append((text, word_points(after_board, cross)))
        bonus = 0
        if len(placed) == 8 and len(word) >= 8:
            bonus = BONUS_EIGHT
        elif len(placed) == 7 and len(word) >= 7:
            bonus = BONUS_SEVEN
        return Scored(word, word_points(after_board, squares), tuple(crosses), bonus, tuple(placed))

    def apply(self, moves: Mapping[int, Any]) -> None:
        move = moves[0]
        self.turn += 1
        self._events = ()
        if isinstance(move, Stop):
            self.stopped = True
        elif isinstance(move, Draw):
            pile = self.piles[move.pile - 1]
            self.piles[move.pile - 1] = pile[len(move.letters):]
            self.hand += move.letters
            self.may_draw = False
        elif isinstance(move, Discard):
            self.hand = _take(self.hand, move.letters)
            self.discarded_points += discard_points(move.letters)
            self.may_draw = True
        elif isinstance(move, Place):
            scored = self.score_place(move)
            for (r, c), ch in zip(move.squares(), move.word):
                if self.board[r * SIZE + c] == ".":
                    self.board[r * SIZE + c] = ch
            self.hand = _take(self.hand, "".join(self.board[r * SIZE + c] for r, c in scored.placed))
            self.moves_points += scored.total
            self.words_played += 1
            self.may_draw = True
            self.last = scored
            self.last_squares = tuple(move.squares())
            text = f"{scored.word} {scored.total}"
            self._events = (Event("word", text, (0,), tuple(move.squares())),)
        else:
            raise IllegalMoveError(Message("{move} is not a Crossed Words move", move=repr(move)))


def _take(hand: str, letters: str) -> str:
    """``hand`` without ``letters`` (each once); :class:`IllegalMoveError` if it lacks some."""
    rest = list(hand)
    for ch in letters:
        try:
            rest.remove(ch)
        except ValueError:
            raise IllegalMoveError(Message("the hand {hand} has no {letter} for {letters}", hand=hand or "(empty)",
                                           letter=ch, letters=letters)) from None
    return "".join(rest)


def _run(board: Sequence[str], r: int, c: int, across: bool) -> list[tuple[int, int]]:
    """The squares of the run of letters through (r, c) in one direction."""
    dr, dc = (0, 1) if across else (1, 0)
    while 0 <= r - dr and 0 <= c - dc and board[(r - dr) * SIZE + c - dc] != ".":
        r, c = r - dr, c - dc
    squares = []
    while r < SIZE and c < SIZE and board[r * SIZE + c] != ".":
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


# -- game ----------------------------------------------------------------------------
class CrosswordsGame(Game):
    """Crossed Words Solitaire.  ``words`` is the dictionary (lower-case words), or
    ``lexicon_for(name)`` returns it for the ``dictionary`` option's value;
    ``generator(board, hand, words, top=N)`` lists word placements for ``legal_moves``."""

    spec = GameSpec(
        name="crosswords", title="Crossed Words Solitaire", min_seats=1, max_seats=1,
        variants=(Variant("standard", {}, "17x17 board, three piles of 66 letters"),),
        options=(
            Option("piles", "", "letters file: three lines of 66 letters (empty: shuffled "
                   "from the match seed)", file=True),
            Option("dictionary", "", "folder of the contest's 26 word files (empty: the "
                   "built-in English list)", file=True),
            Option("seconds", 10.0, "time limit of a program playing the whole game "
                   "(written to its seconds.txt)"),
        ),
        seat_names=("Player",),
        summary="Solitaire word building on a 17x17 board from three piles of letters.",
        kind=GameKind.SOLITAIRE, live_scores=True)

    def __init__(self, words: Container[str] | None = None,
                 lexicon_for: Callable[[str], Container[str]] | None = None,
                 generator: Callable[..., list] | None = None):
        self._words = words
        self._lexicon_for = lexicon_for
        self._generator = generator

    def words_for(self, options: Mapping[str, Any]) -> Container[str]:
        name = str(options.get("dictionary", "") or "")
        if self._lexicon_for is not None and (name or self._words is None):
            return self._lexicon_for(name)
        if self._words is None:
            raise GameSetupError(Message("no dictionary was given to the game"))
        return self._words

    def new_initial_state(self, options: Mapping[str, Any], seed: int) -> CrosswordsState:
        text = str(options.get("piles", "") or "")
        piles = parse_piles(text, "piles") if text.strip() else random_piles(seed)
        return CrosswordsState(self.words_for(options), piles, self._generator)

    def parse_cell(self, text: str) -> tuple[int, int] | None:
        """A square, ``H8`` (column letter A-Q, row 1-17) -> ``(row, column)`` from 0."""
        try:
            return parse_square(text.strip()) if isinstance(text, str) else None
        except MoveSyntaxError:
            return None

    def parse_move(self, text: str, state: State | None = None, seat: int | None = None) -> Any:
        return parse_move(text)

    def format_move(self, move: Any) -> str:
        return format_move(move)

    def describe(self, state: State) -> str:
        assert isinstance(state, CrosswordsState)
        if state.stopped:
            return Message("Game over: score {score}", score=state.total)
        return Message("Score {score} · hand {hand} · step {n}", score=state.total,
                       hand=state.hand or "(empty)", n=state.turn)
