"""Texts translated at the source: an event's or a verdict's text is a ``Message`` that
keeps its id (the English template) and parts, records keep the English text with them,
and the interface says it in Vietnamese from the id and parts, with no reading back of
the finished sentence; an old record's English-only text still reads in Vietnamese."""
from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from games.api import Event, Message, Outcome, Termination
from runner import i18n
from runner.messages import all_templates, translated

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def vietnamese():
    i18n.set_language("vi")
    yield
    i18n.set_language("en")


@pytest.fixture
def no_reading_back(monkeypatch):
    """Any attempt to match a finished text against the templates fails the test."""
    def refused(*_args, **_kwargs):
        raise AssertionError("a text with an id was read back by the templates")
    monkeypatch.setattr(i18n, "translate_text", refused)
    monkeypatch.setattr(i18n, "template_pattern", refused)
    monkeypatch.setattr("runner.messages.translate_text", refused)


def forfeit_verdict() -> Message:
    reason = Message("answered after {elapsed} s; the limit was {limit} s", elapsed="2.10", limit="1.00")
    return Message("{side} forfeits ({reason})", side="Red", reason=reason)


def test_a_message_is_its_english_text_and_keeps_its_id_and_parts():
    verdict = forfeit_verdict()
    assert verdict == "Red forfeits (answered after 2.10 s; the limit was 1.00 s)"
    assert verdict.msgid == "{side} forfeits ({reason})"
    assert verdict.params["reason"].msgid == "answered after {elapsed} s; the limit was {limit} s"
    again = pickle.loads(pickle.dumps(verdict))        # a tournament worker sends results back
    assert (again, again.msgid, again.params) == (verdict, verdict.msgid, verdict.params)


def test_an_event_built_with_an_id_reads_in_vietnamese_without_reading_back(vietnamese, no_reading_back):
    event = Event("verdict", forfeit_verdict(), (1,))
    assert translated(event.text) == "Đỏ bị xử thua (trả lời sau 2.10 giây; giới hạn là 1.00 giây)"
    check = Message("{side} gives check", side="Black")
    assert translated(check) == i18n._("{side} gives check").format(side=i18n._("Black"))
    assert translated(check) != check


def test_an_events_and_a_results_message_survive_the_record(vietnamese, no_reading_back):
    event = Event("verdict", forfeit_verdict(), (1,), ((3, 4),))
    line = json.loads(json.dumps(event.to_json()))
    assert line[:3] == ["verdict", str(forfeit_verdict()), [1]]      # the English text stays
    back = Event.from_json(line)
    assert back == event and back.text.msgid == event.text.msgid
    assert translated(back.text) == translated(event.text)
    outcome = Outcome((0,), (1.0, 0.0), Termination.TIMEOUT, forfeit_verdict())
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["detail"] == str(forfeit_verdict())
    back = Outcome.from_json(data)
    assert back == outcome and translated(back.detail).startswith("Đỏ bị xử thua")


def test_an_old_records_english_only_text_still_reads_in_vietnamese(vietnamese):
    old = Event.from_json(["verdict", "Red forfeits (answered after 2.10 s; the limit was 1.00 s)", [1]])
    assert not isinstance(old.text, Message)
    assert translated(old.text) == "Đỏ bị xử thua (trả lời sau 2.10 giây; giới hạn là 1.00 giây)"
    result = Outcome.from_json({"winners": [1], "scores": [0, 1], "reason": "win",
                                "detail": "Red is checkmated; Black wins"})
    assert translated(result.detail) == i18n._("{side} is checkmated; {winner} wins").format(
        side=i18n._("Red"), winner=i18n._("Black"))


def test_a_part_with_no_id_is_read_back_by_the_templates(vietnamese):
    verdict = Message("{side} forfeits ({reason})", side="Red",
                      reason=Message.of("answered after 2.10 s; the limit was 1.00 s"))
    assert translated(verdict) == "Đỏ bị xử thua (trả lời sau 2.10 giây; giới hạn là 1.00 giây)"


@pytest.mark.parametrize("bad", [
    ["verdict", "x", [], [], {"params": {}}],
    ["verdict", "x", [], [], {"id": "{a}", "params": {"a": [True]}}],
    ["verdict", "x", [], [], {"id": "{a}", "params": {"a": {"id": "b"}}}],
])
def test_a_malformed_message_in_a_record_is_an_error(bad):
    with pytest.raises(ValueError):
        Event.from_json(bad)


def test_english_is_the_text_as_written():
    assert translated(forfeit_verdict()) == "Red forfeits (answered after 2.10 s; the limit was 1.00 s)"


def test_every_id_a_message_is_built_with_here_is_a_declared_template():
    for message in (forfeit_verdict(), forfeit_verdict().params["reason"]):
        assert message.msgid in all_templates()


