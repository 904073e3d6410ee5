"""A small GTP Hex engine for tests, in Benzene/HexGui conventions.

Black moves first and connects the top and bottom rows (the numbers); white connects
the left and right columns (the letters); ``c5`` is column c, row 5; the neighbours of
(x, y) are (x±1, y), (x, y±1), (x+1, y-1), (x-1, y+1).  It knows nothing of the
arena's orientation, so a wrong translation on the arena's side shows up as
disagreement on ``final_score``.

Play: a cell on both sides' cheapest chains (greedy), ties broken by a seeded
random generator; ``--random`` plays uniformly at random.  ``--crash-after K`` and
``--hang-after K`` misbehave on the (K+1)-th genmove; ``--one-number-boardsize-error``
refuses ``boardsize N`` so the arena must use ``boardsize N N``.

Benzene's (MoHex's) behaviours, each as MoHex has it:

* ``time_left COLOUR SECONDS`` (two arguments only; the GTP three-argument form is
  refused); ``--max-time S`` thinks S seconds per genmove (MoHex's ``max_time``,
  default 10 s there) unless ``--mohex`` is given and ``param_mohex
  use_time_management 1`` was sent: then it thinks a fifth of its time left;
* ``param_game allow_swap 0|1``; ``--swap`` answers ``swap-pieces`` as white's first
  move when allowed; ``play w swap-pieces`` keeps the board as it is (Benzene);
* ``showboard`` answers ``= `` and then a line of one space before the board;
* ``--max-size N`` refuses larger boards in Fuego's words;
* ``undo`` (``--no-undo`` leaves it out);
* each genmove writes a line on stderr; ``--annotate`` also prints ``# debug`` lines
  (a mark on its move, and a line that is no command) before its answer;
* ``name`` and ``version`` answer ``--name`` and ``--version`` (``--no-name`` refuses
  both); ``--stats`` prints MoHex's search statistics block on stderr after each
  genmove: ``GamesPlayed`` (100 times the genmove's number), ``Nodes``, ``Score``
  (0.25 plus a hundredth per genmove) and ``Sequence`` (its move, then two empty cells).
* ``--dfpn``: ``dfpn-solve-state COLOUR`` answers the winner with perfect play,
  ``black`` or ``white``, by exhaustive search when at most ``SOLVE_EMPTY_CELLS`` cells are
  empty, and ``empty`` (Benzene's "not solved in the time limit") otherwise;
  ``param_dfpn timelimit S`` is accepted.
"""
import argparse
import random
import sys
from collections import deque

LETTERS = "abcdefghijklmnopqrst"
SOLVE_EMPTY_CELLS = 12
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1))
BLACK, WHITE = "b", "w"


