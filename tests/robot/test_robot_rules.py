"""Robot rules, one RULEBOOK §2 rule per test, on small hand-made maps."""
import random

import pytest

from games.robot.maps import new_state  # noqa: E402
from games.api import GameSetupError, IllegalMoveError, Termination
from games.robot.rules import QUIRKS, Item, RobotGame, quirks_for, state_from_rows


def make(rows, at, period=100, turn=1, players=None, **robot_fields):
    """A state on ``rows`` (may hold painted/sealed cells) with robots at ``at``."""
    players = players or max(len(at), 2)
    state = state_from_rows(rows, period, players=players)
    state.turn = turn
    for seat in range(players):
        robot = state.robots[seat]
        if seat in at:
            robot.pos = state.board.index(*at[seat])
        else:
            robot.leave(0, "not in this test")
    for seat, fields in robot_fields.items():
        for name, value in fields.items():
            setattr(state.robots[int(seat[1:])], name, value)
    return state


def play(state, moves):
    state.apply(moves)
    return state


def grid(state):
    return state.map_rows(raw=True)


def kinds(state):
    return [e.kind for e in state.events()]


OPEN5 = [".....", ".....", ".....", ".....", "....."]


# ----------------------------------------------------------------- movement and painting
def test_a_step_paints_the_new_cell_and_staying_paints_the_current_one():
    state = play(make(OPEN5, {0: (2, 2), 1: (0, 0)}), {0: (2, 3), 1: (0, 0)})
    assert grid(state)[2] == "...A." and grid(state)[0] == "B...."


def test_bad_moves_mean_stay():
    state = make(["..#..", ".....", ".....", ".....", "....."], {0: (0, 1), 1: (4, 4)})
    for bad in [(0, 2), (-1, 1), (2, 1), (1, 2), (0, 3)]:
        with pytest.raises(IllegalMoveError):
            state.check_move(0, bad)
        after = play(state.clone(), {0: bad, 1: (4, 4)})
        assert after.position(0) == (0, 1)
    assert RobotGame().default_move(state, 0) == (0, 1)


def test_two_robots_on_one_cell_keep_its_colour():
    rows = [".....", ".....", "..C..", ".....", "....."]
    state = play(make(rows, {0: (2, 1), 1: (2, 3), 2: (0, 0)}),
                 {0: (2, 2), 1: (2, 2), 2: (0, 0)})
    assert grid(state)[2] == "..C.."
    state = play(make(OPEN5, {0: (2, 1), 1: (2, 3)}), {0: (2, 2), 1: (2, 2)})
    assert grid(state)[2] == "....."        # an empty cell stays empty


def test_a_cell_two_robots_would_repaint_keeps_its_colour():
    # A double-steps through (2, 2) while B steps onto it: neither colour wins it.
    state = make(OPEN5, {0: (2, 1), 1: (1, 2)}, r0={"speed_turns": 3})
    play(state, {0: (2, 3), 1: (2, 2)})
    assert grid(state)[2] == "...A." and state.position(1) == (2, 2)


def test_placement_turn_paints_and_bad_placement_draws_a_random_open_cell():
    state = state_from_rows(["#....", ".....", "....."], 100, players=3, seed=4)
    game = RobotGame()
    state.check_move(0, (1, 1))
    with pytest.raises(IllegalMoveError):
        state.check_move(1, (0, 0))
    play(state, {0: (1, 1), 1: (0, 0), 2: game.default_move(state, 2)})
    assert state.position(0) == (1, 1) and grid(state)[1][1] == "A"
    for seat in (1, 2):
        x, y = state.position(seat)
        assert (x, y) != (0, 0) and grid(state)[x][y] in "BC"
    again = state_from_rows(["#....", ".....", "....."], 100, players=3, seed=4)
    play(again, {0: (1, 1), 1: (0, 0), 2: (-1, -1)})
    assert again.position(1) == state.position(1) and again.position(2) == state.position(2)


# ----------------------------------------------------------------- items
def test_speed_picked_up_gives_exactly_five_double_steps_from_the_next_turn():
    """G taken from the map (not set by hand): double steps in each of the 5 turns after
    the pickup, none in the sixth."""
    state = make(["." * 15, "." * 15, "." * 15], {0: (1, 0), 1: (0, 14)})
    state.items = [(state.board.index(1, 1), "G")]
    play(state, {0: (1, 1), 1: (0, 14)})
    assert "pickup" in kinds(state)
    doubles = 0
    while (state.position(0)[0], state.position(0)[1] + 2) in state.legal_moves(0):
        x, y = state.position(0)
        play(state, {0: (x, y + 2), 1: (0, 14)})
        doubles += 1
        assert doubles <= 6
    assert doubles == 5
    assert state.position(0) == (1, 11)


