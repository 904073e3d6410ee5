"""Hex's contest records: HEX.OUT (the evaluator's game file) and HexGui's SGF.

Both formats are documented in RECORDS.md.  :func:`write_contest_records` writes
both for a finished match; :data:`READERS` opens them as replays (format detected
from the content).  Formatting and parsing are pure string functions; only
``write_contest_records`` touches files.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from games.api import (GameSetupError, IllegalMoveError, MoveSyntaxError, Outcome,
                       RecordFormatError, Termination, uniform_outcome_two_player)
from games.fileio import atomic_write
from games.hex.notation import from_hexgui, to_hexgui
from games.hex.rules import MAX_SIZE, P1, P2, HexGame, HexMove, HexState
from games.replay import RecordReader, Replay, TurnInfo

HEX_OUT = "HEX.OUT"
SGF_NAME = "hex.sgf"
APPLICATION = "Arena:0.1"


# ====================================================================== common
def _start_rows(state: HexState) -> list[str]:
    return state.board_text().split("/")


def _moves_of(replay: Replay) -> list[tuple[int, HexMove]]:
    """(seat, move) for every stone (or swap) the replay's turns played."""
    game = HexGame()
    played = []
    for turn in replay.turns:
        for seat, text in sorted(turn.moves.items()):
            played.append((seat, game.parse_move(text)))
    return played


def _new_state(size: int, rows: list[str], path: str, line: int, swap: bool = False) -> HexState:
    """The start of a game read from a file; ``swap`` when the file plays a swap (the
    pie rule was on, whatever the file says about it)."""
    options = {"size": size, "swap": swap,
               "position": "/".join(rows) if any(set(r) - {"."} for r in rows) else ""}
    try:
        return HexGame().new_initial_state(options, seed=0)
    except GameSetupError as exc:
        raise RecordFormatError(path, line, f"a valid start position ({exc})") from None


def _replay(fmt: str, path: str, header: dict, state: HexState, moves, outcome: Outcome | None,
            names: list[str], outcome_line: int | None = None) -> Replay:
    """Play ``moves`` = [(seat, move, line)] from ``state`` into a Replay.

    A stated result must agree with the board: a connection on the board wins over
    the file's words (and a contradiction is an error naming the result's line).
    """
    states, turns = [state.clone()], []
    for number, (seat, move, line) in enumerate(moves, start=1):
        try:
            state.check_move(seat, move)
        except IllegalMoveError as exc:
            raise RecordFormatError(path, line, f"a legal move for player {seat + 1} ({exc})") from None
        state.apply({seat: move})
        turns.append(TurnInfo(number=number, moves={seat: move.text()}, events=state.events()))
        states.append(state.clone())
    if state.is_terminal() and outcome is not None:
        if outcome.winners != state.outcome().winners:
            raise RecordFormatError(path, outcome_line, "a result that agrees with the board "
                                    f"({state.outcome().detail})")
        outcome = state.outcome()
    if (fmt == HexOutReader.format and outcome is not None and not state.is_terminal()
            and outcome.reason is Termination.WIN):
        raise RecordFormatError(path, outcome_line, "a result the board can show: nobody has connected "
                                "their sides, so RESULT cannot say 'win' (a time-out, a resignation "
                                "or a ruling says so)")
    if (outcome is not None and not state.is_terminal()
            and (outcome.reason.is_referee or outcome.reason is Termination.RESIGNATION)):
        loser = next(iter({0, 1} - set(outcome.winners)), None)
        if loser is not None:
            state.forfeit(loser, outcome.reason, outcome.detail)
            turns.append(TurnInfo(number=len(turns) + 1, moves={},
                                  forfeits={loser: {"reason": outcome.reason.value,
                                                    "detail": outcome.detail}},
                                  events=state.events()))
            states.append(state.clone())
    return Replay("hex", fmt, path, header, states, turns, outcome or state.outcome(), names)


