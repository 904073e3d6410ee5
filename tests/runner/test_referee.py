"""The referee step as a pure function, and the program seats' two file shapes.

``referee_step`` is tested without threads or processes; the whole-game seat with a
real program on the Sums toy game (tests/support/toy_games.py).
"""
import json
import sys
from pathlib import Path

from games.api import Termination
from games import registry
from runner.match import Match
from runner.referee import judge_time, referee_step
from runner.seats import Answer, make_seat

import toy_games

PROGRAM = Path(__file__).resolve().parent / "programs" / "sums_solver.py"
ROBOT = registry.plugin("robot")


def test_a_good_answer_is_played_and_recorded():
    game = toy_games.SumsGame()
    state = game.new_initial_state({}, 0)
    info = referee_step(game, state, {0: Answer(text="add 1 2", elapsed=0.5)}, 1)
    assert info.moves == {0: "add 1 2"} and state.count == 3 and info.number == 1
    assert info.answers[0]["text"] == "add 1 2" and not info.forfeits


def test_a_compound_answer_is_repaired_part_by_part_with_a_note():
    game = toy_games.SumsGame()
    state = game.new_initial_state({}, 0)
    info = referee_step(game, state, {0: Answer(text="add 3 7")}, 1)
    assert info.moves == {0: "add 3 1"} and state.count == 4
    log = info.answers[0]
    assert log["failure"] == "illegal-move"
    assert "kept the valid numbers and played add 3 1" in log["notes"][0]


def test_an_unrepairable_answer_forfeits():
    game = toy_games.SumsGame()
    state = game.new_initial_state({}, 0)
    info = referee_step(game, state, {0: Answer(text="hello")}, 1)
    assert info.forfeits[0]["reason"] == "bad-file" and info.moves == {}
    assert state.outcome().reason is Termination.BAD_FILE and state.outcome().scores == (0.0,)


def test_robots_default_move_stays_whole_and_a_resignation_is_never_repaired():
    from games.robot.maps import new_state
    game = ROBOT.new_game()
    state = new_state({"map": "open-11", "players": 2}, 1)
    referee_step(game, state, {0: Answer(text="5 5"), 1: Answer(text="5 7")}, 1)
    info = referee_step(game, state, {0: Answer(text="99 99"), 1: Answer(failure=Termination.RESIGNATION,
                                                                         detail="resigned")}, 2)
    assert info.moves == {0: "5 5"}, "a bad Robot answer stays in place; the resigned robot has left"
    assert "the referee played 5 5" in info.answers[0]["notes"][0]
    assert info.forfeits[1]["reason"] == "resignation" and 1 not in state.to_move()


def test_a_ruling_ends_the_game_as_ruled():
    from games.api import Outcome
    game = registry.plugin("hex").new_game()
    state = game.new_initial_state({"size": 5}, 0)
    ruled = Outcome((), (0.5, 0.5), Termination.ADJUDICATION, "agreed draw")
    info = referee_step(game, state, {0: Answer(text="c3")}, 1, ruling=lambda seat, answer: ruled)
    assert info.moves == {} and info.ruling == ruled.to_json() and info.note == "agreed draw"
    assert state.outcome() == ruled


def test_time_is_judged_with_grace():
    late, on_time = Answer(text="x", elapsed=1.2), Answer(text="x", elapsed=1.04)
    judge_time(late, 1.0)
    judge_time(on_time, 1.0)
    assert late.failure is Termination.TIMEOUT and "1.20 s" in late.detail
    assert on_time.failure is None


def test_an_answer_at_exactly_the_limit_plus_grace_is_on_time():
    """The limit is "after limit + grace": exactly at it is on time, a hair over is late."""
    from runner.referee import GRACE
    for limit in (0.5, 1.0, 3.0):
        at, over = Answer(text="x", elapsed=limit + GRACE), Answer(text="x", elapsed=limit + GRACE + 1e-6)
        judge_time(at, limit)
        judge_time(over, limit)
        assert at.failure is None, limit
        assert over.failure is Termination.TIMEOUT, limit


def whole_game(tmp_path, *args):
    seat = toy_games.make_whole_game_seat("ext:sums", f"{sys.executable} {PROGRAM} " + " ".join(args))
    match = Match(toy_games.PLUGIN, {}, [seat], seed=0, record_path=tmp_path / "sums.arena.jsonl")
    match.run()
    lines = [json.loads(x) for x in (tmp_path / "sums.arena.jsonl").read_text().splitlines()]
    return match, [x for x in lines if x["type"] == "turn"]


def test_a_whole_game_answer_is_run_once_and_played_move_by_move(tmp_path):
    match, turns = whole_game(tmp_path)
    assert [t["moves"]["0"] for t in turns] == ["add 3 3", "add 2 2", "add 1 1", "stop"]
    first = turns[0]["answers"]["0"]
    assert "count 0" in first["given"] and first["answered"].startswith("score 12")
    assert first["claimed"] == "12" and first["source"] == "output.txt line 2"
    assert all("given" not in t["answers"]["0"] for t in turns[1:]), "the run is recorded once"
    assert turns[2]["answers"]["0"]["source"] == "output.txt line 4"
    assert len(match.states) == 5 and match.outcome.scores == (12.0,) and match.outcome.score_only
    assert match.outcome.result_text() == "score 12"


def test_a_whole_game_answer_with_a_bad_line_is_named_at_that_line(tmp_path):
    match, turns = whole_game(tmp_path, "--bad-line", "3", "--claim", "99")
    assert turns[0]["answers"]["0"]["claimed"] == "99"
    second = turns[1]["answers"]["0"]
    assert second["failure"] == "illegal-move" and "output.txt line 3" in second["detail"]
    assert turns[1]["moves"]["0"] == "add 2 1", "the game's repair keeps the valid part"
    assert match.outcome.scores == (12.0 - 4 + 3,)


def test_a_program_seat_gets_a_fresh_folder_and_a_bot_none(tmp_path):
    seats = [make_seat(f"ext:{sys.executable} {PROGRAM}", toy_games.PLUGIN, 0)]
    match = Match(toy_games.PLUGIN, {}, seats, seed=0, workdir=tmp_path / "m")
    match.run()
    assert (tmp_path / "m" / "seat1" / "output.txt").is_file()
    assert (tmp_path / "m" / "seat1" / ".arena-seat").is_file()
    again = Match(toy_games.PLUGIN, {}, [make_seat(f"ext:{sys.executable} {PROGRAM}", toy_games.PLUGIN, 0)],
                  seed=0, workdir=tmp_path / "m")
    again.run()                                   # the arena's own seat folder is emptied and reused
    assert again.outcome.scores == (12.0,)
    robot_seats = [make_seat("bot:1", ROBOT, 1), make_seat("bot:1", ROBOT, 2)]
    Match(ROBOT, {"map": "open-11", "players": 2}, robot_seats, seed=1, workdir=tmp_path / "r").run()
    assert not (tmp_path / "r").exists(), "bots need no folders"


def test_a_folder_arena_did_not_make_is_never_emptied(tmp_path):
    mine = tmp_path / "m" / "seat1"
    mine.mkdir(parents=True)
    (mine / "thesis.tex").write_text("precious")
    match = Match(toy_games.PLUGIN, {}, [make_seat(f"ext:{sys.executable} {PROGRAM}", toy_games.PLUGIN, 0)],
                  seed=0, workdir=tmp_path / "m")
    outcome = match.run()
    assert "not empty and was not made by Arena" in match.error
    assert outcome.reason is Termination.ABORTED
    assert (mine / "thesis.tex").read_text() == "precious"