def test_speed_double_step_paints_both_cells_and_lasts_five_turns():
    state = make(["." * 13, "." * 13, "." * 13], {0: (1, 0), 1: (0, 12)}, r0={"speed_turns": 5})
    for turn in range(5):
        x, y = state.position(0)
        assert (x, y + 2) in state.legal_moves(0)
        play(state, {0: (x, y + 2), 1: (0, 12)})
    assert grid(state)[1] == ".AAAAAAAAAA.."
    assert state.robots[0].speed_turns == 0
    assert (1, 12) not in state.legal_moves(0)
    with pytest.raises(IllegalMoveError):
        state.check_move(0, (1, 12))


def test_double_step_x2_prime_and_blocked_first_cell():
    rows = [".....", "..#..", ".....", ".....", "....#"]
    # X2': the second cell is forbidden, the first is open -> one step.
    state = play(make(rows, {0: (3, 2), 1: (0, 0)}, r0={"speed_turns": 2}), {0: (1, 2), 1: (0, 0)})
    assert state.position(0) == (2, 2) and grid(state)[2] == "..A.."
    # Off the map counts as invalid too.
    state = play(make(rows, {0: (1, 0), 1: (0, 4)}, r0={"speed_turns": 2}), {0: (-1, 0), 1: (0, 4)})
    assert state.position(0) == (0, 0)
    # The first cell is forbidden: no double step at all, the robot stays.
    state = make(rows, {0: (0, 2), 1: (4, 0)}, r0={"speed_turns": 2})
    with pytest.raises(IllegalMoveError):
        state.check_move(0, (2, 2))
    play(state, {0: (2, 2), 1: (4, 0)})
    assert state.position(0) == (0, 2) and state.robots[0].speed_turns == 1


def test_oil_walks_onto_a_forbidden_cell_and_must_step_off():
    rows = [".....", "..#..", ".....", ".....", "....."]
    state = make(rows, {0: (0, 2), 1: (4, 4)}, r0={"oil_turns": 4})
    assert (1, 2) in state.legal_moves(0)
    play(state, {0: (1, 2), 1: (4, 4)})
    assert state.position(0) == (1, 2) and grid(state)[1] == "..#.." and state.robots[0].on_oil
    assert state.robots[0].oil_turns == 0            # used once
    good = play(state.clone(), {0: (2, 2), 1: (4, 4)})
    assert good.position(0) == (2, 2) and grid(good)[2] == "..A.."
    stayed = play(state.clone(), {0: (1, 2), 1: (4, 4)})
    assert not stayed.robots[0].in_game and "stayed" in stayed.robots[0].why


def test_oil_onto_another_forbidden_cell_means_leaving():
    rows = [".....", "..##.", ".....", ".....", "....."]
    state = make(rows, {0: (0, 2), 1: (4, 4)}, r0={"oil_turns": 4})
    play(state, {0: (1, 2), 1: (4, 4)})
    play(state, {0: (1, 3), 1: (4, 4)})
    assert not state.robots[0].in_game and "another forbidden" in state.robots[0].why
    assert "elimination" in kinds(state)


def test_oil_expires_after_five_turns_and_works_on_sealed_cells():
    rows = ["aa...", ".....", ".....", ".....", "....."]
    state = make(rows, {0: (1, 0), 1: (4, 4)}, r0={"oil_turns": 5})
    assert (0, 0) in state.legal_moves(0)            # a sealed cell is allowed too
    for _ in range(5):
        play(state, {0: (1, 0), 1: (4, 4)})
    assert (0, 0) not in state.legal_moves(0)


def test_pickup_alone_only_and_not_while_holding():
    rows = [".....", ".....", ".....", ".....", "....."]
    state = make(rows, {0: (2, 1), 1: (2, 3), 2: (0, 0)})
    state.items = [(state.board.index(2, 2), "G"), (state.board.index(0, 1), "F")]
    play(state, {0: (2, 2), 1: (2, 2), 2: (0, 1)})
    assert [i.kind for i in state.item_list()] == ["G"]       # two robots entered together
    assert state.robots[2].oil_turns == 5
    holder = make(rows, {0: (1, 0), 1: (4, 4)}, r0={"speed_turns": 2})
    holder.items = [(holder.board.index(1, 1), "F")]
    play(holder, {0: (1, 1), 1: (4, 4)})
    assert holder.item_list() == [Item(1, 1, "F")] and holder.robots[0].oil_turns == 0


