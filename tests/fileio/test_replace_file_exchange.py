"""``replace_file`` swaps a new file into place (Linux ``renameat2(RENAME_EXCHANGE)``)
instead of renaming it over the old one: on ext4 a rename over an existing file starts
writing the new file to disk (auto_da_alloc), milliseconds on the Xiangqi relay path."""
import os
import sys

import pytest

from games import fileio
from games.fileio import replace_file

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")


def no_rename_over(monkeypatch):
    """Make a plain rename over the target fail: only the exchange can succeed."""
    def refuse(*args, **kwargs):
        raise AssertionError("renamed over the old file instead of swapping it")
    monkeypatch.setattr(fileio.os, "replace", refuse)


@linux_only
@pytest.mark.parametrize("old", ["file", "link", "folder", "fifo"])
def test_whatever_is_in_the_way_is_swapped_out_and_removed(tmp_path, monkeypatch, old):
    outside = tmp_path / "outside.txt"
    outside.write_text("the user's file")
    seat = tmp_path / "seat"
    seat.mkdir()
    target = seat / "M2.DAT"
    if old == "file":
        target.write_text("A0A1\r\n-1\r\n-1\r\n")
    elif old == "link":
        target.symlink_to(outside)
    elif old == "folder":
        (target / "inside").mkdir(parents=True)
    else:
        os.mkfifo(target)
    no_rename_over(monkeypatch)
    replace_file(seat, "M2.DAT", "H2E2\r\n-1\r\n-1\r\n")
    assert target.is_file() and not target.is_symlink()
    assert target.read_bytes() == b"H2E2\r\n-1\r\n-1\r\n"
    assert outside.read_text() == "the user's file"            # a link is never written through
    assert sorted(p.name for p in seat.iterdir()) == ["M2.DAT"]  # the old entry is gone


def test_a_new_file_is_renamed_into_place(tmp_path):
    """Nothing to swap with: the usual rename (no file there, so no writing starts)."""
    replace_file(tmp_path, "M1.DAT", "A0A1\r\n")
    assert (tmp_path / "M1.DAT").read_bytes() == b"A0A1\r\n"
    assert [p.name for p in tmp_path.iterdir()] == ["M1.DAT"]


def test_without_the_exchange_the_old_file_is_renamed_over(tmp_path, monkeypatch):
    """Other systems (or an old libc): the rename over the old file, as before."""
    monkeypatch.setattr(fileio, "_renameat2", False)
    (tmp_path / "M1.DAT").write_text("old")
    replace_file(tmp_path, "M1.DAT", "new")
    assert (tmp_path / "M1.DAT").read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["M1.DAT"]
