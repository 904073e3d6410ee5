"""A tiny UCI / UCCI Xiangqi engine for tests: plays a random legal move, the same one
whenever it is given the same position and seed.

``fake_engine.py [--fairy] [--ucci] [--seed N] [--bad]``

* default: calls itself Pikafish-like, ranks 0-9 (``h2e2``), legal moves from the
  arena's rules;
* ``--fairy``: calls itself Fairy-Stockfish, offers ``UCI_Variant``, and keeps the
  game with ``pyffish`` (Fairy-Stockfish's own move generator, ranks 1-10): a move
  sent in the wrong notation makes it exit with an error, so the test can fail;
  it refuses to play until ``UCI_Variant`` is set to ``xiangqi``;
* ``--ucci``: speaks UCCI (``ucci``/``ucciok``, ``nobestmove``);
* ``--bad``: answers a move the rules forbid (its general jumps two ranks);
* ``--no-xiangqi``: with ``--fairy``, a build whose UCI_Variant lacks xiangqi;
* ``--hang``: answers ``go`` only after ``stop`` (an endless search);
* ``--log FILE``: appends every line it receives to FILE;
* ``--annotate``: sends bot annotations before ``bestmove`` (an arrow on its move);
* ``--chatty``: writes ``thinking at half-move N`` to stderr before each answer;
* ``--slow-start S``: answers ``uci``/``ucci`` only after S seconds (an engine still
  loading on a busy machine); a large S is an engine that never answers.
"""
import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from games.xiangqi.rules import XiangqiGame  # noqa: E402


def legal_moves(fen, moves, fairy):
    if fairy:
        import pyffish
        return pyffish.legal_moves("xiangqi", fen, moves)
    state = XiangqiGame().new_initial_state({"fen": fen, "no_capture_limit": 0}, 0)
    for move in moves:
        state.apply({state.side: move.upper()})
    return [m.lower() for m in state.legal_moves(state.side)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fairy", action="store_true")
    parser.add_argument("--ucci", action="store_true")
    parser.add_argument("--bad", action="store_true")
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--no-xiangqi", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--annotate", action="store_true")
    parser.add_argument("--chatty", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow-start", type=float, default=0.0)
    args = parser.parse_args()
    pending = False
    protocol = "ucci" if args.ucci else "uci"
    variant, fen, moves = "chess", None, []

    def say(text):
        print(text, flush=True)

    for line in sys.stdin:
        if args.log:
            with open(args.log, "a") as fh:
                fh.write(line)
        words = line.split()
        if not words:
            continue
        if words[0] == "stop" and pending:
            pending = False
            words = ["go"]
        elif words[0] == "go" and args.hang:
            pending = True
            continue
        if words[0] == protocol:
            if args.slow_start:
                import time
                time.sleep(args.slow_start)
            say("id name " + ("Fairy-Stockfish fake" if args.fairy else "Fake engine"))
            say("id author Arena test suite")
            if args.fairy:
                say("option name UCI_Variant type combo default chess var chess"
                    + ("" if args.no_xiangqi else " var xiangqi"))
            say(f"{protocol}ok")
        elif words[0] == "setoption":
            if "UCI_Variant" in words:
                variant = words[-1]
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position":
            rest = " ".join(words[2:]) if words[1] == "fen" else ""
            fen_text, _, move_text = rest.partition(" moves ")
            fen, moves = fen_text.strip(), move_text.split()
        elif words[0] == "go":
            if args.fairy and variant != "xiangqi":
                print(f"fake engine: variant is {variant}, not xiangqi", file=sys.stderr)
                return 4
            if args.chatty:
                print(f"thinking at half-move {len(moves) + 1}", file=sys.stderr, flush=True)
            options = legal_moves(fen, moves, args.fairy)
            if not options:
                say("nobestmove" if args.ucci else "bestmove (none)")
                continue
            if args.bad:
                best = "e0e2" if len(moves) % 2 == 0 else "e9e7"
            else:
                # The same position gives the same move (so a re-run turn reproduces it).
                position_rng = random.Random(f"{args.seed}:{fen}:{' '.join(moves)}")
                best = position_rng.choice(sorted(options))
            # Search info as the real engines print it (UCCI has no "cp"); the last counts.
            score = "" if args.ucci else "cp "
            say(f"info depth 1 score {score}0")
            say(f"info depth {2 + len(moves) % 3} seldepth 7 score {score}{17 + len(moves)} nodes 420 pv {best}")
            if args.annotate and not args.bad:      # bot annotations, before bestmove
                say(f"info string # debug arrow {best[:2]} {best[2:]} green")
                say("# debug text fake engine")
            say("bestmove " + best)
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
