"""The one reader of the arena record (:class:`runner.records.ArenaRecordReader`): fed a
line at a time it gives what the replay loader gives for the whole file, and a broken
record gets the same error (file, line, what was expected) whether it is opened as a
replay or followed live."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.api import RecordFormatError
from runner.live import LiveMatch, TailReader
from runner.records import ArenaRecordReader, open_replay

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(p for p in (ROOT / "replays").iterdir() if p.name.endswith(".arena.jsonl"))
HEX = ROOT / "replays" / "hex-sample.arena.jsonl"


def picture(state) -> tuple:
    """What two positions must share to be the same one here."""
    outcome = state.outcome()
    return state.board_text(), state.turn_number(), outcome.to_json() if outcome else None


def hex_lines() -> list[str]:
    return HEX.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_feeding_a_record_line_by_line_reaches_every_position_the_replay_shows(path):
    replay = open_replay(path)
    reader = ArenaRecordReader(path)
    seen = []
    for line in path.read_text(encoding="utf-8").splitlines():
        before = len(reader.turns)
        reader.feed(line)
        if len(reader.turns) > before:
            seen.append(picture(reader.state))
    assert seen == [picture(state) for state in replay.states[1:]]
    assert reader.turns == replay.turns and reader.header == replay.header
    assert reader.outcome == replay.outcome
    assert picture(reader.state_after(0)) == picture(replay.states[0])


def test_a_take_back_without_kept_positions_gives_the_position_the_replay_keeps():
    lines = hex_lines()
    turn = [json.loads(line) for line in lines[1:9]]
    record = lines[:9] + [json.dumps({"type": "undo", "count": 3})] + [json.dumps(t) for t in turn[5:]]
    light, keeping = ArenaRecordReader("undo.arena.jsonl"), ArenaRecordReader("undo.arena.jsonl", keep_states=True)
    for line in record:
        light.feed(line)
        keeping.feed(line)
    assert len(light.turns) == len(keeping.turns) == 8 and len(keeping.states) == 9
    assert picture(light.state) == picture(keeping.state) == picture(keeping.states[-1])
    undone = ArenaRecordReader("undo.arena.jsonl")
    for line in lines[:6] + [json.dumps({"type": "undo", "count": 2})]:
        undone.feed(line)
    assert picture(undone.state) == picture(light.state_after(3))


def test_a_half_written_last_line_waits_for_its_end():
    lines = hex_lines()
    reader = ArenaRecordReader("x.arena.jsonl")
    for line in lines[:3]:
        reader.feed(line)
    reader.feed(lines[3][:40], 4, partial=True)
    assert len(reader.turns) == 2
    reader.feed(lines[3], 4)
    assert len(reader.turns) == 3
    with pytest.raises(RecordFormatError, match=r"x\.arena\.jsonl, line 5: .*a JSON object"):
        reader.feed(lines[4][:40], 5)


def broken_records() -> dict[str, tuple[list[str], str]]:
    """name -> (the record's lines, what the error must say)."""
    lines = hex_lines()
    header = json.loads(lines[0])
    end = len(lines)
    bad_turn = json.loads(lines[2])
    bad_turn["moves"] = {"1": "zz99"}
    return {
        "bad seed": ([json.dumps({**header, "seed": "x"}), *lines[1:]], 'line 1: "seed" as a whole number'),
        "unknown game": ([json.dumps({**header, "game": "nosuchgame"})], "line 1: a known game"),
        "bad options": ([json.dumps({**header, "options": {"size": "huge"}})],
                        "line 1: options and a seed the game starts from"),
        "illegal move": ([lines[0], lines[1], json.dumps(bad_turn)], "line 3: a move the rules accept"),
        "turn skipped": ([lines[0], lines[2]], "line 2: turn 1, not turn 2"),
        "no type": ([lines[0], lines[1], '{"n": 2}', lines[2]], 'line 3: a JSON object with a "type"'),
        "turn after result": ([*lines, lines[1]], f"line {end + 1}: no turn after the result line (line {end})"),
        "two results": ([*lines, lines[-1]], f"line {end + 1}: one result line (the first is line {end})"),
        "bad seats": ([lines[0], '{"type": "seats", "seats": "me"}'], 'line 2: a seats line'),
    }


@pytest.mark.parametrize("name", list(broken_records()))
def test_a_broken_record_gets_the_same_error_opened_or_followed_live(tmp_path, name):
    lines, expected = broken_records()[name]
    path = tmp_path / "m.arena.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordFormatError) as opened:
        open_replay(path)
    assert str(opened.value).startswith(f"{path}, {expected}"), str(opened.value)
    follower = LiveMatch("m", path, TailReader(path))
    follower.poll(0.0)
    assert follower.error == str(opened.value)
    follower.close()


def test_a_followed_match_refuses_take_backs_a_replay_accepts(tmp_path):
    lines = hex_lines()[:5] + [json.dumps({"type": "undo", "count": 1})]
    path = tmp_path / "m.arena.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(open_replay(path).turns) == 3
    follower = LiveMatch("m", path, TailReader(path))
    follower.poll(0.0)
    assert follower.error == f"{path}, line 6: no take-backs in a tournament match"
    assert len(follower.turns) == 4
    follower.close()


def test_no_module_reaches_into_the_record_readers_private_parts():
    """The replay, the live follower and the projection use the reader's public API."""
    private = re.compile(r"from runner\.records import \(?[^)\n]*\b_\w+|records\._\w+")
    offenders = []
    for source in [*ROOT.glob("runner/*.py"), *ROOT.glob("ui/**/*.py"), *ROOT.glob("games/**/*.py"),
                   ROOT / "main.py"]:
        if source != ROOT / "runner" / "records.py":
            offenders += [f"{source.relative_to(ROOT)}: {m}" for m in
                          private.findall(source.read_text(encoding="utf-8"))]
    assert offenders == []
