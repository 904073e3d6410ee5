"""The solver and bot on the built-in dictionary; the verify and solve commands."""
import itertools
import os
import time
from pathlib import Path

import pytest

from games.crosswords import dictionary, solver
from games.crosswords.cli import solve_game
from games.crosswords.dictionary import load_dictionary, read_folder_words, write_folder
from games.crosswords.files import verify_output, write_output, write_input
from games.crosswords.rules import CrosswordsState, Place, Stop, random_piles
from games.crosswords.solver import greedy_game, greedy_plan, make_bot, plan_game, solve
from arena_cli import arena as run_arena

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def words():
    return load_dictionary("")


def test_builtin_dictionary(words):
    assert 100_000 < len(words) < 300_000
    for w in ("cat", "word", "zebra", "quiz"):
        assert w in words
    assert "xq" not in words and "a" not in words
    assert all(2 <= len(w) <= 12 and w.isalpha() and w.islower()
               for w in itertools.islice(words.words(), 5000))


@pytest.mark.parametrize("seed", [1, 5])
def test_every_solver_file_verifies_and_any_changed_score_is_caught(words, seed):
    piles = random_piles(seed)
    state = CrosswordsState(words, piles)
    moves = greedy_game(state)
    assert isinstance(moves[-1], Stop) and sum(isinstance(m, Place) for m in moves) > 10
    text = write_output(state, moves)
    verdict = verify_output(text, piles, words)
    assert verdict.valid, verdict.text()
    assert verdict.score == int(text.split("\n", 1)[0]) > 500
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.startswith(("play", "discard")):
            changed = list(lines)
            last = line.rsplit(" ", 1)
            changed[index] = f"{last[0]} {int(last[1].lstrip('-')) + 1}"
            if line.startswith("discard"):
                changed[index] = f"{last[0]} -{int(last[1].lstrip('-')) + 1}"
            bad = verify_output("\n".join(changed), piles, words)
            assert not bad.valid and bad.line == index + 1, (line, bad.text())


def test_planner_beats_or_equals_greedy_within_its_time(words):
    piles = random_piles(2)
    state = CrosswordsState(words, piles)
    began = time.monotonic()
    greedy = verify_output(write_output(state, greedy_game(state)), piles, words)
    budget = 3 * (time.monotonic() - began)          # room for a few runs, whatever the machine
    began = time.monotonic()
    planned_moves = plan_game(state, budget)
    assert time.monotonic() - began < budget + 2.0   # at most one turn's search past the limit
    planned = verify_output(write_output(state, planned_moves), piles, words)
    assert planned.valid and planned.score >= greedy.score


def test_a_tiny_budget_still_returns_a_complete_valid_game(words):
    piles = random_piles(7)
    state = CrosswordsState(words, piles)
    for seconds in (0.0, 0.02, 0.1):
        moves = plan_game(state, seconds)
        assert isinstance(moves[-1], Stop)
        verdict = verify_output(write_output(state, moves), piles, words)
        assert verdict.valid, (seconds, verdict.text())


class _Jump:
    """Stands for the solver's ``time`` module: real time, plus ``ahead`` seconds once
    something sets it (a deadline that expires at a chosen moment, on any machine)."""

    def __init__(self):
        self.ahead = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead


def test_a_deadline_expiring_mid_plan_returns_the_greedy_game_or_better(words, monkeypatch):
    """The clock jumps past the deadline as soon as a search other than the plain greedy
    one asks for a turn: whatever that search had, the answer is a whole game scoring at
    least the greedy one."""
    piles = random_piles(8)
    state = CrosswordsState(words, piles)
    greedy = greedy_plan(state)
    assert greedy.finished and greedy.score > 1000
    clock, turn_options = _Jump(), solver.turn_options

    def jumping(state, width, rate=0.0, fast=False):
        if rate or width > 1:
            clock.ahead = 1e6
        return turn_options(state, width, rate, fast)

    monkeypatch.setattr(solver, "time", clock)
    monkeypatch.setattr(solver, "turn_options", jumping)
    moves = plan_game(state, 60.0)
    assert clock.ahead, "the plan never went past the greedy game"
    verdict = verify_output(write_output(state, moves), piles, words)
    assert verdict.valid and isinstance(moves[-1], Stop)
    assert verdict.score >= greedy.score


