"""HEX.OUT and HexGui SGF: round trips through real matches, and malformed files."""
from pathlib import Path

import pytest

from games.api import RecordFormatError, Termination
from games.hex.records import (READERS, HexOutReader, SgfReader, format_hex_out, format_sgf,
                               parse_sgf_main_line, write_contest_records)
from games.registry import plugin
from runner.match import Match, TimeControl
from runner.records import open_replay
from runner.seats import make_seat

HEX = plugin("hex")
PROGRAMS = Path(__file__).resolve().parent / "programs"


def bot_match(size=5, seed=1, position=""):
    seats = [make_seat("bot:1", HEX, seed), make_seat("bot:1", HEX, seed + 1)]
    match = Match(HEX, {"size": size, "position": position}, seats, seed=seed,
                  time_control=TimeControl())
    match.run()
    return match


@pytest.mark.parametrize("seed,size,position", [
    (1, 5, ""), (2, 7, ""), (3, 5, "1..../....2/...../...../....."), (4, 1, ""), (5, 11, "")])
def test_round_trip_through_both_formats(tmp_path, seed, size, position):
    match = bot_match(size, seed, position)
    paths = write_contest_records(match, tmp_path)
    assert [p.name for p in paths] == ["HEX.OUT", "hex.sgf"]
    for path in paths:
        replay = open_replay(path)
        assert replay.game == "hex"
        assert len(replay.states) == len(match.states)
        assert [s.board_text() for s in replay.states] == [s.board_text() for s in match.states]
        assert replay.outcome.winners == match.outcome.winners
        assert [t.moves for t in replay.turns] == [t.moves for t in match.turns]
    assert open_replay(paths[0]).format == "hex-out" and open_replay(paths[1]).format == "hex-sgf"


def test_forfeit_is_written_and_read_back(tmp_path):
    import shlex
    import sys
    command = " ".join(shlex.quote(x) for x in (sys.executable, str(PROGRAMS / "misbehave.py"), "crash"))
    seats = [make_seat(f"ext:{command}", HEX, 1), make_seat("bot:1", HEX, 1)]
    match = Match(HEX, {"size": 5}, seats, seed=1, time_control=TimeControl(), workdir=tmp_path / "w")
    match.run()
    assert match.outcome.reason is Termination.CRASH
    hex_out, sgf = write_contest_records(match.as_replay(), tmp_path)
    assert hex_out.read_text().splitlines()[-1] == "RESULT 2 crash"
    assert "RE[W+F]" in sgf.read_text()
    replay = open_replay(hex_out)
    assert replay.outcome.reason is Termination.CRASH
    assert replay.turns[-1].forfeits == {0: {"reason": "crash", "detail": replay.outcome.detail}}
    assert len(replay.states) == len(match.states)


def test_a_hand_written_hex_out():
    text = "3\n...\n...\n...\n1 1 1\n2 2 1\n1 1 2\n2 2 2\n1 1 3\nRESULT 1 win\n"
    reader = HexOutReader()
    assert reader.sniff(text, "HEX.OUT")
    replay = reader.read(text, "HEX.OUT")
    assert replay.outcome.winners == (0,) and replay.outcome.reason is Termination.WIN
    assert replay.states[-1].board_text() == "111/22./..."


def test_a_hexgui_style_sgf_with_variations_and_escapes():
    text = ("(;FF[4]AP[HexGui:0.9]GM[11]SZ[3]C[a comment with \\] inside]PB[me]PW[you]\n"
            ";B[b2](;W[a1];B[a3]\n;W[b1];B[c1])(;W[c3]))")
    reader = SgfReader()
    assert reader.sniff(text, "game.sgf")
    replay = reader.read(text, "game.sgf")
    assert replay.seat_names == ["me", "you"]
    assert [t.moves for t in replay.turns] == [{0: "b2"}, {1: "a1"}, {0: "c1"}, {1: "a2"}, {0: "a3"}]
    # Black's b2 a3 c1 in HexGui names are our (2,2) (1,3) (3,1): an anti-diagonal from column 1 to 3.
    assert replay.outcome.winners == (0,)


