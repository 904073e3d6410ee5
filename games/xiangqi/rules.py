"""Xiangqi (Chinese chess) rules: fast move generation plus the Arena game contract.

Pure Python, standard library only; the rules as implemented are in RULES.md.

The board is a flat list of 90 cells, ``square = rank * 9 + file`` with file 0 = A
(left) and rank 0 = the bottom (Red's back rank).  Every piece's reachable squares are
precomputed per square (rays, horse jumps with their leg, elephant steps with their eye,
palace steps), so move generation is table look-ups and the occupancy tests that
blocking needs.  :class:`Position` is the fast layer (integer moves, ``make``/``unmake``
for search and perft); :class:`XiangqiState` and :class:`XiangqiGame` put the
``games.api`` contract on top, with move text in ICCS notation (``H2E2``) and the
referee's rulings: repetition within 30 half-moves, no attacking material, the
no-capture limit, and the two timing rules as pure functions.

Moves inside :class:`Position` are integers ``from_square << 7 | to_square``.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from games.api import (Event, Game, GameKind, GameSetupError, GameSpec, IllegalMoveError,
                       Message, MoveSyntaxError, Option, Outcome, State, Termination, Variant,
                       uniform_outcome_two_player)

FILES, RANKS, SQUARES = 9, 10, 90
RED, BLACK = 0, 1
SIDE_NAMES = ("Red", "Black")

EMPTY = 0
KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER = range(1, 8)
BLACK_BIT = 8                      # black piece = type | 8; colour = piece >> 3
PIECE_NAMES = {KING: "general", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
               CHARIOT: "chariot", CANNON: "cannon", SOLDIER: "soldier"}
ATTACKING_TYPES = (HORSE, CHARIOT, CANNON, SOLDIER)

FEN_LETTERS = {"k": KING, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE,
               "h": HORSE, "r": CHARIOT, "c": CANNON, "p": SOLDIER}
LETTER_OF_TYPE = {KING: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", CHARIOT: "r",
                  CANNON: "c", SOLDIER: "p"}
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

SINGLE_MOVE_LIMIT_SECONDS = 15 * 60     # one move longer than this loses
FLAG_FALL_MARGIN_SECONDS = 5 * 60       # a flag fall loses only if the other has more left
FLAG_FALL_MATE_PLIES = 4                # ... or a side can force mate within this many half-moves
REPETITION_WINDOW = 30                  # half-moves looked back for a repeated position
ARENA_NO_CAPTURE_LIMIT = 120


def square(file: int, rank: int) -> int:
    return rank * FILES + file


def file_of(sq: int) -> int:
    return sq % FILES


def rank_of(sq: int) -> int:
    return sq // FILES


def square_name(sq: int) -> str:
    return "ABCDEFGHI"[sq % FILES] + str(sq // FILES)


def move_text(move: int) -> str:
    """ICCS text of an integer move, upper case (``H2E2``)."""
    return square_name(move >> 7) + square_name(move & 127)


def parse_move_text(text: str) -> int:
    """Integer move from ICCS text, either case; raises :class:`MoveSyntaxError`."""
    clean = text.strip().upper() if isinstance(text, str) else ""
    if (len(clean) != 4 or clean[0] not in "ABCDEFGHI" or clean[2] not in "ABCDEFGHI"
            or not clean[1].isdigit() or not clean[3].isdigit()):
        raise MoveSyntaxError(Message("{move} is not a Xiangqi move: expected ICCS like H2E2 "
                                      "(files A-I, ranks 0-9)", move=repr(text)))
    origin = square("ABCDEFGHI".index(clean[0]), int(clean[1]))
    target = square("ABCDEFGHI".index(clean[2]), int(clean[3]))
    if origin == target:
        raise MoveSyntaxError(Message("{move} does not move: origin and destination are the same",
                                      move=repr(text)))
    return origin << 7 | target


# --------------------------------------------------------------------------- tables


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def _in_palace(side: int, file: int, rank: int) -> bool:
    return 3 <= file <= 5 and (0 <= rank <= 2 if side == RED else 7 <= rank <= 9)


def _on_own_half(side: int, rank: int) -> bool:
    return rank <= 4 if side == RED else rank >= 5


def _build_tables():
    rays, horse, horse_attackers = [], [], [[] for _ in range(SQUARES)]
    king = [[[] for _ in range(SQUARES)] for _ in (RED, BLACK)]
    advisor = [[[] for _ in range(SQUARES)] for _ in (RED, BLACK)]
    elephant = [[[] for _ in range(SQUARES)] for _ in (RED, BLACK)]
    soldier = [[[] for _ in range(SQUARES)] for _ in (RED, BLACK)]
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        sq_rays = []
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            ray, nf, nr = [], f + df, r + dr
            while _on_board(nf, nr):
                ray.append(square(nf, nr))
                nf, nr = nf + df, nr + dr
            sq_rays.append(tuple(ray))
        rays.append(tuple(sq_rays))
        jumps = []
        for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
            if _on_board(f + df, r + dr):
                leg = square(f, r + dr // 2) if abs(dr) == 2 else square(f + df // 2, r)
                target = square(f + df, r + dr)
                jumps.append((target, leg))
                horse_attackers[target].append((sq, leg))
        horse.append(tuple(jumps))
        for side in (RED, BLACK):
            if _in_palace(side, f, r):
                king[side][sq] = [square(f + df, r + dr) for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
                                  if _in_palace(side, f + df, r + dr)]
                advisor[side][sq] = [square(f + df, r + dr) for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
                                     if _in_palace(side, f + df, r + dr)]
            if _on_own_half(side, r):
                elephant[side][sq] = [(square(f + df, r + dr), square(f + df // 2, r + dr // 2))
                                      for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2))
                                      if _on_board(f + df, r + dr) and _on_own_half(side, r + dr)]
            forward = 1 if side == RED else -1
            steps = []
            if _on_board(f, r + forward):
                steps.append(square(f, r + forward))
            if not _on_own_half(side, r):
                steps += [square(f + df, r) for df in (-1, 1) if _on_board(f + df, r)]
            soldier[side][sq] = steps
    freeze = lambda table: tuple(tuple(tuple(x) for x in side_table) for side_table in table)
    return (tuple(rays), tuple(horse), tuple(tuple(a) for a in horse_attackers),
            freeze(king), freeze(advisor), freeze(elephant), freeze(soldier))


(RAYS, HORSE_MOVES, HORSE_ATTACKERS, KING_MOVES, ADVISOR_MOVES, ELEPHANT_MOVES,
 SOLDIER_MOVES) = _build_tables()
FILE_OF = tuple(file_of(sq) for sq in range(SQUARES))
RANK_OF = tuple(rank_of(sq) for sq in range(SQUARES))
#: Squares diagonally next to each square: the legs of every horse that could attack it.
DIAGONAL_NEIGHBOURS = tuple(frozenset(square(file_of(sq) + df, rank_of(sq) + dr)
                                      for df in (-1, 1) for dr in (-1, 1)
                                      if _on_board(file_of(sq) + df, rank_of(sq) + dr))
                            for sq in range(SQUARES))
#: Squares on each square's file and rank (a general there is exposed along them).
LINES = tuple(frozenset(x for x in range(SQUARES) if file_of(x) == file_of(sq) or rank_of(x) == rank_of(sq))
              for sq in range(SQUARES))
#: Squares a piece may not leave without a legality test: the lines plus the horse legs.
SENSITIVE = tuple(LINES[sq] | DIAGONAL_NEIGHBOURS[sq] for sq in range(SQUARES))
ADVISOR_POINTS = tuple(frozenset(sq for sq in range(SQUARES) if ADVISOR_MOVES[side][sq]
                                 and (file_of(sq) + rank_of(sq)) % 2 == (1 if side == RED else 0))
                       for side in (RED, BLACK))
ELEPHANT_POINTS = tuple(frozenset(square(f, r) for f in (0, 2, 4, 6, 8) for r in range(RANKS)
                                  if _on_own_half(side, r) and (f // 2 + r // 2) % 2 == 1
                                  and r % 2 == (0 if side == RED else 1))
                        for side in (RED, BLACK))

_ZOBRIST_RNG = random.Random(0x5A1A)
ZOBRIST = tuple(tuple(_ZOBRIST_RNG.getrandbits(64) if piece else 0 for _ in range(SQUARES))
                for piece in range(16))
ZOBRIST_BLACK_TO_MOVE = _ZOBRIST_RNG.getrandbits(64)


# --------------------------------------------------------------------------- position


def _attacked_along_lines(board: list[int], sq: int, slider: int, other_slider: int, cannon: int) -> bool:
    """True when the first piece along a line from ``sq`` is ``slider`` or ``other_slider``
    (a chariot; the general facing across the board), or the second is ``cannon``."""
    for ray in RAYS[sq]:
        screened = False
        for other in ray:
            piece = board[other]
            if not piece:
                continue
            if screened:
                if piece == cannon:
                    return True
                break
            if piece == slider or piece == other_slider:
                return True
            screened = True
    return False


def _attacked_by_horse(board: list[int], sq: int, horse: int) -> bool:
    """True when ``horse`` stands a jump from ``sq`` with its leg free."""
    for origin, leg in HORSE_ATTACKERS[sq]:
        if board[origin] == horse and not board[leg]:
            return True
    return False


class Position:
    """A Xiangqi position with fast, unchecked move making (for search and perft).

    ``board[sq]`` holds 0 or a piece code (type, plus 8 for Black); ``squares[side]``
    is the set of that side's occupied squares; ``key`` is the Zobrist hash of
    placement and side to move.
    """

    __slots__ = ("board", "side", "squares", "kings", "key")

    def __init__(self):
        self.board = [EMPTY] * SQUARES
        self.side = RED
        self.squares = (set(), set())
        self.kings = [None, None]
        self.key = 0

    # ---- set-up and FEN

    @classmethod
    def from_fen(cls, fen: str) -> tuple["Position", int, int]:
        """Position, no-capture half-move count and move number from a FEN.

        Raises :class:`GameSetupError` naming what is wrong.
        """
        fields = fen.split()
        if not fields:
            raise GameSetupError(Message("empty FEN"))
        rows = fields[0].split("/")
        if len(rows) != RANKS:
            raise GameSetupError(Message("FEN {fen}: expected 10 ranks separated by '/', got {count}",
                                         fen=repr(fen), count=len(rows)))
        pos = cls()
        for row_index, row in enumerate(rows):
            rank, file = RANKS - 1 - row_index, 0
            for char in row:
                if char.isdigit():
                    file += int(char)
                    continue
                kind = FEN_LETTERS.get(char.lower())
                if kind is None:
                    raise GameSetupError(Message("FEN {fen}: unknown piece letter {letter}", fen=repr(fen),
                                                 letter=repr(char)))
                if file >= FILES:
                    raise GameSetupError(Message("FEN {fen}: rank {rank} has more than 9 files",
                                                 fen=repr(fen), rank=rank))
                side = RED if char.isupper() else BLACK
                pos._put(square(file, rank), kind | (BLACK_BIT if side else 0))
                file += 1
            if file != FILES:
                raise GameSetupError(Message("FEN {fen}: rank {rank} does not have 9 files", fen=repr(fen), rank=rank))
        side_field = fields[1].lower() if len(fields) > 1 else "w"
        if side_field not in ("w", "r", "b"):
            raise GameSetupError(Message("FEN {fen}: side to move must be w (Red) or b (Black)", fen=repr(fen)))
        if side_field == "b":
            pos.side = BLACK
            pos.key ^= ZOBRIST_BLACK_TO_MOVE
        try:
            quiet = int(fields[4]) if len(fields) > 4 else 0
            number = int(fields[5]) if len(fields) > 5 else 1
        except ValueError:
            raise GameSetupError(Message("FEN {fen}: half-move and move counters must be numbers",
                                          fen=repr(fen))) from None
        pos._validate(fen)
        return pos, max(quiet, 0), max(number, 1)

    def _put(self, sq: int, piece: int) -> None:
        side = piece >> 3
        self.board[sq] = piece
        self.squares[side].add(sq)
        self.key ^= ZOBRIST[piece][sq]
        if piece & 7 == KING:
            if self.kings[side] is not None:
                raise GameSetupError(Message("{side} has two generals", side=SIDE_NAMES[side]))
            self.kings[side] = sq

    def _validate(self, fen: str) -> None:
        limits = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, CHARIOT: 2, CANNON: 2, SOLDIER: 5}
        for side in (RED, BLACK):
            if self.kings[side] is None:
                raise GameSetupError(Message("FEN {fen}: {side} has no general", fen=repr(fen), side=SIDE_NAMES[side]))
            counts = dict.fromkeys(limits, 0)
            for sq in self.squares[side]:
                kind = self.board[sq] & 7
                counts[kind] += 1
                f, r = file_of(sq), rank_of(sq)
                wrong = None
                if kind == KING and not _in_palace(side, f, r):
                    wrong = "FEN {fen}: {where} is outside its palace"
                if kind == ADVISOR and sq not in ADVISOR_POINTS[side]:
                    wrong = "FEN {fen}: {where} is not on a palace diagonal point"
                if kind == ELEPHANT and sq not in ELEPHANT_POINTS[side]:
                    wrong = "FEN {fen}: {where} is not on an elephant point"
                if kind == SOLDIER and (r < 3 if side == RED else r > 6):
                    wrong = "FEN {fen}: {where} is behind its starting rank"
                if wrong:
                    raise GameSetupError(Message(wrong, fen=repr(fen), where=Message(
                        "{side} {piece} on {square}", side=SIDE_NAMES[side], piece=PIECE_NAMES[kind],
                        square=square_name(sq))))
            for kind, most in limits.items():
                if counts[kind] > most:
                    raise GameSetupError(Message("FEN {fen}: {side} has {count} {piece}s (at most {most})",
                                                 fen=repr(fen), side=SIDE_NAMES[side], count=counts[kind],
                                                 piece=PIECE_NAMES[kind], most=most))
        if self.in_check(self.side ^ 1):
            raise GameSetupError(Message("FEN {fen}: the side not to move is in check", fen=repr(fen)))

    def placement_fen(self) -> str:
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            row, gap = "", 0
            for file in range(FILES):
                piece = self.board[square(file, rank)]
                if not piece:
                    gap += 1
                    continue
                if gap:
                    row, gap = row + str(gap), 0
                letter = LETTER_OF_TYPE[piece & 7]
                row += letter if piece >> 3 else letter.upper()
            rows.append(row + (str(gap) if gap else ""))
        return "/".join(rows)

    def fen(self, quiet: int = 0, number: int = 1) -> str:
        return f"{self.placement_fen()} {'b' if self.side else 'w'} - - {quiet} {number}"

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.board = self.board[:]
        other.side = self.side
        other.squares = (set(self.squares[0]), set(self.squares[1]))
        other.kings = self.kings[:]
        other.key = self.key
        return other

    # ---- attacks

    def in_check(self, side: int) -> bool:
        """True when ``side``'s general is attacked (flying general included)."""
        board, king = self.board, self.kings[side]
        enemy = (side ^ 1) << 3
        if (_attacked_along_lines(board, king, enemy | CHARIOT, enemy | KING, enemy | CANNON)
                or _attacked_by_horse(board, king, enemy | HORSE)):
            return True
        soldier = enemy | SOLDIER
        ahead = king + 9 if side == RED else king - 9
        return board[ahead] == soldier or board[king - 1] == soldier or board[king + 1] == soldier

    def is_attacked(self, sq: int, by: int) -> bool:
        """True when a piece of side ``by`` could capture a piece standing on ``sq`` (pins
        and checks aside): what a capture there risks.  The flying general is not counted."""
        board = self.board
        own = by << 3
        if (_attacked_along_lines(board, sq, own | CHARIOT, own | CHARIOT, own | CANNON)
                or _attacked_by_horse(board, sq, own | HORSE)):
            return True
        soldier = own | SOLDIER
        behind = sq - 9 if by == RED else sq + 9
        if 0 <= behind < SQUARES and board[behind] == soldier:
            return True
        if not _on_own_half(by, RANK_OF[sq]):
            file = FILE_OF[sq]
            if (file > 0 and board[sq - 1] == soldier) or (file < FILES - 1 and board[sq + 1] == soldier):
                return True
        advisor, elephant, general = own | ADVISOR, own | ELEPHANT, own | KING
        if any(board[other] == advisor for other in ADVISOR_MOVES[by][sq]):
            return True
        if any(board[other] == elephant and not board[eye] for other, eye in ELEPHANT_MOVES[by][sq]):
            return True
        return any(board[other] == general for other in KING_MOVES[by][sq])

    # ---- move generation

    def pseudo_moves(self) -> list[int]:
        """Moves that follow each piece's movement rules, ignoring the own general's safety."""
        board, side, moves = self.board, self.side, []
        add = moves.append
        for origin in self.squares[side]:
            kind = board[origin] & 7
            base = origin << 7
            if kind == CHARIOT:
                for ray in RAYS[origin]:
                    for target in ray:
                        piece = board[target]
                        if not piece:
                            add(base | target)
                        else:
                            if piece >> 3 != side:
                                add(base | target)
                            break
            elif kind == CANNON:
                for ray in RAYS[origin]:
                    screened = False
                    for target in ray:
                        piece = board[target]
                        if not screened:
                            if not piece:
                                add(base | target)
                            else:
                                screened = True
                        elif piece:
                            if piece >> 3 != side:
                                add(base | target)
                            break
            elif kind == HORSE:
                for target, leg in HORSE_MOVES[origin]:
                    if not board[leg]:
                        piece = board[target]
                        if not piece or piece >> 3 != side:
                            add(base | target)
            elif kind == SOLDIER:
                for target in SOLDIER_MOVES[side][origin]:
                    piece = board[target]
                    if not piece or piece >> 3 != side:
                        add(base | target)
            elif kind == ELEPHANT:
                for target, eye in ELEPHANT_MOVES[side][origin]:
                    if not board[eye]:
                        piece = board[target]
                        if not piece or piece >> 3 != side:
                            add(base | target)
            else:
                table = KING_MOVES if kind == KING else ADVISOR_MOVES
                for target in table[side][origin]:
                    piece = board[target]
                    if not piece or piece >> 3 != side:
                        add(base | target)
        return moves

    def pseudo_captures(self) -> list[int]:
        """The captures among :meth:`pseudo_moves` (for quiescence search)."""
        board, side, moves = self.board, self.side, []
        add = moves.append
        for origin in self.squares[side]:
            kind = board[origin] & 7
            base = origin << 7
            if kind == CHARIOT:
                for ray in RAYS[origin]:
                    for target in ray:
                        piece = board[target]
                        if piece:
                            if piece >> 3 != side:
                                add(base | target)
                            break
            elif kind == CANNON:
                for ray in RAYS[origin]:
                    screened = False
                    for target in ray:
                        piece = board[target]
                        if piece:
                            if screened:
                                if piece >> 3 != side:
                                    add(base | target)
                                break
                            screened = True
            elif kind == HORSE:
                for target, leg in HORSE_MOVES[origin]:
                    piece = board[target]
                    if piece and piece >> 3 != side and not board[leg]:
                        add(base | target)
            elif kind == ELEPHANT:
                for target, eye in ELEPHANT_MOVES[side][origin]:
                    piece = board[target]
                    if piece and piece >> 3 != side and not board[eye]:
                        add(base | target)
            else:
                table = SOLDIER_MOVES if kind == SOLDIER else KING_MOVES if kind == KING else ADVISOR_MOVES
                for target in table[side][origin]:
                    piece = board[target]
                    if piece and piece >> 3 != side:
                        add(base | target)
        return moves

    def legal_moves(self, checked: bool | None = None) -> list[int]:
        """Every legal move of the side to move (``checked``: in check, if already known).

        A move needs the full make/test/unmake only when it could expose the general:
        the general moves, the side is in check, or the move leaves or enters the
        general's file or rank (chariot, cannon, flying general) or leaves a horse-leg
        square next to it.  Every other move is legal as generated.
        """
        side = self.side
        king = self.kings[side]
        if checked is None:
            checked = self.in_check(side)
        legal = []
        if checked:
            candidates = self.pseudo_moves()
        else:
            lines, sensitive = LINES[king], SENSITIVE[king]
            candidates = []
            for move in self.pseudo_moves():
                if move >> 7 in sensitive or move & 127 in lines:
                    candidates.append(move)
                else:
                    legal.append(move)
        for move in candidates:
            captured = self.make(move)
            if not self.in_check(side):
                legal.append(move)
            self.unmake(move, captured)
        return legal

    def has_legal_move(self) -> bool:
        side = self.side
        for move in self.pseudo_moves():
            captured = self.make(move)
            safe = not self.in_check(side)
            self.unmake(move, captured)
            if safe:
                return True
        return False

    def is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    # ---- make / unmake

    def make(self, move: int) -> int:
        """Play ``move`` (unchecked) and return the captured piece (0 if none)."""
        origin, target = move >> 7, move & 127
        board, side = self.board, self.side
        piece, captured = board[origin], board[target]
        board[target], board[origin] = piece, EMPTY
        own = self.squares[side]
        own.discard(origin)
        own.add(target)
        key = self.key ^ ZOBRIST[piece][origin] ^ ZOBRIST[piece][target] ^ ZOBRIST_BLACK_TO_MOVE
        if captured:
            self.squares[side ^ 1].discard(target)
            key ^= ZOBRIST[captured][target]
        self.key = key
        if piece & 7 == KING:
            self.kings[side] = target
        self.side = side ^ 1
        return captured

    def unmake(self, move: int, captured: int) -> None:
        origin, target = move >> 7, move & 127
        board = self.board
        side = self.side ^ 1
        self.side = side
        piece = board[target]
        board[origin], board[target] = piece, captured
        own = self.squares[side]
        own.discard(target)
        own.add(origin)
        key = self.key ^ ZOBRIST[piece][origin] ^ ZOBRIST[piece][target] ^ ZOBRIST_BLACK_TO_MOVE
        if captured:
            self.squares[side ^ 1].add(target)
            key ^= ZOBRIST[captured][target]
        self.key = key
        if piece & 7 == KING:
            self.kings[side] = origin

    def make_null(self) -> None:
        """Pass the move (for null-move search only)."""
        self.side ^= 1
        self.key ^= ZOBRIST_BLACK_TO_MOVE

    unmake_null = make_null

    # ---- counting and material

    def perft(self, depth: int) -> int:
        """Number of legal move sequences of ``depth`` half-moves (leaf counting)."""
        if depth <= 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            captured = self.make(move)
            total += self.perft(depth - 1)
            self.unmake(move, captured)
        return total

    def has_attacking_material(self) -> bool:
        """True when either side still has a chariot, horse, cannon or soldier."""
        board = self.board
        return any(board[sq] & 7 in ATTACKING_TYPES for side in (RED, BLACK) for sq in self.squares[side])

    def gives_check(self, move: int) -> bool:
        captured = self.make(move)
        check = self.in_check(self.side)
        self.unmake(move, captured)
        return check


