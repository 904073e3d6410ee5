"""The organizers' JSON turn log: written from a match, read as a replay, audited."""
import json

import pytest

import main
import turnlog_cases as cases
from games.api import RecordFormatError
from games.robot import PLUGIN
from games.robot.rules import QUIRKS
from games.robot.turnlog import TurnLogReader, audit, dump, turn_log, write_contest_records
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


def test_log_is_the_organizers_format(logged_match):
    """Entry 0 is the blank map before placement, entry t the game as turn t starts,
    the last one the game over; their keys, in their order, and their text layout."""
    match, path = logged_match
    text = open(path).read()
    data = json.loads(text)
    assert text == json.dumps(data, indent=5)                    # as their referee writes it
    assert list(data) == [str(i) for i in range(len(match.turns) + 1)]
    first = data["0"]
    assert list(first) == ["players", "frequency", "stopGame", "map", "powerups"]
    assert list(first["players"]["0"]) == ["position", "alive", "area", "color", "tangtoc",
                                            "dautron", "powerup"]
    assert all(p["position"] == {"x": -1, "y": -1} and p["alive"] and p["area"] == 0
               and p["powerup"] is None for p in first["players"].values())
    assert first["map"] == {"rows": 13, "columns": 13, "grid": list(match.states[0].board.rows)}
    assert first["powerups"] == []
    assert all(i["timeout"] == first["frequency"] for i in data["1"]["powerups"])
    assert [e["stopGame"] for e in data.values()].count(True) == 1 and data[str(len(data) - 1)]["stopGame"]
    held = {p["powerup"] for e in data.values() for p in e["players"].values()}
    assert held <= {None, "tangtoc", "dautron"}
    for t, state in enumerate(match.states):
        assert data[str(t)]["map"]["grid"] == state.map_rows(raw=True)
    assert any("*" in row for row in data[str(len(data) - 1)]["map"]["grid"])


def test_log_opens_as_a_replay_with_the_same_states(logged_match):
    match, path = logged_match
    replay = open_replay(path)
    assert replay.format == "robot-turnlog" and len(replay.states) == len(match.states)
    for mine, theirs in zip(match.states, replay.states):
        assert mine.map_rows(raw=True) == theirs.map_rows(raw=True)
        assert [mine.position(s) for s in range(3)] == [theirs.position(s) for s in range(3)]
        assert mine.turn == theirs.turn
    assert [t.number for t in replay.turns] == list(range(len(match.turns)))
    assert replay.turns[0].moves == match.turns[0].moves
    assert replay.outcome.scores == match.outcome.scores


def test_round_trip_of_an_arena_log(logged_match):
    match, path = logged_match
    text = open(path).read()
    assert dump(turn_log(open_replay(path).states)) == text


def test_round_trip_of_an_organizers_log():
    for text in (cases.WHOLE, *cases.CASES.values()):
        replay = TurnLogReader().read(text, "theirs.json")
        assert turn_log(replay.states) == json.loads(text)


def test_a_real_log_is_read_in_step():
    """Entry 0 is before placement: turn 0 places the robots, nobody has left."""
    replay = TurnLogReader().read(cases.WHOLE, "whole.json")
    assert [s.turn for s in replay.states] == [0, 1, 2]
    assert replay.states[0].placing(0) and replay.states[0].placing(1)
    assert [r.in_game for r in replay.states[1].robots] == [True, True]
    assert [t.number for t in replay.turns] == [0, 1]
    assert replay.turns[0].moves == {0: "0 0", 1: "4 4"}
    assert not any(e.kind == "elimination" for t in replay.turns for e in t.events)
    lines, turns, divergent, unexplained = audit(cases.WHOLE, "whole.json")
    assert (turns, divergent, unexplained) == (2, 0, 0)


def test_audit_of_our_own_log_finds_nothing(logged_match, capsys):
    match, path = logged_match
    lines, turns, divergent, unexplained = audit(open(path).read(), path)
    assert divergent == 0 and turns == len(match.turns), lines[:5]
    assert lines[-1] == f"{turns} turns audited, 0 divergent, 0 unexplained"
    code = main.main(["robot", "audit", path])
    assert code == 0 and capsys.readouterr().out.strip().endswith("0 divergent, 0 unexplained")


@pytest.mark.parametrize("cause", sorted(cases.CASES))
def test_audit_names_the_organizers_behaviour(cause, tmp_path, capsys):
    text = cases.CASES[cause]
    lines, turns, divergent, unexplained = audit(text, "case.json")
    assert (turns, divergent, unexplained) == (1, 1, 0), lines
    assert lines[0].split(": ", 2)[2].startswith(cause + " (")
    assert lines[-1] == "1 turns audited, 1 divergent, 0 unexplained"
    path = tmp_path / "case.json"
    path.write_text(text)
    assert main.main(["robot", "audit", str(path), "--compat", "organizers"]) == 0
    assert capsys.readouterr().out.strip() == "1 turns audited, 0 divergent, 0 unexplained"


def test_audit_of_an_organizers_game_by_the_arena(tmp_path):
    """A match played with compat = organizers writes their log, sealing one ring a turn
    after every robot has left; the arena's rules explain every difference."""
    seats = [make_seat(f"bot:1", PLUGIN, 5 + i) for i in range(4)]
    match = Match(PLUGIN, {"map": "open-11", "players": 4, "compat": "organizers"}, seats,
                  seed=3, record_path=tmp_path / "m.arena.jsonl")
    match.run()
    path, _ = write_contest_records(match.as_replay(), tmp_path)
    data = json.loads(open(path).read())
    assert len(data) >= len(match.states)
    assert data[str(len(data) - 1)]["stopGame"] and [e["stopGame"] for e in data.values()].count(True) == 1
    last = data[str(len(data) - 1)]["map"]["grid"]
    assert not any(ch in ".ABCD" for row in last for ch in row)
    lines, turns, divergent, unexplained = audit(open(path).read(), path, quirks=frozenset(QUIRKS))
    assert divergent == 0, lines[:5]
    lines, turns, divergent, unexplained = audit(open(path).read(), path)
    assert unexplained == 0, lines


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
    assert "turn 4: unexplained" in out
    assert any(line.startswith("turn 4:   cell (6, 6)") for line in out)
    assert any(line.startswith("turn 7: ") for line in out)
    assert out[-1].endswith(" unexplained") and not out[-1].endswith(" 0 divergent, 0 unexplained")


@pytest.mark.parametrize("text,line", [
    ('{"0": {"players": {}', 1),
    ('{"0": {"players": {"0": {}}, "map": {"grid": ["..."]}, "powerups": []}}', 1),
    ('{\n"0": {"players": {"0": {"position": {"x": 0, "y": 0}}, "1": {"position": {"x": 1, "y": 1}}},'
     '\n "map": {"grid": ["..", "."]}, "powerups": []}}', 2),
    ('{"0": {}, "2": {}}', 1),
    ('{"3": {}, "5": {}}', 1),
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
