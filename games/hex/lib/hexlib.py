"""HexLib for Python: the IOI 1997 Hex library's calls over the arena's line protocol.

Put this file next to your program and ``from hexlib import *``.  The calls are the
contest's: GetMax, LookAtBoard, PutHex, GameIsOver, MakeLibMove, GetRow, GetColumn
(plus GetPlayer, which says which side the arena seated you on).

You are always player 1, you connect column 1 with column N, and your stones are 1.
When the arena seats you as player 2 it shows you the board transposed, with the
colours swapped, so the same program plays either side; the opponent has then
already made its first move when your program starts (GetRow/GetColumn give it).

Standard output belongs to the protocol: from the first call on, ``print`` goes to
standard error (the arena shows it in the debug panel).  See PROTOCOL.md.
"""
import sys

__all__ = ["GetMax", "LookAtBoard", "PutHex", "GameIsOver", "MakeLibMove",
           "GetRow", "GetColumn", "GetPlayer", "Debug"]

_input = None
_output = None
_started = False
_size = 0
_player = 1
_board = []                      # _board[row][col], 1-based, 0/1/2 in your view
_last = (-1, -1)
_status = 0                      # GameIsOver's number
_placed = False                  # a stone was accepted this turn


def _read():
    line = _input.readline()
    if not line:                 # the arena is gone: nothing left to play for
        sys.exit(0)
    return line.split()


def _send(text):
    _output.write(text + "\n")
    _output.flush()


def _read_rows():
    global _board
    _board = [[0] * (_size + 2)]
    for _ in range(_size):
        row = _input.readline().strip()
        _board.append([0] + [".12".index(ch) for ch in row] + [0])
    _board.append([0] * (_size + 2))


def _handle(words):
    """Apply one arena message; return its first word."""
    global _last, _status, _placed
    kind = words[0] if words else ""
    if kind == "move":
        row, col = int(words[1]), int(words[2])
        _board[row][col] = 2
        _last = (row, col)
    elif kind == "board":
        _read_rows()
    elif kind == "end":
        _status = int(words[1])
    elif kind == "yourturn":
        _placed = False
    return kind


def _wait_for_turn():
    """Read until it is our turn or the game is over."""
    while _handle(_read()) not in ("yourturn", "end"):
        pass


def _start():
    """On the first call: take stdin/stdout for the protocol, read the start, wait for our turn."""
    global _size, _player, _input, _output, _started
    if _started:
        return
    _started = True
    _input, _output = sys.stdin, sys.stdout
    sys.stdout = sys.stderr      # the program's own prints must not reach the arena
    words = _read()
    while words[:1] != ["start"]:            # "hexlib 1" greets first
        words = _read()
    _size, _player = int(words[1]), int(words[2])
    _read_rows()
    _wait_for_turn()


def GetMax():
    """The board size N."""
    _start()
    return _size


def GetPlayer():
    """1 or 2: the side the arena seated you on (your view is always player 1's)."""
    _start()
    return _player


def LookAtBoard(row, column):
    """-1 off the board, 0 empty, 1 your stone, 2 the opponent's."""
    _start()
    if not (1 <= row <= _size and 1 <= column <= _size):
        return -1
    return _board[row][column]


def PutHex(row, column):
    """Place your stone if the cell is free (the arena records any misuse)."""
    global _status
    _start()
    if _status:
        return
    _send(f"put {int(row)} {int(column)}")
    while True:
        words = _read()
        kind = _handle(words)
        if kind == "ok":
            _board[row][column] = 1
            _status = int(words[1])
            return
        if kind in ("error", "end"):
            return


def Debug(command):
    """An annotation for this turn, drawn on the arena's board (not part of the 1997
    library): ``Debug("mark c3 red best")``, ``Debug("heat d4 7")``.  Cells are named
    in your view (column letter, row number: ``c3`` is LookAtBoard(3, 3)); the arena
    turns them round when you play second.  Call it before PutHex.  See docs/ANNOTATIONS.md."""
    _start()
    _send("# debug " + " ".join(str(command).split()))


def GameIsOver():
    """0 running, 1 board full, 2 you won, 3 the opponent won."""
    _start()
    return _status


def MakeLibMove():
    """End your turn; returns after the opponent has moved (or the game ended)."""
    _start()
    if _status:
        return
    _send("done")
    _wait_for_turn()


def GetRow():
    """Row of the opponent's last stone, or -1 before its first."""
    _start()
    return _last[0]


def GetColumn():
    """Column of the opponent's last stone, or -1 before its first."""
    _start()
    return _last[1]

