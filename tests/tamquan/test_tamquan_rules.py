"""Tam Quan rules, one rule per test, on small hand-made boards (rows: '.' or team letters A B C D)."""
import pytest

from games.api import GameSetupError, IllegalMoveError, MoveSyntaxError, Termination
from games.tamquan.rules import (Placement, TamQuanGame, capture_phase, format_move,
                                 parse_move, state_from_rows)

GAME = TamQuanGame()
R, B, Y, G = 0, 1, 2, 3   # teams A, B, C, D (Red, Blue, Yellow in the example)


def steps(text):
    return parse_move(text)


def play(state, text):
    state.play({state.current: parse_move(text)})
    return state


def captured(state, team):
    return [divmod(p, state.layout.size) for p in capture_phase(state.layout, state.cells, team)]


# ---------------------------------------------------------------- the worked example
def test_worked_example_red_then_blue_with_yellow():
    """The worked example, with Red = team A, Blue = B, Yellow = C: Red steps both
    pieces right and captures Blue in the middle row.  Blue, with Yellow's help,
    captures Red in the row above before moving; after moving Blue captures Yellow.
    One red and two blue pieces are left."""
    state = state_from_rows(["..C.B",
                             ".A.B.",
                             "A.B..",
                             ".....",
                             "....."], to_move=R, teams=3)
    play(state, "1,1-1,2 2,0-2,1")
    kinds = [(e.kind, e.text) for e in state.events()]
    assert ("capture", "A captured B at 2,2 after moving") in kinds
    assert ("capture", "B captured A at 1,2 before moving") in kinds
    # The captured red piece was taken by Blue and Yellow together.
    before = [e for e in state.events() if e.text.startswith("B captured")][0]
    assert set(before.squares) == {(1, 2), (0, 2), (1, 3)} and set(before.seats) == {R, B, Y}
    assert state.current == B
    assert state.rows() == ["..C.B",
                            "...B.",
                            ".A...",
                            ".....",
                            "....."]
    play(state, "0,4-0,3 1,3-1,2")
    assert ("capture", "B captured C at 0,2 after moving") in [
        (e.kind, e.text) for e in state.events()]
    assert state.piece_counts() == (1, 2, 0)
    assert state.current == R           # Yellow has no pieces: skipped
    assert not state.is_terminal()


# ---------------------------------------------------------------- capture
def test_one_enemy_is_not_enough():
    state = state_from_rows([".....",
                             "..B..",
                             "..A..",
                             ".....",
                             "....."], to_move=B)
    assert captured(state, B) == []


def test_two_enemies_capture_a_lone_piece():
    state = state_from_rows([".....",
                             "..B..",
                             ".BA..",
                             ".....",
                             "....."], to_move=B)
    assert captured(state, B) == [(2, 2)]


def test_teammates_prevent_a_capture():
    state = state_from_rows([".....",
                             "..B..",
                             ".BAA.",
                             "..A..",
                             "....."], to_move=B)
    assert captured(state, B) == []          # two enemies, two friends
    state = state_from_rows([".....",
                             "..B..",
                             ".BAB.",
                             "..A..",
                             "....."], to_move=B)
    assert captured(state, B) == [(2, 2)]    # three enemies, one friend


def test_capture_needs_a_neighbour_of_the_team_on_turn():
    rows = [".....",
            "..C..",
            ".CA..",
            ".....",
            "...B."]
    assert captured(state_from_rows(rows, to_move=B, teams=3), B) == []
    assert captured(state_from_rows(rows, to_move=Y, teams=3), Y) == [(2, 2)]
    # With a Blue neighbour, Yellow's pieces count too (enemies of Red need not be Blue).
    rows = [".....",
            "..C..",
            ".BA..",
            ".....",
            "....."]
    assert captured(state_from_rows(rows, to_move=B, teams=3), B) == [(2, 2)]


def test_the_team_on_turn_is_never_captured_in_its_own_phases():
    state = state_from_rows([".....",
                             "..A..",
                             ".ABA.",
                             "..A..",
                             "....."], to_move=B)
    assert captured(state, B) == []


