"""Stays put, taking 0.15 s; logs each run's start and end times to STATE.DAT."""
import os
import time
start = time.time()
words = open("MAP.INP").read().split()
x, y = words[4], words[5]
move = "2 2" if x == "-1" else f"{x} {y}"
time.sleep(0.15)
log = open("STATE.DAT").read() if os.path.exists("STATE.DAT") else ""
open("STATE.DAT", "w").write(log + f"{start} {time.time()}\n")
open("MOVE.OUT", "w").write(move + "\n")
