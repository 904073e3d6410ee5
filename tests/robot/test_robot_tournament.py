"""Robot tournaments: the statement's scoring, as presets of the generic runner, and the
``arena robot tournament`` shorthand."""
import json

import main
from games.api import Outcome, Termination
from games.robot.tournament import FORMATS, all_in_points, pair_points


def test_pairs_scoring():
    assert pair_points(Outcome((1,), (3, 9), Termination.SCORE)) == (0, 20)
    assert pair_points(Outcome((0,), (9, 3), Termination.SCORE)) == (20, 0)
    assert pair_points(Outcome((), (5, 5), Termination.SCORE)) == (10, 10)


def test_all_in_scoring_counts_those_who_painted_fewer():
    assert all_in_points([30, 10, 30, 5]) == [20, 10, 20, 0]


def test_presets_score_as_the_statement():
    """The generic scoring (beat points per seat finished above, tie per seat tied)
    with Robot's presets gives the statement's points."""
    from runner.tournament import Event, score_table, Pairing
    for fmt, cells in (("pairs", [9, 3]), ("pairs", [5, 5]), ("all-in", [30, 10, 30, 5])):
        points = FORMATS[fmt]["points"]
        outcome = Outcome.ranked(cells, Termination.SCORE)
        names = [f"c{i}" for i in range(len(cells))]
        event = Event("e", "robot", None, None, [type("C", (), {"name": n})() for n in names],
                      points=(points["beat"], points["tie"]))
        line = {"id": "x", "index": 0, "contestants": names, "outcome": outcome.to_json()}
        rows = score_table(event, [Pairing(0, 0, tuple(range(len(cells))), 0, "x")], {"x": line})
        expected = pair_points(outcome) if fmt == "pairs" else all_in_points(cells)
        assert [r["points"] for r in rows] == list(expected)


def test_headless_pairs_tournament_writes_standings(tmp_path, capsys):
    code = main.main(["robot", "tournament", "--format", "pairs", "--entrant", "bot:1",
                      "--entrant", "bot:2", "--entrant", "bot:4", "--map", "open-11",
                      "--seed", "3", "--out", str(tmp_path)])
    assert code == 0
    data = json.loads((tmp_path / "standings.json").read_text())
    rows = data["standings"]
    assert sum(r["points"] for r in rows) == 3 * 20 and all(r["played"] == 2 for r in rows)
    assert len(list(tmp_path.glob("matches/*/*.turnlog.json"))) == 3
    assert "rank" in capsys.readouterr().out


def test_headless_all_in_tournament(tmp_path):
    code = main.main(["robot", "tournament", "--format", "all-in", "--entrant", "bot:2",
                      "--entrant", "bot:3", "--entrant", "bot:1", "--map", "open-11",
                      "--out", str(tmp_path)])
    data = json.loads((tmp_path / "standings.json").read_text())
    assert code == 0 and all(r["played"] == 2 for r in data["standings"])
    lines = [json.loads(l) for l in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    total = {}
    for line in lines:
        for name, points in zip(line["contestants"], all_in_points(line["outcome"]["scores"])):
            total[name] = total.get(name, 0) + points
    assert {r["name"]: r["points"] for r in data["standings"]} == total
