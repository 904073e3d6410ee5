"""Fuzzing every reader of files a program or a person hands the arena: whatever the
bytes, only :class:`games.api.RecordFormatError` (MOVE.OUT: MoveSyntaxError) escapes.

Inputs are real records and contest files, mutated (bytes flipped, slices cut, copied
or inserted, lines swapped, the file truncated).  The number of examples is bounded
(``ARENA_FUZZ_EXAMPLES``, default 25 per reader) so the suite stays quick in CI.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from games.api import MoveSyntaxError, RecordFormatError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


def mutate(data: bytes, rng: random.Random, rounds: int) -> bytes:
    buf = bytearray(data)
    for _ in range(rounds):
        kind = rng.randrange(7)
        at = rng.randrange(len(buf) + 1)
        if kind == 0 and buf:                               # flip a byte
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif kind == 1:                                     # cut a slice
            del buf[at:at + rng.randrange(1, 64)]
        elif kind == 2:                                     # copy a slice elsewhere
            piece = buf[at:at + rng.randrange(1, 64)]
            where = rng.randrange(len(buf) + 1)
            buf[where:where] = piece
        elif kind == 3:                                     # insert something nasty
            buf[at:at] = rng.choice([b"\0", b"\xff\xfe", b"\n", b"\r\n", b"-1", b"999999999999",
                                     b"1e308", b"NaN", b'"', b"{", b"}", b"[", b"]", b"null",
                                     b'{"type": "turn", "n": 1}', b"\t", "\u2028".encode()])
        elif kind == 4:                                     # truncate
            del buf[at:]
        elif kind == 5:                                     # swap two lines
            lines = bytes(buf).split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                buf = bytearray(b"\n".join(lines))
        else:                                               # a digit changed
            digits = [i for i, b in enumerate(buf) if 48 <= b <= 57]
            if digits:
                buf[rng.choice(digits)] = rng.choice(b"0123456789-")
    return bytes(buf)


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
