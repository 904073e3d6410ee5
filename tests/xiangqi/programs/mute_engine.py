"""A UCI engine that never gets through its handshake: it reads every line and answers
none (no ``uciok``), as an engine that hangs at start or a wrong program would."""
import sys

for _ in sys.stdin:
    pass
