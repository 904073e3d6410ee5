"""Crossed Words on screen (offscreen): drawing at many sizes, and a person's play."""
import os
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from games.crosswords.lexicon import Lexicon
from games.crosswords.render import CrosswordsRenderer, hint_lines, typed_place
from games.crosswords.rules import CrosswordsGame, CrosswordsState, Draw, Place, parse_move
from games.render import DARK, LIGHT, BoardView

WORDS = Lexicon.from_words(["cat", "cats", "at", "an", "no", "to", "act"])
PILES = ("CATNOS" + "E" * 60, "QX" + "E" * 64, "T" * 66)
GAME = CrosswordsGame(WORDS)


pytestmark = pytest.mark.usefixtures("pygame_ready")


def played():
    state = CrosswordsState(WORDS, PILES)
    for move in (Draw(1, "CATNOS"), Place(8, 8, True, "CAT"), Place(9, 9, True, "NO")):
        state.play({0: move})
    return state


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (700, 1000), (320, 200), (90, 60)])
@pytest.mark.parametrize("theme", [DARK, LIGHT])
def test_draws_at_any_size_without_touching_the_state(size, theme):
    state = played()
    twin = state.clone()
    renderer = CrosswordsRenderer(GAME, {}, ["Player"], theme)
    surface = pygame.Surface(size)
    view = BoardView(human_seat=0)
    view.highlights.update({"start": (7, 10), "across": False, "typed": "S"})
    renderer.draw(surface, surface.get_rect(), state, view)
    assert state == twin
    # the board's middle square shows a tile (light), not the triple-word red
    if size[0] >= 320:
        cell = renderer.layout
        x = int(cell.board.left + 8.2 * cell.cell)
        y = int(cell.board.top + 8.2 * cell.cell)
        r, g, b, _ = surface.get_at((x, y))
        assert r > 180 and g > 150


def click(pos):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)


def key(code, text="", mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=code, unicode=text, mod=mod)


def test_a_person_draws_discards_types_a_word_and_stops():
    state = CrosswordsState(WORDS, PILES)
    renderer = CrosswordsRenderer(GAME, {}, ["Player"], DARK)
    surface = pygame.Surface((1280, 720))
    view = BoardView(human_seat=0)

    def act(event):
        renderer.draw(surface, surface.get_rect(), state, view)
        text = renderer.handle_event(event, state, view)
        if text:
            state.play({0: parse_move(text)})
        return text

    def layout():
        renderer.draw(surface, surface.get_rect(), state, view)
        return renderer.layout

    renderer.draw(surface, surface.get_rect(), state, view)
    third_of_pile_1 = renderer.layout.piles[0][2][0].center
    assert act(click(third_of_pile_1)) == "draw 1 CAT"
    lay = renderer.layout
    act(click((int(lay.board.left + 8.5 * lay.cell), int(lay.board.top + 8.5 * lay.cell))))
    for ch in "CAX":
        act(key(ord(ch.lower()), ch.lower()))
    renderer.draw(surface, surface.get_rect(), state, view)
    assert view.highlights["typed"] == "CAX"
    assert act(key(pygame.K_RETURN)) is None                 # CAX: no X in the hand
    act(key(pygame.K_BACKSPACE))
    act(key(ord("t"), "t"))
    assert act(key(pygame.K_RETURN)) == "play I9 across CAT"
    assert state.total == 27
    assert act(click(layout().piles[1][1][0].center)) == "draw 2 QX"
    act(click(layout().hand[0].center))
    act(click(layout().hand[1].center))
    assert act(key(pygame.K_DELETE)) == "discard QX"
    assert state.total == 27 - 17
    assert act(key(pygame.K_s, "s", pygame.KMOD_LCTRL)) == "stop"
    assert state.is_terminal()


def test_typed_letters_skip_over_letters_on_the_board():
    state = played()
    assert typed_place(state, (7, 9), False, "T") == Place(7, 9, False, "TAN")
    assert typed_place(state, (8, 11), True, "S") == Place(8, 8, True, "CATS")
    assert typed_place(state, (8, 16), True, "SS") is None


def test_ctrl_h_hints_the_best_legal_words_for_this_position_only():
    state = CrosswordsState(WORDS, PILES)
    state.play({0: Draw(1, "CATNOS")})
    renderer = CrosswordsRenderer(GAME, {}, ["Player"], DARK)
    surface = pygame.Surface((1280, 720))
    view = BoardView(human_seat=0)
    renderer.draw(surface, surface.get_rect(), state, view)
    assert renderer.handle_event(key(pygame.K_h, "h", pygame.KMOD_LCTRL), state, view) is None
    turn, hints = view.highlights["hints"]
    assert turn == state.turn and 1 <= len(hints) <= 3
    scores = []
    for hint in hints:
        word, square, direction, score = re.match(r"Hint: (\w+) at (\w+) (across|down), (\d+)$", hint).groups()
        state.check_move(0, parse_move(f"play {square} {direction} {word}"))      # each hint is legal
        scores.append(int(score))
    assert scores == sorted(scores, reverse=True) and hints[0].startswith("Hint: CATS")
    empty = CrosswordsState(WORDS, PILES)
    assert hint_lines(empty) == ["Hint: the hand is empty; draw from a pile"]
