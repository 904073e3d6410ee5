"""The basic level's protections one by one (Linux), each with the others taken away
where the test can, so each is seen to hold by itself: the seat's own uid (as root),
Landlock, the pids cgroup, and what the record says about them.

The attacks never harm the test: a signal is sent as signal 0 (only the permission is
checked), writes aim at the test's own folders.
"""
import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from runner import seat_limits
from runner.process import run_once
from runner.sandbox import BASIC, SEAT_MARKER, Sandbox, SandboxLimits
from tests.hostile.conftest import PY, SECRET

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's protections")
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="the arena must run as root")
NO_LANDLOCK = pytest.mark.skipif(seat_limits.landlock_abi() < 1, reason="no Landlock on this kernel")

#: The attacks: each prints what it reached.
ATTACKS = textwrap.dedent("""
    import json, os, sys
    targets = json.loads(sys.argv[1])
    found = {}
    def attempt(name, action):
        try:
            action()
            found[name] = True
        except OSError:
            found[name] = False
    attempt("read_secret", lambda: open(targets["secret"]).read())
    attempt("read_other_seat", lambda: open(targets["other"] + "/STATE.DAT").read())
    attempt("write_other_seat", lambda: open(targets["other"] + "/MOVE.OUT", "w").write("LOST"))
    attempt("write_user_folder", lambda: open(targets["user"] + "/new.txt", "w").write("x"))
    attempt("arena_environ", lambda: open(f"/proc/{targets['arena']}/environ").read())
    attempt("signal_arena", lambda: os.kill(targets["arena"], 0))
    attempt("write_own_folder", lambda: open("MOVE.OUT", "w").write("1 1"))
    print(json.dumps(found))
""")


def seat(folder: Path) -> Path:
    """A seat folder as runner.match makes it."""
    folder.mkdir(parents=True, mode=0o700)
    (folder / SEAT_MARKER).write_text("seat\n")
    return folder


@pytest.fixture
def place(tmp_path):
    """A match folder other users can reach (its seats 0700), the user's files in
    ``tmp_path`` (closed to other users), and the attacks' program."""
    import shutil
    import tempfile
    public = Path(tempfile.mkdtemp(prefix="arena-basic-"))
    public.chmod(0o711)
    user = tmp_path / "user"
    user.mkdir()
    (user / "secret.txt").write_text(SECRET)
    other = seat(public / "seat2")
    (other / "STATE.DAT").write_text("the other seat's state")
    program = public / "attacks.py"
    program.write_text(ATTACKS)
    program.chmod(0o644)
    yield {"public": public, "user": user, "other": other, "program": program,
           "mine": seat(public / "seat1")}
    shutil.rmtree(public, ignore_errors=True)


def attack(place, python: str = PY, processes: int | None = 64) -> tuple[dict, Sandbox]:
    box = Sandbox(SandboxLimits(processes=processes), level_name=BASIC)
    targets = {"secret": str(place["user"] / "secret.txt"), "other": str(place["other"]),
               "user": str(place["user"]), "arena": os.getpid()}
    result = run_once([python, str(place["program"]), json.dumps(targets)], place["mine"],
                      timeout=20, sandbox=box)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), box


CONTAINED = {"read_secret": False, "read_other_seat": False, "write_other_seat": False,
             "write_user_folder": False, "arena_environ": False, "signal_arena": False,
             "write_own_folder": True}


@ROOT_ONLY
def test_own_uid_alone_contains_the_attacks(place, monkeypatch):
    """Landlock taken away: the seat's own uid (folders 0700, another uid) holds."""
    if PY == sys.executable and os.geteuid() == 0:
        from runner.sandbox import _unreadable_by_others
        if _unreadable_by_others([Path(PY)]):
            pytest.skip("no Python other users can run")
    monkeypatch.setattr(seat_limits, "_ABI", 0)
    found, box = attack(place)
    assert found == CONTAINED
    described = box.describe()
    assert any("own unprivileged uid" in p for p in described["protections"])
    assert any(p.startswith("Landlock") for p in described["missing"])
    assert os.stat(place["mine"]).st_uid == box.uid
    assert os.stat(place["mine"]).st_mode & 0o777 == 0o700


@NO_LANDLOCK
def test_landlock_alone_contains_the_attacks(place):
    """No uid of its own (as root: its Python cannot be read by other users, or the
    arena is not root): Landlock holds the files, the environment and (version 6) the
    signals; as root the program also has no capability."""
    found, box = attack(place, python=sys.executable)
    expected = dict(CONTAINED)
    if seat_limits.landlock_abi() < 6 and os.geteuid() != 0:
        expected["signal_arena"] = True          # the warning says so
    if os.geteuid() == 0 and not _other_users_can_run(sys.executable):
        assert any("without capabilities" in p for p in box.describe()["protections"])
    assert found == expected
    assert any(p.startswith("Landlock") for p in box.describe()["protections"])


def _other_users_can_run(python: str) -> bool:
    from runner.sandbox import _unreadable_by_others
    return not _unreadable_by_others([Path(python)])


FORK_BOMB = textwrap.dedent("""
    import os, time
    children = 0
    for _ in range(200):
        try:
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            children += 1
        except OSError:
            break
    print(children)
""")


@ROOT_ONLY
@pytest.mark.skipif(not seat_limits.pids_groups_possible(), reason="no pids cgroup can be made here")
def test_pids_group_caps_a_root_fork_bomb(place):
    """As root with no uid of its own (RLIMIT_NPROC does not bind root), the pids group
    holds a fork bomb under the limit; the group is gone once the program is reaped."""
    bomb = place["public"] / "bomb.py"
    bomb.write_text(FORK_BOMB)
    box = Sandbox(SandboxLimits(processes=20), level_name=BASIC)
    result = run_once([sys.executable, str(bomb)], place["mine"], timeout=20, sandbox=box)
    if _other_users_can_run(sys.executable):
        pytest.skip("this Python can run as another uid: RLIMIT_NPROC would hold it too")
    assert int(result.stdout.split()[0]) < 20, result.stdout
    mine = list(seat_limits.PIDS_ROOT.glob(f"{seat_limits.PIDS_PREFIX}{os.getpid()}-*"))
    assert not mine, mine


@ROOT_ONLY
def test_own_uid_caps_a_fork_bomb_without_a_cgroup(place, monkeypatch):
    """With no pids group, the seat's own uid makes RLIMIT_NPROC bind."""
    if not _other_users_can_run(PY):
        pytest.skip("no Python other users can run")
    monkeypatch.setattr(seat_limits, "pids_groups_possible", lambda: False)
    bomb = place["public"] / "bomb.py"
    bomb.write_text(FORK_BOMB)
    bomb.chmod(0o644)
    box = Sandbox(SandboxLimits(processes=20), level_name=BASIC)
    result = run_once([PY, str(bomb)], place["mine"], timeout=20, sandbox=box)
    assert int(result.stdout.split()[0]) < 20, result.stdout


def test_the_warning_names_what_is_missing(monkeypatch):
    """Without Landlock and as another user, the record's warning says the program can
    reach the user's files and signal the arena."""
    monkeypatch.setattr(seat_limits, "_ABI", 0)
    monkeypatch.setattr("runner.sandbox._as_root", lambda: False)
    monkeypatch.setattr("runner.sandbox.user_namespaces_possible", lambda: False)
    box = Sandbox(level_name=BASIC)
    assert "Landlock" in box.warning and "signal the arena" in box.warning
    assert box.describe()["missing"] and box.describe()["protections"]
