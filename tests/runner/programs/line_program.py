"""A tiny line program for tests of runner.line_seat.LineSeat.

``line_program.py MODE``: ``hello`` answers ``hi`` to ``hello``; ``go`` answers
``move N`` (after writing ``thinking N`` on stderr), except in the modes that misbehave:

* ``mute``: reads everything, answers nothing, keeps running;
* ``exit``: leaves at once with exit code 3;
* ``stall``: answers ``hello``, then never answers ``go``.
"""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
if mode == "exit":
    sys.exit(3)
turn = 0
for line in sys.stdin:
    word = line.strip()
    if mode == "mute":
        continue
    if word == "hello":
        print("hi", flush=True)
    elif word == "go" and mode != "stall":
        turn += 1
        print(f"thinking {turn}", file=sys.stderr, flush=True)
        print(f"move {turn}", flush=True)
    elif word == "quit":
        break
