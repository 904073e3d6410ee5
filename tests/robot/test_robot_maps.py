"""Robot maps: the shipped ones are valid, malformed ones are refused with the line."""
import pytest

from games.api import RecordFormatError
from games.robot.maps import MapError, load_map, map_text, parse_map, shipped_maps


def test_at_least_eight_shipped_maps_all_valid_and_connected():
    names = shipped_maps()
    assert len(names) >= 8
    sizes = set()
    for name in names:
        robot_map = parse_map(map_text(name), f"{name}.txt", strict=True)
        assert 11 <= robot_map.height <= 21 and 11 <= robot_map.width <= 21
        assert robot_map.height % 2 == 1 and robot_map.width % 2 == 1
        assert 5 <= robot_map.period <= 20
        sizes.add((robot_map.height, robot_map.width))
    assert (11, 11) in sizes and (21, 21) in sizes


def test_spaces_between_cells_are_allowed():
    spaced = "3 5 1\n. . # . .\n. . . . .\n. . # . .\n"
    assert parse_map(spaced).rows == ("..#..", ".....", "..#..")


@pytest.mark.parametrize("text,line,words", [
    ("", 1, "M N K"),
    ("5 5\n", 1, "three whole numbers"),
    ("4 5 1\n", 1, "odd"),
    ("5 5 1\n.....\n.....\n", 4, "file ends early"),
    ("3 3 1\n...\n..\n...\n", 3, "3 cells in map row 1"),
    ("3 3 1\n...\n.x.\n...\n", 3, "found 'x'"),
    ("3 3 1\n...\n...\n...\nextra\n", 5, "end of the file"),
    ("3 3 1\n.#.\n##.\n..#\n", 2, "connected"),
    ("3 3 1\n###\n###\n###\n", 2, "open"),
])
def test_malformed_maps_name_file_line_and_expectation(text, line, words):
    with pytest.raises(MapError) as info:
        parse_map(text, "bad.txt")
    assert isinstance(info.value, RecordFormatError)
    assert info.value.line == line and words in info.value.expected and "bad.txt" in str(info.value)


def test_strict_mode_enforces_the_statement_bounds():
    small = "7 7 2\n" + ".......\n" * 7
    parse_map(small)
    with pytest.raises(MapError):
        parse_map(small, strict=True)


def test_load_map_reports_a_missing_file(tmp_path):
    with pytest.raises(MapError) as info:
        load_map(tmp_path / "nope.txt")
    assert "nope.txt" in str(info.value)
    good = tmp_path / "m.txt"
    good.write_text("3 3 1\n...\n.#.\n...\n")
    assert load_map(good).rows[1] == ".#."
    with pytest.raises(MapError):
        map_text("no-such-map")


def test_maps_command_lists_and_checks(tmp_path, capsys):
    import main
    assert main.main(["robot", "maps"]) == 0
    assert "scatter-21" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text("11 11 5\n" + "." * 11 + "\n")
    assert main.main(["robot", "maps", str(bad)]) == 2
    assert "line 3" in capsys.readouterr().out
