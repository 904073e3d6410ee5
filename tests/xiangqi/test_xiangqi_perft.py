"""Perft: legal move path counts against published figures.

The start position's counts and the other positions are the widely published Xiangqi
perft suite (chessprogramming wiki, "Chinese Chess Perft Results"); every count below
to depth 3 was also reproduced with pyffish while writing these tests (the last
position's depth-4 figure is pyffish's; it is not used below).
"""
import subprocess
import sys
from pathlib import Path

import pytest

from games.xiangqi.cli import bestmove_text, legal_text, perft_text
from games.xiangqi.rules import START_FEN, Position

REPO = Path(__file__).resolve().parents[2]

PUBLISHED = [
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", (38, 1128, 43929, 1339047)),
    ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", (7, 281, 8620, 326201)),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", (25, 424, 9850, 202884)),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", (28, 516, 14808, 395483)),
    ("R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", (21, 364, 7626, 162837)),
    ("C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1", (28, 222, 6241, 64971)),   # depth 4 from pyffish
]


@pytest.mark.parametrize("depth,expected", [(1, 44), (2, 1920), (3, 79666)])
def test_start_position_perft(depth, expected):
    assert Position.from_fen(START_FEN)[0].perft(depth) == expected


@pytest.mark.slow
def test_start_position_perft_depth_4():
    """3.3 million leaves: about 7 s on an idle core, over 20 s on a busy machine."""
    assert Position.from_fen(START_FEN)[0].perft(4) == 3290240


@pytest.mark.parametrize("fen,counts", PUBLISHED)
def test_published_positions_to_depth_3(fen, counts):
    position = Position.from_fen(fen)[0]
    assert [position.perft(d) for d in (1, 2, 3)] == list(counts[:3])


@pytest.mark.parametrize("index", [1, 2, 4])
def test_published_positions_depth_4(index):
    fen, counts = PUBLISHED[index]
    assert Position.from_fen(fen)[0].perft(4) == counts[3]


def test_perft_leaves_the_position_unchanged():
    position = Position.from_fen(PUBLISHED[0][0])[0]
    before = (position.fen(), position.key, sorted(position.squares[0]), sorted(position.squares[1]))
    position.perft(3)
    assert (position.fen(), position.key, sorted(position.squares[0]), sorted(position.squares[1])) == before


def test_cli_functions():
    assert perft_text(START_FEN, 2) == "1920"
    divided = perft_text("start", 2, divide=True).splitlines()
    assert divided[-1] == "1920" and len(divided) == 45 and divided[0] == "A0A1 44"
    moves = legal_text(START_FEN).split(" ")
    assert len(moves) == 44 and moves == sorted(moves) and "H2E2" in moves


def test_bestmove_tool():
    assert bestmove_text("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", 1.0).startswith("B0B9 score 29999")
    assert "no legal move" in bestmove_text("4k4/3R5/9/9/9/9/9/9/9/5K3 b - - 0 1", 0.1)
    assert bestmove_text("start", 5.0, depth=2).split()[4] == "2"


def test_cli_through_main():
    run = lambda *args: subprocess.run([sys.executable, "main.py", "xiangqi", *args], cwd=REPO,
                                       capture_output=True, text=True, timeout=60)
    done = run("perft", PUBLISHED[1][0], "2")
    assert done.returncode == 0 and done.stdout.strip() == "281", done.stderr
    done = run("legal", "4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1")
    assert done.returncode == 0 and done.stdout.strip() == "E9F9"
    done = run("legal", "not a fen")
    assert done.returncode == 2 and "10 ranks" in done.stderr