def test_a_bot_seats_label_keeps_its_level_so_the_interface_need_not_parse_it(vietnamese, monkeypatch):
    import re

    from runner.seats import BotSeat
    from ui import catalog
    seat = BotSeat("bot:2", None, 2, {"depth": "3"})
    assert seat.label == "Bot (level 2, depth=3)"                     # as records write it
    monkeypatch.setattr(catalog, "_BOT_LABEL", re.compile(r"(?!)"))   # no parsing of the text
    shown = catalog.who_text(seat.label, ("easy", "medium"))
    assert shown == i18n._("Bot {level}").format(level=catalog.level_label(2, "medium") + ", depth=3")


def messages_in(value):
    """``value`` and every message among its parts."""
    if isinstance(value, Message):
        yield value
        for part in value.params.values():
            for item in (part if isinstance(part, tuple) else (part,)):
                yield from messages_in(item)


def assert_said_as_before(texts, count: int | None = None, *, every_part_has_an_id: bool = False,
                          new_entries: bool = False, written_as_typed: tuple = ()) -> None:
    """Each text is a Message whose ids the catalog knows, and its Vietnamese said from
    the ids is what the old reading of its English gave (and not the English).
    ``new_entries``: the ids are distinct and each has a Vietnamese entry of its own.
    ``written_as_typed``: ids whose reading the caller checks itself."""
    from runner.messages import read_back
    assert all(isinstance(t, Message) and t.msgid for t in texts), \
        [str(t) for t in texts if not getattr(t, "msgid", "")]
    if count is not None:
        assert len(texts) == count
    if new_entries:
        assert len({t.msgid for t in texts}) == len(texts), sorted(t.msgid for t in texts)
    for text in texts:
        if new_entries:
            assert text.msgid in all_templates() and i18n._(text.msgid) != text.msgid, text.msgid
        parts = {m.msgid for m in messages_in(text) if every_part_has_an_id or m.msgid}
        assert parts <= set(all_templates()), str(text)
        if text.msgid not in written_as_typed:
            assert translated(text) == read_back(str(text)) != str(text), str(text)


def texts_the_rules_write(sample: str, status: bool = True) -> list[str]:
    """Every event, result and (with ``status``) status line the rules write replaying
    ``sample``, plus a forfeit for the referee's time-out at its second position."""
    from games import registry
    from games.replay import TurnInfo  # noqa: F401 - the record reader needs the games loaded
    from runner.records import open_replay
    replay = open_replay(ROOT / "replays" / sample)
    game = registry.game(replay.game)
    texts = []
    for state in replay.states:
        texts += [e.text for e in state.events()]
        texts += [game.describe(state)] if status else []
        texts += [state.outcome().detail] if state.outcome() else []
    late = replay.states[1].clone()
    late.forfeit(0, Termination.TIMEOUT, Message("answered after {elapsed} s; the limit was {limit} s",
                                                 elapsed="2.10", limit="1.00"))
    texts += [e.text for e in late.events()] + [late.outcome().detail if late.outcome() else ""]
    return texts


SAMPLES = ["robot-sample.arena.jsonl", "xiangqi-sample.arena.jsonl", "tamquan-sample.arena.jsonl",
           "hex-program-vs-bot.arena.jsonl", "crosswords-sample.arena.jsonl"]


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_rules_write_their_texts_with_ids_the_catalog_knows(sample):
    texts = texts_the_rules_write(sample)
    made = [t for t in texts if isinstance(t, Message) and t.msgid]
    assert made, "the rules wrote no message with an id"
    i18n.set_language("vi")
    try:
        unknown = {m.msgid for t in made for m in messages_in(t)
                   if m.msgid and i18n._(m.msgid) == m.msgid and m.msgid not in all_templates()}
    finally:
        i18n.set_language("en")
    assert unknown == set()


@pytest.mark.parametrize("sample", SAMPLES)
def test_a_text_said_from_its_id_reads_as_the_old_reading_of_its_english(sample, vietnamese):
    """Events, results and verdicts (not the status line, whose old reading misread Tam
    Quân's "Turn N of M"): the same Vietnamese either way, so records written before ids
    and after read the same."""
    from runner.messages import read_back
    compared = 0
    for text in texts_the_rules_write(sample, status=False):
        if isinstance(text, Message) and text.msgid:
            assert translated(text) == read_back(str(text)), str(text)
            compared += 1
    assert compared


@pytest.mark.parametrize("game_name, text", [("xiangqi", "E0E2"), ("xiangqi", "Z9"), ("hex", "a1 a1"),
                                             ("tamquan", "zone 9: 1,1"), ("robot", "north please")])
