"""Counts its runs in STATE.DAT and prints the count to stderr; places itself, then stays."""
import os

runs = int(open("STATE.DAT").read() or 0) if os.path.exists("STATE.DAT") else 0
open("STATE.DAT", "w").write(str(runs + 1))
print(f"run {runs + 1}", file=__import__("sys").stderr)
lines = open("MAP.INP").read().split("\n")
x, y, _ = lines[1].split()
open("MOVE.OUT", "w").write("5 5\n" if x == "-1" else f"{x} {y}\n")
