"""A real MoHex (Benzene) in a GTP seat: the behaviours tests/hex/gtp_engine.py imitates.

Needs ``ARENA_MOHEX``: the path of a MoHex binary, built from
``cgao3/benzene-vanilla-cmake`` with bench/patch_mohex.py's patch (the commands are in
bench/gtp_match.py's docstring); without it every test here is skipped with that message.

An unpatched MoHex has a bug of its own: in a position already decided it may find no
cell that blocks the winner's connections, play the point -1 and die of SIGSEGV, e.g. on
7x7 after f2 b2 e4 f5 d6 a5 e3 c5.  The patch makes it play an empty cell there
(``test_the_patched_mohex_plays_out_the_position_it_crashed_in``); the other tests still
accept that crash, only in that form (signal 11), never a time-out.
"""
import re
import os
import random
import shlex
import time

import pytest

from games.api import Termination
from games.hex.rules import HexMove
from games.registry import plugin
from runner.match import Match, time_control_from_options
from runner.seats import Answer, Seat, make_seat

MOHEX = os.environ.get("ARENA_MOHEX", "")
pytestmark = pytest.mark.skipif(not MOHEX or not os.path.isfile(MOHEX),
                                reason="set ARENA_MOHEX to a MoHex binary to run the real-engine tests")
HEX = plugin("hex")


def mohex(*settings: str) -> str:
    return "gtp:" + " ".join([shlex.quote(MOHEX), "--quiet", *settings])


class Scripted(Seat):
    """Plays the given moves, then random legal ones."""

    kind = "bot"

    def __init__(self, moves, seed=0):
        super().__init__("scripted", "Scripted")
        self.moves, self.rng = list(moves), random.Random(seed)

    def ask(self, state, seat, time_limit):
        if self.moves:
            return Answer(text=self.moves.pop(0))
        return Answer(move=self.rng.choice([m for m in state.legal_moves(seat) if not m.is_swap]))


def mohex_board(text: str) -> dict:
    """MoHex's showboard -> {our move: 1 or 2} (rows like `` 2\\.  W  .  B\\2``)."""
    cells = {}
    for line in text.splitlines():
        match = re.match(r"^\s*(\d+)\\(.*)\\\d+\s*$", line)
        if not match:
            continue
        for x, mark in enumerate(match.group(2).split(), start=1):
            if mark.upper() in "BW":
                cells[HexMove(x, int(match.group(1)))] = 1 if mark.upper() == "B" else 2
    return cells


def board_cells(state) -> dict:
    return {state.move_at(i): v for i, v in enumerate(state.cells) if v}


def assert_in_step(match, side):
    """Every showboard MoHex gave equals our board after its move."""
    shown = 0
    for turn in match.turns:
        answer = turn.answers.get(side)
        if answer and answer.get("stdout") and turn.moves.get(side) not in (None, "swap"):
            assert mohex_board(answer["stdout"]) == board_cells(match.states[turn.number]), turn.number
            shown += 1
    assert shown


def finished(outcome, side):
    """MoHex (``side``) won, or died of its own SIGSEGV bug; never a time-out."""
    if outcome.reason is Termination.CRASH:
        assert "signal 11" in outcome.detail, outcome.detail
        return
    assert outcome.reason in (Termination.WIN, Termination.RESIGNATION), outcome.detail
    assert outcome.winners == (side,), outcome.detail


def run(seats, options, tmp_path, error=False):
    options = HEX.new_game().spec.resolve_options(None, options)
    match = Match(HEX, options, seats, seed=1, time_control=time_control_from_options(options),
                  workdir=tmp_path)
    outcome = match.run()
    assert bool(match.error) == error, match.error
    return match, outcome


@pytest.mark.parametrize("side", [0, 1])
def test_mohex_at_its_defaults_keeps_to_the_default_clock(side, tmp_path):
    """MoHex's default max_time is 10 s a move; the default clock is 20 s a game."""
    seats = [make_seat(mohex(), HEX, 1), make_seat("bot:1", HEX, 1)]
    if side:
        seats.reverse()
    match, outcome = run(seats, {"size": 7}, tmp_path)
    finished(outcome, side)
    answers = [t.answers[side] for t in match.turns if side in t.answers]
    assert len(answers[0]["stdout"].splitlines()) > 7                   # showboard, whole
    assert all(len(a.get("stderr", "")) < 4200 for a in answers)
    assert_in_step(match, side)


@pytest.mark.parametrize("mohex_side", [0, 1])
def test_swap_with_mohex(mohex_side, tmp_path):
    """MoHex swaps a centre opening (its swap-moves table); as player 1 it faces a swap."""
    if mohex_side == 1:
        seats = [Scripted(["d4"]), make_seat(mohex("time_per_move=0.3"), HEX, 1)]
    else:
        seats = [make_seat(mohex("time_per_move=0.3"), HEX, 1), Scripted(["swap"])]
    match, outcome = run(seats, {"size": 7, "swap": True, "time_total": 30}, tmp_path)
    assert match.turns[1].moves == {1: "swap"}
    finished(outcome, mohex_side)
    assert_in_step(match, mohex_side)


