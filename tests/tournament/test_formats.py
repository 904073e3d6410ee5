"""The plans of the formats, the scoring, the ratings and the SPRT, without playing;
and an event whose contestants crash, hang or cannot start still ends, with reasons."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from runner import ratings
from runner.tournament import EventError, Plan, event_from_dict, load_event, run_event

from tournament_events import ROOT, TINY_MAP, results


def event(tmp_path, n=6, **extra):
    data = {"name": "t", "game": "hex", "variant": "5x5", "seed": 3,
            "contestant": [{"name": f"p{i}", "seat": "bot:1"} for i in range(n)], **extra}
    return event_from_dict(data, tmp_path, tmp_path / "out")


def fake_result(p, winner_seat=0):
    ranks = [1, 2] if winner_seat == 0 else [2, 1] if winner_seat == 1 else [1, 1]
    return {"id": p.id, "index": p.index, "contestants": [f"p{s}" for s in p.seats],
            "outcome": {"ranks": ranks, "scores": [1.0 if r == 1 else 0.0 for r in ranks]}}


def test_double_round_robin_plays_every_ordered_pair_once(tmp_path):
    plan = Plan(event(tmp_path, rounds=2)).pairings({})
    assert sorted(p.seats for p in plan) == sorted(itertools.permutations(range(6), 2))
    assert len({p.id for p in plan}) == len({p.seed for p in plan}) == 30


def test_ids_and_seeds_depend_on_the_event_not_on_the_folder(tmp_path):
    a = Plan(event(tmp_path)).pairings({})
    b = Plan(event_from_dict({"name": "t", "game": "hex", "variant": "5x5", "seed": 3,
                              "contestant": [{"name": f"p{i}", "seat": "bot:1"} for i in range(6)]},
                             tmp_path, tmp_path / "elsewhere")).pairings({})
    assert [p.id for p in a] == [p.id for p in b]
    c = Plan(event(tmp_path, seed=4)).pairings({})
    assert not {p.id for p in a} & {p.id for p in c}


def test_gauntlet_puts_the_champion_in_every_match(tmp_path):
    plan = Plan(event(tmp_path, n=5, format="gauntlet", champion="p2", rounds=2)).pairings({})
    assert len(plan) == 8 and all(2 in p.seats for p in plan)
    assert sum(p.seats[0] == 2 for p in plan) == 4           # colours alternate by round


def test_swiss_pairs_by_score_without_rematches_and_gives_byes(tmp_path):
    ev = event(tmp_path, n=5, format="swiss", rounds=3)
    plan, done = Plan(ev), {}
    for _ in range(4):
        for p in plan.pairings(done):
            if not p.bye and p.id not in done:
                done[p.id] = fake_result(p, winner_seat=0 if p.seats[0] < p.seats[1] else 1)
    pairings = plan.pairings(done)
    games = [p for p in pairings if not p.bye]
    byes = [p.seats[0] for p in pairings if p.bye]
    assert len(games) == 6 and len(byes) == 3 and len(set(byes)) == 3
    assert len({frozenset(p.seats) for p in games}) == 6       # nobody met twice
    assert {p.round for p in pairings} == {0, 1, 2}


def test_sprt_stops_once_decided(tmp_path):
    ev = event(tmp_path, n=2, format="sprt", concurrency=2,
               sprt={"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05, "max_matches": 400})
    plan, done = Plan(ev), {}
    for _ in range(400):
        todo = [p for p in plan.pairings(done) if p.id not in done]
        if not todo:
            break
        assert len(todo) <= 4
        p = todo[0]
        a_seat = p.seats.index(0)
        # A (contestant 0) wins 3 games in 4, loses the rest
        done[p.id] = fake_result(p, winner_seat=a_seat if p.index % 4 else 1 - a_seat)
    from runner.tournament import sprt_state
    state = sprt_state(ev, list(done.values()))
    assert state["decision"] == "H1" and len(done) < 400


def prior_elo_difference(wins: int, losses: int) -> float:
    """The Elo difference ``elo_ratings`` should find for a beating b ``wins`` to
    ``losses``, computed another way: the likelihood of those games, times each
    player's prior (one virtual win and one virtual loss against a player rated 0),
    maximised over a's rating x (b is -x by symmetry) by golden-section search."""
    import math

    def e(d):
        return 1.0 / (1.0 + 10.0 ** (-d / 400.0))

    def log_likelihood(x):
        prior = sum(math.log(e(r)) + math.log(1 - e(r)) for r in (x, -x))
        return wins * math.log(e(2 * x)) + losses * math.log(1 - e(2 * x)) + prior

    lo, hi, ratio = 0.0, 800.0, (math.sqrt(5) - 1) / 2
    for _ in range(200):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        lo, hi = (a, hi) if log_likelihood(a) < log_likelihood(b) else (lo, b)
    return 2 * lo


