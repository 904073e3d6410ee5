"""A Hex program that misbehaves on purpose, speaking the raw line protocol.

Usage: misbehave.py MODE, MODE one of
  crash     exits with code 3 on its second turn
  hang      never answers on its second turn
  garbage   prints junk lines, then plays normally
  occupied  tries an occupied cell first on its second turn, then a free one
  offboard  tries (0, 0) and (N+1, 1) first, then a free cell
  twice     puts two stones in one turn (the second is refused)
  nostone   says done without a stone on its second turn
  early     exits right after reading the start position
  flood     prints 20,000 junk lines on its first turn, then plays
  swapper   as player 2, answers the first move with the pie rule's swap
"""
import sys
import time

mode = sys.argv[1]
board = {}
n = 0


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.split()


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def read_board():
    board.clear()
    for r in range(1, n + 1):
        for c, ch in enumerate(sys.stdin.readline().strip(), start=1):
            if ch != ".":
                board[r, c] = int(ch)


def wait_turn():
    while True:
        words = read()
        if words[0] == "board":
            read_board()
        elif words[0] == "move":
            board[int(words[1]), int(words[2])] = 2
        elif words[0] == "yourturn":
            return True
        elif words[0] == "end":
            return False


def first_free():
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            if (r, c) not in board:
                return r, c


def put(r, c):
    send(f"put {r} {c}")
    while True:
        words = read()
        if words[0] == "ok":
            board[r, c] = 1
            return int(words[1])
        if words[0] == "error":
            return None
        if words[0] == "end":
            sys.exit(0)


words = read()
while words[0] != "start":
    words = read()
n = int(words[1])
read_board()
if mode == "early":
    sys.exit(0)
turn = 0
while wait_turn():
    turn += 1
    if turn == 2 and mode == "crash":
        sys.stderr.write("about to crash\n")
        sys.exit(3)
    if turn == 2 and mode == "hang":
        time.sleep(3600)
    if turn == 1 and mode == "swapper":
        send("swap")
        while read()[0] != "ok":
            pass
        send("done")
        continue
    if turn == 2 and mode == "nostone":
        send("done")
        continue
    if mode == "garbage":
        send("hello arena")
        send("PUT ME DOWN")
    if mode == "flood" and turn == 1:
        sys.stdout.write("junk\n" * 20000)
    if turn == 2 and mode == "occupied":
        put(*next(iter(board)))
    if turn == 2 and mode == "offboard":
        put(0, 0)
        put(n + 1, 1)
    status = put(*first_free())
    if mode == "twice":
        put(*first_free())
    if status:
        break
    send("done")
