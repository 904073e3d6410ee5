"""A contestant's program plays the whole game once; its output.txt is replayed step by step."""
import shutil
import sys
import tempfile
from pathlib import Path

from games import registry
from runner.match import Match
from runner.records import open_replay
from runner.seats import make_seat

EXAMPLE = Path(__file__).resolve().parents[2] / "games" / "crosswords" / "examples" / "simple_player.py"

BAD_PROGRAM = r'''
piles = open("input.txt").read().split()
first = piles[0][:8]
open("output.txt", "w").write("\n".join(["999"] + ["." * 17] * 17 + [
    "# made up", "draw 1 " + first, "discard " + first[0] + " -999", "stop"]) + "\n")
'''


def run_match(tmp_path, command, seconds=3, seed=3):
    plugin = registry.plugin("crosswords")
    options = plugin.new_game().spec.resolve_options(None, {"seconds": str(seconds)})
    seat = make_seat(f"ext:{command}", plugin, seed)
    match = Match(plugin, options, [seat], seed=seed, record_path=tmp_path / "m.arena.jsonl",
                  time_control=None, workdir=tmp_path / "work")
    outcome = match.run()
    return match, outcome


def test_example_program_plays_and_replays_step_by_step(tmp_path):
    match, outcome = run_match(tmp_path, f"{sys.executable} {EXAMPLE}", seconds=6)
    assert outcome.reason.value == "stopped", outcome
    assert outcome.scores[0] > 0
    folder = match.seats[0].folder
    assert (folder / "output.txt").exists() and len(list((folder / "dictionary").iterdir())) >= 26
    claimed = int((folder / "output.txt").read_text().split()[0])
    assert claimed == outcome.scores[0]
    first = match.turns[0]
    assert any(f"claims {claimed}; verified {claimed}" in n for n in first.answers[0].get("notes", []))
    steps = [line for line in (folder / "output.txt").read_text().splitlines()[18:]
             if line.strip() and not line.startswith("#")]
    width = {"play": 4, "discard": 2, "draw": 3, "stop": 1}
    assert [t.moves[0] for t in match.turns] == [" ".join(line.split()[:width[line.split()[0]]])
                                                for line in steps]
    replay = open_replay(tmp_path / "m.arena.jsonl")
    assert replay.states[-1] == match.states[-1]


def test_invalid_output_is_named_at_its_first_wrong_line(tmp_path):
    program = tmp_path / "bad.py"
    program.write_text(BAD_PROGRAM)
    match, outcome = run_match(tmp_path, f"{sys.executable} {program}")
    assert outcome.reason.value == "bad-file"
    assert "output.txt line 21:" in outcome.detail and "loses" in outcome.detail
    assert [t.moves.get(0, "") for t in match.turns][0].startswith("draw 1 ")   # the valid step stands
    assert outcome.scores == (0.0,)


def test_program_killed_at_the_limit(tmp_path):
    program = tmp_path / "slow.py"
    program.write_text("import time\ntime.sleep(30)\n")
    match, outcome = run_match(tmp_path, f"{sys.executable} {program}", seconds=1)
    assert outcome.reason.value == "timeout" and outcome.scores == (0.0,)


def test_a_solver_program_reads_the_arenas_word_graph_instead_of_building_one(tmp_path, monkeypatch):
    """``arena crosswords solve`` as a program: its home is its own folder, where no
    cache is; the arena hands it the word graph it built (read-only, named in
    ARENA_WORDS), so the program builds none on its clock (a built one would be a file
    it created, noted and deleted after the run)."""
    # A home other users may read (pytest's folders are closed): as root, the basic
    # sandbox shares only files a program's own uid could read.
    home = Path(tempfile.mkdtemp(prefix="arena-words-"))
    home.chmod(0o755)
    monkeypatch.setenv("ARENA_HOME", str(home))
    main = Path(__file__).resolve().parents[2] / "main.py"
    try:
        for extra in ("", " --dict dictionary"):        # the built-in list, the files given
            match, outcome = run_match(tmp_path / f"run{len(extra)}", f"{sys.executable} {main} "
                                       f"crosswords solve --input input.txt --out output.txt "
                                       f"--level greedy{extra}", seconds=60)
            notes = match.turns[0].answers[0].get("notes", [])
            assert outcome.reason.value == "stopped" and outcome.scores[0] > 1000, (outcome, notes)
            assert not any(".dawg" in note for note in notes), notes
        assert len(list((home / "words").glob("*.dawg"))) == 2
    finally:
        shutil.rmtree(home, ignore_errors=True)
