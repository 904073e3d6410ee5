"""REPORT.TXT and PGN records: the statement's example, round trips, malformed files."""
import json
import random

import pytest

from games.api import RecordFormatError, Termination
from games.xiangqi import PLUGIN
from games.xiangqi.records import (READERS, Report, format_pgn, format_report, parse_pgn,
                                   parse_report, replay_to_pgn)
from games.xiangqi.rules import XiangqiGame

REPORT_HEADER = ["Chuong trinh Trang Co, ban 2.5 - ngay 1/1/1999", "Nguoi viet: Pham Minh Tri.",
                 "Dia chi: 3-P17 Truong Dinh, Ha noi, Viet nam", "OTHER COMPUTER"]
# The statement's example, as printed: Black's second half-move H9H7 is not a legal move
# (H9 holds a horse, H7 Black's own cannon); H9G7 is surely what was meant.
STATEMENT_EXAMPLE = "\n".join(REPORT_HEADER + ["1 H2E2 H9H7", "2 H0G2 B9C7", "3 I0H0 H7I7"]) + "\n"
CORRECTED_EXAMPLE = STATEMENT_EXAMPLE.replace("H9H7", "H9G7")
REPORT_READER, PGN_READER = READERS


def random_game(seed, plies=400):
    game = XiangqiGame()
    state = game.new_initial_state({"no_capture_limit": 0}, seed)
    rng = random.Random(seed)
    while not state.is_terminal() and state.turn < plies:
        state.apply({state.side: rng.choice(state.legal_moves(state.side))})
    return state


def test_plugin_lists_the_readers():
    readers = PLUGIN.load("readers")
    assert [r.format for r in readers] == ["xiangqi-report", "xiangqi-pgn"]


def test_statement_example_reads_once_corrected(tmp_path):
    path = str(tmp_path / "REPORT.TXT")
    assert REPORT_READER.sniff(CORRECTED_EXAMPLE, path)
    replay = REPORT_READER.read(CORRECTED_EXAMPLE, path)
    assert len(replay.states) == 7 and len(replay.turns) == 6
    assert [t.moves for t in replay.turns[:2]] == [{0: "H2E2"}, {1: "H9G7"}]
    assert replay.header["authors"][1] == "Nguoi viet: Pham Minh Tri."
    assert replay.header["players"] == ["OTHER", "COMPUTER"]
    assert replay.outcome is None                      # nothing decided, no REPORT.JSON


def test_statement_example_as_printed_names_the_illegal_move(tmp_path):
    with pytest.raises(RecordFormatError) as error:
        REPORT_READER.read(STATEMENT_EXAMPLE, str(tmp_path / "REPORT.TXT"))
    assert error.value.line == 5 and "H9H7" in str(error.value) and "Black" in str(error.value)


def test_report_round_trip_of_random_games(tmp_path):
    for seed in range(4):
        state = random_game(seed)
        report = Report(["An Author", "Prog 1.0", "Somewhere"], ("COMPUTER", "OTHER"), list(state.moves))
        text = format_report(report)
        assert text.endswith("\r\n") and text.splitlines()[4].startswith("1 ")
        again = parse_report(text)
        assert again.moves == state.moves and again.words == report.words
        replay = REPORT_READER.read(text, str(tmp_path / "REPORT.TXT"))
        assert replay.states[-1].fen() == state.fen()
        if state.outcome() and state.outcome().reason in (Termination.WIN, Termination.STALEMATE):
            assert replay.outcome == state.outcome()


def test_report_with_odd_number_of_moves():
    report = Report(["", "", ""], ("HUMAN", "COMPUTER"), ["H2E2", "H9G7", "H0G2"])
    text = format_report(report)
    assert text.splitlines()[-1] == "2 H0G2"
    assert parse_report(text).moves == report.moves


@pytest.mark.parametrize("seed,reason", [(8, Termination.WIN), (27, Termination.STALEMATE)])
def test_a_decided_final_position_is_the_result(tmp_path, seed, reason):
    state = random_game(seed)                 # seeded random games that end without legal moves
    assert state.outcome().reason is reason
    text = format_report(Report(["", "", ""], ("COMPUTER", "COMPUTER"), list(state.moves)))
    replay = REPORT_READER.read(text, str(tmp_path / "REPORT.TXT"))
    assert replay.outcome == state.outcome() and replay.outcome.winners == (state.turn % 2 ^ 1,)


def test_sidecar_result_is_used(tmp_path):
    (tmp_path / "REPORT.TXT").write_text(CORRECTED_EXAMPLE)
    (tmp_path / "REPORT.JSON").write_text(json.dumps({
        "format": "xiangqi-report-result", "result": "0-1", "reason": "timeout",
        "detail": "Red ran out of time"}))
    replay = REPORT_READER.read(CORRECTED_EXAMPLE, str(tmp_path / "REPORT.TXT"))
    assert replay.outcome.winners == (1,) and replay.outcome.reason is Termination.TIMEOUT


