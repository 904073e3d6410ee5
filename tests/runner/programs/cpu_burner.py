"""A Robot program that burns CPU on its first turn, then answers at once.

``burn=S``: on turn 0 it uses S CPU seconds in all, half in a child process it forks
(so only a clock that counts the whole process tree sees all of it), half itself, at
the same time; then it stays where the map puts it (1,1 on the first turn).
"""
import os
import sys
import time

seconds = float(next((w[5:] for w in sys.argv[1:] if w.startswith("burn=")), "0"))
lines = open("MAP.INP").read().split("\n")
turn = int(lines[0].split()[3])
x, y, _ = lines[1].split()


def burn(amount: float) -> None:
    start = time.process_time()
    while time.process_time() - start < amount:
        pass


if turn == 0 and seconds:
    child = os.fork()
    if child == 0:
        burn(seconds / 2)
        os._exit(0)
    burn(seconds / 2)
    os.waitpid(child, 0)
open("MOVE.OUT", "w").write(("1 1" if x == "-1" else f"{x} {y}") + "\n")