def test_explosion_paints_the_square_and_removes_robots_in_it():
    rows = ["b#...", ".....", ".....", ".....", "....."]
    state = make(rows, {0: (1, 2), 1: (0, 2), 2: (4, 4)})
    state.items = [(state.board.index(1, 1), "E")]
    play(state, {0: (1, 1), 1: (0, 2), 2: (4, 4)})
    # Sealed b and forbidden # untouched; B stood in the square and left; B's own
    # cell (0, 2) was claimed by B's stay and by the explosion: it keeps its colour.
    assert grid(state)[:3] == ["b#...", "AAA..", "AAA.."]
    assert not state.robots[1].in_game and "explosion" in state.robots[1].why
    assert state.robots[2].in_game and "explosion" in kinds(state)


def test_overlapping_explosions_leave_shared_cells_alone():
    rows = ["......", "......", "......", "......"]
    state = make(rows, {0: (1, 0), 1: (1, 4)})
    state.items = [(state.board.index(1, 1), "E"), (state.board.index(1, 3), "E")]
    play(state, {0: (1, 1), 1: (1, 3)})
    # Squares: columns 0-2 and 2-4; column 2 is claimed by both and stays empty.
    assert grid(state)[:3] == ["AA.BB."] * 3 and grid(state)[3] == "......"
    assert state.robots[0].in_game and state.robots[1].in_game
    # Adjacent pickups: each robot stands in the other's square, both leave.
    state = make(rows, {0: (1, 0), 1: (1, 3)})
    state.items = [(state.board.index(1, 1), "E"), (state.board.index(1, 2), "E")]
    play(state, {0: (1, 1), 1: (1, 2)})
    assert not state.robots[0].in_game and not state.robots[1].in_game
    assert grid(state)[:3] == ["A..B.."] * 3
    assert state.is_terminal() and state.outcome().is_draw


# ----------------------------------------------------------------- enclosure
def test_closing_a_loop_takes_the_inside_and_removes_a_robot_there():
    rows = [".......", ".AAAA..", ".A..A..", ".A#.A..", ".AA.A..", ".......", "......."]
    state = make(rows, {0: (5, 3), 1: (3, 3)})
    play(state, {0: (4, 3), 1: (3, 3)})
    assert grid(state)[1:5] == [".AAAA..", ".AAAA..", ".A#AA..", ".AAAA.."]
    assert not state.robots[1].in_game and state.robots[1].why == "enclosed by A"
    assert "enclosure" in kinds(state)


def test_the_map_border_is_not_a_wall():
    rows = ["..A..", "..A..", "..A..", "..A..", "....."]
    state = play(make(rows, {0: (4, 1), 1: (0, 4)}), {0: (4, 2), 1: (0, 4)})
    assert grid(state)[0] == "..A.B" and grid(state)[4] == "..A.."


def test_sealed_cells_keep_their_colour_in_the_wall():
    rows = ["aaa..", "a.a..", "a....", ".....", "....."]
    state = play(make(rows, {0: (3, 1), 1: (4, 4)}), {0: (2, 1), 1: (4, 4)})
    assert grid(state)[:3] == ["aaa..", "aAa..", "aA..."]     # not closed yet: (2,2) open
    state = play(state, {0: (2, 2), 1: (4, 4)})
    assert grid(state)[1] == "aAa.."


NESTED = ["...........",
          ".AAAAAAAAA.",
          ".A.......A.",
          ".A.BBBBB.A.",
          ".A.B...B.A.",
          ".A.B...B.A.",
          ".A.B...B.A.",
          ".A.BBBBB.A.",
          ".A.......A.",
          ".AAAA.AAAA.",
          "..........."]


def test_nested_enclosures_the_largest_region_wins_and_the_inner_robot_leaves():
    state = make(NESTED, {0: (10, 5), 1: (5, 5)})
    play(state, {0: (9, 5), 1: (5, 5)})
    inside = grid(state)[1:10]
    assert all(set(row[1:10]) == {"A"} for row in inside)
    assert not state.robots[1].in_game and state.robots[1].why == "enclosed by A"


def test_an_inner_enclosure_of_another_colour_loses_to_the_outer_one():
    # B closes its small loop while A's big loop is already closed around it.
    rows = list(NESTED)
    rows[9] = ".AAAAAAAAA."
    rows[7] = ".A.BB.BB.A."
    state = make(rows, {0: (0, 0), 1: (8, 5)})
    play(state, {0: (0, 0), 1: (7, 5)})
    assert not state.robots[1].in_game
    assert grid(state)[5] == ".AAAAAAAAA."


