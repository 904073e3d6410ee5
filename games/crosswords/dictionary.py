"""Where the words come from: the contest's folder of 26 files, or the built-in list.

* A contest dictionary is a folder of 26 files, one per initial letter, one word a
  line, with CR, LF or CR LF line ends (any file name; every word of every file counts).
* The built-in dictionary is the ``web2`` list (Webster's Second International, public
  domain) of the ``english-words`` package (MIT): its lower-case words only, which
  leaves out proper nouns, of letters ``a``-``z`` and 2 to 12 letters long.

Either becomes a :class:`~games.crosswords.lexicon.Lexicon`, built once and kept under
the user data folder (``words/``) keyed by the source's content hash, so a later
start loads it in milliseconds.  ``load_dictionary("")`` is the built-in one.

A program seat runs with its own folder as its home, where no cache is yet: the arena
hands it the word graphs it already built (:func:`shared_files`) as read-only files
named in the ``ARENA_WORDS`` environment variable, which this module reads before
building anything, so a program such as ``arena crosswords solve`` never builds the
cache within its time limit.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Iterable

from games.api import GameSetupError, Message
from games.crosswords.lexicon import Lexicon
from games.crosswords.rules import MAX_WORD, MIN_WORD, CrosswordsGame

BUILTIN_PACKAGE = "english-words"
BUILTIN_SOURCE = "web2"
_WORD = re.compile(r"[a-z]{%d,%d}" % (MIN_WORD, MAX_WORD))
_LOADED: dict[str, Lexicon] = {}
#: Prebuilt word graphs to read before building one (``os.pathsep`` between files,
#: each named ``<key>.dawg`` as in the cache folder); set by the arena for its programs.
WORDS_ENV = "ARENA_WORDS"
_FOLDER_KEYS: dict[int, tuple[Lexicon, str]] = {}


def clean_words(words: Iterable[str]) -> list[str]:
    """Lower-case words of ``a``-``z`` only, 2 to 12 letters, sorted and unique."""
    return sorted({w for w in words if _WORD.fullmatch(w)})


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` whatever its line ends (CR, LF or CR LF)."""
    return [line.strip() for line in re.split(r"\r\n|\r|\n", text)]


def read_folder_words(folder: str | Path) -> list[str]:
    """Every word of a contest dictionary folder, lower-cased and cleaned."""
    path = Path(folder)
    if not path.is_dir():
        raise GameSetupError(Message("dictionary {folder}: not a folder of word files", folder=str(folder)))
    words: list[str] = []
    files = sorted(p for p in path.iterdir() if p.is_file())
    if not files:
        raise GameSetupError(Message("dictionary {folder}: the folder holds no files", folder=str(folder)))
    for file in files:
        try:
            text = file.read_bytes().decode("latin-1")
        except OSError as exc:
            raise GameSetupError(Message("dictionary {folder}: {error}", folder=str(file),
                                         error=str(exc.strerror))) from None
        words.extend(line.lower() for line in split_lines(text))
    cleaned = clean_words(words)
    if not cleaned:
        raise GameSetupError(Message("dictionary {folder}: no words of 2 to 12 letters a-z", folder=str(folder)))
    return cleaned


def builtin_words() -> list[str]:
    """The built-in list, cleaned (needs the ``english-words`` package)."""
    try:
        from english_words import get_english_words_set
    except ImportError:
        raise GameSetupError(Message("the built-in dictionary needs the {package} package "
                                     "(pip install english-words), or give a dictionary folder",
                                     package=BUILTIN_PACKAGE)) from None
    return clean_words(get_english_words_set([BUILTIN_SOURCE]))


def _builtin_key() -> str:
    try:
        from importlib.metadata import version
        return f"builtin-{BUILTIN_SOURCE}-{version(BUILTIN_PACKAGE)}"
    except Exception:
        return f"builtin-{BUILTIN_SOURCE}"


def _cache_dir() -> Path:
    from runner.paths import data_dir
    return data_dir() / "words"


def _shared_candidates(key: str) -> list[Path]:
    """The files of ``ARENA_WORDS`` named for ``key``."""
    listed = os.environ.get(WORDS_ENV, "")
    return [Path(p) for p in listed.split(os.pathsep) if p and Path(p).name == f"{key}.dawg"]