# --------------------------------------------------------------------------- forced mate


def forced_mate_within(position: Position, attacker: int, plies: int) -> bool:
    """True when ``attacker`` can force the other side out of legal moves within ``plies``.

    A side with no legal move has lost (mate and stalemate alike), so "mate" here means
    the defender is to move and has none.  Both searches stop at the first refutation,
    which keeps the common no-mate case small.
    """
    if position.side != attacker:
        moves = position.legal_moves()
        if not moves:
            return True
        if plies <= 0:
            return False
        for move in moves:
            captured = position.make(move)
            mated = forced_mate_within(position, attacker, plies - 1)
            position.unmake(move, captured)
            if not mated:
                return False
        return True
    if plies <= 0:
        return False
    for move in position.legal_moves():
        captured = position.make(move)
        if plies == 1:
            mated = not position.has_legal_move()
        else:
            mated = forced_mate_within(position, attacker, plies - 1)
        position.unmake(move, captured)
        if mated:
            return True
    return False


# --------------------------------------------------------------------------- the game contract

REPETITION_CHOICES = ("perpetual-check-loses", "draw")
#: Which occurrence of a position ends the game: 2 = the first repeat (the contest's
#: ruling, within 30 half-moves), 3 = the third occurrence (the usual count, which
#: engines such as Fairy-Stockfish and ElephantEye play by).
REPETITION_COUNTS = (2, 3)
CONTEST_REPETITION_COUNT = 2
ENGINE_REPETITION_COUNT = 3


