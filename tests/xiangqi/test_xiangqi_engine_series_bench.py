"""bench/xiangqi_engine_series.py's time report: each of a seat's moves is counted, with
the runner's own timing, and the moves over the limit are the ones counted as over."""
from bench import xiangqi_engine_series as bench
from games.xiangqi.referee import build_referee_match

MATE_IN_TWO_HALF_MOVES = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"


def test_a_seats_move_times_are_read_from_the_match(tmp_path):
    match = build_referee_match("bot:3 depth=2", "bot:3 depth=2", tmp_path, seconds=-1, seed=1,
                                options={"fen": MATE_IN_TWO_HALF_MOVES})
    match.run()
    red_moves = (len(match.states[-1].moves) + 1) // 2
    red, black = bench.move_seconds(match, 0), bench.move_seconds(match, 1)
    assert len(red) == red_moves and len(black) == len(match.states[-1].moves) - red_moves
    assert all(0 <= value < 5 for value in red + black)


def test_the_summary_counts_the_moves_over_the_limit():
    line = bench.time_summary([0.5, 1.9, 2.0, 2.1, 3.0], 2.0)
    assert line.startswith("5 moves: mean 1.90 s") and "longest 3.00 s; 2 over 2 s" in line
    assert bench.time_summary([], 2.0) == "no moves timed"


def test_a_kept_series_leaves_each_games_record_in_its_own_folder(tmp_path, capsys):
    bench.strength_series("bot:2 depth=1", "bot:2 depth=1", openings=1, seconds=-1, options={},
                          skip=3, keep=tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["opening-04-black", "opening-04-red"]
    for folder in tmp_path.iterdir():
        assert len(list(folder.glob("*.arena.jsonl"))) == 1 and (folder / "game.pgn").exists(), folder
    out = capsys.readouterr().out
    assert out.count("first seat Red:") == 1 and out.count("first seat Black:") == 1
