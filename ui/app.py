"""The shell's window and its one frame loop.

One loop, pygame_gui style: events go to the ui manager and then to the scene on top
of the stack; then ``update``; then, only if something changed, ``draw`` (at most 60
times a second).  Between frames the loop waits for input up to a timeout: the top
scene's ``wake_interval`` (a running match polls its revision 20 times a second, a
running clock redraws 10 times), 0.1 s for a moment after input (tooltips), else a
second, so a projected match does not burn a core for hours.  How it waits is in
:meth:`App._events`.

Importing this module opens no window and creates no folder: everything starts in
:func:`run_app` (or when a test builds an :class:`App`).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pygame
import pygame_gui

from games.render import THEMES, Theme
from ui.display import centred_on, display_of
from runner import i18n
from ui.scene import Scene
from ui.settings import Settings, load_settings, save_settings
from ui.theme import ArenaUIManager, gui_theme, ui_scale

#: After input, wake this often for this long, so pygame_gui's tooltips can appear.
ACTIVE_AFTER_INPUT = 1.5
ACTIVE_WAKE = 0.1
CURSOR_BLINK = 0.5
FRAME_TIME = 1 / 60          # at most this many draws a second
IDLE_WAKE = 1.0
IDLE_SLICE = 0.02            # when idle, look at the event queue this often (see _events)
INPUT_EVENTS = {pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL,
                pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame.TEXTEDITING}
WINDOW_EVENTS = {pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED,
                 pygame.WINDOWFOCUSGAINED, pygame.WINDOWENTER, pygame.WINDOWLEAVE}


class App:
    """The window, the ui manager, the settings and the scene stack."""

    def __init__(self, settings: Settings | None = None, size: tuple[int, int] | None = None,
                 fullscreen: bool | None = None, display: int = 0):
        pygame.display.init()      # no audio: the arena makes no sound
        prefer_plain_framebuffer()
        pygame.font.init()
        pygame.key.set_repeat(400, 40)
        self.settings = settings if settings is not None else load_settings()
        i18n.set_language(self.settings.interface_language())
        self.windowed_size = tuple(size or self.settings.window_size)
        self.fullscreen = self.settings.fullscreen if fullscreen is None else fullscreen
        #: The monitor to open on (a projector is often the second one, display 1).
        self.display = max(0, min(int(display), pygame.display.get_num_displays() - 1))
        pygame.display.set_caption("Arena")
        self.window = self._open_window()
        self.scale = ui_scale(self.size)
        self.theme: Theme = THEMES.get(self.settings.theme, THEMES["dark"])
        self.manager = self._make_manager()
        self.scenes: list[Scene] = []
        self.running = True
        self.dirty = True
        self.damaged: list[pygame.Rect] = []    # regions to repaint when not all is dirty
        self.last_input = -1e9
        self.last_draw = 0.0
        self.last_frame = time.monotonic()
        self.frames_drawn = 0
        self.regions_drawn = 0

    # ------------------------------------------------------------ window
    @property
    def size(self) -> tuple[int, int]:
        return self.window.get_size()

    def px(self, value: float) -> int:
        """Design units (the 1280x720 layout) to pixels at the current scale."""
        return round(value * self.scale)

    def _open_window(self) -> pygame.Surface:
        if self.fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN, display=self.display)
        return pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE, display=self.display)

    def _make_manager(self) -> pygame_gui.UIManager:
        manager = ArenaUIManager(self.size, gui_theme(self.theme, self.scale), self.scale,
                                 enable_live_theme_updates=False)
        manager.set_locale(i18n.language())        # pygame_gui's own words (file dialog buttons)
        return manager

    def toggle_fullscreen(self) -> None:
        """F11: fullscreen on the display the window is on; back to a window of the size it
        had, centred on that display."""
        if not self.fullscreen:
            self.windowed_size = self.size
            self.display = display_of(pygame.display.get_window_position(), self.size,
                                      pygame.display.get_desktop_sizes())
        self.fullscreen = not self.fullscreen
        self.window = self._open_window()
        if not self.fullscreen:
            pygame.display.set_window_position(centred_on(self.display))
        self.window_resized()

    def window_resized(self) -> None:
        """Re-fit the ui: a new scale rebuilds the manager's fonts, then the scene re-lays out."""
        self.window = pygame.display.get_surface()
        scale = ui_scale(self.size)
        if self.scene:
            self.scene.teardown()
        if scale != self.scale:
            self.scale = scale
            self.manager = self._make_manager()
        else:
            self.manager.set_window_resolution(self.size)
        if self.scene:
            self.scene.build()
        self.dirty = True

    def set_theme(self, name: str) -> None:
        """Switch dark/light: new widget colours, and the scene redraws in the new palette."""
        self.theme = THEMES.get(name, THEMES["dark"])
        if self.scene:
            self.scene.teardown()
        self.manager = self._make_manager()
        if self.scene:
            self.scene.build()
        self.dirty = True

    def set_language(self, code: str) -> None:
        """Switch the interface's language now: every scene builds its widgets and draws its
        words anew (scenes under the top one rebuild when they are uncovered)."""
        i18n.set_language(code)
        self.manager.set_locale(i18n.language())
        if self.scene:
            self.scene.teardown()
            self.scene.build()
        self.dirty = True

    def save_settings(self) -> None:
        try:
            save_settings(self.settings)
        except OSError:
            pass            # settings are a convenience; a read-only home must not stop a match

    def remember_record(self, path: str | Path, last: bool = False) -> None:
        """Note a record in Recent records: first, or ``last`` (see Settings.add_recent)."""
        self.settings.add_recent(path, last)
        self.save_settings()

    def quit(self) -> None:
        """Leave the loop (Ctrl+Q, Home's Quit); :meth:`close` stops any running match."""
        self.running = False

    # ------------------------------------------------------------ scene stack
    @property
    def scene(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        if self.scene:
            self.scene.pause()
        self.scenes.append(scene)
        scene.enter()
        self.dirty = True
        return scene

    def keep_on_display(self) -> tuple[int, int] | None:
        """Move the window so that all of it is on the display it is on (a window grown
        in place by Settings could push Apply off the screen); its new position, or None
        when nothing moved or the system does not say where the window is.

        pygame gives the displays' sizes, not their places: they are taken side by side
        from the left, the usual arrangement."""
        try:
            window = pygame.Window.from_display_module()
            x, y = window.position
            width, height = window.size
            displays = pygame.display.get_desktop_sizes()
        except (AttributeError, pygame.error):
            return None
        left = 0
        for index, (display_w, display_h) in enumerate(displays):
            if x < left + display_w or index == len(displays) - 1:
                break
            left += display_w
        title_bar = 32                       # the system's frame above the window's top
        new_x = max(left, min(x, left + display_w - width))
        new_y = max(title_bar, min(y, display_h - height))
        if (new_x, new_y) == (x, y):
            return None
        window.position = (new_x, new_y)
        return new_x, new_y

    def push_slow(self, scene: Scene, note: str) -> Scene:
        """:meth:`push` a screen that may take a moment to build (How to play at 4K):
        ``note`` ("Opening How to play…") is shown at once over the current screen, and
        clicks made while it was building are dropped rather than landing on the new
        screen's buttons."""
        self.show_note(note)
        pushed = self.push(scene)
        pygame.event.clear((pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP))
        return pushed

    def show_note(self, note: str) -> pygame.Rect:
        """Draw ``note`` in a box at the window's centre and show it now (no frame wait)."""
        from games.render import font
        face = font(self.px(22), bold=True)
        image = face.render(note, True, self.theme.text)
        box = image.get_rect(center=self.window.get_rect().center).inflate(self.px(48), self.px(28))
        pygame.draw.rect(self.window, self.theme.panel, box, border_radius=self.px(8))
        pygame.draw.rect(self.window, self.theme.accent, box, width=max(2, self.px(2)), border_radius=self.px(8))
        self.window.blit(image, image.get_rect(center=box.center))
        pygame.display.update(box)
        return box

    def pop(self) -> None:
        """Leave the top scene (the home screen stays)."""
        if len(self.scenes) <= 1:
            return
        self.scenes.pop().exit()
        self.scene.resume()
        self.dirty = True

    def replace(self, scene: Scene) -> Scene:
        """Swap the top scene for ``scene`` (New match -> Match)."""
        self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()
        self.dirty = True
        return scene

    def open_replay(self, path: str | Path) -> None:
        from ui.scenes.replay import ReplayScene
        self.push(ReplayScene(self, path=str(path)))

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        while self.running:
            self.frame()
        self.close()
        return 0

    def close(self) -> None:
        while self.scenes:
            self.scenes.pop().exit()
        pygame.display.quit()

    def frame(self, block: bool = True) -> None:
        """One turn of the loop: wait for input or a wake-up, dispatch, update, maybe draw."""
        events = self._events(block)
        for event in events:
            self.dispatch(event)
        now = time.monotonic()
        dt, self.last_frame = now - self.last_frame, now
        scene = self.scene
        changed = scene.update(dt) if scene is not None else False
        if changed is True:
            self.dirty = True
        elif changed:
            self.damaged.extend(r for r in changed if r not in self.damaged)
        self.manager.update(dt)
        if not events and (self._active(now) or self.text_focused()):
            self.dirty = True      # tooltips appear and the text cursor blinks without input
        if now - self.last_draw >= FRAME_TIME * 0.9:
            if self.dirty:
                self.draw()
            elif self.damaged:
                self.draw_damaged()

    def _active(self, now: float) -> bool:
        return now - self.last_input < ACTIVE_AFTER_INPUT

    def _timeout(self) -> float:
        """Seconds to wait for input: a frame when a draw is pending, else the next wake-up."""
        now = time.monotonic()
        if self.dirty or self.damaged:
            return max(0.001, FRAME_TIME - (now - self.last_draw))
        wake = self.scene.wake_interval() if self.scene else None
        wake = IDLE_WAKE if wake is None else wake
        if self._active(now):
            wake = min(wake, ACTIVE_WAKE)
        if self.text_focused():
            wake = min(wake, CURSOR_BLINK)
        return wake

    def text_focused(self) -> bool:
        focus = self.manager.get_focus_set()
        return any(isinstance(e, pygame_gui.elements.UITextEntryLine) for e in focus or ())

    def _events(self, block: bool) -> list[pygame.event.Event]:
        """The pending events, after waiting up to the timeout for the first one.

        While the screen is busy (recent input, a draw pending) this is
        ``pygame.event.wait``, which answers at once.  When idle it sleeps in
        IDLE_SLICE steps between looks at the queue: pygame-ce's ``event.wait``
        polls SDL every millisecond (measured: 13-21 ms of CPU per idle second, with
        or without a timeout), while 20 ms slices cost ~3 ms per second and delay
        only the first event after a quiet spell, by 10 ms on average.
        """
        if not block:
            return pygame.event.get()
        timeout = self._timeout()
        now = time.monotonic()
        if self.dirty or self._active(now) or timeout <= IDLE_SLICE:
            first = pygame.event.wait(max(1, int(timeout * 1000)))
            if first.type == pygame.NOEVENT:
                return pygame.event.get()
            return [first] + pygame.event.get()
        deadline = now + timeout
        while True:
            events = pygame.event.get()
            left = deadline - time.monotonic()
            if events or left <= 0:
                return events
            time.sleep(min(IDLE_SLICE, left))

    def dispatch(self, event: pygame.event.Event) -> None:
        """Offer one event to the window, the widgets, the scene, then the global keys."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.WINDOWSIZECHANGED:
            self.window_resized()
            return
        if event.type in WINDOW_EVENTS:
            self.dirty = True
            return
        if event.type in INPUT_EVENTS:
            self.last_input = time.monotonic()
            self.dirty = True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_q
                and getattr(event, "mod", 0) & pygame.KMOD_CTRL):
            self.quit()
            return
        if event.type >= pygame.USEREVENT:
            self.dirty = True
        if self.manager.process_events(event):
            return
        if self.scene is not None and self.scene.process_event(event):
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.pop()
        elif event.type == pygame.DROPFILE:
            self.open_replay(event.file)

    def draw(self) -> None:
        """Paint the top scene and its widgets, then show the frame."""
        if self.scene is not None:
            self.scene.draw(self.window)
        else:
            self.window.fill(self.theme.background)
        self.manager.draw_ui(self.window)
        pygame.display.flip()
        self.dirty = False
        self.damaged = []
        self.last_draw = time.monotonic()
        self.frames_drawn += 1

    def draw_damaged(self) -> None:
        """Repaint only the damaged regions (a running clock), or everything if the scene cannot."""
        regions, self.damaged = self.damaged, []
        if not all(self.scene.draw_region(self.window, rect) for rect in regions):
            self.draw()
            return
        pygame.display.update(regions)
        self.last_draw = time.monotonic()
        self.regions_drawn += 1


def prefer_plain_framebuffer() -> None:
    """On X11, show frames with XShm rather than through SDL's GPU texture path.

    Arena draws in software anyway; where OpenGL is software too (virtual machines,
    projectors on old laptops, Xvfb) the texture path costs two llvmpipe threads:
    measured 16 ms of process CPU per frame against 3.4 ms, and 9 % of a core against
    1.5 % while only a clock runs.  Only X11 has the plain path (Wayland has none),
    and a user's own SDL_FRAMEBUFFER_ACCELERATION setting wins.
    """
    if pygame.display.get_driver() == "x11":
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")


def parse_window_size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        width, height = (int(x) for x in text.lower().split("x"))
    except ValueError:
        return None
    return (width, height) if width >= 320 and height >= 240 else None


def open_app(args, match=None, replay_path: str | None = None) -> App:
    """The window on the home screen, with ``match`` or ``replay_path`` on top if given."""
    from ui.scenes.home import HomeScene

    settings = load_settings()
    app = App(settings, size=parse_window_size(getattr(args, "size", None)),
              fullscreen=True if getattr(args, "fullscreen", False) else None)
    app.push(HomeScene(app))
    if match is not None:
        from ui.scenes.match import MatchScene
        app.push(MatchScene(app, match))
    elif replay_path:
        app.open_replay(replay_path)
    return app


def run_app(args, match=None, replay_path: str | None = None) -> int:
    """Open the window (:func:`open_app`) and run its loop until it is closed; the games'
    bots compile their searches in the background meanwhile."""
    from games.registry import warm_up_in_background
    app = open_app(args, match, replay_path)
    warm_up_in_background()
    return app.run()