def test_the_referees_verdict_on_a_bad_move_reads_in_vietnamese_from_ids(game_name, text, vietnamese,
                                                                         no_reading_back):
    from games import registry
    from runner.referee import resolve_answer
    from runner.seats import Answer
    from runner.records import open_replay
    game = registry.game(game_name)
    if game_name == "robot":              # a map is read from its file before the game starts
        state = open_replay(ROOT / "replays" / "robot-sample.arena.jsonl").states[3].clone()
    else:
        state = game.new_initial_state(game.spec.resolve_options(None, {}), seed=1)
    seat = state.to_move()[0]
    answer = Answer(text=text, source="MOVE.OUT")
    assert resolve_answer(game, state, seat, answer) is None
    shown = translated(answer.detail)
    assert shown != answer.detail and i18n._("illegal move ({source}): {error}").split(" (")[0] in shown \
        or i18n._("unreadable move ({source}): {error}").split(" (")[0] in shown, shown
    assert shown.count("(") == answer.detail.count("("), (answer.detail, shown)


def test_a_new_records_events_and_result_keep_their_ids_and_read_in_vietnamese(tmp_path, vietnamese,
                                                                               no_reading_back):
    from games.robot import PLUGIN
    from runner.match import Match
    from runner.records import open_replay
    from runner.seats import make_seat
    board = "9 9 2\n.........\n.#.....#.\n.........\n...#.#...\n.........\n...#.#...\n" \
            ".........\n.#.....#.\n.........\n"
    record = tmp_path / "match.arena.jsonl"
    seats = [make_seat("bot:1", PLUGIN, 5 + i) for i in range(2)]
    match = Match(PLUGIN, {"map": board, "players": 2, "respawn": "off", "period": 0}, seats, seed=5,
                  record_path=record, workdir=tmp_path)
    outcome = match.run()
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    written = [e for line in lines if line["type"] == "turn" for e in line["events"]]
    assert written and all(len(e) == 5 and e[4]["id"] for e in written if "left the game" in e[1])
    assert lines[-1]["detail"] == outcome.detail and lines[-1]["detail_message"]["id"]
    replay = open_replay(record)
    events = [e.text for t in replay.turns for e in t.events]
    assert [str(e) for e in events] == [e[1] for e in written]        # the same English
    kinds = [e.kind for t in replay.turns for e in t.events]
    assert all(isinstance(e, Message) and e.msgid for e, kind in zip(events, kinds)
               if kind != "verdict")                 # Robot's verdict event is the scores: "A 2, B 4"
    shown = [translated(e) for e, kind in zip(events, kinds) if kind != "verdict"]
    shown.append(translated(replay.outcome.detail))
    assert i18n._("{robot} left the game: {why}").format(robot="A", why=i18n._("stood on a cell sealed by the shrink")) in shown
    assert shown[-1] == i18n._("cells painted: {scores}").format(scores=outcome.detail.params["scores"])


def test_an_answers_verdict_and_notes_keep_their_ids_in_the_record(vietnamese, no_reading_back):
    from games.api import kept_message
    from runner.seats import Answer
    why = Message("answered after {elapsed} s; the limit was {limit} s", elapsed="2.10", limit="1.00")
    note = Message("{failure}: {detail}; {note}", failure="timeout", detail=why,
                   note=Message("the referee played {move}", move="3 4"))
    answer = Answer(failure=Termination.TIMEOUT, detail=why, notes=[note, "written by hand"])
    logged = json.loads(json.dumps(answer.log()))
    assert logged["detail"] == str(why) and logged["notes"] == [str(note), "written by hand"]
    detail, notes = kept_message(logged, "detail"), kept_message(logged, "notes")
    assert detail.msgid == why.msgid and notes[0].msgid == note.msgid and notes[1] == "written by hand"
    assert translated(detail) == "trả lời sau 2.10 giây; giới hạn là 1.00 giây"
    assert translated(notes[0]).endswith(i18n._("the referee played {move}").format(move="3 4"))


def test_an_old_records_answer_has_only_its_english_text():
    from games.api import kept_message
    old = {"failure": "timeout", "detail": "answered after 2.10 s; the limit was 1.00 s", "notes": ["x"]}
    assert kept_message(old, "detail") == old["detail"] and not isinstance(kept_message(old, "detail"), Message)
    assert kept_message(old, "notes") == ["x"]
    broken = dict(old, messages={"detail": {"params": {}}})
    assert kept_message(broken, "detail") == old["detail"]


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_a_time_out_on_either_clock_reads_in_vietnamese(clock, vietnamese, no_reading_back):
    from runner.referee import judge_time
    from runner.seats import Answer
    answer = Answer(text="3 4", elapsed=2.1, clock=clock)
    judge_time(answer, 1.0)
    assert answer.failure is Termination.TIMEOUT
    assert translated(answer.detail).startswith("trả lời sau 2.10 giây")
    assert ("giây CPU" in translated(answer.detail)) == (clock == "cpu")


def _raised(call, *args):
    """The text ``call(*args)`` raises (an error's first argument), or None."""
    try:
        call(*args)
    except Exception as exc:                   # noqa: BLE001 - each site raises its own kind
        return exc.args[0]
    return None


