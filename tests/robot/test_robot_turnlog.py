"""The organizers' JSON turn log: written from a match, read as a replay, audited."""
import json

import pytest

import main
from games.api import RecordFormatError
from games.robot import PLUGIN
from games.robot.turnlog import TurnLogReader, audit, write_contest_records
from runner.match import Match
from runner.records import open_replay
from runner.seats import make_seat


@pytest.fixture(scope="module")
def logged_match(tmp_path_factory):
    folder = tmp_path_factory.mktemp("log")
    seats = [make_seat(f"bot:{level}", PLUGIN, 20 + level) for level in (2, 4, 3)]
    match = Match(PLUGIN, {"map": "pillars-13", "players": 3}, seats, seed=11,
                  record_path=folder / "m.arena.jsonl")
    match.run()
    path, map_path = write_contest_records(match.as_replay(), folder)
    from games.robot.maps import load_map
    assert load_map(map_path).rows == match.state.board.rows
    return match, path


def test_log_has_the_organizers_fields(logged_match):
    match, path = logged_match
    data = json.loads(open(path).read())
    assert sorted(data, key=int) == [str(i) for i in range(len(match.turns))]
    first = data["0"]
    assert set(first) >= {"players", "frequency", "stopGame", "map", "powerups"}
    assert set(first["players"]["0"]) >= {"position", "alive", "area", "color", "tangtoc",
                                           "dautron", "powerup"}
    assert first["map"]["rows"] == 13 and len(first["map"]["grid"]) == 13
    assert data[str(len(data) - 1)]["stopGame"] is True
    assert any("*" in row for row in data[str(len(data) - 1)]["map"]["grid"])


def test_log_opens_as_a_replay_with_the_same_states(logged_match):
    match, path = logged_match
    replay = open_replay(path)
    assert replay.format == "robot-turnlog" and len(replay.states) == len(match.states)
    for mine, theirs in zip(match.states, replay.states):
        assert mine.map_rows(raw=True) == theirs.map_rows(raw=True)
        assert [mine.position(s) for s in range(3)] == [theirs.position(s) for s in range(3)]
    assert replay.outcome.scores == match.outcome.scores


def test_audit_of_our_own_log_finds_nothing(logged_match, capsys):
    match, path = logged_match
    lines, turns, divergent = audit(open(path).read(), path)
    assert divergent == 0 and turns == len(match.turns), lines[:5]
    assert lines[-1] == f"{turns} turns audited, 0 divergent"
    code = main.main(["robot", "audit", path])
    assert code == 0 and capsys.readouterr().out.strip().endswith("0 divergent")


def test_audit_reports_a_tampered_log(logged_match, tmp_path, capsys):
    match, path = logged_match
    data = json.loads(open(path).read())
    row = list(data["5"]["map"]["grid"][6])
    row[6] = "D" if row[6] != "D" else "."
    data["5"]["map"]["grid"][6] = "".join(row)
    for key, player in data["8"]["players"].items():
        if player["alive"]:
            player["position"]["x"] = (player["position"]["x"] + 3) % 13
            break
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    code = main.main(["robot", "audit", str(tampered)])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 1
    assert any(line.startswith("turn 5: cell (6, 6)") for line in out)
    assert any(line.startswith("turn 8: ") for line in out)
    assert out[-1].endswith("divergent") and not out[-1].endswith(" 0 divergent")


@pytest.mark.parametrize("text,line", [
    ('{"0": {"players": {}', 1),
    ('{"0": {"players": {"0": {}}, "map": {"grid": ["..."]}, "powerups": []}}', 1),
    ('{\n"0": {"players": {"0": {"position": {"x": 0, "y": 0}}, "1": {"position": {"x": 1, "y": 1}}},'
     '\n "map": {"grid": ["..", "."]}, "powerups": []}}', 2),
    ('{"0": {}, "2": {}}', 1),
    ('{"info": "no turns"}', 1),
])
def test_malformed_logs_name_the_line(text, line, tmp_path):
    with pytest.raises(RecordFormatError) as info:
        TurnLogReader().read(text, "bad.json")
    assert info.value.line == line and "bad.json" in str(info.value)


def test_sniff_tells_a_turn_log_from_other_json():
    reader = TurnLogReader()
    assert reader.sniff('{"0": {"players": {}, "powerups": []}}', "x")
    assert not reader.sniff('{"type": "header", "format": "arena-record"}', "x")