def test_sgf_main_line_parser_stops_at_the_first_close():
    nodes = parse_sgf_main_line("(;SZ[2](;B[a1])(;B[b2]))", "x.sgf")
    assert [props for props, _ in nodes] == [{"SZ": ["2"]}, {"B": ["a1"]}]


def test_readers_do_not_claim_each_others_files():
    sgf = "(;FF[4]GM[11]SZ[3];B[a1])"
    hex_out = "3\n...\n...\n...\n"
    go_sgf = "(;FF[4]GM[1]SZ[19];B[dd])"
    arena = '{"type": "header", "format": "arena-record"}\n'
    assert [r.sniff(sgf, "a") for r in READERS] == [False, True]
    assert [r.sniff(hex_out, "a") for r in READERS] == [True, False]
    assert not any(r.sniff(go_sgf, "a") for r in READERS)
    assert not any(r.sniff(arena, "a") for r in READERS)


@pytest.mark.parametrize("text,line,expected", [
    ("3\n...\n..\n...\n", 3, "start row"),
    ("3\n...\n...\n", 4, "3 start rows"),
    ("3\n1..\n.2.\n..2\n", 2, "equal stone counts"),
    ("3\n...\n...\n...\n1 1 1\n1 2 2\n", 6, "legal move for player 1"),
    ("3\n...\n...\n...\n1 1 1\n2 1 1\n", 6, "occupied"),
    ("3\n...\n...\n...\n1 4 1\n", 5, "off the"),
    ("3\n...\n...\n...\n1 1 one\n", 5, "PLAYER ROW COL"),
    ("3\n...\n...\n...\n1 1 1\nRESULT 1 teleport\n", 6, "termination reason"),
    ("3\n...\n...\n...\n1 1 1\nRESULT 1 win\n2 2 2\n", 7, "nothing after"),
    ("3\n...\n...\n...\n1 1 1\n2 2 1\n1 1 2\n2 2 2\n1 1 3\nRESULT 2 win\n", 10, "agrees with the board"),
])
def test_malformed_hex_out_names_the_line(text, line, expected):
    with pytest.raises(RecordFormatError) as info:
        HexOutReader().read(text, "HEX.OUT")
    assert info.value.path == "HEX.OUT" and info.value.line == line
    assert expected in info.value.expected


@pytest.mark.parametrize("text,line,expected", [
    ("(;FF[4]GM[11]SZ[3]\n;B[a1]\n;B[b2])", 3, "legal move for player 1"),
    ("(;FF[4]GM[11]SZ[3]\n;B[z9])", 2, "HexGui cell"),
    ("(;FF[4]GM[11]SZ[3]\n;B[d1])", 2, "on the 3x3 board"),
    ("(;FF[4]GM[11]SZ[3:4])", 1, "square board"),
    ("(;FF[4]GM[11]SZ[3]\n;B[a1]", 2, "closing ')'"),
    ("(;FF[4]GM[11]SZ[3]\n;B[a1", 2, "closing ']'"),
    ("(;FF[4]GM[11]SZ[3]AB[a1][b1][c1]AW[c3])", 1, "set-up Arena can start from"),
    ("(;FF[4]GM[11]SZ[3]RE[Q+];B[a1])", 1, "RE[B+"),
    ("(;FF[4]GM[11]SZ[3] junk ;B[a1])", 1, "value in [...]"),
    ("hello", 1, "SGF game tree"),
])
def test_malformed_sgf_names_the_line(text, line, expected):
    with pytest.raises(RecordFormatError) as info:
        SgfReader().read(text, "game.sgf")
    assert info.value.line == line, info.value
    assert expected in info.value.expected


def test_garbage_is_refused_cleanly():
    garbage = b"\x00\xff garbage \x01".decode("utf-8", "replace")
    assert not any(r.sniff(garbage, "HEX.OUT") for r in READERS)
    for reader in READERS:
        with pytest.raises(RecordFormatError):
            reader.read(garbage, "HEX.OUT")


def test_formats_are_stable_text():
    match = bot_match(3, seed=9)
    out = format_hex_out(match.as_replay())
    assert out.splitlines()[0] == "3" and out.splitlines()[-1].startswith("RESULT ")
    sgf = format_sgf(match.as_replay())
    assert sgf.startswith("(;FF[4]AP[Arena:0.1]GM[11]SZ[3]") and sgf.endswith(")\n")
    assert all(len(line) <= 90 for line in sgf.splitlines())


