"""games.fileio.refill_folder: a judge's per-turn input files, written with the folder
opened once, the arena's own file rewritten in place, and whatever a program left in
their place (a link, hard link, FIFO, folder) replaced, never written through."""
import os
import stat

import pytest

from games.fileio import refill_folder

posix_only = pytest.mark.skipif(os.name != "posix", reason="links and FIFOs as POSIX has them")


def test_inputs_are_written_and_stale_answers_removed(tmp_path):
    (tmp_path / "MOVE.OUT").write_text("1 1\n")
    (tmp_path / "DEBUG.OUT").mkdir()                 # a folder in a file's place
    refill_folder(tmp_path, ("MOVE.OUT", "DEBUG.OUT", "ABSENT"), {"MAP.INP": b"turn 1\n"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MAP.INP"]
    assert (tmp_path / "MAP.INP").read_bytes() == b"turn 1\n"


def test_the_arenas_own_file_is_rewritten_in_place_shorter_or_longer(tmp_path):
    refill_folder(tmp_path, (), {"MAP.INP": b"a long first input\n"})
    inode = (tmp_path / "MAP.INP").stat().st_ino
    refill_folder(tmp_path, (), {"MAP.INP": b"short\n"})
    assert (tmp_path / "MAP.INP").read_bytes() == b"short\n"
    refill_folder(tmp_path, (), {"MAP.INP": b"longer than before\n"})
    assert (tmp_path / "MAP.INP").read_bytes() == b"longer than before\n"
    assert (tmp_path / "MAP.INP").stat().st_ino == inode


@posix_only
@pytest.mark.parametrize("kind", ["symlink", "hardlink", "fifo", "folder", "readonly"])
def test_what_a_program_put_in_an_inputs_place_is_replaced_not_written_through(tmp_path, kind):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    folder = tmp_path / "seat"
    folder.mkdir()
    target = folder / "MAP.INP"
    if kind == "symlink":
        target.symlink_to(outside)
    elif kind == "hardlink":
        os.link(outside, target)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
        (target / "inside").write_text("x")
    else:
        target.write_text("old\n")
        target.chmod(0o444)
    refill_folder(folder, (), {"MAP.INP": b"turn 2\n"})
    assert outside.read_text() == "precious\n"
    assert not target.is_symlink() and stat.S_ISREG(target.stat().st_mode)
    assert target.read_bytes() == b"turn 2\n" and target.stat().st_nlink == 1
    assert stat.S_IMODE(target.stat().st_mode) == 0o666      # writable by the program


def test_a_name_in_a_sub_folder_is_written_too(tmp_path):
    refill_folder(tmp_path, ("dict/old.txt",), {"dict/a.txt": b"words\n", "top.txt": b"t\n"})
    assert (tmp_path / "dict" / "a.txt").read_bytes() == b"words\n"
    assert (tmp_path / "top.txt").read_bytes() == b"t\n"
