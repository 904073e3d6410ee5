"""The top bot's leaf evaluation: king safety terms, and the lower levels left as they were."""
import pytest

from games.xiangqi.bot import Searcher, make_bot
from games.xiangqi.evaluation import HOLLOW_CANNON, freedom, king_safety, phase_material, side_danger
from games.xiangqi.rules import BLACK, RED, START_FEN, Position


def position(fen):
    return Position.from_fen(fen)[0]


def test_the_start_is_safe_for_both_sides():
    start = position(START_FEN)
    assert king_safety(start) == 0
    assert side_danger(start, RED) == side_danger(start, BLACK)


def test_an_empty_headed_cannon_is_a_danger_and_a_screen_lessens_it():
    # Red's cannon on E5 faces Black's general on E9 with nothing between ...
    faced = position("3akab2/9/b8/9/4C4/9/9/9/9/3AKAB2 b - - 0 1")
    # ... and with Black's elephant on E7 between them (a check, but a screened one).
    screened = position("3akab2/9/4b4/9/4C4/9/9/9/9/3AKAB2 b - - 0 1")
    assert side_danger(faced, BLACK) - side_danger(screened, BLACK) >= HOLLOW_CANNON // 2
    assert king_safety(faced) > 0                   # good for Red


#: (position where the general is in more danger, one where it is in less, its side)
DANGER_PAIRS = {
    # A Black chariot on F2, at Red's palace, against one on A6.
    "attacker at the palace": ("3k5/9/9/9/9/9/9/5r3/9/3AKA3 w - - 0 1", "3k5/9/9/r8/9/9/9/9/9/3AKA3 w - - 0 1", RED),
    # Two Red chariots against a Black general without its advisors and elephants, and with.
    "missing defenders": ("4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1", "2bakab2/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1", BLACK),
    # A Black chariot on A2 looks along rank 2 into Red's palace; on A3 it looks past it.
    # Neither stands in the zone around the palace: only its reach tells them apart.
    "chariot reaching the palace": ("3k5/9/9/9/9/9/9/r8/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/r8/9/9/4K4 w - - 0 1", RED),
    # A Black cannon on A1 with Red's horse on B1 as its screen attacks Red's palace along
    # rank 1; with nothing between, it does not.
    "cannon reaching the palace": ("3k5/9/9/9/9/9/9/9/cN7/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/c8/4K4 w - - 0 1", RED),
}


@pytest.mark.parametrize("worse, better, side", DANGER_PAIRS.values(), ids=DANGER_PAIRS.keys())
def test_the_general_is_in_more_danger(worse, better, side):
    assert side_danger(position(worse), side) > side_danger(position(better), side)


def test_a_cannon_outweighs_a_horse_more_on_a_full_board_than_on_a_bare_one():
    # Red has a cannon where Black has a horse; the rest is the same on each board.
    full = position("rnbakabnr/9/1c7/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1")
    bare = position("3k5/9/2n6/9/9/9/9/4C4/9/4K4 w - - 0 1")
    assert phase_material(full) > phase_material(bare)
    assert phase_material(full) > 0


def test_a_hemmed_in_chariot_is_worth_less_than_a_free_one():
    free = position("4k4/9/9/9/9/3R5/9/9/9/3K5 w - - 0 1")
    hemmed = position("4k4/9/9/9/9/9/9/9/N8/R2K5 w - - 0 1")
    assert freedom(free, RED) > 0 > freedom(hemmed, RED)


def test_a_hobbled_horse_is_worth_less_than_one_in_the_open():
    # Red's horse on E4 can make all eight jumps; on A0, with its leg on A1 taken by a
    # Black soldier, it has only one (to C1: that jump's leg, B0, is empty).
    open_field = position("4k4/9/9/9/9/4N4/9/9/9/3K5 w - - 0 1")
    hobbled = position("4k4/9/9/9/9/9/9/9/p8/N2K5 w - - 0 1")
    assert freedom(open_field, RED) > 0 > freedom(hobbled, RED)


def test_only_the_top_level_uses_the_knowledge():
    assert make_bot(5, 0).searcher.knowledge
    assert not any(make_bot(level, 0).searcher.knowledge for level in (2, 3, 4))


def test_the_search_with_knowledge_is_deterministic_under_a_node_budget():
    fen = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1"
    answers = []
    for _ in range(2):
        start = position(fen)
        searcher = Searcher(knowledge=True)
        answers.append(searcher.choose(start, [start.key], [False], 0, None, 20000))
    assert answers[0] == answers[1] and answers[0][0] is not None