def protocol_and_map_texts() -> list:
    """What Robot's and Tam Quân's contest files and Robot's maps are found to hold when
    they are wrong: MOVE.OUT errors, the organizers' warnings, a bad map's line."""
    from games import registry
    from games.robot import protocol as robot
    from games.robot.rules import parse_map
    from games.tamquan import protocol as tamquan
    texts = [_raised(robot.parse_move_out, t) for t in ("1" * 5000, "3 4\0", "north")]
    for text in ("3 4", "3,4\n", " 3 4\n", "3  4\n"):
        warning = robot.organizers_warning(text)
        texts += [warning, Message("{warning} (compat=organizers)", warning=warning)]
    texts += [_raised(parse_map, text, "m.txt") for text in (
        "", "x y z\n", "4 5 10\n", "5 5 0\n", "5 5 10\n.....\n", "5 5 10\n....\n", "5 5 10\n....x\n",
        "3 3 10\n...\n...\n...\nzz\n", "3 3 10\n###\n###\n###\n", "3 3 10\n.#.\n###\n...\n")]
    game = registry.game("tamquan")
    setup = game.new_initial_state(game.spec.resolve_options(None, {}), seed=1)
    texts += [_raised(tamquan.parse_move_out, t, setup, 0) for t in ("1" * 5000, "1\0", "x", "1 2")]
    texts += [_raised(tamquan.move_text_of, t) for t in ("1" * 5000, "x", "", "1000", "0 1 1", "1 2 3 4 5 6")]
    return texts


def test_protocol_and_map_errors_keep_their_ids_and_read_as_before(vietnamese):
    """Each is a Message the catalog knows, and says in Vietnamese what the old reading of
    its English said (so old records' plain texts and new ids read the same)."""
    assert_said_as_before(protocol_and_map_texts(), 31, every_part_has_an_id=True)


def program_seat_texts(tmp_path) -> list:
    """What a program seat says about its answer files: missing, not a regular file, too
    large, binary, an unreadable DEBUG.OUT, a move file the protocol cannot read, a whole-
    game answer that runs out or holds no move, the files it deleted."""
    from games.api import MoveSyntaxError
    from runner.program_seats import _file_error, answer_text, debug_text, read_answer_file, read_debug_file
    texts = [read_answer_file(tmp_path / "MOVE.OUT", 10)[1]]
    (tmp_path / "MOVE.OUT").mkdir()
    texts.append(read_answer_file(tmp_path / "MOVE.OUT", 10)[1])
    for folder, content in (("large", b"1 2" * 10), ("binary", b"1\x002")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "MOVE.OUT").write_bytes(content)
        texts.append(read_answer_file(tmp_path / folder / "MOVE.OUT", 10)[1])
    (tmp_path / "DEBUG.OUT").mkdir()
    texts.append(read_debug_file(tmp_path)[1])

    def denied():
        raise PermissionError(13, "Permission denied")
    texts += [answer_text(denied, "MOVE.OUT", 10)[1], debug_text(denied)[1]]
    robot_error = MoveSyntaxError(Message("expected 'X Y' (two whole numbers), got {found}", found="'north'"))
    texts += [_file_error("MOVE.OUT", robot_error), _file_error("output.txt", MoveSyntaxError("line 3: x"))]
    texts += [Message("{file} ends before the game does", file="output.txt"),
              Message("{file} holds no move", file="output.txt"),
              Message("deleted files the program created: {files}", files="a.txt, b.txt")]
    return texts


def test_a_program_seats_details_keep_their_ids_and_read_as_before(tmp_path, vietnamese):
    assert_said_as_before(program_seat_texts(tmp_path))


