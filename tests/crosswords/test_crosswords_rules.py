"""Crossed Words rules: the board, the letters, legality and hand-worked scores."""
import pytest

from games.api import IllegalMoveError, MoveSyntaxError
from games.crosswords.lexicon import Lexicon
from games.crosswords.movegen import generate
from games.crosswords.rules import (BONUS_ROWS, LETTER_COUNTS, LETTER_VALUES, SIZE, STOP,
                                    CrosswordsGame, CrosswordsState, Discard, Draw, Place,
                                    format_move, parse_move, random_piles)

# The bonus squares as the contest printed them: two characters a square.
CONTEST_TABLE = """\
T       2       T       2       T
  3           3   3           3
    D       D       D       D
      3   3           3   3
2       T       2       T       2
      3   3           3   3
    D       D       D       D
  3           3   3           3
T       2       T       2       T
  3           3   3           3
    D       D       D       D
      3   3           3   3
2       T       2       T       2
      3   3           3   3
    D       D       D       D
  3           3   3           3
T       2       T       2       T"""

WORDS = Lexicon.from_words(["at", "cat", "an", "no", "to", "on", "blast", "example", "crossword",
                            "ax", "xi", "be", "bee", "at", "ta", "tab", "tabs", "act", "acts"])
FILLER = "E" * 66


def state_with(hand="", piles=(FILLER, FILLER, FILLER), board=()):
    """A state with ``hand`` and letters already on the board: (row, col, across, word)."""
    state = CrosswordsState(WORDS, piles)
    state.hand = hand
    for row, col, across, word in board:
        for (r, c), ch in zip(Place(row, col, across, word).squares(), word):
            state.board[r * SIZE + c] = ch
        state.words_played += 1
    return state


def test_bonus_squares_match_the_contest_table():
    expected = [(line + " " * 34)[0:33:2].replace(" ", ".") for line in CONTEST_TABLE.splitlines()]
    assert list(BONUS_ROWS) == expected
    text = "".join(BONUS_ROWS)
    assert (text.count("T"), text.count("D"), text.count("2"), text.count("3")) == (13, 16, 12, 32)


def test_letters_values_and_piles():
    assert sum(LETTER_COUNTS.values()) == 198
    assert LETTER_VALUES["Q"] == LETTER_VALUES["J"] == 9 and LETTER_VALUES["E"] == 1
    piles = random_piles(7)
    assert [len(p) for p in piles] == [66, 66, 66]
    assert {ch: "".join(piles).count(ch) for ch in LETTER_COUNTS} == LETTER_COUNTS
    assert random_piles(7) == piles != random_piles(8)


def test_move_text_round_trips():
    for move in (Draw(2, "ATC"), Discard("QX"), Place(8, 8, True, "CAT"), Place(0, 16, False, "AT"), STOP):
        assert parse_move(format_move(move)) == move
    assert format_move(Place(8, 8, True, "CAT")) == "play I9 across CAT"
    for bad in ("", "draw 4 A", "draw 1 A1", "play R1 across AT", "play A18 down AT", "jump"):
        with pytest.raises(MoveSyntaxError):
            parse_move(bad)


def test_letter_bonus_counts_for_letters_already_there():
    # X already stands on B2, a triple-letter square; A on A2 is plain: 2 + 3 * 8.
    state = state_with("A", board=[(1, 1, True, "X")])
    scored = state.score_place(Place(1, 0, True, "AX"))
    assert (scored.points, scored.crosses, scored.bonus, scored.total) == (26, (), 0, 26)


def test_word_on_two_double_word_squares_counts_four_times():
    # C3 to G3 covers the double-word squares C3 and G3: (6+3+2+1+3) * 2 * 2.
    state = state_with("BLASTEE")
    assert state.score_place(Place(2, 2, True, "BLAST")).total == 60


def test_word_on_two_triple_word_squares_counts_nine_times_and_eight_letters_add_100():
    # CROSSWORD on row 1 from A1: triple word on A1 and I1, the first S on E1 is a
    # double letter: (4+2+3+1+2*1+7+3+2+4) * 3 * 3 = 252, and eight letters placed
    # (C was there) in a word of nine: +100, never multiplied.
    state = state_with("ROSSWORD", board=[(0, 0, True, "C")])
    scored = state.score_place(Place(0, 0, True, "CROSSWORD"))
    assert (scored.points, scored.bonus, scored.total) == (252, 100, 352)


def test_seven_letters_placed_add_50():
    # EXAMPLE from C3 to I3: double word on C3 and G3: (1+8+2+5+5+3+1) * 4 + 50.
    state = state_with("EXAMPLEB")
    scored = state.score_place(Place(2, 2, True, "EXAMPLE"))
    assert (scored.points, scored.bonus, scored.total) == (100, 50, 150)


