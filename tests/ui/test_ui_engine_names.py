"""Engines named by themselves, through the window: once an engine has told its name
(GTP ``name``/``version``, UCI ``id name``), the player panel, the debug panel, the
record and Home's recent list show it instead of the command that started it; a GTP
engine's search statistics (MoHex's) show in the debug panel, live and in the replay."""
import shlex
import sys
from pathlib import Path

from ui_helpers import pump, wait_until

ROOT = Path(__file__).resolve().parents[2]
GTP = " ".join(shlex.quote(x) for x in (sys.executable, str(ROOT / "tests" / "hex" / "gtp_engine.py")))
UCI = " ".join(shlex.quote(x) for x in (sys.executable, str(ROOT / "tests" / "xiangqi" / "programs"
                                                             / "fake_engine.py")))


def start_match(home, tmp_path, game: str, specs: list[str], options=None):
    from games import registry
    from runner.match import Match, default_record_path
    from runner.seats import make_seat
    from ui.scenes.match import MatchScene
    plugin = registry.plugin(game)
    seats = [make_seat(spec, plugin, 1) for spec in specs]
    options = plugin.new_game().spec.resolve_options(None, options or {})
    match = Match(plugin, options, seats, seed=1, record_path=default_record_path(tmp_path, game))
    scene = home.push(MatchScene(home, match))
    match.set_pace(None)
    return match, scene


def test_a_gtp_engine_shows_its_name_and_search_live_in_the_replay_and_on_home(home, tmp_path):
    from runner.records import open_replay
    from ui.recent import summarize
    from ui.scenes.replay import ReplayView
    match, scene = start_match(home, tmp_path, "hex",
                               [f"gtp:{GTP} --name FakeHex --version 3.1 --stats", "bot:2"],
                               {"size": "5"})
    assert scene.player_lines()[0].label.startswith("GTP ")        # the command, before it starts
    assert wait_until(home, lambda: match.outcome is not None, timeout=60)
    pump(home)
    assert scene.player_lines()[0].label == "FakeHex 3.1"
    assert scene.player_lines()[1].label == scene.seat_labels[1] != "FakeHex 3.1"
    scene.toggle_debug(0)
    scene.select(1)
    pump(home)
    live = " ".join(scene.debug_text(0).split())
    assert "Engine: FakeHex 3.1" in live
    assert "win rate 26%" in live and "100 playouts" in live and "300 nodes" in live, live
    assert f"Best line: {match.turns[0].moves[0]} " in live
    home.pop()
    assert "FakeHex 3.1 vs " in summarize(match.record_path).players
    view = home.push(ReplayView(home, open_replay(str(match.record_path))))
    pump(home)
    assert view.player_lines()[0].label == "FakeHex 3.1"
    view.toggle_debug(0)
    view.go(1)
    pump(home)
    replayed = " ".join(view.debug_text(0).split())
    head = live.split("— Given —")[0]
    assert "win rate 26%" in head and replayed.startswith(head)


def test_a_uci_engine_replaces_its_command_in_the_player_panel(home, tmp_path):
    match, scene = start_match(home, tmp_path, "xiangqi", [f"uci:{UCI} movetime=20", "bot:1"],
                               {"no_capture_limit": "4"})
    assert wait_until(home, lambda: len(match.turns) >= 1 or match.outcome is not None, timeout=60)
    assert match.seats[0].label == "Fake engine"
    assert wait_until(home, lambda: scene.player_lines()[0].label == "Fake engine", timeout=5), \
        scene.player_lines()[0].label
    match.stop()
