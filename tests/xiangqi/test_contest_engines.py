"""UCI / UCCI engine seats, against a tiny fake engine (Fairy-Stockfish mode checked by pyffish)."""

import pytest

from games.api import Termination
from games.xiangqi import PLUGIN
from games.xiangqi.engine_seats import from_engine_move, split_engine_spec, to_engine_move
from games.xiangqi.referee import build_referee_match

from seat_commands import fake_engine as engine


def play(tmp_path, bottom, top, limit=16):
    match = build_referee_match(bottom, top, tmp_path, options={"no_capture_limit": str(limit)},
                                seed=1, poll=0.01)
    return match, match.run()


def test_spec_settings_are_trailing_key_values():
    argv, settings = split_engine_spec("/opt/pikafish --threads=2 movetime=300 depth=9 option.Hash=64")
    assert argv == ["/opt/pikafish", "--threads=2"]
    assert settings == {"movetime": "300", "depth": "9", "option.Hash": "64"}
    assert split_engine_spec("depth=3") == (["depth=3"], {})     # a command is never eaten


def test_rank_numbering():
    assert to_engine_move("H2E2", 0) == "h2e2" and to_engine_move("A9A8", 1) == "a10a9"
    assert from_engine_move("a10a9", 1) == "A9A8" and from_engine_move("h2e2", 0) == "H2E2"
    assert from_engine_move("a10a9", 0) is None and from_engine_move("(none)", 0) is None


def test_fairy_stockfish_notation_and_ucci_engine_play_a_game(tmp_path):
    """The Fairy mode keeps the game with pyffish: one wrong square and it exits."""
    match, outcome = play(tmp_path, engine("uci", "--fairy", "movetime=20"),
                          engine("ucci", "--ucci", "--seed", "3", "depth=2"))
    assert all(not t.forfeits for t in match.turns), match.turns[-1].forfeits
    assert outcome.reason in (Termination.MOVE_LIMIT, Termination.WIN, Termination.STALEMATE,
                              Termination.REPETITION)
    fairy, ucci = (seat.describe() for seat in match.seats)
    assert fairy["engine"].startswith("Fairy-Stockfish") and match.seats[0].rank_base == 1
    assert match.seats[1].rank_base == 0
    first = match.turns[0].answers[0]
    assert "go movetime 20" in first["given"] and first["answered"].startswith("info")
    assert "go depth 2" in match.turns[1].answers[1]["given"]
    lines = (tmp_path / "REPORT.TXT").read_text().splitlines()
    assert lines[3] == "COMPUTER COMPUTER"


def test_each_engine_turn_keeps_only_its_own_stderr(tmp_path):
    """The record's stderr for an engine's move is what it wrote for that move, not the
    running tail of everything it wrote in the game."""
    match, _ = play(tmp_path, engine("uci", "--chatty", "movetime=20"), engine("uci", "depth=2"))
    red_turns = [t for t in match.turns if 0 in t.answers]
    assert len(red_turns) >= 3
    for turn in red_turns:
        assert turn.answers[0]["stderr"] == f"thinking at half-move {turn.number}\n"


def test_wrong_rank_numbering_is_caught(tmp_path):
    """Forcing ranks 0-9 on Fairy-Stockfish must go wrong: the test can fail."""
    match, outcome = play(tmp_path, engine("uci", "--fairy", "ranks=0", "movetime=20"),
                          engine("uci", "--seed", "2"))
    assert outcome.winners == (1,)
    assert outcome.reason in (Termination.ILLEGAL_MOVE, Termination.CRASH, Termination.BAD_FILE)


def test_illegal_engine_move_loses(tmp_path):
    match, outcome = play(tmp_path, engine("uci", "--seed", "2"), engine("ucci", "--ucci", "--bad"))
    assert outcome.winners == (0,) and outcome.reason is Termination.ILLEGAL_MOVE
    assert match.turns[-1].answers[1]["text"] == "E9E7"


def test_engine_that_cannot_start_loses_by_crash(tmp_path):
    match, outcome = play(tmp_path, f"uci:{tmp_path / 'no-such-engine'}", engine("uci"))
    assert outcome.winners == (1,) and outcome.reason is Termination.CRASH
    assert "could not start" in outcome.detail


@pytest.mark.parametrize("kind", ["uci", "ucci"])
def test_plugin_knows_the_engine_kinds(kind):
    assert kind in PLUGIN.extra_seats
    assert callable(PLUGIN.load(kind))
