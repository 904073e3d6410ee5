"""bench/gtp_match.py and bench/robot_strength.py leave out games that were not played
(a seat that never started, a referee that failed), hold the built-in bot to the
programs' time limit, and refuse a strength figure a busy machine made."""
import sys
import time

from bench import gtp_match
from bench import robot_strength as robot
from games.robot.maps import shipped_maps
from games.robot.rules import RobotGame

NEVER_STARTS = f"{sys.executable} -c pass"          # exits before any handshake


def test_gtp_match_leaves_out_games_whose_engine_never_started(capsys):
    assert gtp_match.main(["--a", "bot:1", "--b", "gtp:" + NEVER_STARTS, "--games", "2", "--size", "5",
                           "--time-total", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("NOT PLAYED, left out:") == 2 and "0 games played, 2 not played" in out
    assert "NO STRENGTH FIGURE: no game was played" in out and "95% interval" not in out


def test_robot_strength_leaves_out_a_game_whose_greedy_never_answered(tmp_path):
    try:
        robot.play(shipped_maps()[0], "BG", 1, NEVER_STARTS, 2, tmp_path)
    except robot.NotPlayed as exc:
        assert "seat 2 (Greedy) never" in str(exc)
    else:
        raise AssertionError("a game against a program that never answered was counted")


class _SlowBot:
    def choose(self, state, seat, budget):
        self.budget = budget
        time.sleep(0.15)
        return state.legal_moves(seat)[0]


def test_the_robot_bot_gets_the_programs_limit_and_a_late_answer_is_a_time_out(monkeypatch):
    game = RobotGame()
    state = game.new_initial_state({"map": robot.map_text(shipped_maps()[0]), "players": 2}, 1)
    monkeypatch.setattr(robot, "TIME_LIMIT", 0.1)
    robot.LATE_ANSWERS.clear()
    bot = _SlowBot()
    move = robot._bot_move(game, state, 0, bot)
    assert bot.budget < 0.1 and len(robot.LATE_ANSWERS) == 1
    assert move == (game.default_move(state, 0) or robot.RANDOM_PLACEMENT)


def test_the_robot_line_refuses_a_figure_when_the_bot_answered_late():
    line = robot.format_line("1v1", 30, 40, [], [0.5] * 190 + [2.5] * 10, 10, 100.0)
    assert "NO STRENGTH FIGURE: 10 of 200" in line and "interval" not in line and "load" in line
    line = robot.format_line("1v1", 30, 40, ["seat 2 (Greedy) never started: x"], [0.5] * 200, 0, 100.0)
    assert "40 games played, 1 not played" in line and "won 30 of 40 (75%, 95% interval" in line
