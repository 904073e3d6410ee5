"""A HexLib (Python) program that prints to standard output, as contest programs might."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "games", "hex", "lib"))
from hexlib import GameIsOver, GetMax, GetPlayer, LookAtBoard, MakeLibMove, PutHex  # noqa: E402

n = GetMax()
print("chatty plays side", GetPlayer(), "on", n)
while GameIsOver() == 0:
    free = [(r, c) for c in range(1, n + 1) for r in range(1, n + 1) if LookAtBoard(r, c) == 0]
    print("thinking about", free[0])
    PutHex(*free[0])
    if GameIsOver():
        break
    MakeLibMove()
print("chatty sees GameIsOver", GameIsOver())
