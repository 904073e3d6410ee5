"""The referee loop: verdicts for misbehaving seats, clocks, records, controls."""
import json
import time


from games import registry
from games.api import Termination
from runner.match import Match, TimeControl, result_json
from runner.records import open_replay
from runner.seats import Answer, HumanSeat, Seat, make_seat
from waiting import wait_for

HEX = registry.plugin("hex")


def options(size=5, **extra):
    return HEX.new_game().spec.resolve_options(None, {"size": size, **extra})


class ScriptedSeat(Seat):
    """Answers from a list of texts (or callables), then repeats the last."""

    kind = "ext"

    def __init__(self, answers):
        super().__init__("scripted")
        self.answers = list(answers)

    def ask(self, state, seat, time_limit):
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return answer(state, time_limit) if callable(answer) else Answer(text=answer, answered=answer)


def run(seats, tmp_path, **kwargs):
    match = Match(HEX, kwargs.pop("opts", options()), seats, seed=1,
                  record_path=tmp_path / "m.arena.jsonl", **kwargs)
    match.run()
    return match


def record_types(path) -> list[str]:
    """The types of a record's lines, in order ([] before the file is made)."""
    if not path.exists():
        return []
    return [json.loads(line)["type"] for line in path.read_text().splitlines()]


def wait_until(predicate, seconds=5.0) -> None:
    """Fail unless ``predicate()`` holds within ``seconds``."""
    assert wait_for(predicate, seconds, step=0.01)


def person_plays_c3_against_a_bot(tmp_path) -> Match:
    """A running match of a person (seat 0) against a bot, the person's c3 submitted."""
    match = Match(HEX, options(size=5), [HumanSeat(), make_seat("bot:1", HEX, 9)], seed=3,
                  record_path=tmp_path / "h.arena.jsonl", time_control=TimeControl())
    match.start()
    wait_until(lambda: match.human_waiting() == (0,))
    match.submit(0, "c3")
    return match


def test_illegal_move_loses_and_is_recorded(tmp_path):
    match = run([ScriptedSeat(["a1", "a1"]), ScriptedSeat(["a1"])], tmp_path)
    assert match.outcome.winners == (0,) and match.outcome.reason is Termination.ILLEGAL_MOVE
    last = match.turns[-1]
    assert last.forfeits[1]["reason"] == "illegal-move" and "occupied" in last.forfeits[1]["detail"]
    replay = open_replay(match.record_path)
    assert replay.turns[-1].forfeits[1]["reason"] == "illegal-move"
    assert replay.outcome == match.outcome


def test_garbage_is_a_bad_file_verdict(tmp_path):
    match = run([ScriptedSeat(["\x00\x01 zz"]), make_seat("bot:1", HEX, 1)], tmp_path)
    assert match.outcome.winners == (1,) and match.outcome.reason is Termination.BAD_FILE


def test_slow_answer_is_a_time_out(tmp_path):
    def slow(state, limit):
        time.sleep(0.4)
        return Answer(text="a1")
    match = run([ScriptedSeat([slow]), make_seat("bot:1", HEX, 1)], tmp_path,
                time_control=TimeControl(per_move=0.1))
    assert match.outcome.reason is Termination.TIMEOUT and match.outcome.winners == (1,)
    assert "limit" in match.turns[-1].forfeits[0]["detail"]


def test_total_clock_runs_down(tmp_path):
    def steady(state, limit):
        time.sleep(0.06)
        move = state.legal_moves(state.current)[0]
        return Answer(text=move.text())
    match = run([ScriptedSeat([steady]), make_seat("bot:1", HEX, 1)], tmp_path,
                opts=options(size=9), time_control=TimeControl(total=0.25))
    assert match.outcome.reason is Termination.TIMEOUT
    assert 0.2 < match.time_used[0] < 0.6


def test_crashing_seat_loses_and_match_ends_cleanly(tmp_path):
    def boom(state, limit):
        raise RuntimeError("segfault, roughly")
    match = run([make_seat("bot:1", HEX, 1), ScriptedSeat([boom])], tmp_path)
    assert match.outcome.reason is Termination.CRASH and match.outcome.winners == (0,)
    assert "segfault" in match.turns[-1].forfeits[1]["detail"]


