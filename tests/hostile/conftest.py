"""The hostile-program suite's world: a sandbox level, a user's folder to guard, a
marker on every hostile process, and the checks every hostile test ends with."""
import hashlib
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psutil
import pytest

from runner.sandbox import strict_problem

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "hostile.py"
ROOT = HERE.parents[1]


def _program_python() -> str:
    """The Python the test programs run with: this one, or, when the tests run as root
    and this one cannot be read by other users (a pyenv under /root), the system's
    Python of the same version, so that the basic level can give the programs uids of
    their own (it gives one only to a program other users can read)."""
    from runner.sandbox import _unreadable_by_others
    if os.geteuid() != 0 or not _unreadable_by_others([Path(sys.executable)]):
        return sys.executable
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    return str(system) if system.exists() and not _unreadable_by_others([system]) else sys.executable


PY = _program_python()
#: The Python an arena started by a test runs with (this one, with the project's packages).
ARENA_PY = sys.executable
# The word in the user's secret file that must never show in a record.  Not hex, so
# that no random marker or id can contain it (a hex word once came back in a marker).
SECRET = "qwzx"

LEVELS = [pytest.param("strict", marks=pytest.mark.skipif(
              bool(strict_problem()), reason=f"no strict sandbox here: {strict_problem()}")),
          "basic"]


def basic_gap(attack: str) -> str:
    """Why the basic level here does not contain ``attack`` ("" when it does): ``files``
    (the other seat's folder, the user's files and home), ``environ`` (the arena's
    /proc/PID/environ), ``signals`` (killing the arena or the other seat) and
    ``processes`` (a fork bomb held under the process limit).  What contains each:
    as root, the seat's own uid (programs other users can read, as :data:`PY` is here)
    or Landlock; as another user, Landlock (signals: version 6, Linux 6.12, or its own
    user and PID namespaces); a fork bomb, a uid of its own (RLIMIT_NPROC), a pids
    cgroup or (another user) its own user namespace, where RLIMIT_NPROC counts its own."""
    from runner import seat_limits
    from runner.sandbox import _unreadable_by_others
    if not sys.platform.startswith("linux"):
        return "the basic level confines nothing but limits off Linux"
    from runner.sandbox import user_namespaces_possible
    root = os.geteuid() == 0
    own_uid = root and not _unreadable_by_others([Path(PY), HOSTILE])
    abi = seat_limits.landlock_abi()
    if attack in ("signals", "processes") and not root and user_namespaces_possible():
        return ""                   # its own user and PID namespaces

    if attack in ("files", "environ"):
        return "" if own_uid or abi >= 1 else "no Landlock on this kernel and not root"
    if attack == "signals":
        return "" if own_uid or abi >= 6 else "Landlock before version 6 does not scope signals"
    if attack == "processes":
        return "" if own_uid or (root and seat_limits.pids_groups_possible()) else \
            "no uid of its own and no pids cgroup: RLIMIT_NPROC counts all the user's processes"
    raise ValueError(attack)


#: The attack each hostile mode makes, where the sandbox (not the referee) must hold it.
ATTACKS = {"spy": ("files", "environ"), "vandal": ("files",), "kill": ("signals",),
           "forkbomb": ("processes",)}


def skip_uncontained(level: str, mode: str) -> None:
    """Skip a basic-level case whose attack the basic level cannot contain here."""
    if level != "basic":
        return
    gaps = [gap for attack in ATTACKS.get(mode, ()) if (gap := basic_gap(attack))]
    if gaps:
        pytest.skip(f"basic level here: {'; '.join(gaps)}")


def _tree_digest(folder: Path) -> dict:
    return {str(p.relative_to(folder)): (p.is_symlink(), p.is_file() and hashlib.sha1(
        p.read_bytes()).hexdigest()) for p in sorted(folder.rglob("*"))}


def marked_processes(marker: str) -> list:
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        try:
            if proc.info["status"] != psutil.STATUS_ZOMBIE and marker in " ".join(proc.info["cmdline"] or []):
                found.append(proc)
        except psutil.Error:
            pass
    return found


class World:
    """One hostile test's surroundings."""

    def __init__(self, tmp_path: Path, level: str):
        self.level = level
        self.tmp = tmp_path
        self.canary = tmp_path / "users-files"
        self.canary.mkdir()
        (self.canary / "secret.txt").write_text(f"the user's secret {SECRET}\n")
        # The match folder where other users can reach it (tmp_path is closed to them),
        # as a contest folder is: the basic level as root gives programs uids of their
        # own only then.  The user's files stay in tmp_path.
        self.public = Path(tempfile.mkdtemp(prefix="arena-hostile-"))
        self.public.chmod(0o711)
        self.match_dir = self.public / "match"
        self.marker = f"hostile-{uuid.uuid4().hex[:12]}"
        # The user's real home: both levels keep programs out of it (the basic level's
        # case is skipped where it cannot, see skip_uncontained).
        self.home = os.path.expanduser("~")
        self._canary_before = _tree_digest(self.canary)
        self._home_file = Path(self.home) / "arena-hostile-was-here"

    def targets(self, opponent_folder: Path, opponent_word: str, example: str | list = "") -> str:
        import json
        return json.dumps({"opponent": str(opponent_folder), "canary": str(self.canary),
                           "arena": os.getpid(), "marker": self.marker, "home": self.home,
                           "opponent_word": opponent_word, "example": example})

    def hostile(self, protocol: str, mode: str, opponent_folder: Path, opponent_word: str,
                example: str | list = "") -> str:
        """The seat command of a hostile program (``example``: the shipped program it
        answers like after its trick, for Tam Quan and Crossed Words; the engine command
        it becomes, for GTP, UCI and UCCI)."""
        import shlex
        # An engine's files are named on the command line too, so the sandbox shows them.
        shown = [x for x in example if os.path.isfile(x)] if isinstance(example, list) else []
        return " ".join(shlex.quote(x) for x in (
            PY, str(HOSTILE), protocol, mode, self.targets(opponent_folder, opponent_word, example),
            *shown))

    def limits(self, **more) -> dict:
        return {"sandbox": self.level, "memory_mb": 512, "processes": 48, **more}

    def check_after(self) -> None:
        """Nothing outside the match folders changed, and no hostile process is left."""
        try:
            assert _tree_digest(self.canary) == self._canary_before, "the user's folder changed"
            assert not self._home_file.exists(), "a program wrote into the user's home"
            deadline = time.monotonic() + 5
            while marked_processes(self.marker) and time.monotonic() < deadline:
                time.sleep(0.1)
            left = marked_processes(self.marker)
            for proc in left:                      # never leave them running, even on failure
                try:
                    proc.kill()
                except psutil.Error:
                    pass
            assert not left, f"processes left behind: {[p.pid for p in left]}"
        finally:
            shutil.rmtree(self.public, ignore_errors=True)
            if self._home_file.exists() and self._home_file.read_text() == "x":
                self._home_file.unlink()           # a failed case's trace, never kept


@pytest.fixture(params=LEVELS)
def world(request, tmp_path):
    w = World(tmp_path, request.param)
    yield w
    w.check_after()
