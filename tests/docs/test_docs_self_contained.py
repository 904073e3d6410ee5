"""The project's documents are self-contained: a user has only the repository.

No Markdown file under ``games/`` (nor the README), and no comment or string literal
(docstrings included) in the Python under ``games/``, ``runner/``, ``ui/`` and
``main.py`` may send the reader to a document outside the repository: the RULEBOOK,
the shared folder or the contest statements' folder.  Each game's rules are stated in
full in its own ``games/<game>/RULES.md``.
"""
from __future__ import annotations

import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"(?i:rulebook)|shared/|specs/")
PY_PLACES = ("games", "runner", "ui", "main.py")
SKIP_DIRS = {".git", ".venv", "venv", "build", "dist", "__pycache__", "node_modules"}


def tracked_files() -> list[Path]:
    """The repository's tracked files (every file on disk when git is not at hand)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True, timeout=60).stdout
        names = [n for n in out.decode("utf-8", "replace").split("\0") if n]
        if names:
            return [ROOT / n for n in names if (ROOT / n).is_file()]
    except (OSError, subprocess.SubprocessError):
        pass
    return [p for p in ROOT.rglob("*")
            if p.is_file() and not SKIP_DIRS.intersection(p.relative_to(ROOT).parts)]


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def markdown_hits(paths) -> list[str]:
    hits = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{relative(path)}:{number}: {line.strip()}")
    return hits


def python_hits(path: Path) -> list[str]:
    """Comments and string literals (docstrings included) of one file that cite outside."""
    hits = []
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.COMMENT, tokenize.STRING):
            continue
        for offset, line in enumerate(token.string.splitlines()):
            if OUTSIDE.search(line):
                hits.append(f"{relative(path)}:{token.start[0] + offset}: {line.strip()}")
    return hits


def game_markdown() -> list[Path]:
    return sorted(p for p in tracked_files()
                  if p.suffix == ".md" and relative(p).startswith("games/"))


def project_python() -> list[Path]:
    found = []
    for path in tracked_files():
        name = relative(path)
        if path.suffix == ".py" and any(name == place or name.startswith(place + "/")
                                        for place in PY_PLACES):
            found.append(path)
    return sorted(found)


def test_the_scan_sees_the_files_it_checks():
    names = {relative(p) for p in game_markdown()}
    for game in ("hex", "xiangqi", "robot"):
        assert f"games/{game}/RULES.md" in names
    assert any(relative(p) == "main.py" for p in project_python())
    assert markdown_hits([]) == []
    assert OUTSIDE.search("see the RULEBOOK") and OUTSIDE.search("/work/shared/specs/x.txt")
    assert not OUTSIDE.search("rules, rulings and the shared clock")


def test_game_documents_cite_nothing_outside_the_repository():
    hits = markdown_hits(game_markdown())
    assert not hits, "Markdown under games/ refers outside the repository:\n" + "\n".join(hits)


def test_readme_cites_nothing_outside_the_repository():
    hits = markdown_hits([ROOT / "README.md"])
    assert not hits, "README.md refers outside the repository:\n" + "\n".join(hits)


def test_python_comments_and_docstrings_cite_nothing_outside_the_repository():
    hits = [hit for path in project_python() for hit in python_hits(path)]
    assert not hits, ("comments or docstrings refer outside the repository:\n"
                      + "\n".join(hits))