def repetition_rule_text(options: Mapping[str, Any]) -> str:
    """The repetition rule in force, in a few words (match headers and status lines)."""
    count = int(options.get("repetition_count", CONTEST_REPETITION_COUNT) or CONTEST_REPETITION_COUNT)
    when = ("first repeat ends the game" if count <= 2 else "third occurrence ends the game")
    how = ("perpetual check loses" if options.get("repetition", REPETITION_CHOICES[0])
           == "perpetual-check-loses" else "always a draw")
    return Message("repetition: {when}, {how}", when=when, how=how)


class XiangqiState(State):
    """A Xiangqi game in progress: position, history and the referee's rulings.

    Seat 0 is Red (bottom, moves first), seat 1 is Black (top).  Moves are ICCS
    strings in upper case (``"H2E2"``).
    """

    def __init__(self, position: Position, options: Mapping[str, Any], seed: int = 0,
                 quiet: int = 0, number: int = 1):
        self.position = position
        self.options = dict(options)
        self.rng = random.Random(seed)
        self.turn = 0
        self.quiet = quiet                   # half-moves since the last capture
        self.number = number                 # FEN full-move number
        self.history = [position.key]        # key after each half-move (index = ply)
        self.checks = [position.in_check(position.side)]   # did the move to that ply give check
        self.moves: list[str] = []
        self._legal: list[str] | None = None
        self._events: tuple[Event, ...] = ()
        self._outcome: Outcome | None = None
        self._judge(mover=None)

    # ---- queries

    @property
    def side(self) -> int:
        return self.position.side

    def fen(self) -> str:
        return self.position.fen(self.quiet, self.number)

    def to_move(self) -> tuple[int, ...]:
        return () if self._outcome else (self.position.side,)

    def legal_moves(self, seat: int | None = None) -> Sequence[str]:
        if self._outcome or (seat is not None and seat != self.position.side):
            return []
        if self._legal is None:
            self._legal = sorted(move_text(m) for m in self.position.legal_moves())
        return self._legal

    def in_check(self) -> bool:
        return self.position.in_check(self.position.side)

    def piece_at(self, name: str) -> str:
        """FEN letter of the piece on square ``name`` (``"E0"``), or ``""``."""
        piece = self.position.board[parse_square(name)]
        if not piece:
            return ""
        letter = LETTER_OF_TYPE[piece & 7]
        return letter if piece >> 3 else letter.upper()

    def check_move(self, seat: int, move: Any) -> None:
        if self._outcome:
            raise IllegalMoveError("the game is over")
        if seat != self.position.side:
            raise IllegalMoveError(Message("it is {side}'s turn, not {other}'s", side=SIDE_NAMES[self.position.side],
                                           other=SIDE_NAMES[seat] if seat in (0, 1) else str(seat)))
        code = parse_move_text(move) if isinstance(move, str) else move
        text = move_text(code)
        if text in self.legal_moves(seat):
            return
        raise IllegalMoveError(Message("{move} is not legal: {why}", move=text, why=self._why_illegal(code)))

    def _why_illegal(self, move: int) -> Message:
        board, side = self.position.board, self.position.side
        origin, target = move >> 7, move & 127
        piece = board[origin]
        if not piece:
            return Message("there is no piece on {square}", square=square_name(origin))
        if piece >> 3 != side:
            return Message("the piece on {square} is {side}'s", square=square_name(origin),
                           side=SIDE_NAMES[piece >> 3])
        if move not in self.position.pseudo_moves():
            return Message("a {piece} cannot move from {origin} to {target}", piece=PIECE_NAMES[piece & 7],
                           origin=square_name(origin), target=square_name(target))
        return Message("it leaves the general in check or facing the other general")

    # ---- playing

    def apply(self, moves: Mapping[int, Any]) -> None:
        if self._outcome:
            raise IllegalMoveError("the game is over")
        mover = self.position.side
        raw = moves[mover]
        move = parse_move_text(raw) if isinstance(raw, str) else raw
        piece = self.position.board[move >> 7]
        captured = self.position.make(move)
        self.turn += 1
        if mover == BLACK:
            self.number += 1
        self.quiet = 0 if captured else self.quiet + 1
        self.moves.append(move_text(move))
        self._legal = None
        gave_check = self.position.in_check(self.position.side)
        self.history.append(self.position.key)
        self.checks.append(gave_check)
        events = []
        if captured:
            events.append(Event("capture", Message("{side} {piece} takes {taken} on {square}",
                                                   side=SIDE_NAMES[mover], piece=PIECE_NAMES[piece & 7],
                                                   taken=PIECE_NAMES[captured & 7],
                                                   square=square_name(move & 127)), (mover,),
                                ((rank_of(move & 127), file_of(move & 127)),)))
        if gave_check:
            events.append(Event("check", Message("{side} gives check", side=SIDE_NAMES[mover]), (mover,)))
        self._events = tuple(events)
        self._judge(mover)
        if self._outcome:
            self._events += (Event("verdict", self._outcome.detail, self._outcome.winners),)

    def forfeit(self, seat: int, reason: Termination, detail: str = "") -> None:
        if self._outcome:
            return
        text = detail or Message("{side} forfeits ({reason})", side=SIDE_NAMES[seat], reason=reason.value)
        self._outcome = uniform_outcome_two_player(seat ^ 1, reason, text)
        self._events = (Event("verdict", text, (seat ^ 1,)),)

    def adjudicate(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._events = (Event("verdict", outcome.detail, outcome.winners),)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def resume_after_ruling(self) -> bool:
        """Lift a referee's draw (repetition, no material, move limit) so play can go on.

        Only for replaying another program's record past the point where the arena
        would have stopped.  A side without a legal move has lost for good: False then.
        """
        if self._outcome is None:
            return True
        if self._outcome.reason in (Termination.REPETITION, Termination.NO_MATERIAL, Termination.MOVE_LIMIT):
            self._outcome = None
            self._legal = None
            return True
        return False

    def events(self) -> tuple[Event, ...]:
        return self._events

    def _identity(self) -> tuple:
        pos = self.position
        return (tuple(pos.board), pos.side, tuple(self.history), tuple(self.checks), self.quiet,
                self.number, self.turn, tuple(self.moves), self._outcome,
                tuple(sorted(self.options.items())))

    def turn_number(self) -> int:
        return self.turn

    def board_text(self) -> str:
        return self.fen()

    def __eq__(self, other: object) -> bool:
        """Same position, same history, same result, same options (caches and RNG aside)."""
        if not isinstance(other, XiangqiState):
            return NotImplemented
        return self._identity() == other._identity()

    __hash__ = None     # mutable

    def clone(self) -> "XiangqiState":
        other = XiangqiState.__new__(XiangqiState)
        other.__dict__.update(self.__dict__)
        other.position = self.position.copy()
        other.options = dict(self.options)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.history = self.history[:]
        other.checks = self.checks[:]
        other.moves = self.moves[:]
        other._legal = None if self._legal is None else self._legal[:]
        return other

    # ---- the rulings

    def _judge(self, mover: int | None) -> None:
        """Decide whether the game ended with the last move (or at the start)."""
        pos = self.position
        to_move = pos.side
        if not self.legal_moves(to_move):
            if pos.in_check(to_move):
                detail = Message("{side} is checkmated; {winner} wins",
                                 side=SIDE_NAMES[to_move], winner=SIDE_NAMES[to_move ^ 1])
                self._outcome = uniform_outcome_two_player(to_move ^ 1, Termination.WIN, detail)
            else:
                detail = Message("{side} has no legal move (stalemate loses); {winner} wins",
                                 side=SIDE_NAMES[to_move], winner=SIDE_NAMES[to_move ^ 1])
                self._outcome = uniform_outcome_two_player(to_move ^ 1, Termination.STALEMATE, detail)
            return
        if mover is not None:
            repetition = self._repetition_outcome()
            if repetition:
                self._outcome = repetition
                return
        if not pos.has_attacking_material():
            self._outcome = uniform_outcome_two_player(
                None, Termination.NO_MATERIAL, Message("Draw: neither side has an attacking piece left"))
            return
        limit = int(self.options.get("no_capture_limit", 0) or 0)
        if limit > 0 and self.quiet >= limit:
            self._outcome = uniform_outcome_two_player(
                None, Termination.MOVE_LIMIT, Message("Draw: {limit} half-moves without a capture", limit=limit))

    def _repetition_outcome(self) -> Outcome | None:
        """The ruling on a repeated position: the first repeat within 30 half-moves
        (``repetition_count = 2``), or the third occurrence anywhere in the game (3)."""
        ply = len(self.history) - 1
        key = self.history[ply]
        count = int(self.options.get("repetition_count", CONTEST_REPETITION_COUNT) or CONTEST_REPETITION_COUNT)
        window = REPETITION_WINDOW if count <= 2 else ply
        found = []
        for back in range(2, min(window, ply) + 1, 2):
            if self.history[ply - back] == key:
                found.append(ply - back)
                if len(found) >= count - 1:
                    break
        if len(found) < count - 1:
            return None
        earlier = found[-1]
        last_mover = self.position.side ^ 1
        # Plies earlier+1 .. ply: the last one was played by last_mover, alternating backwards.
        mover_checks = all(self.checks[p] for p in range(ply, earlier, -2))
        other_checks = all(self.checks[p] for p in range(ply - 1, earlier, -2))
        cycle = ply - earlier
        if self.options.get("repetition", REPETITION_CHOICES[0]) == "perpetual-check-loses":
            if mover_checks != other_checks:
                checker = last_mover if mover_checks else last_mover ^ 1
                return uniform_outcome_two_player(
                    checker ^ 1, Termination.REPETITION,
                    Message("{side} repeated the position by perpetual check ({cycle} half-moves) and loses",
                            side=SIDE_NAMES[checker], cycle=cycle))
        if count > 2:
            return uniform_outcome_two_player(
                None, Termination.REPETITION,
                Message("Draw: the position occurred for the third time (over {cycle} half-moves)", cycle=cycle))
        return uniform_outcome_two_player(
            None, Termination.REPETITION,
            Message("Draw: the position repeated within {cycle} half-moves", cycle=cycle))


def parse_square(name: str) -> int:
    clean = name.strip().upper()
    if len(clean) != 2 or clean[0] not in "ABCDEFGHI" or not clean[1].isdigit():
        raise MoveSyntaxError(Message("{square} is not a square (A0 to I9)", square=repr(name)))
    return square("ABCDEFGHI".index(clean[0]), int(clean[1]))


# --------------------------------------------------------------------------- timing rulings


#: Seconds on each side's clock in a plain match (option ``time_total``): ten minutes,
#: so a program that never answers loses at its clock, not after the 15-minute rule.
DEFAULT_GAME_SECONDS = 600.0
#: How close to the clock's end a time-out counts as a flag fall (the referee's grace).
FLAG_FALL_GRACE_SECONDS = 0.05


def adjudicate_flag_fall(state: XiangqiState, flagged_seat: int,
                         opponent_seconds_left: float) -> Outcome:
    """The result when ``flagged_seat`` runs out of time (RULES.md, "Results").

    If the opponent has more than 5 minutes left, the flagged side loses.  Otherwise
    it is a draw, unless a side can force mate within 4 half-moves from this position:
    then that side wins (the flagged side's own forced mate counts too: the board, not
    the clock, decides a game that is already won).
    """
    other = flagged_seat ^ 1
    if opponent_seconds_left > FLAG_FALL_MARGIN_SECONDS:
        return uniform_outcome_two_player(
            other, Termination.TIMEOUT,
            Message("{side} ran out of time with the opponent above 5 minutes", side=SIDE_NAMES[flagged_seat]))
    done = state.outcome()
    if done is not None:
        return done
    for side in (other, flagged_seat):
        if forced_mate_within(state.position.copy(), side, FLAG_FALL_MATE_PLIES):
            reason = Termination.TIMEOUT if side == other else Termination.ADJUDICATION
            return uniform_outcome_two_player(
                side, reason,
                Message("{side} ran out of time; {winner} can force mate within {plies} half-moves and wins",
                        side=SIDE_NAMES[flagged_seat], winner=SIDE_NAMES[side], plies=FLAG_FALL_MATE_PLIES))
    return uniform_outcome_two_player(
        None, Termination.TIMEOUT,
        Message("Draw: {side} ran out of time with the opponent at 5 minutes or less",
                side=SIDE_NAMES[flagged_seat]))


def adjudicate_move_time(seat: int, seconds: float) -> Outcome | None:
    """Loss for a single move longer than 15 minutes, else None."""
    if seconds > SINGLE_MOVE_LIMIT_SECONDS:
        return uniform_outcome_two_player(
            seat ^ 1, Termination.TIMEOUT,
            Message("{side} took {seconds} s over one move (limit 15 minutes)",
                    side=SIDE_NAMES[seat], seconds=f"{seconds:.0f}"))
    return None


class XiangqiGame(Game):
    """Xiangqi under the contest's rules, with the rulings written in RULES.md."""

    def timeout_ruling(self, state, seat, elapsed, used, total):
        """The 15-minute move, then the flag fall (RULES.md, "Time"); None: a per-move
        limit of the match was missed with time left on the clock (the seat loses)."""
        verdict = adjudicate_move_time(seat, elapsed)
        if verdict is not None:
            return verdict
        if total is not None and used.get(seat, 0.0) + elapsed >= total - FLAG_FALL_GRACE_SECONDS:
            return adjudicate_flag_fall(state, seat, total - used.get(seat ^ 1, 0.0))
        return None

    spec = GameSpec(
        name="xiangqi", title="Xiangqi", min_seats=2, max_seats=2,
        variants=(Variant("standard", {}, "the usual start position"),
                  Variant("contest", {"no_capture_limit": 0},
                          "contest mode: no limit on moves without a capture")),
        options=(
            Option("fen", "", "start position in Xiangqi FEN ('' = the usual start)"),
            Option("repetition", REPETITION_CHOICES[0],
                   "what a repeated position within 30 half-moves means",
                   REPETITION_CHOICES),
            Option("repetition_count", CONTEST_REPETITION_COUNT,
                   "the occurrence of a position that ends the game: 2 = the first repeat within "
                   "30 half-moves (the contest's rule), 3 = the third occurrence (engines' rule; "
                   "the default when a uci:/ucci: engine plays, outside contest mode)",
                   REPETITION_COUNTS),
            Option("no_capture_limit", ARENA_NO_CAPTURE_LIMIT,
                   "half-moves without a capture before a draw (0 = off)"),
            Option("time_total", DEFAULT_GAME_SECONDS,
                   "seconds on a program's or bot's clock for the whole game (0 = untimed; "
                   "a single move over 15 minutes loses all the same)"),
            Option("time_per_move", 0.0,
                   "seconds for each answer (0 = no limit but the clock and the 15 minutes)"),
        ),
        seat_names=SIDE_NAMES,
        summary="Chinese chess: mate the enemy general; a side with no legal move loses.",
        kind=GameKind.ALTERNATING,
    )

    def new_initial_state(self, options: Mapping[str, Any], seed: int = 0) -> XiangqiState:
        values = {o.name: o.default for o in self.spec.options}
        values.update(options or {})
        if values["repetition"] not in REPETITION_CHOICES:
            raise GameSetupError(Message("repetition must be one of {choices}",
                                         choices=", ".join(REPETITION_CHOICES)))
        try:
            values["repetition_count"] = int(values["repetition_count"])
        except (TypeError, ValueError):
            values["repetition_count"] = -1
        if values["repetition_count"] not in REPETITION_COUNTS:
            raise GameSetupError(Message("repetition_count must be 2 (the first repeat) or 3 (the third "
                                         "occurrence)"))
        try:
            values["no_capture_limit"] = int(values["no_capture_limit"] or 0)
        except (TypeError, ValueError):
            raise GameSetupError(Message("no_capture_limit must be a whole number")) from None
        position, quiet, number = Position.from_fen(values["fen"] or START_FEN)
        return XiangqiState(position, values, seed, quiet, number)

    def parse_cell(self, text: str) -> tuple[int, int] | None:
        """An ICCS point, ``h2`` or ``H2`` (file A-I, rank 0-9) -> ``(rank, file)``."""
        clean = text.strip().upper() if isinstance(text, str) else ""
        if len(clean) != 2 or clean[0] not in "ABCDEFGHI" or clean[1] not in "0123456789":
            return None
        return int(clean[1]), "ABCDEFGHI".index(clean[0])

    def parse_move(self, text: str, state: State | None = None, seat: int | None = None) -> str:
        return move_text(parse_move_text(text))

    def format_move(self, move: Any) -> str:
        return move_text(parse_move_text(move) if isinstance(move, str) else move)

    def describe(self, state: State) -> str:
        out = state.outcome()
        if out:
            return out.detail
        rule = repetition_rule_text(state.options)
        if state.in_check():
            return Message("{side} to move (check) · {rule}", side=SIDE_NAMES[state.side], rule=rule)
        return Message("{seat} to move · {rest}", seat=SIDE_NAMES[state.side], rest=rule)

    def rules_headline(self, options: Mapping[str, Any]) -> str:
        """The repetition rule in force in a few words, for the match's header."""
        values = {o.name: o.default for o in self.spec.options}
        values.update(options or {})
        count = int(values.get("repetition_count") or CONTEST_REPETITION_COUNT)
        return "first repeat ends the game" if count <= 2 else "third repetition ends the game"

    def rules_summary(self, options: Mapping[str, Any]) -> str:
        """The rulings in force that a player must know (the record's header keeps it)."""
        values = {o.name: o.default for o in self.spec.options}
        values.update(options or {})
        limit = int(values.get("no_capture_limit") or 0)
        capture = f"draw after {limit} half-moves without a capture" if limit else "no capture limit"
        return f"{repetition_rule_text(values)}; {capture}"
