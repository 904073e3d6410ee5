"""Seat specs for the tests' own programs (a Python script run by this interpreter)."""
import shlex
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
#: A UCI/UCCI engine that plays legal Xiangqi moves, with switches to misbehave.
FAKE_ENGINE = TESTS / "xiangqi" / "programs" / "fake_engine.py"
#: A small Benzene-convention GTP engine for Hex.
GTP_ENGINE = TESTS / "hex" / "gtp_engine.py"


def python_command(path, *args) -> str:
    """The command line that runs the script ``path`` with ``args``, quoted for a seat spec."""
    return " ".join(shlex.quote(str(x)) for x in (sys.executable, path, *args))


def fake_engine(kind: str, *args) -> str:
    """A ``kind:`` seat (``uci``, ``ucci``) of the fake Xiangqi engine with ``args``."""
    return f"{kind}:" + python_command(FAKE_ENGINE, *args)


def gtp_engine(*args) -> str:
    """A ``gtp:`` seat of the small Hex engine with ``args``."""
    return "gtp:" + python_command(GTP_ENGINE, *args)
