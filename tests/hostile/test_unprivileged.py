"""Both levels when the arena runs as an ordinary user.  Strict: bubblewrap makes an
unprivileged user namespace.  Basic: no uid of its own and no cgroup, so Landlock (and
the arena made not dumpable) is what keeps the program out of the user's files, the
other seat's folder and the arena's environment, and (Landlock 6) its signals away from
the arena.  The hostile suite's cases (spying, vandalism, killing, fork bombs, double
forks, link tricks) are run again, in a fresh pytest, as an unprivileged user:
``nobody`` when these tests run as root, else the current user.  A basic case whose
attack this kernel cannot contain is skipped by the suite itself (its reason says why).
"""
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

from tests.hostile.conftest import ROOT

#: The cases re-run as an unprivileged user (one of each kind of attack), per level.
ATTACKS = "(spy or vandal or kill or forkbomb or doublefork or symlink or inlink)"
CASES = {"strict": f"strict and {ATTACKS} and (robot or xiangqi or hex)",
         "basic": f"basic and {ATTACKS} and (robot or xiangqi or hex)"}
NOBODY = 65534


def as_user(argv: list[str]) -> list[str]:
    """``argv`` run as the unprivileged user (no change when not root)."""
    if os.geteuid() != 0:
        return argv
    return [shutil.which("setpriv") or "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
            "--clear-groups", "--", *argv]


def run_as_user(argv: list[str], env: dict, cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(as_user(argv), env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def interpreter(env: dict, cwd: Path) -> tuple[list[str], dict] | None:
    """A Python the user can run with the test's packages: this one, or the system's
    Python of the same version with this one's packages on its path (a venv made from
    an interpreter under /root is out of another user's sight)."""
    site = sysconfig.get_paths()["purelib"]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    tries = [(sys.executable, {}),
             (f"/usr/bin/{version}", {"PYTHONPATH": os.pathsep.join([str(ROOT), site])})]
    for python, extra in tries:
        if not os.path.exists(python):
            continue
        # The programs run with the same interpreter: the user must see it (stat it).
        probe = run_as_user([python, "-c", "import os, sys, psutil, pytest, runner.sandbox; "
                             "assert os.path.exists(sys.executable)"], {**env, **extra}, cwd, 60)
        if probe.returncode == 0:
            return [python], {**env, **extra}
    return None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="namespaces and Landlock are Linux's")
@pytest.mark.parametrize("level", ["strict", "basic"])
def test_sandbox_holds_for_an_unprivileged_arena(level):
    if level == "strict" and not shutil.which("bwrap"):
        pytest.skip("bubblewrap (bwrap) is not installed")
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("setpriv (util-linux) is needed to become an unprivileged user")
    base = Path(tempfile.mkdtemp(prefix="arena-unprivileged-"))
    try:
        if os.geteuid() == 0:
            os.chown(base, NOBODY, NOBODY)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(base), "LANG": "C.UTF-8",
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "TMPDIR": str(base)}
        found = interpreter(env, base)
        if found is None:
            pytest.skip("no Python with the test's packages can be run by an unprivileged user")
        python, env = found
        if level == "strict":
            bwrap = run_as_user([shutil.which("bwrap"), "--unshare-user", "--unshare-pid",
                                 "--ro-bind", "/", "/", "--proc", "/proc", "--", "true"], env, base, 60)
            if bwrap.returncode != 0:
                pytest.skip("this kernel forbids unprivileged user namespaces "
                            f"(bwrap: {bwrap.stderr.strip()[-200:]}); the arena falls back to basic")
            found = run_as_user([*python, "-c", "from runner.sandbox import level, strict_problem;"
                                 "print(level(), strict_problem())"], env, ROOT, 60)
            assert found.stdout.split()[:1] == ["strict"], found.stdout + found.stderr
        suite = run_as_user(
            [*python, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--basetemp",
             str(base / "pytest"), "-k", CASES[level], "tests/hostile"], env, ROOT, 900)
        summary = suite.stdout.strip().splitlines()[-1:] or [suite.stderr[-2000:]]
        assert suite.returncode == 0, suite.stdout[-4000:] + suite.stderr[-2000:]
        assert " passed" in summary[0], summary
        if level == "strict":
            assert "skipped" not in summary[0], summary
        else:       # every skip is an attack this kernel's basic level cannot contain
            skips = [line for line in suite.stdout.splitlines() if line.startswith("SKIPPED")]
            assert all("basic level here" in line for line in skips), skips
    finally:
        shutil.rmtree(base, ignore_errors=True)


#: Run as the unprivileged user: the basic level with Landlock taken away, so that what
#: holds is its user and PID namespaces alone.  Prints what the program reached.
NAMESPACES_ALONE = """
import json, os, sys, tempfile
from pathlib import Path
from runner import seat_limits
seat_limits._ABI = 0
from runner.process import run_once
from runner.sandbox import BASIC, Sandbox, SandboxLimits, user_namespaces_possible
if not user_namespaces_possible():
    print(json.dumps({"skip": "no unprivileged user namespaces here"}))
    sys.exit(0)
program = '''
import json, os, sys, time
arena, group = int(sys.argv[1]), int(sys.argv[2])
found = {"ppid": os.getppid()}
for name, act in (("signal_arena", lambda: os.kill(arena, 0)),
                  ("signal_arena_group", lambda: os.killpg(group, 0)),
                  ("signal_all", lambda: os.kill(-1, 0))):
    try:
        act()
        found[name] = True
    except OSError:
        found[name] = False
children = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        children += 1
    except OSError:
        break
found["children"] = children
print(json.dumps(found))
'''
folder = Path(tempfile.mkdtemp())
(folder / "attack.py").write_text(program)
box = Sandbox(SandboxLimits(processes=20), level_name=BASIC)
result = run_once([sys.executable, str(folder / "attack.py"), str(os.getpid()), str(os.getpgid(0))],
                  folder, timeout=30, sandbox=box)
found = json.loads(result.stdout or "{}") if result.returncode == 0 else {"error": result.stderr}
found["protections"] = box.describe()["protections"]
print(json.dumps(found))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="namespaces are Linux's")
def test_basic_level_as_an_ordinary_user_has_its_own_user_and_pid_namespaces(tmp_path):
    """An ordinary user's arena at the basic level, Landlock taken away: the program, in
    its own user and PID namespaces, cannot signal the arena or its process group
    (``kill $PPID``: its parent is its namespace's init, which it cannot signal;
    ``kill -1`` reaches only its own tree), and a fork bomb stops at the process limit (RLIMIT_NPROC counts only the
    namespace's processes).  The record's protections say so."""
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("setpriv (util-linux) is needed to become an unprivileged user")
    base = Path(tempfile.mkdtemp(prefix="arena-userns-"))
    try:
        if os.geteuid() == 0:
            os.chown(base, NOBODY, NOBODY)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(base), "LANG": "C.UTF-8",
               "TMPDIR": str(base)}
        found = interpreter(env, base)
        if found is None:
            pytest.skip("no Python with the test's packages can be run by an unprivileged user")
        python, env = found
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        run = run_as_user([*python, "-c", NAMESPACES_ALONE], env, base, 120)
        assert run.returncode == 0, run.stderr[-3000:]
        seen = json.loads(run.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(base, ignore_errors=True)
    if "skip" in seen:
        pytest.skip(seen["skip"])
    assert "error" not in seen, seen
    assert seen["ppid"] == 1, seen             # its parent is its namespace's init
    assert not seen["signal_arena"] and not seen["signal_arena_group"], seen
    assert seen["children"] < 20, seen
    assert any("own user and PID namespaces" in p for p in seen["protections"]), seen
