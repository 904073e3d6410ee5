"""Writes a move on turn 0 only, then crashes every turn after."""
import sys
text = open("MAP.INP").read().split()
if text[4] == "-1":
    open("MOVE.OUT", "w").write("1 1\n")
    sys.exit(0)
raise SystemExit(3)
