"""bench/level_ladder.py: the ladder of a game's bot levels is played through the arena's
own tournament code, and a game in which a seat never got through its handshake counts
for nobody (it is reported as not played, and no pair's score or rating holds it)."""
import sys

import pytest

from bench import level_ladder

NEVER_STARTS = f"{sys.executable} -c pass"          # exits before any handshake


def test_the_ladder_leaves_out_a_game_whose_seat_never_started(tmp_path):
    people = [{"name": "level 1", "seat": "bot:1"}, {"name": "level 2", "seat": "bot:1"},
              {"name": "ghost", "seat": "gtp:" + NEVER_STARTS}]
    data = level_ladder.event_data("hex", 2, 5, 1, people, tmp_path / "event")
    data["variant"], data["options"]["size"] = "5x5", 5
    lines = level_ladder.run_ladder_event(data, log=lambda text: None)
    summary = level_ladder.summarise("hex", lines, people, tmp_path / "event")
    assert summary["games_played"] == 2 and summary["not_played"] == 4
    assert summary["not_played_why"] and all("(ghost)" in why for why in summary["not_played_why"])
    assert [(p["higher"], p["lower"], p["games"]) for p in summary["pairs"]] == [("level 2", "level 1", 2)]
    assert "ghost" not in summary["ratings"]
    report = level_ladder.report_text("hex", {"games_per_pair": 2, "summary": summary, "levels": []})
    assert "2 played, 4 not played (excluded)" in report


def test_pair_scores_count_draws_half_and_give_a_wilson_interval():
    games = [("level 1", "level 2", 0.0)] * 7 + [("level 2", "level 1", 0.5)] * 2 + [("level 1", "level 2", 1.0)]
    (row,) = level_ladder.pair_scores(games, ["level 1", "level 2"])
    assert (row["higher"], row["games"], row["wins"], row["draws"], row["losses"]) == ("level 2", 10, 7, 2, 1)
    assert row["score"] == 0.8 and 0.47 < row["low95"] < 0.5 and 0.94 < row["high95"] < 0.96


def test_a_four_seat_game_gives_each_pair_of_seats_a_result_by_placement():
    line = {"contestants": ["a", "b", "c", "d"], "outcome": {"ranks": [2, 1, 2, 4]}}
    assert level_ladder.pair_results([line]) == [("a", "b", 0.0), ("a", "c", 0.5), ("a", "d", 1.0),
                                                 ("b", "c", 1.0), ("b", "d", 1.0), ("c", "d", 1.0)]


def test_a_not_played_outcome_and_a_referee_error_count_for_nobody():
    played = {"contestants": ["level 1", "level 2"], "outcome": {"ranks": [2, 1], "reason": "win"}}
    lines = [played,
             {"contestants": ["level 1", "level 2"], "outcome": {"ranks": [1, 1], "reason": "not-played"}},
             {"contestants": ["level 2", "level 1"], "error": "not played: no uciok"},
             {"contestants": ["level 2", "level 1"], "outcome": {"ranks": [1, 2], "reason": "crash"},
              "error": "referee: KeyError"}]
    counted, left_out = level_ladder.counted(lines)
    assert counted == [played] and len(left_out) == 3


def test_every_pair_of_a_ladder_plays_every_cycled_value_with_both_colours(tmp_path):
    """The tournament gives a pair's games the cycled values j + pairs * (round // 2):
    with as many maps as pairs, each pair would play one map only (it did, once).  Every
    ladder's cycle reaches every value for every pair, as each colour (with its anchor,
    for a game that has one: Xiangqi's eight openings need its 15 pairs)."""
    from runner.tournament.event import event_from_dict
    from runner.tournament.plan import Plan
    for game, ladder in level_ladder.LADDERS.items():
        cycle = ladder.get("cycle") or ({"fen": ladder["openings"]} if ladder.get("openings") else {})
        if not cycle or ladder.get("format") == "all-in":
            continue
        values = max(len(v) for v in cycle.values())
        people = [{"name": f"level {n}", "seat": seat} for n, seat in ladder["levels"].items()]
        if ladder.get("anchor"):
            people.append({"name": "anchor", "seat": "bot:1"})
        data = level_ladder.event_data(game, 2 * values, 1, 1, people, tmp_path / game)
        plan = Plan(event_from_dict(data, level_ladder.ROOT))
        seen: dict = {}
        for pairing in plan.pairings({}):
            pair = tuple(sorted(pairing.seats))
            seen.setdefault(pair, set()).add((pairing.group % values, pairing.seats[0] == pair[0]))
        assert all(len(both) == 2 * values for both in seen.values()), (game, seen)


def _event_folder(tmp_path):
    out = tmp_path / "event"
    (out / "matches" / "m0000-abc").mkdir(parents=True)
    (out / "matches" / "m0000-abc" / "m0000-abc.arena.jsonl").write_text('{"turn": 1}\n', encoding="utf-8")
    (out / "results.jsonl").write_text('{"contestants": ["level 1", "level 2"]}\n', encoding="utf-8")
    (out / level_ladder.RUN_FILE).write_text('{"game": "hex"}\n', encoding="utf-8")
    return out


def test_the_records_are_kept_as_one_archive_and_unpack_as_they_were(tmp_path):
    out = _event_folder(tmp_path)
    archive = level_ladder.archive_records(out, "hex", "2026-11-28", tmp_path / "ladders")
    assert archive == tmp_path / "ladders" / "hex-2026-11-28.tar.xz"
    folder = level_ladder.unpack_archive(archive, tmp_path / "unpacked")
    assert folder.name == "hex-2026-11-28"
    for path in out.rglob("*"):
        if path.is_file():
            assert (folder / path.relative_to(out)).read_bytes() == path.read_bytes()
    assert level_ladder.read_results(folder) == [{"contestants": ["level 1", "level 2"]}]


