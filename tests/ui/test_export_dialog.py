"""Export: save as asks where, remembers the folder and says where; its rows and the
bottom line stay readable."""
from ui_helpers import click, pump


# ---------------------------------------------------------------- export: save as
def test_export_asks_where_remembers_the_folder_and_says_where(home, tmp_path):
    from ui.scenes.replay import ReplayScene
    home.push(ReplayScene(home, path=str(__import__("pathlib").Path(__file__).parents[2]
                                         / "replays" / "hex-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    target = tmp_path / "my exports"
    target.mkdir()
    (button,) = [b for b, text in view.extra_buttons.items() if text == "Export"]
    click(home, button)
    dialog = view.export_dialog
    assert dialog is not None and "folder" in dialog.window_display_title
    dialog.current_directory_path = str(target)         # as if the person walked there
    dialog.current_file_path = target
    click(home, dialog.ok_button)
    assert view.export_dialog is None
    written = sorted(p.name for p in target.iterdir())
    assert len(written) == 2 and all(n.startswith("hex-sample-") for n in written), written
    assert any(n.endswith(".sgf") for n in written) and any(n.endswith("HEX.OUT") for n in written)
    assert home.settings.export_folder == str(target)
    line = view.status_bar_lines()[0]
    assert line.startswith(f"Exported to {target}: ") and view.status_bar_rect() is not None
    (button,) = [b for b, text in view.extra_buttons.items() if text == "Export"]
    click(home, button)                                  # the next time it opens there
    assert __import__("pathlib").Path(view.export_dialog.current_directory_path) == target


def test_after_an_export_the_bottom_line_sits_below_the_transport_bar(home, tmp_path):
    from ui.scenes.replay import ReplayScene
    home.push(ReplayScene(home, path=str(__import__("pathlib").Path(__file__).parents[2]
                                         / "replays" / "hex-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    view.export(tmp_path)
    pump(home)
    bar = view.status_bar_rect()
    lowest = max(b.rect.bottom for b in view.transport)
    assert lowest <= bar.top and view.slider.rect.bottom <= bar.top
    assert view.speed_menu.rect.bottom <= bar.top


def test_file_dialog_rows_are_readable_in_the_light_theme(home):
    from games.render import LIGHT, luminance
    from ui.theme import gui_theme
    row = gui_theme(LIGHT, 1.0)["file_dialog.#file_display_list.#file_list_item"]["colours"]
    bg = tuple(int(row["normal_bg"][i:i + 2], 16) for i in (1, 3, 5))
    text = tuple(int(row["normal_text"][i:i + 2], 16) for i in (1, 3, 5))
    assert luminance(bg) > 0.7 and luminance(text) < 0.3, row
