"""The New match form: options in plain words, remembered choices, whole help texts, and
errors (a missing program, a bad map) shown whole on the form."""
import pygame

from runner import paths

from ui_helpers import click, pick, play_button, press, pump, wait_until


# ---------------------------------------------------------------- a program that does not exist
def test_a_program_seat_whose_command_does_not_exist_is_reported_on_the_form(home, tmp_path):
    from ui.scenes.new_match import kind_label
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == "hex")
    click(home, button)
    form = home.scene
    kind_menu = form.seat_widgets[1]["kind"]
    click(home, kind_menu)                                   # open the seat's kind menu
    option = next(b for b in kind_menu.current_state.options_selection_list.item_list_container.elements
                  if b.text == kind_label("ext"))
    click(home, option)
    assert form.seats[1].kind == "ext"
    entry = form.seat_widgets[1]["command"]
    click(home, entry)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="./no-such-player"))
    pump(home)
    assert form.error == "Player 2 (rows): ./no-such-player: no such file"
    assert form.error_label.text == form.error and not form.start_button.is_enabled
    click(home, form.start_button)
    assert home.scene is form, "no match starts"
    script = tmp_path / "player.py"
    script.write_text("")
    click(home, entry)
    press(home, pygame.K_END, frames=1)
    for _ in range(len("./no-such-player")):
        press(home, pygame.K_BACKSPACE, frames=1)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"python3 {script}"))
    pump(home)
    assert form.error == "" and form.start_button.is_enabled


# ---------------------------------------------------------------- the options, in plain words
def test_robot_options_are_plain_words_a_map_menu_and_a_checkbox_and_are_remembered(home):
    from pygame_gui.elements import UICheckBox
    from ui.scenes.new_match import FROM_FILE
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == "robot")
    click(home, button)
    form = home.scene
    names = {o.name: w for w, o in form.option_widgets.items()}
    assert "map_name" not in names, "options the arena sets are never shown"
    home.draw()
    map_menu = names["map"]
    items = map_menu.options_list
    assert ("rooms-17", "rooms-17") in items and items[-1][0] == FROM_FILE
    pick(home, map_menu, "rooms-17")
    assert form.option_texts["map"] == "rooms-17"
    respawn = names["respawn"]
    assert isinstance(respawn, UICheckBox) and not respawn.is_checked
    click(home, respawn)
    assert form.option_texts["respawn"] == "on" and form.error == ""
    pick(home, form.variant_menu, "3 players")
    assert len(form.seats) == 3
    click(home, form.start_button)
    scene = home.scene
    assert type(scene).__name__ == "MatchScene"
    assert scene.match.options["respawn"] == "on" and scene.match.options["map_name"] == "rooms-17"
    scene.match.stop()
    home.pop()
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == "robot")
    click(home, button)
    again = home.scene
    assert again.variant == "3 players" and again.option_texts == {"map": "rooms-17", "respawn": "on"}
    names = {o.name: w for w, o in again.option_widgets.items()}
    assert names["respawn"].is_checked and names["map"].selected_option[0] == "rooms-17"
    pick(home, names["map"], FROM_FILE)
    assert again.dialog is not None and "map" in again.dialog.window_display_title.lower()


def test_hex_labels_say_what_and_in_which_unit(home):
    from ui.scenes.new_match import NewMatchScene, option_label
    form = home.push(NewMatchScene(home, game="hex"))
    pump(home)
    labels = [option_label(o) for o in form.visible_options()]
    assert "Board size (cells a side)" in labels and "Program's game clock (s)" in labels
    swap = next(w for w, o in form.option_widgets.items() if o.name == "swap")
    click(home, swap)
    assert form.option_texts["swap"] == "True" and form.resolved_options()["swap"] is True


def test_a_bad_map_error_is_shown_whole_on_the_form(home, tmp_path):
    from ui.scenes.new_match import NewMatchScene
    bad = tmp_path / "my_own_map_with_a_rather_long_name_for_the_contest.txt"
    bad.write_text("5 5 1\n.....\n.###.\n.#.#.\n.###.\n.....\n")
    form = home.push(NewMatchScene(home, game="robot"))
    form.option_texts["map"] = str(bad)
    form.relayout()
    pump(home)
    assert form.error and not form.start_button.is_enabled
    lines = form.error_lines()
    assert " ".join(lines) == " ".join(form.error.split()) and "…" not in " ".join(lines), lines
    from games.render import font
    face = font(form.px(17), bold=True)
    assert all(face.size(line)[0] <= form.px(form.dw - 340) for line in lines)
    assert form.px(40) + max(face.size(line)[0] for line in lines) < form.start_button.rect.left


# ---------------------------------------------------------------- records folder
def test_a_match_without_programs_leaves_no_seat_folders(home):
    click(home, play_button(home, "hex"))
    form = home.scene
    click(home, form.start_button)
    scene = home.scene
    assert type(scene).__name__ == "MatchScene"
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    click(home, scene.resign_button)
    click(home, scene.resign_button)
    assert wait_until(home, lambda: scene.finished, timeout=10)
    scene.match.stop()
    folders = [p for p in paths.records_dir().rglob("seat*") if p.is_dir()]
    assert paths.records_dir().is_dir() and folders == []


# ---------------------------------------------------------------- the form remembers
def test_the_form_remembers_seats_and_levels_and_a_new_seat_plays_like_the_others(home):
    click(home, play_button(home, "robot"))
    form = home.scene
    for widgets in form.seat_widgets[1:]:
        pick(home, widgets["level"], "3 · territory")
    assert [s.level for s in form.seats if s.kind == "bot"] == [3]
    pick(home, form.variant_menu, "4 players")
    assert [s.kind for s in form.seats] == ["human", "bot", "bot", "bot"]
    assert [s.level for s in form.seats[1:]] == [3, 3, 3], "new seats take the others' level"
    click(home, form.start_button)
    home.scene.match.stop()
    home.pop()
    click(home, play_button(home, "robot"))
    again = home.scene
    assert again.variant == "4 players"
    assert [(s.kind, s.level) for s in again.seats[1:]] == [("bot", 3)] * 3
    assert [w["level"].selected_option[0] for w in again.seat_widgets[1:]] == ["3 · territory"] * 3


# ---------------------------------------------------------------- New match: whole help, choices fit (en, vi)
def test_new_match_descriptions_are_whole_and_choices_fit_their_menus(home):
    from games.render import font, wrap
    from runner.i18n import _, set_language
    from ui.scenes.new_match import OPTION_W, NewMatchScene, choice_text
    try:
        for code in ("en", "vi"):
            set_language(code)
            for game in ("xiangqi", "robot", "hex", "tamquan"):
                form = home.push(NewMatchScene(home, game=game))
                pump(home)
                help_face = font(form.px(14))
                for option in form.visible_options():
                    lines = wrap(help_face, _(option.help), form.help_width())
                    if game in ("xiangqi", "robot") and len(lines) <= 3:    # room for these
                        assert not form.help_is_cut(option), (code, option.name, lines)
                    for choice in option.choices or ():
                        room = form.px(OPTION_W) - form.px(40)          # the arrow and the padding
                        text = choice_text(choice)
                        assert font(form.px(18)).size(text)[0] <= room, (code, game, text)
                home.pop()
            form = home.push(NewMatchScene(home, game="xiangqi"))
            from ui.seat_settings import ENGINE_FIELDS, field_unit_label
            depth = field_unit_label(ENGINE_FIELDS[1], _)
            assert depth == ("Depth (plies)" if code == "en" else "Độ sâu (nửa nước)"), depth
            home.pop()
    finally:
        set_language("en")
