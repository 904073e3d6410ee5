"""The move generator against a plain reference: every span of every line, checked
square by square with the dictionary (slow, simple), on boards of real games."""
import pytest

from games.crosswords import movegen
from games.crosswords.dictionary import load_dictionary
from games.crosswords.rules import SIZE, CrosswordsState, IllegalMoveError, Place, random_piles
from games.crosswords.solver import greedy_game


@pytest.fixture(scope="module")
def words():
    return load_dictionary("")


def reference_placements(state, hand: str) -> set[tuple]:
    """Every legal placement of letters of ``hand`` as (row, col, across, word, score):
    each span of each line that takes at least one new letter, spelt with the hand
    over its empty squares, checked and scored by the rules."""
    board = state.board
    found = set()
    empty_board = all(ch == "." for ch in board)
    for across in (True, False):
        for line in range(SIZE):
            cells = [board[line * SIZE + k] if across else board[k * SIZE + line] for k in range(SIZE)]
            if not empty_board and not any(_letters_on(board, near, across)
                                           for near in (line - 1, line, line + 1)):
                continue                        # no word here touches a letter
            for start in range(SIZE):
                if start and cells[start - 1] != ".":
                    continue
                _spans(state, hand, cells, line, across, start, start, "", 0, empty_board, found)
    return found


def _letters_on(board, line: int, across: bool) -> bool:
    if not 0 <= line < SIZE:
        return False
    return any(board[line * SIZE + k] != "." if across else board[k * SIZE + line] != "."
               for k in range(SIZE))


def _spans(state, hand, cells, line, across, start, k, word, placed, empty_board, found):
    words = state.words
    if k - start >= 2 and placed and (k == SIZE or cells[k] == ".") and word.lower() in words:
        row, col = (line, start) if across else (start, line)
        move = Place(row, col, across, word)
        try:
            found.add((row, col, across, word, state.score_place(move).total))
        except IllegalMoveError:
            pass
    if k == SIZE:
        return
    if cells[k] != ".":
        prefix = word + cells[k]
        if words.walk(prefix.lower()) >= 0:
            _spans(state, hand, cells, line, across, start, k + 1, prefix, placed, empty_board, found)
        return
    for letter in sorted(set(hand)):
        prefix = word + letter
        if words.walk(prefix.lower()) >= 0:
            rest = hand.replace(letter, "", 1)
            _spans(state, rest, cells, line, across, start, k + 1, prefix, placed + 1, empty_board, found)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2])
def test_the_generator_lists_what_the_reference_lists(words, seed):
    """On boards along a greedy game, with the hands of its turns and a few more,
    ``generate`` lists exactly the reference's placements with the same scores; and
    the cross-checks kept from one board to the next change nothing (a fresh start
    on the same board lists the same placements in the same order)."""
    state = CrosswordsState(words, random_piles(seed))
    moves = greedy_game(state)
    checked = 0
    for number, move in enumerate(moves[:60]):
        state.apply({0: move})
        if number % 15 or not state.hand:
            continue
        for hand in (state.hand, "QUIZ"):
            kept = movegen.generate(state.board, hand, words)
            movegen.clear_caches()
            fresh = movegen.generate(state.board, hand, words)
            assert list(map(repr, kept)) == list(map(repr, fresh))
            listed = {(c.move.row, c.move.col, c.move.across, c.move.word, c.score) for c in kept}
            assert len(listed) == len(kept)
            assert listed == reference_placements(_with_hand(state, hand), hand), (number, hand)
            checked += 1
    assert checked >= 6


def _with_hand(state, hand):
    twin = state.clone()
    twin.hand = hand
    return twin
