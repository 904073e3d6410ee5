"""The bot's endgame knowledge: it wins the basic won endings and holds the drawn ones."""
import pytest

from games.xiangqi.bot import evaluate_from_scratch, make_bot
from games.xiangqi.endgames import adjust
from games.xiangqi.rules import Position, XiangqiGame

GAME = XiangqiGame()

CHARIOT_V_BARE = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"
CHARIOT_V_ADVISORS = "3aka3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"
SOLDIER_V_BARE = "5k3/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1"
CANNON_ADVISOR_V_BARE = "4k4/9/9/9/9/9/9/9/4C4/3AK4 w - - 0 1"
HORSE_V_FULL = "2bakab2/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1"
CANNON_ALONE_V_BARE = "4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1"
CHARIOT_V_FULL = "2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"
CHARIOT_V_CHARIOT = "3k5/9/9/9/r8/9/9/9/9/R3K4 w - - 0 1"
BLACK_NOTHING_BUT_DEFENDERS = "2bakab2/9/9/9/9/9/9/9/9/3AK4 w - - 0 1"


def score(fen):
    position = Position.from_fen(fen)[0]
    return position, evaluate_from_scratch(position)


@pytest.mark.parametrize("fen", [CANNON_ALONE_V_BARE, CHARIOT_V_FULL])
def test_drawn_endings_score_near_a_draw(fen):
    position, raw = score(fen)
    assert raw >= 50                             # material alone says Red is ahead ...
    assert abs(adjust(position, raw)) <= raw // 4 + 1   # ... the ending says it cannot win


@pytest.mark.parametrize("fen", [HORSE_V_FULL, CANNON_ALONE_V_BARE, CHARIOT_V_FULL, CHARIOT_V_CHARIOT])
def test_any_advantage_in_a_drawn_ending_shrinks(fen):
    position, _ = score(fen)
    assert 0 < adjust(position, 400) <= 100 and -100 <= adjust(position, -400) < 0


@pytest.mark.parametrize("fen", [CHARIOT_V_BARE, CHARIOT_V_ADVISORS, SOLDIER_V_BARE])
def test_won_endings_keep_their_score_and_reward_cornering(fen):
    position, raw = score(fen)
    assert adjust(position, raw) > raw > 0


def test_a_side_with_nothing_to_attack_with_cannot_be_winning():
    position, raw = score("2bakab2/9/9/9/9/9/9/9/4A4/3AK1B2 b - - 0 1")
    raw += 250                                    # pretend Red were ahead on position
    assert abs(adjust(position, raw)) <= 30


def test_cornering_is_rewarded_more_off_the_centre_and_with_the_general_beside():
    central, raw = score("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
    cornered, raw_cornered = score("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert adjust(cornered, raw_cornered) - raw_cornered > adjust(central, raw) - raw


def play_out(fen, red, black, plies):
    state = GAME.new_initial_state({"fen": fen}, 0)
    bots = (red, black)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.side
        state.apply({seat: bots[seat].choose(state, seat, None)})
    return state


@pytest.mark.parametrize("fen, plies", [(CHARIOT_V_BARE, 30), (CHARIOT_V_ADVISORS, 40), (SOLDIER_V_BARE, 40),
                                         (CANNON_ADVISOR_V_BARE, 50)])
def test_the_bot_wins_a_won_ending_against_a_simple_defender(fen, plies):
    attacker = make_bot(5, 1, {"nodes": "12000"})
    defender = make_bot(3, 2, {"depth": "2"})
    state = play_out(fen, attacker, defender, plies)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,), (state.moves, outcome)


def test_the_bot_holds_a_drawn_ending():
    # Black has its full defence against a lone horse: the bot defends 60 half-moves
    # against the top level and is not mated.
    attacker = make_bot(5, 3, {"nodes": "6000"})
    defender = make_bot(5, 4, {"nodes": "6000"})
    state = play_out(HORSE_V_FULL, attacker, defender, 60)
    outcome = state.outcome()
    assert outcome is None or not outcome.winners or outcome.winners == (1,)
