"""A contestant's program as a seat: run once for the whole game, then replayed.

On the first question the seat fills the program's folder with ``input.txt`` (the
three piles), ``seconds.txt`` (the limit) and ``dictionary/`` (26 files ``a.txt`` ...
``z.txt``, LF line ends: the match's word list), removes any old ``output.txt``, runs
the program there once and kills it at the limit (plus a small grace).  Its
``output.txt`` is verified against the piles and the words; afterwards each question
is answered with the next valid step, so the match, its record and the replay step
through the game line by line.  After the last valid step the seat answers ``stop``
when the file was valid, or fails with ``bad-file`` naming the first wrong line (the
steps before it stand).  The score the file claims on line 1 is kept beside the
verified one in the answers' notes.

Limits (all optional): ``seconds`` (default: the game's ``seconds`` option), ``grace``
(0.5 s), ``memory_mb``, ``folder``.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Mapping

from games.api import Termination
from games.crosswords.dictionary import write_folder
from games.crosswords.files import Verdict, verify_output, write_input
from games.crosswords.rules import STOP, CrosswordsState, format_move
from runner.process import absolute_command, run_once
from runner.seats import Answer, Seat, SeatFolder, SeatInfo

DEFAULT_SECONDS = 10.0
GRACE = 0.5
MAX_OUTPUT_BYTES = 1 << 20


class WholeGameProgramSeat(Seat):
    """An external program that plays the whole game in one run (output.txt)."""

    kind = "ext"

    def __init__(self, spec: str, command: str, workdir: str | None = None,
                 limits: Mapping[str, Any] | None = None):
        super().__init__(spec, label=command)
        self.limits = dict(limits or {})
        self.argv = absolute_command(command, Path.cwd())
        self.workspace = SeatFolder(self.limits, workdir, "crosswords")
        self.folder: Path | None = None
        self.verdict: Verdict | None = None
        self.run_note = ""

    def start(self, info: SeatInfo, state) -> None:
        super().start(info, state)
        self.folder = self.workspace.choose(info)
        self.folder.mkdir(parents=True, exist_ok=True)

    def seconds(self) -> float:
        value = self.limits.get("seconds") or self.info.options.get("seconds") or DEFAULT_SECONDS
        return float(value)

    def ask(self, state: CrosswordsState, seat: int, time_limit: float | None) -> Answer:
        if self.verdict is None:
            return self._run(state)
        index = state.steps
        verdict = self.verdict
        if index < len(verdict.moves):
            return Answer(text=format_move(verdict.moves[index]),
                          answered=f"output.txt line {verdict.lines[index]}")
        if verdict.valid:
            return Answer(text=format_move(STOP), notes=[self._claim_note()])
        return Answer(failure=Termination.BAD_FILE,
                      detail=f"output.txt line {verdict.line}: {verdict.reason}",
                      notes=[self._claim_note()])

    def _claim_note(self) -> str:
        v = self.verdict
        claimed = "nothing readable" if v.claimed is None else str(v.claimed)
        return f"output.txt claims {claimed}; verified {v.score}" + ("" if v.valid else " (up to the fault)")

    def _prepare(self, state: CrosswordsState) -> None:
        folder = self.folder
        (folder / "output.txt").unlink(missing_ok=True)
        (folder / "input.txt").write_text(write_input(state.start_piles), encoding="ascii")
        seconds = self.seconds()
        (folder / "seconds.txt").write_text(f"{seconds:g}\n", encoding="ascii")
        words_dir = folder / "dictionary"
        source = str(self.info.options.get("dictionary", "") or "")
        marker = words_dir / ".arena-source"
        if marker.exists() and marker.read_text(encoding="utf-8") == (source or "builtin"):
            return
        if words_dir.exists():
            shutil.rmtree(words_dir)
        if source and Path(source).is_dir():
            shutil.copytree(source, words_dir)
        else:
            write_folder(state.words.words(), words_dir)      # type: ignore[attr-defined]
        marker.write_text(source or "builtin", encoding="utf-8")

    def _run(self, state: CrosswordsState) -> Answer:
        self._prepare(state)
        seconds = self.seconds()
        result = run_once(self.argv, self.folder, seconds + float(self.limits.get("grace", GRACE)),
                          self.limits.get("memory_mb"))
        answer = Answer(elapsed=result.elapsed, stdout=result.stdout, stderr=result.stderr,
                        given=f"input.txt, seconds.txt ({seconds:g}), dictionary/")
        if result.timed_out or result.crashed:
            self.verdict = Verdict(False, 0, None, None, result.describe())
            answer.failure = Termination.TIMEOUT if result.timed_out else Termination.CRASH
            answer.detail = result.describe()
            return answer
        path = self.folder / "output.txt"
        try:
            raw = path.read_bytes()[:MAX_OUTPUT_BYTES]
        except OSError:
            self.verdict = Verdict(False, 0, None, None, "no output.txt")
            answer.failure, answer.detail = Termination.BAD_FILE, "the program wrote no output.txt"
            return answer
        text = raw.decode("latin-1")
        answer.answered = text[:2000]
        self.verdict = verify_output(text, state.start_piles, state.words, "output.txt")
        answer.notes.append(self._claim_note())
        answer.notes.append(self.verdict.text())
        nested = self.ask(state, 0, None)
        answer.text, answer.failure, answer.detail = nested.text, nested.failure, nested.detail
        return answer

    def close(self) -> None:
        self.workspace.release()

    def describe(self) -> dict:
        data = super().describe()
        data["command"] = self.argv
        return data


def make_external_seat(spec: str, command: str, workdir: str | None = None,
                       limits: Mapping[str, Any] | None = None) -> WholeGameProgramSeat:
    """The plugin's ``external`` factory (``ext:COMMAND`` seats)."""
    return WholeGameProgramSeat(spec, command, workdir, limits)
