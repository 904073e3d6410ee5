"""With Vietnamese chosen, what the runner says about a misbehaving program (a time-out, a
MOVE.OUT of garbage, a crash) reads in Vietnamese in the debug panel's verdict and notes,
the move list and the game-over banner, while the record keeps its English."""
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from games import registry
from runner import i18n
from runner.match import Match, TimeControl
from runner.seats import make_seat
from ui.game_texts import rules_text
from ui_helpers import open_match, pump, wait_until

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "robot" / "bots"
PY = shlex.quote(sys.executable)
MAP = "5 5 2\n.....\n.....\n.....\n.....\n.....\n"


def screen_texts(scene) -> list[str]:
    """Every text the match screen shows about the turns: each turn's debug panel for
    seats shown, the move list, the notes of each row, the banner."""
    texts = []
    for row in range(1, len(scene.turns()) + 1):
        scene.select(row)
        texts += [scene.debug_text(seat) for seat in scene.debug_open]
        texts.append(scene.move_note(row))
    texts += ["".join(t for t, _c in row) for row in scene.moves.rows]
    texts += list(scene.banner_texts())
    return [" ".join(text.split()) for text in texts]          # wrapped lines joined again


def english_in(texts, fragments) -> list[str]:
    return [f for f in fragments if any(f in text for text in texts)]


def test_a_robot_program_that_times_out_and_one_that_writes_garbage_read_in_vietnamese(home, tmp_path):
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\ntime.sleep(5)\n", encoding="utf-8")
    plugin = registry.plugin("robot")
    # the garbage writer is on the CPU clock (a 0.4 s wall limit is too short for a Python
    # program to start on a loaded machine); the sleeper on the wall clock times out
    seats = [make_seat(f"ext:{PY} {shlex.quote(str(BOTS / 'garbage_bot.py'))}", plugin, 1,
                       limits={"clock": "cpu"}),
             make_seat(f"ext:{PY} {shlex.quote(str(sleeper))}", plugin, 2)]
    record = tmp_path / "robot.arena.jsonl"
    match = Match(plugin, {"map": MAP, "players": 2, "respawn": "off", "period": 2}, seats, seed=3,
                  record_path=record, time_control=TimeControl(per_move=0.4), workdir=tmp_path / "m")
    i18n.set_language("vi")
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.finished, timeout=60)
    for seat in (0, 1):
        scene.toggle_debug(seat)
    pump(home)
    texts = screen_texts(scene)
    written = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    details = {a.get("detail", "") for t in written if t["type"] == "turn" for a in t["answers"].values()}
    # the record keeps English: the details the screen must not show as they are
    assert any("expected 'X Y' (two whole numbers)" in d for d in details), details
    assert any("holds binary data" in d for d in details) and any("killed after" in d for d in details)
    english = ["expected 'X Y'", "two whole numbers", "holds binary data", "is larger than", "killed after",
               "time limit", "the referee played", "Verdict", "bad-file", "timeout"]
    assert english_in(texts, english) == []
    shown = "\n".join(texts)
    for vietnamese in ("cần 'X Y' (hai số nguyên), gặp 'north please'", "chứa dữ liệu nhị phân",
                       "bị dừng sau 0.4", "trọng tài đi", "Phán quyết"):
        assert vietnamese in shown, vietnamese
    i18n.set_language("en")
    scene.select(1)
    assert "expected 'X Y' (two whole numbers), got 'north please'" in " ".join(scene.debug_text(0).split())


def test_a_xiangqi_program_that_crashes_loses_in_vietnamese_on_the_banner(home, tmp_path):
    from games.xiangqi.referee import XiangqiMatch
    plugin = registry.plugin("xiangqi")
    honest = ROOT / "tests" / "xiangqi" / "programs" / "random_mover.py"
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    # 10 s a side: the honest Red (a contest program, at nice 10) must make its first
    # move on a loaded machine too; Black crashes at once whatever its clock
    seats = [make_seat(f"ext:{PY} {shlex.quote(str(honest))} --seed 3 --poll 0.01", plugin, 3,
                       limits={"seconds": 10, "poll": 0.01}),
             make_seat(f"ext:{PY} {shlex.quote(str(crash))}", plugin, 4, limits={"seconds": 10, "poll": 0.01})]
    options = plugin.new_game().spec.resolve_options(None, {})
    match = XiangqiMatch(plugin, options, seats, seed=3, seconds=10, report_dir=tmp_path / "m",
                         workdir=tmp_path / "m", record_path=tmp_path / "xq.arena.jsonl")
    i18n.set_language("vi")
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.finished, timeout=60)
    assert "without writing a move" in match.outcome.detail          # the record's words
    scene.toggle_debug(1)
    pump(home)
    texts = screen_texts(scene)
    assert english_in(texts, ["the program ended", "exit code", "without writing a move", "crash"]) == []
    head, detail = scene.banner_texts()
    assert "chương trình kết thúc (mã thoát 3) mà không ghi nước đi" in detail, (head, detail)
    assert scene.title_text() == "Cờ tướng · lặp lại lần đầu là hết ván", scene.title_text()


def test_a_long_verdict_on_the_banner_is_shown_whole_at_every_size(home):
    """The banner's detail shrinks, then takes two lines, rather than being cut."""
    from ui.scenes.match import MatchScene
    from games.render import font
    hexp = registry.plugin("hex")
    match = Match(hexp, hexp.new_game().spec.resolve_options("5x5"),
                  [make_seat("bot:1", hexp, 1), make_seat("bot:1", hexp, 2)], seed=4)
    scene = home.push(MatchScene(home, match))
    written = "the program ended (exit code 3) without writing a move"
    for code in ("en", "vi"):
        i18n.set_language(code)
        detail = rules_text(written)
        for room in (300, 420, 560, 900):
            size, lines = scene.banner_detail_lines(detail, room)
            assert 1 <= len(lines) <= 2 and " ".join(lines) == detail, (room, lines)
            assert all(font(scene.px(size)).size(line)[0] <= room for line in lines), (room, lines)
    match.stop()


