#!/usr/bin/env python3
"""A small Crossed Words Solitaire player, as a contestant might write it.

Standard library only, and nothing from the arena.  Run in a folder holding
``input.txt`` (three lines of 66 letters), ``seconds.txt`` (the time limit) and
``dictionary/`` (word files, one word a line); it writes ``output.txt``.

Each turn it fills its hand from the pile with the most letters left, then plays
the best-scoring word that crosses or extends one letter already on the board
(the first word goes across row 9).  With no word it discards its costliest
letter; it stops when the piles are empty and nothing fits, or when half its
time is used, and always writes output.txt before the limit.

It also writes DEBUG.OUT, annotations the arena draws on the board (docs/ANNOTATIONS.md):
the first square of each word it plays, marked with the word and its score.  The
program runs once for the whole game, so they go with the first turn.
"""
import os
import re
import sys
import time
from collections import Counter
from itertools import combinations

START = time.monotonic()
N = 17
VALUES = dict(zip("QJXZVWKFYBHMPGUCDLTONRAISE",
                  [9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1]))


def bonus_grid():
    g = [["."] * N for _ in range(N)]
    for grp in ((0, 8, 16), (4, 12)):
        for r in grp:
            for c in grp:
                g[r][c] = "T"
    for r in (2, 6, 10, 14):
        for c in (2, 6, 10, 14):
            g[r][c] = "D"
    for r, c in ((0, 4), (0, 12), (8, 4), (8, 12), (16, 4), (16, 12), (4, 8), (12, 8)):
        g[r][c] = g[c][r] = "2"
    for r in range(N):
        for c in range(N):
            if g[r][c] == "." and (r == c or r + c == 16 or abs(r - 8) + abs(c - 8) == 8):
                g[r][c] = "3"
    return g


BONUS = bonus_grid()


def read_words(folder):
    words = set()
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as fh:
            for w in re.split(rb"\r\n|\r|\n", fh.read()):
                w = w.strip().decode("latin-1").upper()
                if 2 <= len(w) <= 12 and w.isalpha():
                    words.add(w)
    return words


def run(board, r, c, dr, dc):
    """Squares of the run of letters through (r, c) along (dr, dc)."""
    while 0 <= r - dr and 0 <= c - dc and board[r - dr][c - dc] != ".":
        r, c = r - dr, c - dc
    out = []
    while r < N and c < N and board[r][c] != ".":
        out.append((r, c))
        r, c = r + dr, c + dc
    return out


def points(board, squares):
    total, factor = 0, 1
    for r, c in squares:
        b = BONUS[r][c]
        total += VALUES[board[r][c]] * (2 if b == "2" else 3 if b == "3" else 1)
        factor *= 2 if b == "D" else 3 if b == "T" else 1
    return total * factor


def try_place(board, words, hand, r, c, across, word, first):
    """(total, main points, [(cross, pts)], bonus, used letters) or None when illegal."""
    dr, dc = (0, 1) if across else (1, 0)
    end_r, end_c = r + dr * (len(word) - 1), c + dc * (len(word) - 1)
    if r < 0 or c < 0 or end_r >= N or end_c >= N:
        return None
    for br, bc in ((r - dr, c - dc), (end_r + dr, end_c + dc)):
        if 0 <= br < N and 0 <= bc < N and board[br][bc] != ".":
            return None
    placed, touches = [], first
    for i, ch in enumerate(word):
        rr, cc = r + dr * i, c + dc * i
        if board[rr][cc] == ".":
            placed.append((rr, cc, ch))
        elif board[rr][cc] != ch:
            return None
        else:
            touches = True
    used = "".join(ch for _, _, ch in placed)
    if not placed or Counter(used) - Counter(hand):
        return None
    new = [row[:] for row in board]
    for rr, cc, ch in placed:
        new[rr][cc] = ch
    crosses = []
    for rr, cc, _ in placed:
        sq = run(new, rr, cc, dc, dr)
        if len(sq) > 1:
            touches = True
            text = "".join(new[a][b] for a, b in sq)
            if text not in words:
                return None
            crosses.append((text, points(new, sq)))
    if not touches:
        return None
    main = points(new, [(r + dr * i, c + dc * i) for i in range(len(word))])
    bonus = 100 if len(placed) == 8 and len(word) >= 8 else 50 if len(placed) == 7 and len(word) >= 7 else 0
    return main + sum(p for _, p in crosses) + bonus, main, crosses, bonus, used


