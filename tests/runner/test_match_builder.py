"""One way to build a match (runner/build.py): the command line, tournaments, the New
match form and the Xiangqi referee make the same match from the same spec, and no front
makes seats or matches on its own."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import main
import runner.build
from runner.build import MatchPlan, build_match

ROOT = Path(__file__).resolve().parents[2]
SPECS = ["bot:1", "bot:2", "bot:1"]


class Built(Exception):
    """Raised by the spy once a front has built its match: nothing is played."""


@pytest.fixture
def built(monkeypatch):
    """Every match built through :func:`runner.build.build_match`: its plan, options, seed,
    variant and each seat's (spec, seed) as :func:`runner.seats.make_seat` was asked."""
    real_build, real_make = runner.build.build_match, runner.build.make_seat
    seen: list[dict] = []
    made: list[tuple[str, int]] = []

    def make_seat(spec, plugin, seed, limits=None):
        made.append((spec, seed))
        return real_make(spec, plugin, seed, limits=limits)

    def build_match(plan, **kwargs):
        made.clear()
        match = real_build(plan, **kwargs)
        seen.append({"plan": plan, "options": match.options, "seed": match.seed,
                     "variant": match.variant, "seats": list(made), "class": type(match).__name__})
        for seat in match.seats:
            seat.close()
        raise Built
    monkeypatch.setattr(runner.build, "make_seat", make_seat)
    monkeypatch.setattr(runner.build, "build_match", build_match)
    return seen


def from_command_line(seed: int) -> None:
    args = main.build_parser().parse_args(
        ["match", "robot", "--variant", "3 players", *[w for s in SPECS for w in ("--seat", s)],
         "--option", "period=5",
         "--seed", str(seed), "--headless"])
    with pytest.raises(Built):
        main.cmd_match(args)


def from_tournament(tmp_path) -> int:
    from runner.tournament import Plan, event_from_dict, play_match, task_for
    event = event_from_dict({"name": "t", "game": "robot", "variant": "3 players", "seats": 3,
                             "options": {"period": 5},
                             "contestant": [{"name": f"p{i}", "seat": s} for i, s in enumerate(SPECS)]},
                            tmp_path, tmp_path / "event")
    plan = Plan(event)
    pairing = next(p for p in plan.pairings({}) if p.seats == (0, 1, 2))
    with pytest.raises(Built):
        play_match(task_for(event, plan, pairing, ship=False))
    return pairing.seed


def from_new_match_form(seed: int) -> None:
    from ui.app import App
    from ui.scenes.new_match import NewMatchScene, SeatChoice
    from ui.settings import Settings
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        form = app.push(NewMatchScene(app, game="robot"))
        form.variant, form.option_texts = "3 players", {"period": "5"}
        form._fit_seats()
        form.seats = [SeatChoice.from_spec(s, form.chosen.plugin) for s in SPECS]
        form.seed_text = str(seed)
        assert form.validate() == ""
        with pytest.raises(Built):
            form.start()
    finally:
        app.close()


def test_the_command_line_a_tournament_and_the_form_build_the_same_match(built, tmp_path):
    seed = from_tournament(tmp_path)           # a tournament's seed comes from its plan
    from_command_line(seed)
    from_new_match_form(seed)
    tournament, command_line, form = built
    assert command_line["seats"] == [("bot:1", seed), ("bot:2", seed + 1), ("bot:1", seed + 2)]
    for other in (tournament, form):
        assert other["seats"] == command_line["seats"]
        assert other["options"] == command_line["options"]
        assert (other["seed"], other["variant"]) == (command_line["seed"], command_line["variant"])
    assert command_line["options"]["players"] == 3 and command_line["options"]["period"] == 5
    assert command_line["variant"] == "3 players"
    assert command_line["plan"] == MatchPlan("robot", SPECS, seed, {"period": "5"}, variant="3 players")
    assert form["plan"] == replace(command_line["plan"], labels=("", "", ""))   # a person would be named
    assert tournament["plan"].labels == ("p0", "p1", "p2")


def test_the_referee_is_a_front_over_the_builder(built, tmp_path):
    from games.xiangqi.referee import build_referee_match
    with pytest.raises(Built):
        build_referee_match("bot:1", "bot:2", tmp_path, seconds=30, seed=9)
    referee, = built
    assert referee["class"] == "XiangqiMatch"
    assert referee["seats"] == [("bot:1", 9), ("bot:2", 10)]
    args = main.build_parser().parse_args(["match", "xiangqi", "--seat", "bot:1", "--seat", "bot:2",
                                           "--seed", "9", "--headless"])
    with pytest.raises(Built):
        main.cmd_match(args)
    assert built[1]["seats"] == referee["seats"] and built[1]["options"] == referee["options"]


def test_an_engine_seats_wish_is_below_what_the_user_gives():
    """The seats' option defaults (an engine's usual repetition count) sit between the
    game's defaults and the options given, the same for every front."""
    from games import registry
    xiangqi = registry.plugin("xiangqi")
    wished = {"repetition_count": 3}
    assert runner.build.match_options(xiangqi, None, {}, wished)["repetition_count"] == 3
    assert runner.build.match_options(xiangqi, None, {"repetition_count": "2"}, wished)["repetition_count"] == 2
    assert runner.build.match_options(xiangqi, None, {})["repetition_count"] != 3


def test_a_program_that_cannot_start_is_refused_and_nothing_is_left_open(tmp_path):
    plan = MatchPlan.new("hex", ["bot:1", f"ext:{tmp_path / 'no_such_bot'}"], seed=1)
    with pytest.raises(Exception, match="seat 2 .* cannot start: .*no such file"):
        build_match(plan)


FRONTS = ["main.py", "runner/rerun.py", "ui/scenes/new_match.py", "ui/scenes/replay_tools.py",
          "games/xiangqi/referee.py"]
#: What only the builder does: make seats, make matches, resolve and read options.
BUILDER_ONLY = re.compile(r"(?<![.\w])(?<!def )(make_seat|seat_option_defaults|load_option_files)\(|"
                          r"(?<!class )\b\w*Match\(|\.resolve_options\(")


def front_files() -> list[Path]:
    tournament = [ROOT / "runner/tournament.py"] + sorted((ROOT / "runner/tournament").glob("*.py"))
    return [ROOT / f for f in FRONTS] + [p for p in tournament if p.exists()]


@pytest.mark.parametrize("path", front_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_front_builds_a_match_on_its_own(path):
    found = [f"{path.name}:{n}: {line.strip()}" for n, line in enumerate(path.read_text().splitlines(), 1)
             if BUILDER_ONLY.search(line)]
    assert not found, "build matches through runner.build:\n" + "\n".join(found)
