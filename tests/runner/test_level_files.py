"""Every game's measured ladder (games/<game>/levels.json, made by bench/level_ladder.py)
parses, has an entry with words for every level the game offers, and says how it was
made; a malformed file is an error naming the file, the line and what was expected."""
import json
import re

import pytest

from games import registry
from runner.levels import LevelsFileError, levels_path, read_levels, strength_text

GAMES = [p for p in registry.all_plugins() if p.bot_levels]


@pytest.mark.parametrize("plugin", GAMES, ids=lambda p: p.name)
def test_every_level_of_every_game_has_a_measured_entry_with_words(plugin):
    path = levels_path(plugin.name)
    levels = read_levels(path)
    assert sorted(levels) == list(range(1, len(plugin.bot_levels) + 1))
    for number, entry in levels.items():
        assert entry["measured_as"].split()[0] == f"bot:{number}"
        assert strength_text(entry), f"{path}: level {number} has no words"
    made = json.loads(path.read_text(encoding="utf-8"))
    assert re.search(r"(nice -n -?\d+ )?python bench/level_ladder.py " + plugin.name, made["command"])
    assert made["date"] and made["load_before"].startswith("load average") and made["records"]
    assert (path.parent / "LEVELS.md").is_file()


def _write(tmp_path, levels):
    path = tmp_path / "levels.json"
    path.write_text(json.dumps({"game": "x", "levels": levels}, indent=1), encoding="utf-8")
    return path


def test_a_level_without_its_number_is_named_with_its_line(tmp_path):
    path = _write(tmp_path, [{"level": 1, "elo": 0}, {"elo": 300}])
    with pytest.raises(LevelsFileError) as error:
        read_levels(path)
    assert str(path) in str(error.value) and 'levels[1]: an object with a whole "level"' in str(error.value)
    assert error.value.line == 8          # the second entry's opening brace


def test_a_score_out_of_range_and_text_that_is_not_json_are_named(tmp_path):
    path = _write(tmp_path, [{"level": 1, "vs_below": {"score": 1.5, "low95": 0.2, "high95": 1}}])
    with pytest.raises(LevelsFileError, match="level 1: vs_below needs score"):
        read_levels(path)
    path.write_text('{"levels": [\n{"level": 1,}\n]}', encoding="utf-8")
    with pytest.raises(LevelsFileError, match=r"line 2: a JSON object"):
        read_levels(path)


def test_the_words_follow_the_measured_figures():
    entry = {"level": 3, "category": "club", "vs_below": {"score": 0.854, "low95": 0.7, "high95": 0.95},
             "vs_anchor": {"anchor": "ElephantEye depth 3", "score": 0.45, "low95": 0.25, "high95": 0.66}}
    assert strength_text(entry) == ("club player; scores 85% against level 2; "
                                    "even with ElephantEye depth 3")
    entry["vs_anchor"].update(score=0.9, low95=0.7, high95=0.97)
    assert strength_text(entry).endswith("stronger than ElephantEye depth 3")
    assert strength_text({"level": 2, "mean": 4120.4, "ratio": 1.034}) == \
        "about 4120 points a game; 3% more than level 1"