def test_ratings():
    elo = ratings.elo_ratings([("a", "b", 1.0)] * 30 + [("a", "b", 0.0)] * 10)
    # 30-10 is 190.8 Elo without a prior; the prior (a win and a loss against a player
    # rated 0 each) pulls it to 184.9.
    assert elo["a"][0] - elo["b"][0] == pytest.approx(prior_elo_difference(30, 10), abs=0.5)
    assert elo["a"][0] - elo["b"][0] == pytest.approx(184.9, abs=0.5) and elo["a"][1] > 0
    plain = ratings.elo_ratings([("a", "b", 1.0)] * 30 + [("a", "b", 0.0)] * 10, prior_games=0)
    assert plain["a"][0] - plain["b"][0] == pytest.approx(190.8, abs=0.5)
    assert sum(e for e, _ in elo.values()) == pytest.approx(0, abs=1e-6)
    diff, error = ratings.elo_from_score(0.75, 40)
    assert diff == pytest.approx(190.8, abs=0.5) and 50 < error < 200
    skill = ratings.openskill_ratings([(["a", "b", "c"], [1, 2, 3])] * 5, ["a", "b", "c"])
    assert skill["a"][0] > skill["b"][0] > skill["c"][0]
    assert ratings.sprt(0, 0, 0, 0, 5)["decision"] == ""
    assert ratings.sprt(10, 0, 200, 0, 5)["decision"] == "H0"


def test_the_elo_error_bar_shrinks_with_the_number_of_games():
    """Ten times the games at the same 3:1 ratio: about sqrt(10) times smaller a bar."""
    few = ratings.elo_ratings([("a", "b", 1.0)] * 30 + [("a", "b", 0.0)] * 10)
    many = ratings.elo_ratings([("a", "b", 1.0)] * 300 + [("a", "b", 0.0)] * 100)
    ratio = few["a"][1] / many["a"][1]
    assert 2.9 < ratio < 3.4, ratio
    # and it agrees with the score's own bar (each rating's bar holds its opponent
    # fixed): 40 games at 75 % is +-124 Elo
    _, error = ratings.elo_from_score(0.75, 40)
    assert few["a"][1] == pytest.approx(error, rel=0.1)


def test_a_swiss_bye_scores_a_win(tmp_path):
    from runner.tournament import score_table
    ev = event(tmp_path, n=3, format="swiss", rounds=1, points={"beat": 3, "tie": 1})
    pairings = Plan(ev).pairings({})
    byes = [p for p in pairings if p.bye]
    assert len(byes) == 1
    rows = score_table(ev, pairings, {})
    bye_row = rows[byes[0].seats[0]]
    assert bye_row["points"] == 3 and bye_row["byes"] == 1
    assert sorted(r["points"] for r in rows) == [0, 0, 3]


def test_bad_events_are_explained(tmp_path):
    with pytest.raises(EventError, match="two"):
        event(tmp_path, n=1)
    with pytest.raises(EventError, match="A/B"):
        event(tmp_path, n=3, format="sprt")
    with pytest.raises(EventError, match="format"):
        event(tmp_path, format="knockout")
    with pytest.raises(EventError, match="takes"):
        event(tmp_path, n=6, format="all-in")            # Hex has two seats
    with pytest.raises(EventError, match="position"):
        Plan(event(tmp_path, cycle={"position": ["", "1"]}))


