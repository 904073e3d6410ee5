"""Xiangqi rules and rulings: codecs, piece rules, game ends, repetition, timing."""
import pytest

from games.api import GameSetupError, IllegalMoveError, MoveSyntaxError, Termination
from games.xiangqi.rules import (START_FEN, Position, XiangqiGame, adjudicate_flag_fall,
                                 adjudicate_move_time, forced_mate_within, move_text,
                                 parse_move_text)

GAME = XiangqiGame()
MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"        # B0B9 mates
STALEMATE_IN_ONE = "4k4/9/3R5/9/9/9/9/9/9/5K3 w - - 0 1"     # D7D8 leaves Black no move
PERPETUAL = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"              # A8A9+ E9E8 A9A8+ E8E9
SHUFFLE = "4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1"                 # D0D1 E9E8 D1D0 E8E9


def new_state(fen="", **options):
    return GAME.new_initial_state({"fen": fen, **options}, seed=1)


def play(state, *moves):
    for move in moves:
        state.check_move(state.side, move)
        state.apply({state.side: move})
    return state


# ---- codecs


def test_fen_round_trip():
    fens = [START_FEN, MATE_IN_ONE, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 7 31"]
    for fen in fens:
        assert Position.from_fen(fen)[0].fen(*Position.from_fen(fen)[1:]) == fen
    state = play(new_state(), "H2E2", "H9G7")
    assert new_state(state.fen()).fen() == state.fen()
    assert Position.from_fen(state.fen())[0].key == state.position.key


def test_fen_accepts_alternative_letters_and_short_form():
    pos = Position.from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR")[0]
    assert pos.fen() == START_FEN


def test_iccs_round_trip_every_square_pair():
    for origin in range(90):
        for target in range(90):
            if origin != target:
                move = origin << 7 | target
                assert parse_move_text(move_text(move)) == move
                assert parse_move_text(move_text(move).lower()) == move
    assert GAME.parse_move(" h2e2 ") == "H2E2" and GAME.format_move("H2E2") == "H2E2"


@pytest.mark.parametrize("text", ["", "H2E", "J2E2", "H2E22", "H2H2", "H-E2", "2HE2", None, 42])
def test_bad_move_text_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        GAME.parse_move(text)


@pytest.mark.parametrize("fen,words", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9", "10 ranks"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "9 files"),
    ("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "more than 9 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "counters"),
    ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "no general"),
    ("3k5/9/9/9/9/9/9/9/9/K8 w", "outside its palace"),
    ("3k5/9/9/9/9/9/9/9/9/3KK4 w", "two generals"),
    ("3k5/9/9/9/9/9/9/9/9/3K5 x", "side to move"),
    ("3k5/9/9/9/9/9/9/9/9/3K4A w", "palace diagonal"),
    ("3k5/9/9/9/9/B8/9/9/9/3K5 w", "elephant point"),
    ("3k5/9/9/9/9/9/9/9/P8/3K5 w", "behind its starting rank"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 b", "not to move is in check"),
    ("3k5/9/9/9/9/9/9/9/4R4/RR1K5 b", "3 chariots"),
])
def test_bad_fen_is_a_setup_error(fen, words):
    with pytest.raises(GameSetupError, match=words):
        new_state(fen)


# ---- piece rules (each checked against pyffish elsewhere; these name the rule)


def legal(fen):
    return set(new_state(fen).legal_moves(new_state(fen).side))


def test_horse_leg_and_elephant_eye_block():
    assert {m for m in legal("3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 0 1") if m.startswith("B0")} == {"B0A2", "B0C2", "B0D1"}
    assert not any(m.startswith("B0") for m in legal("3k5/9/9/9/9/9/9/9/1p7/1NB1K4 w - - 0 1"))
    blocked = legal("3k5/9/9/9/9/9/9/9/3p5/2B1K4 w - - 0 1")
    assert "C0E2" not in blocked and "C0A2" in blocked


def test_elephant_stays_home_and_soldier_turns_after_river():
    moves = legal("3k5/9/9/9/9/P1B6/9/9/9/4K4 w - - 0 1")
    assert not any(m.startswith("C4") and m[3] in "56789" for m in moves)
    assert {"A4A5"} == {m for m in moves if m.startswith("A4")}
    crossed = legal("3k5/9/9/9/P8/9/9/9/9/4K4 w - - 0 1")
    assert {m for m in crossed if m.startswith("A5")} == {"A5A6", "A5B5"}


def test_cannon_needs_exactly_one_screen():
    file_moves = {m for m in legal("3k5/9/9/p8/9/p8/9/9/9/C3K4 w - - 0 1") if m.startswith("A0")}
    assert {"A0A1", "A0A3", "A0A6"} <= file_moves and not {"A0A4", "A0A5", "A0A7"} & file_moves
    rank_moves = legal("3k5/9/9/9/9/C1p1p4/9/9/9/4K4 w - - 0 1")
    assert "A4B4" in rank_moves and "A4E4" in rank_moves
    assert "A4C4" not in rank_moves and "A4D4" not in rank_moves


