"""PLAY.INI, move files and the polling rule (RULEBOOK section 1), as pure text."""
import pytest

from games.api import RecordFormatError
from games.xiangqi.movefiles import (DRAW, FINISH, LOST, WIN, MoveFile, PlayIni, StablePoller,
                                     format_move_file, format_play_ini, parse_move_file,
                                     parse_play_ini, status_words)

STATEMENT_EXAMPLE = "OTHER\nCOMPUTER\n12891\n3600\nC:\\MOVE\\M1.DAT\nC:\\MOVE\\M2.DAT\n"


def test_statement_example_reads():
    ini = parse_play_ini(STATEMENT_EXAMPLE)
    assert ini == PlayIni("OTHER", "COMPUTER", 12891, 3600, "C:\\MOVE\\M1.DAT", "C:\\MOVE\\M2.DAT")
    assert ini.other_side == 0
    assert ini.move_file(0) == "C:\\MOVE\\M1.DAT" and ini.move_file(1) == "C:\\MOVE\\M2.DAT"
    assert ini.report_line() == "OTHER COMPUTER"


def test_statement_second_example_without_files():
    ini = parse_play_ini("COMPUTER\r\nHUMAN\r\n28\r\n-1\r\n")
    assert (ini.bottom, ini.top, ini.seconds, ini.has_other) == ("COMPUTER", "HUMAN", -1, False)


def test_lines_3_to_6_only_matter_with_other():
    assert parse_play_ini("HUMAN\nHUMAN\n").words == ("HUMAN", "HUMAN")
    assert parse_play_ini("COMPUTER\nCOMPUTER\nxx\nyy\n").seconds == -1
    assert parse_play_ini("COMPUTER\nHUMAN\n1\n600\n").seconds == 600


def test_round_trip():
    ini = PlayIni("COMPUTER", "OTHER", 7, 120, "/tmp/a/M1.DAT", "/tmp/a/M2.DAT")
    assert parse_play_ini(format_play_ini(ini)) == ini


def test_lower_case_words_are_forgiven():
    assert parse_play_ini("computer\nother\n1\n-1\n/a\n/b\n").words == ("COMPUTER", "OTHER")


@pytest.mark.parametrize("text, line, fragment", [
    ("", 1, "COMPUTER, HUMAN or OTHER"),
    ("ROBOT\nHUMAN\n", 1, "'ROBOT'"),
    ("HUMAN\n", 2, "top side"),
    ("HUMAN\nPERSON\n", 2, "'PERSON'"),
    ("OTHER\nOTHER\n1\n-1\n/a\n/b\n", 2, "OTHER OTHER"),
    ("OTHER\nCOMPUTER\n", 3, "opponent's id"),
    ("OTHER\nCOMPUTER\n65000\n-1\n/a\n/b\n", 3, "below 65000"),
    ("OTHER\nCOMPUTER\nabc\n-1\n/a\n/b\n", 3, "'abc'"),
    ("OTHER\nCOMPUTER\n1\n32000\n/a\n/b\n", 4, "below 32000"),
    ("OTHER\nCOMPUTER\n1\n\n/a\n/b\n", 4, "seconds"),
    ("OTHER\nCOMPUTER\n1\n0\n/a\n/b\n", 4, "found 0"),
    ("COMPUTER\nOTHER\n1\n60\n", 5, "bottom side writes"),
    ("COMPUTER\nOTHER\n1\n60\n/a\n", 6, "top side writes"),
    ("COMPUTER\nOTHER\n1\n60\n/a\n/a\n", 6, "different"),
])
def test_errors_name_the_line(text, line, fragment):
    with pytest.raises(RecordFormatError) as info:
        parse_play_ini(text, "/x/PLAY.INI")
    assert info.value.line == line
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"/x/PLAY.INI, line {line}:")


def test_move_file_examples_from_the_statement():
    assert parse_move_file("A7A8\n1800\n-1\n") == MoveFile("A7A8", 1800, -1)
    status = parse_move_file("WIN\r\n600\r\n1200\r\n")
    assert status.is_status and status.word == WIN


def test_move_file_lower_case_and_missing_clocks():
    assert parse_move_file("h2e2") == MoveFile("H2E2", None, None)
    assert parse_move_file("lost\nsoon\n") == MoveFile("LOST", None, None)


@pytest.mark.parametrize("text", ["", "\n", "H2E", "J2E2", "H2E2X", "H2 E2", "MOVE", "H2H2", "\0\0"])
def test_malformed_move_files(text):
    with pytest.raises(RecordFormatError) as info:
        parse_move_file(text, "M1.DAT")
    assert info.value.line == 1 and "H2E2" in info.value.expected


def test_move_file_written_upper_case_with_clocks():
    assert format_move_file("h2e2", 1800.7, None) == "H2E2\r\n1800\r\n-1\r\n"
    assert format_move_file("WIN", -3, 12) == "WIN\r\n0\r\n12\r\n"


def test_status_words_speak_for_each_file_writer():
    assert status_words((0,)) == (WIN, LOST)
    assert status_words((1,)) == (LOST, WIN)
    assert status_words(()) == (DRAW, DRAW)
    assert status_words(None) == (FINISH, FINISH)


def test_poller_needs_two_identical_polls_of_new_content():
    poller = StablePoller()
    assert poller.feed(None) is None
    assert poller.feed("H2") is None            # half a file
    assert poller.feed("H2E2\n") is None        # changed: seen once
    assert poller.feed("H2E2\n") == "H2E2\n"    # same twice in a row
    assert poller.feed("H2E2\n") is None        # already taken
    assert poller.feed("H0G2\n") is None
    assert poller.feed(None) is None            # vanished: start again
    assert poller.feed("H0G2\n") is None
    assert poller.feed("H0G2\n") == "H0G2\n"


def test_poller_ignores_the_content_it_starts_from():
    poller = StablePoller(taken="OLD\n")
    assert [poller.feed("OLD\n") for _ in range(3)] == [None, None, None]


def test_poller_never_takes_an_empty_file():
    """A program that opens its file for writing truncates it first: not an answer yet."""
    poller = StablePoller()
    assert [poller.feed(x) for x in ("", "", "\r\n", "\r\n")] == [None] * 4
    assert [poller.feed(x) for x in ("A0A1\n", "", "A0A1\n", "A0A1\n")] == [None, None, None, "A0A1\n"]
