"""What of a program's own files a sandbox shows (the folder of each file its command
names, a virtual environment whole, a file alone in a broad folder), the program found
on the arena's PATH, and the seat folder handed to the seat's own uid.  Part of
:mod:`runner.sandbox`; nothing here imports pygame.
"""
from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Sequence

#: Folders too broad to expose because a program's file is in them: only the file is bound.
_BROAD = {"/", "/tmp", "/var/tmp", "/home", "/root", "/work", "/usr", "/usr/bin",
          "/usr/local/bin", "/bin", "/opt", "/srv", "/mnt", "/media"}


def _unreadable_by_others(paths: Sequence[Path], search_only: bool = False) -> str:
    """The first folder on the way to one of ``paths`` (or among them) that users other
    than its owner cannot search, or the first file they cannot read (``search_only``:
    search), or "" (parts that do not exist yet are passed over: the arena makes them,
    open to others)."""
    for path in paths:
        real = path.resolve()
        for part in [*reversed(real.parents), real]:
            try:
                mode = part.stat().st_mode
            except OSError:
                continue
            if part != real or search_only or stat.S_ISDIR(mode):
                if mode & 0o001 == 0:
                    return str(part)
            elif mode & 0o004 == 0:
                return str(part)
    return ""


def _hand_over(folder: Path, uid: int) -> None:
    """Give the seat's folder to ``uid`` (permissions 0700: no other seat may enter it),
    with what the arena put in it (the referee's first files); a hard link (which
    could be another's file) and a symbolic link are never handed over."""
    me = os.geteuid()
    os.chown(folder, uid, uid)
    os.chmod(folder, 0o700)
    for base, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(base, name)
            try:
                info = os.lstat(path)
                if info.st_uid == me and (stat.S_ISDIR(info.st_mode)
                                          or (stat.S_ISREG(info.st_mode) and info.st_nlink == 1)):
                    os.lchown(path, uid, uid)
            except OSError:
                pass


def _which(program: str) -> str:
    """A bare program name resolved on the arena's PATH (the program's own PATH is scrubbed).

    A version manager's shim (pyenv's ``~/.pyenv/shims/python3``) is a script that runs
    the manager, which the sandbox does not show: the real program it stands for is used.
    """
    if os.sep in program or (os.altsep and os.altsep in program):
        return program
    found = shutil.which(program) or program
    return _unshim(program, found)


@functools.lru_cache(maxsize=64)
def _unshim(program: str, found: str) -> str:
    """The program behind a pyenv shim (``pyenv which NAME``), else ``found`` itself."""
    if f"{os.sep}shims{os.sep}" not in found or not shutil.which("pyenv"):
        return found
    try:
        real = subprocess.run(["pyenv", "which", program], capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return found
    return real if real and os.path.isfile(real) else found


def _program_paths(argv: Sequence[str], other_uid: bool = False) -> list[Path]:
    """What of the program's own files to show: the folder of each file the command
    names (a virtual environment whole), or the file alone when its folder is broad
    (or, for a program running as another uid, closed to others)."""
    shown: list[Path] = []
    for index, arg in enumerate(argv):
        if not os.path.isabs(arg) or not os.path.exists(arg):
            continue
        path = Path(arg)
        for candidate in (path, path.resolve()):
            venv = candidate.parent.parent
            if (venv / "pyvenv.cfg").is_file() and candidate.parent.name in ("bin", "Scripts"):
                shown.append(venv)
                continue
            parent = candidate.parent
            if index == 0 and parent.name == "bin" and str(venv) not in _BROAD \
                    and venv != Path.home() and len(venv.parts) > 2:
                parent = venv          # an interpreter's installation: its libraries too
            broad = str(parent) in _BROAD or parent == Path.home() or len(parent.parts) <= 2
            if other_uid and not broad:
                try:
                    broad = parent.stat().st_mode & 0o005 != 0o005
                except OSError:
                    broad = True
            shown.append(candidate if broad or candidate.is_dir() else parent)
    return list(dict.fromkeys(shown))


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False