def crosswords_texts() -> list:
    """Crossed Words' move errors (each rule a move can break) and what verifying an
    output.txt finds wrong (each claim, the board, the total, a step's shape), and what
    the program seat and the contest record say of a bad output.txt."""
    from games.crosswords.files import verify_output, write_output
    from games.crosswords.lexicon import Lexicon
    from games.crosswords.program import CrosswordsProgramSeat
    from games.crosswords.records import replay_output
    from games.crosswords.rules import STOP, CrosswordsState, Discard, Draw, Place, parse_move
    words = Lexicon.from_words(["cat", "an", "no", "to", "at", "ta", "tee", "ee"])
    piles = ("CATNO" + "E" * 61, "E" * 66, "T" * 66)
    texts = [_raised(parse_move, t) for t in ("", "fly away", "play A1 across 12", "play Z99 across CAT")]
    state = CrosswordsState(words, piles)
    texts += [_raised(state.check_move, 0, m) for m in (Draw(4, "A"), Draw(1, "CATNOEEEEE"), Draw(1, "X"),
                                                        Discard("Z"), Place(0, 0, True, "A"),
                                                        Place(0, 16, True, "AN"), "nonsense")]
    state.apply({0: Draw(1, "CATNOEE")})
    texts += [_raised(state.check_move, 0, m) for m in (Draw(2, "E"), Place(8, 8, True, "TAC"))]
    state.apply({0: Place(8, 8, True, "CAT")})
    texts += [_raised(state.check_move, 0, m) for m in (Place(8, 7, True, "ECAT"), Place(8, 8, True, "CAT"),
                                                        Place(8, 8, True, "EAT"), Place(0, 0, True, "NO"),
                                                        Place(9, 9, True, "EE"))]
    game = [Draw(1, "CAT"), Place(8, 8, True, "CAT"), Draw(1, "NO"), Place(9, 9, True, "NO"), STOP]
    good = write_output(CrosswordsState(words, piles), game)
    play = "play J10 across NO 9 (AN 8) (TO 6) = 23"
    for old, new in ((play, play.replace("= 23", "= 24")), (play, play.replace("NO 9", "NO 10")),
                     (play, "play J10 across NO 9 (AN 8) = 23"), (play, "play A1 across NO 5 = 5"),
                     ("play I9 across CAT 27 = 27", "play I9 across CAT 27 +50 = 77"),
                     ("draw 1 NO", "draw 2 NO"), ("draw 1 NO", "discard C -9"), ("draw 1 NO", "stop"),
                     (play, "play J10 sideways NO"), (play, "discard X"), ("50", "51")):
        bad = good.replace(old, new, 1)
        texts.append(verify_output(bad, piles, words).reason)
    rows = good.split("\n")
    texts.append(verify_output("\n".join(rows[:5] + ["E" + rows[5][1:]] + rows[6:]), piles, words).reason)
    texts.append(verify_output("\n".join(rows[:3] + [rows[3][:16]] + rows[4:]), piles, words).reason)
    seat = CrosswordsProgramSeat.__new__(CrosswordsProgramSeat)
    seat.verdict = verify_output(good.replace("= 23", "= 24", 1), piles, words)
    texts.append(seat.claim_note())
    seat.verdict = verify_output(good, piles, words)
    texts.append(seat.claim_note())
    replay = replay_output(good.replace("= 23", "= 24", 1), "output.txt", piles, words)
    texts.append(replay.turns[-1].forfeits[0]["detail"])
    return texts


def test_crossed_words_errors_and_verdicts_keep_their_ids_and_read_as_before(vietnamese):
    assert_said_as_before(crosswords_texts(), 34)


def test_a_turn_logs_events_are_messages_said_in_vietnamese(vietnamese, no_reading_back):
    """A contest turn log knows less than the rules: a robot left, a ring was sealed.
    Those two events were shown in English in the Vietnamese interface (no template)."""
    from games.robot.turnlog import _events_between
    from runner.records import open_replay
    states = open_replay(ROOT / "replays" / "robot-sample.arena.jsonl").states
    events = [e for before, after in zip(states, states[1:]) for e in _events_between(before, after)]
    kinds = {e.kind for e in events}
    assert kinds == {"elimination", "shrink"}, kinds
    for event in events:
        assert isinstance(event.text, Message) and event.text.msgid in all_templates()
        shown = translated(event.text)
        assert shown in ("một vòng bị bịt",) or shown.endswith(" rời cuộc chơi"), shown


def test_contest_files_that_cannot_be_written_are_said_from_their_id(tmp_path, vietnamese):
    """The match's error after the end (its folder is a file; the OS reason has no id): shown
    in English before."""
    from games.robot import PLUGIN
    from runner.match import Match
    from runner.seats import make_seat
    board = "5 5 2\n.....\n.....\n.....\n.....\n.....\n"
    blocked = tmp_path / "out"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    seats = [make_seat("bot:1", PLUGIN, 5 + i) for i in range(2)]
    match = Match(PLUGIN, {"map": board, "players": 2, "respawn": "off", "period": 0}, seats, seed=5,
                  workdir=tmp_path, out_dir=blocked)
    match.run()
    assert isinstance(match.error, Message) and match.error.msgid in all_templates()
    assert translated(match.error).startswith(f"không ghi được các tệp của kỳ thi vào {blocked}: "), \
        translated(match.error)


def process_texts(tmp_path, monkeypatch) -> list:
    """How a run of a program ended, as :mod:`runner.process` says it: killed at its time
    limit, exited with a code, finished, could not start; a kept-running program that
    exited, was killed by a signal or closed its output; its cut output lines."""
    import os
    import signal
    import sys

    from runner import runs
    from runner.process import LineProcess, RunResult
    texts = [RunResult(None, 1.234, True, "", "").describe(), RunResult(3, 0.5, False, "", "").describe(),
             RunResult(0, 0.25, False, "", "").describe()]

    def refused(*_args, **_kwargs):
        raise FileNotFoundError(2, "No such file or directory")
    with monkeypatch.context() as patch:
        patch.setattr(runs, "_popen", refused)
        texts.append(runs.run_once(["./missing-bot"], tmp_path, 1.0).describe())
    exits = LineProcess([sys.executable, "-c", "import sys; print('x' * 70000); sys.exit(3)"], cwd=tmp_path)
    killed = LineProcess([sys.executable, "-c", "import time; time.sleep(30)"], cwd=tmp_path)
    try:
        os.kill(killed.proc.pid, signal.SIGKILL)        # the process itself (a sandbox may wrap it)
        exits.proc.wait(timeout=30), killed.proc.wait(timeout=30)
        exits.stdout_tail()
        texts += [exits.exit_description(), killed.exit_description()] + exits.output_notes()
    finally:
        exits.kill(), killed.kill()
    return texts