def test_record_is_flushed_each_turn_and_a_cut_record_still_opens(tmp_path):
    match = run([make_seat("bot:1", HEX, 1), make_seat("bot:1", HEX, 2)], tmp_path, opts=options(size=7))
    lines = match.record_path.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "header" and json.loads(lines[-1])["type"] == "result"
    assert len(lines) == len(match.turns) + 2
    cut = tmp_path / "cut.arena.jsonl"
    cut.write_text("\n".join(lines[:5]) + "\n" + lines[5][:17])   # killed mid-write
    replay = open_replay(cut)
    assert len(replay.turns) == 4 and replay.states[4] == match.states[4]


def test_answers_are_logged_for_the_debug_panel(tmp_path):
    match = run([ScriptedSeat(["b2", "c3", "d4", "e5", "a5"]), make_seat("bot:1", HEX, 1)], tmp_path)
    first = open_replay(match.record_path).turns[0]
    assert first.moves == {0: "b2"} and first.answers[0]["answered"] == "b2"
    assert "elapsed" in first.answers[0]


def test_result_json_summarises_the_match(tmp_path):
    match = run([make_seat("bot:1", HEX, 1), make_seat("bot:1", HEX, 2)], tmp_path)
    result = result_json(match)
    assert result["turns"] == len(match.turns) and result["winners"] == list(match.outcome.winners)
    assert result["reason"] == "win"


def test_pause_and_single_step(tmp_path):
    match = Match(HEX, options(size=9), [make_seat("bot:1", HEX, 1), make_seat("bot:1", HEX, 2)], seed=3)
    match.pause()
    match.start()
    time.sleep(0.3)
    assert len(match.snapshot().turns) == 0
    match.step()
    deadline = time.time() + 5
    while len(match.snapshot().turns) < 1 and time.time() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    assert len(match.snapshot().turns) == 1
    match.resume()
    match.join(10)
    assert match.snapshot().outcome is not None


def test_human_moves_undo_and_stop(tmp_path):
    match = person_plays_c3_against_a_bot(tmp_path)
    wait_until(lambda: len(match.snapshot().turns) == 2 and match.human_waiting() == (0,))
    assert match.snapshot().state.look(3, 3) == 1
    assert match.can_undo() and match.undo()
    wait_until(lambda: len(match.snapshot().turns) == 0 and match.human_waiting() == (0,))
    assert match.snapshot().state.look(3, 3) == 0
    match.stop()
    match.join(5)
    assert match.outcome.reason is Termination.ABORTED
    replay = open_replay(match.record_path)
    assert len(replay.turns) == 0


def test_the_record_holds_every_turn_played_whenever_the_match_waits(tmp_path):
    """A turn's line is written as the next turn's seats are asked, not before (it is
    kept off the judge's path): so it must be written at once when the match stands
    still instead, paused or waiting for a person, and before an undo's line."""
    paused = Match(HEX, options(size=9), [make_seat("bot:1", HEX, 1), make_seat("bot:1", HEX, 2)],
                   seed=3, record_path=tmp_path / "p.arena.jsonl")
    paused.pause()
    paused.start()
    paused.step()
    wait_until(lambda: record_types(paused.record_path) == ["header", "turn"])
    time.sleep(0.2)
    assert len(paused.snapshot().turns) == 1 and record_types(paused.record_path) == ["header", "turn"]
    paused.stop()
    paused.join(5)

    match = person_plays_c3_against_a_bot(tmp_path)
    wait_until(lambda: record_types(match.record_path) == ["header", "turn", "turn"])
    assert match.human_waiting() == (0,)
    assert match.undo()
    wait_until(lambda: match.human_waiting() == (0,) and len(match.snapshot().turns) == 0)
    match.stop()
    match.join(5)
    assert record_types(match.record_path) == ["header", "turn", "turn", "undo", "result"]


def test_undo_is_refused_against_programs(tmp_path):
    match = Match(HEX, options(), [HumanSeat(), ScriptedSeat(["a1"])], seed=1)
    assert not match.can_undo()


def test_people_get_their_own_countdown(tmp_path):
    human = HumanSeat()
    match = Match(HEX, options(), [human, make_seat("bot:1", HEX, 1)], seed=1,
                  time_control=TimeControl(per_move=0.05, human_per_move=0.3))
    start = time.perf_counter()
    match.run()
    assert match.outcome.reason is Termination.TIMEOUT and match.outcome.winners == (1,)
    assert 0.25 < time.perf_counter() - start < 3
