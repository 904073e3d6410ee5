"""Engines start whatever the load: the handshake (``uci``/``uciok``, ``isready``) is not
a move.  Its limit is the seat's ``handshake=`` (default 60 s); an engine that never
answers is named so ("no uciok within N s"), not a crash, and the match is not played:
no result for anyone, and a tournament plays it again later instead of scoring it."""
import json
import time
from pathlib import Path

from games.api import Termination
from games.xiangqi import PLUGIN
from runner import tournament
from runner.match import Match
from runner.seats import make_seat

from seat_commands import fake_engine


def engine(*args: str) -> str:
    """The fake engine in a ``uci:`` seat."""
    return fake_engine("uci", *args)


def xiangqi_match(tmp_path: Path, first: str, second: str = "bot:1") -> Match:
    seats = [make_seat(first, PLUGIN, 1), make_seat(second, PLUGIN, 2)]
    return Match(PLUGIN, {"no_capture_limit": 2}, seats, seed=1, workdir=tmp_path / "m",
                 record_path=tmp_path / "m.arena.jsonl")


def test_an_engine_answering_uciok_after_15_s_plays_a_whole_match(tmp_path):
    match = xiangqi_match(tmp_path, engine("--slow-start", "15", "movetime=50"))
    started = time.perf_counter()
    outcome = match.run()
    assert time.perf_counter() - started >= 15
    assert not match.not_played and outcome.reason is not Termination.CRASH, outcome.detail
    assert outcome.reason is not Termination.ABORTED
    assert len(match.turns) >= 2 and match.state.is_terminal()
    assert all(a.get("failure") is None for t in match.turns for a in t.answers.values())


def test_an_engine_that_never_answers_gets_the_handshake_verdict_and_no_result(tmp_path):
    match = xiangqi_match(tmp_path, engine("--slow-start", "1000", "handshake=1"))
    outcome = match.run()
    assert match.not_played and outcome.reason is Termination.NOT_PLAYED
    assert "no uciok within 1 s" in outcome.detail and "crash" not in outcome.detail
    assert outcome.winners == () and outcome.result_text() == "*"
    assert match.turns == []
    result = json.loads((tmp_path / "m.arena.jsonl").read_text().splitlines()[-1])
    assert result["type"] == "result" and result["reason"] == "not-played" and result["turns"] == 0


def test_a_bad_handshake_setting_is_refused(tmp_path):
    import pytest
    from games.api import GameSetupError
    with pytest.raises(GameSetupError, match="handshake=soon"):
        make_seat(engine("handshake=soon"), PLUGIN, 1)


def test_a_tournament_plays_a_match_that_was_not_played_again_and_never_scores_it(tmp_path):
    event = tmp_path / "event.toml"
    event.write_text(f'''
name = "handshake"
game = "xiangqi"
seed = 1
concurrency = 1
[options]
no_capture_limit = 2
[[contestant]]
name = "silent"
seat = {json.dumps(engine("--slow-start", "1000", "handshake=0.5"))}
[[contestant]]
name = "bot"
seat = "bot:1"
''')
    log: list[str] = []
    table = tournament.run_event(tournament.load_event(event, tmp_path / "out"), log=log.append)
    replays = [line for line in log if "played again" in line]
    assert len(replays) == tournament.NOT_PLAYED_TRIES - 1, log
    assert any("recorded without a result" in line for line in log)
    assert table["matches"]["played"] == 0 and table["matches"]["errors"] == 1
    assert all(row["points"] == 0 and row["played"] == 0 for row in table["standings"])
    line = json.loads((tmp_path / "out" / "results.jsonl").read_text())
    assert "outcome" not in line and line["error"].startswith("not played: ")


def test_a_gtp_engine_silent_at_its_first_command_is_not_played(tmp_path):
    from games.hex import PLUGIN as HEX
    seats = [make_seat("gtp:sleep 1000 handshake=0.5", HEX, 1), make_seat("bot:1", HEX, 2)]
    match = Match(HEX, {"size": 5}, seats, seed=1, workdir=tmp_path / "m")
    outcome = match.run()
    assert match.not_played and match.turns == []
    assert "no answer to 'boardsize 5' within 0.5 s" in outcome.detail
    assert not match.error