def test_an_archive_too_big_for_the_repository_is_refused_and_removed(tmp_path, monkeypatch):
    out = _event_folder(tmp_path)
    monkeypatch.setattr(level_ladder, "ARCHIVE_LIMIT", 50)
    with pytest.raises(ValueError, match="more than the 50 kept in the repository"):
        level_ladder.archive_records(out, "hex", "2026-11-28", tmp_path / "ladders")
    assert not list((tmp_path / "ladders").iterdir())


def test_hex_has_mohex_as_its_anchor_and_skips_it_with_a_message_when_unset(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("ARENA_MOHEX", raising=False)
    assert [p["name"] for p in level_ladder.contestants("hex")] == [f"level {n}" for n in range(1, 6)]
    code = level_ladder.main(["hex", "--anchor-only", "--out", str(tmp_path / "event")])
    said = capsys.readouterr()
    assert code == 2 and "no anchor to play" in said.err
    assert "anchor: none: set ARENA_MOHEX to the engine's path (its games are left out)" in said.out
    engine = tmp_path / "mohex"
    engine.write_text("", encoding="utf-8")
    anchor = level_ladder.contestants("hex", str(engine))[-1]
    assert anchor["name"] == f"MoHex {level_ladder.MOHEX_PLAYOUTS} playouts"
    assert f'max_games {level_ladder.MOHEX_PLAYOUTS}"' in anchor["seat"] and str(engine) in anchor["seat"]


def test_an_anchor_only_run_counts_the_earlier_level_pairs_with_its_games(tmp_path):
    people = [{"name": "level 1", "seat": "bot:1"}, {"name": "level 2", "seat": "bot:2"},
              {"name": "MoHex", "seat": "gtp:x"}]
    earlier = {"pairs": [{"higher": "level 2", "lower": "level 1", "wins": 9, "draws": 0, "losses": 1}],
               "work": {"level 2": {"playouts_median": 150}}}
    lines = [{"contestants": ["MoHex", "level 1"], "outcome": {"ranks": [1, 2], "reason": "win"}},
             {"contestants": ["level 2", "MoHex"], "outcome": {"ranks": [1, 2], "reason": "win"}},
             {"contestants": ["MoHex", "level 2"], "outcome": {"ranks": [1, 2], "reason": "win"}}]
    summary = level_ladder.summarise("hex", lines, people, tmp_path, earlier)
    rows = {(p["higher"], p["lower"]): (p["wins"], p["draws"], p["losses"]) for p in summary["pairs"]}
    assert rows == {("level 2", "level 1"): (9, 0, 1), ("MoHex", "level 1"): (1, 0, 0),
                    ("MoHex", "level 2"): (1, 0, 1)}
    assert summary["games_played"] == 3 and set(summary["ratings"]) == {"level 1", "level 2", "MoHex"}
    assert summary["work"]["level 2"] == {"playouts_median": 150}
    entries = level_ladder.levels_entries("hex", summary, people)
    assert entries[1]["vs_anchor"]["score"] == 0.5 and entries[1]["vs_below"]["games"] == 10


def test_with_few_anchor_games_only_the_level_nearest_the_anchor_is_called_even_with_it():
    """Two games lost to the anchor leave an interval of 0-66 %, which holds 50 %: the form
    would call the random level "even with" the engine.  Only the level nearest the anchor
    by Elo says so; a level whose interval excludes 50 % says stronger or weaker."""
    pairs = [{"higher": "A", "lower": f"level {n}", "games": 2, "score": 1.0, "low95": 0.342,
              "high95": 1.0} for n in (1, 2)]
    pairs.append({"higher": "level 3", "lower": "A", "games": 20, "score": 0.9, "low95": 0.7, "high95": 0.97})
    summary = {"pairs": pairs, "work": {},
               "ratings": {"level 1": {"elo": 0}, "level 2": {"elo": 300}, "A": {"elo": 350},
                           "level 3": {"elo": 700}}}
    people = [{"name": "level 1"}, {"name": "level 2"}, {"name": "level 3"}, {"name": "A"}]
    entries = level_ladder.levels_entries("tamquan", summary, people)
    assert "vs_anchor" not in entries[0] and "even with A" in entries[1]["words"]
    assert "stronger than A" in entries[2]["words"]


def test_a_solitaire_level_beats_the_one_below_on_the_sets_where_it_scores_more():
    def line(level, seed, score):
        return {"contestants": [f"level {level}"], "seed": seed, "outcome": {"scores": [score]}}
    # Level 2 scores more on sets 1-7, the same on 8, less on 9; set 10 only level 1 played.
    played = ([line(1, s, 100) for s in range(1, 11)] + [line(2, s, 120) for s in range(1, 8)]
              + [line(2, 8, 100), line(2, 9, 90)])
    (row,) = level_ladder.solitaire_pairs(played, ["level 1", "level 2"])
    assert (row["higher"], row["lower"], row["games"]) == ("level 2", "level 1", 9)
    assert (row["wins"], row["draws"], row["losses"], row["score"]) == (7, 1, 1, round(7.5 / 9, 3))
    assert (row["low95"], row["high95"]) == tuple(round(x, 3) for x in level_ladder.wilson(7.5, 9))
    report = level_ladder.report_text("crosswords", {"games_per_pair": 9, "levels": [], "summary": {
        "games_played": 19, "not_played": 0, "pairs": [row], "solitaire": {}}})
    assert "| level 2 | level 1 | 9 | 7-1-1 | 83% |" in report
