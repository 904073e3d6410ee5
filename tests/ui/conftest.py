"""Headless ui tests: the dummy video driver, a fresh App per test, and input helpers.

Events are real pygame events posted to the queue (mouse down/up at a widget's
centre, key presses), then the app runs frames without blocking, exactly as the
frame loop would.
"""
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture
def app(arena_home):
    from ui.app import App
    from ui.settings import Settings
    shell = App(Settings(), size=(1280, 720), fullscreen=False)
    yield shell
    shell.close()


@pytest.fixture
def home(app):
    from ui.scenes.home import HomeScene
    app.push(HomeScene(app))
    from ui_helpers import pump
    pump(app)
    return app