# ====================================================================== HEX.OUT
def format_hex_out(replay: Replay) -> str:
    """The game as HEX.OUT: N, the start rows, ``PLAYER ROW COL`` per move, ``RESULT``."""
    start: HexState = replay.states[0]
    lines = [str(start.size), *_start_rows(start)]
    for seat, move in _moves_of(replay):
        lines.append(f"{seat + 1} SWAP" if move.is_swap else f"{seat + 1} {move.row} {move.col}")
    outcome = replay.outcome
    if outcome is not None:
        winner = outcome.winners[0] + 1 if outcome.winners else 0
        lines.append(f"RESULT {winner} {outcome.reason.value}")
    return "\n".join(lines) + "\n"


_INT_RE = re.compile(r"^\s*(\d{1,2})\s*$")
_ROW_RE = re.compile(r"^[.12]+$")
_MOVE_LINE_RE = re.compile(r"^([12])\s+(?:(\d{1,2})\s+(\d{1,2})|(swap))$", re.IGNORECASE)
_RESULT_RE = re.compile(r"^RESULT\s+([012])\s+([a-z-]+)$")


class HexOutReader(RecordReader):
    """HEX.OUT as written by :func:`format_hex_out`."""

    format = "hex-out"
    game = "hex"

    def sniff(self, text: str, path: str) -> bool:
        lines = text.lstrip("\ufeff").splitlines()
        if len(lines) < 2 or not _INT_RE.match(lines[0]):
            return False
        size = int(lines[0])
        return 1 <= size <= MAX_SIZE and len(lines[1].strip()) == size and bool(_ROW_RE.match(lines[1].strip()))

    def read(self, text: str, path: str) -> Replay:
        lines = [line.strip() for line in text.lstrip("\ufeff").splitlines()]
        match = _INT_RE.match(lines[0]) if lines else None
        if not match or not 1 <= int(match.group(1)) <= MAX_SIZE:
            raise RecordFormatError(path, 1, f"the board size N (1-{MAX_SIZE})")
        size = int(match.group(1))
        rows = lines[1:size + 1]
        for number, row in enumerate(rows, start=2):
            if len(row) != size or not _ROW_RE.match(row):
                raise RecordFormatError(path, number, f"a start row of {size} characters . 1 2")
        if len(rows) < size:
            raise RecordFormatError(path, len(lines) + 1, f"{size} start rows")
        state = _new_state(size, rows, path, 2)
        moves, outcome, outcome_line = [], None, None
        for number, line in enumerate(lines[size + 1:], start=size + 2):
            if not line:
                continue
            if outcome is not None:
                raise RecordFormatError(path, number, "nothing after the RESULT line")
            result = _RESULT_RE.match(line)
            if result:
                outcome = _outcome(int(result.group(1)), result.group(2), path, number)
                outcome_line = number
                continue
            move = _MOVE_LINE_RE.match(line)
            if not move:
                raise RecordFormatError(path, number, "a move 'PLAYER ROW COL' or 'RESULT WINNER REASON'")
            seat = int(move.group(1)) - 1
            played = HexMove.SWAP if move.group(4) else HexMove(int(move.group(2)), int(move.group(3)))
            moves.append((seat, played, number))
        swap = any(m.is_swap for _, m, _ in moves)
        if swap:
            state = _new_state(size, rows, path, 2, swap=True)
        header = {"options": {"size": size, "position": "/".join(rows), "swap": swap}}
        return _replay(self.format, path, header, state, moves, outcome, [], outcome_line)


def _outcome(winner: int, reason: str, path: str, line: int) -> Outcome:
    try:
        termination = Termination(reason)
    except ValueError:
        raise RecordFormatError(path, line, "a known termination reason (win, timeout, crash, ...)") from None
    detail = f"Player {winner} wins ({reason})" if winner else f"no winner ({reason})"
    if winner == 0:
        return Outcome((), (0.5, 0.5), termination, detail)
    return uniform_outcome_two_player(winner - 1, termination, detail)


