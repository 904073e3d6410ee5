"""Input helpers for the headless ui tests (real events through the real frame loop),
and opening a match screen."""
import time
from pathlib import Path

import pygame

#: The sample records shipped in replays/.
SAMPLES = Path(__file__).resolve().parents[2] / "replays"


def pump(app, frames: int = 4) -> None:
    """Run a few frames without waiting (widget events arrive one frame after input)."""
    from ui.app import FRAME_TIME
    for _ in range(frames):
        app.frame(block=False)
    if app.dirty:                 # a draw waits for the frame cap, as the real loop would
        time.sleep(FRAME_TIME)
        app.frame(block=False)


def click_at(app, pos, frames: int = 4) -> None:
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    pump(app, frames)


def click(app, widget, frames: int = 4) -> None:
    """Press and release the left button at the centre of a pygame_gui widget."""
    assert widget.alive() and widget.visible, "the widget must be on screen to be clicked"
    click_at(app, widget.rect.center, frames)


def pick(app, menu, text: str) -> None:
    """Open a drop-down ``menu`` and click its item ``text``."""
    click(app, menu)
    item = next(b for b in menu.current_state.options_selection_list.item_list_container.elements
                if b.text == text)
    click(app, item)


def press(app, key: int, frames: int = 3, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=unicode, scancode=0))
    pump(app, frames)


def wait_until(app, condition, timeout: float = 5.0) -> bool:
    """Run frames until ``condition()`` holds (a match runs on its own thread)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.frame(block=False)
        if condition():
            return True
        time.sleep(0.005)
    return condition()


def open_match(app, match, full_speed: bool = True):
    """Push a match screen for ``match`` and run a few frames; ``full_speed``: the bots do
    not wait out the watching pace (which has its own tests).  Returns the scene."""
    from ui.scenes.match import MatchScene
    scene = app.push(MatchScene(app, match))
    if full_speed:
        match.set_pace(None)
    pump(app)
    return scene


def play_button(home, game: str):
    """Home's Play button of ``game``."""
    return next(b for b, e in home.scene.play_buttons.items() if e.name == game)


def open_sample(app, game: str, turn: int):
    """The replay of ``game``'s sample record, at ``turn``."""
    from ui.scenes.replay import ReplayScene
    app.push(ReplayScene(app, path=str(SAMPLES / f"{game}-sample.arena.jsonl")))
    view = app.scene
    view.go(turn)
    pump(app)
    return view
