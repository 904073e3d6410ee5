"""Differential test: our legal moves against pyffish (Fairy-Stockfish) as an oracle.

pyffish is test-only.  It writes moves in lower case with ranks 1-10; we convert.
"""
import random
import re


from games.xiangqi.rules import START_FEN, Position, move_text

import pyffish as sf   # a test-only dependency: the independent reference

_PYFFISH_MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def pyffish_legal(fen):
    moves = set()
    for text in sf.legal_moves("xiangqi", fen, []):
        origin_file, origin_rank, target_file, target_rank = _PYFFISH_MOVE.match(text).groups()
        moves.add(f"{origin_file.upper()}{int(origin_rank) - 1}{target_file.upper()}{int(target_rank) - 1}")
    return moves


def generals_face(position):
    red, black = position.kings
    if red % 9 != black % 9:
        return False
    return all(position.board[sq] == 0 for sq in range(red + 9, black, 9))


def has_flying_general_restriction(position):
    """Some move that the pieces' own movement allows would leave the generals facing."""
    for move in position.pseudo_moves():
        captured = position.make(move)
        facing = generals_face(position)
        position.unmake(move, captured)
        if facing:
            return True
    return False


def random_game_positions(count, seed):
    """FENs from seeded random games that favour captures and checks (to reach mates)."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        position = Position.from_fen(START_FEN)[0]
        for _ in range(200):
            fens.append(position.fen())
            moves = position.legal_moves()
            if not moves or len(fens) >= count:
                break
            forcing = [m for m in moves if position.board[m & 127] or position.gives_check(m)]
            position.make(rng.choice(forcing if forcing and rng.random() < 0.6 else moves))
    return fens


def test_legal_moves_agree_with_pyffish_on_random_games():
    covered = {"check": 0, "mate": 0, "stalemate": 0, "flying general": 0}
    fens = random_game_positions(2100, seed=7)
    assert len(set(fens)) >= 2000
    for fen in fens:
        position = Position.from_fen(fen)[0]
        ours = {move_text(m) for m in position.legal_moves()}
        assert ours == pyffish_legal(fen), fen
        in_check = position.in_check(position.side)
        covered["check"] += in_check
        covered["mate"] += in_check and not ours
        covered["stalemate"] += not in_check and not ours
        covered["flying general"] += has_flying_general_restriction(position)
    assert covered["check"] >= 100, covered
    assert covered["mate"] >= 2, covered
    assert covered["stalemate"] >= 1, covered
    assert covered["flying general"] >= 100, covered


def test_check_detection_agrees_with_pyffish():
    for fen in random_game_positions(400, seed=11)[::10]:
        position = Position.from_fen(fen)[0]
        for move in position.legal_moves()[:10]:
            text = move_text(move)
            theirs = f"{text[0].lower()}{int(text[1]) + 1}{text[2].lower()}{int(text[3]) + 1}"
            assert position.gives_check(move) == sf.gives_check("xiangqi", fen, [theirs]), (fen, text)


def pyffish_perft(fen, depth):
    moves = sf.legal_moves("xiangqi", fen, [])
    if depth == 1:
        return len(moves)
    return sum(pyffish_perft(sf.get_fen("xiangqi", fen, [m]), depth - 1) for m in moves)


def test_published_perft_positions_agree_with_pyffish_to_depth_2():
    from test_xiangqi_perft import PUBLISHED
    for fen, counts in PUBLISHED:
        assert pyffish_perft(fen, 2) == counts[1] == Position.from_fen(fen)[0].perft(2), fen