class Board:
    def __init__(self, n):
        self.n = n
        self.cells = {}            # (x, y) 1-based -> "b" / "w"

    def name(self, cell):
        return f"{LETTERS[cell[0] - 1]}{cell[1]}"

    def parse(self, text):
        x, y = LETTERS.index(text[0].lower()) + 1, int(text[1:])
        if not (1 <= x <= self.n and 1 <= y <= self.n):
            raise ValueError("off board")
        return x, y

    def empty(self):
        return [(x, y) for y in range(1, self.n + 1) for x in range(1, self.n + 1)
                if (x, y) not in self.cells]

    def edge_cells(self, colour, first):
        k = 1 if first else self.n
        return [(i, k) if colour == BLACK else (k, i) for i in range(1, self.n + 1)]

    def winner(self):
        for colour in (BLACK, WHITE):
            seen = set(c for c in self.edge_cells(colour, True) if self.cells.get(c) == colour)
            todo = list(seen)
            goal = set(self.edge_cells(colour, False))
            while todo:
                cell = todo.pop()
                if cell in goal:
                    return colour
                for dx, dy in STEPS:
                    nxt = (cell[0] + dx, cell[1] + dy)
                    if nxt not in seen and self.cells.get(nxt) == colour:
                        seen.add(nxt)
                        todo.append(nxt)
        return None

    def distances(self, colour, first):
        dist, queue = {}, deque()
        for cell in self.edge_cells(colour, first):
            owner = self.cells.get(cell)
            if owner not in (None, colour):
                continue
            cost = 0 if owner == colour else 1
            dist[cell] = cost
            (queue.appendleft if cost == 0 else queue.append)(cell)
        while queue:
            cell = queue.popleft()
            for dx, dy in STEPS:
                nxt = (cell[0] + dx, cell[1] + dy)
                if not (1 <= nxt[0] <= self.n and 1 <= nxt[1] <= self.n):
                    continue
                owner = self.cells.get(nxt)
                if owner not in (None, colour):
                    continue
                cost = dist[cell] + (0 if owner == colour else 1)
                if cost < dist.get(nxt, 10 ** 6):
                    dist[nxt] = cost
                    (queue.appendleft if owner == colour else queue.append)(nxt)
        return dist

    def greedy(self, colour, rng):
        scores = {}
        for who in (BLACK, WHITE):
            a, b = self.distances(who, True), self.distances(who, False)
            for cell in self.empty():
                scores[cell] = scores.get(cell, 0) + a.get(cell, 10 ** 4) + b.get(cell, 10 ** 4)
        best = min(scores.values())
        return rng.choice(sorted(c for c, s in scores.items() if s == best))

    def solve(self, to_move, memo):
        """The colour that wins from here with ``to_move`` to play (exhaustive, memoised)."""
        winner = self.winner()
        if winner:
            return winner
        key = (frozenset(self.cells.items()), to_move)
        if key not in memo:
            other = WHITE if to_move == BLACK else BLACK
            memo[key] = other
            for cell in self.empty():
                self.cells[cell] = to_move
                result = self.solve(other, memo)
                del self.cells[cell]
                if result == to_move:
                    memo[key] = to_move
                    break
        return memo[key]

    def show(self):
        lines = ["  " + " ".join(LETTERS[:self.n])]
        for y in range(1, self.n + 1):
            row = " ".join({None: ".", BLACK: "B", WHITE: "W"}[self.cells.get((x, y))]
                           for x in range(1, self.n + 1))
            lines.append(" " * y + f"{y:2d} {row}")
        return "\n".join(lines)