def _cached(key: str, build) -> Lexicon:
    found = _LOADED.get(key)
    if found is not None:
        return found
    path = _cache_dir() / f"{key}.dawg"
    lex = None
    for candidate in [*_shared_candidates(key), path]:
        try:
            lex = Lexicon.from_bytes(candidate.read_bytes())
            break
        except (OSError, ValueError):
            pass
    if lex is None:
        lex = Lexicon.from_words(build())
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temp = path.with_suffix(f".{os.getpid()}.tmp")
            temp.write_bytes(lex.to_bytes())
            os.replace(temp, path)
        except OSError:
            pass                      # a read-only data folder only costs start-up time
    _LOADED[key] = lex
    return lex


def load_dictionary(folder: str | Path | None = "") -> Lexicon:
    """The word graph of a contest folder, of the words themselves (one a line, as a
    record keeps a folder's content), or of the built-in list for ``""``/None."""
    if not folder:
        return _cached(_builtin_key(), builtin_words)
    if isinstance(folder, str) and "\n" in folder:
        words = clean_words(folder.split())
        digest = hashlib.sha256("\n".join(words).encode()).hexdigest()[:24]
        return _cached(f"folder-{digest}", lambda: words)
    words = read_folder_words(folder)
    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()[:24]
    return _cached(f"folder-{digest}", lambda: words)


def _folder_key(lex: Lexicon) -> str:
    """The cache key a program computes from ``lex``'s words given as a folder of files
    (``--dict dictionary``): the content hash of the sorted words."""
    held = _FOLDER_KEYS.get(id(lex))
    if held is None or held[0] is not lex:
        digest = hashlib.sha256("\n".join(lex.words()).encode()).hexdigest()[:24]
        held = _FOLDER_KEYS[id(lex)] = (lex, f"folder-{digest}")
    return held[1]


def shared_files(lex: Lexicon) -> list[Path]:
    """The cache files a program may read instead of building ``lex`` itself (see
    ``ARENA_WORDS``): one under the key it was loaded by (the built-in list's) and one
    under the key of its words as a folder (the ``dictionary/`` files a program is
    given), written now where missing; none when the cache folder cannot be written."""
    keys = [key for key, loaded in _LOADED.items() if loaded is lex]
    keys.append(_folder_key(lex))
    files = []
    for key in dict.fromkeys(keys):
        path = _cache_dir() / f"{key}.dawg"
        if not path.is_file():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                temp = path.with_suffix(f".{os.getpid()}.tmp")
                temp.write_bytes(lex.to_bytes())
                os.replace(temp, path)
            except OSError:
                continue
        files.append(path)
    return files


def write_folder(words: Iterable[str], folder: str | Path, line_end: str = "\n") -> Path:
    """Write ``words`` as a contest dictionary: 26 files ``a.txt`` ... ``z.txt``."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    by_letter: dict[str, list[str]] = {chr(97 + i): [] for i in range(26)}
    for w in sorted(words):
        by_letter[w[0]].append(w)
    for letter, group in by_letter.items():
        (path / f"{letter}.txt").write_bytes("".join(w + line_end for w in group).encode("ascii"))
    return path


class ArenaCrosswordsGame(CrosswordsGame):
    """The game as the arena plays it: the ``dictionary`` option names a contest
    folder, or is empty for the built-in list."""

    def __init__(self):
        from games.crosswords.movegen import generate
        super().__init__(lexicon_for=load_dictionary, generator=generate)


def load_files(options) -> tuple[dict, dict]:
    """The plugin's ``files`` part (see :mod:`runner.setup`): the letters file becomes its
    text and a dictionary folder its words (one a line), each with its source and
    SHA-256, so a record replays without the files.  The built-in list stays ``""``."""
    from games.api import content_hash
    from runner.setup import read_text_file
    loaded, files = dict(options), {}
    piles = loaded.get("piles")
    if isinstance(piles, str) and piles and "\n" not in piles and os.path.isfile(piles):
        loaded["piles"] = read_text_file(piles)
        files["piles"] = {"source": os.path.abspath(piles), "sha256": content_hash(loaded["piles"])}
    folder = loaded.get("dictionary")
    if isinstance(folder, str) and folder and "\n" not in folder:
        words = read_folder_words(folder)
        loaded["dictionary"] = "\n".join(words) + "\n"
        files["dictionary"] = {"source": os.path.abspath(folder), "words": len(words),
                               "sha256": content_hash(loaded["dictionary"])}
    return loaded, files
