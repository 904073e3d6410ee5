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
    # Only the empty squares beside a letter across the move's direction have a check.
    squares = set()
    for i, cell in enumerate(cells):
        if cell < 0:
            continue
        r, c = divmod(i, SIZE)
        if across:
            if r > 0 and cells[i - SIZE] < 0:
                squares.add(i - SIZE)
            if r < SIZE - 1 and cells[i + SIZE] < 0:
                squares.add(i + SIZE)
        else:
            if c > 0 and cells[i - 1] < 0:
                squares.add(i - 1)
            if c < SIZE - 1 and cells[i + 1] < 0:
                squares.add(i + 1)
    kept = _cross_memo(lex)
    for i in squares:
        # letters before (above for across moves) and after
        j, before = i, []
        while (j // SIZE if across else j % SIZE) > 0 and cells[j - step] >= 0:
            j -= step
            before.append(j)
        j, after = i, []
        while (j // SIZE if across else j % SIZE) < SIZE - 1 and cells[j + step] >= 0:
            j += step
            after.append(j)
        # A square's check depends only on its place and the letters around it: one
        # word changes few of them, so most are the turn before's.
        key = (i, across, tuple(cells[k] for k in before), tuple(cells[k] for k in after))
        check = kept.get(key)
        if check is None:
            before.reverse()
            check = kept[key] = _cross_check(cells, lex, before, after)
        out[i] = check
    return out


def _cross_check(cells, lex: Lexicon, before: list[int], after: list[int]) -> tuple:
    """(mask, base points, word factor) of one square between the letters of squares
    ``before`` and ``after`` (in reading order)."""
    mask_of, first, edges = lex.mask, lex.first, lex.edges
    base, factor = 0, 1
    for k in before + after:
        base += _VALUE[cells[k]] * LETTER_FACTOR[k]
        factor *= WORD_FACTOR[k]
    node = 0
    for k in before:
        m = mask_of[node]
        bit = 1 << cells[k]
        if not m & bit:
            node = -1
            break
        node = edges[first[node] + (m & (bit - 1)).bit_count()]
    mask = 0
    if node >= 0:
        m = mask_of[node] & ALL
        base_edge = first[node]
        while m:
            bit = m & -m
            m ^= bit
            n = edges[base_edge + (mask_of[node] & (bit - 1)).bit_count()]
            for k in after:
                mn = mask_of[n]
                b = 1 << cells[k]
                if not mn & b:
                    n = -1
                    break
                n = edges[first[n] + (mn & (b - 1)).bit_count()]
            if n >= 0 and mask_of[n] & FINAL:
                mask |= bit
    return (mask, base, factor)


def _cross_memo(lex: Lexicon) -> dict:
    """The cross-checks found so far on ``lex``'s boards, by square and letters around."""
    held = _CROSS.get(id(lex))
    if held is None or held[0] is not lex or len(held[1]) > CROSS_KEPT:
        if len(_CROSS) > 8:
            _CROSS.clear()
        held = _CROSS[id(lex)] = (lex, {})
    return held[1]


def generate(board: Sequence[str], hand: str, words: Container[str],
             top: int | None = None, first_half: bool = False) -> list[Candidate]:
    """Every legal placement of letters from ``hand`` on ``board`` (the 289 squares
    row by row, ``.`` or A-Z), with its total score.

    ``top``: only the ``top`` best, best first.  ``first_half``: on an empty board,
    only words across in rows 1-9 (the board is symmetric, so every other first
    word scores as one of these).
    """
    return generate_hands(board, [hand], words, top, first_half)[0]


def generate_hands(board: Sequence[str], hands: Sequence[str], words: Container[str],
                   top: int | None = None, first_half: bool = False) -> list[list[Candidate]]:
    """:func:`generate` for several hands on one board at once (the hands a turn's
    draws would give): one walk of the word graph with the letters of all of them,
    where each partial word carries the set of hands that still hold its letters, so
    what the hands share is walked once.  One list per hand, as ``generate`` gives."""
    lex = _as_lexicon(words)
    key = "".join(board)
    asked = (key, tuple(hands), top, first_half, id(lex))
    kept = _MOVES.get(asked)
    if kept is not None and kept[0] is lex:
        return [list(found) for found in kept[1]]
    cells = [-1 if ch == "." else ord(ch) - 65 for ch in key]
    per_hand = []
    for hand in hands:
        counts = [0] * 26
        for ch in hand:
            counts[ord(ch) - 65] += 1
        per_hand.append(counts)
    union = [max(counts[x] for counts in per_hand) for x in range(26)] if hands else [0] * 26
    # gate[x][c]: the hands that hold one more x when the walk has c of the union's left.
    gate = []
    for x in range(26):
        row = [0] * (union[x] + 1)
        for left in range(1, union[x] + 1):
            used = union[x] - left
            row[left] = sum(1 << h for h, counts in enumerate(per_hand) if counts[x] > used)
        gate.append(row)
    hand_total = max((len(hand) for hand in hands), default=0)
    empty = all(c < 0 for c in cells)
    if empty and top is not None and hands:
        return _first_words(cells, hands, union, gate, hand_total, lex, top, first_half, asked)
    found: list = []
    prefixes = _LeftParts(union, gate, hand_total, lex)
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
            _line_moves(cells, idx, checks, union, gate, hand_total, lex, across, empty, found,
                        prefixes)
    results = []
    for h in range(len(hands)):
        mine = [f for f in found if f[5] >> h & 1] if len(hands) > 1 else found
        if top is not None:
            mine = heapq.nlargest(top, mine, key=lambda f: f[0])
        results.append([_candidate(cells, f) for f in mine])
    if top is not None:                 # (a planner asks the same positions again)
        if len(_MOVES) >= MOVES_KEPT:
            _MOVES.clear()
        _MOVES[asked] = (lex, tuple(tuple(found) for found in results))
    return results


def _empty_lines(first_half: bool) -> list[tuple[bool, list[int]]]:
    """The lines a first word may take, in the order the walk of a board visits them."""
    lines = []
    for across in (True, False):
        if first_half and not across:
            continue
        for line in range(SIZE):
            if first_half and line > SIZE // 2:
                break
            lines.append((across, [line * SIZE + k for k in range(SIZE)] if across
                          else [k * SIZE + line for k in range(SIZE)]))
    return lines


def _first_words(cells, hands, union, gate, hand_total: int, lex: Lexicon, top: int,
                 first_half: bool, asked: tuple) -> list[list[Candidate]]:
    """The ``top`` best first words of each hand on the empty board, as the board's walk
    would list them (same scores, same order among equal scores), without scoring all
    of the tens of thousands of placements: the hands' words are listed once, and a
    word is placed everywhere only while its bound (its letters' points times the most
    any square and word factors of a line can give a word of its length, plus the
    bonus) can still reach the ``top`` best found so far."""
    mask_of, first, edges = lex.mask, lex.first, lex.edges
    counts = list(union)
    hand_mask = sum(1 << x for x in range(26) if counts[x])
    limit = min(hand_total, SIZE)
    words: list[tuple[tuple[int, ...], int]] = []       # in the walk's order (pre-order)
    word: list[int] = []

    def walk(node: int, live: int) -> None:
        m = mask_of[node]
        if len(word) >= 2 and m & FINAL:
            words.append((tuple(word), live))
        if len(word) >= limit:
            return
        allowed = m & hand_mask
        base = first[node]
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            letter = bit.bit_length() - 1
            held = live & gate[letter][counts[letter]]
            if not held:
                continue
            counts[letter] -= 1
            word.append(letter)
            walk(edges[base + (m & (bit - 1)).bit_count()], held)
            word.pop()
            counts[letter] += 1

    walk(0, -1)
    lines = _empty_lines(first_half)
    tables = [(across, idx, [LETTER_FACTOR[i] for i in idx], [WORD_FACTOR[i] for i in idx])
              for across, idx in lines]
    reach = {}                          # word length -> most a letter's points can be multiplied
    for n in range(2, limit + 1):
        reach[n] = max(max(lf[a:a + n]) * _product(wf[a:a + n])
                       for _, _, lf, wf in tables for a in range(SIZE - n + 1))
    results = []
    for h in range(len(hands)):
        mine = [(order, w) for order, (w, live) in enumerate(words) if live >> h & 1]
        bounds = sorted(((sum(_VALUE[x] for x in w) * reach[len(w)] + _bonus(len(w)), order, w)
                         for order, w in mine), reverse=True)
        scores: list[int] = []          # a min-heap of the ``top`` best scores so far
        placed: list[tuple] = []
        for bound, order, w in bounds:
            if len(scores) >= top and bound < scores[0]:
                break
            n = len(w)
            values = [_VALUE[x] for x in w]
            for number, (across, idx, lf, wf) in enumerate(tables):
                for a in range(SIZE - n + 1):
                    total = (sum(v * f for v, f in zip(values, lf[a:a + n])) * _product(wf[a:a + n])
                             + _bonus(n))
                    if len(scores) < top:
                        heapq.heappush(scores, total)
                    elif total > scores[0]:
                        heapq.heapreplace(scores, total)
                    placed.append(((number, a, order), (total, idx[a], across, w, n, 1 << h)))
        placed.sort(key=lambda p: p[0])             # the board walk's order, for equal scores
        best = heapq.nlargest(top, (p[1] for p in placed), key=lambda f: f[0])
        results.append([_candidate(cells, f) for f in best])
    if len(_MOVES) >= MOVES_KEPT:
        _MOVES.clear()
    _MOVES[asked] = (lex, tuple(tuple(found) for found in results))
    return [list(found) for found in results]


def _product(factors) -> int:
    out = 1
    for f in factors:
        out *= f
    return out


def _bonus(placed: int) -> int:
    return BONUS_EIGHT if placed == 8 else BONUS_SEVEN if placed == 7 else 0


def _candidate(cells, found) -> Candidate:
    total, i0, across, word, placed, _ = found
    step = 1 if across else SIZE
    used = "".join(chr(65 + x) for k, x in enumerate(word) if cells[i0 + k * step] < 0)
    return Candidate(Place(i0 // SIZE, i0 % SIZE, across, "".join(chr(65 + x) for x in word)),
                     total, placed, used)


_CHECKS: dict[tuple, list] = {}
#: Per word graph: one square's cross-check by (square, direction, letters before it,
#: letters after it).
_CROSS: dict[int, tuple] = {}
CROSS_KEPT = 200_000
#: The best placements of the last positions asked for (board, hands, top): the
#: planner's searches from one start meet the same positions again (its greedy games
#: at several prices share their first turns, a wider beam re-expands much of what a
#: narrower one did).  Cleared whole when full.
_MOVES: dict[tuple, tuple] = {}
MOVES_KEPT = 5000


def clear_caches() -> None:
    """Forget the cross-checks and placements kept per position (a bench clears them
    between runs, so a run never starts with the positions of the one before)."""
    _CHECKS.clear()
    _MOVES.clear()
    _CROSS.clear()


def _checks_cached(key: str, cells, lex: Lexicon, across: bool) -> list:
    k = (key, across, id(lex))
    found = _CHECKS.get(k)
    if found is None:
        if len(_CHECKS) > 64:
            _CHECKS.clear()
        found = _CHECKS[k] = cross_checks(cells, lex, across)
    return found


class _LeftParts:
    """The left parts of one call's hands: every run of hand letters that starts a word
    (the root's empty run first), in the order a depth-first walk of the word graph meets
    them.  An anchor's left parts are the same walk whatever the anchor (only how many
    letters fit before it and what its squares accept differ), so the walk is made once
    a call instead of once an anchor.

    Each part is a list [length, node, letters, hands that hold them, the union's
    letter counts left, the letters left as a mask, steps]; its steps are the letters
    that may follow it, each (bit, node, node's mask, letters, hands, counts, letters
    left): what the walk would hold after placing that letter on the anchor."""

    def __init__(self, counts: list[int], gate: list, hand_total: int, lex: Lexicon):
        self.lex, self.gate = lex, gate
        self.entries: list[list] = []
        self.upto: dict[int, list[list]] = {}
        longest = max(0, hand_total - 1)
        mask_of = lex.mask
        entries, word = self.entries, []

        def walk(node: int, live: int, avail: int) -> list:
            entry = [len(word), node, tuple(word), live, tuple(counts), avail, None]
            entries.append(entry)
            if len(word) >= longest:
                return entry
            steps = []
            for bit, letter, child, held in self._children(node, live, avail, counts):
                counts[letter] -= 1
                word.append(letter)
                left = avail if counts[letter] else avail & ~bit
                down = walk(child, held, left)
                steps.append((bit, child, mask_of[child], down[2], held, down[4], left))
                word.pop()
                counts[letter] += 1
            entry[6] = steps
            return entry

        walk(0, -1, sum(1 << x for x in range(26) if counts[x]))

    def _children(self, node: int, live: int, avail: int, counts) -> list[tuple]:
        """(bit, letter, child, hands) for each letter the hands may add at ``node``."""
        mask_of, first, edges, gate = self.lex.mask, self.lex.first, self.lex.edges, self.gate
        m = mask_of[node]
        allowed = m & avail
        base = first[node]
        out = []
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            letter = bit.bit_length() - 1
            held = live & gate[letter][counts[letter]]
            if held:
                out.append((bit, letter, edges[base + (m & (bit - 1)).bit_count()], held))
        return out

    def steps(self, entry: list) -> list[tuple]:
        """The entry's steps (made when first asked for, for the longest parts)."""
        found = entry[6]
        if found is None:
            _, _, letters, live, counts, avail, _ = entry
            mask_of, found, counts = self.lex.mask, [], list(counts)
            for bit, letter, child, held in self._children(entry[1], live, avail, counts):
                counts[letter] -= 1
                found.append((bit, child, mask_of[child], letters + (letter,), held, tuple(counts),
                              avail if counts[letter] else avail & ~bit))
                counts[letter] += 1
            entry[6] = found
        return found

    def up_to(self, limit: int) -> list[list]:
        """The parts of at most ``limit`` letters, in the walk's order."""
        found = self.upto.get(limit)
        if found is None:
            found = self.upto[limit] = [e for e in self.entries if e[0] <= limit]
        return found


def _line_moves(cells, idx, checks, counts, gate, hand_total: int, lex: Lexicon, across: bool,
                empty: bool, found: list, prefixes: _LeftParts) -> None:
    """The placements of one row or column (``idx``: its squares) into ``found``, as
    (score, first square, across, letters, letters placed, hands that hold them);
    ``counts``: the letters of the hands' union, ``gate``: see :func:`generate_hands`,
    ``prefixes``: the hands' left parts.  Every test that skips a letter only skips
    what could not become a word (so the placements and their order are those of a
    walk without them)."""
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
    hand_mask = sum(1 << x for x in range(26) if counts[x])
    union = list(counts)

    def record(start: int, end: int, live: int) -> None:
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
        found.append((total, idx[start], across, tuple(word), placed, live))

    def extend(k: int, node: int, start: int, anchor: int, placed: int, live: int,
               avail: int) -> None:
        # ``avail``: the letters the union still holds (a hand-free square after this
        # one needs one of them, or the word cannot go on through it).
        m = mask_of[node]
        run = 0                      # letters of the board followed here (one call, not one each)
        while k < SIZE and line[k] >= 0:
            here = line[k]
            bit = 1 << here
            if not m & bit:
                if run:
                    del word[-run:]
                return
            word.append(here)
            run += 1
            node = edges[first[node] + (m & (bit - 1)).bit_count()]
            m = mask_of[node]
            k += 1
        if k >= SIZE:
            if placed and m & FINAL and k - start >= 2:
                record(start, k, live)
            if run:
                del word[-run:]
            return
        if k > anchor and placed and m & FINAL and k - start >= 2:
            record(start, k, live)
        allowed = m & allowed_at[k] & avail
        if allowed and placed < hand_total:
            base = first[node]
            # What the square after this one asks of the next node, so that dead ends
            # are not called at all (most calls would be).
            after = k + 1
            open_square = 0
            if after >= SIZE:
                need = FINAL
            elif line[after] >= 0:
                need = 1 << line[after]
            else:
                need = FINAL if after > anchor and after - start >= 2 else 0
                if placed + 1 < hand_total:
                    open_square = allowed_at[after]
            while allowed:
                bit = allowed & -allowed
                allowed ^= bit
                letter = bit.bit_length() - 1
                count = counts[letter]
                held = live & gate[letter][count]
                if not held:
                    continue
                child = edges[base + (m & (bit - 1)).bit_count()]
                left = avail if count > 1 else avail & ~bit
                if not mask_of[child] & (need | (open_square & left)):
                    continue
                counts[letter] = count - 1
                word.append(letter)
                extend(after, child, start, anchor, placed + 1, held, left)
                word.pop()
                counts[letter] = count
        if run:
            del word[-run:]

    everyone = -1                  # every hand (a word counts once it placed a letter)
    previous_anchor = -1
    for a in anchors:
        if empty:
            extend(a, 0, a, a, 0, everyone, hand_mask)
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
                extend(a, node, s, a, 0, everyone, hand_mask)
                word.clear()
        else:
            limit = 0
            k = a - 1
            while k >= 0 and k > previous_anchor and line[k] < 0 and (k == 0 or line[k - 1] < 0):
                limit += 1
                k -= 1
            here = allowed_at[a] & hand_mask
            # What the square after the anchor asks (as ``extend`` would ask it).
            after = a + 1
            open_square = 0
            if after >= SIZE:
                need_first = need_more = FINAL
            elif line[after] >= 0:
                need_first = need_more = 1 << line[after]
            else:
                need_first, need_more = 0, FINAL
                open_square = allowed_at[after]
            for entry in prefixes.up_to(min(limit, hand_total - 1)):
                if not mask_of[entry[1]] & here:
                    continue
                depth = entry[0]
                need = need_more if depth else need_first
                open_here = open_square if depth + 1 < hand_total else 0
                for bit, node, node_mask, letters, live, left, avail in prefixes.steps(entry):
                    if bit & here and node_mask & (need | (open_here & avail)):
                        word[:] = letters
                        counts[:] = left
                        extend(after, node, a - depth, a, depth + 1, live, avail)
            word.clear()
            counts[:] = union
        previous_anchor = a
