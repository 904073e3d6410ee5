"""The arena's command line run as a user runs it: ``python main.py ...`` in a child process."""
import os
import subprocess
import sys
from pathlib import Path

#: The repository's root (main.py, games/, runner/, ui/).
ROOT = Path(__file__).resolve().parents[2]


def arena(*args, cwd=ROOT, home=None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``main.py`` with ``args`` in ``cwd`` (no window, no sound, the checkout's code
    importable from any folder; ``home``: its ARENA_HOME), its output captured as text."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    if home is not None:
        env["ARENA_HOME"] = str(home)
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
