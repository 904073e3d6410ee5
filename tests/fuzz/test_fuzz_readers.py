"""Fuzzing every reader of files a program or a person hands the arena: whatever the
bytes, only :class:`games.api.RecordFormatError` (MOVE.OUT: MoveSyntaxError) escapes.

Inputs are real records and contest files, mutated (bytes flipped, slices cut, copied
or inserted, lines swapped, the file truncated).  The number of examples is bounded
(``ARENA_FUZZ_EXAMPLES``, default 25 per reader) so the suite stays quick in CI.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

from fuzzing import FUZZ, mutate  # noqa: E402
from games.api import MoveSyntaxError, RecordFormatError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> dict[str, list[tuple[str, bytes]]]:
    """Real files of every kind: shipped replays, and records of quick bot matches."""
    from games import registry
    from runner.match import Match, TimeControl
    from runner.seats import make_seat

    out = tmp_path_factory.mktemp("samples")
    found: dict[str, list[tuple[str, bytes]]] = {"record": [], "contest": []}
    for path in sorted((ROOT / "replays").iterdir()):
        kind = "record" if path.name.endswith(".arena.jsonl") else "contest"
        found[kind].append((path.name, path.read_bytes()))
    games = {"robot": {"map": "3 3 1\n...\n...\n...\n", "players": 2, "period": 1},
             "xiangqi": {"no_capture_limit": 6}, "tamquan": {}, "crosswords": {}}
    for name, options in games.items():
        plugin = registry.plugin(name)
        count = plugin.new_game().seats_for(plugin.new_game().spec.resolve_options(None, options))
        seats = [make_seat("bot:1", plugin, i) for i in range(count)]
        folder = out / name
        match = Match(plugin, options, seats, seed=3, record_path=folder / f"{name}.arena.jsonl",
                      time_control=TimeControl(per_move=0.05), out_dir=folder)
        match.run()
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.name != "result.json":
                kind = "record" if path.name.endswith(".arena.jsonl") else "contest"
                found[kind].append((path.name, path.read_bytes()))
    return found


def _open(tmp_path: Path, name: str, data: bytes):
    from runner.records import open_replay
    path = tmp_path / name
    path.write_bytes(data)
    try:
        open_replay(path)
    except RecordFormatError:
        pass


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(1, 8))
def test_mutated_arena_records_raise_only_record_format_errors(samples, tmp_path, seed, rounds):
    rng = random.Random(seed)
    name, data = rng.choice(samples["record"])
    _open(tmp_path, name, mutate(data, rng, rounds))


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(1, 8))
def test_mutated_contest_files_raise_only_record_format_errors(samples, tmp_path, seed, rounds):
    """REPORT.TXT, PGN, SGF, HEX.OUT and the Robot turn log, through open_replay."""
    rng = random.Random(seed)
    name, data = rng.choice(samples["contest"])
    _open(tmp_path, name, mutate(data, rng, rounds))


def test_the_samples_cover_every_contest_format(samples):
    names = " ".join(name for name, _ in samples["contest"]).upper()
    for kind in ("HEX.OUT", ".SGF", "REPORT", ".PGN", ".JSON", ".TAMQUAN.TXT", "OUTPUT.TXT"):
        assert kind in names, names


PLAY_INI = b"OTHER\r\nCOMPUTER\r\n12891\r\n3600\r\nC:\\MOVE\\M1.DAT\r\nC:\\MOVE\\M2.DAT\r\n"
MOVE_FILES = [b"A7A8\r\n3599\r\n3600\r\n", b"LOST\n-1\n-1\n", b"FINISH\n"]


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(0, 6))
def test_mutated_play_ini_and_move_files(seed, rounds):
    from games.xiangqi.movefiles import parse_move_file, parse_play_ini
    rng = random.Random(seed)
    for parse, data in ((parse_play_ini, PLAY_INI), (parse_move_file, rng.choice(MOVE_FILES))):
        text = mutate(data, rng, rounds).decode("latin-1")
        try:
            parse(text)
        except RecordFormatError:
            pass


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(0, 6))
def test_mutated_robot_maps_map_inp_and_move_out(seed, rounds):
    from games.robot import PLUGIN
    from games.robot.maps import shipped_maps, map_text
    from games.robot.protocol import parse_move_out, read_map_inp, write_map_inp
    from games.robot.rules import parse_map
    rng = random.Random(seed)
    name = rng.choice(shipped_maps())
    text = mutate(map_text(name).encode(), rng, rounds).decode("utf-8", "replace")
    try:
        parse_map(text, name)
    except RecordFormatError:
        pass
    state = PLUGIN.new_game().new_initial_state({"map": map_text(name), "players": 2}, seed % 1000)
    map_inp = mutate(write_map_inp(state, 0).encode(), rng, rounds).decode("latin-1")
    try:
        read_map_inp(map_inp)
    except RecordFormatError:
        pass
    try:
        parse_move_out(mutate(b"3 4\n", rng, rounds).decode("latin-1"))
    except MoveSyntaxError:
        pass


@FUZZ
@given(data=st.binary(max_size=600))
def test_random_bytes_as_any_record(tmp_path, data):
    for name in ("x.arena.jsonl", "REPORT.TXT", "game.pgn", "HEX.OUT", "game.sgf", "log.json"):
        _open(tmp_path, name, data)


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(0, 8))
def test_mutated_hex_pattern_tables_and_corpora_are_refused_by_name(tmp_path, seed, rounds):
    """The level-5 Hex bot's pattern table (games/hex/patterns.txt) and the corpus files
    bench/hex_patterns.py fits it to: a bad one is a ValueError / SystemExit naming it."""
    from bench.hex_patterns import read_corpus
    from games.hex import patterns
    rng = random.Random(seed)
    table_lines = patterns.TABLE_PATH.read_bytes().splitlines(keepends=True)
    table = tmp_path / "patterns.txt"
    table.write_bytes(mutate(b"".join(table_lines[:3] + rng.sample(table_lines[3:], 40)), rng, rounds))
    try:
        patterns.read_table(table)
    except ValueError as error:
        assert str(error).startswith(f"{table}: ")
    corpus_lines = (ROOT / "bench" / "data" / "hex-mohex-selfplay.jsonl").read_bytes().splitlines(keepends=True)
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_bytes(mutate(b"".join(rng.sample(corpus_lines, 4)), rng, rounds))
    try:
        read_corpus([str(corpus)])
    except SystemExit as error:
        assert str(error).startswith(f"{corpus}: ")


# ---------------------------------------------------------------------------------------
# Generated classes of hostile input (issue 39): not only mutations of real files, but
# each kind of file a review found a traceback or a silent wrong load with, generated:
# numbers of thousands of digits, JSON values of the wrong type, nesting 1,000 deep,
# bytes that are not UTF-8, paths longer than the system takes, and result lines
# swapped, forged or spliced in from another game.

def huge_number(draw_digits: int) -> bytes:
    """A whole number of more digits than ``int()`` reads (4,300) or close to it."""
    return b"9" * draw_digits


NON_UTF8 = [b"\xff", b"\xfe\xff", b"\x80", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xc0\xaf"]


def nested(depth: int, kind: str) -> str:
    return ("[" * depth + "]" * depth) if kind == "list" else ('{"a": ' * depth + "1" + "}" * depth)


@st.composite
def hostile_bytes(draw, data: bytes) -> bytes:
    """``data`` with one generated hostile piece put in: a huge number replacing one of
    its numbers (or anywhere), non-UTF-8 bytes, deep nesting, or a very long word."""
    kind = draw(st.sampled_from(["number", "number-anywhere", "utf8", "nesting", "long"]))
    at = draw(st.integers(0, len(data)))
    if kind == "number":
        digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
        if digits:
            at = digits[draw(st.integers(0, len(digits) - 1))]
            end = at
            while end < len(data) and 48 <= data[end] <= 57:
                end += 1
            return data[:at] + huge_number(draw(st.integers(4200, 6000))) + data[end:]
        kind = "number-anywhere"
    if kind == "number-anywhere":
        return data[:at] + huge_number(draw(st.integers(4200, 6000))) + data[at:]
    if kind == "utf8":
        return data[:at] + draw(st.sampled_from(NON_UTF8)) + data[at:]
    if kind == "nesting":
        return data[:at] + nested(draw(st.integers(200, 1500)), draw(st.sampled_from(["list", "dict"]))).encode() + data[at:]
    return data[:at] + b"x" * draw(st.integers(250, 5000)) + data[at:]


def json_paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_paths(item, prefix + (index,))


def swapped_value(draw, old):
    """A JSON value of another type than ``old`` (or a huge one, or one nested deep)."""
    choices = [5, -1, 0, 10 ** 30, 1.5, "x", "", "1 1", None, True, [], [1, 2], ["a"], {}, {"0": 1},
               [[[[]]]], 2 ** 63]
    pick = draw(st.sampled_from(choices + ["deep", "huge"]))
    if pick == "deep":
        depth = draw(st.integers(200, 1200))
        value: object = []
        for _ in range(depth):
            value = [value]
        return value
    if pick == "huge":
        return int("9" * 4200)       # json.dumps writes it; json.loads refuses it
    return pick


@st.composite
def json_type_swapped(draw, text: str) -> str:
    """A JSON document (or JSON Lines file) with one value replaced by one of another
    type: numbers where lists are expected and the other way round, nesting, huge ints."""
    import json as _json
    import sys
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if line.strip().startswith("{")]
    whole = len(candidates) != len(lines) - (1 if text.endswith("\n") else 0) or len(lines) == 1
    index = None if whole else candidates[draw(st.integers(0, len(candidates) - 1))]
    doc = _json.loads(text if index is None else lines[index])
    paths = [p for p in json_paths(doc) if p]
    if not paths:
        return text
    path = paths[draw(st.integers(0, len(paths) - 1))]
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = swapped_value(draw, target[path[-1]])
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5000))       # to write the deep value; reading is the test
    try:
        out = _json.dumps(doc, indent=None if index is not None else 5)
    finally:
        sys.setrecursionlimit(limit)
    if index is None:
        return out
    lines[index] = out
    return "\n".join(lines)


@FUZZ
@given(data=st.data())
def test_generated_hostile_pieces_in_any_record_raise_only_record_format_errors(samples, tmp_path, data):
    """Huge numbers, non-UTF-8 bytes, deep nesting and long words in every record kind."""
    name, original = data.draw(st.sampled_from(samples["record"] + samples["contest"]))
    _open(tmp_path, name, data.draw(hostile_bytes(original)))


@FUZZ
@given(data=st.data())
def test_json_values_of_the_wrong_type_raise_only_record_format_errors(samples, tmp_path, data):
    """Arena records and Robot turn logs with one value of the wrong type (and the turn
    log's audit, ``arena robot audit``)."""
    from games.robot.turnlog import audit
    jsons = [s for s in samples["record"] + samples["contest"] if s[0].endswith((".json", ".jsonl"))]
    name, original = data.draw(st.sampled_from(jsons))
    text = data.draw(json_type_swapped(original.decode("utf-8")))
    _open(tmp_path, name, text.encode("utf-8"))
    if name.endswith(".json"):
        try:
            audit(text, name)
        except RecordFormatError:
            pass


def _true_result(samples, name, data):
    from runner.records import open_replay
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        replay = open_replay(path)
    return replay


def _same_result(a, b) -> bool:
    return (a.reason is b.reason and set(a.winners) == set(b.winners) and tuple(a.ranks) == tuple(b.ranks)
            and all(abs(x - y) < 1e-6 for x, y in zip(a.scores, b.scores)))


@FUZZ
@given(data=st.data())
def test_a_forged_or_spliced_result_line_is_refused_never_loaded(samples, tmp_path, data):
    """A finished arena record whose result line is forged (winners removed, swapped,
    scores or places changed, the reason changed) or replaced by another game's: it
    opens with the result its moves give, or it is a RecordFormatError - never the
    forged result."""
    import json as _json
    from runner.records import open_replay
    name, original = data.draw(st.sampled_from(samples["record"]))
    truth = _true_result(samples, name, original).outcome
    lines = original.decode("utf-8").rstrip("\n").split("\n")
    at = next((i for i, line in enumerate(lines) if '"type": "result"' in line), None)
    if at is None:
        return
    result = _json.loads(lines[at])
    how = data.draw(st.sampled_from(["winners-removed", "winners-changed", "scores", "ranks",
                                     "reason", "spliced", "moved-up", "turns"]))
    if how == "winners-removed":
        result["winners"] = []
    elif how == "winners-changed":
        result["winners"] = [data.draw(st.integers(0, len(result["scores"]) - 1))]
    elif how == "scores":
        result["scores"] = data.draw(st.permutations(result["scores"]))
    elif how == "ranks":
        result["ranks"] = data.draw(st.permutations(result.get("ranks") or [1, 2]))[:len(result["scores"])]
    elif how == "reason":
        result["reason"] = data.draw(st.sampled_from(["win", "draw", "score", "resignation", "timeout"]))
    elif how == "spliced":
        other_name, other = data.draw(st.sampled_from(samples["record"]))
        spliced = [line for line in other.decode("utf-8").split("\n") if '"type": "result"' in line]
        if spliced:
            result = _json.loads(spliced[0])
    elif how == "turns":
        result["turns"] = result.get("turns", 0) + data.draw(st.integers(-3, 3))
    lines[at] = _json.dumps(result)
    if how == "moved-up" and at > 2:
        lines.insert(data.draw(st.integers(1, at - 1)), lines.pop(at))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    try:
        replay = open_replay(path)
    except RecordFormatError:
        return
    assert _same_result(replay.outcome, truth), (how, replay.outcome, truth)
    assert len(replay.turns) == len(_true_result(samples, name, original).turns)


@FUZZ
@given(data=st.data())
def test_a_contest_files_forged_result_is_refused_or_agrees_with_the_board(samples, tmp_path, data):
    """HEX.OUT's RESULT line, SGF's RE and PGN's result token forged: on a game the moves
    decide, the file opens with the board's result or is refused."""
    import re as _re
    from runner.records import open_replay
    kinds = [s for s in samples["contest"] if s[0].upper().endswith(("HEX.OUT", ".SGF", ".PGN"))]
    name, original = data.draw(st.sampled_from(kinds))
    truth = _true_result(samples, name, original)
    text = original.decode("utf-8")
    if name.upper().endswith("HEX.OUT"):
        forged = f"RESULT {data.draw(st.integers(0, 2))} {data.draw(st.sampled_from(['win', 'timeout', 'draw', 'resignation']))}"
        text = _re.sub(r"RESULT .*", forged, text) if "RESULT" in text else text + forged + "\n"
    elif name.upper().endswith(".SGF"):
        text = _re.sub(r"RE\[[^\]]*\]", f"RE[{data.draw(st.sampled_from(['B+', 'W+', '0', 'B+R', 'W+T', '?']))}]", text)
    else:
        text = _re.sub(r"(1-0|0-1|1/2-1/2|\*)\s*$", data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"])), text)
    path = tmp_path / name
    path.write_text(text)
    try:
        replay = open_replay(path)
    except RecordFormatError:
        return
    if truth.states[-1].is_terminal():
        assert set(replay.outcome.winners) == set(truth.outcome.winners), (text[-80:], replay.outcome)


def _event_samples() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in sorted(ROOT.glob("games/*/events/*.toml"))]


def _load(tmp_path: Path, name: str, data: bytes) -> None:
    from games.api import ArenaError
    from runner.tournament import load_event
    folder = tmp_path / "event"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    try:
        load_event(path, tmp_path / "out")
    except ArenaError as error:
        assert str(error).startswith(str(path)), error


@FUZZ
@given(data=st.data())
def test_event_files_raise_only_event_errors_naming_the_file(tmp_path, data):
    """Event .toml files, mutated and with generated hostile pieces (huge integers,
    non-UTF-8 bytes, deep nesting, paths longer than the system takes): only an
    ArenaError naming the file."""
    name, original = data.draw(st.sampled_from(_event_samples()))
    how = data.draw(st.sampled_from(["mutate", "hostile", "long-path", "type"]))
    if how == "mutate":
        rng = random.Random(data.draw(st.integers(0, 2 ** 32 - 1)))
        out = mutate(original, rng, data.draw(st.integers(1, 8)))
    elif how == "hostile":
        out = data.draw(hostile_bytes(original))
    elif how == "long-path":
        long = "/".join(["d" * data.draw(st.integers(1, 400))] * data.draw(st.integers(1, 30)))
        out = original.replace(b'"', b'"' + long.encode() + b"/", data.draw(st.integers(1, 6)))
        out += f'\n[options]\nbook = "{long}"\n'.encode()
    else:
        key = data.draw(st.sampled_from(["rounds", "seed", "seats", "concurrency", "champion", "out",
                                         "name", "format", "points", "time", "options", "cycle"]))
        value = data.draw(st.sampled_from(["[1, 2]", '"x"', "-1", "1e400", "{ a = 1 }", "true",
                                           "9" * 5000, "0", '"' + "y" * 5000 + '"']))
        out = f"{key} = {value}\n".encode() + original
    _load(tmp_path, name, out)


def test_an_event_file_over_a_megabyte_is_refused_before_it_is_parsed(tmp_path):
    import time
    from runner.tournament import EventError, load_event
    path = tmp_path / "big.toml"
    path.write_bytes(b'game = "hex"\n' + b"# padding\n" * 600_000)
    started = time.monotonic()
    with pytest.raises(EventError, match="at most 1,000,000 bytes"):
        load_event(path)
    assert time.monotonic() - started < 2
