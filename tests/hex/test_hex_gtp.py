"""GTP seats with a small Benzene-convention engine (tests/hex/gtp_engine.py)."""
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from games.api import MoveSyntaxError, Termination
from games.hex.gtp import parse_genmove, parse_response, setup_commands
from games.hex.notation import from_hexgui, to_hexgui
from games.hex.rules import HexGame, HexMove
from games.registry import plugin
from runner.match import Match, TimeControl
from runner.seats import make_seat

ENGINE = Path(__file__).resolve().parent / "gtp_engine.py"
HEX = plugin("hex")


def engine(*args: str) -> str:
    return "gtp:" + " ".join(shlex.quote(str(x)) for x in (sys.executable, ENGINE, *args))


def play(specs, size=7, seed=1, per_move=None, options=None, tmp_path=None):
    seats = [make_seat(spec, HEX, seed) for spec in specs]
    match = Match(HEX, {"size": size, **(options or {})}, seats, seed=seed,
                  time_control=TimeControl(per_move=per_move, total=None),
                  workdir=tmp_path)
    outcome = match.run()
    assert match.error == ""
    return match, outcome


def engine_verdict(size: int, moves: list[HexMove]) -> str:
    """Replay our moves into a fresh engine by hand and ask it who won (B+ / W+)."""
    script = [f"boardsize {size}"]
    for i, move in enumerate(moves):
        script.append(f"play {'bw'[i % 2]} {to_hexgui(move)}")
    script += ["final_score", "quit"]
    out = subprocess.run([sys.executable, str(ENGINE)], input="\n".join(script) + "\n",
                         capture_output=True, text=True, timeout=30).stdout
    responses = [r for r in out.split("\n\n") if r.strip()]
    assert all(r.startswith("=") for r in responses), out
    return responses[-2].lstrip("= ").strip()


# ====================================================================== pure functions
def test_hexgui_names_are_transposed():
    assert to_hexgui(HexMove(1, 1)) == "a1"
    assert to_hexgui(HexMove(3, 5)) == "c5"          # our row 3 -> HexGui column c
    assert HexMove(3, 5).text() == "e3"              # our own text: column letter, row number
    assert from_hexgui("C5") == HexMove(3, 5)
    assert from_hexgui("swap-pieces") == HexMove.SWAP
    for row in range(1, 21):
        for col in range(1, 21):
            assert from_hexgui(to_hexgui(HexMove(row, col))) == HexMove(row, col)
    with pytest.raises(MoveSyntaxError):
        from_hexgui("z99x")


def test_gtp_response_parsing():
    assert parse_response(["= c5"]) == (True, "c5")
    assert parse_response(["=12 d4"]) == (True, "d4")
    assert parse_response(["? unknown command"]) == (False, "unknown command")
    assert parse_response(["= ", "  a b", " 1 ."]) == (True, "a b\n 1 .")
    assert parse_genmove("resign") is None
    assert parse_genmove("b2") == HexMove(2, 2)


def test_setup_plays_the_start_position():
    state = HexGame().new_initial_state({"size": 3, "position": "1../..2/..."}, seed=0)
    assert setup_commands(state) == ["clear_board", "play b a1", "play w b3"]


# ====================================================================== matches
@pytest.mark.parametrize("side", [0, 1])
def test_engine_seat_plays_a_full_match(side, tmp_path):
    specs = [engine("--seed", "3"), "bot:1"] if side == 0 else ["bot:1", engine("--seed", "3")]
    match, outcome = play(specs, size=7, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN
    assert outcome.winners == (side,)               # greedy beats random
    verdict = engine_verdict(7, match.states[-1].history)
    assert verdict == ("B+" if outcome.winners == (0,) else "W+")
    answers = [t.answers[side] for t in match.turns if side in t.answers]
    assert "boardsize 7" in answers[0]["given"] and f"genmove {'bw'[side]}" in answers[0]["given"]
    assert answers[1]["given"].endswith(f"genmove {'bw'[side]}")
    assert "B" in answers[-1]["stdout"] or "W" in answers[-1]["stdout"]   # showboard


def test_engine_against_engine_and_the_engines_own_verdict(tmp_path):
    for seed in range(4):
        match, outcome = play([engine("--random", "--seed", str(seed)),
                               engine("--random", "--seed", str(seed + 10))], size=5, seed=seed,
                              tmp_path=tmp_path)
        assert outcome.reason is Termination.WIN
        expected = "B+" if outcome.winners == (0,) else "W+"
        assert engine_verdict(5, match.states[-1].history) == expected


def test_random_games_agree_with_the_engines_rules():
    """Our winner and the Benzene-convention engine's agree on random games (the mapping)."""
    import random
    rng = random.Random(5)
    for size in (3, 4, 6):
        for _ in range(5):
            state = HexGame().new_initial_state({"size": size}, seed=0)
            while not state.is_terminal():
                state.push(rng.choice(state.legal_moves(state.current)))
            expected = "B+" if state.outcome().winners == (0,) else "W+"
            assert engine_verdict(size, state.history) == expected


def test_start_position_is_sent_to_the_engine(tmp_path):
    match, outcome = play([engine(), "bot:1"], size=5,
                          options={"position": "1..../....2/...../...../....."}, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN
    given = match.turns[0].answers[0]["given"]
    assert "play b a1" in given and "play w b5" in given


def test_two_number_boardsize_fallback(tmp_path):
    match, outcome = play([engine("--one-number-boardsize-error"), "bot:1"], size=5, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN
    assert "boardsize 5 5" in match.turns[0].answers[0]["given"]


def test_engine_crash_and_hang(tmp_path):
    _, outcome = play([engine("--crash-after", "1"), "bot:1"], tmp_path=tmp_path)
    assert outcome.reason is Termination.CRASH and outcome.winners == (1,)
    match, outcome = play(["bot:1", engine("--hang-after", "1")], per_move=0.5, tmp_path=tmp_path)
    assert outcome.reason is Termination.TIMEOUT and outcome.winners == (0,)
    assert match.seats[1].channel.process.proc.poll() is not None


def test_missing_engine_is_a_crash(tmp_path):
    _, outcome = play(["gtp:/no/such/engine", "bot:1"], tmp_path=tmp_path)
    assert outcome.reason is Termination.CRASH
