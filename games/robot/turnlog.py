"""The Robot organizers' JSON turn log: read as a replay, write from a match, audit.

The log is one JSON object keyed by turn number (``"0"``, ``"1"``, ...).  Entry ``t``
is the game after turn ``t`` was played (``"0"``: after placement and the first
spawn), so it is what the next MAP.INP (T = t + 1) shows.  Each entry holds

* ``players``: keyed ``"0"``...: ``position {x, y}`` (where a robot that left stood
  when it left; ``-1 -1`` if never placed), ``alive``, ``area`` (cells of its colour),
  ``color`` (``"A"``...; a number 0-3 is read too), ``tangtoc`` (turns of speed left),
  ``dautron`` (turns left to use oil), ``powerup`` (``"G"``, ``"F"`` or ``""``);
* ``frequency`` (the shrink period K), ``stopGame`` (true once the game is over);
* ``map``: ``rows``, ``columns``, ``grid`` (row strings; ``*`` = sealed while empty);
* ``powerups``: list of ``x``, ``y``, ``type``, ``timeout`` (turns until it vanishes).

The original map is recovered from any entry (painted and sealed cells were open).
The audit re-runs the rules from each entry to the next with the logged positions as
answers and the logged items as the spawns, and lists every disagreement.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.api import Event, RecordFormatError
from games.replay import RecordReader, Replay, TurnInfo
from games.robot.rules import COLOURS, Board, Item, RobotState, _OPEN

FORMAT = "robot-turnlog"
HELD = {"G", "F"}


# ----------------------------------------------------------------------------- reading
class TurnLogError(RecordFormatError):
    pass


def _line_of(text: str, turn: str) -> int | None:
    """The line where turn ``turn``'s entry starts (for error messages)."""
    at = text.find(f'"{turn}"')
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def load_entries(text: str, path: str) -> list[dict]:
    """The log's entries in turn order, checked enough to build states from."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TurnLogError(path, exc.lineno, f"valid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not data:
        raise TurnLogError(path, 1, 'a JSON object keyed by turn number ("0", "1", ...)')
    turns = sorted(int(k) for k in data if k.strip().isdigit())
    if not turns:
        raise TurnLogError(path, 1, 'turn entries keyed "0", "1", ...')
    if turns != list(range(len(turns))):
        raise TurnLogError(path, 1, f"turns 0..{len(turns) - 1} with none missing")
    entries = []
    for t in turns:
        entry = data[str(t)]
        where = _line_of(text, str(t))
        _check_entry(entry, path, where, t)
        entries.append(entry)
    return entries


def _check_entry(entry: Any, path: str, line: int | None, t: int) -> None:
    def need(ok: bool, what: str):
        if not ok:
            raise TurnLogError(path, line, f"turn {t}: {what}")

    need(isinstance(entry, dict), "an object")
    for key in ("players", "map", "powerups"):
        need(key in entry, f'a "{key}" field')
    grid = entry["map"]
    need(isinstance(grid, dict) and isinstance(grid.get("grid"), list), 'map {rows, columns, grid}')
    rows = grid["grid"]
    need(bool(rows) and all(isinstance(r, str) for r in rows), "map.grid as a list of row strings")
    width = len(rows[0].replace(" ", ""))
    need(all(len(r.replace(" ", "")) == width for r in rows), f"every map row {width} cells long")
    need(all(set(r.replace(" ", "")) <= set(".#*ABCDabcd") for r in rows),
         "map cells among . # * A-D a-d")
    need(grid.get("rows", len(rows)) == len(rows) and grid.get("columns", width) == width,
         "map rows/columns matching the grid")
    players = entry["players"]
    need(isinstance(players, dict) and 2 <= len(players) <= 4, "2-4 players")
    for key, p in players.items():
        need(isinstance(p, dict) and isinstance(p.get("position"), dict)
             and isinstance(p["position"].get("x"), int) and isinstance(p["position"].get("y"), int),
             f"player {key} with position {{x, y}}")
    need(isinstance(entry["powerups"], list) and all(
        isinstance(i, dict) and isinstance(i.get("x"), int) and isinstance(i.get("y"), int)
        and str(i.get("type", "")).upper() in ("G", "E", "F") for i in entry["powerups"]),
        "powerups as {x, y, type} with type G, E or F")
    for i in entry["powerups"]:
        i["type"] = str(i["type"]).upper()
    if t == 0:
        need(isinstance(entry.get("frequency"), int) and entry["frequency"] > 0,
             "frequency (the shrink period K) as a positive whole number")


def original_rows(entry: dict) -> list[str]:
    """The map as it was before turn 0: painted and sealed-empty cells were open."""
    table = str.maketrans({c: "." for c in "ABCDabcd*"})
    return [r.replace(" ", "").translate(table) for r in entry["map"]["grid"]]


def board_for(entries: list[dict]) -> Board:
    first = entries[0]
    rows = original_rows(first)
    period = int(first["frequency"])
    return Board(len(rows), len(rows[0]), period, rows, "turn log")


def _colour_index(value: Any, default: int) -> int:
    if isinstance(value, str) and value.upper() in COLOURS:
        return COLOURS.index(value.upper())
    if isinstance(value, int) and 0 <= value < 4:
        return value
    return default


def state_from_entry(board: Board, entry: dict, turn: int, respawn: bool = False) -> RobotState:
    """The state logged as entry ``turn`` (the game after that turn)."""
    players = entry["players"]
    count = len(players)
    state = RobotState(board, count, 0, respawn)
    state.grid = bytearray()
    for row in entry["map"]["grid"]:
        state.grid += row.replace(" ", "").encode("ascii") + b"\n"
    for key in sorted(players, key=int):
        data = players[key]
        seat = _colour_index(data.get("color"), int(key))
        robot = state.robots[seat]
        x, y = data["position"]["x"], data["position"]["y"]
        placed = board.on_map(x, y)
        robot.in_game = bool(data.get("alive", placed)) and placed
        robot.pos = board.index(x, y) if robot.in_game else None
        robot.last_pos = board.index(x, y) if placed else None
        if not robot.in_game and placed:
            robot.left_turn = turn
        robot.speed_turns = int(data.get("tangtoc") or 0) if robot.in_game else 0
        robot.oil_turns = int(data.get("dautron") or 0) if robot.in_game else 0
        robot.on_oil = robot.in_game and not _OPEN[state.grid[robot.pos]]
    state.items = [(board.index(i["x"], i["y"]), i["type"]) for i in entry["powerups"]]
    state.turn = turn + 1
    state.finished = bool(entry.get("stopGame"))
    if hasattr(state, "_score_trail"):            # the renderer's score history
        state._score_trail = (None, state.scores())
    return state


def _moves_from(entry: dict, before: RobotState) -> dict[int, tuple[int, int]]:
    """The logged answers for the turn that led to ``entry``: each robot's new cell."""
    moves = {}
    for key, data in entry["players"].items():
        seat = _colour_index(data.get("color"), int(key))
        if seat in before.to_move():
            moves[seat] = (data["position"]["x"], data["position"]["y"])
    return moves