# ====================================================================== SGF (HexGui)
def _sgf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _sgf_result(outcome: Outcome | None) -> str:
    if outcome is None or not outcome.winners:
        return "0" if outcome else "?"
    colour = "B" if outcome.winners == (0,) else "W"
    suffix = {Termination.TIMEOUT: "T", Termination.RESIGNATION: "R"}.get(outcome.reason, "")
    if not suffix and outcome.reason.is_referee:
        suffix = "F"
    return f"{colour}+{suffix}"


def format_sgf(replay: Replay) -> str:
    """The game as HexGui writes SGF: FF[4] GM[11] SZ[n], AB/AW set-up, ;B[a1];W[b2] ..."""
    start: HexState = replay.states[0]
    root = [f"FF[4]AP[{APPLICATION}]GM[11]SZ[{start.size}]"]
    names = list(replay.seat_names) + ["", ""]
    if names[0]:
        root.append(f"PB[{_sgf_escape(names[0])}]")
    if names[1]:
        root.append(f"PW[{_sgf_escape(names[1])}]")
    root.append(f"RE[{_sgf_result(replay.outcome)}]")
    for prop, player in (("AB", P1), ("AW", P2)):
        cells = [start.move_at(i) for i, v in enumerate(start.cells) if v == player]
        if cells:
            root.append(prop + "".join(f"[{to_hexgui(m)}]" for m in cells))
    if start.current == 1:
        root.append("PL[W]")
    nodes = ["(;" + "".join(root)]
    for seat, move in _moves_of(replay):
        nodes.append(f";{'BW'[seat]}[{to_hexgui(move)}]")
    text = nodes[0]
    for node in nodes[1:]:                       # HexGui keeps lines under ~72 characters
        line_len = len(text) - text.rfind("\n") - 1
        text += ("\n" if line_len + len(node) > 72 else "") + node
    return text + ")\n"


_SGF_PROP_RE = re.compile(r"\s*([A-Za-z]+)\s*")


def parse_sgf_main_line(text: str, path: str) -> list[tuple[dict[str, list[str]], int]]:
    """The main line of the first game tree: [(properties, line number)] per node.

    The first child of every tree continues the main line, so the main line is every
    node met before the first ``)``: descending into each ``(`` and stopping at the
    first close skips all side variations without recursion.
    """
    i, n = 0, len(text)
    while i < n and (text[i].isspace() or text[i] == "\ufeff"):
        i += 1
    if i >= n or text[i] != "(":
        raise RecordFormatError(path, text.count("\n", 0, i) + 1, "an SGF game tree starting with '('")
    i += 1
    nodes: list[tuple[dict[str, list[str]], int]] = []
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == "(":
            i += 1
        elif ch == ";":
            line = text.count("\n", 0, i) + 1
            i, props = _parse_node(text, i + 1, path)
            nodes.append((props, line))
        elif ch == ")":
            return nodes
        else:
            raise RecordFormatError(path, text.count("\n", 0, i) + 1,
                                    f"';', '(' or ')' in the SGF, not {ch!r}")
    raise RecordFormatError(path, text.count("\n") + 1, "a closing ')' at the end of the SGF")


def _value_end(text: str, i: int, path: str) -> int:
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "]":
            return i + 1
        i += 1
    raise RecordFormatError(path, text.count("\n") + 1, "a closing ']' for an SGF value")


