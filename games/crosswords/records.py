"""output.txt as a replay: one step a turn, from the empty board to the last word.

The piles come from ``input.txt`` beside the file (or ``NAME.input.txt`` beside
``NAME.output.txt``, as the arena writes them) when it is there; otherwise they
are rebuilt from the draws themselves (the letters never drawn show as ``?``).
The words are checked against a contest dictionary folder beside the file
(``dictionary/``, ``dict/`` or ``words/``) when there is one; otherwise every word is
taken as written (the scores, draws and placements are still checked: use
``arena crosswords verify`` to check the words too).  A file whose shape is wrong
raises :class:`RecordFormatError`; a wrong step ends the replay there with the
referee's verdict naming the line.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Container

from games.api import ArenaError, Message, Termination
from games.crosswords.files import parse_output, read_input, verify_output
from games.crosswords.rules import PILE_LENGTH, PILES, STOP, CrosswordsState, Draw, format_move
from games.replay import RecordReader, Replay, TurnInfo

_ROW = re.compile(r"[.A-Za-z]{17}")


class AnyWord:
    """A dictionary that takes every word of letters (for replays without one)."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.isascii() and word.isalpha()


def rebuilt_piles(text: str, path: str) -> tuple[str, ...]:
    """Each pile as the letters the file draws from it, then ``?`` up to 66."""
    drawn = [""] * PILES
    for step in parse_output(text, path).steps:
        if isinstance(step.move, Draw):
            drawn[step.move.pile - 1] += step.move.letters
    return tuple((d + "?" * PILE_LENGTH)[:max(PILE_LENGTH, len(d))] for d in drawn)


def _beside(path: str, name: str) -> Path | None:
    try:
        folder = Path(path).resolve().parent
    except OSError:
        return None
    found = folder / name
    return found if found.exists() else None


def replay_output(text: str, path: str, piles=None, words: Container[str] | None = None,
                  note: str = "") -> Replay:
    """The replay of an output.txt against ``piles`` (rebuilt when None) and ``words``."""
    out = parse_output(text, path)          # shape errors raise RecordFormatError
    header = {"claimed": out.total}
    if piles is None:
        piles = rebuilt_piles(text, path)
        header["piles"] = "rebuilt from the draws"
    if words is None:
        words = AnyWord()
        header["words"] = "not checked (no dictionary folder beside the file)"
    if note:
        header["note"] = note
    verdict = verify_output(text, piles, words, path)
    state = CrosswordsState(words, piles)
    states, turns = [state.clone()], []
    for number, move in enumerate(verdict.moves, start=1):
        state.apply({0: move})
        turns.append(TurnInfo(number=number, moves={0: format_move(move)}, events=state.events(),
                              note=f"line {verdict.lines[number - 1]}"))
        states.append(state.clone())
    if not verdict.valid:
        detail = Message("{source} line {line}: {error}", source=Path(path).name, line=verdict.line,
                         error=Message.of(verdict.reason))
        state.forfeit(0, Termination.BAD_FILE, detail)
        turns.append(TurnInfo(number=len(turns) + 1, moves={},
                              forfeits={0: {"reason": Termination.BAD_FILE.value, "detail": detail}},
                              events=state.events()))
        states.append(state.clone())
    elif not state.stopped:
        state.apply({0: STOP})
        turns.append(TurnInfo(number=len(turns) + 1, moves={0: "stop"}))
        states.append(state.clone())
    header["verified"] = verdict.score
    return Replay("crosswords", "output.txt", path, header, states, turns, state.outcome(), ["Player"])


class OutputReader(RecordReader):
    """``output.txt``: the total, the 17-row board, then one step a line."""

    format = "output.txt"
    game = "crosswords"

    def sniff(self, text: str, path: str) -> bool:
        lines = text.lstrip("\ufeff").splitlines()
        if len(lines) < 18 or not re.fullmatch(r"\s*-?\d{1,9}\s*", lines[0]):
            return False
        return all(_ROW.fullmatch(line.strip()) for line in lines[1:18])

    def read(self, text: str, path: str) -> Replay:
        text = text.lstrip("\ufeff")
        piles = None
        name = Path(path).name
        found = (_beside(path, name.replace("output", "input")) if "output" in name else None) \
            or _beside(path, "input.txt")
        if found is not None:
            try:
                piles = read_input(found.read_bytes().decode("latin-1"), str(found))
            except (OSError, ArenaError):
                piles = None
        words = None
        for name in ("dictionary", "dict", "words"):
            folder = _beside(path, name)
            if folder is not None and folder.is_dir():
                try:
                    from games.crosswords.dictionary import load_dictionary
                    words = load_dictionary(folder)
                    break
                except ArenaError:
                    continue
        return replay_output(text, path, piles, words)


READERS = [OutputReader()]


def write_contest_records(replay: Replay, folder) -> list[str]:
    """The plugin's writer: a finished match as ``input.txt`` and ``output.txt`` (the
    notation the verifier reads), so a person's or a bot's game can be checked and
    shared like a program's."""
    from games.crosswords.files import write_input, write_output
    from games.crosswords.rules import parse_move
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    start = replay.states[0]
    moves = [parse_move(t.moves[0]) for t in replay.turns if 0 in t.moves]
    stem = (Path(replay.source).name.split(".")[0] if replay.source else "") or "crosswords"
    out_path = folder / f"{stem}.output.txt"
    in_path = folder / f"{stem}.input.txt"
    out_path.write_text(write_output(start, moves), encoding="ascii")
    in_path.write_text(write_input(start.start_piles), encoding="ascii")
    return [str(in_path), str(out_path)]