def test_how_a_program_run_ended_keeps_its_id_and_reads_as_before(tmp_path, monkeypatch, vietnamese):
    texts = process_texts(tmp_path, monkeypatch)
    assert [t.msgid for t in texts] == [
        "killed after {seconds} s (time limit)", "exited with code {code}", "finished in {seconds} s",
        "could not start {program}: {error}", "exited with code {code}", "was killed by signal {signal}",
        "{count} output lines longer than {limit} bytes were cut"]
    assert_said_as_before(texts, 7)


def test_a_cpu_clocks_two_kill_texts_keep_their_ids_and_read_in_vietnamese(vietnamese):
    """Past the CPU limit, and at the wall cap of a CPU clock (plain English before)."""
    from runner.process import RunResult
    texts = [RunResult(None, 2.5, True, "", "", cpu=2.01, clock="cpu", limit=2.0).describe(),
             RunResult(None, 7.0, True, "", "", cpu=0.3, clock="cpu", limit=2.0).describe()]
    assert [t.msgid for t in texts] == [
        "killed after {cpu} s of CPU (time limit, CPU clock; {wall} s wall)",
        "killed after {wall} s wall, the cap of a {limit} s CPU clock (it used {cpu} s of CPU)"]
    assert str(texts[0]) == "killed after 2.01 s of CPU (time limit, CPU clock; 2.50 s wall)"
    assert_said_as_before(texts, 2, new_entries=True)
    assert "giây CPU" in translated(texts[1])


def line_seat_texts(tmp_path) -> list:
    """What a program kept running for the game is judged by: could not start (each
    protocol's quoting), a stopped match, a turn past its time and an output that ended
    in each protocol's words (HexLib, GTP), a HexLib program's notes and its turn ended
    with no stone, a GTP engine's resignation and errors, a UCI engine's give-up and bad
    bestmove, the Xiangqi contest program that ended without a move."""
    import sys

    from games.hex.gtp import GtpHexSeat
    from games.hex.program import ExternalHexSeat
    from games.hex.protocol import parse_command
    from games.hex.rules import HexGame
    from games.xiangqi.engine_seats import EngineSeat
    from games.xiangqi.program import ContestProgramSeat
    from runner.line_seat import CANCELLED, EOF, TIMEOUT, LineSeat
    from runner.process import LineProcess
    from runner.seats import Answer, SeatInfo

    class Seat(LineSeat):
        def ask(self, state, seat, time_limit):
            raise AssertionError("not asked")
    info = SeatInfo(game=None, options={}, seat=0, seats=2, seed=1, workdir=str(tmp_path))
    texts = []
    for quoted in (False, True):
        seat = Seat("t", "t", [str(tmp_path / "absent")], {})
        seat.quote_command = quoted
        seat.launch(info)
        texts += [seat.start_error, seat.failed(Answer(), EOF, "", "").detail]
    words = [("no 'done' within {seconds} s; the program was killed", "the program {how} before ending its turn"),
             ("no genmove answer within {seconds} s; the engine was killed", "the engine {how} during genmove")]
    texts.append(seat.failed(Answer(), CANCELLED, *words[0]).detail)
    ended = LineProcess([sys.executable, "-c", "import sys; sys.exit(3)"], cwd=tmp_path)
    try:
        ended.proc.wait(timeout=30)
        for timeout, how in words:
            texts.append(seat.failed(Answer(), TIMEOUT, timeout, how, 1.5).detail)
            seat.process = ended
            texts.append(seat.failed(Answer(), EOF, timeout, how).detail)
            seat.process = None
    finally:
        ended.kill()
    hexlib = ExternalHexSeat.__new__(ExternalHexSeat)
    hexlib.player, hexlib._send = 1, lambda *lines: None
    state = HexGame().new_initial_state(HexGame().spec.resolve_options(None, {"size": "5"}), seed=1)
    answer = Answer()
    for line in ("put 1 1", "put 1 1", "put 9 9", "swap"):
        hexlib._try_move(state, 0, parse_command(line), None, answer)
        state = state.clone() if not answer.notes else state
    hexlib._note(answer, Message("ignored line {line}", line="'hello'"))
    texts += answer.notes
    gtp = GtpHexSeat.__new__(GtpHexSeat)
    gtp._last_failure = ""
    for text in ("resign", "z99 nonsense"):
        answer = Answer()
        gtp._read_move(answer, text, 0)
        texts.append(answer.detail)
    answer = Answer()
    gtp._fail(answer, "unknown command", None)
    texts.append(answer.detail)
    engine = EngineSeat.__new__(EngineSeat)
    engine.rank_base, engine._log = 0, []
    for line in ("bestmove (none)", "bestmove zz99"):
        texts.append(engine._read_best(line, Answer()).detail)
    program = ContestProgramSeat.__new__(ContestProgramSeat)
    program.process = ended
    texts.append(program._exit_text())
    return texts


