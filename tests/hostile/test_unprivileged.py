"""Both levels when the arena runs as an ordinary user.  Strict: bubblewrap makes an
unprivileged user namespace.  Basic: no uid of its own and no cgroup, so Landlock (and
the arena made not dumpable) is what keeps the program out of the user's files, the
other seat's folder and the arena's environment, and (Landlock 6) its signals away from
the arena.  The hostile suite's cases (spying, vandalism, killing, fork bombs, double
forks, link tricks) are run again, in a fresh pytest, as an unprivileged user:
``nobody`` when these tests run as root, else the current user.  A basic case whose
attack this kernel cannot contain is skipped by the suite itself (its reason says why).
"""
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
