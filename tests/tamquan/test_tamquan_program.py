"""Tam Quan programs through STATE.INP / MOVE.OUT: the files, whole headless matches
(Python and C examples), and bad answers repaired with the reason in the record."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.api import MoveSyntaxError
from games.tamquan import PLUGIN
from games.tamquan.protocol import (format_move_out, move_text_of, read_state_inp,
                                    write_state_inp)
from games.tamquan.rules import TamQuanGame, parse_move, state_from_rows
from runner.match import Match
from runner.seats import make_seat

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "games" / "tamquan" / "examples"
PROGRAMS = Path(__file__).resolve().parent / "programs"
PY = sys.executable
GAME = TamQuanGame()


def test_state_inp_during_setup_and_play():
    state = GAME.new_initial_state(GAME.spec.resolve_options("5x5-2teams"), 0)
    state.play({0: parse_move("zone 1: 0,1 0,3 0,4")})
    text = write_state_inp(state, 1)
    assert text == ("5 1\nB 3\n.A.AA\n.....\n.....\n.....\n.....\n1\n"
                    "2 5 4 0 4 1 4 2 4 3 4 4\n")
    seen = read_state_inp(text)
    assert seen.team == "B" and seen.zones == {2: [(4, c) for c in range(5)]}
    state = state_from_rows([".....", ".AB..", "..A..", "..BA.", "....."], to_move=0)
    text = write_state_inp(state, 0)
    assert text.splitlines()[:2] == ["5 2", "A 3"] and text.endswith("\n0\n")
    assert read_state_inp(text).rows[1] == ".AB.."


def test_move_out_reads_both_shapes():
    assert move_text_of("2\n4 0\n4 2\n4 4\n") == "zone 2: 4,0 4,2 4,4"
    assert move_text_of("1 1 1 2\n2 2 2 1\n") == "1,1-1,2 2,2-2,1"
    assert format_move_out(parse_move("1,1-1,2 2,2-2,1")) == "1 1 1 2\n2 2 2 1\n"
    for bad in ("", "go north", "1 1 1 2 3 4", "1 -1 1 2", "0\n1 1"):
        with pytest.raises(MoveSyntaxError):
            move_text_of(bad)


def run_match(tmp_path, specs, variant="5x5-2teams", limit=20):
    options = GAME.spec.resolve_options(variant, {"turn_limit": limit})
    seats = [make_seat(spec, PLUGIN, 3 + i) for i, spec in enumerate(specs)]
    record = tmp_path / "m.arena.jsonl"
    match = Match(PLUGIN, options, seats, seed=3, record_path=record, workdir=tmp_path)
    outcome = match.run()
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return match, outcome, [t for t in lines if t["type"] == "turn"]


def test_headless_match_from_the_command_line(tmp_path):
    out = tmp_path / "out"
    done = subprocess.run([PY, str(ROOT / "main.py"), "match", "tamquan",
                           "--seat", f"ext:{PY} {EXAMPLES / 'greedy_bot.py'}", "--seat", "bot:1",
                           "--headless", "--out", str(out), "--seed", "4",
                           "--option", "turn_limit=16"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = next(out.glob("tamquan-*.arena.jsonl"))
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    turns = [t for t in lines if t["type"] == "turn"]
    mine = [t["answers"]["0"] for t in turns if "0" in t["answers"]]
    assert mine and all(a.get("failure") is None for a in mine)
    assert mine[0]["given"].startswith("5 0\nA 3\n")
    assert lines[-1]["type"] == "result"


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory):
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.skip("no C compiler is installed")
    exe = tmp_path_factory.mktemp("c") / "greedy_bot"
    subprocess.run([gcc, "-O2", "-o", str(exe), str(EXAMPLES / "greedy_bot.c")], check=True)
    return exe


def test_c_example_against_garbage_four_teams(tmp_path, c_bot):
    specs = [f"ext:{c_bot}", f"ext:{PY} {PROGRAMS / 'garbage_bot.py'}", "bot:2",
             f"ext:{PY} {EXAMPLES / 'greedy_bot.py'}"]
    match, outcome, turns = run_match(tmp_path, specs, "8x8-4teams", limit=8)
    assert outcome is not None and match.state.is_terminal()
    good = [t["answers"][s] for t in turns for s in ("0", "3") if s in t["answers"]]
    assert all(a.get("failure") is None for a in good)
    bad = [t["answers"]["1"] for t in turns if "1" in t["answers"]]
    assert bad and all(a["failure"] == "bad-file" for a in bad)
    assert "expected whole numbers only" in bad[0]["detail"]
    assert "the referee played zone" in bad[0]["notes"][-1]
    assert any("took their first free step" in a["notes"][-1] for a in bad[1:])
    # The repaired team still played every turn.
    assert all("1" in t["moves"] for t in turns if "1" in t["answers"])


def test_partial_answer_keeps_its_valid_step(tmp_path):
    specs = [f"ext:{PY} {PROGRAMS / 'partial_bot.py'}", "bot:1"]
    match, outcome, turns = run_match(tmp_path, specs, limit=4)
    play = [t["answers"]["0"] for t in turns[2:] if "0" in t["answers"]]
    assert play and play[0]["failure"] == "illegal-move"
    assert "kept 1 answered step" in play[0]["notes"][-1]
    first = read_state_inp(play[0]["given"])
    r, c, a, b = map(int, play[0]["answered"].split()[:4])
    assert first.rows[r][c] == "A"
    move = next(t["moves"]["0"] for t in turns[2:] if "0" in t["answers"])
    assert move.startswith(f"{r},{c}-{a},{b}")