def test_no_chain_captures_within_a_phase():
    """Red at 2,2 is safe (two friends) until its friend at 2,1 is captured; removing
    that friend does not lead to a second capture in the same phase."""
    state = state_from_rows([".....",
                             ".BB..",
                             "BAAA.",
                             ".BB..",
                             "....."], to_move=B)
    assert captured(state, B) == [(2, 1)]
    board = list(state.cells)
    board[2 * 5 + 1] = -1
    assert [divmod(p, 5) for p in capture_phase(state.layout, board, B)] == [(2, 2)]


def test_captures_of_one_phase_are_removed_together():
    state = state_from_rows(["B.B..",
                             "ABA..",
                             ".....",
                             ".....",
                             "....."], to_move=B)
    assert captured(state, B) == [(1, 0), (1, 2)]


# ---------------------------------------------------------------- steps
def test_every_member_must_step():
    state = state_from_rows(["A....", ".....", "..A..", ".....", "....B"], to_move=R)
    with pytest.raises(IllegalMoveError, match="has 2 members"):
        state.check_move(R, steps("0,0-0,1"))
    with pytest.raises(IllegalMoveError, match="must step"):
        state.check_move(R, steps("0,0-0,0 2,2-2,3"))
    with pytest.raises(IllegalMoveError, match="not one orthogonal step"):
        state.check_move(R, steps("0,0-1,1 2,2-2,3"))
    state.check_move(R, steps("0,0-0,1 2,2-2,3"))


def test_a_blocked_member_stays_and_order_matters():
    rows = ["AA...",
            "AB...",
            ".....",
            ".....",
            "....B"]
    state = state_from_rows(rows, to_move=R)
    # 0,0 is blocked until 0,1 or 1,0 has stepped away.
    state.check_move(R, steps("0,0-0,0 0,1-0,2 1,0-2,0"))
    with pytest.raises(IllegalMoveError, match="must step"):
        state.check_move(R, steps("0,1-0,2 0,0-0,0 1,0-2,0"))
    state.check_move(R, steps("0,1-0,2 0,0-0,1 1,0-2,0"))
    # The move list has one move per distinct end position and all are legal.
    moves = state.legal_moves(R)
    assert len({frozenset(b for _, b in m.steps) for m in moves}) == len(moves)
    for move in moves:
        state.check_move(R, move)


def test_a_member_cannot_step_twice_or_onto_a_piece():
    state = state_from_rows(["A....", ".....", "..A..", ".....", "....B"], to_move=R)
    with pytest.raises(IllegalMoveError):
        state.check_move(R, steps("0,0-0,1 0,1-0,2"))
    state = state_from_rows(["AB...", ".....", "..A..", ".....", "....."], to_move=R)
    with pytest.raises(IllegalMoveError, match="not empty"):
        state.check_move(R, steps("0,0-0,1 2,2-2,3"))


# ---------------------------------------------------------------- setup and end
def test_setup_by_zone_choice_then_play():
    state = GAME.new_initial_state(GAME.spec.resolve_options("5x5-2teams"), 0)
    assert state.setup and state.to_move() == (R,)
    assert len(state.legal_moves(R)) == 2 * 10
    with pytest.raises(IllegalMoveError, match="not in zone"):
        state.check_move(R, Placement(0, ((0, 0), (0, 1), (1, 1))))
    play(state, "zone 2: 4,0 4,2 4,4")
    assert state.to_move() == (B,)
    with pytest.raises(IllegalMoveError, match="already taken"):
        state.check_move(B, Placement(1, ((4, 1), (4, 3), (4, 0))))
    play(state, "zone 1: 0,1 0,2 0,3")
    assert not state.setup and state.to_move() == (R,)
    assert state.rows() == [".BBB.", ".....", ".....", ".....", "A.A.A"]


def test_four_team_variant_zones_are_the_corners():
    state = GAME.new_initial_state(GAME.spec.resolve_options("8x8-4teams"), 0)
    assert [len(z) for z in state.layout.zones] == [9, 9, 9, 9]
    assert (0, 0) in state.layout.zones[0] and (7, 7) in state.layout.zones[2]
    assert GAME.seats_for(GAME.spec.resolve_options("8x8-4teams")) == 4


