"""Every legal word placement for a board and a hand, scored (pure Python).

The classic anchor-and-cross-check method over a
:class:`~games.crosswords.lexicon.Lexicon` word graph:

* an *anchor* is an empty square beside a letter (on an empty board, every square
  starts a word);
* for every empty square and direction, a *cross-check* mask of the letters that make
  a dictionary word with the letters above and below it (or left and right), with the
  points that cross word would score;
* in every row and column, each anchor grows a left part from the hand over the free
  squares before it (or takes the letters already there), then extends right through
  the graph, old letters and new, emitting each complete word.

Each placement is found exactly once and scored as the rules score it (the tests
check this against :meth:`CrosswordsState.score_place`).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Container, Sequence

from games.crosswords.lexicon import FINAL, Lexicon
from games.crosswords.rules import (BONUS_EIGHT, BONUS_SEVEN, LETTER_FACTOR, LETTER_VALUES, SIZE,
                                    WORD_FACTOR, Place)

ALL = (1 << 26) - 1
_VALUE = [LETTER_VALUES[chr(65 + i)] for i in range(26)]


@dataclass(frozen=True)
class Candidate:
    """A placement and its score; ``placed`` counts the letters taken from the hand."""

    move: Place
    score: int
    placed: int
    used: str           # the hand letters it uses (upper case)


def _as_lexicon(words: Container[str]) -> Lexicon:
    if isinstance(words, Lexicon):
        return words
    key = id(words)
    held = _BUILT.get(key)
    if held is None or held[0] is not words:
        if len(_BUILT) > 8:
            _BUILT.clear()
        held = _BUILT[key] = (words, Lexicon.from_words(words))  # type: ignore[arg-type]
    return held[1]


_BUILT: dict[int, tuple] = {}


def cross_checks(cells: Sequence[int], lex: Lexicon, across: bool):
    """For a move in direction ``across``: per square, (mask, base points, word factor)
    of the perpendicular word, or None where no letter is perpendicular-adjacent."""
    out: list = [None] * (SIZE * SIZE)
    step = SIZE if across else 1       # perpendicular direction
    for i in range(SIZE * SIZE):
        if cells[i] >= 0:
            continue
        r, c = divmod(i, SIZE)
        # letters before (above for across moves) and after
        j, before = i, []
        while True:
            if across:
                if j // SIZE == 0:
                    break
            elif j % SIZE == 0:
                break
            j -= step
            if cells[j] < 0:
                break
            before.append(j)
        j, after = i, []
        while True:
            if across:
                if j // SIZE == SIZE - 1:
                    break
            elif j % SIZE == SIZE - 1:
                break
            j += step
            if cells[j] < 0:
                break
            after.append(j)
        if not before and not after:
            continue
        before.reverse()
        base, factor = 0, 1
        for k in before + after:
            base += _VALUE[cells[k]] * LETTER_FACTOR[k]
            factor *= WORD_FACTOR[k]
        node = 0
        for k in before:
            node = lex.child(node, cells[k])
            if node < 0:
                break
        mask = 0
        if node >= 0:
            m = lex.mask[node]
            for letter in range(26):
                if m & (1 << letter):
                    n = lex.child(node, letter)
                    for k in after:
                        n = lex.child(n, cells[k])
                        if n < 0:
                            break
                    if n >= 0 and lex.mask[n] & FINAL:
                        mask |= 1 << letter
        out[i] = (mask, base, factor)
    return out


def generate(board: Sequence[str], hand: str, words: Container[str],
             top: int | None = None, first_half: bool = False) -> list[Candidate]:
    """Every legal placement of letters from ``hand`` on ``board`` (the 289 squares
    row by row, ``.`` or A-Z), with its total score.

    ``top``: only the ``top`` best, best first.  ``first_half``: on an empty board,
    only words across in rows 1-9 (the board is symmetric, so every other first
    word scores as one of these).
    """
    lex = _as_lexicon(words)
    key = "".join(board)
    cells = [-1 if ch == "." else ord(ch) - 65 for ch in key]
    counts = [0] * 26
    for ch in hand:
        counts[ord(ch) - 65] += 1
    empty = all(c < 0 for c in cells)
    found: list = []
    for across in (True, False):
        if empty and first_half and not across:
            continue
        checks = _checks_cached(key, cells, lex, across)
        for line in range(SIZE):
            if empty and first_half and line > SIZE // 2:
                break
            if across:
                idx = [line * SIZE + k for k in range(SIZE)]
            else:
                idx = [k * SIZE + line for k in range(SIZE)]
            _line_moves(cells, idx, checks, counts, lex, across, empty, found)
    if top is not None:
        found = heapq.nlargest(top, found, key=lambda f: f[0])
    out = []
    for total, i0, across, word, placed in found:
        step = 1 if across else SIZE
        used = "".join(chr(65 + x) for k, x in enumerate(word) if cells[i0 + k * step] < 0)
        out.append(Candidate(Place(i0 // SIZE, i0 % SIZE, across, "".join(chr(65 + x) for x in word)),
                             total, placed, used))
    return out


_CHECKS: dict[tuple, list] = {}


def _checks_cached(key: str, cells, lex: Lexicon, across: bool) -> list:
    k = (key, across, id(lex))
    found = _CHECKS.get(k)
    if found is None:
        if len(_CHECKS) > 64:
            _CHECKS.clear()
        found = _CHECKS[k] = cross_checks(cells, lex, across)
    return found


def _line_moves(cells, idx, checks, counts, lex: Lexicon, across: bool, empty: bool,
                found: list) -> None:
    line = [cells[i] for i in idx]
    line_checks = [checks[i] for i in idx]
    if empty:
        anchors = list(range(SIZE))
    else:
        anchors = []
        for k in range(SIZE):
            if line[k] >= 0:
                continue
            if line_checks[k] is not None or (k > 0 and line[k - 1] >= 0) or (k < SIZE - 1 and line[k + 1] >= 0):
                anchors.append(k)
    if not anchors:
        return
    mask_of, edges, first = lex.mask, lex.edges, lex.first
    # Per square of the line: the letters allowed there (the cross-check), and the
    # factors that score a letter placed there.
    allowed_at = [ALL if chk is None else chk[0] for chk in line_checks]
    letter_factor = [LETTER_FACTOR[i] for i in idx]
    word_factor = [WORD_FACTOR[i] for i in idx]
    word: list[int] = []
    hand_total = sum(counts)
    letters = [(x, 1 << x) for x in range(26) if counts[x]]

    def record(start: int, end: int) -> None:
        # squares start..end-1 of the line form the word; compute the score.
        main, factor, cross, placed = 0, 1, 0, 0
        for k in range(start, end):
            letter = word[k - start]
            value = _VALUE[letter] * letter_factor[k]
            main += value
            factor *= word_factor[k]
            if line[k] < 0:
                placed += 1
                chk = line_checks[k]
                if chk is not None:
                    cross += (chk[1] + value) * chk[2] * word_factor[k]
        length = end - start
        total = main * factor + cross
        if placed == 8 and length >= 8:
            total += BONUS_EIGHT
        elif placed == 7 and length >= 7:
            total += BONUS_SEVEN
        found.append((total, idx[start], across, tuple(word), placed))

    def extend(k: int, node: int, start: int, anchor: int, placed: int) -> None:
        m = mask_of[node]
        if k >= SIZE:
            if placed and m & FINAL and k - start >= 2:
                record(start, k)
            return
        here = line[k]
        if here < 0:
            if k > anchor and placed and m & FINAL and k - start >= 2:
                record(start, k)
            allowed = m & allowed_at[k]
            if not allowed or placed >= hand_total:
                return
            base = first[node]
            # What the square after this one asks of the next node, so that dead ends
            # are not called at all (most calls would be).
            after = k + 1
            if after >= SIZE:
                need, more = FINAL, 0
            elif line[after] >= 0:
                need, more = 1 << line[after], 0
            else:
                need = FINAL if after > anchor and after - start >= 2 else 0
                more = allowed_at[after] if placed + 1 < hand_total else 0
            for letter, bit in letters:
                if allowed & bit and counts[letter]:
                    child = edges[base + (m & (bit - 1)).bit_count()]
                    if not mask_of[child] & (need | more):
                        continue
                    counts[letter] -= 1
                    word.append(letter)
                    extend(after, child, start, anchor, placed + 1)
                    word.pop()
                    counts[letter] += 1
        else:
            bit = 1 << here
            if m & bit:
                word.append(here)
                extend(k + 1, edges[first[node] + (m & (bit - 1)).bit_count()], start, anchor, placed)
                word.pop()

    def left_parts(node: int, anchor: int, limit: int, placed: int) -> None:
        # The word so far occupies anchor-len(word) .. anchor-1, all new letters.
        extend(anchor, node, anchor - len(word), anchor, placed)
        if limit <= 0:
            return
        m = mask_of[node] & ALL
        if not m:
            return
        base = first[node]
        for letter, bit in letters:
            if m & bit and counts[letter]:
                counts[letter] -= 1
                word.append(letter)
                left_parts(edges[base + (m & (bit - 1)).bit_count()], anchor, limit - 1, placed + 1)
                word.pop()
                counts[letter] += 1

    previous_anchor = -1
    for a in anchors:
        if empty:
            extend(a, 0, a, a, 0)
            continue
        if a > 0 and line[a - 1] >= 0:
            s = a - 1
            while s > 0 and line[s - 1] >= 0:
                s -= 1
            node = 0
            for k in range(s, a):
                node = lex.child(node, line[k])
                if node < 0:
                    break
            if node >= 0:
                word[:] = line[s:a]
                extend(a, node, s, a, 0)
                word.clear()
        else:
            limit = 0
            k = a - 1
            while k >= 0 and k > previous_anchor and line[k] < 0 and (k == 0 or line[k - 1] < 0):
                limit += 1
                k -= 1
            left_parts(0, a, min(limit, hand_total - 1), 0)
        previous_anchor = a
