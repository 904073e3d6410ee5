"""Starts on the outer ring and never moves; counts its runs in STATE.DAT."""
import os
runs = open("STATE.DAT").read() if os.path.exists("STATE.DAT") else ""
open("STATE.DAT", "w").write(runs + "run\n")
open("MOVE.OUT", "w").write("0 0\n")