def test_flying_general_forbids_opening_the_file():
    moves = legal("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1")
    assert {m for m in moves if m.startswith("E5")} == {"E5E6"}   # sideways would open the file
    assert {"E0D0", "E0F0", "E0E1"} <= moves
    assert "E9D9" not in legal("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1")


def test_general_and_advisor_stay_in_palace():
    moves = legal("3k5/9/9/9/9/R8/9/9/9/3AK4 w - - 0 1")
    assert {m for m in moves if m.startswith("D0")} == {"D0E1"}
    assert "E0F0" in moves and all(m[2] in "DEF" and m[3] in "012" for m in moves if m.startswith("E0"))


# ---- game ends


def test_checkmate_wins():
    state = play(new_state(MATE_IN_ONE), "B0B9")
    out = state.outcome()
    assert out.winners == (0,) and out.reason is Termination.WIN and state.to_move() == ()
    assert [e.kind for e in state.events()] == ["check", "verdict"]


def test_stalemate_loses():
    state = play(new_state(STALEMATE_IN_ONE), "D7D8")
    out = state.outcome()
    assert state.legal_moves(1) == [] and not state.in_check()
    assert out.winners == (0,) and out.reason is Termination.STALEMATE and out.scores == (1.0, 0.0)


def test_a_side_without_moves_at_the_start_has_lost():
    state = new_state("4k4/3R5/9/9/9/9/9/9/9/5K3 b - - 0 1")
    assert state.outcome().winners == (0,)


def test_no_attacking_material_is_a_draw():
    state = new_state("3k5/9/9/9/9/9/9/4p4/4K4/9 w - - 0 1")
    assert state.in_check() and state.outcome() is None
    play(state, "E1E2")
    assert state.outcome().reason is Termination.NO_MATERIAL and state.outcome().is_draw
    assert state.events()[0].kind == "capture"
    assert new_state("3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1").outcome().reason is Termination.NO_MATERIAL


def test_perpetual_check_loses():
    state = play(new_state(PERPETUAL), "A8A9", "E9E8", "A9A8")
    assert state.outcome() is None
    play(state, "E8E9")
    out = state.outcome()
    assert out.reason is Termination.REPETITION and out.winners == (1,), out.detail
    assert "perpetual" in out.detail


@pytest.mark.parametrize("fen, moves, checks", [
    # Red checks on the way out (A1E1) but not back (E1A1); Black moves last
    ("4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1", ("A1E1", "E9D9", "E1A1", "D9E9"), [True, False, False, False]),
    # the same with Red, the side that checks only sometimes, moving last
    ("4k4/9/9/9/9/9/9/9/R8/5K3 b - - 0 1", ("E9D9", "A1D1", "D9E9", "D1A1"), [False, True, False, False]),
])
def test_a_repetition_where_only_some_of_one_sides_moves_check_is_a_draw(fen, moves, checks):
    """Perpetual check means every move of the checking side in the cycle checks: a
    chariot that checks on its way out but not back only repeats, a draw."""
    state = new_state(fen, no_capture_limit=0)
    seen = []
    for move in moves:
        play(state, move)
        seen.append(state.in_check())
    assert seen == checks
    out = state.outcome()
    assert out.reason is Termination.REPETITION and out.is_draw, out.detail
    assert "perpetual" not in out.detail


def test_perpetual_check_is_a_draw_with_the_draw_option():
    state = play(new_state(PERPETUAL, repetition="draw"), "A8A9", "E9E8", "A9A8", "E8E9")
    assert state.outcome().reason is Termination.REPETITION and state.outcome().is_draw


def test_quiet_repetition_is_a_draw():
    state = play(new_state(SHUFFLE), "D0D1", "E9E8", "D1D0")
    assert state.outcome() is None
    play(state, "E8E9")
    assert state.outcome().reason is Termination.REPETITION and state.outcome().is_draw


def tour(chariot_loop, full_moves):
    """Red's chariot goes round ``chariot_loop`` while Black's general circles its palace."""
    general_loop = ["E9", "E8", "D8", "D9"]
    moves = []
    for i in range(full_moves):
        moves.append(chariot_loop[i % len(chariot_loop)] + chariot_loop[(i + 1) % len(chariot_loop)])
        moves.append(general_loop[i % 4] + general_loop[(i + 1) % 4])
    return moves


def test_repetition_looks_back_only_30_half_moves():
    start = "4k4/9/9/9/9/9/R8/9/9/5K3 w - - 0 1"
    six = ["A3", "B3", "B4", "B5", "A5", "A4"]              # with Black's 4: repeats after 24 half-moves
    moves = tour(six, 12)
    state = play(new_state(start, no_capture_limit=0), *moves[:-1])
    assert state.outcome() is None
    play(state, moves[-1])
    assert state.outcome().reason is Termination.REPETITION and state.outcome().is_draw
    ten = ["A3", "B3", "C3", "C4", "C5", "C6", "B6", "A6", "A5", "A4"]   # repeats after 40: too far back
    state = play(new_state(start, no_capture_limit=0), *tour(ten, 20))
    assert state.outcome() is None and state.history[0] == state.history[40]