def write_stats(genmoves, sequence):
    """MoHex's statistics block, as it prints one on stderr at the end of a search."""
    sys.stderr.write("info: \n"
                     f"Elapsed Time   0.01s\nCount          {100 * genmoves}\n"
                     f"GamesPlayed    {100 * genmoves}\nNodes          {300 * genmoves}\n"
                     f"Score          {0.25 + genmoves / 100:.2f}\n"
                     f"Sequence       {' '.join(sequence)}\ninfo: \n")
    sys.stderr.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random", action="store_true")
    parser.add_argument("--crash-after", type=int, default=-1)
    parser.add_argument("--hang-after", type=int, default=-1)
    parser.add_argument("--one-number-boardsize-error", action="store_true")
    parser.add_argument("--max-time", type=float, default=0.0)
    parser.add_argument("--mohex", action="store_true")
    parser.add_argument("--swap", action="store_true")
    parser.add_argument("--max-size", type=int, default=19)
    parser.add_argument("--no-undo", action="store_true")
    parser.add_argument("--annotate", action="store_true")
    parser.add_argument("--name", default="test-gtp-hex")
    parser.add_argument("--version", default="1")
    parser.add_argument("--no-name", action="store_true")
    parser.add_argument("--stats", action="store_true")
    parser.add_argument("--dfpn", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    board = Board(11)
    history = []                   # (cell or "swap", colour) as played
    genmoves = 0
    allow_swap = False
    time_left = {}
    mohex = {"use_time_management": "0", "max_time": str(args.max_time), "max_games": "99999999"}
    commands = ["protocol_version", "name", "version", "known_command", "list_commands",
                "boardsize", "clear_board", "play", "genmove", "showboard", "final_score", "quit",
                "time_left", "param_game"]
    commands += [] if args.no_undo else ["undo"]
    commands += ["param_mohex"] if args.mohex else []
    commands += ["dfpn-solve-state", "param_dfpn"] if args.dfpn else []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
        command, rest = words[0], words[1:]
        ok, text = True, ""
        try:
            if command == "protocol_version":
                text = "2"
            elif command in ("name", "version") and args.no_name:
                raise KeyError(command)
            elif command == "name":
                text = args.name
            elif command == "version":
                text = args.version
            elif command not in commands:
                raise KeyError(command)
            elif command == "known_command":
                text = "true" if rest and rest[0] in commands else "false"
            elif command == "list_commands":
                text = "\n".join(commands)
            elif command == "boardsize":
                if args.one_number_boardsize_error and len(rest) == 1:
                    raise ValueError("give the width and height")
                if int(rest[0]) > args.max_size:
                    raise ValueError(f"argument 1 ({rest[0]}) must be less or equal {args.max_size}")
                board, history = Board(int(rest[0])), []
            elif command == "clear_board":
                board, history = Board(board.n), []
            elif command == "play":
                colour = rest[0][0].lower()
                if rest[1].lower() == "swap-pieces":
                    if not allow_swap or len(history) != 1:
                        raise ValueError("illegal move: swap-pieces (invalid)")
                    history.append(("swap", colour))        # Benzene: the board stays as it is
                else:
                    cell = board.parse(rest[1])
                    if cell in board.cells:
                        raise ValueError("cell is occupied")
                    board.cells[cell] = colour
                    history.append((cell, colour))
            elif command == "undo":
                if args.no_undo:
                    raise KeyError(command)
                if history:
                    cell, _ = history.pop()
                    board.cells.pop(cell, None)
            elif command == "time_left":
                if len(rest) != 2:
                    raise ValueError("Command takes at most 2 arguments")
                time_left[rest[0][0].lower()] = float(rest[1])
            elif command == "param_game":
                if rest[:1] == ["allow_swap"]:
                    allow_swap = rest[1] in ("1", "true")
                elif rest:
                    raise ValueError(f"Unknown parameter: {rest[0]}")
            elif command == "param_mohex" and args.mohex:
                if len(rest) == 2:
                    mohex[rest[0]] = rest[1]
                else:
                    text = "\n".join(f"{k} {v}" for k, v in mohex.items())
            elif command == "genmove":
                colour = rest[0][0].lower()
                if genmoves == args.crash_after:
                    sys.exit(5)
                if genmoves == args.hang_after:
                    import time
                    time.sleep(3600)
                genmoves += 1
                think = float(mohex["max_time"])
                if mohex["use_time_management"] in ("1", "true") and colour in time_left:
                    think = time_left[colour] / 5
                sys.stderr.write(f"genmove {genmoves} {colour}: thinking {think:.2f} s\n")
                sys.stderr.flush()
                if think:
                    import time
                    time.sleep(think)
                if board.winner():
                    text = "resign"
                elif args.swap and allow_swap and colour == WHITE and len(history) == 1:
                    history.append(("swap", colour))
                    text = "swap-pieces"
                else:
                    cell = rng.choice(board.empty()) if args.random else board.greedy(colour, rng)
                    board.cells[cell] = colour
                    history.append((cell, colour))
                    text = board.name(cell)
                    if args.stats:
                        write_stats(genmoves, [text] + [board.name(c) for c in board.empty()[:2]])
                    if args.annotate:          # bot annotations, before the answer
                        sys.stdout.write(f"# debug mark {text} red gtp\n# debug nonsense\n")
            elif command == "dfpn-solve-state":
                colour = rest[0][0].lower()
                if len(board.empty()) > SOLVE_EMPTY_CELLS:
                    text = "empty"
                else:
                    text = {BLACK: "black", WHITE: "white"}[board.solve(colour, {})]
            elif command == "param_dfpn":
                if rest[:1] != ["timelimit"]:
                    raise ValueError(f"Unknown parameter: {rest[0] if rest else ''}")
            elif command == "showboard":
                text = "\n \n" + board.show()         # MoHex: a line of one space first
            elif command == "final_score":
                winner = board.winner()
                text = f"{winner.upper()}+" if winner else "0"
            elif command == "quit":
                sys.stdout.write(f"={ident}\n\n")
                sys.stdout.flush()
                return
            else:
                ok, text = False, "unknown command"
        except (ValueError, IndexError) as exc:
            ok, text = False, str(exc)
        except KeyError:
            ok, text = False, "unknown command"
        sys.stdout.write(f"{'=' if ok else '?'}{ident} {text}\n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