def test_a_line_seats_verdicts_and_notes_keep_their_ids_and_read_as_before(tmp_path, vietnamese):
    assert_said_as_before(line_seat_texts(tmp_path), 18)


def hex_setup_texts() -> list:
    """What Hex says of a start its options describe that cannot be played: the board
    size, a position's rows, cells and stone counts, a start file, a won start."""
    from games.hex.rules import HexGame, HexState, parse_position
    game = HexGame()
    texts = [_raised(HexState, 30)]
    texts += [_raised(parse_position, text, 3) for text in ("...", ".../.../..", ".../.../..z", "11./.../...")]
    options = game.spec.resolve_options(None, {"size": "3"})
    texts += [_raised(game.new_initial_state, dict(options, **extra), 1) for extra in (
        {"position": ".../.../...", "start": ".../.../..."}, {"start": "maps/h.txt"},
        {"start": "....\n....\n....\n...."}, {"position": "111/22./..."})]
    return texts


def test_hexs_setup_errors_keep_their_ids_and_read_in_vietnamese(vietnamese):
    """Shown in English before (no template); now each is said from its id, and an old
    text reads the same by the new templates."""
    assert_said_as_before(hex_setup_texts(), 9, new_entries=True)


def test_a_setup_error_shown_by_the_form_and_the_command_line_keeps_its_id(vietnamese, no_reading_back):
    from games.api import GameSetupError
    from main import error_text
    from runner.referee import error_text as raised_with
    from games.hex.rules import HexState
    try:
        HexState(30)
    except GameSetupError as exc:
        assert error_text(exc) == translated(raised_with(exc)) == "cỡ bàn phải từ 1 đến 20, không phải 30"


def tamquan_setup_texts() -> list:
    """What Tam Quân says of a layout its options describe that cannot be played."""
    from games.tamquan.rules import Layout, layout_from_options, parse_zones, standard_zones, state_from_rows
    zones = ((((0, 0), (0, 1)), ((2, 0), (2, 1))))
    texts = [_raised(Layout, *args) for args in (
        (1, 2, 1, zones), (5, 1, 1, zones), (5, 2, 0, zones), (5, 2, 1, zones, 0), (5, 3, 1, zones),
        (2, 2, 1, zones), (5, 2, 1, (((0, 0), (0, 1)), ((0, 1), (2, 1)))), (5, 2, 3, zones))]
    texts += [_raised(standard_zones, 3, 3, 3), _raised(parse_zones, "0,0 x"),
              _raised(layout_from_options, {"size": "five"}), _raised(state_from_rows, ["..", "..."])]
    return texts


def test_tam_quans_setup_errors_keep_their_ids_and_read_in_vietnamese(vietnamese):
    """Shown in English before (no template); now each is said from its id, and an old
    text reads the same by the new templates."""
    assert_said_as_before(tamquan_setup_texts(), 12, new_entries=True)


def crosswords_setup_texts(tmp_path, monkeypatch) -> list:
    """What Crossed Words says of a dictionary it cannot use: not a folder, an empty
    folder, an unreadable file, no usable words, the built-in list's missing package,
    no dictionary at all."""
    import builtins

    from games.crosswords.dictionary import builtin_words, read_folder_words
    from games.crosswords.rules import CrosswordsGame
    (tmp_path / "empty").mkdir()
    (tmp_path / "short").mkdir()
    (tmp_path / "short" / "words.txt").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "words.txt").write_text("cat\n", encoding="utf-8")
    texts = [_raised(read_folder_words, tmp_path / name) for name in ("absent", "empty", "short")]
    real_read = Path.read_bytes

    def denied(self):
        if self.name == "words.txt" and self.parent.name == "locked":
            raise PermissionError(13, "Permission denied")
        return real_read(self)
    with monkeypatch.context() as patch:
        patch.setattr(Path, "read_bytes", denied)
        texts.append(_raised(read_folder_words, tmp_path / "locked"))
    real_import = builtins.__import__

    def no_package(name, *args, **kwargs):
        if name == "english_words":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    with monkeypatch.context() as patch:
        patch.setattr(builtins, "__import__", no_package)
        texts.append(_raised(builtin_words))
    texts.append(_raised(CrosswordsGame().words_for, {}))
    return texts


def test_crossed_words_setup_errors_keep_their_ids_and_read_in_vietnamese(tmp_path, monkeypatch, vietnamese):
    """Shown in English before (no template); now each is said from its id, and an old
    text reads the same by the new templates."""
    assert_said_as_before(crosswords_setup_texts(tmp_path, monkeypatch), 6, new_entries=True)