def test_move_forming_two_cross_words():
    # CAT on F6-H6 (C on a triple-letter square).  NO on G7-H7: G7 is a double word.
    # NO (2+3)*2 = 10, AN (2+2)*2 = 8, TO 3+3 = 6.
    state = state_with("NO", board=[(5, 5, True, "CAT")])
    scored = state.score_place(Place(6, 6, True, "NO"))
    assert scored.points == 10
    assert sorted(scored.crosses) == [("AN", 8), ("TO", 6)]
    assert scored.total == 24
    state.apply({0: Place(6, 6, True, "NO")})
    assert state.total == 24 and state.hand == ""


def test_discards_lose_face_value_and_total_is_moves_minus_discards():
    state = CrosswordsState(WORDS, ("QXCAT" + "E" * 61, FILLER, FILLER))
    state.play({0: Draw(1, "QXCAT")})
    state.play({0: Discard("QX")})
    assert state.total == -17
    state.play({0: Place(8, 8, True, "CAT")})
    # CAT on I9-K9: I9 is a triple word, J9 and K9 plain: (4 + 2 + 3) * 3 = 27.
    assert state.moves_points == 27 and state.total == 27 - 17


def test_draw_rules():
    state = CrosswordsState(WORDS, ("ABCDEFGHIJ" + "E" * 56, FILLER, FILLER))
    with pytest.raises(IllegalMoveError, match="1 to 8 letters"):
        state.check_move(0, Draw(1, "ABCDEFGHI"))
    with pytest.raises(IllegalMoveError, match="starts with"):
        state.check_move(0, Draw(2, "A"))
    state.play({0: Draw(1, "ABC")})
    with pytest.raises(IllegalMoveError, match="follow a discard"):
        state.check_move(0, Draw(2, "E"))
    state.play({0: Discard("A")})
    state.play({0: Draw(2, "EEEEEE")})
    assert state.hand == "BCEEEEEE"
    state.play({0: Discard("B")})
    with pytest.raises(IllegalMoveError, match="9 letters"):
        state.check_move(0, Draw(1, "DE"))
    with pytest.raises(IllegalMoveError, match="has no"):
        state.check_move(0, Discard("Z"))


def test_placement_rules():
    state = state_with("TABSXNE", board=[(8, 8, True, "AT")])
    with pytest.raises(IllegalMoveError, match="not in the dictionary"):
        state.check_move(0, Place(7, 8, False, "XA"))
    with pytest.raises(IllegalMoveError, match="touches no letter"):
        state.check_move(0, Place(0, 0, True, "TAB"))
    with pytest.raises(IllegalMoveError, match="joins it"):
        state.check_move(0, Place(8, 7, True, "TA"))       # T + "AT" reads TAT
    with pytest.raises(IllegalMoveError, match="holds"):
        state.check_move(0, Place(8, 8, True, "TA"))
    with pytest.raises(IllegalMoveError, match="no new letter"):
        state.check_move(0, Place(8, 8, True, "AT"))
    with pytest.raises(IllegalMoveError, match="has no"):
        state.check_move(0, Place(7, 8, False, "CAT"))          # no C in the hand
    state.check_move(0, Place(7, 8, False, "TA"))         # T above A: TA down
    with pytest.raises(IllegalMoveError, match="AE .* not in the dictionary"):
        state.check_move(0, Place(9, 7, True, "BE"))       # E under A reads AE down


def test_generator_agrees_with_the_rules():
    state = state_with("TABSCEN", board=[(8, 8, True, "AT"), (5, 5, True, "CAT")])
    found = generate(state.board, state.hand, WORDS)
    assert found
    for cand in found:
        assert state.score_place(cand.move).total == cand.score
    assert len({c.move for c in found}) == len(found)
    assert Place(8, 8, True, "ATAB") not in {c.move for c in found}


def test_game_plays_from_a_letters_file_and_stops():
    game = CrosswordsGame(WORDS)
    text = "\r\n".join(["CAT" + "E" * 63, FILLER, FILLER]) + "\r\n"
    state = game.new_initial_state(game.spec.resolve_options(None, {"piles": text}), 0)
    assert state.piles[0].startswith("CAT")
    game.play_text(state, {0: "draw 1 CAT"})
    game.play_text(state, {0: "play I9 across CAT"})
    game.play_text(state, {0: "stop"})
    out = state.outcome()
    assert out.score_only and out.scores == (27.0,) and out.result_text() == "score 27"
    assert state.to_move() == ()
