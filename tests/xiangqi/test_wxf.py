"""WXF notation: the standard openings, the WXF's own tandem examples, pyffish as an oracle."""
import random
import re

import pytest

from games.xiangqi.notation import wxf_file, wxf_history, wxf_line, wxf_move
from games.xiangqi.rules import (RED, BLACK, SOLDIER, START_FEN, Position, XiangqiGame, file_of,
                                 move_text)


def test_file_numbers_count_from_each_sides_right():
    assert [wxf_file(RED, f) for f in range(9)] == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert [wxf_file(BLACK, f) for f in range(9)] == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_standard_opening_moves():
    # Central cannon vs screen horses: 1. C2=5 H8+7  2. H2+3 R9=8 ...
    line = wxf_line(START_FEN, ["H2E2", "H9G7", "H0G2", "I9H9", "I0H0", "B9C7", "B0C2", "A6A5"])
    assert line == ["C2=5", "H8+7", "H2+3", "R9=8", "R1=2", "H2+3", "H8+7", "P1+1"]


def test_single_moves_from_the_start():
    assert wxf_move(START_FEN, "H2E2") == "C2=5"
    assert wxf_move(START_FEN, "B2E2") == "C8=5"
    assert wxf_move(START_FEN, "C3C4") == "P7+1"
    assert wxf_move(START_FEN, "G0E2") == "E3+5"
    assert wxf_move(START_FEN, "F0E1") == "A4+5"
    assert wxf_move(START_FEN, "E0E1") == "K5+1"
    assert wxf_move(START_FEN, "H2H9") == "C2+7"
    black = START_FEN.replace(" w ", " b ")
    assert wxf_move(black, "H9G7") == "H8+7"
    assert wxf_move(black, "B7E7") == "C2=5"
    assert wxf_move(black, "G9E7") == "E7+5"


def test_backward_and_sideways_moves_of_straight_movers():
    fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"
    assert wxf_move(fen, "A0A7") == "R9+7"
    assert wxf_move(fen, "A0D0") == "R9=6"
    fen = "3k5/9/9/9/9/9/9/2R6/9/4K4 w - - 0 1"
    assert wxf_move(fen, "C2C0") == "R7-2"
    fen = "r2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"
    assert wxf_move(fen, "A9A3") == "R1+6"
    assert wxf_move(fen, "A9C9") == "R1=3"


def test_tandem_chariots_horses_and_cannons():
    red = "3k5/9/9/9/4R4/9/4R4/9/9/5K3 w - - 0 1"
    assert wxf_move(red, "E5E6") == "R++1"
    assert wxf_move(red, "E3E2") == "R--1"
    assert wxf_move(red, "E5A5") == "R+=9"
    assert wxf_move(red, "E3A3") == "R-=9"
    black = "5k3/9/9/9/4r4/9/4r4/9/9/3K5 b - - 0 1"
    assert wxf_move(black, "E3E2") == "R++1"       # Black's front is the lower rank
    assert wxf_move(black, "E5E4") == "R-+1"
    horses = "3k5/9/9/9/4H4/9/4H4/9/9/5K3 w - - 0 1"
    assert wxf_move(horses, "E5D7") == "H++6"
    assert wxf_move(horses, "E3D1") == "H--6"


def test_tandem_advisors_and_elephants_keep_their_file():
    advisors = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1"
    assert wxf_move(advisors, "D0E1") == "A6+5"
    assert wxf_move(advisors, "D2E1") == "A6-5"
    elephants = "3k5/9/9/9/9/6B2/9/9/9/4K1B2 w - - 0 1"
    assert wxf_move(elephants, "G0E2") == "E3+5"
    assert wxf_move(elephants, "G4E2") == "E3-5"


