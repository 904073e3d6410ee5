"""One list of game titles: each game's rules declare its title (``GameSpec.title``), and
Home, How to play, the board and Settings all show that one, in the interface's language."""
from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from games import registry
from ui import catalog

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_titles():
    forget = getattr(catalog.game_title, "cache_clear", lambda: None)
    forget()
    yield
    forget()


@pytest.mark.parametrize("name", registry.GAME_PACKAGES)
def test_every_screen_names_a_game_by_its_plugins_declared_title(name):
    spec = registry.plugin(name).new_game().spec
    assert catalog.game_title(name) == spec.title
    assert next(e.title for e in catalog.game_entries() if e.name == name) == spec.title


def test_a_title_changed_in_the_games_rules_shows_everywhere(monkeypatch):
    plugin = registry.plugin("crosswords")
    game = plugin.new_game()
    renamed = type(game)()
    monkeypatch.setattr(type(renamed), "spec", replace(game.spec, title="Words Renamed"), raising=False)
    monkeypatch.setattr(type(plugin), "new_game", lambda self: renamed)
    assert catalog.game_title("crosswords") == "Words Renamed"
    assert next(e.title for e in catalog.game_entries() if e.name == "crosswords") == "Words Renamed"


def test_the_interface_keeps_no_title_list_of_its_own():
    for path in (ROOT / "ui").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                assert len(keys & set(registry.GAME_PACKAGES)) < 3, f"{path}: a second list keyed by game"


def test_a_game_that_cannot_load_keeps_its_name(monkeypatch):
    def broken(name):
        raise KeyError(name)
    monkeypatch.setattr(registry, "plugin", broken)
    assert catalog.game_title("crosswords") == "Crosswords"