def test_zones_and_sizes_are_options():
    options = GAME.spec.resolve_options(None, {"size": "6", "members": "2",
                                               "zones": "0,0 0,1 / 5,4 5,5"})
    state = GAME.new_initial_state(options, 0)
    assert state.layout.zones == (((0, 0), (0, 1)), ((5, 4), (5, 5)))
    with pytest.raises(GameSetupError):
        GAME.new_initial_state(GAME.spec.resolve_options(None, {"zones": "0,0 0,1 / 9,9 4,4 4,3"}), 0)


def test_last_team_on_the_board_wins():
    state = state_from_rows([".....",
                             ".A...",
                             "..B..",
                             ".A...",
                             "....."], to_move=R)
    play(state, "1,1-1,2 3,1-3,2")
    out = state.outcome()
    assert out.winners == (R,) and out.reason is Termination.ELIMINATION
    assert out.ranks == (1, 2) and state.to_move() == ()


def test_turn_limit_ranks_by_pieces_and_equal_counts_draw():
    state = state_from_rows(["A....", ".....", ".....", ".....", "....B"], to_move=R,
                            turn_limit=2)
    play(state, "0,0-0,1")
    assert not state.is_terminal()
    play(state, "4,4-4,3")
    out = state.outcome()
    assert out.reason is Termination.MOVE_LIMIT and out.is_draw
    state = state_from_rows(["AA...", ".....", ".....", ".....", "....B"], to_move=R,
                            turn_limit=1)
    play(state, "0,0-1,0 0,1-0,2")
    out = state.outcome()
    assert out.winners == (R,) and out.scores == (2.0, 1.0)


def test_forfeit_takes_the_team_off_the_board():
    state = state_from_rows(["AA...", ".....", "..C..", ".....", "....B"], to_move=R, teams=3)
    state.forfeit(R, Termination.CRASH, "boom")
    assert state.piece_counts() == (0, 1, 1) and state.to_move() == (B,)
    state.forfeit(B, Termination.TIMEOUT)
    assert state.outcome().winners == (Y,)


def test_a_team_that_resigns_during_setup_leaves_the_other_the_winner():
    state = GAME.new_initial_state(GAME.spec.resolve_options(None, {}), 0)
    assert state.setup and state.piece_counts() == (0, 0)
    state.forfeit(R, Termination.RESIGNATION)
    outcome = state.outcome()
    assert outcome.winners == (B,) and outcome.ranks == (2, 1) and not outcome.is_draw


# ---------------------------------------------------------------- codec and repair
def test_move_text_round_trips():
    for text in ("zone 2: 4,0 4,2 4,4", "1,0-2,0 1,2-1,1 3,3-3,3", "0,0-0,1"):
        assert format_move(parse_move(text)) == text
    assert parse_move("zone 1: 0,3 0,1") == Placement(0, ((0, 1), (0, 3)))
    for bad in ("zone x", "1,0>2,0", "e2e4", "zone 0: 1,1"):
        with pytest.raises(MoveSyntaxError):
            parse_move(bad)


def test_repair_keeps_valid_steps_and_fills_the_rest_in_reading_order():
    state = state_from_rows([".....",
                             ".A...",
                             "..A..",
                             "...A.",
                             "....B"], to_move=R)
    move, note = GAME.repair(state, R, "garbage!")
    assert format_move(move) == "1,1-0,1 2,2-1,2 3,3-2,3"
    assert "0 answered step" in note
    move, note = GAME.repair(state, R, "3 3 3 2\n1 1 9 9\n2 2 2 2\n")
    assert format_move(move) == "3,3-3,2 1,1-0,1 2,2-1,2"
    assert "kept 1 answered step" in note
    state.check_move(R, move)


def test_repair_of_a_placement():
    state = GAME.new_initial_state(GAME.spec.resolve_options("5x5-2teams"), 0)
    move, _ = GAME.repair(state, R, "2\n4 4\n0 0\n")
    assert move == Placement(1, ((4, 0), (4, 1), (4, 4)))
    move, _ = GAME.repair(state, R, None)
    assert move == Placement(0, ((0, 0), (0, 1), (0, 2)))
    state.check_move(R, move)