def test_notes_on_a_programs_annotations_read_in_vietnamese_in_the_debug_panel():
    from games.annotations import parse_annotations
    from games.render import Theme
    from games.replay import TurnInfo
    from ui.panels import debug_rows
    game = registry.plugin("hex").new_game()
    parsed = parse_annotations("blah c3\nheat zz 5\nheat c3 many\ntext\n", game.parse_cell)
    assert len(parsed.notes) == 4
    turn = TurnInfo(1, {0: "c3"}, answers={0: {"elapsed": 0.1, "debug": parsed.to_json()}})
    i18n.set_language("vi")
    lines = [" ".join("".join(t for t, _c in row).split()) for row in debug_rows(turn, 0, "Đỏ", Theme())]
    notes = [line for line in lines if line.startswith("Ghi chú vẽ")]
    assert len(notes) == 4, lines
    for note in notes:
        assert not re.search(r"unknown command|is not a cell|is not a number|expected", note), note
    assert any("lệnh lạ 'blah'" in note for note in notes), notes


def test_homes_recent_line_of_a_four_bot_match_names_the_levels_and_fits_its_row(app, arena_home):
    """Beyond two seats the bots are named as on 2-seat lines ("Bot 2 · painter"); a line
    too long for its row at 720p drops what it can spare (the date, then program paths),
    never the levels, and shows the whole line on hover."""
    from ui.scenes.home import HomeScene
    for sample in ("robot-sample.arena.jsonl", "hex-program-vs-bot.arena.jsonl", "tamquan-sample.arena.jsonl"):
        app.settings.add_recent(ROOT / "replays" / sample)
    for code, levels in (("en", ["Bot 4 · strongest", "Bot 3 · territory", "Bot 2 · painter", "Bot 1 · random"]),
                         ("vi", ["Máy 4 · mạnh nhất", "Máy 3 · chiếm đất", "Máy 2 · thợ sơn", "Máy 1 · ngẫu nhiên"])):
        i18n.set_language(code)
        app.push(HomeScene(app))
        pump(app)
        buttons = list(app.scene.recent_buttons)
        assert len(buttons) == 3
        for button in buttons:
            room = button.rect.width - 2 * app.scene.px(12)
            assert button.font.size(button.text)[0] <= room, button.text
            shown, whole = button.text, button.tool_tip_text.split("\n")[0]
            assert shown == whole or "…" in shown or len(shown) < len(whole)
        robot = next(b for b in buttons if "Robot" in b.text)
        assert all(level in robot.text for level in levels), robot.text
        assert re.search(r"\d{4} \d\d:\d\d", robot.tool_tip_text), robot.tool_tip_text     # the date on hover
        hexline = next(b for b in buttons if b.text.startswith("Hex"))
        assert "shortest_path.py" in hexline.text
        assert ("Chương trình python3" if code == "vi" else "Program python3") in hexline.text, hexline.text
        app.pop()


EXPORT_SIZES = [(640, 360), (960, 540), (1280, 720), (1920, 1080), (3840, 2160), (720, 1000)]


def busiest_turn(replay) -> int:
    from ui.snapshot import turn_caption
    return max(range(1, len(replay.states)), key=lambda index: len("".join(turn_caption(replay, index))))


@pytest.mark.parametrize("sample", ["robot-sample.arena.jsonl", "xiangqi-sample.arena.jsonl",
                                    "tamquan-sample.arena.jsonl", "hex-program-vs-bot.arena.jsonl"])
def test_an_exported_pictures_caption_is_in_vietnamese_and_shown_whole(sample):
    from runner.records import open_replay
    from ui.snapshot import caption_overflow, turn_caption
    replay = open_replay(ROOT / "replays" / sample)
    plugin = registry.plugin(replay.game)
    options = replay.header.get("options") or {}
    last = len(replay.states) - 1
    i18n.set_language("vi")
    for index in (0, busiest_turn(replay), last):
        caption = turn_caption(replay, index)
        text = "\n".join(caption)
        assert not re.search(r"Turn \d|Start position|\bplayed\b|Result:|Variant", text), text
        assert not re.search(r"\b(left the game|was placed|picked up|took zone|gives check|takes)\b", text), text
        for size in EXPORT_SIZES:
            assert caption_overflow(plugin, options, replay.seat_names, size, caption) == 0, (size, caption)
    assert turn_caption(replay, last)[-1].startswith("Kết quả: ")


def test_a_long_vietnamese_verdict_with_a_path_still_fits_the_smallest_export():
    from runner.records import open_replay
    from ui.snapshot import caption_overflow, render_state, turn_caption
    replay = open_replay(ROOT / "replays" / "robot-sample.arena.jsonl")
    plugin = registry.plugin("robot")
    i18n.set_language("vi")
    caption = turn_caption(replay, busiest_turn(replay)) + [
        "A: " + rules_text("/home/contestant/a-very-long-folder-name/robots/bot_version_7/MOVE.OUT, line 1: "
                           "a move such as H2E2 (files A-I, ranks 0-9) or one of FINISH, WIN, LOST, DRAW "
                           "(found 'north please')")]
    assert "cần một nước đi như H2E2" in caption[-1]
    for size in EXPORT_SIZES:
        assert caption_overflow(plugin, replay.header["options"], replay.seat_names, size, caption) == 0, size
        assert render_state(plugin, replay.states[-1], replay.header["options"], replay.seat_names, size,
                            caption).get_size() == size
