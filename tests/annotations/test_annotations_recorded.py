"""Recording annotations: each game's shipped example program annotates, the runner
keeps what it drew per turn and seat in the record, a stale, hostile or garbage
DEBUG.OUT costs nothing but a note, and line protocols' ``# debug`` lines never
reach the protocol."""
import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from games import registry
from games.annotations import MAX_BYTES
from games.api import RecordFormatError
from runner.match import Match
from runner.process import LineProcess
from runner.records import open_replay
from runner.seats import make_seat
from waiting import play_turns

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def example(game: str, name: str) -> str:
    return f"ext:{PY} {ROOT / 'games' / game / 'examples' / name}"


def play(tmp_path, game, specs, turns, variant=None, options=None):
    """Play ``turns`` turns (or to the end) of a recorded match; its record, reopened."""
    plugin = registry.plugin(game)
    opts = plugin.new_game().spec.resolve_options(variant, options or {})
    seats = [make_seat(spec, plugin, i) for i, spec in enumerate(specs)]
    record = tmp_path / f"{game}.arena.jsonl"
    match = Match(plugin, opts, seats, seed=3, variant=variant, record_path=record)
    play_turns(match, turns)
    return open_replay(record)


def drawn(replay, seat):
    """(turn number, commands) of every turn where ``seat`` drew something."""
    return [(t.number, t.answers[seat]["debug"]["draw"]) for t in replay.turns
            if seat in t.answers and t.answers[seat].get("debug")]


def test_robot_example_marks_its_target_and_scores_its_neighbours(tmp_path):
    replay = play(tmp_path, "robot", [example("robot", "greedy_bot.py"), "bot:1"], 4)
    turns = drawn(replay, 0)
    assert turns, "the example writes DEBUG.OUT from its second turn"
    number, commands = turns[0]
    kinds = [c[0] for c in commands]
    assert "mark" in kinds and "arrow" in kinds and "heat" in kinds
    arrow = next(c for c in commands if c[0] == "arrow")
    moved_to = tuple(int(v) for v in replay.turns[number - 1].moves[0].split())
    assert tuple(arrow[2]) == moved_to, "the arrow ends on the cell the robot stepped to"
    assert not drawn(replay, 1), "the built-in bot draws nothing"


def test_xiangqi_example_arrows_its_move(tmp_path):
    replay = play(tmp_path, "xiangqi", [example("xiangqi", "greedy_mover.py"), "bot:1"], 3)
    number, commands = drawn(replay, 0)[0]
    arrow = next(c for c in commands if c[0] == "arrow")
    move = replay.turns[number - 1].moves[0]           # ICCS, e.g. B2B9
    origin = (int(move[1]), "ABCDEFGHI".index(move[0]))
    target = (int(move[3]), "ABCDEFGHI".index(move[2]))
    assert (tuple(arrow[1]), tuple(arrow[2])) == (origin, target)


@pytest.mark.parametrize("seat", [0, 1])
def test_hex_example_marks_the_cell_it_plays_on_either_side(tmp_path, seat):
    specs = ["bot:1", "bot:1"]
    specs[seat] = example("hex", "shortest_path.py")
    replay = play(tmp_path, "hex", specs, 4, variant="7x7")
    turns = drawn(replay, seat)
    assert turns
    for number, commands in turns:
        best = next(c for c in commands if c[0] == "mark" and c[3] == "best")
        played = replay.turns[number - 1].moves[seat]
        assert registry.plugin("hex").new_game().parse_cell(played) == tuple(best[1]), \
            "HexLib cells are in the program's view and turned round for the second player"


def test_tamquan_example_arrows_each_step(tmp_path):
    replay = play(tmp_path, "tamquan", [example("tamquan", "greedy_bot.py"), "bot:1"], 4)
    number, commands = drawn(replay, 0)[0]
    arrows = [(tuple(c[1]), tuple(c[2])) for c in commands if c[0] == "arrow"]
    steps = replay.turns[number - 1].moves[0].split()
    assert sorted(arrows) == sorted(tuple(tuple(int(v) for v in cell.split(",")) for cell in s.split("-"))
                                    for s in steps)


def test_crosswords_example_annotates_its_one_run(tmp_path):
    replay = play(tmp_path, "crosswords", [example("crosswords", "simple_player.py")], 3,
                  options={"seconds": "5"})
    turns = drawn(replay, 0)
    assert [n for n, _ in turns] == [1], "one run for the whole game: its DEBUG.OUT goes with turn 1"
    text = next(c[2] for c in turns[0][1] if c[0] == "text")
    words = int(re.search(r"of (\d+) words", text).group(1))
    assert sum(c[0] == "mark" for c in turns[0][1]) == min(10, words), "a mark for each word, up to 10"


def robot_program(tmp_path, body: str) -> str:
    """A Robot program that stays put, after running ``body`` (it may write DEBUG.OUT)."""
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent('''
        import os
        lines = open("MAP.INP").read().split("\\n")
        x, y = lines[1].split()[:2]
        if x == "-1":
            m, n = map(int, lines[0].split()[:2]); x, y = m // 2, n // 2
        turn = int(open("STATE.DAT").read()) if os.path.exists("STATE.DAT") else 0
        open("STATE.DAT", "w").write(str(turn + 1))
    ''') + textwrap.dedent(body) + '\nopen("MOVE.OUT", "w").write(f"{x} {y}\\n")\n')
    return f"ext:{PY} {path}"


def test_a_stale_debug_file_never_counts(tmp_path):
    spec = robot_program(tmp_path, '''
        if turn == 0:
            open("DEBUG.OUT", "w").write("mark 1 1 red first\\n")
    ''')
    replay = play(tmp_path, "robot", [spec, "bot:1"], 3)
    assert [n for n, _ in drawn(replay, 0)] == [1]