@pytest.mark.parametrize("lines,line,words", [
    (REPORT_HEADER[:3], 4, "4 header lines"),
    (REPORT_HEADER[:3] + ["OTHER  COMPUTER"], 4, "two words"),
    (REPORT_HEADER[:3] + ["OTHER ROBOT"], 4, "two words"),
    (["x" * 256] + REPORT_HEADER[1:], 1, "255 columns"),
    (REPORT_HEADER + ["1 H2E2 H9G7", "3 H0G2 B9C7"], 6, "line number 2"),
    (REPORT_HEADER + ["1 H2E2", "2 H0G2 B9C7"], 5, "only the last line"),
    (REPORT_HEADER + ["1 H2E2  H9G7"], 5, "BOTTOMMOVE TOPMOVE"),
    (REPORT_HEADER + ["1 H2E2 H9G7 extra"], 5, "BOTTOMMOVE TOPMOVE"),
    (REPORT_HEADER + ["1 Z2E2 H9G7"], 5, "not a Xiangqi move"),
    (REPORT_HEADER + ["1 H2E2 H9G7", "2 A0A5 B9C7"], 6, "legal move for Red"),
])
def test_malformed_reports_name_the_line(lines, line, words):
    with pytest.raises(RecordFormatError, match=words) as error:
        REPORT_READER.read("\n".join(lines) + "\n", "some/REPORT.TXT")
    assert error.value.line == line and error.value.path == "some/REPORT.TXT"


def test_binary_garbage_is_a_format_error():
    garbage = "\x00\x01\x02\xff" * 50
    assert not REPORT_READER.sniff(garbage, "REPORT.TXT")
    with pytest.raises(RecordFormatError):
        REPORT_READER.read(garbage, "REPORT.TXT")


def test_lower_case_moves_are_accepted():
    text = "\n".join(REPORT_HEADER + ["1 h2e2 h9g7"])
    assert parse_report(text).moves == ["H2E2", "H9G7"]


def test_report_continues_past_an_arena_ruling(tmp_path):
    # A quiet repetition the arena would end as a draw; another program's record goes on.
    moves = ["H0G2", "H9G7", "G2H0", "G7H9", "H0G2"]
    replay = REPORT_READER.read("\n".join(REPORT_HEADER + ["1 H0G2 H9G7", "2 G2H0 G7H9", "3 H0G2"]),
                                str(tmp_path / "REPORT.TXT"))
    assert [m for t in replay.turns for m in t.moves.values()] == moves
    assert "would have ended" in replay.turns[4].note and replay.outcome is None


def test_pgn_round_trip():
    state = random_game(9)
    assert state.outcome() is not None
    text = format_pgn(state.moves, {"Event": "Test \"cup\"", "Red": "Bot 3"}, state.outcome())
    assert '[Game "Chinese Chess"]' in text and '[Format "ICCS"]' in text
    game = parse_pgn(text)
    assert game.moves == state.moves and game.tags["Event"] == 'Test "cup"' and game.tags["Red"] == "Bot 3"
    assert PGN_READER.sniff(text, "x.pgn")
    replay = PGN_READER.read(text, "x.pgn")
    assert replay.states[-1].fen() == state.fen() and replay.seat_names[0] == "Bot 3"
    assert replay.outcome == state.outcome()
    assert parse_pgn(replay_to_pgn(replay)).moves == state.moves


def test_pgn_from_a_position_with_comments_and_result():
    text = ('[Game "Chinese Chess"]\n[FEN "4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1"]\n[Result "1-0"]\n\n'
            "{a comment; with a semicolon} 1... E9-F9 {only move} ; rest of line\n2. b0-b9 1-0\n")
    replay = PGN_READER.read(text, "mate.pgn")
    assert [t.moves for t in replay.turns] == [{1: "E9F9"}, {0: "B0B9"}]
    assert replay.outcome.winners == (0,) and replay.outcome.reason is Termination.WIN
    assert "1... E9-F9" in format_pgn(["E9F9", "B0B9"], fen="4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1")


@pytest.mark.parametrize("text,line", [
    ('[Game "Chinese Chess"]\n\n1. H2-E2 X9-Y7\n', 3),
    ('[Game "Chinese Chess"\n\n1. H2-E2\n', 1),
    ('[Game "Chinese Chess"]\n\n1. H2-E2 H9-H7\n', 3),
])
def test_malformed_pgn_names_the_line(text, line):
    with pytest.raises(RecordFormatError) as error:
        PGN_READER.read(text, "bad.pgn")
    assert error.value.line == line


def test_open_replay_detects_report_txt(tmp_path):
    from runner.records import open_replay
    path = tmp_path / "REPORT.TXT"
    path.write_text(CORRECTED_EXAMPLE)
    replay = open_replay(path)
    assert replay.game == "xiangqi" and replay.format == "xiangqi-report"
