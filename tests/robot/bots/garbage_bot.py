"""Writes garbage to MOVE.OUT: words, then binary, then a huge file, in turn."""
turn = int(open("MAP.INP").read().split()[3])
kind = turn % 3
with open("MOVE.OUT", "wb") as fh:
    if kind == 0:
        fh.write(b"north please\n")
    elif kind == 1:
        fh.write(b"\x00\x01\x02\xff")
    else:
        fh.write(b"1 " * 100000)
