"""A contest program for tests that notes its CPU priority, then resigns.

Writes ``NICE.TXT`` in its folder: its nice value and its scheduling group
(``/proc/self/autogroup``, empty where there is none), then ``LOST`` to its move file.
"""
import os
from pathlib import Path

lines = [line.strip() for line in Path("PLAY.INI").read_text().splitlines()]
side = 0 if lines[0] == "COMPUTER" else 1
try:
    group = Path("/proc/self/autogroup").read_text().strip()
except OSError:
    group = ""
Path("NICE.TXT").write_text(f"{os.nice(0)}|{group}")
Path(lines[4 + side]).write_text("LOST\n")
