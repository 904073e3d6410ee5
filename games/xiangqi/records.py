"""Xiangqi game records: the contest's REPORT.TXT and PGN in its Chinese-chess form.

REPORT.TXT (see RULES.md and CONTEST.md): lines 1-3 author, program and address (at most 255
columns each, possibly empty), line 4 the two PLAY.INI words joined by one space, then
``N BOTTOMMOVE TOPMOVE`` numbered from 1 with single spaces (the last line may hold the
bottom move only).  A REPORT.TXT written by another program opens as a replay on its own;
its result is the final position's when the rules decide it (no legal move left) and
unknown otherwise, unless the arena's ``REPORT.JSON`` lies beside it.

PGN: the tags python-chess and the Chinese-chess sites use, with ``[Game "Chinese Chess"]``
and ``[Format "ICCS"]``, and moves written ``H2-E2`` (the dash is optional on input).

Reading is pure text in, :class:`games.replay.Replay` out; every malformed input raises
:class:`games.api.RecordFormatError` naming the file, the line and what was expected.
The only file access is the optional look at ``REPORT.JSON`` beside a REPORT.TXT.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from games.api import ArenaError, Outcome, RecordFormatError, Termination, uniform_outcome_two_player
from games.replay import RecordReader, Replay, TurnInfo
from games.xiangqi.rules import (SIDE_NAMES, START_FEN, XiangqiGame, XiangqiState, move_text,
                                 parse_move_text)

REPORT_FORMAT = "xiangqi-report"
PGN_FORMAT = "xiangqi-pgn"
PLAYER_WORDS = ("COMPUTER", "HUMAN", "OTHER")
MAX_HEADER_COLUMNS = 255
RESULT_SIDECAR = "REPORT.JSON"
#: Options a replayed contest game runs under: contest mode has no capture limit.
REPLAY_OPTIONS = {"no_capture_limit": 0}

_MOVE_LINE = re.compile(r"^(\d{1,6}) ([A-Za-z]\d[A-Za-z]\d)(?: ([A-Za-z]\d[A-Za-z]\d))?$")


# --------------------------------------------------------------------------- REPORT.TXT


@dataclass
class Report:
    """The content of one REPORT.TXT."""

    authors: list[str] = field(default_factory=lambda: ["", "", ""])   # author, program, address
    words: tuple[str, str] = ("COMPUTER", "OTHER")                       # bottom, top (PLAY.INI 1-2)
    moves: list[str] = field(default_factory=list)                       # half-moves, upper case


def format_report(report: Report) -> str:
    """REPORT.TXT text for ``report`` (CRLF line ends, as the contest's DOS programs wrote)."""
    header = [_header_line(text) for text in (list(report.authors) + ["", "", ""])[:3]]
    lines = header + [" ".join(report.words)]
    for index in range(0, len(report.moves), 2):
        pair = [move.upper() for move in report.moves[index:index + 2]]
        lines.append(" ".join([str(index // 2 + 1)] + pair))
    return "\r\n".join(lines) + "\r\n"


def _header_line(text: str) -> str:
    clean = re.sub(r"[\r\n\t]+", " ", text or "")
    return clean[:MAX_HEADER_COLUMNS]


def parse_report(text: str, path: str = "REPORT.TXT") -> Report:
    """Read REPORT.TXT's lines (the moves' syntax, not yet their legality)."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) < 4:
        raise RecordFormatError(path, len(lines) + 1 if lines else 1,
                                "4 header lines: author, program, address, and the two PLAY.INI words")
    for number, line in enumerate(lines[:3], start=1):
        if len(line) > MAX_HEADER_COLUMNS:
            raise RecordFormatError(path, number, f"at most {MAX_HEADER_COLUMNS} columns "
                                    f"(the line has {len(line)})")
    words = lines[3].strip().split(" ")
    if len(words) != 2 or any(word.upper() not in PLAYER_WORDS for word in words):
        raise RecordFormatError(path, 4, "two words from COMPUTER, HUMAN, OTHER separated by one space "
                                f"(got {lines[3]!r})")
    moves: list[str] = []
    for number, line in enumerate(lines[4:], start=5):
        match = _MOVE_LINE.match(line.strip())
        expected_index = number - 4
        if not match:
            raise RecordFormatError(path, number, f"'{expected_index} BOTTOMMOVE TOPMOVE' with moves "
                                    f"like H2E2 (got {line!r})")
        if int(match.group(1)) != expected_index:
            raise RecordFormatError(path, number, f"move line number {expected_index} (got {match.group(1)})")
        if match.group(3) is None and number != len(lines):
            raise RecordFormatError(path, number, "a top move: only the last line may hold the bottom move alone")
        moves.extend(move.upper() for move in match.groups()[1:] if move)
    return Report([line.rstrip("\r") for line in lines[:3]], (words[0].upper(), words[1].upper()), moves)


def replay_moves(moves: Sequence[str], path: str, line_of, options: dict | None = None,
                 fen: str = "") -> tuple[list[XiangqiState], list[TurnInfo]]:
    """Play ``moves`` from the start, checking each; ``line_of(i)`` names the line of move i.

    When the arena's rulings would have ended the game (repetition, no material) but the
    record goes on, the replay continues from the same position with a fresh history and
    notes it on that turn.
    """
    game = XiangqiGame()
    state = game.new_initial_state({**REPLAY_OPTIONS, **(options or {}), "fen": fen}, seed=0)
    states, turns = [state.clone()], []
    for index, text in enumerate(moves):
        seat = state.side
        note = ""
        ruling = state.outcome()
        if ruling is not None:
            if not state.resume_after_ruling():
                raise RecordFormatError(path, line_of(index), f"no move after the end of the game "
                                        f"({ruling.detail})")
            note = f"the arena would have ended the game before this move: {ruling.detail}"
        try:
            state.check_move(seat, text)
        except ArenaError as exc:
            raise RecordFormatError(path, line_of(index),
                                    f"a legal move for {SIDE_NAMES[seat]} ({exc})") from None
        state.apply({seat: game.parse_move(text)})
        turns.append(TurnInfo(number=index + 1, moves={seat: game.parse_move(text)},
                              events=state.events(), note=note))
        states.append(state.clone())
    return states, turns


def decided_outcome(state: XiangqiState) -> Outcome | None:
    """The final position's result when the rules decide it (a side without a legal move)."""
    out = state.outcome()
    if out is not None and out.reason in (Termination.WIN, Termination.STALEMATE):
        return out
    return None


def sidecar_outcome(path: str) -> Outcome | None:
    """The arena's ``REPORT.JSON`` beside a REPORT.TXT, when there is a readable one."""
    try:
        data = json.loads((Path(path).parent / RESULT_SIDECAR).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != "xiangqi-report-result":
        return None
    winner = {"1-0": 0, "0-1": 1, "1/2-1/2": None}.get(data.get("result"), "unknown")
    if winner == "unknown":
        return None
    try:
        reason = Termination(data.get("reason") or "adjudication")
    except ValueError:
        reason = Termination.ADJUDICATION
    return uniform_outcome_two_player(winner, reason, str(data.get("detail") or ""))


class ReportReader(RecordReader):
    """REPORT.TXT, the contest's own game record."""

    format = REPORT_FORMAT
    game = "xiangqi"

    def sniff(self, text: str, path: str) -> bool:
        lines = text.splitlines()
        if len(lines) < 4:
            return False
        words = lines[3].strip().split(" ")
        return len(words) == 2 and all(word.upper() in PLAYER_WORDS for word in words)

    def read(self, text: str, path: str) -> Replay:
        report = parse_report(text, path)
        states, turns = replay_moves(report.moves, path, lambda index: 5 + index // 2)
        decided, stated = decided_outcome(states[-1]), sidecar_outcome(path)
        if decided is not None and stated is not None and stated.winners != decided.winners:
            raise RecordFormatError(str(Path(path).parent / RESULT_SIDECAR), None,
                                    f"the result {Path(path).name}'s moves give ({decided.detail}: "
                                    f"{decided.result_text()}), not {stated.result_text()}")
        outcome = decided or stated
        header = {"game": "xiangqi", "format": REPORT_FORMAT, "options": dict(REPLAY_OPTIONS),
                  "authors": report.authors, "players": list(report.words)}
        names = [f"{SIDE_NAMES[seat]} ({'bottom' if seat == 0 else 'top'}, {report.words[seat]})"
                 for seat in (0, 1)]
        return Replay("xiangqi", REPORT_FORMAT, path, header, states, turns, outcome, names)


# --------------------------------------------------------------------------- PGN

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def format_pgn(moves: Sequence[str], tags: dict[str, str] | None = None, outcome: Outcome | None = None,
               fen: str = "") -> str:
    """A PGN game in the Chinese-chess form with ICCS moves (``H2-E2``)."""
    result = outcome.result_text() if outcome else "*"
    values = {"Game": "Chinese Chess", "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
              "Red": "?", "Black": "?", "Result": result}
    values.update(tags or {})
    values["Result"] = result
    if fen and fen != START_FEN:
        values["FEN"] = fen
    values["Format"] = "ICCS"
    lines = [f'[{key} "{str(value).replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'
             for key, value in values.items()]
    black_first = bool(fen) and fen.split()[1:2] == ["b"]
    tokens = []
    for index, move in enumerate(moves):
        text = move_text(parse_move_text(move))
        ply = index + (1 if black_first else 0)
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}.")
        elif index == 0:
            tokens.append(f"{ply // 2 + 1}...")
        tokens.append(f"{text[:2]}-{text[2:]}")
    tokens.append(result)
    body, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 79:
            body.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    body.append(line)
    if outcome is not None and outcome.detail:
        body.insert(0, "{" + outcome.detail.replace("}", ")") + "}")
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


@dataclass
class PgnGame:
    tags: dict[str, str]
    moves: list[str]              # ICCS, upper case, no dash
    move_lines: list[int]         # 1-based line of each move
    result: str
    result_line: int | None = None    # where the result token stands


def parse_pgn(text: str, path: str = "game.pgn") -> PgnGame:
    """Read the first game of a Chinese-chess PGN (tags, ICCS moves, result)."""
    tags: dict[str, str] = {}
    moves: list[str] = []
    move_lines: list[int] = []
    result = "*"
    result_line: int | None = None
    in_comment = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not in_comment and line.startswith("["):
            if moves:
                break                                   # the next game's tags
            match = _TAG.match(line)
            if not match:
                raise RecordFormatError(path, number, 'a tag like [Name "value"]')
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
            continue
        position = 0
        while position < len(line):
            if in_comment:
                end = line.find("}", position)
                if end < 0:
                    break
                in_comment, position = False, end + 1
                continue
            if line[position] == "{":
                in_comment, position = True, position + 1
                continue
            if line[position] == ";":
                break                                   # the rest of the line is a comment
            if line[position].isspace():
                position += 1
                continue
            end = position
            while end < len(line) and not line[end].isspace() and line[end] != "{":
                end += 1
            token, position = line[position:end], end
            token = re.sub(r"^\d+\.+", "", token)
            if not token:
                continue
            if token in _RESULTS:
                result, result_line = token, number
                continue
            clean = token.replace("-", "").rstrip("+#!?")
            try:
                moves.append(move_text(parse_move_text(clean)))
            except ArenaError:
                raise RecordFormatError(path, number, f"an ICCS move like H2-E2, a move number or a "
                                        f"result (got {token!r})") from None
            move_lines.append(number)
    if tags.get("Game", "Chinese Chess").lower() not in ("chinese chess", "xiangqi"):
        raise RecordFormatError(path, 1, '[Game "Chinese Chess"]')
    if tags.get("Format", "ICCS").upper() != "ICCS":
        raise RecordFormatError(path, 1, f'[Format "ICCS"] (moves in ICCS; got {tags["Format"]!r})')
    return PgnGame(tags, moves, move_lines, result, result_line)


class PgnReader(RecordReader):
    """A PGN file with ``[Game "Chinese Chess"]`` and ICCS moves."""

    format = PGN_FORMAT
    game = "xiangqi"

    def sniff(self, text: str, path: str) -> bool:
        head = text[:4000].lower()
        return '[game "chinese chess"]' in head or ('[format "iccs"]' in head)

    def read(self, text: str, path: str) -> Replay:
        pgn = parse_pgn(text, path)
        fen = pgn.tags.get("FEN", "")
        try:
            states, turns = replay_moves(pgn.moves, path, lambda index: pgn.move_lines[index], fen=fen)
        except ArenaError as exc:
            if isinstance(exc, RecordFormatError):
                raise
            raise RecordFormatError(path, None, f"a valid FEN tag ({exc})") from None
        outcome = decided_outcome(states[-1])
        if outcome is not None and pgn.result not in ("*", outcome.result_text()):
            raise RecordFormatError(path, pgn.result_line, f"the result the moves give ({outcome.detail}: "
                                    f"{outcome.result_text()}), not {pgn.result}")
        if outcome is None and pgn.result in ("1-0", "0-1", "1/2-1/2"):
            winner = {"1-0": 0, "0-1": 1, "1/2-1/2": None}[pgn.result]
            outcome = uniform_outcome_two_player(winner, Termination.ADJUDICATION,
                                                 f"Result {pgn.result} as recorded")
        header = {"game": "xiangqi", "format": PGN_FORMAT, "options": {**REPLAY_OPTIONS, "fen": fen},
                  "tags": pgn.tags}
        names = [pgn.tags.get("Red", "Red"), pgn.tags.get("Black", "Black")]
        return Replay("xiangqi", PGN_FORMAT, path, header, states, turns, outcome, names)


def replay_to_pgn(replay: Replay, tags: dict[str, Any] | None = None) -> str:
    """PGN export of any Xiangqi replay (arena record, REPORT.TXT or PGN)."""
    moves = [turn.moves[seat] for turn in replay.turns for seat in sorted(turn.moves)]
    fen = replay.header.get("options", {}).get("fen", "") if isinstance(replay.header, dict) else ""
    names = {"Red": replay.seat_names[0] if replay.seat_names else "?",
             "Black": replay.seat_names[1] if len(replay.seat_names) > 1 else "?"}
    return format_pgn(moves, {**names, **(tags or {})}, replay.outcome, fen)


READERS = [ReportReader(), PgnReader()]


#: PGN's Termination tag for each way a game ends (the detail goes in the leading comment).
PGN_TERMINATION = {
    Termination.TIMEOUT: "time forfeit", Termination.ILLEGAL_MOVE: "rules infraction",
    Termination.BAD_FILE: "rules infraction", Termination.CRASH: "abandoned",
    Termination.ABORTED: "abandoned", Termination.ADJUDICATION: "adjudication",
}


def pgn_date(header: Any) -> str:
    """PGN's ``YYYY.MM.DD`` from the record's ``started`` time, ``????.??.??`` without one."""
    started = header.get("started", "") if isinstance(header, dict) else ""
    match = re.match(r"^(\d{4})-(\d{2})-(\d{2})", str(started or ""))
    return ".".join(match.groups()) if match else "????.??.??"


def pgn_termination(outcome: Outcome | None) -> str:
    """``normal``, ``time forfeit``, ``rules infraction``, ``adjudication``, ``abandoned``
    or ``unterminated``, followed by the arena's reason (``normal: repetition``)."""
    if outcome is None:
        return "unterminated"
    return f"{PGN_TERMINATION.get(outcome.reason, 'normal')}: {outcome.reason.value}"


def export_pgn(replay, index: int) -> tuple[str, str]:
    """The whole game as Chinese-chess PGN (ICCS moves), from its start position."""
    start, final = replay.states[0], replay.states[-1]
    names = list(replay.seat_names) + ["?", "?"]
    tags = {"Red": names[0] or "?", "Black": names[1] or "?", "Date": pgn_date(replay.header),
            "Termination": pgn_termination(replay.outcome)}
    return "game.pgn", format_pgn(final.moves, tags, replay.outcome, fen=start.fen())


def export_fen(replay, index: int) -> tuple[str, str]:
    """The FEN of the position shown (``index`` into the replay's states)."""
    return f"position-{index}.fen", replay.states[index].fen() + "\n"


EXPORTS = {"PGN": export_pgn, "FEN": export_fen}


def seat_title(seat: dict) -> str:
    """A seat's name for record headers: the engine's own name or the label, and its settings."""
    name = seat.get("engine") or seat.get("label") or seat.get("spec") or "?"
    settings = seat.get("settings") or {}
    extra = " ".join(f"{k}={v}" for k, v in settings.items() if not str(k).startswith("option."))
    return f"{name} ({extra})" if extra and extra not in name else name


def report_header(seats: Sequence[dict], rules: str, writer: str = "Arena") -> list[str]:
    """REPORT.TXT lines 1-3 when the arena writes it for seats that are not contest programs
    of its own: who wrote it, the players (bottom vs top), and the rules in force."""
    titles = [seat_title(seat) for seat in list(seats)[:2]] + ["?", "?"]
    return [writer, f"{titles[0]} (bottom) vs {titles[1]} (top)", rules]


#: Why a game has no REPORT.TXT (REPORT.JSON says so).
NO_REPORT_REASON = ("no REPORT.TXT: the game started from another position (the fen option), "
                    "and REPORT.TXT always starts from the usual one; the arena record and "
                    "game.pgn (with its FEN tag) hold the game")


def report_result(replay, words: Sequence[str], has_report: bool) -> dict:
    """REPORT.JSON's content for a finished game seen as a replay (plain matches)."""
    outcome = replay.outcome
    used = {}
    if replay.turns and getattr(replay.turns[-1], "clocks", None):
        used = {int(k): v for k, v in replay.turns[-1].clocks.items()}
    winner = None if outcome is None or not outcome.winners else ("bottom" if outcome.winners[0] == 0 else "top")
    data = {"format": "xiangqi-report-result", "version": 1,
            "report": "REPORT.TXT" if has_report else None,
            "result": outcome.result_text() if outcome else "*", "winner": winner,
            "reason": outcome.reason.value if outcome else None,
            "detail": outcome.detail if outcome else "", "players": " ".join(words),
            "seconds": -1, "clocks": {"bottom": -1, "top": -1},
            "time_used": {"bottom": round(used.get(0, 0.0), 3), "top": round(used.get(1, 0.0), 3)},
            "half_moves": len(replay.states[-1].moves), "record": replay.source or None,
            "program_reports": {}}
    if not has_report:
        data["no_report"] = NO_REPORT_REASON
    return data


def write_contest_records(replay, folder) -> list:
    """After any Xiangqi match: REPORT.TXT, REPORT.JSON and game.pgn.

    REPORT.TXT's PLAY.INI words come from the seats' kinds, lines 1-3 name the arena,
    the players and the rules.  Only a game from the standard start position has a
    REPORT.TXT (the contest's programs always start there); REPORT.JSON then says why
    there is none, and the PGN keeps a FEN tag.
    """
    folder = Path(folder)
    header = replay.header if isinstance(replay.header, dict) else {}
    seats = header.get("seats", [])[:2]
    words = tuple({"human": "HUMAN", "ext": "OTHER"}.get(seat.get("kind"), "COMPUTER")
                  for seat in seats) or ("COMPUTER", "COMPUTER")
    written = []
    has_report = replay.states[0].fen().split()[:2] == START_FEN.split()[:2]
    if has_report:
        report = folder / "REPORT.TXT"
        lines = report_header(seats, str(header.get("rules", "")))
        report.write_text(format_report(Report(lines, words, list(replay.states[-1].moves))),
                          encoding="ascii", errors="replace", newline="")
        written.append(report)
    result = folder / RESULT_SIDECAR
    result.write_text(json.dumps(report_result(replay, words, has_report), indent=2) + "\n", encoding="utf-8")
    written.append(result)
    name, text = export_pgn(replay, len(replay.states) - 1)
    (folder / name).write_text(text, encoding="utf-8")
    return written + [folder / name]
