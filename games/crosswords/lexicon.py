"""A word list as a minimal DAWG in flat integer arrays (pure Python, no files).

A directed acyclic word graph shares both prefixes and suffixes, so the ~200 000
words of an English list fit in a few hundred thousand integers, serialise to bytes
in one call and load back in milliseconds.  Node ``n`` is described by one integer
``mask[n]``: bits 0-25 say which letters ``a``-``z`` leave the node, bit 26 says a
word ends there.  Its children are stored in letter order in ``edges`` from
``first[n]`` on, so the child for letter ``c`` is
``edges[first[n] + popcount(mask[n] & ((1 << c) - 1))]``.

Letters are lower-case ``a``-``z``; ``letter index`` means ``ord(ch) - 97``.

>>> lex = Lexicon.from_words(["cat", "cats", "at", "bat"])
>>> "cat" in lex, "ca" in lex, lex.has_prefix("ca"), len(lex)
(True, False, True, 4)
>>> sorted(Lexicon.from_bytes(lex.to_bytes()).words())
['at', 'bat', 'cat', 'cats']
"""
from __future__ import annotations

import struct
from array import array
from typing import Iterable, Iterator

FINAL = 1 << 26
LETTERS = (1 << 26) - 1
_MAGIC = b"ARENADAWG1"


class Lexicon:
    """An immutable set of lower-case words with prefix walks (``child``, ``is_final``)."""

    __slots__ = ("mask", "first", "edges", "count", "root")

    def __init__(self, mask: list[int], first: list[int], edges: list[int], count: int):
        self.mask, self.first, self.edges, self.count = mask, first, edges, count
        self.root = 0

    # -- building ---------------------------------------------------------------------
    @classmethod
    def from_words(cls, words: Iterable[str]) -> "Lexicon":
        """Build from any words (lower-case ``a``-``z`` only; others are skipped)."""
        unique = sorted({w for w in words if w and w.isascii() and w.isalpha() and w.islower()})
        # Daciuk's incremental construction for sorted input: a node is a dict of edges
        # plus a final flag; finished suffixes are merged through a register keyed by
        # their (final, edges) signature.
        nodes: list[list] = [[{}, False]]          # [edges: {letter: node id}, final]
        register: dict[tuple, int] = {}
        path: list[int] = [0]                      # node ids along the previous word
        previous = ""

        def minimise(down_to: int) -> None:
            while len(path) - 1 > down_to:
                child = path.pop()
                parent = path[-1]
                edges, final = nodes[child]
                key = (final, tuple(sorted(edges.items())))
                found = register.get(key)
                letter = previous[len(path) - 1]
                if found is None:
                    register[key] = child
                else:
                    nodes[parent][0][letter] = found

        for word in unique:
            common = 0
            limit = min(len(word), len(previous))
            while common < limit and word[common] == previous[common]:
                common += 1
            minimise(common)
            node = path[-1]
            for letter in word[common:]:
                nodes.append([{}, False])
                new = len(nodes) - 1
                nodes[node][0][letter] = new
                path.append(new)
                node = new
            nodes[node][1] = True
            previous = word
        minimise(0)
        return cls._flatten(nodes, len(unique))

    @classmethod
    def _flatten(cls, nodes: list[list], count: int) -> "Lexicon":
        number: dict[int, int] = {0: 0}
        order = [0]
        index = 0
        while index < len(order):                 # breadth-first renumbering of live nodes
            for _, child in sorted(nodes[order[index]][0].items()):
                if child not in number:
                    number[child] = len(order)
                    order.append(child)
            index += 1
        mask, first, edges = [], [], []
        for old in order:
            out, final = nodes[old]
            m = FINAL if final else 0
            first.append(len(edges))
            for letter, child in sorted(out.items()):
                m |= 1 << (ord(letter) - 97)
                edges.append(number[child])
            mask.append(m)
        return cls(mask, first, edges, count)

    # -- bytes ------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        parts = [array("I", self.mask), array("I", self.first), array("I", self.edges)]
        header = _MAGIC + struct.pack("<IIII", self.count, len(self.mask), len(self.edges), 0)
        return header + b"".join(p.tobytes() for p in parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Lexicon":
        """Read :meth:`to_bytes`' form; a ``ValueError`` when it is not one."""
        if not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + 16:
            raise ValueError("not an Arena word graph")
        count, nodes, edges, _ = struct.unpack_from("<IIII", data, len(_MAGIC))
        start = len(_MAGIC) + 16
        if len(data) != start + 4 * (2 * nodes + edges):
            raise ValueError("truncated Arena word graph")
        arrays = []
        for size in (nodes, nodes, edges):
            a = array("I")
            a.frombytes(data[start:start + 4 * size])
            arrays.append(a.tolist())
            start += 4 * size
        return cls(arrays[0], arrays[1], arrays[2], count)

    # -- queries ----------------------------------------------------------------------
    def child(self, node: int, letter: int) -> int:
        """The node reached from ``node`` by letter index ``letter`` (0-25), or -1."""
        m = self.mask[node]
        bit = 1 << letter
        if not m & bit:
            return -1
        return self.edges[self.first[node] + (m & (bit - 1)).bit_count()]

    def walk(self, text: str, node: int = 0) -> int:
        """The node reached by spelling ``text`` (lower-case) from ``node``, or -1."""
        for ch in text:
            node = self.child(node, ord(ch) - 97)
            if node < 0:
                return -1
        return node

    def is_final(self, node: int) -> bool:
        return bool(self.mask[node] & FINAL)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word.isascii():
            return False
        node = self.walk(word.lower())
        return node >= 0 and bool(self.mask[node] & FINAL)

    def has_prefix(self, text: str) -> bool:
        return self.walk(text.lower()) >= 0

    def __len__(self) -> int:
        return self.count

    def words(self) -> Iterator[str]:
        """Every word, in alphabetical order."""
        stack: list[tuple[int, str]] = [(0, "")]
        while stack:
            node, text = stack.pop()
            m = self.mask[node]
            if m & FINAL and text:
                yield text
            base = self.first[node]
            children = []
            i = 0
            for letter in range(26):
                if m & (1 << letter):
                    children.append((self.edges[base + i], text + chr(97 + letter)))
                    i += 1
            stack.extend(reversed(children))
