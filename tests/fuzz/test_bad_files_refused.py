"""The files a review (issue 39) found a traceback or a silent wrong load with, each as
a test: only an error naming the file, the line and what was expected, and a record's
result always the one its moves give (or a ruling the record states)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.api import RecordFormatError
from runner.records import open_replay
from runner.tournament import EventError, load_event

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "replays"
EVENT = b'game = "hex"\nformat = "round-robin"\n[[contestant]]\nseat = "bot:1"\n[[contestant]]\nseat = "bot:2"\n'


def lines_of(name: str) -> list[str]:
    return [line for line in (REPLAYS / name).read_text().split("\n") if line]


def write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def refused(path: Path, line: int | None, words: str) -> RecordFormatError:
    with pytest.raises(RecordFormatError) as caught:
        open_replay(path)
    assert caught.value.path == str(path) and caught.value.line == line, str(caught.value)
    assert re.search(words, caught.value.expected), str(caught.value)
    return caught.value


# ---------------------------------------------------------------- event files
@pytest.mark.parametrize("data, where, words", [
    (b'name = "\xff\xfe"\n' + EVENT, ", line 1:", "UTF-8"),
    (b"seed = " + b"9" * 5000 + b"\n" + EVENT, ", line 1:", "4,300 digits"),
    (b"rounds = [1]\n" + EVENT, ", line 1:", "rounds as a whole number"),
    (b"points = 3\n" + EVENT, ", line 1:", "points as a table"),
    (b"arr = " + b"[" * 2000 + b"]" * 2000 + b"\n" + EVENT, ":", "nested"),
])
def test_a_bad_event_file_is_an_event_error_naming_it(tmp_path, data, where, words):
    path = write(tmp_path, "event.toml", data)
    with pytest.raises(EventError) as caught:
        load_event(path, tmp_path / "out")
    assert str(caught.value).startswith(f"{path}{where}") and re.search(words, str(caught.value))


def test_an_event_path_longer_than_the_system_takes_is_kept_as_text(tmp_path):
    """_local_path asks whether a value names a file: a name over 255 bytes is not one
    (was OSError ENAMETOOLONG)."""
    long = "x" * 5000
    path = write(tmp_path, "event.toml", EVENT.replace(b"[[contestant]]", f'[options]\nbook = "{long}"\n[[contestant]]'.encode(), 1))
    event = load_event(path, tmp_path / "out")
    assert event.options["book"] == long


# ---------------------------------------------------------------- Robot turn logs
def robot_log(tmp_path: Path, change) -> Path:
    from games import registry
    from runner.match import Match, TimeControl
    from runner.seats import make_seat
    from games.robot.turnlog import dump, turn_log
    plugin = registry.plugin("robot")
    match = Match(plugin, {"map": "3 3 1\n...\n...\n...\n", "players": 2, "period": 1},
                  [make_seat("bot:1", plugin, i) for i in range(2)], seed=3,
                  time_control=TimeControl(per_move=0.05))
    match.run()
    data = json.loads(dump(turn_log(match.as_replay().states)))
    change(data)
    return write(tmp_path, "log.json", dump(data))


@pytest.mark.parametrize("change, words", [
    (lambda d: d["0"]["players"]["0"].update(tangtoc=[1, 2]), "tangtoc as a whole number"),
    (lambda d: d["0"]["players"]["0"].update(dautron="x"), "dautron as a whole number"),
    (lambda d: d["0"].update(powerups=5), "powerups as"),
    (lambda d: d["1"]["players"]["1"].update(position=[0, 0]), "position"),
    (lambda d: d["0"]["map"].update(grid=7), "map"),
    (lambda d: d["0"]["powerups"].append({"x": 99, "y": 0, "type": "G"}), "on the map"),
])
def test_a_turn_log_with_a_value_of_the_wrong_type_is_refused(tmp_path, change, words):
    from games.robot.turnlog import audit
    path = robot_log(tmp_path, change)
    error = refused(path, error_line(path), words)
    with pytest.raises(RecordFormatError):
        audit(path.read_text(), str(path))
    assert error.path == str(path)


def error_line(path: Path):
    with pytest.raises(RecordFormatError) as caught:
        open_replay(path)
    assert caught.value.line is not None
    return caught.value.line


def test_a_turn_log_nested_a_thousand_deep_is_refused(tmp_path):
    text = '{"players": {}, "powerups": [], "0": ' + "[" * 1000 + "]" * 1000 + "}"
    refused(write(tmp_path, "log.json", text), 1, "nested")


# ---------------------------------------------------------------- numbers of thousands of digits
def test_a_hex_sgf_size_of_thousands_of_digits_is_refused(tmp_path):
    text = (REPLAYS / "hex-sample.sgf").read_text().replace("SZ[", "SZ[" + "9" * 5000, 1)
    refused(write(tmp_path, "game.sgf", text), 1, "SZ")


def test_a_report_txt_move_number_of_thousands_of_digits_is_refused(tmp_path):
    text = "author\nprogram\naddress\nCOMPUTER OTHER\n" + "9" * 5000 + " H2E2 H9E9\n"
    refused(write(tmp_path, "REPORT.TXT", text), 5, "BOTTOMMOVE TOPMOVE")


def test_a_crossed_words_output_with_thousands_of_digits_is_refused(tmp_path):
    from games.crosswords.files import parse_output, verify_output
    text = "9" * 5000 + "\n" + "\n".join(["." * 17] * 17) + "\nstop\n"
    with pytest.raises(RecordFormatError) as caught:
        parse_output(text, "output.txt")
    assert caught.value.line == 1
    assert verify_output(text, [], set()).line == 1
    step = "1\n" + "\n".join(["." * 17] * 17) + "\nplay A1 across AB 3 = " + "9" * 5000 + "\n"
    with pytest.raises(RecordFormatError) as caught:
        parse_output(step, "output.txt")
    assert caught.value.line == 19


def test_a_tam_quan_record_with_a_number_int_cannot_read_is_refused(tmp_path):
    from games.tamquan.records import format_record
    from runner.records import open_replay as reopen
    replay = reopen(REPLAYS / "tamquan-sample.arena.jsonl")
    text = format_record(replay)
    for bad in ("9" * 5000, "\u00b2"):
        changed = re.sub(r"(?m)^(size) \d+", rf"\1 {bad}", text, count=1)
        assert changed != text
        path = write(tmp_path, "game.tamquan.txt", changed)
        with pytest.raises(RecordFormatError) as caught:
            open_replay(path)
        assert caught.value.line == 2


# ---------------------------------------------------------------- arena records
def test_a_forfeit_of_a_seat_the_game_does_not_have_is_refused(tmp_path):
    lines = lines_of("robot-sample.arena.jsonl")
    turn = json.loads(lines[1])
    turn["forfeits"] = {"7": {"reason": "timeout"}}
    refused(write(tmp_path, "r.arena.jsonl", "\n".join([lines[0], json.dumps(turn)]) + "\n"), 2,
            "seats 0-3 of this 4-seat game, not seat 7")


def with_result(name: str, **change) -> tuple[str, int]:
    """The shipped record ``name`` with its result line changed; and that line's number."""
    lines = lines_of(name)
    result = json.loads(lines[-1])
    assert result["type"] == "result"
    result.update(change)
    return "\n".join(lines[:-1] + [json.dumps(result)]) + "\n", len(lines)