def _parse_node(text: str, i: int, path: str) -> tuple[int, dict[str, list[str]]]:
    props: dict[str, list[str]] = {}
    n = len(text)
    while i < n:
        match = _SGF_PROP_RE.match(text, i)
        if not match or match.end() >= n or text[match.end()] != "[":
            if match and match.group(1):
                raise RecordFormatError(path, text.count("\n", 0, i) + 1,
                                        f"a value in [...] after SGF property {match.group(1)}")
            break
        name, i = match.group(1).upper(), match.end()
        values = props.setdefault(name, [])
        while i < n and text[i] == "[":
            end = _value_end(text, i + 1, path)
            values.append(text[i + 1:end - 1].replace("\\]", "]").replace("\\\\", "\\"))
            i = end
            while i < n and text[i].isspace():
                i += 1
    while i < n and text[i].isspace():
        i += 1
    return i, props


class SgfReader(RecordReader):
    """Hex SGF as HexGui, Benzene, PlayHex and Little Golem write it (RECORDS.md).

    GM[11] (or, for Little Golem's ``.hsgf``, no GM and an ``EV[hex...]`` or a Little
    Golem source), SZ, set-up stones (AB/AW/AE, PL) before the first move, B/W moves
    (cell names, Go-style two-letter points, ``swap-pieces``/``swap-sides``/``swap``,
    ``resign``), RE.
    """

    format = "hex-sgf"
    game = "hex"

    def sniff(self, text: str, path: str) -> bool:
        head = text.lstrip("\ufeff \t\r\n")
        if not head.startswith("("):
            return False
        top = text[:2000]
        if re.search(r"GM\s*\[\s*11\s*\]", top):
            return True
        return re.search(r"GM\s*\[", top) is None and _little_golem(top)

    def read(self, text: str, path: str) -> Replay:
        nodes = parse_sgf_main_line(text, path)
        if not nodes:
            raise RecordFormatError(path, 1, "at least the SGF root node")
        root, root_line = nodes[0]
        if root.get("GM", ["11"])[0].strip() != "11":
            raise RecordFormatError(path, root_line, "GM[11] (Hex)")
        golem = "GM" not in root and _little_golem(text[:2000])
        size = _sgf_size(root, path, root_line)
        first_move = next((i for i, (props, _) in enumerate(nodes) if "B" in props or "W" in props),
                          len(nodes))
        rows, to_play = _sgf_setup(nodes, first_move, size, path)
        first_colour = next((c for props, _ in nodes[first_move:first_move + 1] for c in "BW" if c in props),
                            None)
        switched = _starting_frame(rows, to_play or first_colour, golem, path, root_line)
        if switched:
            rows = [[{"1": "2", "2": "1"}.get(rows[c][r], ".") for c in range(size)] for r in range(size)]
        moves, resigned, _ = _sgf_moves(nodes[first_move:], size, golem, path, switched)
        swap = any(move.is_swap for _, move, _ in moves)
        state = _new_state(size, ["".join(r) for r in rows], path, root_line, swap)
        # RE names the players by their first colour (twogtp, Little Golem): a swap that
        # exchanges colours does not change whom RE[B+] means.
        outcome = _sgf_outcome(root.get("RE", [""])[0], path, root_line, golem, switched)
        if resigned is not None and not _ends_before(state, moves):
            seat, line = resigned
            by_resign = uniform_outcome_two_player(1 - seat, Termination.RESIGNATION,
                                                   f"Player {seat + 1} resigned")
            if outcome is not None and outcome.winners != by_resign.winners:
                raise RecordFormatError(path, root_line, f"a result that agrees with the resignation "
                                        f"at line {line}")
            outcome = by_resign
        names = [root.get("PB", [""])[0], root.get("PW", [""])[0]]
        header = {"options": {"size": size, "position": state.board_text(), "swap": swap},
                  "sgf_root": root}
        return _replay(self.format, path, header, state, moves, outcome, names, root_line)


def _little_golem(text: str) -> bool:
    """Little Golem's Hex export (``.hsgf``): no GM, an ``EV[hex...]`` or its address."""
    return bool(re.search(r"EV\s*\[\s*hex", text, re.IGNORECASE)
                or re.search(r"littlegolem", text, re.IGNORECASE))


