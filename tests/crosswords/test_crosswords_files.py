"""input.txt, seconds.txt and output.txt: reading, writing, verifying, replaying."""
import pytest

from games.api import RecordFormatError
from games.crosswords.files import (parse_output, read_input, read_seconds, verify_output,
                                    write_output)
from games.crosswords.lexicon import Lexicon
from games.crosswords.records import READERS, replay_output
from games.crosswords.rules import CrosswordsState, Discard, Draw, Place, STOP

WORDS = Lexicon.from_words(["cat", "an", "no", "to", "at", "ta", "tee", "ee"])
PILES = ("CATNO" + "E" * 61, "E" * 66, "T" * 66)
GAME = [Draw(1, "CAT"), Place(8, 8, True, "CAT"), Draw(1, "NO"), Place(9, 9, True, "NO"), STOP]


def written():
    return write_output(CrosswordsState(WORDS, PILES), GAME)


def lines_of(text):
    return text.split("\n")


def test_written_file_verifies_and_states_its_notation():
    text = written()
    verdict = verify_output(text, PILES, WORDS)
    # CAT on I9-K9: (4+2+3) * 3 = 27.  NO on J10-K10, N on a triple letter: 6+3 = 9,
    # AN 2+6 = 8, TO 3+3 = 6: 23.  Total 50.
    assert verdict.valid and verdict.score == 50 and verdict.text() == "VALID 50"
    lines = lines_of(text)
    assert lines[0] == "50" and len(lines[1]) == 17 and lines[9][8:11] == "CAT"
    assert "play J10 across NO 9 (AN 8) (TO 6) = 23" in lines
    assert any(line.startswith("#") and "draw P LETTERS" in line for line in lines)


def replace_line(text, old, new):
    lines = lines_of(text)
    index = lines.index(old)
    lines[index] = new
    return "\n".join(lines), index + 1


@pytest.mark.parametrize("old,new,reason", [
    ("play J10 across NO 9 (AN 8) (TO 6) = 23", "play J10 across NO 9 (AN 8) (TO 6) = 24", "23 in all"),
    ("play J10 across NO 9 (AN 8) (TO 6) = 23", "play J10 across NO 10 (AN 8) (TO 6) = 23", "scores 9"),
    ("play J10 across NO 9 (AN 8) (TO 6) = 23", "play J10 across NO 9 (AN 8) = 23", "cross words"),
    ("play I9 across CAT 27 = 27", "play I9 across CAT 27 +50 = 77", "bonus"),
    ("play J10 across NO 9 (AN 8) (TO 6) = 23", "play A1 across NO 5 = 5", "touches no letter"),
    ("draw 1 NO", "draw 2 NO", "pile 2 starts with"),
])
def test_a_wrong_step_is_named_by_its_line(old, new, reason):
    text, line = replace_line(written(), old, new)
    verdict = verify_output(text, PILES, WORDS)
    assert not verdict.valid and verdict.line == line and reason in verdict.reason, verdict.text()
    assert verdict.text().startswith(f"INVALID line {line}: ")


def test_word_not_in_the_dictionary():
    words = Lexicon.from_words(["cat", "an", "to"])          # no "no"
    verdict = verify_output(written(), PILES, words)
    assert not verdict.valid and "NO is not in the dictionary" in verdict.reason
    assert lines_of(written())[verdict.line - 1].startswith("play J10 across NO")


def test_draw_beyond_the_hand_limit():
    state = CrosswordsState(WORDS, PILES)
    text = write_output(state, [Draw(1, "CAT"), Discard("C"), Draw(2, "EEEEEE")])
    text = text.replace("stop\n", "discard A -2\ndraw 3 TT\n")
    verdict = verify_output(text, PILES, WORDS)
    assert not verdict.valid and "9 letters" in verdict.reason
    assert lines_of(text)[verdict.line - 1] == "draw 3 TT"


def test_wrong_total_and_wrong_board():
    text = written()
    verdict = verify_output("51" + text[2:], PILES, WORDS)
    assert (verdict.valid, verdict.line) == (False, 1) and "score 50, not 51" in verdict.reason
    lines = lines_of(text)
    lines[5] = "E" + lines[5][1:]
    verdict = verify_output("\n".join(lines), PILES, WORDS)
    assert (verdict.valid, verdict.line) == (False, 6)