def test_a_planner_bot_without_time_to_plan_still_plays_the_whole_greedy_game(words):
    """Each answer's plan is cut at once: the bot plays greedy steps, never the cut
    plan's stop, and ends with the greedy player's score."""
    state = CrosswordsState(words, random_piles(9))
    bot = make_bot(2, 0)
    bot.think = 0.0
    while not state.stopped:
        state.apply({0: bot.choose(state.clone(), 0, 1.0)})
    assert state.total == greedy_plan(CrosswordsState(words, random_piles(9))).score > 1000


def test_bot_plays_step_by_step(words):
    state = CrosswordsState(words, random_piles(3))
    bot = make_bot(1, 0)
    assert bot.level == "greedy" and make_bot(2, 0).level == "planner"
    for _ in range(8):
        move = bot.choose(state, 0, 1.0)
        state.play({0: move})
    assert state.total > 0 and state.turn == 8


def arena(*args, home):
    """``main.py crosswords ARGS`` with ARENA_HOME ``home``."""
    return run_arena("crosswords", *args, home=home)


def test_verify_command_with_a_contest_dictionary_folder(tmp_path):
    folder = write_folder(["cat", "an", "no", "to"], tmp_path / "dict", line_end="\r\n")
    assert len(list(folder.iterdir())) == 26 and read_folder_words(folder) == ["an", "cat", "no", "to"]
    piles = ("CATNO" + "E" * 61, "E" * 66, "T" * 66)
    (tmp_path / "input.txt").write_text(write_input(piles))
    state = CrosswordsState(load_dictionary(folder), piles)
    from games.crosswords.rules import Draw
    text = write_output(state, [Draw(1, "CAT"), Place(8, 8, True, "CAT"), Draw(1, "NO"),
                                Place(9, 9, True, "NO")])
    (tmp_path / "output.txt").write_text(text)
    ok = arena("verify", str(tmp_path / "output.txt"), "--input", str(tmp_path / "input.txt"),
               "--dict", str(folder), home=tmp_path / "home")
    assert ok.returncode == 0 and ok.stdout.strip().splitlines()[-1] == "VALID 50", ok.stderr
    (tmp_path / "output.txt").write_text(text.replace("(TO 6) = 23", "(TO 6) = 22"))
    bad = arena("verify", str(tmp_path / "output.txt"), "--input", str(tmp_path / "input.txt"),
                "--dict", str(folder), home=tmp_path / "home")
    line = text.split("\n").index("play J10 across NO 9 (AN 8) (TO 6) = 23") + 1
    assert bad.returncode == 1
    assert bad.stdout.strip().splitlines()[-1].startswith(f"INVALID line {line}: ")
    (tmp_path / "input.txt").write_text("ABC\n")
    broken = arena("verify", str(tmp_path / "output.txt"), "--input", str(tmp_path / "input.txt"),
                   "--dict", str(folder), home=tmp_path / "home")
    assert broken.returncode == 2 and "line 1" in broken.stderr and "Traceback" not in broken.stderr


def test_solve_command_finishes_in_time_and_verifies(tmp_path, words):
    (tmp_path / "input.txt").write_text(write_input(random_piles(4)))
    # the word graph cached as the first run would leave it (building it takes seconds)
    os.environ["ARENA_HOME"] = str(tmp_path / "home")
    cache = dictionary._cache_dir() / f"{dictionary._builtin_key()}.dawg"
    cache.parent.mkdir(parents=True)
    cache.write_bytes(words.to_bytes())
    began = time.monotonic()
    result = arena("solve", "--input", str(tmp_path / "input.txt"), "--seconds", "10",
                   "--out", str(tmp_path / "output.txt"), home=tmp_path / "home")
    elapsed = time.monotonic() - began
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("VALID ")
    assert elapsed < 10 + 3          # the limit, plus starting Python and the arena
    check = arena("verify", str(tmp_path / "output.txt"), "--input", str(tmp_path / "input.txt"),
                  home=tmp_path / "home")
    assert check.returncode == 0 and check.stdout.split()[-1] == result.stdout.split()[1]


