"""The warm strict sandbox in an arena run as an ordinary user (runner.warm with
bubblewrap's unprivileged user namespace): its launcher keeps CAP_SYS_ADMIN there to
make each run's IPC namespace, the runs have no capability, and what bubblewrap made
(the user's, so the program's too) cannot carry anything from one turn to the next.
Run as ``nobody`` when the tests run as root, else as the current user."""
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
from pathlib import Path

import pytest

from runner.sandbox import strict_problem

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
pytestmark = pytest.mark.skipif(bool(strict_problem()) or not shutil.which("setpriv"),
                                reason=f"needs the strict level and setpriv ({strict_problem()})")

#: Three turns of one seat's warm sandbox; the first turn writes where it can, leaves a
#: folder it made unreadable in /tmp and a double-forked process.  Prints what each
#: turn saw, and the launcher's pid before and after.
SCRIPT = textwrap.dedent('''\
    import json, os, sys
    from pathlib import Path
    from runner.sandbox import SEAT_MARKER, STRICT, Sandbox, SandboxLimits
    from runner.warm import WarmSandbox, warm_possible
    sandbox = Sandbox(SandboxLimits(), level_name=STRICT)
    if not warm_possible(sandbox):
        print(json.dumps({"skip": "no warm strict sandbox for an ordinary user here"}))
        sys.exit(0)
    folder = Path(sys.argv[1])
    program = [sys.executable, str(folder.parent / "program.py")]
    warm = WarmSandbox(program, folder, sandbox)
    launcher, results = warm.proc.pid, []
    for args in (["leave"], [], []):
        warm.argv = [*program, *args]
        result = warm.prepare(sandbox.with_cpu(10)).run(10.0)
        results.append([result.returncode, result.timed_out, result.stdout, result.stderr[-500:]])
    print(json.dumps({"results": results, "same": warm.proc.pid == launcher and warm.alive}))
    warm.close()
''')

PROGRAM = textwrap.dedent('''\
    import ctypes, json, os, sys, time
    libc = ctypes.CDLL(None, use_errno=True)
    KEY, IPC_CREAT = 0x4152, 0o1000
    def write(path):
        try:
            open(path, "w").write("state")
            return "written"
        except OSError as exc:
            return exc.strerror
    def names(path):
        try:
            return sorted(os.listdir(path))
        except OSError as exc:
            return exc.strerror
    seen = {"pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()), "me": os.getpid(),
            "tmp": names("/tmp"), "tmp_mode": os.stat("/tmp").st_mode & 0o7777, "shm": names("/dev/shm"), "shared_memory": libc.shmget(KEY, 4096, 0) >= 0,
            "caps": {l.split(":")[0]: int(l.split()[1], 16) for l in open("/proc/self/status")
                     if l.startswith(("CapInh", "CapPrm", "CapEff", "CapAmb"))}}
    if sys.argv[1:] == ["leave"]:
        seen["wrote"] = {p: write(p) for p in ("/tmp/left", "/dev/shm/left", "/left", "../left", "/dev/left")}
        seen["made_shared_memory"] = libc.shmget(KEY, 4096, IPC_CREAT | 0o600) >= 0
        os.makedirs("/tmp/locked/inner")
        os.chmod("/tmp/locked", 0)
        os.chmod("/tmp", 0o500)                  # its own (bubblewrap made it as the user)
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(60)
            os._exit(0)
    print(json.dumps(seen))
''')


def as_user(argv):
    if os.geteuid() != 0:
        return argv
    return [shutil.which("setpriv"), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--", *argv]


@pytest.fixture
def shared_folder():
    """A folder the unprivileged user can use (pytest's own is root's 0700)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-warm-user-"))
    os.chmod(folder, 0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def run_three_turns(folder: Path) -> dict:
    (folder / "program.py").write_text(PROGRAM)
    (folder / "script.py").write_text(SCRIPT)
    seat = folder / "seat"
    seat.mkdir()
    (seat / ".arena-seat").write_text("")
    for path in (folder / "program.py", folder / "script.py", seat, seat / ".arena-seat"):
        os.chmod(path, 0o777 if path.is_dir() else 0o666)
    site = sysconfig.get_paths()["purelib"]
    python = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    if os.geteuid() != 0 or not os.path.exists(python):
        python = sys.executable
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder),
           "PYTHONPATH": os.pathsep.join([str(ROOT), site])}
    done = subprocess.run(as_user([python, str(folder / "script.py"), str(seat)]), cwd=folder,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    said = json.loads(done.stdout.strip().splitlines()[-1])
    if "skip" in said:
        pytest.skip(said["skip"])
    return said


def test_an_ordinary_users_warm_sandbox_carries_nothing_from_one_turn_to_the_next(shared_folder):
    said = run_three_turns(shared_folder)
    assert said["same"]                                      # one launcher for every turn
    for code, timed_out, out, err in said["results"]:
        assert code == 0 and not timed_out, err
    first, second, third = (json.loads(r[2]) for r in said["results"])
    assert first["wrote"] == {"/tmp/left": "written", "/dev/shm/left": "written",
                              "/left": "Read-only file system", "../left": "Read-only file system",
                              "/dev/left": "Read-only file system"}
    for later in (second, third):
        assert later["pids"] == [1, later["me"]]             # the double fork is dead
        assert later["tmp"] == first["tmp"] and later["shm"] == first["shm"] == []
        assert later["tmp_mode"] == first["tmp_mode"] == 0o1777
        assert set(later["caps"].values()) == {0}
    assert set(first["caps"].values()) == {0}                 # CAP_SYS_ADMIN is the launcher's
    assert first["made_shared_memory"]                        # a System V segment it left
    assert not second["shared_memory"] and not third["shared_memory"]   # IPC namespace per run