def _sgf_setup(nodes, first_move: int, size: int, path: str) -> tuple[list[list[str]], str | None]:
    """Set-up stones (AB, AW, AE) and PL from the nodes before the first move."""
    rows = [["."] * size for _ in range(size)]
    to_play = None
    for index, (props, line) in enumerate(nodes):
        setup = [p for p in ("AB", "AW", "AE") if p in props]
        if index >= first_move:
            if setup:
                raise RecordFormatError(path, line, f"set-up stones ({'/'.join(setup)}) only before the "
                                        "first move: Arena cannot add stones in the middle of a game")
            continue
        for prop, mark in (("AB", "1"), ("AW", "2"), ("AE", ".")):
            for value in props.get(prop, []):
                move = _sgf_cell(value, size, path, line)
                if move.is_swap:
                    raise RecordFormatError(path, line, f"a cell in {prop}, not [{value}]")
                rows[move.row - 1][move.col - 1] = mark
        if props.get("PL"):
            to_play = props["PL"][0].strip().upper()[:1]
            if to_play not in ("B", "W"):
                raise RecordFormatError(path, line, f"PL[B] or PL[W], not PL[{props['PL'][0]}]")
    return rows, to_play


def _sgf_moves(nodes, size: int, golem: bool, path: str, switched: bool = False):
    """[(seat, move, line)], the resignation (seat, line) or None, and whether the
    colours ended the game exchanged (white as player 1, the board seen transposed).

    Which side a node's colour stands for: black is player 1 (unless the file starts
    with white to play, see :func:`_starting_frame`) until a swap after which the same
    colour moves again (HexGui 1.0 and Benzene: the stones stay and the players exchange
    colours).  After a swap that the other colour answers (PlayHex, HexGui 0.10+,
    Arena) the colours keep their players.  Little Golem's nodes alternate starting
    with either colour, so there the order alone tells who moved.
    """
    entries = []
    for props, line in nodes:
        for colour in ("B", "W"):
            for value in props.get(colour, []):
                entries.append((colour, value.strip(), line))
    moves = []
    for index, (colour, value, line) in enumerate(entries):
        if golem:
            seat = index % 2
        else:
            seat = ("BW".index(colour) + switched) % 2
        word = value.lower()
        if word == "resign":
            if index + 1 < len(entries):
                raise RecordFormatError(path, entries[index + 1][2], "no move after a resignation")
            return moves, (seat, line), switched
        if word in ("pass", "", "tt"):
            raise RecordFormatError(path, line, f"a Hex move, not a pass ({colour}[{value}])")
        move = _sgf_cell(value, size, path, line)
        if switched and not move.is_swap:
            move = HexMove(move.col, move.row)
        moves.append((seat, move, line))
        if move.is_swap and not golem:
            after = entries[index + 1][0] if index + 1 < len(entries) else None
            if word == "swap-sides" or after == colour:
                switched = not switched
    return moves, None, switched


def _starting_frame(rows, first: str | None, golem: bool, path: str, line: int) -> bool:
    """Whether to read the file with the colours exchanged from the start.

    Arena's start has player 1 to move on equal stone counts and player 2 when player 1
    has one stone more.  Black as player 1 fits when black has as many stones and is to
    play, or one more and white is to play; otherwise white as player 1 (the board
    transposed) may fit, e.g. a puzzle with white to play on equal counts.
    """
    if golem:
        return False
    black = sum(r.count("1") for r in rows)
    white = sum(r.count("2") for r in rows)
    first = first or ("W" if black == white + 1 else "B")
    if (black, first) in ((white, "B"), (white + 1, "W")):
        return False
    if (white, first) in ((black, "W"), (black + 1, "B")):
        return True
    raise RecordFormatError(path, line, "a set-up Arena can start from (the side to play has as many "
                            f"stones as the other, or one fewer), not {black} black and {white} white "
                            f"stones with {'black' if first == 'B' else 'white'} to play")


