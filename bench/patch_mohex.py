"""Mend MoHex's crash in decided positions, in a Benzene source tree fetched outside the repository.

MoHex (Benzene) dies of SIGSEGV in some positions already decided, and the arena scored
such a game as MoHex's crash, so a strength figure against MoHex was decided by the
crash, not on the board.  The failures and the two changes, in words:

* ``BenzenePlayer::GenMove`` (every move MoHex generates).  In a decided position
  ``EndgameUtil::PlayDeterminedState`` answers ``MostOverlappingMove``, the cell that
  blocks the most of the winner's connections; when no cell blocks any it returns -1,
  and MoHex plays -1 and dies.  And when the search proves the root won before it has a
  move, MoHex "returns a random move", an empty cell of its board with the fill-in on
  it, where there may be none: it answers an invalid point.  Patched: when the move
  (other than resign or swap) is not an empty cell of the real board, play an empty
  cell its fill-in gave its own colour, or else the first empty cell: a legal move, so
  the game goes on to its connection.
* ``Resistance::ComputeScores`` (the circuit evaluation MoHex's pre-search sorts its
  moves by) builds one equation per group of a colour's stones and empty cells between
  its two edges.  When the fill-in has decided the game there can be no such group
  but the source edge, and the code writes into an empty vector.  Patched: with no
  group to solve for, it leaves the scores at their "unknown" value and returns.

Nothing else of Benzene changes; nothing of Benzene is kept in this repository.  The
changes are searches-and-replaces on exact passages of ``src/hex/BenzenePlayer.cpp``
and ``src/hex/Resistance.cpp``; the script stops with a message naming the passage when
the source is not the one it knows (writing nothing), and skips passages already patched.

Building MoHex with it (Debian 12; see bench/gtp_match.py's docstring)::

    apt-get install -y libboost-thread-dev libboost-system-dev libboost-filesystem-dev \\
        libboost-program-options-dev libboost-date-time-dev libdb-dev libdb++-dev cmake
    # Benzene: github.com/cgao3/benzene-vanilla-cmake, unpacked in /tmp/mohex
    python bench/patch_mohex.py /tmp/mohex
    mkdir -p /tmp/mohex/build && cd /tmp/mohex/build && cmake .. && nice -n 19 make -j1 mohex
    # the binary and its data files (patterns, swap table) in one folder: a seat may
    # read only its program's folder (the sandbox), and MoHex looks beside itself first
    mkdir -p /tmp/mohex/bin && cp /tmp/mohex/build/src/mohex/mohex /tmp/mohex/share/* /tmp/mohex/bin/
    export ARENA_MOHEX=/tmp/mohex/bin/mohex
"""
from __future__ import annotations

import sys
from pathlib import Path

#: Begins the comment each patched passage carries.
MARK = "arena:"

#: (file inside the Benzene tree, what the fetched source says, what it becomes); each
#: passage must be found exactly once.
REPLACEMENTS = [
    (Path("src/hex/BenzenePlayer.cpp"),
     "    if (move != INVALID_POINT) \n"
     "        return move;\n"
     "\n"
     "    LogInfo() << \"Best move cannot be determined, must search state.\\n\";\n"
     "    return Search(state, game, brd, consider, maxTime, score);\n",
     "    if (move == INVALID_POINT)\n"
     "    {\n"
     "        LogInfo() << \"Best move cannot be determined, must search state.\\n\";\n"
     "        move = Search(state, game, brd, consider, maxTime, score);\n"
     "    }\n"
     f"    // {MARK} a decided position can give -1 (MostOverlappingMove finds no\n"
     "    // blocking cell) or a point of the board with the fill-in on it: never answer\n"
     "    // a point that is not an empty cell of the real board; play one of our fill-in\n"
     "    // (or any empty cell) instead.\n"
     "    const bitset_t empty = state.Position().GetEmpty() & state.Position().Const().GetCells();\n"
     "    if (move != RESIGN && move != SWAP_PIECES\n"
     "        && (move < 0 || move >= BITSETSIZE || !empty.test(move)) && empty.any())\n"
     "    {\n"
     "        const bitset_t ours = empty & brd.GetPosition().GetColor(state.ToPlay());\n"
     "        LogWarning() << \"arena patch: point \" << static_cast<int>(move)\n"
     "                     << \" is no empty cell; playing another\\n\";\n"
     "        move = (HexPoint)BitsetUtil::FirstSetBit(ours.any() ? ours : empty);\n"
     "    }\n"
     "    return move;\n"),
    (Path("src/hex/Resistance.cpp"),
     "    // Compute conductances between groups\n"
     "    Mat<double> G(n, n);\n",
     f"    // {MARK} when no group lies between the edges but the source (the fill-in\n"
     "    // filled the board), there is no system to solve: leave the scores unset.\n"
     "    if (n <= 0)\n"
     "    {\n"
     "        m_resistance[color] = 1.0;\n"
     "        return;\n"
     "    }\n"
     "\n"
     "    // Compute conductances between groups\n"
     "    Mat<double> G(n, n);\n"),
]


def patch(tree: Path) -> str:
    """Patch ``tree``'s files in place; return what was done, or raise ValueError naming
    the passage that is not found exactly once (nothing is written then)."""
    texts: dict[Path, str] = {}
    for name in dict.fromkeys(name for name, _, _ in REPLACEMENTS):
        path = tree / name
        try:
            texts[name] = path.read_text()
        except OSError as error:
            raise ValueError(f"{path}: cannot read it ({error.strerror}); expected a Benzene source tree")
    done = 0
    for name, old, new in REPLACEMENTS:
        if new in texts[name]:
            continue                                    # patched before
        count = texts[name].count(old)
        if count != 1:
            first_line = old.strip().splitlines()[0]
            raise ValueError(f"{tree / name}: expected the passage starting {first_line!r} once, found "
                             f"it {count} times; this is not the Benzene source this patch knows")
        texts[name] = texts[name].replace(old, new)
        done += 1
    if not done:
        return f"{tree}: already patched"
    for name, text in texts.items():
        (tree / name).write_text(text)
    return f"{tree}: patched ({done} of {len(REPLACEMENTS)} passages, in {len(texts)} files)"


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
