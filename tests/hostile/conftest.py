"""The hostile-program suite's world: a sandbox level, a user's folder to guard, a
marker on every hostile process, and the checks every hostile test ends with."""
import hashlib
import os
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest

from runner.sandbox import strict_problem

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "hostile.py"
ROOT = HERE.parents[1]
PY = sys.executable
# The word in the user's secret file that must never show in a record.  Not hex, so
# that no random marker or id can contain it (a hex word once came back in a marker).
SECRET = "qwzx"

LEVELS = [pytest.param("strict", marks=pytest.mark.skipif(
              bool(strict_problem()), reason=f"no strict sandbox here: {strict_problem()}")),
          "basic"]


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
        self.match_dir = tmp_path / "match"
        self.marker = f"hostile-{uuid.uuid4().hex[:12]}"
        self.home = os.path.expanduser("~") if level == "strict" else str(self.canary)
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


@pytest.fixture(params=LEVELS)
def world(request, tmp_path):
    w = World(tmp_path, request.param)
    yield w
    w.check_after()