def _events_between(before: RobotState, after: RobotState) -> tuple[Event, ...]:
    events = []
    for seat in range(after.players):
        if before.robots[seat].in_game and not after.robots[seat].in_game and not after.finished:
            events.append(Event("elimination", f"{COLOURS[seat]} left the game", (seat,)))
    if after.grid.count(b"*") + sum(after.grid.count(c.lower().encode()) for c in COLOURS) > \
            before.grid.count(b"*") + sum(before.grid.count(c.lower().encode()) for c in COLOURS):
        events.append(Event("shrink", "a ring was sealed"))
    return tuple(events)


class TurnLogReader(RecordReader):
    format = FORMAT
    game = "robot"

    def sniff(self, text: str, path: str) -> bool:
        head = text.lstrip()[:4000]
        return head.startswith("{") and '"players"' in head and (
            '"powerups"' in head or '"stopGame"' in head or '"tangtoc"' in head)

    def read(self, text: str, path: str) -> Replay:
        entries = load_entries(text, path)
        board = board_for(entries)
        players = len(entries[0]["players"])
        states: list[RobotState] = [RobotState(board, players, 0)]
        turns: list[TurnInfo] = []
        for t, entry in enumerate(entries):
            state = state_from_entry(board, entry, t)
            state._score_trail = (states[-1]._score_trail, state.scores())   # the chart's history
            moves = _moves_from(entry, states[-1])
            turns.append(TurnInfo(number=t + 1, moves={s: f"{x} {y}" for s, (x, y) in moves.items()},
                                  events=_events_between(states[-1], state)))
            states.append(state)
        last = states[-1]
        if not last.finished and entries[-1].get("stopGame") is None:
            last.finished = not any(_OPEN[ch] for ch in last.grid)
        header = {"game": "robot", "format": FORMAT, "options": {
            "players": players, "period": board.period}, "map": "\n".join(board.rows)}
        return Replay("robot", FORMAT, path, header, states, turns, last.outcome(),
                      [f"Robot {COLOURS[s]}" for s in range(players)])


READERS = [TurnLogReader()]


