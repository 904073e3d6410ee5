"""Places well, then answers only its first member's first free step (and a bad line)."""
lines = open("STATE.INP").read().split("\n")
n = int(lines[0].split()[0])
me = lines[1].split()[0]
board = lines[2:2 + n]
zones = int(lines[2 + n])
with open("MOVE.OUT", "w") as fh:
    if zones:
        words = lines[3 + n].split()
        count = int(lines[1].split()[1])
        cells = words[2:2 + 2 * count]
        fh.write(words[0] + "\n" + "\n".join(" ".join(cells[i:i + 2]) for i in range(0, len(cells), 2)) + "\n")
    else:
        r, c = next((r, c) for r in range(n) for c in range(n) if board[r][c] == me)
        for a, b in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
            if 0 <= a < n and 0 <= b < n and board[a][b] == ".":
                fh.write(f"{r} {c} {a} {b}\n")
                break
        fh.write("99 99 99 98\n")
