"""Robot tournaments: the statement's scoring and a headless run."""
import json

import main
from games.api import Outcome, Termination
from games.robot.tournament import Entry, all_in_points, pair_points, schedule, standings


def test_pairs_scoring():
    assert pair_points(Outcome((1,), (3, 9), Termination.SCORE)) == (0, 20)
    assert pair_points(Outcome((0,), (9, 3), Termination.SCORE)) == (20, 0)
    assert pair_points(Outcome((), (5, 5), Termination.SCORE)) == (10, 10)


def test_all_in_scoring_counts_those_who_painted_fewer():
    assert all_in_points([30, 10, 30, 5]) == [20, 10, 20, 0]


def test_schedule_every_pair_meets_and_standings_share_ranks():
    plan = schedule("pairs", 4, ["open-11"], seed=1)
    assert sorted(tuple(sorted(p.seats)) for p in plan) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    entries = [Entry("a", "", 20, 5), Entry("b", "", 20, 5), Entry("c", "", 30, 1)]
    assert [(r, e.name) for r, e in standings(entries)] == [(1, "c"), (2, "a"), (2, "b")]


def test_headless_pairs_tournament_writes_standings(tmp_path, capsys):
    code = main.main(["robot", "tournament", "--format", "pairs", "--entrant", "bot:1",
                      "--entrant", "bot:2", "--entrant", "bot:4", "--map", "open-11",
                      "--seed", "3", "--out", str(tmp_path)])
    assert code == 0
    data = json.loads((tmp_path / "standings.json").read_text())
    rows = data["standings"]
    assert sum(r["points"] for r in rows) == 3 * 20 and all(r["played"] == 2 for r in rows)
    assert len(list(tmp_path.glob("*.turnlog.json"))) == 3
    assert "rank" in capsys.readouterr().out


def test_headless_all_in_tournament(tmp_path):
    code = main.main(["robot", "tournament", "--format", "all-in", "--entrant", "bot:2",
                      "--entrant", "bot:3", "--entrant", "bot:1", "--map", "open-11",
                      "--out", str(tmp_path)])
    data = json.loads((tmp_path / "standings.json").read_text())
    assert code == 0 and all(r["played"] == 2 for r in data["standings"])
    for match in (1, 2):
        cells = [res["cells"] for r in data["standings"] for res in r["results"] if res["match"] == match]
        pts = [res["points"] for r in data["standings"] for res in r["results"] if res["match"] == match]
        assert sorted(pts) == sorted(all_in_points(cells))
