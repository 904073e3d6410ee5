"""A Hex program that reports its own environment, then plays like the shipped example.

It writes every variable it was started with, as JSON, to ``env.json`` in its working
folder and to stderr, then becomes ``games/hex/examples/shortest_path.py``: the test
(test_hostile_environment.py) checks that a variable of the arena's is not among them.
"""
import json
import os
import sys
from pathlib import Path

report = json.dumps(dict(os.environ), sort_keys=True)
try:
    Path("env.json").write_text(report)
except OSError:
    pass
print("ENV " + report, file=sys.stderr, flush=True)
honest = Path(__file__).resolve().parents[2] / "games" / "hex" / "examples" / "shortest_path.py"
os.execv(sys.executable, [sys.executable, str(honest)])
