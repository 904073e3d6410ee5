"""Places itself at (4, 4), then steps right or left along row 4, writing MOVE.OUT in the
style named by its argument: comma, spaces, lead (a leading space) or bare (no newline)."""
import sys

lines = open("MAP.INP").read().split("\n")
x, y = (int(v) for v in lines[1].split()[:2])
if x < 0:
    x, y = 4, 4
else:
    y = y + 1 if y < 8 else y - 1
style = sys.argv[1]
text = {"comma": f"{x},{y}\n", "spaces": f"{x}  {y}\n", "lead": f" {x} {y}\n",
        "bare": f"{x} {y}"}[style]
open("MOVE.OUT", "w", newline="").write(text)
