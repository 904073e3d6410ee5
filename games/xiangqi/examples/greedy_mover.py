#!/usr/bin/env python3
"""A sample Xiangqi contest program (``CC``): the move-file protocol, one-move greedy.

It reads PLAY.INI from its folder, plays the side marked COMPUTER, writes each move to
its own move file and waits for the other side's (a new content that stayed the same
for two looks), and stops on a status word (RULES.md and CONTEST.md).  Its choice:
the capture of the most valuable piece, else a quiet move picked by a fixed seed, so
the same game replays the same way.  To stay short it takes its move generator from
the arena's rules module.

Before each move it writes DEBUG.OUT, annotations the arena draws on the board
(docs/ANNOTATIONS.md): an arrow for its move, lines for the next two candidates, the
piece it takes marked, and a line of text.  Run it with
``ext:python3 games/xiangqi/examples/greedy_mover.py``.
"""
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from games.xiangqi.rules import XiangqiGame  # noqa: E402

STATUS = ("FINISH", "WIN", "LOST", "DRAW")
VALUES = {"r": 9, "c": 4.5, "n": 4, "h": 4, "b": 2, "e": 2, "a": 2, "p": 1, "k": 100}


def read(path):
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def write(path, text):
    with open(path, "w") as fh:
        fh.write(text)


def wait_for_change(path, last, poll=0.02, limit=900.0):
    """The other side's next move file content (the same on two looks in a row)."""
    seen, end = None, time.time() + limit
    while time.time() < end:
        now = read(path)
        if now is not None and now != last:
            if now == seen:
                return now
            seen = now
        time.sleep(poll)
    return None


def gain(state, move):
    """What a move takes: the value of the piece on its target point (0: none)."""
    return VALUES.get(state.piece_at(move[2:4]).lower(), 0)


def choose(state, side, rng):
    """The move taking most, ties broken by the seeded generator; its rivals next."""
    moves = sorted(state.legal_moves(side))
    rng.shuffle(moves)
    ranked = sorted(moves, key=lambda m: -gain(state, m))
    best = ranked[0]
    notes = [f"arrow {best[:2]} {best[2:]} green",
             *(f"line {m[:2]} {m[2:]} grey" for m in ranked[1:3]),
             f"text {best} takes {gain(state, best):g}; {len(moves)} moves looked at"]
    if gain(state, best):
        notes.append(f"mark {best[2:]} red takes")
    write("DEBUG.OUT", "\n".join(notes).lower() + "\n")   # before the move file
    return best


def main():
    lines = [line.strip() for line in (read("PLAY.INI") or "").splitlines()]
    side = 0 if lines[0] == "COMPUTER" else 1
    own_file, other_file = lines[4 + side], lines[5 - side]
    rng = random.Random(1)
    state = XiangqiGame().new_initial_state({"no_capture_limit": 0}, 0)
    last_other = None
    while True:
        if state.side == side and not state.is_terminal():
            move = choose(state, side, rng)
            write(own_file, move + "\n-1\n-1\n")
            state.apply({side: move})
        text = wait_for_change(other_file, last_other)
        if text is None:
            return 1
        last_other = text
        word = text.splitlines()[0].strip().upper() if text.strip() else ""
        if word in STATUS:
            return 0
        state.apply({side ^ 1: word})


if __name__ == "__main__":
    sys.exit(main())