def test_output_shape_errors_name_the_line():
    text = written()
    with pytest.raises(RecordFormatError) as err:
        parse_output("fifty\n" + text.split("\n", 1)[1])
    assert err.value.line == 1
    lines = lines_of(text)
    lines[3] = lines[3][:16]
    with pytest.raises(RecordFormatError) as err:
        parse_output("\n".join(lines))
    assert err.value.line == 4
    lines = lines_of(text)
    lines.append("play I9 sideways CAT 3 = 3")
    with pytest.raises(RecordFormatError) as err:
        parse_output("\n".join(lines))
    assert err.value.line == len(lines)
    verdict = verify_output("\n".join(lines), PILES, WORDS)
    assert verdict.line == len(lines) and not verdict.valid


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
def test_input_reads_any_line_end(end):
    assert read_input(end.join(PILES) + end) == PILES
    assert read_input(end.join(p.lower() for p in PILES)) == PILES


@pytest.mark.parametrize("text,line", [
    ("A" * 66 + "\n" + "B" * 66 + "\n", 3),
    ("A" * 66 + "\n" + "B" * 65 + "\n" + "C" * 66, 2),
    ("A" * 66 + "\n" + "B" * 66 + "\n" + "C" * 65 + "1", 3),
    ("A" * 66 + "\n" + "B" * 66 + "\n" + "C" * 66 + "\nD", 4),
    ("", 1),
])
def test_bad_input_names_its_line(text, line):
    with pytest.raises(RecordFormatError) as err:
        read_input(text, "input.txt")
    assert err.value.line == line and "input.txt" in str(err.value)


def test_seconds():
    assert read_seconds("300\r\n") == 300 and read_seconds("2.5") == 2.5
    for bad in ("", "abc", "-3", "1\n2"):
        with pytest.raises(RecordFormatError):
            read_seconds(bad)


def test_output_replays_step_by_step(tmp_path):
    path = tmp_path / "output.txt"
    path.write_text(written())
    (tmp_path / "input.txt").write_text("\n".join(PILES) + "\n")
    reader = READERS[0]
    assert reader.sniff(written(), str(path))
    replay = reader.read(written(), str(path))
    assert [t.moves[0] for t in replay.turns] == ["draw 1 CAT", "play I9 across CAT", "draw 1 NO",
                                                  "play J10 across NO", "stop"]
    assert replay.states[2].total == 27 and replay.outcome.scores == (50.0,)
    assert replay.header["claimed"] == 50 and replay.states[0].piles[0] == PILES[0]


def test_replay_without_input_rebuilds_piles_and_stops_at_a_bad_line():
    text, line = replace_line(written(), "play J10 across NO 9 (AN 8) (TO 6) = 23",
                              "play J10 across NO 9 (AN 8) (TO 6) = 99")
    replay = replay_output(text, "output.txt")
    assert replay.states[0].piles[0].startswith("CATNO?")
    assert len(replay.states) == 5                # start, 3 valid steps, the verdict
    assert replay.outcome.reason.value == "bad-file" and f"line {line}" in replay.outcome.detail
    with pytest.raises(RecordFormatError):
        replay_output("x\n", "output.txt")


def test_mangled_files_give_a_verdict_or_a_record_format_error():
    import random
    rng = random.Random(5)
    base = written()
    alphabet = "ACNOTX.0123456789 -+=()#\n\r\tplaydrwsciou\xe9\u0663"
    for _ in range(400):
        text = list(base)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(text))
            choice = rng.random()
            if choice < 0.4:
                del text[i]
            elif choice < 0.8:
                text.insert(i, rng.choice(alphabet))
            else:
                text[i] = rng.choice(alphabet)
        mangled = "".join(text)
        verdict = verify_output(mangled, PILES, WORDS)
        assert verdict.valid or (verdict.line and verdict.reason)
        try:
            replay_output(mangled, "output.txt", PILES, WORDS)
        except RecordFormatError as exc:
            assert exc.line and exc.path == "output.txt"


def test_a_replay_is_written_back_as_input_and_output(tmp_path):
    from games.crosswords.records import write_contest_records
    replay = replay_output(written(), str(tmp_path / "game.txt"), PILES, WORDS)
    in_path, out_path = write_contest_records(replay, tmp_path / "out")
    assert read_input(open(in_path).read()) == PILES
    text = open(out_path).read()
    assert text == written() and verify_output(text, PILES, WORDS).text() == "VALID 50"
