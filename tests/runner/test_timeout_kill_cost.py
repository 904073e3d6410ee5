"""A wall-clock time-out costs the judge milliseconds, not seconds: killing a late
program's tree does not wait on processes that are already dead.  In the strict sandbox
the killed programs become zombies that their new parent does not reap at once; the
judge once waited two seconds (psutil.wait_procs) on each of them."""
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.runner.test_programs_turn import LEVELS, play, scripted, staging

LIMIT = 1.0
MARGIN = 0.5        # generous for a loaded two-core machine; the stall was about 2 s


def late_turn_overrun(tmp_path, level) -> float:
    """Play a Robot match where seat 1 forks and sleeps past its limit on turn 1; how
    long that turn took beyond the limit (the judge's time from the limit to the verdict)."""
    token = f"arena-test-{uuid.uuid4().hex[:12]}"
    ended = []

    def watch(match):
        match.after_turn = lambda info: ended.append(time.monotonic())
    specs = [scripted("at=2,2", "stay"), scripted("at=2,1", "stay", f"late={token}", "stay")]
    _, turns = play(tmp_path, specs, per_move=LIMIT, level=level, prepare=watch)
    late = turns[1]["answers"]["1"]
    assert late.get("failure") == "timeout", late
    return ended[1] - ended[0] - LIMIT


def overrun_in_a_fresh_arena(tmp_path, level) -> float:
    """:func:`late_turn_overrun` in a new Python process, as ``arena tournament`` runs
    it: a strict-only arena never becomes its programs' child subreaper, so the killed
    programs' zombies are not its own to reap (in this test process an earlier
    basic-level match may have made it one)."""
    code = ("import sys; from pathlib import Path; "
            "from tests.runner.test_timeout_kill_cost import late_turn_overrun; "
            "print(late_turn_overrun(Path(sys.argv[1]), sys.argv[2]))")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path), level], cwd=root,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return float(done.stdout.split()[-1])


@staging
@pytest.mark.parametrize("level", LEVELS)
def test_a_timed_out_program_with_a_child_is_judged_at_once(tmp_path, level):
    overruns = []
    for attempt in range(3):                   # a busy machine may stall one attempt
        overruns.append(overrun_in_a_fresh_arena(tmp_path / f"try{attempt}", level))
        if overruns[-1] < MARGIN:
            return
    pytest.fail(f"{level}: the time-out turn overran its {LIMIT} s limit by "
                f"{', '.join(f'{o:.2f}' for o in overruns)} s (want < {MARGIN} s)")