def test_planner_on_a_fresh_dictionary_cache_is_at_least_greedy(tmp_path):
    """``solve --seconds 0.5`` on a new install: building the dictionary's cache is not
    charged to the game, so the answer scores at least what the greedy player reaches
    in that time.  The greedy player is given 80% of it: when neither finishes, two
    runs of the same greedy game on a busy machine differ by a turn either way."""
    piles = random_piles(10)
    (tmp_path / "input.txt").write_text(write_input(piles))
    seen = []
    for attempt in range(3):
        home = tmp_path / f"home{attempt}"
        result = arena("solve", "--input", str(tmp_path / "input.txt"), "--seconds", "0.5",
                       "--out", str(tmp_path / "output.txt"), home=home)
        assert result.returncode == 0, result.stderr
        assert any(home.rglob("*.dawg")), "the first run leaves the cache"
        planned = int(result.stdout.split()[1])
        state = CrosswordsState(load_dictionary(""), piles)
        greedy = solve_game(state, 0.8 * 0.5, "greedy").score
        seen.append((planned, greedy))
        if planned >= greedy > 0:
            return
    pytest.fail(f"planner vs greedy in the same time: {seen}")


def test_one_walk_for_several_hands_lists_what_each_hand_alone_lists(words):
    """``generate_hands`` (a turn's draws in one walk of the word graph) gives every
    hand exactly the placements ``generate`` gives it alone: hands that differ in how
    many of a letter they hold (EE against E) must not borrow each other's letters."""
    from games.crosswords.movegen import generate, generate_hands
    state = CrosswordsState(words, random_piles(6))
    for move in greedy_game(state)[:30]:
        state.apply({0: move})
    hands = ["SEE", "ES", "EERSTAIN", "QUIZ", "", "AEEEIRST"]
    together = generate_hands(state.board, hands, words)
    for hand, found in zip(hands, together):
        alone = generate(state.board, hand, words)
        assert sorted(map(repr, found)) == sorted(map(repr, alone)), hand
        assert all(len(c.used) == c.placed for c in found)
    assert len(together[2]) > 100 and together[4] == []
    best = generate_hands(state.board, hands, words, top=5)
    assert [c.score for c in best[2]] == sorted((c.score for c in together[2]), reverse=True)[:5]


def test_solve_counts_its_budget_on_the_clock_it_is_given(words, monkeypatch):
    """``clock=`` (the bench's CPU-second budgets) replaces wall time everywhere: a clock
    that stands still for the greedy game and jumps past the budget as soon as another
    search starts ends the solve there, with the greedy game, long before the budget's
    30 wall seconds."""
    state = CrosswordsState(words, random_piles(11))
    greedy = greedy_plan(state)
    reading = jumping_clock(monkeypatch)
    began = time.monotonic()
    plan = solve(state, 30.0, clock=lambda: reading[0])
    assert time.monotonic() - began < 20
    assert reading[0] == 1e6 and plan.finished and plan.score >= greedy.score


@pytest.mark.parametrize("seed", [1, 4, 12])
def test_the_best_first_words_are_those_of_the_whole_list_in_its_order(words, seed):
    """On the empty board the best words come from a bounded search (a word is placed
    only while its bound can reach the best found): they must be exactly the first of
    the whole list the board's walk gives (``top=None``), equal scores in its order,
    for each of several hands at once, 7- and 8-letter bonuses included."""
    from games.crosswords.movegen import clear_caches, generate, generate_hands
    piles = random_piles(seed)
    board = ["."] * 289
    hands = [piles[0][:8], piles[1][:8], piles[2][:8], "SATIRE", "EEE"]
    for top in (1, 12, 40):
        clear_caches()
        best = generate_hands(board, hands, words, top=top, first_half=True)
        for hand, found in zip(hands, best):
            whole = generate(board, hand, words, first_half=True)
            expected = sorted(whole, key=lambda c: -c.score)[:top]
            assert list(map(repr, found)) == list(map(repr, expected)), (hand, top)
    clear_caches()
    sevens = generate_hands(board, ["RETAINS"], words, top=3)[0]
    assert sevens[0].placed == 7 and sevens[0].score > 50


