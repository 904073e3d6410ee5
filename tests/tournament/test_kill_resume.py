"""Whole events, headless, 4 matches at once: killed with SIGKILL half-way and run again,
they end with the same matches, none twice, and the same standings as an uninterrupted
run; on a Dask LocalCluster they give identical results."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from runner.tournament import load_event, run_event
from tournament_events import ROOT, comparable, have, hex_event, results, robot_event

GAMES = {"hex": (hex_event, "gcc"), "robot": (robot_event, "g++")}
MATCHES = 15


def command(event, out):
    return [sys.executable, str(ROOT / "main.py"), "tournament", str(event), "--out", str(out),
            "--quiet"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """Each game's event run once from start to end (shared by the tests below)."""
    done = {}

    def get(game):
        if game not in done:
            make, compiler = GAMES[game]
            if not have(compiler):
                pytest.skip(f"{compiler} is not installed")
            folder = tmp_path_factory.mktemp(f"{game}-whole")
            event = make(folder)
            table = run_event(load_event(event, folder / "out"), log=lambda _: None)
            done[game] = (event, folder / "out", table)
        return done[game]
    return get


@pytest.mark.parametrize("game", sorted(GAMES))
def test_uninterrupted_event_runs_to_the_end(game, uninterrupted):
    _, out, table = uninterrupted(game)
    lines = results(out)
    assert len(lines) == MATCHES == table["matches"]["played"] == table["matches"]["planned"]
    assert len({line["id"] for line in lines}) == MATCHES
    assert all(line.get("outcome") and (out / line["folder"]).is_dir() for line in lines)
    assert sorted(p.name for p in (out / "matches").iterdir()) == sorted(l["id"] for l in lines)
    for name in ("standings.csv", "standings.json", "head_to_head.csv"):
        assert (out / name).is_file()
    rows = table["standings"]
    assert {r["name"] for r in rows} >= {"Python"} and all(r["played"] == 5 for r in rows)
    if game == "hex":
        assert sum(r["points"] for r in rows) == MATCHES and all("elo" in r for r in rows)
    else:
        assert sum(r["points"] for r in rows) == MATCHES * 20 and all("mu" in r for r in rows)
    assert not any(r.get("failures") for r in rows), rows


@pytest.mark.parametrize("game", sorted(GAMES))
def test_killed_half_way_then_resumed_ends_as_uninterrupted(game, uninterrupted, tmp_path):
    event, whole, _ = uninterrupted(game)
    out = tmp_path / "out"
    process = subprocess.Popen(command(event, out), cwd=ROOT, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and process.poll() is None:
            path = out / "results.jsonl"
            if path.exists() and path.read_bytes().count(b"\n") >= 5:
                break
            time.sleep(0.05)
        assert process.poll() is None, process.stderr.read().decode()[-2000:]
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)      # anything the kill left behind
        except ProcessLookupError:
            pass
    before = len(results(out))
    assert 5 <= before < MATCHES
    second = subprocess.run(command(event, out), cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert second.returncode == 0, second.stderr[-3000:]
    lines = results(out)
    assert len(lines) == MATCHES and len({line["id"] for line in lines}) == MATCHES
    table = json.loads((out / "standings.json").read_text())
    assert table["run"]["played_now"] == MATCHES - before     # nothing finished was re-run
    assert not list((out / "matches").glob(".*partial"))
    assert comparable(out) == comparable(whole)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_dask_local_cluster_gives_identical_results(game, uninterrupted, tmp_path):
    distributed = pytest.importorskip("distributed")
    import dask
    event, whole, _ = uninterrupted(game)
    # The worker runs in this process, and its statistical profiler calls
    # sys._current_frames() every 10 ms.  On Python 3.11 a garbage collection inside
    # that call can run a gc callback (Hypothesis installs one) that gives up the GIL
    # while the thread-state lock is held: a CI run froze there, every thread waiting.
    with dask.config.set({"distributed.worker.profile.enabled": False}), \
            distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=4,
                                     dashboard_address=None) as cluster:
        assert not any("profile" in worker.periodic_callbacks for worker in cluster.workers.values())
        with distributed.Client(cluster) as client:
            with client.get_executor(pure=False) as executor:
                run_event(load_event(event, tmp_path / "out"), executor, ship=True,
                          log=lambda _: None)
    lines = results(tmp_path / "out")
    assert len(lines) == MATCHES
    assert comparable(tmp_path / "out") == comparable(whole)
