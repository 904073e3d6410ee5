"""A half-written or broken game package does not take the others down."""
import pytest

from games import registry
from games.api import GameSetupError

GOOD = ("hex", "xiangqi", "robot")
INSTALLED = [p.name for p in registry.all_plugins()]     # every game on this branch, loaded
PLUGIN_SOURCE = ('from games.registry import GamePlugin\n'
                 'PLUGIN = GamePlugin(name="{name}", game="games.{name}.rules:Game", cli="games.{name}.cli:register")\n')


def test_the_games_load_and_none_is_broken():
    assert [p.name for p in registry.all_plugins()][:3] == list(GOOD)
    assert registry.broken_plugins() == {}


def loaded_names() -> list[str]:
    """The games that load, which must include the finished ones and no broken one."""
    names = [p.name for p in registry.all_plugins()]
    assert names[:3] == list(GOOD)
    return names


def test_a_broken_package_is_listed_with_its_error_and_the_others_still_load(broken_game):
    name = broken_game()
    assert loaded_names() == INSTALLED
    broken = registry.broken_plugins()
    assert list(broken) == [name]
    assert broken[name].startswith("ModuleNotFoundError: No module named 'games.brokenx.rulez'")
    assert "__init__.py, line 1" in broken[name] and "\n" not in broken[name]
    with pytest.raises(GameSetupError, match="'brokenx' cannot be loaded: ModuleNotFoundError"):
        registry.plugin(name)
    assert registry.plugin("hex").new_game().spec.name == "hex"


@pytest.mark.parametrize("source, expected", [
    ("raise RuntimeError('half written')\n", "RuntimeError: half written"),
    ("def broken(:\n", "SyntaxError"),
    ("x = 1\n", "games.brokenx declares no PLUGIN"),
    (PLUGIN_SOURCE.format(name="other"), "PLUGIN is named 'other', not 'brokenx'"),
])
def test_every_way_of_failing_is_reported(broken_game, source, expected):
    name = broken_game(source=source)
    assert expected in registry.broken_plugins()[name]
    assert loaded_names() == INSTALLED


def test_a_game_not_written_yet_is_neither_listed_nor_broken(monkeypatch):
    monkeypatch.setattr(registry, "GAME_PACKAGES", (*registry.GAME_PACKAGES, "notyetwritten"))
    assert "notyetwritten" not in [p.name for p in registry.all_plugins()]
    assert "notyetwritten" not in registry.broken_plugins()
    with pytest.raises(GameSetupError, match="no game named 'notyetwritten'"):
        registry.plugin("notyetwritten")


def test_help_works_and_names_the_broken_game_once_on_stderr(broken_game, capsys):
    import main
    broken_game()
    parser = main.build_parser()
    assert "brokenx" in parser.broken_games
    with pytest.raises(SystemExit) as exit_:
        main.main(["--help"])
    assert exit_.value.code == 0
    out, err = capsys.readouterr()
    assert "usage: arena" in out and "brokenx" in out
    assert len(err.splitlines()) == 1
    assert err.startswith("arena: game 'brokenx' cannot be loaded: ModuleNotFoundError: "
                          "No module named 'games.brokenx.rulez' (games/brokenx/__init__.py, line 1)")


def test_a_match_of_the_broken_game_ends_with_one_line_naming_the_error(broken_game, capsys, tmp_path):
    import main
    broken_game()
    code = main.main(["match", "brokenx", "--seat", "bot", "--seat", "bot", "--headless",
                      "--out", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "arena: game 'brokenx' cannot be loaded: ModuleNotFoundError: No module named "
        "'games.brokenx.rulez' (games/brokenx/__init__.py, line 1)"]


def test_the_broken_games_tools_say_why_and_the_others_still_run(broken_game, capsys, tmp_path):
    import main
    broken_game()
    assert main.main(["brokenx", "perft", "--help"]) == 2
    assert "cannot be loaded" in capsys.readouterr().err
    code = main.main(["match", "hex", "--seat", "bot:1", "--seat", "bot:1", "--option", "size=3",
                      "--headless", "--seed", "1", "--out", str(tmp_path)])
    assert code == 0
    out, err = capsys.readouterr()
    assert out.startswith("hex: ") and "brokenx" in err


def test_a_game_whose_tools_fail_to_import_keeps_its_other_parts(broken_game, capsys):
    import main
    broken_game("toolless", source=PLUGIN_SOURCE.format(name="toolless"),
                files={"cli.py": "import no_such_module_here\n"})
    assert "toolless" in [p.name for p in registry.all_plugins()]
    assert main.main(["toolless", "anything"]) == 2
    err = capsys.readouterr().err
    assert "toolless tools unavailable: ModuleNotFoundError: No module named 'no_such_module_here'" in err
