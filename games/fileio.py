"""Small file utilities that the games, the runner and the shell all use.

A low module: it imports only the standard library, so any layer may import it
(the rules excepted, which touch no files).  Running programs is
:mod:`runner.process`'s business; writing and tidying files is this module's.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Sequence


def atomic_write(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write a temporary file in the same folder, then rename it over ``path``."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "w", encoding=encoding, newline="") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def snapshot_files(folder: Path) -> set[Path]:
    """Every file under ``folder`` now (to delete what a program adds, as Robot's judge must)."""
    return {p for p in Path(folder).rglob("*") if p.is_file()}


def remove_new_files(folder: Path, before: set[Path], keep: Sequence[str]) -> list[str]:
    """Delete files created since ``before`` except those named in ``keep``; return their names."""
    folder = Path(folder)
    kept = {k.upper() for k in keep}
    removed = []
    for path in sorted(snapshot_files(folder) - before):
        if path.name.upper() in kept:
            continue
        try:
            path.unlink()
            removed.append(str(path.relative_to(folder)))
        except OSError:
            pass
    return removed
