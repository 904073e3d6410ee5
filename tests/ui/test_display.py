"""F11 on the display the window is on: the choice of display and of position (pure), and
the real window through the frame loop with the dummy driver (one display)."""
import pygame

from ui.display import SDL_CENTRED_ON_DISPLAY, centred_on, centred_position, display_of
from ui_helpers import press

TWO = [(1920, 1080), (3840, 2160)]
THREE = [(1280, 1024), (1920, 1080), (1280, 1024)]


def test_the_window_belongs_to_the_display_that_holds_most_of_it():
    assert display_of((100, 100), (1280, 720), TWO) == 0
    assert display_of((2500, 300), (1280, 720), TWO) == 1
    assert display_of((1500, 100), (1280, 720), TWO) == 1         # 420 px on 0, 860 on 1
    assert display_of((1000, 100), (1280, 720), TWO) == 0         # 920 px on 0, 360 on 1
    assert display_of((3300, 50), (800, 600), THREE) == 2
    assert display_of((1300, 50), (800, 600), THREE) == 1


def test_a_window_off_every_display_belongs_to_the_nearest():
    assert display_of((9000, 100), (800, 600), TWO) == 1
    assert display_of((-3000, -200), (800, 600), TWO) == 0
    assert display_of((0, 0), (800, 600), []) == 0


def test_coming_back_centres_the_window_on_its_display():
    assert centred_position((1280, 720), 0, TWO) == (320, 180)
    assert centred_position((1280, 720), 1, TWO) == (1920 + 1280, 720)
    assert centred_on(1) == (SDL_CENTRED_ON_DISPLAY | 1,) * 2 and centred_on(0) != centred_on(1)


def test_f11_goes_fullscreen_on_the_window_s_display_and_comes_back_centred(app):
    from ui.scenes.home import HomeScene
    from ui_helpers import pump
    app.window = pygame.display.set_mode((800, 600), pygame.RESIZABLE)
    app.window_resized()
    app.push(HomeScene(app))
    pump(app)
    pygame.display.set_window_position((5, 7))
    desktops = pygame.display.get_desktop_sizes()
    press(app, pygame.K_F11)
    assert app.fullscreen and pygame.display.is_fullscreen()
    assert app.display == 0 and app.size == desktops[0]
    press(app, pygame.K_F11)
    assert not app.fullscreen and not pygame.display.is_fullscreen()
    assert app.size == (800, 600)                                # the size it had
    assert pygame.display.get_window_position() == centred_position((800, 600), 0, desktops)
    assert type(app.scene).__name__ == "HomeScene" and app.scene.root.rect.size == (800, 600)