def test_mohex_refuses_a_board_too_large(tmp_path):
    match, outcome = run([make_seat(mohex(), HEX, 1), make_seat("bot:1", HEX, 1)], {"size": 15},
                         tmp_path, error=True)
    assert "boardsize 15" in match.error and "less or equal" in match.error, match.error
    assert match.turns == []


def test_a_person_takes_back_against_mohex(tmp_path):
    seats = [make_seat("human", HEX, 1), make_seat(mohex("time_per_move=0.2"), HEX, 1)]
    match = Match(HEX, {"size": 5, "time_total": 0}, seats, seed=1, workdir=tmp_path)
    match.start()

    def wait(condition):
        deadline = time.monotonic() + 60
        while not condition():
            assert time.monotonic() < deadline and not match.error, match.error
            time.sleep(0.05)

    try:
        wait(lambda: match.human_waiting() == (0,))
        match.submit(0, "a1")
        wait(lambda: len(match.turns) == 2 and match.human_waiting() == (0,))
        assert match.undo()
        wait(lambda: len(match.turns) == 0 and match.human_waiting() == (0,))
        assert match.seats[1]._board == [] and match.seats[1]._given == ["undo", "undo"]
        match.submit(0, "c3")
        wait(lambda: len(match.turns) == 2)
        reply = HEX.new_game().parse_move(match.turns[1].moves[1])
        assert reply != HexMove(3, 3) and match.turns[1].answers[1].get("failure") is None
    finally:
        match.stop()
        match.join(10)


def test_mohex_names_itself_and_reports_its_search(tmp_path):
    """Without ``--quiet`` MoHex prints its search statistics on stderr after each
    search: the debug panel's playouts, win rate and principal variation come from them.
    (A move its solver or book decides has no statistics block, or, in a position
    already won, a block of one playout with an empty ``Sequence``: no variation.)"""
    spec = "gtp:" + " ".join([shlex.quote(MOHEX), 'cmd="param_mohex max_games 300"'])
    seats = [make_seat(spec, HEX, 1), make_seat("bot:1", HEX, 1)]
    match, outcome = run(seats, {"size": 7, "time_total": 60}, tmp_path)
    seat = match.seats[0]
    assert seat.describe()["engine"] == "MoHex" and seat.describe().get("version"), seat.describe()
    assert seat.label.startswith("MoHex ")
    searched = [t for t in match.turns if (t.answers.get(0) or {}).get("search")]
    assert searched, [t.answers.get(0) for t in match.turns]
    for turn in searched:
        search = turn.answers[0]["search"]
        assert 0 < search["playouts"] <= 300 and 0 <= search["winrate"] <= 1, search
        if "pv" in search:
            assert search["pv"][0] == turn.moves[0], (search, turn.moves)
        else:
            assert search["playouts"] == 1 and search["winrate"] == 1.0, search
    assert any("pv" in turn.answers[0]["search"] for turn in searched)


def test_the_patched_mohex_plays_out_the_position_it_crashed_in():
    """bench/gtp_match.py --mohex-patch-check: from each position an unpatched MoHex
    died in, MoHex plays both sides to the end with a legal move every time."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import gtp_match
    for size, moves in gtp_match.CRASH_POSITIONS:
        failure = gtp_match.mohex_patch_check([MOHEX, "--quiet"], size, moves)
        assert failure is None, f"{failure}: is ARENA_MOHEX built with bench/patch_mohex.py's patch?"


def test_the_match_bench_scores_a_mohex_crash_by_the_solved_position():
    """bench/gtp_match.py: a game MoHex lost by its SIGSEGV counts by who wins the
    position it died in, as a fresh MoHex's dfpn-solve-state says (here: black)."""
    from types import SimpleNamespace
    from bench import gtp_match
    from games.hex.notation import from_hexgui
    state = HEX.new_game().new_initial_state(HEX.new_game().spec.resolve_options(None, {"size": 7}), 1)
    states = [state.clone()]
    for word in "f2 b2 e4 f5 d6 a5 e3 c5".split():        # the position of the docstring's crash
        state.push(from_hexgui(word))
        states.append(state.clone())
    seat = SimpleNamespace(kind="gtp", argv=[MOHEX, "--quiet"])
    match = SimpleNamespace(seats=[seat, seat], states=states)
    crash = SimpleNamespace(reason=Termination.CRASH, winners=(1,))
    assert gtp_match.solved_crash(match, crash) == 0
    assert gtp_match.solved_crash(match, SimpleNamespace(reason=Termination.WIN, winners=(1,))) is None


def test_the_game_review_agrees_with_the_arenas_solver(tmp_path):
    """bench/hex_game_review.py with the real MoHex: on a random 4x4 game every position
    MoHex solves gets the winner the arena's own exhaustive solver gives it."""
    from tests.hex.test_hex_game_review import load_review, random_game_sgf, solved_by_the_arena
    from runner.records import open_replay
    review = load_review()
    replay = open_replay(random_game_sgf(tmp_path, 4, seed=10))
    values = review.solve_positions(replay, [MOHEX, "--quiet"], seconds=5)
    solved = [i for i, value in enumerate(values) if value is not None]
    assert len(solved) == len(replay.states)                  # 4x4: MoHex solves them all
    assert [values[i] for i in solved] == [solved_by_the_arena(replay.states[i]) for i in solved]