def test_crashing_hanging_and_missing_contestants_are_scored_by_the_rules(tmp_path):
    """Robot: the referee plays 'stay' for a bad answer; the event ends with reasons kept."""
    (tmp_path / "tiny.txt").write_text(TINY_MAP)
    bots = ROOT / "tests" / "robot" / "bots"
    (tmp_path / "event.toml").write_text(f'''
name = "failures"
game = "robot"
format = "pairs"
concurrency = 4
[cycle]
map = ["tiny.txt"]
[time]
per_move = 1.5
[[contestant]]
name = "bot"
seat = "bot:3"
[[contestant]]
name = "crash"
seat = "ext:python3 {bots / 'crash_bot.py'}"
[[contestant]]
name = "hang"
seat = "ext:python3 {bots / 'hang_bot.py'}"
[[contestant]]
name = "missing"
seat = "ext:./no-such-program"
[[contestant]]
name = "unbuilt"
build = "exit 1"
seat = "ext:{{out}}/never-built"
''')
    table = run_event(load_event(tmp_path / "event.toml", tmp_path / "out"), log=lambda _: None)
    lines = results(tmp_path / "out")
    assert len(lines) == 10 and all(line.get("outcome") for line in lines)
    reasons = {}
    for line in lines:
        for failure in line.get("failures", []):
            reasons.setdefault(failure["name"], set()).add(failure["reason"])
    assert reasons["crash"] == {"crash"} and reasons["hang"] == {"timeout"}
    assert "missing" in reasons and reasons["unbuilt"] == {"crash"}
    rows = {r["name"]: r for r in table["standings"]}
    assert rows["bot"]["rank"] == 1 and rows["bot"]["points"] == 80
    assert "build failed" in rows["unbuilt"]["error"]
    assert "bot" not in reasons


def test_a_lost_task_is_run_again(tmp_path):
    """A worker lost mid-match (its future fails) means the match is played again."""
    import concurrent.futures as cf

    class Flaky(cf.ThreadPoolExecutor):
        failures = 2

        def submit(self, fn, *args, **kwargs):
            if Flaky.failures:
                Flaky.failures -= 1
                future = cf.Future()
                future.set_exception(ConnectionError("worker lost"))
                return future
            return super().submit(fn, *args, **kwargs)

    logged = []
    ev = event(tmp_path, n=3, concurrency=2)
    with Flaky(2) as executor:
        table = run_event(ev, executor, log=logged.append)
    assert table["matches"]["played"] == 3 and len(results(tmp_path / "out")) == 3
    assert sum("trying again" in line for line in logged) == 2


def _cmdline(process) -> str:
    """A process's command line, or "" for one that is gone or a zombie (another test's
    finished child this process has not reaped yet)."""
    import psutil
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return ""


def test_a_pool_process_killed_mid_event_means_its_matches_are_played_again(tmp_path):
    import signal
    import threading
    import time

    import psutil

    ev = event(tmp_path, n=4, rounds=2, concurrency=3)
    logged, out = [], {}
    def play():
        try:
            out["table"] = run_event(ev, log=logged.append)
        except BaseException as exc:        # shown by the assertion below
            out["error"] = exc
            raise
    thread = threading.Thread(target=play)
    thread.start()
    deadline = time.monotonic() + 120
    workers = []
    path = tmp_path / "out" / "results.jsonl"
    while time.monotonic() < deadline and thread.is_alive() and not workers:
        if path.exists() and path.read_bytes().count(b"\n") >= 1:     # the pool is up
            servers = [p for p in psutil.Process().children() if "forkserver" in _cmdline(p)]
            workers = [w for s in servers for w in s.children()]
        time.sleep(0.02)
    assert workers, "the pool never started"
    workers[0].send_signal(signal.SIGKILL)
    thread.join(300)
    assert not thread.is_alive(), "the event did not end"
    assert "error" not in out, repr(out.get("error"))
    assert out["table"]["matches"] == {"planned": 12, "played": 12, "errors": 0}
    assert len({line["id"] for line in results(tmp_path / "out")}) == 12
    assert any("new pool" in line for line in logged)


@pytest.mark.parametrize("path", sorted(ROOT.glob("games/*/events/*.toml")), ids=lambda p: p.name)
def test_every_shipped_event_file_loads_and_plans(path, tmp_path):
    ev = load_event(path, tmp_path / "out")
    plan = Plan(ev).pairings({})
    assert plan and len({p.id for p in plan}) == len(plan)
    for c in ev.contestants:
        for word in c.seat.split()[1:]:
            if word.startswith("/"):
                assert Path(word).exists(), f"{c.name}: {word} is missing"

