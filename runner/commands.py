"""Whether a program seat's command can start, asked before the match does.

The New match form and ``arena match`` both say at once that ``./my_bot`` does not
exist, rather than the match starting and the seat losing its first turn.  Words are
read the way :func:`runner.process.resolve_command` reads them: the first word is a
file when it names a path (``./bot``, ``bin/bot``), else a program on ``PATH``; a
script given to an interpreter (``python3 bot.py``) must exist too.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from runner.i18n import _
from runner.process import split_command

#: Interpreters whose first plain argument is the script they run.
INTERPRETERS = {"python", "python3", "pythonw", "py", "pypy", "pypy3", "node", "ruby", "perl",
                "bash", "sh", "php", "lua"}


def command_problem(command: str, base: str | Path | None = None) -> str:
    """Why ``command`` cannot start (one sentence), or "" when it looks runnable."""
    base = Path(base) if base is not None else Path.cwd()
    try:
        argv = split_command(command)
    except ValueError as exc:          # an unclosed quote, or nothing at all
        return _("the command {command!r} cannot be read ({error})").format(command=command.strip(), error=exc)
    program = argv[0]
    if os.path.isabs(program) or "/" in program or os.sep in program:
        path = base / program
        if not path.exists():
            return _("{program}: no such file").format(program=program)
        if path.is_dir():
            return _("{program} is a folder, not a program").format(program=program)
        if os.name != "nt" and not os.access(path, os.X_OK):
            return _("{program} is not executable (chmod +x {program}, or run it with its interpreter)").format(
                program=program)
    elif shutil.which(program) is None:
        here = base / program
        if here.is_file():
            return _("{program} is not on PATH; for the file in this folder write ./{program}").format(program=program)
        return _("{program}: no such program (not a file here, nor on PATH)").format(program=program)
    name = Path(program).name.lower()
    name = name[:-4] if name.endswith(".exe") else name
    if name in INTERPRETERS or name.startswith("python3."):
        script = next((a for a in argv[1:] if not a.startswith("-")), None)
        if script and Path(script).suffix and not (base / script).exists():
            return _("{script}: no such file (given to {program})").format(script=script, program=program)
    return ""
