"""A program never sees the arena's environment, at either sandbox level.

The spy tests read other processes' environments (which the strict level hides); this
one runs a program that reports its own (tests/hostile/env_reporter.py) through a real
match and seat, with a secret variable set in the arena's process.
"""
import json
import shlex

from games.hex import PLUGIN
from runner.match import Match, TimeControl
from runner.seats import make_seat
from tests.hostile.conftest import PY, ROOT

REPORTER = ROOT / "tests" / "hostile" / "env_reporter.py"
HONEST = ROOT / "games" / "hex" / "examples" / "shortest_path.py"
SECRET_NAME, SECRET_VALUE = "ARENA_TEST_SECRET_TOKEN", "zqxw-env-secret-7781"


def reports(world, record) -> list[dict]:
    """Every environment the reporter wrote: env.json files under the match folder and
    the ``ENV {...}`` lines of its stderr in the record."""
    found = [json.loads(p.read_text()) for p in world.match_dir.rglob("env.json")]
    for line in record.read_text().splitlines():
        obj = json.loads(line)
        for answer in (obj.get("answers") or {}).values():
            for text in str(answer.get("stderr", "")).splitlines():
                if text.startswith("ENV {"):
                    found.append(json.loads(text[4:]))
    return found


def test_a_program_does_not_get_the_arenas_environment(world, monkeypatch):
    monkeypatch.setenv(SECRET_NAME, SECRET_VALUE)
    specs = [f"ext:{shlex.quote(PY)} {shlex.quote(str(REPORTER))}",
             f"ext:{shlex.quote(PY)} {shlex.quote(str(HONEST))}"]
    seats = [make_seat(spec, PLUGIN, 5 + i, limits=world.limits()) for i, spec in enumerate(specs)]
    record = world.match_dir.with_suffix(".arena.jsonl")
    match = Match(PLUGIN, {"size": 4}, seats, seed=5, record_path=record,
                  time_control=TimeControl(per_move=3.0, total=30), workdir=world.match_dir)
    match.run()
    seen = reports(world, record)
    assert seen, "the reporter's environment was not found (env.json or its stderr)"
    for env in seen:
        assert "PATH" in env                      # a real environment, not an empty one
        assert SECRET_NAME not in env and SECRET_VALUE not in json.dumps(env), \
            "the arena's secret variable reached the program"
    assert SECRET_VALUE not in record.read_text()
