"""Getting a match's options ready: files named by options are read here, once.

The rules never read files.  An option that names a file (a Robot map, Crossed Words'
letters or dictionary) is replaced by the file's content before the game starts, and
the record keeps that content (with where it came from and its SHA-256), so a record
still opens after the file is moved or deleted.
"""
from __future__ import annotations

import os
from typing import Any, Mapping

from games.api import Game, GameSetupError, content_hash
from games.registry import GamePlugin


def load_option_files(plugin: GamePlugin, game: Game,
                      options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict]]:
    """The options with file content in place of file names, and per file option
    ``{"source": ..., "sha256": ...}``.

    A game with its own way of naming files (Robot: a shipped map's name or a path)
    declares a ``files`` part; otherwise every :attr:`games.api.Option.file` option
    whose value is an existing file's path is read as UTF-8 text.
    """
    if plugin.files:
        return plugin.load("files")(options)
    loaded, files = dict(options), {}
    for option in game.spec.file_options():
        value = loaded.get(option.name)
        if isinstance(value, str) and value and "\n" not in value and os.path.isfile(value):
            loaded[option.name] = read_text_file(value)
            files[option.name] = {"source": os.path.abspath(value),
                                  "sha256": content_hash(loaded[option.name])}
    return loaded, files


def read_text_file(path: str) -> str:
    """A file named by an option, as text; a clear error when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError as exc:
        raise GameSetupError(f"{path}: {exc.strerror or exc}") from None
