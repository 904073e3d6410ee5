"""A contestant's program as a seat: run once for the whole game, then replayed.

Built on the runner's :class:`runner.program_seats.WholeGameSeat`.  Before the run the
program's folder receives ``input.txt`` (the three piles), ``seconds.txt`` (the limit,
the game's ``seconds`` option unless the seat's limits say ``time``) and
``dictionary/`` (the match's word list as 26 files ``a.txt`` ... ``z.txt``, or the
files of the contest folder the ``dictionary`` option names).  The program runs once
and is killed at the limit (plus ``GRACE``).  Its ``output.txt`` is verified against
the piles and the words (:func:`games.crosswords.files.verify_output`); the match then
plays its valid steps one a turn, each answer naming its line, so the record and the
replay step through the game line by line.  A valid file ends with ``stop``; an
invalid one ends, after its valid steps, with a ``bad-file`` verdict naming the first
wrong line and why.  The score claimed on line 1 is kept beside the verified one.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from games.api import Message, MoveSyntaxError, Termination
from games.crosswords.dictionary import WORDS_ENV, shared_files
from games.crosswords.files import Verdict, verify_output, write_input
from games.crosswords.lexicon import Lexicon
from games.crosswords.rules import STOP, format_move
from runner.program_seats import FileProtocol, WholeGameSeat
from games.seat import Answer
from runner.sandbox import STRICT

DEFAULT_SECONDS = 10.0
GRACE = 0.5
MAX_OUTPUT_BYTES = 1 << 20
_WORD_FILES: dict[int, tuple[Any, dict[str, str]]] = {}


def dictionary_files(words, folder: str = "") -> dict[str, str]:
    """The ``dictionary/`` files for a program: a contest folder's files as they are,
    else the word list as 26 files by first letter (built once per word list)."""
    if folder and "\n" not in folder and Path(folder).is_dir():
        return {f"dictionary/{p.name}": p.read_bytes().decode("latin-1")
                for p in sorted(Path(folder).iterdir()) if p.is_file()}
    held = _WORD_FILES.get(id(words))
    if held is None or held[0] is not words:
        groups: dict[str, list[str]] = {chr(97 + i): [] for i in range(26)}
        for w in words.words():
            groups[w[0]].append(w)
        files = {f"dictionary/{k}.txt": "".join(w + "\n" for w in v) for k, v in groups.items()}
        held = _WORD_FILES[id(words)] = (words, files)
    return held[1]


class CrosswordsProgramSeat(WholeGameSeat):
    """An external program that plays the whole game in one run (output.txt)."""

    def __init__(self, spec: str, command: str, limits: Mapping[str, Any] | None = None):
        protocol = FileProtocol(inputs=self._inputs, output="output.txt", parse=self._parse,
                                default_time=DEFAULT_SECONDS, max_output_bytes=MAX_OUTPUT_BYTES,
                                encoding="latin-1")
        super().__init__(spec, command, protocol, limits)
        self.verdict: Verdict | None = None
        self._piles: tuple[str, ...] = ()
        self._words = None

    def seconds(self) -> float:
        value = self.limits.get("time") or self.info.options.get("seconds") or DEFAULT_SECONDS
        return float(value)

    def _inputs(self, state, seat: int) -> dict[str, str]:
        if self._words is not state.words:
            self._share_words(state.words)
        self._piles, self._words = tuple(state.start_piles), state.words
        files = {"input.txt": write_input(state.start_piles),
                 "seconds.txt": f"{self.seconds():g}\n"}
        files.update(dictionary_files(state.words, str(self.info.options.get("dictionary", "") or "")))
        return files

    def _share_words(self, words) -> None:
        """Before the program's clock starts: the match's word graph, built once in the
        arena's cache, shown to the program read-only and named in its ``ARENA_WORDS``,
        so a program that reads the arena's cache (``arena crosswords solve``) does not
        build its own on its clock."""
        if not isinstance(words, Lexicon):
            return
        files = shared_files(words)
        if files and self.sandbox.level != STRICT and _as_root() and not _open_to_all(files):
            return          # the basic sandbox would keep root's uid for a closed file
        if files:
            self.sandbox.read_only += [f for f in files if f not in self.sandbox.read_only]
            self.sandbox.environment[WORDS_ENV] = os.pathsep.join(str(f) for f in files)

    def _parse(self, text: str):
        """output.txt -> its valid steps (each with its line) and the claimed score."""
        verdict = verify_output(text, self._piles, self._words, "output.txt")
        self.verdict = verdict
        moves = [(f"output.txt line {line}", format_move(move))
                 for move, line in zip(verdict.moves, verdict.lines)]
        if verdict.valid:
            moves.append(("output.txt end", format_move(STOP)))
        elif not moves:
            raise MoveSyntaxError(Message("line {line}: {reason}", line=verdict.line, reason=Message.of(verdict.reason)))
        claimed = None if verdict.claimed is None else str(verdict.claimed)
        return moves, claimed

    def ask(self, state, seat: int, time_limit: float | None) -> Answer:
        if self.moves is None:
            limit = self.seconds() + GRACE if time_limit is None else time_limit
            answer = self._first(state, seat, limit)
            if self.verdict is not None:
                answer.notes.append(self.claim_note())
            return answer
        if self._next >= len(self.moves) and self.verdict is not None and not self.verdict.valid:
            return Answer(failure=Termination.BAD_FILE,
                          detail=Message("output.txt line {line}: {reason}", line=self.verdict.line,
                                         reason=Message.of(self.verdict.reason)),
                          claimed=self.claimed, notes=[self.claim_note()])
        return super().ask(state, seat, time_limit)

    def claim_note(self) -> str:
        v = self.verdict
        claimed = Message("nothing readable") if v.claimed is None else str(v.claimed)
        if v.valid:
            return Message("output.txt claims {claimed}; verified {score}", claimed=claimed, score=v.score)
        return Message("output.txt claims {claimed}; verified {score} up to line {line}", claimed=claimed,
                       score=v.score, line=v.line)


def _as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _open_to_all(files) -> bool:
    """Whether every user may read ``files`` (each folder on the way searchable)."""
    for file in files:
        real = Path(file).resolve()
        try:
            if not real.stat().st_mode & 0o004:
                return False
            if any(not p.stat().st_mode & 0o001 for p in real.parents):
                return False
        except OSError:
            return False
    return True


def make_external_seat(spec: str, command: str, limits: Mapping[str, Any] | None = None,
                       **_ignored) -> CrosswordsProgramSeat:
    """The plugin's ``external`` factory (``ext:COMMAND`` seats)."""
    return CrosswordsProgramSeat(spec, command, limits)
