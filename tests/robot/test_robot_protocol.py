"""The statement's 7×7 sample (section 2d), turn by turn, as exact MAP.INP files."""
import pytest

from games.api import MoveSyntaxError, RecordFormatError, Termination
from games.robot.protocol import parse_move_out, read_map_inp, write_map_inp
from games.robot.rules import Item, RobotGame, state_from_rows

SAMPLE_MAP = ["...#...",
              ".......",
              "..#.#..",
              "#.....#",
              "..#.#..",
              ".......",
              "...#..."]

# The MAP.INP files printed in the statement (A's on the left, B's on the right).
TURN0_A = """7 7 2 0
-1 -1 A
1
-1 -1 B
. . . # . . .
. . . . . . .
. . # . # . .
# . . . . . #
. . # . # . .
. . . . . . .
. . . # . . .
0
"""
TURN0_B = TURN0_A.replace("-1 -1 A\n1\n-1 -1 B", "-1 -1 B\n1\n-1 -1 A")

TURN1_A = """7 7 2 1
0 0 A
1
6 6 B
A . . # . . .
. . . . . . .
. . # . # . .
# . . . . . #
. . # . # . .
. . . . . . .
. . . # . . B
2
6 1 G
3 3 F
"""
TURN1_B = TURN1_A.replace("0 0 A\n1\n6 6 B", "6 6 B\n1\n0 0 A")

TURN2_A = """7 7 2 2
0 1 A
1
5 6 B
A A . # . . .
. . . . . . .
. . # . # . .
# . . . . . #
. . # . # . .
. . . . . . B
. . . # . . B
2
6 1 G
3 3 F
"""
TURN2_B = TURN2_A.replace("0 1 A\n1\n5 6 B", "5 6 B\n1\n0 1 A")

TURN3_A = """7 7 2 3
-1 -1 A
1
5 5 B
a a a # # # #
# . . . . . #
# . # . # . #
# . . . . . #
# . # . # . #
# . . . . B b
# # # # # # b
2
2 5 E
3 3 G
"""
TURN3_B = TURN3_A.replace("-1 -1 A\n1\n5 5 B", "5 5 B\n1\n-1 -1 A")


def sample_state():
    state = state_from_rows(SAMPLE_MAP, period=2)
    # The statement's items: spawned after turn 0 and after the first shrink.
    state.injected_spawns = [[Item(6, 1, "G"), Item(3, 3, "F")],
                             [Item(2, 5, "E"), Item(3, 3, "G")]]
    return state


def test_statement_sample_turn_by_turn():
    state = sample_state()
    expected = [(TURN0_A, TURN0_B), (TURN1_A, TURN1_B), (TURN2_A, TURN2_B), (TURN3_A, TURN3_B)]
    answers = [("0 0", "6 6"), ("0 1", "5 6"), ("0 2", "5 5")]
    for turn, (map_a, map_b) in enumerate(expected):
        assert write_map_inp(state, 0) == map_a, f"turn {turn}, A"
        assert write_map_inp(state, 1) == map_b, f"turn {turn}, B"
        if turn < len(answers):
            moves = {seat: parse_move_out(text + "\n") for seat, text in enumerate(answers[turn])}
            for seat, move in moves.items():
                state.check_move(seat, move)
            state.apply(moves)
    # "Sau khi kết thúc lượt 2, bản đồ tiến hành thu hẹp, thí sinh A bị mắc kẹt"
    assert state.to_move() == (1,)
    assert "sealed" in state.robots[0].why


def test_map_inp_reads_back_with_and_without_spaces():
    packed = "\n".join(line.replace(" ", "") if len(line.replace(" ", "")) == 7 and
                       set(line.replace(" ", "")) <= set(".#ABab") else line
                       for line in TURN2_A.split("\n"))
    for text in (TURN2_A, packed):
        data = read_map_inp(text)
        assert (data.height, data.width, data.period, data.turn) == (7, 7, 2, 2)
        assert data.me == (0, 1, "A") and data.others == [(5, 6, "B")]
        assert data.rows[0] == "AA.#..." and data.rows[6] == "...#..B"
        assert data.items == [Item(6, 1, "G"), Item(3, 3, "F")]


def test_map_inp_reader_names_the_line():
    broken = TURN1_A.replace(". . . . . . .\n. . # . #", ". . . . .\n. . # . #", 1)
    with pytest.raises(RecordFormatError) as info:
        read_map_inp(broken, "seat1/MAP.INP")
    assert info.value.line == 6 and "seat1/MAP.INP" in str(info.value)


@pytest.mark.parametrize("text,move", [("3 4\n", (3, 4)), ("  3   4  \r\n9 9\n", (3, 4)),
                                       ("-1 -1", (-1, -1)), ("10,2", (10, 2))])
def test_move_out_parses(text, move):
    assert parse_move_out(text) == move
    assert RobotGame().parse_move(RobotGame().format_move(move)) == move


@pytest.mark.parametrize("text", ["", "3", "a b", "3 4 5", "\0\1\2", "3 " * 5000, "1.5 2"])
def test_move_out_garbage_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        parse_move_out(text)


def test_four_players_others_in_seat_order_and_a_departed_player_at_minus_one():
    state = state_from_rows([".....", ".....", "....."], period=100, players=4)
    state.apply({0: (0, 0), 1: (0, 4), 2: (2, 0), 3: (2, 4)})
    state.forfeit(1, Termination.CRASH)
    text = write_map_inp(state, 2)
    lines = text.split("\n")
    assert lines[:6] == ["3 5 100 1", "2 0 C", "3", "0 0 A", "-1 -1 B", "2 4 D"]
    assert lines[6:9] == ["A . . . B", ". . . . .", "C . . . D"]
    assert text.endswith("\n") and not text.endswith("\n\n")