def test_a_xiangqi_record_saying_black_won_after_red_mated_is_refused(tmp_path):
    text, line = with_result("xiangqi-sample.arena.jsonl", winners=[1], scores=[0.0, 1.0], ranks=[2, 1],
                             detail="Black wins")
    refused(write(tmp_path, "x.arena.jsonl", text), line, "checkmated.*1-0.*not 0-1")


def test_a_robot_record_with_a_forged_winner_is_refused(tmp_path):
    text, line = with_result("robot-sample.arena.jsonl", winners=[2], ranks=[2, 3, 1, 4])
    refused(write(tmp_path, "r.arena.jsonl", text), line, "the result the replayed moves give")


def test_a_hex_record_with_its_winners_removed_is_refused(tmp_path):
    text, line = with_result("hex-sample.arena.jsonl", winners=[], scores=[0.5, 0.5])
    refused(write(tmp_path, "h.arena.jsonl", text), line, "connected.*0-1.*not 1/2-1/2")


def test_a_hex_record_with_another_games_result_spliced_in_is_refused(tmp_path):
    other = lines_of("hex-program-vs-bot.arena.jsonl")[-1]
    lines = lines_of("hex-sample.arena.jsonl")
    refused(write(tmp_path, "h.arena.jsonl", "\n".join(lines[:-1] + [other]) + "\n"), len(lines),
            "turns")
    spliced = json.loads(other)
    spliced["turns"] = json.loads(lines[-1])["turns"]          # even with the count made right
    refused(write(tmp_path, "h2.arena.jsonl", "\n".join(lines[:-1] + [json.dumps(spliced)]) + "\n"),
            len(lines), "the result the replayed moves give")