# ====================================================================== real-world SGF
ENGINE = Path(__file__).resolve().parent / "gtp_engine.py"


def _cells(state) -> dict:
    return {state.move_at(i).text(): v for i, v in enumerate(state.cells) if v}


def read_sgf(text: str):
    assert SgfReader().sniff(text, "game.sgf")
    return SgfReader().read(text, "game.sgf")


@pytest.mark.parametrize("seed", [5, 6])
def test_the_arenas_own_swap_games_open_again(tmp_path, seed):
    import shlex
    import sys
    spec = "gtp:" + " ".join(shlex.quote(x) for x in (sys.executable, str(ENGINE), "--seed", str(seed)))
    seats = [make_seat(spec, HEX, seed), make_seat(spec + " --swap", HEX, seed)]
    match = Match(HEX, {"size": 5, "swap": True}, seats, seed=seed, time_control=TimeControl(),
                  workdir=tmp_path / "m")
    match.run()
    assert match.turns[1].moves == {1: "swap"}
    for path in write_contest_records(match, tmp_path):
        replay = open_replay(path)
        assert [s.board_text() for s in replay.states] == [s.board_text() for s in match.states]
        assert replay.outcome.winners == match.outcome.winners
    assert "W[swap-pieces]" in format_sgf(match.as_replay()) and "2 SWAP" in format_hex_out(match.as_replay())


def test_resign_ends_the_game():
    replay = read_sgf("(;FF[4]GM[11]SZ[3];B[b2];W[a1];B[resign])")
    assert replay.outcome.winners == (1,) and replay.outcome.reason is Termination.RESIGNATION
    assert replay.turns[-1].forfeits == {0: {"reason": "resignation", "detail": "Player 1 resigned"}}
    with pytest.raises(RecordFormatError, match="agrees with the resignation"):
        read_sgf("(;FF[4]GM[11]SZ[3]RE[B+];B[b2];W[resign])".replace("W[resign]", "W[a1];B[resign]"))
    with pytest.raises(RecordFormatError, match="no move after a resignation"):
        read_sgf("(;FF[4]GM[11]SZ[3];B[b2];W[resign];B[a1])")


def test_non_square_boards_are_refused_clearly():
    with pytest.raises(RecordFormatError) as info:
        read_sgf("(;FF[4]GM[11]SZ[7:5];B[a1])")
    assert "square board" in str(info.value) and "7 wide and 5 high" in str(info.value)


def test_set_ups_with_white_to_play():
    # black has a stone more: white (player 2) moves first
    replay = read_sgf("(;FF[4]GM[11]SZ[3];AB[a1][b2]AW[c3]PL[W];W[a2])")
    assert replay.states[0].to_move() == (1,) and replay.turns[0].moves == {1: "b1"}
    assert "PL[W]" in format_sgf(replay)
    # as many stones and white to play: read with the colours exchanged (white = player 1)
    replay = read_sgf("(;FF[4]GM[11]SZ[3]AB[a1]AW[c3]PL[W];W[b2])")
    assert replay.states[0].to_move() == (0,)
    assert _cells(replay.states[0]) == {"a1": 2, "c3": 1}          # transposed, colours exchanged
    with pytest.raises(RecordFormatError, match="set-up Arena can start from"):
        read_sgf("(;FF[4]GM[11]SZ[3]AB[a1][b1])")
    with pytest.raises(RecordFormatError, match="only before the first move"):
        read_sgf("(;FF[4]GM[11]SZ[3];B[a1];AW[b2])")


def test_hexgui_swap_conventions_give_the_same_game():
    """HexGui 1.0 and Benzene: after swap-pieces the stones stay and the colours change
    hands (white moves again); HexGui 0.10+, PlayHex and Arena: the stone is mirrored
    and black moves.  Both are the same game."""
    old = read_sgf("(;AP[HexGui:1.0.]FF[4]GM[11]SZ[11];B[a4];W[swap-pieces];W[b10];B[e9])")
    new = read_sgf("(;AP[HexGui:0.10]FF[4]GM[11]SZ[11];B[a4];W[swap-pieces];B[j2];W[i5])")
    assert [t.moves for t in old.turns] == [t.moves for t in new.turns]
    assert old.states[-1] == new.states[-1]
    assert old.header["options"]["swap"] is True