def test_garbage_and_hostile_debug_files_give_notes(tmp_path):
    spec = robot_program(tmp_path, '''
        if turn == 0:
            open("DEBUG.OUT", "w").write("mark 1 1\\nexplode 2 2\\nmark 1\\n" + "text x\\n" * 400)
        elif turn == 1:
            os.symlink("/etc/passwd", "DEBUG.OUT")
        elif turn == 2:
            os.mkfifo("DEBUG.OUT")
        elif turn == 3:
            open("DEBUG.OUT", "w").write("heat 1 1 5\\n" * 200_000)
    ''')
    replay = play(tmp_path, "robot", [spec, "bot:1"], 5)
    first = replay.turns[0].answers[0]["debug"]
    assert first["draw"][0] == ["mark", [1, 1], "", ""]
    assert len(first["draw"]) <= 256
    assert any("line 2: unknown command 'explode'" in n for n in first["notes"])
    assert any("more than 256 commands" in n for n in first["notes"])
    for turn in replay.turns[1:3]:
        answer = turn.answers[0]
        assert "debug" not in answer
        assert any("DEBUG.OUT is not a regular file" in n for n in answer.get("notes", []))
        assert "failure" not in answer, "a bad DEBUG.OUT never costs the move"
    huge = replay.turns[3].answers[0]["debug"]
    assert len(huge["draw"]) == 256 and len(json.dumps(huge)) < 20_000, "a 2 MB file is cut to the caps"
    assert any(f"only the first {MAX_BYTES} bytes" in n for n in huge["notes"])


def test_debug_lines_never_reach_the_protocol_and_are_capped():
    script = ("import sys\n"
              "print('# debug mark c3 red')\nprint('hello')\n"
              "print('info string # debug heat d4 1')\n"
              f"[print('# debug text ' + 'x' * 90) for _ in range({MAX_BYTES // 50})]\n"
              "print('world')\nsys.stdout.flush()\n")
    process = LineProcess([PY, "-c", script])
    try:
        assert process.read_line(10) == "hello"
        first = process.take_debug()
        assert first.splitlines() == ["# debug mark c3 red"]
        assert process.read_line(10) == "world"
        rest = process.take_debug()
        assert rest.startswith("info string # debug heat d4 1")
        assert MAX_BYTES < len(rest) < MAX_BYTES + 200, "kept up to the cap (and the line across it)"
        assert process.take_debug() == ""
    finally:
        process.close()


def test_a_record_with_malformed_annotations_names_the_line(tmp_path):
    replay = play(tmp_path, "robot", [example("robot", "greedy_bot.py"), "bot:1"], 3)
    lines = Path(replay.source).read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if '"debug"' in line)
    turn = json.loads(lines[number])
    turn["answers"]["0"]["debug"]["draw"][0] = ["mark", [1, "x"], "", ""]
    lines[number] = json.dumps(turn)
    broken = tmp_path / "broken.arena.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordFormatError, match=f"line {number + 1}: a turn line .*mark"):
        open_replay(broken)


def test_gtp_engines_annotate_with_debug_lines(tmp_path):
    engine = ROOT / "tests" / "hex" / "gtp_engine.py"
    replay = play(tmp_path, "hex", [f"gtp:{PY} {engine} --annotate", "bot:1"], 3, variant="7x7")
    number, commands = drawn(replay, 0)[0]
    played = replay.turns[number - 1].moves[0]
    assert commands == [["mark", list(registry.plugin("hex").new_game().parse_cell(played)), "#e53935", "gtp"]]
    notes = replay.turns[number - 1].answers[0]["debug"]["notes"]
    assert notes == ["# debug lines line 2: unknown command 'nonsense' (expected one of mark, line, arrow, text, heat)"]


def test_uci_engines_annotate_with_info_strings(tmp_path):
    engine = ROOT / "tests" / "xiangqi" / "programs" / "fake_engine.py"
    replay = play(tmp_path, "xiangqi", [f"uci:{PY} {engine} --annotate", "bot:1"], 3)
    number, commands = drawn(replay, 0)[0]
    move = replay.turns[number - 1].moves[0]
    game = registry.plugin("xiangqi").new_game()
    assert commands[0] == ["arrow", list(game.parse_cell(move[:2])), list(game.parse_cell(move[2:])), "#43a047"]
    assert commands[1] == ["text", "", "fake engine"]
    assert "# debug" not in replay.turns[number - 1].answers[0].get("answered", "")


@pytest.mark.parametrize("language", ["c", "pas"])
def test_hexlib_in_c_and_pascal_annotates_with_debug(tmp_path, language):
    import shutil
    import subprocess
    compiler = {"c": "gcc", "pas": "fpc"}[language]
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    lib = ROOT / "games" / "hex" / "lib"
    source = Path(__file__).parent / "programs" / f"first_free.{language}"
    binary = tmp_path / "first_free"
    command = ([compiler, "-O2", "-I", str(lib), "-o", str(binary), str(source), str(lib / "hexlib.c")]
               if language == "c" else
               [compiler, f"-Fu{lib}", f"-FU{tmp_path}", f"-o{binary}", str(source)])
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    replay = play(tmp_path, "hex", ["bot:1", f"ext:{binary}"], 4, variant="5x5")
    game = registry.plugin("hex").new_game()
    for number, commands in drawn(replay, 1):
        assert commands[0][0] == "mark" and commands[0][3] == "first"
        assert tuple(commands[0][1]) == game.parse_cell(replay.turns[number - 1].moves[1])
    assert drawn(replay, 1)
