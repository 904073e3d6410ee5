"""The strength benches leave out games that were not played and refuse figures a busy
machine made: bench/stats.py's checks, through bench/xiangqi_engine_series.py."""
import sys
from pathlib import Path

from bench import stats
from bench import xiangqi_engine_series as series
from games.xiangqi import engine_seats

MUTE = Path(__file__).resolve().parent / "programs" / "mute_engine.py"


def test_a_series_leaves_out_the_games_of_an_engine_that_never_started(monkeypatch, capsys):
    monkeypatch.setattr(engine_seats, "HANDSHAKE_SECONDS", 0.5)
    series.strength_series("bot:2 depth=1", f"uci:{sys.executable} {MUTE}", openings=1, seconds=-1,
                           options={})
    out = capsys.readouterr().out
    assert out.count("NOT PLAYED, left out: ") == 2 and "never started" in out and "no uciok" in out
    assert "0 games played, 2 not played" in out and "NO STRENGTH FIGURE: no game was played" in out
    assert "score" not in out.split("not played", 1)[1]       # no 2/2 = 100% for the bot


def test_games_both_seats_played_are_counted_with_the_bots_nodes():
    from games.xiangqi.referee import build_referee_match
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        match = build_referee_match("bot:3 depth=2", "bot:3 depth=2", Path(folder), seconds=-1, seed=1,
                                    options={"fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"})
        outcome = match.run()
        assert stats.unplayed_reason(match, outcome) is None
        searches = stats.seat_search(match, 0)
        assert searches and all(nodes > 0 and seconds > 0 for nodes, seconds in searches)


def test_a_referee_failure_is_no_game():
    class Failed:
        error = "OSError: disk full"
        seats, turns = [], []
    assert stats.unplayed_reason(Failed(), None) == "the referee failed: OSError: disk full"


def test_the_effort_check_refuses_a_bot_that_searched_less_than_half_its_quiet_rate():
    quiet = 1_000_000
    busy = [(200_000, 1.0)] * 9 + [(2_000_000, 1.0)] * 2         # median 200k a second: 20%
    allowed, line = stats.search_effort(busy, quiet)
    assert not allowed and "refused: below 50%" in line and "200,000 nodes a move" in line and "load" in line
    allowed, line = stats.search_effort([(700_000, 1.0)] * 5, quiet)
    assert allowed and "70% of the 1,000,000" in line
    assert not stats.search_effort([], quiet)[0]
    assert not stats.search_effort([(700_000, 1.0)], None)[0]


def test_the_summary_prints_no_score_when_the_effort_check_refuses():
    summary = series.series_summary("bot:5", "uci:x", 3.0, 4, {"wins": 3, "draws": 0, "losses": 1},
                                    [2.0, 1.0], [2, 2], [], [(1000, 1.0)] * 4, 1_000_000, True)
    assert "NO STRENGTH FIGURE" in summary and "75" not in summary
    summary = series.series_summary("bot:5", "uci:x", 3.0, 4, {"wins": 3, "draws": 0, "losses": 1},
                                    [2.0, 1.0], [2, 2], ["seat 2 (x) never started: no uciok"],
                                    [(900_000, 1.0)] * 4, 1_000_000, True)
    assert "4 games played, 1 not played" in summary and "score 3/4 = 75.0%" in summary
