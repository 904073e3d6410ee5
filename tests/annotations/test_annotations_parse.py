"""The annotation format (games.annotations): commands, cells in each game's notation,
garbage turned into notes line by line, caps, and the record's type check."""
import json

import pytest

from games import registry
from games.annotations import (MAX_BYTES, MAX_COMMANDS, MAX_LABEL, MAX_NOTES, MAX_TEXT,
                               Annotations, annotations_from_json, colour_of, debug_lines,
                               is_debug_line, parse_annotations)

#: game -> (a cell in its notation, the pair parse_cell gives, a word that is no cell)
CELLS = {
    "robot": ("3 4", (3, 4), "3"),
    "xiangqi": ("h2", (2, 7), "j2"),
    "hex": ("c3", (3, 3), "3c"),
    "tamquan": ("1,2", (1, 2), "1;2"),
    "crosswords": ("H8", (7, 7), "R1"),
}


@pytest.mark.parametrize("game", sorted(CELLS))
def test_every_game_names_its_cells(game):
    parse_cell = registry.plugin(game).new_game().parse_cell
    text, cell, garbage = CELLS[game]
    assert parse_cell(text) == cell
    assert parse_cell(garbage) is None
    assert parse_cell("") is None


@pytest.mark.parametrize("game", sorted(CELLS))
def test_every_command_reads_in_every_game(game):
    parse_cell = registry.plugin(game).new_game().parse_cell
    text, cell, _ = CELLS[game]
    source = (f"mark {text} red best\nline {text} {text}\narrow {text} {text} #0f0\n"
              f"text blue hello there\nheat {text} -2.5\n")
    result = parse_annotations(source, parse_cell)
    assert result.notes == []
    assert result.commands == [
        ["mark", list(cell), "#e53935", "best"],
        ["line", list(cell), list(cell), ""],
        ["arrow", list(cell), list(cell), "#00ff00"],
        ["text", "#1e88e5", "hello there"],
        ["heat", list(cell), -2.5],
    ]
    assert annotations_from_json(json.loads(json.dumps(result.to_json()))).commands == result.commands


def test_robot_cells_of_two_words_are_read_shortest_first():
    parse_cell = registry.plugin("robot").new_game().parse_cell
    result = parse_annotations("arrow 1 2 3 4 green\nmark 5 6 7 label", parse_cell)
    assert result.commands == [["arrow", [1, 2], [3, 4], "#43a047"], ["mark", [5, 6], "", "7 label"]]


def test_garbage_lines_become_notes_naming_the_line_and_the_rest_is_kept():
    parse_cell = registry.plugin("hex").new_game().parse_cell
    text = "mark c3\nfly c3\nmark zz9\nheat c3 lots\nheat c3 inf\narrow c3\n\n# a comment\ntext\nmark d4 blue"
    result = parse_annotations(text, parse_cell)
    assert result.commands == [["mark", [3, 3], "", ""], ["mark", [4, 4], "#1e88e5", ""]]
    assert [n.split(":")[0] for n in result.notes] == [
        "DEBUG.OUT line 2", "DEBUG.OUT line 3", "DEBUG.OUT line 4", "DEBUG.OUT line 5",
        "DEBUG.OUT line 6", "DEBUG.OUT line 9"]
    assert "unknown command 'fly'" in result.notes[0]
    assert "'zz9' is not a cell" in result.notes[1]
    assert "not a number" in result.notes[2]


def test_caps_hold_bytes_commands_lines_labels_notes():
    parse_cell = registry.plugin("hex").new_game().parse_cell
    many = parse_annotations("mark a1\n" * (MAX_COMMANDS + 50), parse_cell)
    assert len(many.commands) == MAX_COMMANDS
    assert any(f"more than {MAX_COMMANDS} commands" in n for n in many.notes)
    huge = parse_annotations("heat a1 1\n" * (MAX_BYTES // 4), parse_cell)
    assert any(f"only the first {MAX_BYTES} bytes" in n for n in huge.notes)
    long_line = parse_annotations("text " + "x" * 500, parse_cell)
    assert long_line.commands == [] and "longer than" in long_line.notes[0]
    clipped = parse_annotations(f"mark a1 red {'L' * 50}\ntext {'T' * 150}", parse_cell)
    assert len(clipped.commands[0][3]) == MAX_LABEL and len(clipped.commands[1][2]) == MAX_TEXT
    noisy = parse_annotations("nonsense\n" * 100, parse_cell)
    assert len(noisy.notes) == MAX_NOTES + 1 and noisy.notes[-1] == "(further notes left out)"
    assert parse_annotations("mark a1\0", parse_cell).commands == []


def test_debug_lines_of_line_protocols():
    assert is_debug_line("# debug mark c3") and is_debug_line("info string # debug text hi")
    assert not is_debug_line("#debugging") and not is_debug_line("= c3")
    assert debug_lines("= ok\n# debug mark c3\n  # DEBUG heat c3 1\n") == ["mark c3", "heat c3 1"]
    parse_cell = registry.plugin("hex").new_game().parse_cell
    result = parse_annotations("# debug mark c3\ninfo string # debug heat d4 2", parse_cell, "# debug lines")
    assert result.commands == [["mark", [3, 3], "", ""], ["heat", [4, 4], 2]]


def test_colours():
    assert colour_of("RED") == "#e53935" and colour_of("#abc") == "#aabbcc"
    assert colour_of("#12345g") is None and colour_of("best") is None


def test_a_crashing_cell_parser_is_a_note_not_a_crash():
    def broken(text):
        raise RuntimeError("bug")
    result = parse_annotations("mark a1", broken)
    assert result.commands == [] and "not a cell" in result.notes[0]


@pytest.mark.parametrize("bad", [
    [], {"draw": "x"}, {"draw": [["mark", [1], "", ""]]}, {"draw": [["mark", [1, 2], "red", ""]]},
    {"draw": [["heat", [1, 2], float("nan")]]}, {"draw": [["heat", [1, 2], True]]},
    {"draw": [["blink", [1, 2]]]}, {"draw": [], "notes": [3]},
    {"draw": [["text", "", "x" * (MAX_TEXT + 1)]]}, {"draw": [["mark", [1, 2], ""]]},
    {"draw": [["mark", [1, 2], "", ""]] * (MAX_COMMANDS + 1)},
])
def test_the_record_form_is_type_checked(bad):
    with pytest.raises(ValueError):
        annotations_from_json(bad)


def test_empty_annotations_are_falsy():
    assert not Annotations() and Annotations(notes=["x"])
