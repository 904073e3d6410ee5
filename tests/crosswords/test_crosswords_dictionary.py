"""Dictionaries: the contest's folder of word files (any line ends) and the word graph."""
import pytest

from games.api import GameSetupError
from games.crosswords.dictionary import clean_words, load_dictionary, read_folder_words, write_folder
from games.crosswords.lexicon import Lexicon


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
def test_folder_with_any_line_end(tmp_path, end):
    folder = write_folder(["apple", "bat", "zebra", "zz"], tmp_path / "d", line_end=end)
    assert sorted(p.name for p in folder.iterdir())[:2] == ["a.txt", "b.txt"]
    assert read_folder_words(folder) == ["apple", "bat", "zebra", "zz"]
    lex = load_dictionary(folder)
    assert "zebra" in lex and "ZEBRA" in lex and "zeb" not in lex and lex.has_prefix("zeb")


def test_words_are_cleaned_like_the_contest_list():
    assert clean_words(["Cat", "dog", "a", "it's", "abcdefghijklm", "abcdefghijkl", "naïve", "ox"]) == \
        ["abcdefghijkl", "dog", "ox"]


def test_missing_or_empty_folder_is_a_setup_error(tmp_path):
    with pytest.raises(GameSetupError):
        load_dictionary(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(GameSetupError):
        load_dictionary(tmp_path / "empty")


def test_word_graph_is_minimal_and_round_trips():
    words = ["cat", "cats", "bat", "bats", "rat", "rats"]
    lex = Lexicon.from_words(words)
    # shared suffixes: root, {c,b,r} -> one "a" node -> "t" (final) -> "s" (final)
    assert len(lex.mask) == 5
    again = Lexicon.from_bytes(lex.to_bytes())
    assert list(again.words()) == sorted(words) and len(again) == 6
    with pytest.raises(ValueError):
        Lexicon.from_bytes(b"not a graph")


def test_cache_is_written_once_and_reused(tmp_path, arena_home):
    folder = write_folder(["alpha", "beta"], tmp_path / "d")
    load_dictionary(folder)
    cached = list((arena_home / "words").glob("*.dawg"))
    assert len(cached) == 1


def test_a_record_keeps_its_dictionary_and_letters_and_opens_without_them(tmp_path):
    """Options naming files are kept by content (with a hash): the record replays after the
    dictionary folder and the letters file are gone."""
    import json
    import shutil
    from games import registry
    from games.crosswords.dictionary import builtin_words
    from runner.match import Match
    from runner.records import open_replay
    from runner.seats import make_seat
    words = [w for w in builtin_words() if len(w) <= 5][:20000]
    folder = write_folder(words, tmp_path / "dict")
    piles = tmp_path / "input.txt"
    piles.write_text("\n".join(("ETAOINSHRDLU" * 6)[:66] for _ in range(3)) + "\n")
    plugin = registry.plugin("crosswords")
    record = tmp_path / "cw.arena.jsonl"
    Match(plugin, {"dictionary": str(folder), "piles": str(piles)}, [make_seat("bot:1", plugin, 1)],
          seed=1, record_path=record).run()
    header = json.loads(record.read_text().splitlines()[0])
    assert header["files"]["dictionary"]["words"] == len(set(words))
    assert len(header["files"]["dictionary"]["sha256"]) == 64 and header["options"]["piles"].startswith("ETAO")
    before = open_replay(record)
    shutil.rmtree(folder)
    piles.unlink()
    after = open_replay(record)
    assert len(after.turns) == len(before.turns) > 1 and after.outcome == before.outcome