def test_no_capture_limit():
    state = play(new_state(SHUFFLE, no_capture_limit=3), "D0D1", "E9E8")
    assert state.outcome() is None
    play(state, "A5A6")
    assert state.outcome().reason is Termination.MOVE_LIMIT and state.outcome().is_draw
    assert play(new_state(SHUFFLE, no_capture_limit=0), "D0D1", "E9E8", "A5A6").outcome() is None


# ---- the State contract


def test_illegal_moves_are_refused_with_a_reason():
    state = new_state()
    with pytest.raises(IllegalMoveError, match="chariot cannot"):
        state.check_move(0, "A0A5")
    with pytest.raises(IllegalMoveError, match="no piece"):
        state.check_move(0, "E4E5")
    with pytest.raises(IllegalMoveError, match="Black's"):
        state.check_move(0, "A9A8")
    with pytest.raises(IllegalMoveError, match="turn"):
        state.check_move(1, "A9A8")
    with pytest.raises(IllegalMoveError, match="facing|check"):
        new_state("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1").check_move(0, "E5D5")


def test_clone_is_independent_and_turns_count():
    state = play(new_state(), "H2E2")
    copy = state.clone()
    play(copy, "H9G7")
    assert state.turn_number() == 1 and copy.turn_number() == 2
    assert state.fen() != copy.fen() and state.to_move() == (1,)


def test_forfeit_gives_the_other_side_the_win():
    state = new_state()
    state.forfeit(0, Termination.ILLEGAL_MOVE, "Red moved A0A5")
    assert state.outcome().winners == (1,) and state.outcome().reason is Termination.ILLEGAL_MOVE
    assert state.to_move() == () and state.legal_moves(0) == []


def test_random_playouts_keep_the_contract():
    import random
    rng = random.Random(3)
    for game_index in range(6):
        state = GAME.new_initial_state({}, seed=game_index)
        while not state.is_terminal():
            seat = state.to_move()[0]
            moves = state.legal_moves(seat)
            assert moves, state.fen()
            move = rng.choice(moves)
            assert GAME.parse_move(GAME.format_move(move)) == move
            state.apply({seat: move})
        assert state.outcome().reason in (Termination.WIN, Termination.STALEMATE, Termination.REPETITION,
                                          Termination.NO_MATERIAL, Termination.MOVE_LIMIT)
        assert state.turn_number() <= 400


# ---- timing rulings


def test_flag_fall_with_opponent_above_five_minutes_loses():
    out = adjudicate_flag_fall(new_state(), 0, 301)
    assert out.winners == (1,) and out.reason is Termination.TIMEOUT


def test_flag_fall_near_the_end_is_a_draw_without_a_quick_mate():
    out = adjudicate_flag_fall(new_state(), 0, 300)
    assert out.is_draw and out.reason is Termination.TIMEOUT


def test_flag_fall_with_a_forced_mate_goes_to_the_mating_side():
    state = new_state(MATE_IN_ONE)               # Red to move mates in one
    assert adjudicate_flag_fall(state, 1, 120).winners == (0,)
    assert adjudicate_flag_fall(state, 0, 120).winners == (0,)
    assert adjudicate_flag_fall(state, 0, 120).reason is Termination.ADJUDICATION


def test_forced_mate_search_depths():
    pos = Position.from_fen(MATE_IN_ONE)[0]
    assert forced_mate_within(pos, 0, 1)
    assert not forced_mate_within(pos, 1, 4)
    # Black to move first: Red mates on its second move at the latest (half-move 2).
    black_first = Position.from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1")[0]
    assert forced_mate_within(black_first, 0, 4)
    assert not forced_mate_within(black_first, 0, 1)


def test_single_move_limit():
    assert adjudicate_move_time(0, 900) is None
    out = adjudicate_move_time(1, 900.5)
    assert out.winners == (0,) and out.reason is Termination.TIMEOUT


def test_state_equality_follows_position_and_history():
    one = play(new_state(), "H2E2", "H9G7")
    two = play(new_state(), "H2E2", "H9G7")
    assert one == two and one.clone() == one
    other_order = play(new_state(SHUFFLE), "D0D1", "E9E8", "D1D0", "E8E9")
    assert other_order != new_state(SHUFFLE)          # same placement, different history
    assert other_order.position.placement_fen() == new_state(SHUFFLE).position.placement_fen()


def test_is_attacked_agrees_with_the_captures_a_side_could_make(random_positions):
    """For every piece (the generals aside) over random games, whether the other side
    could capture it (pins aside), as the move generator sees it, is what ``is_attacked``
    answers."""
    from games.xiangqi.rules import KING, SQUARES
    checked = 0
    for position in random_positions(seed=11, games=12, longest=90):
        for by in (0, 1):
            mover = position.copy()
            mover.side = by
            reach = {move & 127 for move in mover.pseudo_moves()}
            for sq in range(SQUARES):
                piece = position.board[sq]
                if not piece or (piece >> 3) == by or piece & 7 == KING:
                    continue
                assert position.is_attacked(sq, by) == (sq in reach), (position.fen(), sq, by)
                checked += 1
    assert checked > 10_000
