"""A contest program ``CC`` for tests: plays uniformly random legal moves.

It behaves as the contest asks (RULEBOOK section 1): reads PLAY.INI from its current
folder, plays the side marked COMPUTER, writes its moves to its own move file, polls
the other side's move file (taking a content once it changed and stayed the same for
two polls), stops on a status word, and keeps REPORT.TXT in its folder.

``--misbehave MODE`` (after ``--after N`` good moves) makes it a bad contestant:
``illegal`` (moves its general two points), ``garbage`` (writes nonsense),
``crash`` (exits with code 3), ``hang`` (stops answering), ``lost`` (resigns),
``win`` (claims a win it has not got).
"""
import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from games.xiangqi.rules import XiangqiGame  # noqa: E402

STATUS = ("FINISH", "WIN", "LOST", "DRAW")


def read(path):
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def write(path, text):
    with open(path, "w") as fh:     # a plain write: the arena's polling must cope
        fh.write(text)


def wait_for_change(path, last, poll, limit=120.0):
    """The other side's next file content (two equal reads in a row)."""
    seen, end = None, time.time() + limit
    while time.time() < end:
        now = read(path)
        if now is not None and now != last:
            if now == seen:
                return now
            seen = now
        time.sleep(poll)
    return None


def report(authors, words, moves):
    lines = list(authors) + [words]
    for i in range(0, len(moves), 2):
        lines.append(" ".join([str(i // 2 + 1)] + moves[i:i + 2]))
    write("REPORT.TXT", "\n".join(lines) + "\n")


def bad_move(state, mode):
    if mode == "illegal":
        general = next(sq for sq in ("E0", "D0", "F0", "E1", "D1", "F1", "E2", "D2", "F2",
                                     "E9", "D9", "F9", "E8", "D8", "F8", "E7", "D7", "F7")
                       if state.piece_at(sq) == ("K" if state.side == 0 else "k"))
        rank = int(general[1])
        return general + general[0] + str(rank + 2 if rank < 5 else rank - 2)
    return {"garbage": "HELLO ARENA", "lost": "LOST", "win": "WIN"}[mode]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--misbehave", default="")
    parser.add_argument("--after", type=int, default=0, help="good moves before misbehaving")
    parser.add_argument("--poll", type=float, default=0.02)
    parser.add_argument("--stamps", default="",
                        help="append time.monotonic() to this file after each move is written "
                        "(the relay bench measures from there)")
    args = parser.parse_args()
    lines = [line.strip() for line in read("PLAY.INI").splitlines()]
    side = 0 if lines[0] == "COMPUTER" else 1
    own_file, other_file = lines[4 + side], lines[5 - side]
    rng = random.Random(args.seed if args.seed is not None else os.getpid())
    state = XiangqiGame().new_initial_state({"no_capture_limit": 0}, 0)
    moves, good, last_other = [], 0, None
    authors = ("Test Author", "Random mover", "Nowhere")
    while True:
        if state.side == side and not state.is_terminal():
            if args.misbehave and good >= args.after:
                if args.misbehave == "crash":
                    sys.exit(3)
                if args.misbehave == "hang":
                    time.sleep(3600)
                # Said first: the arena takes a finished move file within milliseconds.
                print(f"misbehaved: {args.misbehave}", file=sys.stderr, flush=True)
                time.sleep(0.05)
                write(own_file, bad_move(state, args.misbehave) + "\n")
            else:
                move = rng.choice(list(state.legal_moves(side)))
                write(own_file, move.lower() + "\n-1\n-1\n")    # lower case: the arena must accept it
                if args.stamps:
                    with open(args.stamps, "a") as fh:
                        fh.write(f"{time.monotonic():.6f}\n")
                state.apply({side: move})
                moves.append(move)
                good += 1
                report(authors, " ".join(lines[:2]), moves)
        text = wait_for_change(other_file, last_other, args.poll)
        if text is None:
            return 1
        last_other = text
        word = text.splitlines()[0].strip().upper() if text.strip() else ""
        if word in STATUS:
            print(f"status {word}", file=sys.stderr)
            return 0
        state.apply({side ^ 1: word})
        moves.append(word)
        report(authors, " ".join(lines[:2]), moves)


if __name__ == "__main__":
    sys.exit(main())
