"""pygame_gui's file dialogs (Open record, Export, New match's program and map pickers)
scale with the window: at 3840×2160 the path line and buttons are as large, relative to
the window, as at 1280×720, and nothing is cut."""
from pathlib import Path

import pytest

from ui_helpers import click, pump

ROOT = Path(__file__).resolve().parents[2]


def open_dialogs(app):
    """Each dialog a user can open, opened the way the user does."""
    from ui.scenes.new_match import NewMatchScene
    from ui.scenes.replay import ReplayScene
    from ui.scenes.home import HomeScene
    app.push(HomeScene(app))
    app.push(ReplayScene(app))
    pump(app)
    click(app, app.scene.open_button)
    yield "open a record", app.scene.dialog
    app.pop()
    app.push(ReplayScene(app, path=str(ROOT / "replays" / "hex-sample.arena.jsonl")))
    pump(app)
    app.scene.ask_export_folder()
    pump(app)
    yield "export", app.scene.export_dialog
    app.pop()
    form = app.push(NewMatchScene(app, game="robot"))
    pump(app)
    form._browse(0)
    pump(app)
    yield "program", form.dialog


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_every_file_dialog_scales_and_shows_its_path_line_whole(size, arena_home):
    from ui.app import App
    from ui.settings import Settings
    app = App(Settings(), size=size, fullscreen=False)
    try:
        for name, dialog in open_dialogs(app):
            assert dialog is not None, name
            line, box = dialog.file_path_text_line, dialog.get_container().get_rect()
            assert line.rect.height >= app.px(30), (name, line.rect)
            assert box.contains(line.rect) and line.rect.width >= box.width - app.px(24), (name, line.rect, box)
            for button in (dialog.ok_button, dialog.cancel_button):
                assert button.rect.height >= app.px(30) and box.contains(button.rect), (name, button.rect)
            text_height = line.font.size("Ay")[1] if hasattr(line, "font") else 0
            assert text_height <= line.rect.height, (name, text_height, line.rect.height)
            dialog.kill()
    finally:
        app.close()
