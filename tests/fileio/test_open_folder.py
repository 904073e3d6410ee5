"""games.fileio.OpenFolder: a seat's folder opened once per judge step, with the same
guarantees as the one-file helpers: links never followed (out of the folder or into a
sub-folder), FIFOs never waited on, nothing read past its limit, new files found in
sub-folders too and deleted without touching anything outside."""
import os
import threading

import pytest

from games.fileio import OpenFolder, UnsafeFileError, snapshot_files

posix_only = pytest.mark.skipif(os.name != "posix", reason="links and FIFOs as POSIX has them")


@pytest.fixture
def seat(tmp_path):
    """A seat folder beside a folder of the user's that a program must never reach."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("the user's file\n")
    folder = tmp_path / "seat"
    folder.mkdir()
    return folder, outside


def test_reads_up_to_one_byte_past_the_limit(seat):
    folder, _ = seat
    (folder / "MOVE.OUT").write_bytes(b"x" * 100)
    with OpenFolder(folder) as opened:
        assert opened.read("MOVE.OUT", 10) == b"x" * 11
        assert opened.read("MOVE.OUT", 1000) == b"x" * 100
        with pytest.raises(FileNotFoundError):
            opened.read("ABSENT", 10)


@posix_only
def test_a_link_a_fifo_or_a_folder_is_never_read(seat):
    folder, outside = seat
    (folder / "LINK").symlink_to(outside / "secret.txt")
    os.mkfifo(folder / "FIFO")                  # opened for reading, it would wait for a writer
    (folder / "DIR").mkdir()
    result = {}

    def read_all():
        with OpenFolder(folder) as opened:
            for name in ("LINK", "FIFO", "DIR"):
                with pytest.raises(UnsafeFileError):
                    opened.read(name, 100)
            result["done"] = True
    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    reader.join(5)
    assert result == {"done": True}


def test_a_name_with_a_folder_or_dots_is_refused(seat):
    folder, _ = seat
    with OpenFolder(folder) as opened:
        for name in ("../outside/secret.txt", "..", ".", ""):
            with pytest.raises(UnsafeFileError):
                opened.read(name, 100)
            with pytest.raises(UnsafeFileError):
                opened.remove(name)


@posix_only
def test_entries_match_snapshot_files_and_never_follow_a_link(seat):
    folder, outside = seat
    (folder / "MAP.INP").write_text("m")
    (folder / "dict").mkdir()
    (folder / "dict" / "words.txt").write_text("w")
    (folder / "dict" / "deeper").mkdir()
    (folder / "dict" / "deeper" / "x").write_text("x")
    (folder / "to_outside").symlink_to(outside)          # a link to a folder: an entry, not walked
    os.mkfifo(folder / "FIFO")
    with OpenFolder(folder) as opened:
        found = opened.entries()
    assert found == {"MAP.INP", "dict/words.txt", "dict/deeper/x", "to_outside", "FIFO"}
    assert found == {str(path.relative_to(folder)) for path in snapshot_files(folder)}


@posix_only
def test_new_entries_are_deleted_but_kept_names_and_the_outside_are_not(seat):
    folder, outside = seat
    (folder / "MAP.INP").write_text("m")
    with OpenFolder(folder) as opened:
        before = opened.entries()
        (folder / "STATE.DAT").write_text("memory")
        (folder / "MOVE.OUT").write_text("3 4\n")
        (folder / "junk.tmp").write_text("junk")
        (folder / "sub").mkdir()
        (folder / "sub" / "state.dat").write_text("a kept name in a sub-folder")
        (folder / "sub" / "made.txt").write_text("made")
        (folder / "escape").symlink_to(outside / "secret.txt")
        removed, left = opened.remove_new(before, ("STATE.DAT", "MOVE.OUT"))
    assert removed == ["escape", "junk.tmp", "sub/made.txt"]
    assert left == {"MAP.INP", "STATE.DAT", "MOVE.OUT", "sub/state.dat"}
    assert (outside / "secret.txt").read_text() == "the user's file\n"
    assert left == {str(path.relative_to(folder)) for path in snapshot_files(folder)}


@posix_only
def test_a_sub_folder_swapped_for_a_link_is_not_walked_into(seat, monkeypatch):
    """A program that replaces a listed sub-folder by a link to the user's folder
    between the listing and the deletion gets nothing deleted there."""
    folder, outside = seat
    (folder / "sub").mkdir()
    with OpenFolder(folder) as opened:
        before = opened.entries()
        (folder / "sub" / "secret.txt").write_text("the program's")
        real_entries = opened.entries

        def entries_then_swap():
            found = real_entries()
            (folder / "sub" / "secret.txt").unlink()
            (folder / "sub").rmdir()
            (folder / "sub").symlink_to(outside)
            return found
        monkeypatch.setattr(opened, "entries", entries_then_swap)
        removed, _ = opened.remove_new(before, ())
    assert removed == []
    assert (outside / "secret.txt").read_text() == "the user's file\n"


def test_refill_removes_answers_and_writes_inputs_through_one_descriptor(seat):
    folder, _ = seat
    (folder / "MOVE.OUT").write_text("old answer")
    (folder / "DEBUG.OUT").mkdir()
    with OpenFolder(folder) as opened:
        opened.refill(("MOVE.OUT", "DEBUG.OUT"), {"MAP.INP": b"turn 1\n", "dict/a.txt": b"w\n"})
    assert sorted(p.name for p in folder.iterdir()) == ["MAP.INP", "dict"]
    assert (folder / "dict" / "a.txt").read_bytes() == b"w\n"