def test_benzene_files_open():
    """Set-up in a node of its own, Go-style points, a twogtp game ending in resign once won."""
    replay = read_sgf("(;AP[HexGui:0.2]FF[4]GM[11]SZ[3];\nAB[a1]\nAW[c3]\n)")
    assert _cells(replay.states[0]) == {"a1": 1, "c3": 2}
    replay = read_sgf("(;FF[4]GM[11]SZ[3];B[aa];W[cc])")
    assert [t.moves for t in replay.turns] == [{0: "a1"}, {1: "c3"}]
    won = read_sgf("(;GM[11]SZ[2]RE[B+];B[a1];W[b1];B[a2];W[resign])")
    assert won.outcome.reason is Termination.WIN and won.outcome.winners == (0,)


def test_little_golem_files_open():
    text = ("(;FF[4]EV[hex.ch.1.1.1]PB[alice]PW[bob]SZ[5]RE[B]GC[ game #1]"
            "SO[https://www.littlegolem.net];W[cb];B[swap];W[bd];B[resign])")
    replay = open_replay_text(text)
    assert replay.seat_names == ["alice", "bob"]
    assert [t.moves for t in replay.turns[:3]] == [{0: "b3"}, {1: "swap"}, {0: "d2"}]
    assert _cells(replay.states[2]) == {"c2": 2}                       # the mirrored stone
    assert replay.outcome.winners == (0,) and replay.outcome.reason is Termination.RESIGNATION


def open_replay_text(text: str):
    reader = next(r for r in READERS if r.sniff(text, "game.hsgf"))
    return reader.read(text, "game.hsgf")


# ====================================================================== start=FILE
def test_start_option_takes_a_position_file(tmp_path):
    from games.api import GameSetupError
    from games.hex.rules import HexGame
    position = Path(__file__).resolve().parents[2] / "games/hex/positions/hex5-one-winning-move.txt"
    seats = [make_seat("bot:1", HEX, 1), make_seat("bot:1", HEX, 2)]
    match = Match(HEX, {"size": 5, "start": str(position)}, seats, seed=1, time_control=TimeControl(),
                  record_path=tmp_path / "game.arena.jsonl")
    assert match.state.board_text() == "..22./...1./2.121/..1../21.21"
    assert match.header()["files"]["start"]["source"] == str(position)
    match.run()
    assert open_replay(tmp_path / "game.arena.jsonl").states[0].board_text() == match.states[0].board_text()
    with pytest.raises(GameSetupError, match="add size=5"):
        Match(HEX, {"start": str(position)}, seats, seed=1)
    with pytest.raises(GameSetupError, match="not a file Arena can read"):
        Match(HEX, {"size": 5, "start": str(tmp_path / "missing.txt")}, seats, seed=1)
    with pytest.raises(GameSetupError, match="not both"):
        HexGame().new_initial_state({"size": 5, "start": "...../...../...../...../.....",
                                     "position": "...../...../...../...../....."}, 0)


def test_benzene_regression_sgf_files():
    """With a Benzene source tree (ARENA_BENZENE_SRC, e.g. cgao3/benzene-vanilla-cmake),
    its regression SGFs open or are refused with a reason (RECORDS.md's figure)."""
    import os
    root = os.environ.get("ARENA_BENZENE_SRC")
    if not root:
        pytest.skip("set ARENA_BENZENE_SRC to a Benzene source tree to read its regression SGFs")
    files = sorted(Path(root, "regression", "sgf").rglob("*.sgf"))
    opened, refused = 0, {}
    for path in files:
        text = path.read_text(errors="replace")
        assert SgfReader().sniff(text, str(path)), path
        try:
            SgfReader().read(text, str(path))
            opened += 1
        except RecordFormatError as exc:
            refused[path.name] = exc.expected
    assert all("set-up Arena can start from" in why or "legal move" in why for why in refused.values()), refused
    assert (opened, len(files)) == (320, 375)
