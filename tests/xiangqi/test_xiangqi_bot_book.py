"""The top bot's opening book: legal lines, play from the book, a clean exit, one game per seed."""
import os
import subprocess

import pytest

from games.api import GameSetupError
from games.xiangqi.book import OpeningBook, default_book, parse_book
from games.xiangqi.bot import make_bot
from games.xiangqi.rules import START_FEN, Position, XiangqiGame, parse_move_text

GAME = XiangqiGame()


def test_every_book_line_is_legal_from_the_start():
    book = default_book()
    assert len(book.lines) >= 12
    for line in book.lines:
        position = Position.from_fen(START_FEN)[0]
        for text in line.moves:
            move = parse_move_text(text)
            assert move in position.legal_moves(), (line.name, text)
            position.make(move)


def test_the_book_covers_the_main_openings_for_both_colours():
    book = default_book()
    start = Position.from_fen(START_FEN)[0]
    first_moves = {choice.move for choice in book.choices(start)}
    # Central cannon, elephant, pawn, horse, cross-palace and palace-corner cannon openings.
    assert {parse_move_text(m) for m in ("H2E2", "G0E2", "C3C4", "H0G2", "H2D2", "B2D2")} <= first_moves
    start.make(parse_move_text("H2E2"))
    replies = {choice.move for choice in book.choices(start)}
    assert {parse_move_text(m) for m in ("H9G7", "H7E7", "B9C7")} <= replies


@pytest.mark.parametrize("text, words", [
    ("3 | Bad | H2E2 H2E3", "move 2 \\(H2E3\\) is not legal"),
    ("3 | Bad | H2E2 Z9", "move 2"),
    ("x | Bad | H2E2", "line 1: the weight"),
    ("\n\n3 Bad H2E2", "line 3: expected"),
])
def test_a_bad_book_line_is_refused_with_its_place(text, words):
    with pytest.raises(GameSetupError, match=words):
        OpeningBook(parse_book(text, "test.txt"), "test.txt")


def play(bots, plies, fen=""):
    state = GAME.new_initial_state({"fen": fen}, 0)
    infos = []
    for _ in range(plies):
        seat = state.side
        move = bots[seat].choose(state, seat, None)
        infos.append(dict(bots[seat].last_info))
        state.apply({seat: move})
    return state, infos


def test_the_top_bot_plays_from_the_book_then_searches():
    bots = [make_bot(5, 3, {"depth": "2"}), make_bot(5, 4, {"depth": "2"})]
    state, infos = play(bots, 16)
    book = default_book()
    replay = Position.from_fen(START_FEN)[0]
    book_plies = 0
    for move, info in zip(state.moves, infos):
        if "book" not in info:
            break
        assert info["book"].startswith(move)         # the record names the move and its line
        assert parse_move_text(move) in {c.move for c in book.choices(replay)}
        replay.make(parse_move_text(move))
        book_plies += 1
    assert book_plies >= 2                          # every line is at least 2 half-moves long
    # It left the book only where the book has nothing to say.
    exit_position = Position.from_fen(START_FEN)[0]
    for move in state.moves[:book_plies]:
        exit_position.make(parse_move_text(move))
    assert not book.choices(exit_position)
    # Out of book the bot searches (depth, score, nodes in its info) and never returns to it.
    after = infos[book_plies:]
    assert after and all("book" not in info and info["depth"] >= 1 for info in after)


def test_lower_levels_do_not_use_the_book_unless_asked():
    plain = make_bot(4, 1, {"depth": "1"})
    state = GAME.new_initial_state({}, 0)
    plain.choose(state, 0, None)
    assert "book" not in plain.last_info and plain.last_info["depth"] == 1
    asked = make_bot(3, 1, {"depth": "1", "book": "1"})
    asked.choose(state, 0, None)
    assert "book" in asked.last_info
    refused = make_bot(5, 1, {"depth": "1", "book": "0"})
    refused.choose(state, 0, None)
    assert "book" not in refused.last_info
    with pytest.raises(GameSetupError, match="book"):
        make_bot(5, 1, {"book": "2"})


def test_the_same_seed_gives_the_same_book_moves_and_seeds_vary_them():
    def opening(seed):
        state, _ = play([make_bot(5, seed, {"depth": "1"}), make_bot(5, seed + 100, {"depth": "1"})], 6)
        return tuple(state.moves)
    assert opening(11) == opening(11)
    assert len({opening(seed) for seed in range(12)}) >= 3


def test_a_fen_start_in_the_book_is_recognised():
    position = Position.from_fen(START_FEN)[0]
    for text in ("H2E2", "H9G7"):
        position.make(parse_move_text(text))
    bot = make_bot(5, 0, {"depth": "1"})
    state = GAME.new_initial_state({"fen": position.fen()}, 0)
    move = bot.choose(state, state.side, None)
    assert "book" in bot.last_info
    assert parse_move_text(move) in {c.move for c in default_book().choices(position)}


FAIRY_STOCKFISH = os.environ.get("ARENA_FAIRY_STOCKFISH")


@pytest.mark.skipif(not FAIRY_STOCKFISH, reason="set ARENA_FAIRY_STOCKFISH to a Fairy-Stockfish "
                    "(largeboards) binary to have it vet the book")
def test_no_book_move_loses_material_by_a_strong_engines_judgement():
    """Every book move keeps Fairy-Stockfish's score (depth 10, mover's view) within 200 cp."""
    from games.xiangqi.engine_seats import to_engine_move
    engine = subprocess.Popen([FAIRY_STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def red_score(moves):
        played = " moves " + " ".join(to_engine_move(m, 1) for m in moves) if moves else ""
        send(f"position fen {START_FEN}{played}")
        send("go depth 10")
        last = ""
        while not (line := engine.stdout.readline()).startswith("bestmove"):
            last = line if " score " in line else last
        words = last.split()
        kind, value = words[words.index("score") + 1:words.index("score") + 3]
        cp = int(value) if kind == "cp" else (10000 if int(value) > 0 else -10000)
        return cp if len(moves) % 2 == 0 else -cp

    try:
        send("uci")
        send("setoption name UCI_Variant value xiangqi")
        losses = []
        for line in default_book().lines:
            before = red_score([])
            for ply in range(1, len(line.moves) + 1):
                after = red_score(list(line.moves[:ply]))
                lost = before - after if ply % 2 else after - before     # for the side that moved
                if lost >= 200:
                    losses.append(f"{line.name}: {line.moves[ply - 1]} loses {lost} cp")
                before = after
        assert not losses, losses
    finally:
        engine.kill()
        engine.wait()
