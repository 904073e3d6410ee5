"""The New match form shows, under a built-in bot's seat, the measured strength of the
level chosen (games/<game>/levels.json), in the interface's language, on its own line
between the seat's row and the next one."""
import pygame
import pytest

from games import registry

GAMES = [p.name for p in registry.all_plugins() if p.bot_levels]


def _drawn_texts(scene) -> list[tuple[str, tuple[int, int]]]:
    """Every line the scene's draw() writes with draw_text, with its position."""
    drawn = []
    original = scene.draw_text

    def record(surface, text, pos, *args, **kwargs):
        drawn.append((text, pos))
        return original(surface, text, pos, *args, **kwargs)
    scene.draw_text = record
    scene.draw(pygame.Surface(scene.app.size))
    return drawn


@pytest.fixture
def form_in(arena_home):
    """A New match form for a game, in a language (English again afterwards)."""
    from runner import i18n
    from ui.app import App
    from ui.settings import Settings
    apps = []

    def make(game: str, language: str):
        app = App(Settings(language=language), size=(1280, 720), fullscreen=False)
        apps.append(app)
        from ui.scenes.new_match import NewMatchScene
        return app.push(NewMatchScene(app, game=game))
    yield make
    for app in apps:
        app.close()
    i18n.set_language("en")


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_seat_shows_its_levels_measured_strength_in_english_and_vietnamese(form_in, game):
    from ui.level_strength import level_strength
    for language, word in (("en", "Strength: "), ("vi", "Trình độ: ")):
        form = form_in(game, language)
        index = len(form.seats) - 1
        if form.seats[index].kind != "bot":          # Crossed Words starts with a person
            from ui.scenes.new_match import SeatChoice
            form.seats[index] = SeatChoice("bot", 2)
            form.relayout()
        text = level_strength(game, form.seats[index].level)
        assert text.startswith(word) and len(text) > len(word) + 5
        lines = [(t, pos) for t, pos in _drawn_texts(form) if t == text]
        assert lines, f"{game} ({language}): the strength line is not drawn"
        y = lines[0][1][1]
        assert form.px(form.seat_y(index)) + form.px(42) <= y < form.px(form.seat_y(index + 1))


def test_the_line_follows_the_level_chosen(form_in):
    from ui.level_strength import level_strength
    form = form_in("hex", "en")
    index = next(i for i, seat in enumerate(form.seats) if seat.kind == "bot")
    form.seats[index].level = 4
    shown = [t for t, _pos in _drawn_texts(form)]
    assert level_strength("hex", 4) in shown and level_strength("hex", 4) != level_strength("hex", 2)


@pytest.mark.parametrize("language", ["en", "vi"])
def test_every_levels_line_fits_its_row_uncut(form_in, language):
    """The longest words of any level of any game fit the line's width at 1280x720."""
    from games.render import font
    from ui.level_strength import STRENGTH_WIDTH, level_strength
    form = form_in("hex", language)
    face = font(form.px(14))
    for plugin in registry.all_plugins():
        for level in range(1, len(plugin.bot_levels) + 1):
            text = level_strength(plugin.name, level)
            assert face.size(text)[0] <= form.px(STRENGTH_WIDTH), f"{plugin.name} level {level}: {text!r} is cut"