def subsets(hand):
    """Every different choice of letters from the hand, as sorted strings."""
    found = set()
    for n in range(1, len(hand) + 1):
        found.update("".join(sorted(c)) for c in combinations(hand, n))
    return found


def best_move(board, words, anagrams, hand, first):
    best = None
    choices = subsets(hand)
    if first:
        for key in choices:
            for w in anagrams.get(key, ()):
                for c in range(0, N - len(w) + 1):
                    got = try_place(board, words, hand, 8, c, True, w, True)
                    if got and (best is None or got[0] > best[0]):
                        best = (got[0], 8, c, True, w, got)
        return best
    letters = {board[r][c] for r in range(N) for c in range(N) if board[r][c] != "."}
    fits = {}
    for ch in letters:
        for key in choices:
            fits.setdefault(ch, []).extend(anagrams.get("".join(sorted(key + ch)), ()))
    for r in range(N):
        for c in range(N):
            ch = board[r][c]
            if ch == "." or time.monotonic() - START > LIMIT:
                continue
            for w in fits.get(ch, ()):
                for i, x in enumerate(w):
                    if x != ch:
                        continue
                    for across in (True, False):
                        sr, sc = (r, c - i) if across else (r - i, c)
                        got = try_place(board, words, hand, sr, sc, across, w, False)
                        if got and (best is None or got[0] > best[0]):
                            best = (got[0], sr, sc, across, w, got)
    return best


def main():
    global LIMIT
    with open("input.txt", "rb") as fh:
        piles = [line.strip().decode("ascii").upper() for line in fh.read().splitlines() if line.strip()]
    with open("seconds.txt") as fh:
        LIMIT = float(fh.read().split()[0]) * 0.5
    words = read_words("dictionary")
    anagrams = {}
    for w in words:
        anagrams.setdefault("".join(sorted(w)), []).append(w)
    board = [["."] * N for _ in range(N)]
    hand, steps, total, may_draw, first = "", [], 0, True, True
    plays = []                      # annotations: where each word went
    while time.monotonic() - START < LIMIT:
        if may_draw and len(hand) < 8 and any(piles):
            p = max(range(3), key=lambda i: len(piles[i]))
            take = piles[p][:8 - len(hand)]
            piles[p] = piles[p][len(take):]
            hand += take
            may_draw = False
            steps.append(f"draw {p + 1} {take}")
        move = best_move(board, words, anagrams, hand, first)
        if move is None:
            if not any(piles) or not hand:
                break
            worst = max(hand, key=lambda x: VALUES[x])
            hand = hand.replace(worst, "", 1)
            total -= VALUES[worst]
            steps.append(f"discard {worst} -{VALUES[worst]}")
            may_draw = True
            continue
        score, r, c, across, w, (_, main_pts, crosses, bonus, used) = move
        dr, dc = (0, 1) if across else (1, 0)
        for i, ch in enumerate(w):
            board[r + dr * i][c + dc * i] = ch
        for ch in used:
            hand = hand.replace(ch, "", 1)
        total += score
        line = f"play {'ABCDEFGHIJKLMNOPQ'[c]}{r + 1} {'across' if across else 'down'} {w} {main_pts}"
        line += "".join(f" ({x} {p})" for x, p in crosses)
        line += f" +{bonus}" if bonus else ""
        steps.append(f"{line} = {score}")
        plays.append(f"mark {'ABCDEFGHIJKLMNOPQ'[c]}{r + 1} green {w} {score}")
        may_draw, first = True, False
    with open("output.txt", "w", newline="\r\n") as fh:
        fh.write(f"{total}\n")
        for row in board:
            fh.write("".join(row) + "\n")
        fh.write("# simple_player: draw P LETTERS / discard LETTERS -N / "
                 "play SQUARE across|down WORD N (CROSS N) [+BONUS] = TOTAL\n")
        for s in steps:
            fh.write(s + "\n")
        fh.write("stop\n")
    with open("DEBUG.OUT", "w") as fh:
        fh.write("\n".join(plays[:10] + [f"text first {min(10, len(plays))} of {len(plays)} words, {total} points"]) + "\n")
    print(f"{total} points in {time.monotonic() - START:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