# ----------------------------------------------------------------------------- writing
def entry_for(state: RobotState) -> dict:
    """The log entry for ``state`` (the game after turn ``state.turn - 1``)."""
    b = state.board
    players = {}
    for robot in state.robots:
        cell = robot.pos if robot.pos is not None else robot.last_pos
        x, y = b.xy(cell) if cell is not None else (-1, -1)
        players[str(robot.seat)] = {
            "position": {"x": x, "y": y}, "alive": robot.in_game, "area": state.score(robot.seat),
            "color": robot.colour, "tangtoc": robot.speed_turns, "dautron": robot.oil_turns,
            "powerup": robot.held}
    shrink = state.next_shrink_turn()
    timeout = (shrink - state.turn + 1) if shrink is not None else 0
    return {"players": players, "frequency": b.period, "stopGame": state.finished,
            "map": {"rows": b.height, "columns": b.width, "grid": state.map_rows(raw=True)},
            "powerups": [{"x": i.x, "y": i.y, "type": i.kind, "timeout": timeout}
                         for i in state.item_list()]}


def turn_log(states: list[RobotState]) -> dict:
    """The whole log for a game given as its states (``states[0]`` before turn 0)."""
    return {str(i): entry_for(state) for i, state in enumerate(states[1:])}


def map_file_text(board: Board) -> str:
    """The organizers' map file for ``board`` (``M N K`` then the rows)."""
    return f"{board.height} {board.width} {board.period}\n" + "\n".join(board.rows) + "\n"


def write_contest_records(replay: Replay, folder: str | Path) -> list[str]:
    """The plugin's writer: the organizers' turn log and map file of a finished match."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = (Path(replay.source).name.split(".")[0] if replay.source else "") or "robot"
    log_path = folder / f"{stem}.turnlog.json"
    log_path.write_text(json.dumps(turn_log(replay.states), indent=1) + "\n", encoding="utf-8")
    map_path = folder / f"{stem}.map.txt"
    map_path.write_text(map_file_text(replay.states[0].board), encoding="utf-8")
    return [str(log_path), str(map_path)]


# ----------------------------------------------------------------------------- audit
def audit(text: str, path: str, respawn: bool = False) -> tuple[list[str], int, int]:
    """Re-run the rules turn by turn; return (report lines, turns audited, divergent)."""
    entries = load_entries(text, path)
    board = board_for(entries)
    players = len(entries[0]["players"])
    before = RobotState(board, players, 0, respawn)
    lines, divergent = [], 0
    for t, entry in enumerate(entries):
        logged = state_from_entry(board, entry, t, respawn)
        predicted = before.clone()
        predicted.injected_spawns = [[Item(i["x"], i["y"], i["type"]) for i in entry["powerups"]]]
        if not predicted.is_terminal():
            predicted.apply(_moves_from(entry, before))
        problems = compare(predicted, logged, entry)
        if problems:
            divergent += 1
            lines += [f"turn {t}: {p}" for p in problems]
        before = logged
    lines.append(f"{len(entries)} turns audited, {divergent} divergent")
    return lines, len(entries), divergent


def compare(predicted: RobotState, logged: RobotState, entry: dict) -> list[str]:
    """Where the rules' state and the logged one differ, one sentence each."""
    problems = []
    b = logged.board
    for x in range(b.height):
        for y in range(b.width):
            want, got = logged.raw_cell(x, y), predicted.raw_cell(x, y)
            if want != got and {want, got} != {"#", "*"}:
                problems.append(f"cell ({x}, {y}): log {want!r}, rules {got!r}")
    for seat in range(logged.players):
        a, p = logged.robots[seat], predicted.robots[seat]
        if a.in_game != p.in_game and not (logged.finished and predicted.finished):
            why = f" ({p.why})" if p.why else ""
            problems.append(f"player {COLOURS[seat]} alive: log {a.in_game}, rules {p.in_game}{why}")
        elif a.in_game and a.pos != p.pos:
            problems.append(f"player {COLOURS[seat]} position: log {b.xy(a.pos)}, rules "
                            f"{b.xy(p.pos) if p.pos is not None else None}")
        elif a.in_game and (a.speed_turns, a.oil_turns) != (p.speed_turns, p.oil_turns):
            problems.append(f"player {COLOURS[seat]} items: log tangtoc {a.speed_turns} dautron "
                            f"{a.oil_turns}, rules tangtoc {p.speed_turns} dautron {p.oil_turns}")
        area = entry["players"].get(str(seat), {}).get("area")
        if isinstance(area, int) and area != logged.score(seat):
            problems.append(f"player {COLOURS[seat]} area: log {area}, its map has {logged.score(seat)}")
    want_items = sorted((i.x, i.y, i.kind) for i in logged.item_list())
    got_items = sorted((i.x, i.y, i.kind) for i in predicted.item_list())
    if want_items != got_items:
        problems.append(f"items: log {want_items}, rules {got_items}")
    if logged.finished != predicted.finished:
        problems.append(f"stopGame: log {logged.finished}, rules {predicted.finished}")
    return problems