def xiangqi_setup_texts() -> list:
    """What Xiangqi says of a start position (FEN) or options that cannot be played."""
    from games.xiangqi.rules import START_FEN, Position, XiangqiGame
    start = START_FEN.split()[0]
    fens = ["", "9/9 w", start.replace("rnbakabnr", "rnbakabnx", 1), start.replace("9", "9p", 1),
            start.replace("9", "8", 1), start + " x", start + " w - - a b",
            start.replace("rnbakabnr", "rnbkkabnr", 1), start.replace("rnbakabnr", "rnbaaabnr", 1),
            "4k4/9/9/9/9/9/9/9/9/K8 w", "4k4/9/9/9/9/9/9/9/9/A3K4 w", "4k4/9/9/9/9/9/9/9/9/B3K4 w",
            "4k4/9/9/9/9/9/9/9/P8/4K4 w", "4k4/9/9/9/9/9/9/9/9/RRR1K4 w", "4k4/9/9/9/9/9/9/9/9/4K3R w"]
    texts = [_raised(Position.from_fen, fen) for fen in fens]
    game = XiangqiGame()
    texts += [_raised(game.new_initial_state, extra) for extra in (
        {"repetition": "never"}, {"repetition_count": "5"}, {"no_capture_limit": "many"})]
    return texts


def engine_setting_texts() -> list:
    """What a GTP seat's settings and an engine's refusal at the start are refused with,
    and an engine seat's setting of seconds (plain English in the Vietnamese interface before)."""
    from types import SimpleNamespace

    from games.hex.gtp import GtpHexSeat, split_seat_spec
    from games.xiangqi.engine_seats import _positive_seconds
    texts = [_raised(split_seat_spec, spec) for spec in (
        'mohex "unclosed', "handshake=5", "mohex cmd=", "mohex handshake=soon", "mohex time_per_move=x",
        "mohex time_per_move=0", "mohex config=/nonexistent/mohex.cfg")]
    seat = GtpHexSeat.__new__(GtpHexSeat)
    seat.info, seat.label = SimpleNamespace(seat=1), "gtp:mohex"
    texts.append(_raised(seat._refuse, Message("the engine refused '{command}': {words}",
                                               command="boardsize 19", words="unacceptable size")))
    texts.append(_raised(_positive_seconds, "never", 60.0, "handshake"))
    return texts


def test_engine_settings_and_refusals_keep_their_ids_and_read_in_vietnamese(vietnamese):
    texts = engine_setting_texts()
    assert_said_as_before(texts[:7] + texts[8:], 8, new_entries=True)
    refusal = texts[7]
    assert refusal.msgid == "seat {n} ({label}): {why}"
    assert translated(refusal) == "ghế 2 (gtp:mohex): engine từ chối 'boardsize 19': unacceptable size"


def test_xiangqis_setup_errors_keep_their_ids_and_read_in_vietnamese(vietnamese):
    """Shown in English before (no template); now each is said from its id, and an old
    text reads the same by the new templates."""
    texts = xiangqi_setup_texts()
    typed = "repetition must be one of {choices}"      # the values to type stay as written
    assert_said_as_before(texts, 18, new_entries=True, written_as_typed=(typed,))
    (repetition,) = [t for t in texts if t.msgid == typed]  # (reading the English back made "draw" "hòa")
    assert translated(repetition) == i18n._(typed).format(choices="perpetual-check-loses, draw")


def test_a_missed_handshake_and_an_engine_that_ended_keep_their_ids(tmp_path, vietnamese):
    """'no uciok within 60 s' and a UCI engine's end ('the engine ended (exit code 3)',
    before its handshake's word): English in the Vietnamese interface before."""
    import sys

    from games.xiangqi.engine_seats import EngineSeat
    from runner.line_seat import EOF, TIMEOUT, LineSeat
    from runner.messages import read_back
    from runner.process import LineProcess

    class Seat(LineSeat):
        def ask(self, state, seat, time_limit):
            raise AssertionError("not asked")
    silent = LineProcess([sys.executable, "-c", "import time; time.sleep(30)"], cwd=tmp_path)
    ended = LineProcess([sys.executable, "-c", "import sys; sys.exit(3)"], cwd=tmp_path)
    try:
        seat = Seat("t", "t", [], {})
        seat.process = silent
        assert seat.missed_handshake("uciok", TIMEOUT)
        ended.proc.wait(timeout=30)
        engine = EngineSeat.__new__(EngineSeat)
        engine.process, engine._why, engine.handshake_failure = ended, EOF, ""
        engine._handshake_missed("uciok")
        texts = [seat.handshake_failure, engine._exit_text(), engine._error]
    finally:
        silent.kill(), ended.kill()
    assert [str(t) for t in texts] == ["no uciok within 60 s", "the engine ended (exit code 3)",
                                       "the engine ended before uciok (the engine ended (exit code 3))"]
    for text in texts:
        assert isinstance(text, Message) and text.msgid in all_templates(), str(text)
        assert translated(text) == read_back(str(text)) != str(text), str(text)