def test_largest_region_rule_with_a_real_tie():
    # The hole (2,2) is walled by A on two sides and B on two; with the diagonal
    # corners shared it is enclosed by neither alone.  Build a hole enclosed by both:
    # A's ring and B's ring both surround the single cell (2, 2).
    rows = ["AAAAA", "ABBBA", "AB.BA", "ABBBA", "AAAAA"]
    state = make(rows, {0: (0, 0), 1: (1, 1)})
    play(state, {0: (0, 0), 1: (1, 1)})
    # For A the region inside its ring is the B ring plus the hole (9 cells); for B
    # just the hole (1 cell): A takes the hole and B's ring, and B (inside) leaves.
    assert grid(state) == ["AAAAA"] * 5
    assert not state.robots[1].in_game


def test_tie_between_equal_regions_keeps_the_colour():
    # A's ring holds a sealed b ring around one hole.  A's region counts its open
    # cells: just the hole (sealed cells are not open); B's region is the hole too.
    rows = ["AAAAA", "AbbbA", "Ab.bA", "AbbbA", "AAAAA"]
    state = play(make(rows, {0: (0, 0)}, players=2), {0: (0, 0)})
    assert grid(state)[2] == "Ab.bA"
    # Unseal one b: now B's ring is open cells inside A's region, and A wins.
    rows[1] = "AbBbA"
    state = play(make(rows, {0: (0, 0)}, players=2), {0: (0, 0)})
    assert grid(state)[1:4] == ["AbAbA", "AbAbA", "AbbbA"]


# ----------------------------------------------------------------- shrink, spawn, end
def test_shrink_seals_the_ring_removes_robots_and_items():
    rows = ["A....", ".....", "..#..", ".....", "....."]
    state = make(rows, {0: (0, 1), 1: (2, 1)}, period=3, turn=3)
    state.items = [(state.board.index(1, 1), "G"), (state.board.index(4, 4), "E")]
    play(state, {0: (0, 2), 1: (2, 1)})
    assert grid(state)[0] == "a*a**" and grid(state)[4] == "*****"
    assert grid(state)[2] == "*B#.*"
    assert not state.robots[0].in_game and "sealed" in state.robots[0].why
    assert state.robots[1].in_game and state.item_list() == []
    assert "shrink" in kinds(state)
    assert state.cell(0, 3) == "#" and state.raw_cell(0, 3) == "*"


def test_items_spawn_after_turn_0_and_shrinks_but_not_the_last_three():
    state = new_state({"map": "open-11", "players": 2}, 7)
    spawns = []
    rng = random.Random(1)
    while not state.is_terminal():
        turn = state.turn
        state.apply({s: rng.choice(state.legal_moves(s)) for s in state.to_move()})
        if "spawn" in kinds(state):
            spawns.append(turn)
    # 11x11, K=5: 6 shrinks at turns 5..30; spawns after turn 0 and shrinks 1-3.
    assert spawns[0] == 0 and set(spawns) <= {0, 5, 10, 15}


def test_two_player_spawns_are_fair():
    for seed in range(8):
        state = new_state({"map": "pillars-13", "players": 2}, seed)
        play(state, {0: (1, 1), 1: (11, 6)})
        d0 = state.walking_distances(state.robots[0].pos)
        d1 = state.walking_distances(state.robots[1].pos)
        assert len(state.items) == 2
        for p, kind in state.items:
            assert kind in "GEF" and d0[p] >= 2 and d1[p] >= 2 and abs(d0[p] - d1[p]) <= 1


def test_same_seed_same_game_and_clone_keeps_the_generator():
    a = new_state({"map": "open-11", "players": 3}, 42)
    b = new_state({"map": "open-11", "players": 3}, 42)
    moves = {0: (-1, -1), 1: (-1, -1), 2: (5, 5)}
    play(a, moves)
    c = a.clone()
    play(b, moves)
    assert grid(a) == grid(b) and a.item_list() == b.item_list()
    assert c.rng.random() == a.rng.random()


def test_game_ends_when_everyone_left_and_scores_count_sealed_cells():
    rows = ["Aa...", ".....", ".....", ".....", "....B"]
    state = make(rows, {0: (2, 2), 1: (4, 4)})
    state.forfeit(0, Termination.CRASH, "test")
    assert state.to_move() == (1,) and not state.is_terminal()
    state.forfeit(1, Termination.TIMEOUT)
    out = state.outcome()
    assert state.to_move() == () and out.scores == (2.0, 1.0) and out.winners == (0,)


def test_game_ends_after_the_last_shrink():
    state = new_state({"map": "open-11", "players": 2, "period": 1}, 3)
    play(state, {0: (5, 5), 1: (5, 4)})
    while not state.is_terminal():
        play(state, {s: state.position(s) or (-1, -1) for s in state.to_move()})
    assert state.turn <= 7 and not state.open_cells()
    assert state.outcome().reason == Termination.SCORE


