"""Mend MoHex's crash in decided positions, in a Benzene source tree fetched outside the repository.

Benzene's ``EndgameUtil::PlayDeterminedState`` answers a position already won or lost
with ``MostOverlappingMove``: the cell that blocks the most of the winner's connections.
When no cell blocks any (a lost position whose connections its H-search did not keep,
or none left to consider), that function returns -1, and MoHex then plays ``-1`` and
dies with a segmentation fault.  The arena scored such a game as MoHex's crash, so a
strength figure against MoHex was decided by the crash, not on the board.

This script changes that one function, in words: the move it chose is kept when it is
an empty cell of the board; otherwise (-1 or any point that is not an empty cell) it
plays the first empty cell, a legal move, so the game goes on to its connection.
Nothing else of Benzene changes; nothing of Benzene is kept in this repository.  The
change is a search-and-replace on two exact passages of ``src/hex/EndgameUtil.cpp``;
the script stops with a message naming the passage when the source is not the one it
knows, and does nothing when the tree is already patched.

Building MoHex with it (Debian 12; see bench/gtp_match.py's docstring)::

    apt-get install -y libboost-thread-dev libboost-system-dev libboost-filesystem-dev \\
        libboost-program-options-dev libboost-date-time-dev libdb-dev libdb++-dev cmake
    # Benzene: github.com/cgao3/benzene-vanilla-cmake, unpacked in /tmp/mohex
    python bench/patch_mohex.py /tmp/mohex
    mkdir -p /tmp/mohex/build && cd /tmp/mohex/build && cmake .. && nice -n 19 make -j1 mohex
    export ARENA_MOHEX=/tmp/mohex/build/src/mohex/mohex
"""
from __future__ import annotations

import sys
from pathlib import Path

#: The file, inside the Benzene tree, that holds the function.
TARGET = Path("src/hex/EndgameUtil.cpp")

#: Marks a patched file (so running the script twice is harmless).
MARK = "arena: never play a point that is not an empty cell"

#: (what the fetched source says, what it becomes), each found exactly once.
REPLACEMENTS = [
    ("    if (IsWonGame(brd, color))\n"
     "        return PlayWonGame(brd, color);\n"
     "\n"
     "    BenzeneAssert(IsLostGame(brd, color));\n"
     "    return PlayLostGame(brd, color);\n",
     "    HexPoint move = IsWonGame(brd, color) ? PlayWonGame(brd, color)\n"
     "                                          : PlayLostGame(brd, color);\n"
     f"    // {MARK}: MostOverlappingMove returns -1\n"
     "    // when no cell blocks a connection; play the first empty cell instead.\n"
     "    const bitset_t empty = brd.GetPosition().GetEmpty() & brd.Const().GetCells();\n"
     "    if ((move < 0 || move >= BITSETSIZE || !empty.test(move)) && empty.any())\n"
     "        move = (HexPoint)BitsetUtil::FirstSetBit(empty);\n"
     "    return move;\n"),
    ("    if (curMostHits == 0)\n"
     "        LogWarning() << \"curMostHits == 0!!\\n\";\n"
     "    BenzeneAssert(curMostHits > 0);\n",
     "    if (curMostHits == 0)\n"
     "        LogWarning() << \"curMostHits == 0!! (the caller plays an empty cell)\\n\";\n"),
]


def patch(tree: Path) -> str:
    """Patch ``tree``'s EndgameUtil.cpp in place; return what was done, or raise
    ValueError naming the passage that is not found exactly once."""
    path = tree / TARGET
    try:
        text = path.read_text()
    except OSError as error:
        raise ValueError(f"{path}: cannot read it ({error.strerror}); expected a Benzene source tree")
    if MARK in text:
        return f"{path}: already patched"
    for old, new in REPLACEMENTS:
        count = text.count(old)
        if count != 1:
            first_line = old.strip().splitlines()[0]
            raise ValueError(f"{path}: expected the passage starting {first_line!r} once, found it "
                             f"{count} times; this is not the Benzene source this patch knows")
        text = text.replace(old, new)
    path.write_text(text)
    return f"{path}: patched ({len(REPLACEMENTS)} passages)"


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python bench/patch_mohex.py BENZENE_SOURCE_TREE", file=sys.stderr)
        return 2
    try:
        print(patch(Path(args[0])))
    except ValueError as error:
        print(f"patch_mohex: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