def test_tandem_pawns_follow_the_wxf_examples():
    # WXF: three tandem pawns on the 3rd file traverse to the 4th: P+.4, P3.4, P-.4
    three = "3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1"
    assert [wxf_move(three, m) for m in ("G7F7", "G6F6", "G5F5")] == ["P+=4", "P3=4", "P-=4"]
    # five: ++.4, P+.4, P3.4, P-.4, --.4
    five = "4k1P2/6P2/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1"
    assert ([wxf_move(five, m) for m in ("G9F9", "G8F8", "G7F7", "G6F6", "G5F5")]
            == ["++=4", "P+=4", "P3=4", "P-=4", "--=4"])
    # four: ++.4, P+.4, P-.4, --.4
    four = "4k4/6P2/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1"
    assert ([wxf_move(four, m) for m in ("G8F8", "G7F7", "G6F6", "G5F5")]
            == ["++=4", "P+=4", "P-=4", "--=4"])
    # two tandem files (3 on the 3rd, 2 on the 7th): 3+.4, 33.4, 3-.4, 7+.6, 7-.6
    two_files = "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1"
    assert ([wxf_move(two_files, m) for m in ("G7F7", "G6F6", "G5F5", "C6D6", "C5D5")]
            == ["3+=4", "33=4", "3-=4", "7+=6", "7-=6"])
    # one tandem pair and a lone pawn elsewhere: the ordinary +/- form
    pair = "3k5/9/9/9/9/2P6/2P3P2/9/9/4K4 w - - 0 1"
    assert wxf_move(pair, "C4C5") == "P++1"
    assert wxf_move(pair, "G3G4") == "P3+1"


def test_history_of_a_state_replays_from_its_start():
    game = XiangqiGame()
    state = game.new_initial_state({})
    for move in ("H2E2", "H9G7", "H0G2"):
        state.apply({state.side: move})
    assert wxf_history(state) == ["C2=5", "H8+7", "H2+3"]


def test_no_piece_on_the_origin_is_an_error():
    with pytest.raises(ValueError):
        wxf_move(START_FEN, "E4E5")


import pyffish as sf   # a test-only dependency: the independent reference

def _pyffish_text(move):
    text = move_text(move)
    return f"{text[0].lower()}{int(text[1]) + 1}{text[2].lower()}{int(text[3]) + 1}"


def _pawn_tandem_beyond_a_pair(position, side):
    """pyffish numbers tandem pawns its own way once a file holds 3+ or two files hold 2+."""
    counts = {}
    for sq in position.squares[side]:
        if position.board[sq] & 7 == SOLDIER:
            counts[file_of(sq)] = counts.get(file_of(sq), 0) + 1
    tandem = [c for c in counts.values() if c >= 2]
    return len(tandem) >= 2 or any(c >= 3 for c in tandem)


def _has_tandem_partner(position, origin):
    piece = position.board[origin]
    return any(position.board[sq] == piece and sq != origin and file_of(sq) == file_of(origin)
               for sq in position.squares[position.side])


def test_agrees_with_pyffish_on_random_games():
    """A few moves per position of seeded random games, tandem pieces first (pyffish: ~11 ms a call)."""
    rng = random.Random(7)
    compared = tandem_seen = 0
    for _ in range(6):
        position = Position.from_fen(START_FEN)[0]
        for _ in range(80):
            moves = position.legal_moves()
            if not moves:
                break
            fen = position.fen()
            skip_pawns = _pawn_tandem_beyond_a_pair(position, position.side)
            usable = [m for m in moves if not (skip_pawns and position.board[m >> 7] & 7 == SOLDIER)]
            tandem = [m for m in usable if _has_tandem_partner(position, m >> 7)]
            sample = rng.sample(tandem, min(2, len(tandem))) + rng.sample(usable, min(1, len(usable)))
            for move in sample:
                ours = wxf_move(position, move)
                theirs = sf.get_san("xiangqi", fen, _pyffish_text(move), False, sf.NOTATION_XIANGQI_WXF)
                tandem_seen += bool(re.match(r"^[RHCP][+-]", ours))
                if ours != theirs and ours[1] in "+-":
                    # pyffish marks a tandem piece only when its file digit would be ambiguous;
                    # the WXF marks it always.  Same move otherwise.
                    digit = str(wxf_file(position.side, file_of(move >> 7)))
                    ours = ours[0] + digit + ours[2:]
                assert ours == theirs, (fen, move_text(move))
                compared += 1
            position.make(rng.choice(moves))
    assert compared > 400 and tandem_seen > 20, (compared, tandem_seen)