def test_draw_on_equal_scores():
    state = make([".....", "A...B", "....."], {0: (1, 0), 1: (1, 4)})
    state.forfeit(0, Termination.CRASH)
    state.forfeit(1, Termination.CRASH)
    assert state.outcome().winners == () and state.outcome().is_draw


def test_respawn_places_a_robot_again():
    rows = ["A....", ".....", ".....", ".....", "....."]
    state = make(rows, {0: (0, 1), 1: (2, 2)}, period=2, turn=2)
    state.respawn = True
    play(state, {0: (0, 1), 1: (2, 2)})          # ring 0 sealed: A leaves
    assert not state.robots[0].in_game and state.to_move() == (0, 1)
    assert state.legal_moves(0) and state.position(0) is None
    play(state, {0: (2, 1), 1: (2, 2)})
    assert state.robots[0].in_game and state.position(0) == (2, 1)


# ---------------------------------------------------------------- spawning, compat option
@pytest.mark.parametrize("side,compat,rounds", [(21, "arena", 9), (21, "organizers", 8),
                                                (19, "arena", 8), (19, "organizers", 7)])
def test_spawn_rounds_arena_and_organizers(side, compat, rounds):
    """After turn 0 and after shrink i <= S - 3 (RULES.md); their referee: one round fewer."""
    state = state_from_rows(["." * side] * side, 1, quirks=quirks_for(compat))
    centre = (side // 2, side // 2)
    spawns = 0
    while not state.is_terminal():
        state.apply({s: centre for s in state.to_move()})
        spawns += sum(e.kind == "spawn" for e in state.events())
    assert spawns == rounds


@pytest.mark.parametrize("compat,items", [("arena", 2), ("organizers", 0)])
def test_two_players_without_fair_cells(compat, items):
    """A corridor with the robots two cells apart has no fair cell: the arena spawns on
    any free cell, their referee spawns nothing."""
    rows = ["#########"] * 4 + ["........."] + ["#########"] * 4
    state = state_from_rows(rows, 10, quirks=quirks_for(compat))
    state.apply({0: (4, 3), 1: (4, 5)})
    assert len(state.items) == items


def test_organizers_spawns_are_two_different_kinds():
    for seed in range(30):
        state = state_from_rows(["." * 11] * 11, 5, players=4, seed=seed,
                                quirks=quirks_for("organizers"))
        state.apply({0: (1, 1), 1: (1, 9), 2: (9, 1), 3: (9, 9)})
        kinds = [k for _, k in state.items]
        assert len(kinds) == 2 and kinds[0] != kinds[1]


def test_compat_option_reaches_the_state():
    from games.robot.maps import new_state
    assert new_state({"map": "open-11", "compat": "organizers"}, 1).quirks == frozenset(QUIRKS)
    assert new_state({"map": "open-11"}, 1).quirks == frozenset()
    with pytest.raises(GameSetupError):
        quirks_for("referee")


def test_organizers_repaint_a_short_double_steps_cell_every_turn_and_unseal_it():
    """Quirk repaint-short-double (compat = organizers): A double-steps towards a wall,
    stops on the middle cell, walks on; B paints that cell, then the shrink seals it.
    The arena keeps B's colour and then the seal; the organizers' referee paints it A
    every turn, over B and over the seal."""
    from games.robot.rules import quirks_for

    def game(compat):
        rows = [".......", ".......", "...#...", ".......", "......."]
        state = make(rows, {0: (2, 1), 1: (4, 6)}, r0={"speed_turns": 3})
        state.quirks = quirks_for(compat)
        play(state, {0: (2, 3), 1: (4, 6)})          # the target (2, 3) is a wall: to (2, 2)
        assert state.position(0) == (2, 2)
        play(state, {0: (1, 2), 1: (4, 5)})          # A walks off the middle cell
        state.robots[1].pos = state.board.index(3, 2)
        play(state, {0: (0, 2), 1: (2, 2)})          # B steps onto it: B's colour
        after_b = state.raw_cell(2, 2)
        play(state, {0: (0, 3), 1: (2, 1)})          # B walks on
        state.grid[state.board.index(2, 2)] = ord("b")    # sealed (as the shrink seals)
        play(state, {0: (0, 4), 1: (2, 0)})
        return after_b, state.raw_cell(2, 2)

    assert game("arena") == ("B", "b")               # B painted it; it stays sealed
    assert game("organizers") == ("A", "A")          # repainted A, and opened again
