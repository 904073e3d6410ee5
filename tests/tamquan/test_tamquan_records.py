"""Tam Quan's readable record: written beside the arena record, read back as a replay
with every line checked; malformed files name the line."""
import re

import pytest

from games.api import RecordFormatError, Termination
from games.tamquan import PLUGIN
from games.tamquan.records import FILE_NAME, TamQuanTextReader, format_record
from games.tamquan.rules import TamQuanGame, parse_move, state_from_rows
from games.replay import Replay, TurnInfo
from runner.match import Match
from runner.records import open_replay
from runner.seats import make_seat

GAME = TamQuanGame()
READER = TamQuanTextReader()


def bot_match(tmp_path, variant="5x5-2teams", levels=(3, 1), limit=30, seed=2):
    options = GAME.spec.resolve_options(variant, {"turn_limit": limit})
    seats = [make_seat(f"bot:{lv}", PLUGIN, seed + i) for i, lv in enumerate(levels)]
    match = Match(PLUGIN, options, seats, seed=seed, record_path=tmp_path / "m.arena.jsonl",
                  out_dir=tmp_path)
    match.run()
    return match


def test_the_match_writes_a_readable_record_that_replays(tmp_path):
    match = bot_match(tmp_path, "8x8-4teams", (3, 2, 1, 1), limit=12)
    path = tmp_path / f"m.{FILE_NAME}"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Co Tam Quan game record\nsize 8\nteams 4\nmembers 5\n")
    assert "\nsetup A zone " in text and "\nturn 1 A\n  before none\n  steps " in text
    assert "\nresult " in text
    replay = open_replay(path)
    assert replay.format == "tamquan-text" and len(replay.states) == len(match.states)
    for ours, theirs in zip(match.states, replay.states):
        assert ours == theirs
    assert replay.outcome == match.outcome


def test_captures_are_written_in_the_turn_that_made_them():
    state = state_from_rows(["..C.B", ".A.B.", "A.B..", ".....", "....."], to_move=0, teams=3)
    states, turns = [state.clone()], []
    for text in ("1,1-1,2 2,0-2,1", "0,4-0,3 1,3-1,2"):
        team = state.current
        state.play({team: parse_move(text)})
        states.append(state.clone())
        turns.append(TurnInfo(len(turns) + 1, {team: text}))
    record = format_record(Replay("tamquan", "x", "", {}, states, turns, None, []))
    assert ("turn 1 A\n  before none\n  steps 1,1-1,2 2,0-2,1\n  after B 2,2\n"
            "turn 2 B\n  before A 1,2\n  steps 0,4-0,3 1,3-1,2\n  after C 0,2\n") in record


def test_a_team_that_left_is_recorded(tmp_path):
    state = GAME.new_initial_state(GAME.spec.resolve_options("5x5-2teams"), 0)
    states = [state.clone()]
    state.play({0: parse_move("zone 1: 0,0 0,1 0,2")})
    states.append(state.clone())
    state.forfeit(1, Termination.TIMEOUT, "no move")
    states.append(state.clone())
    turns = [TurnInfo(1, {0: "zone 1: 0,0 0,1 0,2"}),
             TurnInfo(2, {}, forfeits={1: {"reason": "timeout", "detail": "no move"}})]
    text = format_record(Replay("tamquan", "x", "", {}, states, turns, state.outcome(), ["a", "b"]))
    assert "left B timeout: no move" in text
    replay = READER.read(text, "t.txt")
    assert replay.states[-1] == state and replay.outcome.winners == (0,)


@pytest.mark.parametrize("change,line,expected", [
    (lambda t: t.replace("size 5", "size five"), 2, "size N"),
    (lambda t: t.replace("team B", "team Q"), 8, "team B"),
    (lambda t: re.sub(r"setup A zone \d", "setup A zone 7", t), 10, "legal move"),
    (lambda t: t.replace("setup B", "setup A"), 11, "team on turn"),
    (lambda t: re.sub(r"  steps \d,\d", "  steps 9,9", t, count=1), 15, "legal move"),
    (lambda t: t.replace("  after none", "  after B 4,4", 1), 16, "captures the rules make"),
    (lambda t: t.replace("turn 1 A", "move 1 A"), 13, "'setup', 'turn'"),
    (lambda t: t[:t.index("  after")], 16, "file ends early"),
])
def test_malformed_records_name_the_line(tmp_path, change, line, expected):
    match = bot_match(tmp_path, limit=4)
    text = (tmp_path / f"m.{FILE_NAME}").read_text(encoding="utf-8")
    assert text.splitlines()[12] == "turn 1 A"
    with pytest.raises(RecordFormatError) as info:
        READER.read(change(text), "bad.txt")
    assert info.value.line == line and expected in info.value.expected, str(info.value)