def _ends_before(state: HexState, moves) -> bool:
    """Whether the moves already end the game (Benzene answers genmove with resign
    once the game is over, and twogtp records that as a resignation)."""
    state = state.clone()
    try:
        for seat, move, _ in moves:
            state.check_move(seat, move)
            state.apply({seat: move})
    except IllegalMoveError:
        return False
    return state.is_terminal()


def _sgf_size(root: dict, path: str, line: int) -> int:
    value = root.get("SZ", ["11"])[0].strip()
    parts = value.split(":")
    if not all(re.fullmatch(r"\d{1,3}", p.strip()) for p in parts) or len(parts) > 2:
        raise RecordFormatError(path, line, f"SZ[n] with the board size, not SZ[{value}]")
    if len(set(int(p) for p in parts)) != 1:
        raise RecordFormatError(path, line, f"a square board: Arena plays Hex on n x n boards only, "
                                f"and SZ[{value}] is {parts[0].strip()} wide and {parts[1].strip()} high")
    size = int(parts[0])
    if not 1 <= size <= MAX_SIZE:
        raise RecordFormatError(path, line, f"SZ between 1 and {MAX_SIZE}")
    return size


_GO_POINT_RE = re.compile(r"^[a-t][a-t]$")


def _sgf_cell(value: str, size: int, path: str, line: int) -> HexMove:
    """A HexGui cell name (``c5``), a Go-style point (``ce``: column c, row e, as Little
    Golem and old HexGui write), or a swap."""
    text = value.strip().lower()
    if _GO_POINT_RE.match(text):
        text = f"{text[0]}{ord(text[1]) - ord('a') + 1}"
    try:
        move = from_hexgui(text)
    except MoveSyntaxError:
        raise RecordFormatError(path, line, f"a HexGui cell such as c5, not [{value}]") from None
    if not move.is_swap and not (move.row <= size and move.col <= size):
        raise RecordFormatError(path, line, f"a cell on the {size}x{size} board, not [{value}]")
    return move


def _sgf_outcome(value: str, path: str, line: int, golem: bool = False,
                 switched: bool = False) -> Outcome | None:
    value = value.strip().upper()
    if not value or value == "?":
        return None
    if value in ("0", "DRAW"):
        return Outcome((), (0.5, 0.5), Termination.DRAW, "no winner")
    match = re.match(r"^([BW])(?:\+(.*))?$", value)
    if not match:
        raise RecordFormatError(path, line, f"RE[B+...] or RE[W+...], not RE[{value}]")
    seat = (0 if match.group(1) == "B" else 1) ^ int(switched)
    reason = {"T": Termination.TIMEOUT, "TIME": Termination.TIMEOUT, "R": Termination.RESIGNATION,
              "RESIGN": Termination.RESIGNATION, "F": Termination.ADJUDICATION,
              "FORFEIT": Termination.ADJUDICATION}.get(match.group(2) or "", Termination.WIN)
    return uniform_outcome_two_player(seat, reason, f"{'Black' if match.group(1) == 'B' else 'White'} "
                                      f"wins ({value})")


# ====================================================================== writing
def write_contest_records(replay_or_match: Any, folder: str | Path) -> list[Path]:
    """Write HEX.OUT and hex.sgf for a match (or its replay) into ``folder``."""
    replay = replay_or_match.as_replay() if hasattr(replay_or_match, "as_replay") else replay_or_match
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / HEX_OUT, folder / SGF_NAME]
    atomic_write(paths[0], format_hex_out(replay))
    atomic_write(paths[1], format_sgf(replay))
    return paths


READERS = [HexOutReader(), SgfReader()]


EXPORTS = {
    "SGF": lambda replay, index: (SGF_NAME, format_sgf(replay)),
    "HEX.OUT": lambda replay, index: (HEX_OUT, format_hex_out(replay)),
}
