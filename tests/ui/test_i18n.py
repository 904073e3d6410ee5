"""The interface speaks English and Vietnamese: catalogs complete, nothing shown unwrapped,
the language from the system locale, and the run-time .po reader agreeing with Babel."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import language
from runner import i18n
from i18n_scan import shadowed_translations, shown_sources, unwrapped_strings

ROOT = Path(__file__).resolve().parent.parent.parent
CATALOG = ROOT / "assets" / "locale" / "vi" / "LC_MESSAGES" / "arena.po"
TEMPLATE = ROOT / "assets" / "locale" / "arena.pot"
BRACES = re.compile(r"\{(\w*)[^{}]*\}")
PERCENT = re.compile(r"%\((\w+)\)[sdr]|%[sdr]")


def _babel_catalog(path: Path):
    from babel.messages.pofile import read_po
    with open(path, "rb") as handle:
        return read_po(handle)


def _placeholders(text: str) -> tuple[list[str], list[str]]:
    return sorted(BRACES.findall(text)), sorted(PERCENT.findall(text))


# ---------------------------------------------------------------- (a) every message translated
def test_every_marked_and_declared_string_has_a_vietnamese_translation():
    from runner.catalog_tools import all_messages
    translations = {m.id: m.string for m in _babel_catalog(CATALOG) if m.id}
    missing, broken = [], []
    for message, places in all_messages().items():
        text = translations.get(message)
        plural = isinstance(message, tuple)
        if not text or (plural and not all(text)):
            missing.append(f"{places[0][0]}:{places[0][1]}: {message!r}")
            continue
        for source, target in zip(message if plural else [message], text if plural else [text]):
            if _placeholders(source) != _placeholders(target):
                broken.append(f"{message!r} -> {target!r}")
    assert not missing, f"{len(missing)} strings have no Vietnamese translation:\n" + "\n".join(missing)
    assert not broken, "translations whose {placeholders} differ:\n" + "\n".join(broken)


def test_the_template_is_up_to_date_with_the_code():
    """arena.pot lists exactly what the code marks (run `python -m runner.catalog_tools`)."""
    from runner.catalog_tools import all_messages
    listed = {m.id for m in _babel_catalog(TEMPLATE) if m.id}
    wanted = set(all_messages())
    assert wanted - listed == set(), "new strings missing from arena.pot"
    assert listed - wanted == set(), "arena.pot lists strings the code no longer has"


def test_the_extraction_sees_a_new_marked_string(tmp_path):
    """The check above can fail: a file with a new _() string yields it."""
    from runner.catalog_tools import code_messages
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "new.py").write_text('from runner.i18n import _, N_\n'
                                           'X = N_("Declared")\nprint(_("A brand new label"))\n')
    assert {"A brand new label", "Declared"} <= set(code_messages(tmp_path))


# ---------------------------------------------------------------- (b) nothing shown unwrapped
def test_no_user_visible_literal_in_the_shell_or_renderers_skips_translation():
    problems = []
    for path in shown_sources(ROOT):
        relative = str(path.relative_to(ROOT))
        source = path.read_text(encoding="utf-8")
        problems += unwrapped_strings(source, relative) + shadowed_translations(source, relative)
    assert not problems, "shown without _():\n" + "\n".join(problems)


@pytest.mark.parametrize("line", [
    'self.label(rect, "Hello there")',
    'self.button(rect, _("Ok"), tooltip="press it")',
    'x.set_text(f"Turn {n}")',
    'face.render("Game over " + who, True, colour)',
    'self.draw_text(surface, "{n} moves".format(n=3), pos, 12, c)',
    'UIFileDialog(rect, manager, window_title="Open")',
])
def test_the_scan_catches_an_unwrapped_string(line):
    assert unwrapped_strings(f"def f(self):\n    {line}\n")


def test_the_scan_accepts_translated_and_wordless_text():
    source = ('def f(self):\n    self.label(rect, _("Hello"))\n    self.button(rect, "|<")\n'
              '    x.set_text(_("Turn {n}").format(n=1))\n    face.render(f"{a}:{b}", True, c)\n')
    assert unwrapped_strings(source) == []


def test_the_scan_catches_a_renderer_key_help_in_english():
    assert unwrapped_strings('class R:\n    def key_help(self, s, seat):\n        return "Click a cell"\n')


def test_a_local_underscore_hiding_the_translation_is_found():
    source = "def f(pairs):\n    a, _ = pairs\n    return _('x')\n\ndef g(p):\n    a, _ = p\n    return a\n"
    assert shadowed_translations(source) == ["<source>:1: f"]


# ---------------------------------------------------------------- (e) default from the locale
@pytest.mark.parametrize("environ, expected", [
    ({"LANG": "vi_VN.UTF-8"}, "vi"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LC_ALL": "vi_VN", "LANG": "en_US.UTF-8"}, "vi"),
    ({"LC_MESSAGES": "en_GB", "LANG": "vi_VN.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:vi", "LANG": "en_US"}, "vi"),
    ({"LANGUAGE": "de", "LC_ALL": "vi_VN.UTF-8"}, "vi"),
    ({"LC_ALL": "C", "LANG": "vi_VN"}, "en"),
    ({"LANG": "vi"}, "vi"),
    ({}, "en"),
])
def test_the_system_language_follows_gettexts_variables(environ, expected):
    assert i18n.system_language(environ) == expected


def test_settings_without_a_language_follow_the_locale_and_a_choice_is_remembered(monkeypatch, tmp_path):
    from ui.settings import Settings, load_settings, save_settings
    monkeypatch.setenv("LANGUAGE", "vi")
    assert Settings().interface_language() == "vi"
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setenv("LC_ALL", "vi_VN.UTF-8")
    monkeypatch.delenv("LANGUAGE")
    assert Settings().interface_language() == "vi"
    path = tmp_path / "settings.json"
    save_settings(Settings(language="en"), path)
    assert load_settings(path).language == "en" and load_settings(path).interface_language() == "en"
    path.write_text('{"language": "klingon"}', encoding="utf-8")
    assert load_settings(path).language == ""          # unknown: follow the system


def test_the_command_line_help_is_in_the_locales_language(monkeypatch, capsys):
    import main
    monkeypatch.setenv("LANGUAGE", "vi")
    with pytest.raises(SystemExit):
        main.main(["match", "--help"])
    out = capsys.readouterr().out
    assert "cách dùng: arena match" in out and "hiện trợ giúp này rồi thoát" in out
    assert "hạt giống ngẫu nhiên của ván" in out
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(SystemExit):
        main.main(["match", "--help"])
    assert "usage: arena match" in capsys.readouterr().out


# ---------------------------------------------------------------- the run-time .po reader
def test_the_po_reader_agrees_with_babel_on_the_shipped_catalog():
    catalog, plural = i18n.parse_po(CATALOG.read_text(encoding="utf-8"), str(CATALOG))
    expected = {}
    for message in _babel_catalog(CATALOG):
        if not message.id or message.fuzzy:
            continue
        if message.pluralizable:          # gettext's keys: (singular, form)
            expected.update({(message.id[0], n): text for n, text in enumerate(message.string) if text})
        elif message.string:
            expected[message.id] = message.string
    assert catalog == expected and plural.startswith("nplurals=1")
    assert any(isinstance(key, tuple) for key in catalog)         # the plural messages came through


def test_the_po_reader_skips_fuzzy_and_empty_entries_and_reads_plurals_and_escapes():
    text = ('msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
            '#, fuzzy\nmsgid "Guess"\nmsgstr "Đoán"\n\n'
            'msgid "Empty"\nmsgstr ""\n\n'
            '#: ui/x.py:3\nmsgid "Two\\n"\n"lines"\nmsgstr "Hai\\n"\n"dòng"\n\n'
            'msgctxt "menu"\nmsgid "Open"\nmsgstr "Mở"\n\n'
            'msgid "{n} turn"\nmsgid_plural "{n} turns"\nmsgstr[0] "{n} lượt"\nmsgstr[1] "{n} lượt nữa"\n')
    catalog, plural = i18n.parse_po(text)
    assert catalog == {"Two\nlines": "Hai\ndòng", "menu\x04Open": "Mở",
                       ("{n} turn", 0): "{n} lượt", ("{n} turn", 1): "{n} lượt nữa"}
    assert plural == "nplurals=2; plural=(n != 1);"


@pytest.mark.parametrize("text, line", [
    ('msgid "a"\nmsgstr "b\n', 2),
    ('msgid "a"\nmsgstr "b"\nbogus "c"\n', 3),
    ('"orphan"\n', 1),
])
def test_a_malformed_po_file_names_its_line(text, line):
    with pytest.raises(i18n.POError, match=rf"x\.po, line {line}: "):
        i18n.parse_po(text, "x.po")


def test_switching_language_translates_and_unknown_codes_mean_english():
    try:
        i18n.set_language("vi")
        assert i18n.language() == "vi" and i18n._("Settings") == "Cài đặt"
        assert i18n._("a string nobody translated") == "a string nobody translated"
        assert i18n._("") == ""                # not the catalog's header
        i18n.set_language("xx")
        assert i18n.language() == "en" and i18n._("Settings") == "Settings"
    finally:
        i18n.set_language("en")


def test_a_broken_catalog_falls_back_to_english(monkeypatch, tmp_path):
    broken = tmp_path / "arena.po"
    broken.write_text('msgid "Settings"\nmsgstr "Cài đặt\n', encoding="utf-8")
    monkeypatch.setattr(language, "catalog_path", lambda code: broken)   # the shared module reads it
    try:
        i18n.set_language("vi")
        assert i18n.language() == "en" and i18n._("Settings") == "Settings"
    finally:
        monkeypatch.undo()
        i18n.set_language("en")


# ---------------------------------------------------------------- texts the rules write
def _fake_catalog(monkeypatch, messages: dict) -> None:
    """The interface in a language whose catalog is ``messages`` (nothing else)."""
    import gettext
    translations = gettext.GNUTranslations()
    translations._catalog, translations._charset, translations._info = dict(messages), "utf-8", {}
    translations.plural = lambda n: 0
    monkeypatch.setattr(language, "_translation", translations)     # the shared module holds the language
    monkeypatch.setattr(language, "_language", "vi")
    i18n._translate.cache_clear()


TEMPLATES = ("{side} gives check", "{robot} left the game: {why}", "enclosed by {robot}",
             "{side} is checkmated; {winner} wins", "items: {items}", "{item} at {cell}")


def test_a_finished_text_is_translated_by_its_template_and_its_parts(monkeypatch):
    _fake_catalog(monkeypatch, {"{side} gives check": "{side} chiếu tướng", "Red": "Đỏ", "Black": "Đen",
                                "{robot} left the game: {why}": "{robot} rời cuộc chơi: {why}",
                                "enclosed by {robot}": "bị {robot} khép vòng",
                                "{side} is checkmated; {winner} wins": "{side} bị chiếu bí; {winner} thắng",
                                "items: {items}": "vật phẩm: {items}", "{item} at {cell}": "{item} tại {cell}"})
    assert i18n.translate_text("Red gives check", TEMPLATES) == "Đỏ chiếu tướng"
    assert i18n.translate_text("C left the game: enclosed by A", TEMPLATES) == "C rời cuộc chơi: bị A khép vòng"
    # the more specific template wins over the list split at "; "
    assert i18n.translate_text("Black is checkmated; Red wins", TEMPLATES) == "Đen bị chiếu bí; Đỏ thắng"
    # a list inside a part is translated item by item
    assert (i18n.translate_text("items: E at (10, 5), G at (14, 7)", TEMPLATES)
            == "vật phẩm: E tại (10, 5), G tại (14, 7)")
    # a whole text in the catalog is looked up as it is
    assert i18n.translate_text("Black", TEMPLATES) == "Đen"


def test_a_text_no_template_fits_is_shown_as_written(monkeypatch):
    _fake_catalog(monkeypatch, {"{side} gives check": "{side} chiếu tướng"})
    for text in ("Red gave check", "gives check", "CURRIER 114", "", "A 3, B 0"):
        assert i18n.translate_text(text, TEMPLATES) == text


def test_a_translation_with_a_wrong_placeholder_keeps_the_english(monkeypatch):
    _fake_catalog(monkeypatch, {"{side} gives check": "{colour} chiếu tướng"})
    assert i18n.translate_text("Red gives check", TEMPLATES) == "Red gives check"


def test_in_english_the_text_is_untouched():
    i18n.set_language("en")
    assert i18n.translate_text("Red gives check", TEMPLATES) == "Red gives check"


def test_every_rules_template_is_in_the_catalog_template():
    """The games' and the referee's templates are collected, so the test that every
    string is translated covers them."""
    from runner.catalog_tools import all_messages
    from ui.game_texts import message_templates
    assert len(message_templates()) > 80
    assert set(message_templates()) <= set(all_messages())


def test_the_best_reading_wins_when_templates_cut_a_text_differently(monkeypatch):
    """"{move} is not legal: {why}" also matches the whole forfeit, cut in the wrong place;
    the reading that recognises the most text is shown."""
    templates = ("{side} forfeits ({reason})", "illegal move: {error}", "{move} is not legal: {why}",
                 "the piece on {square} is {side}'s")
    _fake_catalog(monkeypatch, {"{side} forfeits ({reason})": "{side} bị xử thua ({reason})",
                                "illegal move: {error}": "nước đi không hợp lệ: {error}",
                                "{move} is not legal: {why}": "{move} không hợp lệ: {why}",
                                "the piece on {square} is {side}'s": "quân tại {square} là của {side}",
                                "Black": "Đen", "Red": "Đỏ"})
    assert (i18n.translate_text("Black forfeits (illegal move: E7E8 is not legal: the piece on E7 is Red's)",
                                templates)
            == "Đen bị xử thua (nước đi không hợp lệ: E7E8 không hợp lệ: quân tại E7 là của Đỏ)")


def test_a_name_used_twice_in_a_template_must_hold_the_same_text(monkeypatch):
    templates = ("row {row}, column {col} is off the {size}x{size} board",)
    _fake_catalog(monkeypatch, {templates[0]: "hàng {row}, cột {col} nằm ngoài bàn {size}x{size}"})
    assert i18n.translate_text("row 9, column 2 is off the 5x5 board", templates) == "hàng 9, cột 2 nằm ngoài bàn 5x5"
    assert i18n.translate_text("row 9, column 2 is off the 5x7 board", templates) == "row 9, column 2 is off the 5x7 board"


# ---------------------------------------------------------------- details the runner and seats write
#: Words of a program's protocol that stay as they are in any language (the program must write them).
PROTOCOL_WORDS = {"draw", "discard", "play", "across", "down", "stop", "done", "genmove", "bestmove"}


def _details_written_by_the_code(tmp_path) -> list[str]:
    """Failure details and notes made by the real runner, seats and rules (not copied
    here), as records keep them: answer files missing, not regular, too large or binary;
    runs that exited, were killed or could not start; late answers; bad MOVE.OUT and move
    files; illegal moves of every game; the referee's repair note."""
    from games import registry
    from games.robot.protocol import organizers_warning, parse_move_out
    from games.tamquan.protocol import move_text_of
    from games.xiangqi.movefiles import parse_move_file
    from games.api import MoveSyntaxError, RecordFormatError
    from runner.process import RunResult, run_once
    from runner.program_seats import read_answer_file, read_debug_file
    from runner.records import open_replay
    from runner.referee import judge_time, referee_step, resolve_answer
    from runner.seats import Answer

    details = [read_answer_file(tmp_path / "MOVE.OUT", 10)[1]]
    (tmp_path / "MOVE.OUT").mkdir()
    details.append(read_answer_file(tmp_path / "MOVE.OUT", 10)[1])
    for folder, content in (("large", b"1 2" * 10), ("binary", b"1\x002")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "MOVE.OUT").write_bytes(content)
        details.append(read_answer_file(tmp_path / folder / "MOVE.OUT", 10)[1])
    (tmp_path / "DEBUG.OUT").mkdir()
    details.append(read_debug_file(tmp_path)[1])
    details += [RunResult(3, 0.1, False, "", "").describe(), RunResult(None, 2.01, True, "", "").describe(),
                run_once([str(tmp_path / "x9")], tmp_path, 1.0).describe()]
    late = Answer(elapsed=2.31)
    judge_time(late, 2.0)
    details.append(late.detail)
    for text in ("north please", "1 2\0", "1 " * 3000):
        try:
            parse_move_out(text)
        except MoveSyntaxError as exc:
            details.append(f"MOVE.OUT: {exc}")
    details.append(organizers_warning("1,2\n") + " (compat=organizers)")
    for text in ("x", "", "1 2", "-1 3 3"):
        try:
            move_text_of(text)
        except MoveSyntaxError as exc:
            details.append(f"MOVE.OUT: {exc}")
    for text in ("A\n", "E0E0\n"):
        try:
            parse_move_file(text, "M2.DAT")
        except RecordFormatError as exc:
            details.append(str(exc))
    tries = {"xiangqi": ["E7E8", "H2E9", "ZZ", "A0A0", "H2H5"], "robot": ["north please", "9 9"],
             "tamquan": ["zone 9: 0,0", "x"], "hex": ["zz"], "crosswords": ["fly away", "draw 9 AB"]}
    for name, moves in tries.items():
        game = registry.plugin(name).new_game()
        state = open_replay(ROOT / "replays" / f"{name}-sample.arena.jsonl").states[1].clone()
        for move in moves:
            answer = Answer(text=move, source="MOVE.OUT")
            resolve_answer(game, state, state.to_move()[0], answer)
            details.append(answer.detail)
    robot = registry.plugin("robot").new_game()
    state = open_replay(ROOT / "replays" / "robot-sample.arena.jsonl").states[1].clone()
    info = referee_step(robot, state, {seat: Answer(text="1 2\0") for seat in state.to_move()}, 2)
    details += [note for answer in info.answers.values() for note in answer.get("notes", [])]
    return [detail for detail in details if detail]


def _words(text: str, english: bool = True) -> set[str]:
    """The words of a detail (only lowercase English-looking ones when ``english``),
    leaving out what keeps its value in any language: quoted text, file names and
    paths, option values, protocol words."""
    text = re.sub(r"'[^']*'|\S*[./=]\S*", " ", text)
    return set(re.findall(r"\b[a-z]{3,}\b" if english else r"\w+", text)) - PROTOCOL_WORDS


def test_every_detail_the_runner_and_the_seats_write_reads_in_vietnamese(tmp_path):
    from runner.messages import translated
    details = _details_written_by_the_code(tmp_path)
    assert len(details) >= 30
    try:
        i18n.set_language("vi")
        left = []
        for detail in details:
            shown = translated(detail)
            still = _words(detail) & _words(shown, english=False)
            if still or shown == detail:
                left.append(f"{detail!r} -> {shown!r}: {sorted(still)}")
    finally:
        i18n.set_language("en")
    assert not left, "details still in English:\n" + "\n".join(left)
    assert translated(details[0]) == details[0]          # English shows as written
