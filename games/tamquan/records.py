"""Tam Quan's readable game record (``NAME.tamquan.txt``), written beside the arena record.

A person can read it line by line; the replay viewer opens it (format detected from
the first line).  Layout, one item a line::

    # Co Tam Quan game record
    size 5
    teams 2
    members 3
    turn_limit 200
    zones 0,0 0,1 0,2 0,3 0,4 / 4,0 4,1 4,2 4,3 4,4
    team A Bot (level 4)
    team B Bot (level 1)

    setup A zone 1: 0,1 0,2 0,3
    setup B zone 2: 4,1 4,2 4,3

    turn 1 A
      before none
      steps 0,1-1,1 0,2-1,2 0,3-1,3
      after none
    ...
    left B timeout: no move before the clock ran out
    result 1. A 3 · 2. B 0
    reason elimination: A is the last team on the board (A 3, B 0)

``before`` lists the captures the team made when its turn opened, ``after`` those it
made after stepping, each as the captured team's letter and cell (``B 2,2``), or
``none``.  ``left`` is a team the referee removed.  The ``result`` and ``reason``
lines are for people; a reader takes the result from the rules.  Every line is
checked when read: a move that is not legal, or captures that do not follow from the
moves, raise :class:`games.api.RecordFormatError` naming the line.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from games.api import (ArenaError, GameSetupError, MoveSyntaxError, RecordFormatError,
                       Termination)
from games.fileio import atomic_write
from games.replay import RecordReader, Replay, TurnInfo
from games.tamquan.rules import (LETTERS, Placement, Steps, TamQuanGame, TamQuanState, cell_text,
                                 format_move, layout_from_options, parse_move)
from runner.records import SUFFIX as RECORD_SUFFIX

FILE_NAME = "tamquan.txt"
FIRST_LINE = "# Co Tam Quan game record"


def _small_number(word: str) -> bool:
    """A whole number ``int()`` reads at once: ASCII digits (``str.isdigit`` also takes
    ``²``) and at most 9 of them (not the 5,000 that ``int()`` refuses)."""
    return word.isascii() and word.isdigit() and len(word) <= 9


def _captures_text(state: TamQuanState, phase: str) -> str:
    found = [f"{LETTERS[victim_team]} {cell_text(victim)}"
             for ph, _, victim, victim_team, _ in state.marks.captures if ph == phase]
    return " ".join(found) if found else "none"


def format_record(replay: Replay) -> str:
    """The readable record of a replay of a Tam Quan match."""
    start: TamQuanState = replay.states[0]
    L = start.layout
    lines = [FIRST_LINE, f"size {L.size}", f"teams {L.teams}", f"members {L.members}",
             f"turn_limit {L.turn_limit}",
             "zones " + " / ".join(" ".join(cell_text(c) for c in zone) for zone in L.zones)]
    names = list(replay.seat_names)
    for team in range(L.teams):
        name = names[team] if team < len(names) else ""
        lines.append(f"team {LETTERS[team]} {name}".rstrip())
    lines.append("")
    for index, turn in enumerate(replay.turns):
        before, after = replay.states[index], replay.states[index + 1]
        for seat, forfeit in sorted(turn.forfeits.items()):
            detail = forfeit.get("detail", "")
            lines.append(f"left {LETTERS[seat]} {forfeit.get('reason', '')}"
                         + (f": {detail}" if detail else ""))
        for seat, text in sorted(turn.moves.items()):
            move = parse_move(text)
            if isinstance(move, Placement):
                lines.append(f"setup {LETTERS[seat]} {text}")
                if not after.setup:
                    lines.append("")
            else:
                lines.append(f"turn {after.play_turns} {LETTERS[seat]}")
                lines.append(f"  before {_captures_text(before, 'before')}")
                lines.append(f"  steps {text}")
                lines.append(f"  after {_captures_text(after, 'after')}")
    outcome = replay.outcome
    if outcome is not None:
        lines.append(f"result {outcome.result_text(list(LETTERS[:L.teams]))}")
        lines.append(f"reason {outcome.reason.value}" + (f": {outcome.detail}" if outcome.detail else ""))
    return "\n".join(lines) + "\n"


def write_contest_records(replay_or_match: Any, folder: str | Path) -> list[Path]:
    """Write the readable record of a match (or its replay) into ``folder``: named after
    the arena record (``NAME.arena.jsonl`` -> ``NAME.tamquan.txt``), else ``tamquan.txt``."""
    replay = replay_or_match.as_replay() if hasattr(replay_or_match, "as_replay") else replay_or_match
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    source = Path(replay.source).name if replay.source else ""
    stem = source[:-len(RECORD_SUFFIX)] if source.endswith(RECORD_SUFFIX) else ""
    path = folder / (f"{stem}.{FILE_NAME}" if stem else FILE_NAME)
    atomic_write(path, format_record(replay))
    return [path]


class TamQuanTextReader(RecordReader):
    """Reads :func:`format_record`'s text back into a replay, checking every line."""

    format = "tamquan-text"
    game = "tamquan"

    def sniff(self, text: str, path: str) -> bool:
        return text.lstrip("\ufeff").startswith(FIRST_LINE)

    def read(self, text: str, path: str) -> Replay:
        game = TamQuanGame()
        lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
        if not lines or lines[0].strip() != FIRST_LINE:
            raise RecordFormatError(path, 1, f"the first line {FIRST_LINE!r}")
        options: dict[str, Any] = {}
        number = 1
        for key in ("size", "teams", "members", "turn_limit"):
            number += 1
            words = lines[number - 1].split() if number <= len(lines) else []
            if len(words) != 2 or words[0] != key or not _small_number(words[1]):
                raise RecordFormatError(path, number, f"'{key} N' (a whole number)")
            options[key] = int(words[1])
        number += 1
        zones_line = lines[number - 1] if number <= len(lines) else ""
        if not zones_line.startswith("zones "):
            raise RecordFormatError(path, number, "'zones' and the zones' cells")
        options["zones"] = zones_line[len("zones "):]
        try:
            state = TamQuanState(layout_from_options(options))
        except GameSetupError as exc:
            raise RecordFormatError(path, number, f"a board the rules accept ({exc})") from None
        names = []
        for team in range(state.layout.teams):
            number += 1
            line = lines[number - 1] if number <= len(lines) else ""
            prefix = f"team {LETTERS[team]}"
            if not (line == prefix or line.startswith(prefix + " ")):
                raise RecordFormatError(path, number, f"'{prefix} NAME'")
            names.append(line[len(prefix):].strip() or f"Team {LETTERS[team]}")
        states, turns = [state.clone()], []
        pending_before: tuple[str, int] | None = None
        expect = None           # (kind, team) of the indented line expected next
        for number in range(number + 1, len(lines) + 1):
            line = lines[number - 1]
            words = line.split()
            if not words:
                continue
            head = words[0]
            try:
                if expect is not None:
                    kind, team = expect
                    if head != kind:
                        raise RecordFormatError(path, number, f"the turn's '{kind}' line")
                    rest = line.strip()[len(kind):].strip()
                    if kind == "before":
                        if rest != _captures_text(state, "before"):
                            raise RecordFormatError(path, number, "the captures the rules make when "
                                                    f"the turn opens: {_captures_text(state, 'before')}")
                        expect = ("steps", team)
                    elif kind == "steps":
                        move = parse_move(rest)
                        if not isinstance(move, Steps):
                            raise RecordFormatError(path, number, "steps 'R,C-R,C ...'")
                        self._play(game, state, team, move, path, number)
                        turns.append(TurnInfo(len(turns) + 1, {team: format_move(move)},
                                              events=state.events()))
                        states.append(state.clone())
                        expect = ("after", team)
                    else:
                        if rest != _captures_text(state, "after"):
                            raise RecordFormatError(path, number, "the captures the rules make after "
                                                    f"the steps: {_captures_text(state, 'after')}")
                        expect = None
                    continue
                if head == "setup" and len(words) >= 3:
                    team = self._team(words[1], state, path, number)
                    move = parse_move(line.strip()[len("setup") + 2:].strip())
                    if not isinstance(move, Placement):
                        raise RecordFormatError(path, number, "a placement 'zone K: R,C ...'")
                    self._play(game, state, team, move, path, number)
                    turns.append(TurnInfo(len(turns) + 1, {team: format_move(move)}, events=state.events()))
                    states.append(state.clone())
                elif head == "turn" and len(words) == 3 and _small_number(words[1]):
                    team = self._team(words[2], state, path, number)
                    if state.setup or int(words[1]) != state.play_turns + 1:
                        raise RecordFormatError(path, number, f"turn {state.play_turns + 1} after setup")
                    expect = ("before", team)
                elif head == "left" and len(words) >= 3:
                    if words[1] not in LETTERS[:state.layout.teams]:
                        raise RecordFormatError(path, number, "'left TEAM REASON: DETAIL'")
                    team = LETTERS.index(words[1])
                    reason_text, _, detail = line.split(None, 2)[2].partition(":")
                    try:
                        reason = Termination(reason_text.strip())
                    except ValueError:
                        raise RecordFormatError(path, number, "a known reason (timeout, crash, ...)") from None
                    state.forfeit(team, reason, detail.strip())
                    turns.append(TurnInfo(len(turns) + 1, {}, forfeits={
                        team: {"reason": reason.value, "detail": detail.strip()}}, events=state.events()))
                    states.append(state.clone())
                elif head in ("result", "reason"):
                    continue
                else:
                    raise RecordFormatError(path, number, "a 'setup', 'turn', 'left' or 'result' line")
            except MoveSyntaxError as exc:
                raise RecordFormatError(path, number, f"a move in the record's notation ({exc})") from None
        if expect is not None:
            raise RecordFormatError(path, len(lines), f"the turn's '{expect[0]}' line (the file ends early)")
        header = {"game": "tamquan", "options": dict(options)}
        return Replay("tamquan", self.format, path, header, states, turns, state.outcome(), names)

    @staticmethod
    def _team(letter: str, state: TamQuanState, path: str, number: int) -> int:
        if letter not in LETTERS[:state.layout.teams]:
            raise RecordFormatError(path, number, f"a team letter ({' '.join(LETTERS[:state.layout.teams])})")
        team = LETTERS.index(letter)
        if team not in state.to_move():
            on = ", ".join(LETTERS[t] for t in state.to_move()) or "nobody (the game is over)"
            raise RecordFormatError(path, number, f"a move of the team on turn ({on})")
        return team

    @staticmethod
    def _play(game, state: TamQuanState, team: int, move, path: str, number: int) -> None:
        try:
            state.play({team: move})
        except ArenaError as exc:
            raise RecordFormatError(path, number, f"a legal move ({exc})") from None


READERS = [TamQuanTextReader()]

EXPORTS = {"tamquan.txt": lambda replay, index: (FILE_NAME, format_record(replay))}
