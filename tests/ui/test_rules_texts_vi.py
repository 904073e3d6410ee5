"""With Vietnamese chosen, the texts the games' rules and the referee write (events,
results, verdicts, repair notes) are shown in Vietnamese, though records keep English."""
import re
from pathlib import Path

import pygame
import pytest

from games.api import Termination
from games.replay import TurnInfo
from runner import i18n
from runner.records import open_replay
from ui_helpers import press, pump

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ["robot-sample.arena.jsonl", "xiangqi-sample.arena.jsonl", "tamquan-sample.arena.jsonl",
           "hex-sample.HEX.OUT", "hex-program-vs-bot.arena.jsonl", "crosswords-sample.arena.jsonl"]
#: A lowercase English word: a text with none ("A 58, B 22", "CURRIER 114") reads the same in
#: either language.
ENGLISH_WORD = re.compile(r"\b[a-z]{3,}\b")


def english_left(original: str, shown: str) -> set[str]:
    """The English words of ``original`` still found as words in ``shown``."""
    return set(ENGLISH_WORD.findall(original)) & set(re.findall(r"\w+", shown))


def words_of(rows) -> list[str]:
    return ["".join(text for text, _colour in row) for row in rows]


@pytest.mark.parametrize("sample", SAMPLES)
def test_a_replays_log_notes_and_result_are_in_vietnamese(home, sample):
    from ui.scenes.replay import ReplayScene
    replay = open_replay(ROOT / "replays" / sample)
    english = {e.text for t in replay.turns for e in t.events if ENGLISH_WORD.search(e.text)}
    if replay.outcome is not None and ENGLISH_WORD.search(replay.outcome.detail):
        english.add(replay.outcome.detail)
    assert english or sample.startswith("crosswords"), "a sample with nothing to translate proves nothing"
    i18n.set_language("vi")
    home.push(ReplayScene(home, path=str(ROOT / "replays" / sample)))
    pump(home)
    scene = home.scene
    press(home, pygame.K_END)
    pump(home)
    shown = words_of(scene.moves.rows) + [scene.status_text()]
    shown += [scene.move_note(row) for row in range(1, len(scene.moves.rows))]
    left = sorted(text for text in english if any(text in line for line in shown))
    assert left == [], f"shown in English: {left[:5]}"
    if replay.outcome is not None and replay.outcome.detail in english:
        assert not english_left(replay.outcome.detail, scene.status_text()), scene.status_text()


def hand_made_events(game_name):
    """The events and result of a few states made by hand: a robot that timed out, a
    Xiangqi forfeit, a Tam Quân team that crashed."""
    state = open_replay(ROOT / "replays" / f"{game_name}-sample.arena.jsonl").states[1].clone()
    state.forfeit(0, Termination.TIMEOUT, "answered after 2.10 s; the limit was 1.00 s")
    texts = [e.text for e in state.events()]
    if state.outcome() is not None:
        texts.append(state.outcome().detail)
    return texts


@pytest.mark.parametrize("game_name", ["robot", "xiangqi", "hex", "tamquan"])
def test_a_forfeit_written_by_the_rules_reads_in_vietnamese(game_name):
    from ui.game_texts import rules_text
    texts = [t for t in hand_made_events(game_name) if t]
    assert texts
    i18n.set_language("vi")
    for text in texts:
        shown = rules_text(text)
        assert not english_left(text, shown), (text, shown)


def test_the_referees_verdicts_and_notes_in_the_debug_panel_are_in_vietnamese():
    from games.render import Theme
    from ui.panels import debug_rows
    theme = Theme()
    crashed = TurnInfo(3, {}, answers={0: {"failure": "crash", "detail": "exited with code 3", "elapsed": 0.2,
                                           "notes": ["deleted files the program created: a.txt, b.txt"]}},
                       forfeits={0: {"reason": "crash", "detail": "exited with code 3"}})
    late = TurnInfo(4, {1: "C2C3"}, answers={1: {"failure": "timeout", "elapsed": 2.1,
                                                 "detail": "answered after 2.10 s; the limit was 1.00 s"}})
    illegal = TurnInfo(5, {}, answers={0: {"failure": "illegal-move", "elapsed": 0.1,
                                           "detail": "illegal move (MOVE.TXT): no move was given"}})
    i18n.set_language("vi")
    lines = (words_of(debug_rows(crashed, 0, "Đỏ", theme)) + words_of(debug_rows(late, 1, "Đen", theme))
             + words_of(debug_rows(illegal, 0, "Đỏ", theme)))
    written = ("exited with code 3 deleted files the program created answered after the limit was "
               "illegal move no move was given crash timeout illegal-move")
    english = [line for line in lines if english_left(written, line)]
    assert english == []
    i18n.set_language("en")
    assert any("exited with code 3" in line for line in words_of(debug_rows(crashed, 0, "Red", theme)))


def test_the_new_match_form_says_a_bad_map_and_a_bad_seat_in_vietnamese(home, tmp_path):
    from ui.scenes.new_match import NewMatchScene
    bad = tmp_path / "cut.txt"
    bad.write_text("9 9 5\n.........\n", encoding="utf-8")
    i18n.set_language("vi")
    form = home.push(NewMatchScene(home, game="robot"))
    form.option_texts["map"] = str(bad)
    form.relayout()
    pump(home)
    assert "dòng 3: cần hàng bản đồ 1 trên 9 (tệp kết thúc sớm)" in form.error, form.error
    assert not english_left("line map row of the file ends early", form.error)
    form.option_texts["map"] = "rooms-17"
    form.seats[0].kind, form.seats[0].command = "ext", "./no-such-player"
    form.relayout()
    pump(home)
    assert "./no-such-player: không có tệp này" in form.error, form.error
