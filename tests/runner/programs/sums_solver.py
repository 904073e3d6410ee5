"""A whole-game program for the Sums toy game: reads input.txt, writes every move to output.txt.

``sums_solver.py [--bad-line N] [--claim N]``: with --bad-line, line N (2 = the first move)
holds an illegal move ``add 2 9``; --claim writes that score instead of the true one.
"""
import sys

args = sys.argv[1:]
bad = int(args[args.index("--bad-line") + 1]) if "--bad-line" in args else None
count = int(open("input.txt").read().split()[1])
moves = ["add 3 3", "add 2 2", "add 1 1", "stop"]
lines = []
for number, move in enumerate(moves, start=2):
    lines.append("add 2 9" if number == bad else move)
claim = args[args.index("--claim") + 1] if "--claim" in args else str(count + 6 + 4 + 2)
open("output.txt", "w").write("\n".join([f"score {claim}"] + lines) + "\n")