def jumping_clock(monkeypatch) -> list[float]:
    """A clock that stands still for the greedy game and jumps a million seconds ahead
    as soon as the solver weighs a turn for any other search (a beam, or a price on
    leftover letters).  Returns the clock's reading, ``[seconds]``."""
    reading, turn_options = [0.0], solver.turn_options

    def jumping(state, width, rate=0.0, fast=False):
        if rate or width > 1:
            reading[0] = 1e6
        return turn_options(state, width, rate, fast)

    monkeypatch.setattr(solver, "turn_options", jumping)
    return reading


def slow_machine_clock(state, monkeypatch) -> list[float]:
    """A slow machine's clock for games from ``state``: each turn the solver weighs
    costs 0.04 s at the start, falling with the letters left to 0.005 s (a fast turn
    half that).  Returns the clock's reading, ``[seconds]``, to read and reset."""
    reading, turn_options = [0.0], solver.turn_options
    letters = solver._letters_left(state)

    def costly(state, width, rate=0.0, fast=False):
        cost = 0.005 + 0.035 * solver._letters_left(state) / letters
        reading[0] += cost / 2 if fast else cost
        return turn_options(state, width, rate, fast)

    monkeypatch.setattr(solver, "turn_options", costly)
    return reading


def test_a_machine_too_slow_for_the_greedy_game_still_gets_a_whole_game(words, monkeypatch):
    """A slow machine's clock: a turn costs more while many letters are left (0.04 s a
    greedy turn at the start, falling with the letters left; a fast one half that), so
    in 1 s the greedy player is cut short, while the planner plays on as its pace
    allows and answers a complete game (its best prefix, ending with stop) that scores
    more than the cut one."""
    state = CrosswordsState(words, random_piles(13))
    reading = slow_machine_clock(state, monkeypatch)
    cut = greedy_plan(state, 1.0, clock=lambda: reading[0])
    assert not cut.finished
    reading[0] = 0.0
    plan = solve(state, 1.0, clock=lambda: reading[0])
    assert isinstance(plan.moves[-1], Stop) and plan.score > cut.score
    verdict = verify_output(write_output(state, plan.moves), state.start_piles, words)
    assert verdict.valid and verdict.score == plan.score



def _running_totals(state, moves):
    """The score after each step of ``moves`` played from ``state``."""
    state, totals = state.clone(), []
    for move in moves:
        state.apply({0: move})
        totals.append(state.total)
    return totals


def test_the_answer_stops_where_its_game_scored_most(words, monkeypatch):
    """A game may stop after any step, and the greedy game of pile set 8 ends by
    throwing letters away: with no time for more than the greedy game, the planner
    answers its best prefix, which scores more than the greedy game played out."""
    state = CrosswordsState(words, random_piles(8))
    greedy = greedy_plan(state)
    best = max(_running_totals(state, greedy.moves))
    assert best > greedy.score
    reading = jumping_clock(monkeypatch)
    plan = solve(state, 30.0, clock=lambda: reading[0])
    assert plan.score == best and isinstance(plan.moves[-1], Stop)
    verdict = verify_output(write_output(state, plan.moves), state.start_piles, words)
    assert verdict.valid and verdict.score == best


def test_a_machine_a_little_too_slow_for_the_greedy_game_still_scores_as_much(words, monkeypatch):
    """A clock on which the greedy game's turns cost more while many letters are left,
    and the planner gets 0.9 of what the whole greedy game takes: its first game plays
    in full as long as the rest, played fast, still fits (the straight-line pace used
    before went on fast from a fifth of the game and scored 3,592), and the answer
    scores at least the whole greedy game's 4,087."""
    state = CrosswordsState(words, random_piles(8))
    reading = slow_machine_clock(state, monkeypatch)
    greedy = greedy_plan(state, clock=lambda: reading[0])
    whole = reading[0]
    reading[0] = 0.0
    plan = solve(state, 0.9 * whole, clock=lambda: reading[0])
    assert isinstance(plan.moves[-1], Stop) and plan.score >= greedy.score, (plan.score, greedy.score)
    verdict = verify_output(write_output(state, plan.moves), state.start_piles, words)
    assert verdict.valid and verdict.score == plan.score