def test_a_finished_games_result_with_another_reason_is_refused(tmp_path):
    """Red mated Black: a result saying Red won on time contradicts the moves."""
    text, line = with_result("xiangqi-sample.arena.jsonl", reason="timeout")
    refused(write(tmp_path, "x.arena.jsonl", text), line, "win\\), not 1-0, timeout")


def test_a_result_line_in_the_middle_is_refused(tmp_path):
    lines = lines_of("hex-sample.arena.jsonl")
    moved = lines[:3] + [lines[-1]] + lines[3:-1]
    refused(write(tmp_path, "h.arena.jsonl", "\n".join(moved) + "\n"), 4, "turns")
    result = json.loads(lines[-1])
    result["turns"] = 2
    moved[3] = json.dumps(result)
    refused(write(tmp_path, "h2.arena.jsonl", "\n".join(moved) + "\n"), 4, "the replayed game is not over")


def test_a_ruling_the_record_states_is_accepted_on_an_unfinished_game(tmp_path):
    """A time-out, a crash, a stopped match, a resignation: the moves cannot show them,
    the record says so, and the result stands; a rules' result ('win') cannot."""
    lines = lines_of("hex-sample.arena.jsonl")[:11]             # the header and 10 turns
    for reason, winners, scores in (("timeout", [1], [0.0, 1.0]), ("crash", [0], [1.0, 0.0]),
                                    ("aborted", [], [0.0, 0.0]), ("resignation", [0], [1.0, 0.0])):
        result = {"type": "result", "winners": winners, "scores": scores, "reason": reason, "turns": 10}
        replay = open_replay(write(tmp_path, f"{reason}.arena.jsonl",
                                   "\n".join(lines + [json.dumps(result)]) + "\n"))
        assert replay.outcome.reason.value == reason and list(replay.outcome.winners) == winners
    win = {"type": "result", "winners": [0], "scores": [1.0, 0.0], "reason": "win", "turns": 10}
    refused(write(tmp_path, "win.arena.jsonl", "\n".join(lines + [json.dumps(win)]) + "\n"), 12,
            "the replayed game is not over")


def test_a_xiangqi_pgn_whose_result_contradicts_the_mate_is_refused(tmp_path):
    from games.xiangqi.records import replay_to_pgn
    pgn = replay_to_pgn(open_replay(REPLAYS / "xiangqi-sample.arena.jsonl"))
    assert "1-0" in pgn
    forged = pgn.replace('[Result "1-0"]', '[Result "0-1"]').rstrip().removesuffix("1-0") + "0-1\n"
    path = write(tmp_path, "game.pgn", forged)
    error = refused(path, forged.rstrip("\n").count("\n") + 1, "checkmated.*not 0-1")
    assert error.line is not None


def test_a_hex_out_claiming_a_win_nobody_has_made_is_refused(tmp_path):
    lines = (REPLAYS / "hex-sample.HEX.OUT").read_text().split("\n")
    size = int(lines[0])
    kept = lines[:size + 1 + 6] + ["RESULT 1 win"]
    refused(write(tmp_path, "HEX.OUT", "\n".join(kept) + "\n"), len(kept), "nobody has connected")


def test_a_report_json_contradicting_the_mate_in_its_report_txt_is_refused(tmp_path):
    from games.xiangqi.records import RESULT_SIDECAR, write_contest_records
    replay = open_replay(REPLAYS / "xiangqi-sample.arena.jsonl")
    write_contest_records(replay, tmp_path)
    assert open_replay(tmp_path / "REPORT.TXT").outcome.winners == (0,)
    sidecar = tmp_path / RESULT_SIDECAR
    data = json.loads(sidecar.read_text())
    data.update(result="0-1", winner="top")
    sidecar.write_text(json.dumps(data))
    with pytest.raises(RecordFormatError) as caught:
        open_replay(tmp_path / "REPORT.TXT")
    assert caught.value.path == str(sidecar) and "not 0-1" in caught.value.expected


def test_an_option_naming_a_file_by_a_name_too_long_is_refused(tmp_path):
    """Found by the fuzz at 3,000 examples: a Crossed Words record whose dictionary
    option is a name over 255 bytes (OSError ENAMETOOLONG when it is looked up)."""
    lines = lines_of("crosswords-sample.arena.jsonl")
    header = json.loads(lines[0])
    header["options"]["dictionary"] = "d" * 5000
    refused(write(tmp_path, "c.arena.jsonl", "\n".join([json.dumps(header)] + lines[1:]) + "\n"), 1,
            "options and a seed")
