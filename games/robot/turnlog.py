"""The Robot organizers' JSON turn log: read as a replay, written from a match, audited.

The log is one JSON object keyed by turn number (``"0"``, ``"1"``, ...).  Entry ``t``
is the game as turn ``t`` starts, what MAP.INP with T = t shows: entry ``"0"`` is the
blank map before placement (every robot at ``-1 -1``, alive), entry ``t + 1`` the game
after turn ``t``; the last entry (``stopGame`` true) is the game over.  So a log of
n + 1 entries holds turns 0 .. n - 1, and the arena's state ``t`` is entry ``t``.
Each entry holds, in this order,

* ``players``: keyed ``"0"``...: ``position {x, y}`` (where a robot that left stood
  when it left; ``-1 -1`` if never placed), ``alive``, ``area`` (cells of its colour),
  ``color`` (``"A"``...; a number 0-3 is read too), ``tangtoc`` (turns of speed left),
  ``dautron`` (turns left to use oil), ``powerup`` (``"tangtoc"``, ``"dautron"`` or
  null; the arena's older ``"G"``/``"F"``/``""`` are read too);
* ``frequency`` (the shrink period K), ``stopGame`` (true in the last entry only);
* ``map``: ``rows``, ``columns``, ``grid`` (row strings; ``*`` = sealed while empty);
* ``powerups``: list of ``x``, ``y``, ``type``, ``timeout`` (turns until it vanishes).

The organizers' referee writes it with ``json.dumps(log, indent=5)`` and no final
newline; :func:`dump` does the same.  The original map is recovered from any entry
(painted and sealed cells were open).  The audit re-runs the rules from each entry to
the next with the logged positions as answers and the logged items as the spawns, lists
every disagreement and names its cause: the behaviour of the organizers' referee
(``games.robot.rules.QUIRKS``) that, turned on, reproduces the logged turn.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from games.api import Event, Message, RecordFormatError
from games.replay import RecordReader, Replay, TurnInfo
from itertools import combinations

from games.robot.rules import COLOURS, QUIRKS, Board, Item, RobotState, _OPEN, _OPEN_TABLE

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
    """The log's entries in turn order, checked enough to build states from.

    A whole log starts at entry ``"0"``; an excerpt (consecutive entries from any
    turn, e.g. a hand-made test case) is read too: :func:`first_turn` tells where it
    starts."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TurnLogError(path, exc.lineno, f"valid JSON ({exc.msg})") from None
    except RecursionError:
        raise TurnLogError(path, 1, "JSON nested at most a few hundred deep") from None
    except ValueError as exc:                   # an integer of more than 4,300 digits
        long_number = re.search(r"\d{4300,}", text)
        line = text.count("\n", 0, long_number.start()) + 1 if long_number else None
        raise TurnLogError(path, line, f"numbers of at most 4,300 digits ({exc})") from None
    if not isinstance(data, dict) or not data:
        raise TurnLogError(path, 1, 'a JSON object keyed by turn number ("0", "1", ...)')
    turns = sorted(int(k) for k in data if k.strip().isascii() and k.strip().isdigit() and len(k) < 10)
    if not turns:
        raise TurnLogError(path, 1, 'turn entries keyed "0", "1", ...')
    if turns != list(range(turns[0], turns[0] + len(turns))):
        raise TurnLogError(path, 1, f"turns {turns[0]}..{turns[0] + len(turns) - 1} with none missing")
    entries = []
    for t in turns:
        entry = data[str(t)]
        where = _line_of(text, str(t))
        _check_entry(entry, path, where, t, t == turns[0])
        entry["_turn"] = t
        entries.append(entry)
    return entries


def first_turn(entries: list[dict]) -> int:
    return entries[0].get("_turn", 0)


def _check_entry(entry: Any, path: str, line: int | None, t: int, first: bool) -> None:
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
        need(key.isascii() and key.isdigit() and int(key) < 4, f'players keyed "0" to "3", not {key[:20]!r}')
        need(isinstance(p, dict) and isinstance(p.get("position"), dict)
             and _whole(p["position"].get("x")) and _whole(p["position"].get("y")),
             f"player {key} with position {{x, y}} as whole numbers")
        for name in ("tangtoc", "dautron", "area"):
            need(p.get(name) is None or (_whole(p[name]) and 0 <= p[name] < 10 ** 6),
                 f"player {key}: {name} as a whole number from 0")
        need(isinstance(p.get("alive", True), (bool, int)), f"player {key}: alive as true or false")
    need(isinstance(entry["powerups"], list) and all(
        isinstance(i, dict) and _whole(i.get("x")) and _whole(i.get("y"))
        and 0 <= i["x"] < len(rows) and 0 <= i["y"] < width
        and str(i.get("type", "")).upper() in ("G", "E", "F") for i in entry["powerups"]),
        "powerups as {x, y, type} on the map, with type G, E or F")
    for i in entry["powerups"]:
        i["type"] = str(i["type"]).upper()
    if first:
        need(_whole(entry.get("frequency")) and 0 < entry["frequency"] < 10 ** 6,
             "frequency (the shrink period K) as a positive whole number")


def _whole(value: Any) -> bool:
    """A JSON whole number (``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


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


def state_from_entry(board: Board, entry: dict, turn: int, respawn: bool = False,
                     quirks=()) -> RobotState:
    """The state logged as entry ``turn``: the game as turn ``turn`` starts."""
    players = entry["players"]
    count = len(players)
    state = RobotState(board, count, 0, respawn, quirks)
    state.grid = bytearray()
    for row in entry["map"]["grid"]:
        state.grid += row.replace(" ", "").encode("ascii") + b"\n"
    for key in sorted(players, key=int):
        data = players[key]
        seat = _colour_index(data.get("color"), int(key))
        robot = state.robots[seat]
        x, y = data["position"]["x"], data["position"]["y"]
        placed = board.on_map(x, y)
        alive = bool(data.get("alive", placed))
        speed, oil = int(data.get("tangtoc") or 0), int(data.get("dautron") or 0)
        robot.in_game = alive                       # alive and unplaced: placing (entry 0)
        robot.pos = board.index(x, y) if alive and placed else None
        robot.last_pos = board.index(x, y) if placed else None
        if not alive:
            robot.left_turn = turn if placed else None
            robot.left_items = (speed, oil)
        robot.speed_turns = speed if alive else 0
        robot.oil_turns = oil if alive else 0
        robot.on_oil = robot.pos is not None and not _OPEN[state.grid[robot.pos]]
    state.items = [(board.index(i["x"], i["y"]), i["type"]) for i in entry["powerups"]]
    state.turn = turn
    state.rings_sealed = _rings_sealed(state)
    state.finished = bool(entry.get("stopGame"))
    state._score_trail = (None, state.scores())      # the renderer's score history
    return state


def _rings_sealed(state: RobotState) -> int:
    """How many rings are sealed in a logged state: one every K turns so far, and any
    further outer rings the log shows sealed (the organizers' referee seals one a turn
    once every robot has left)."""
    b = state.board
    done = min(b.shrinks, (state.turn - 1) // b.period) if state.turn > 0 else 0
    while done < b.shrinks:
        ring = [state.grid[p] for p in b.rings[done]]
        sealed = any(ch == ord("*") or 97 <= ch <= 100 for ch in ring)
        if not sealed or any(_OPEN[ch] for ch in ring):
            break
        done += 1
    return done


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
            events.append(Event("elimination", Message("{robot} left the game", robot=COLOURS[seat]), (seat,)))
    if after.rings_sealed > before.rings_sealed:
        events.append(Event("shrink", Message("a ring was sealed")))
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
        states: list[RobotState] = []
        turns: list[TurnInfo] = []
        for t, entry in enumerate(entries, first_turn(entries)):
            state = state_from_entry(board, entry, t)
            if states:
                state._score_trail = (states[-1]._score_trail, state.scores())
                moves = _moves_from(entry, states[-1])
                turns.append(TurnInfo(number=t - 1, moves={s: f"{x} {y}" for s, (x, y) in moves.items()},
                                      events=_events_between(states[-1], state)))
            states.append(state)
        last = states[-1]
        if not last.finished and entries[-1].get("stopGame") is None:
            last.finished = b"1" not in last.grid.translate(_OPEN_TABLE)
        header = {"game": "robot", "format": FORMAT, "options": {
            "players": players, "period": board.period}, "map": "\n".join(board.rows)}
        return Replay("robot", FORMAT, path, header, states, turns, last.outcome(),
                      [f"Robot {COLOURS[s]}" for s in range(players)])


READERS = [TurnLogReader()]


# ----------------------------------------------------------------------------- writing
POWERUP_NAMES = {"G": "tangtoc", "F": "dautron"}


def entry_for(state: RobotState) -> dict:
    """The log entry for ``state`` (the game as turn ``state.turn`` starts), with the
    organizers' keys in their order."""
    b = state.board
    players = {}
    for robot in state.robots:
        cell = robot.pos if robot.pos is not None else robot.last_pos
        x, y = b.xy(cell) if cell is not None else (-1, -1)
        speed, oil = ((robot.speed_turns, robot.oil_turns) if robot.in_game or robot.left_turn is None
                      else robot.left_items)
        held = "G" if speed > 0 else "F" if oil > 0 else ""
        players[str(robot.seat)] = {
            "position": {"x": x, "y": y}, "alive": robot.in_game or robot.left_turn is None,
            "area": state.score(robot.seat), "color": robot.colour, "tangtoc": speed,
            "dautron": oil, "powerup": POWERUP_NAMES.get(held)}
    k, t = b.period, state.turn
    timeout = (k * ((t - 1) // k) + k - t + 1) if t > 0 else k     # K turns from the spawn
    return {"players": players, "frequency": k, "stopGame": state.finished,
            "map": {"rows": b.height, "columns": b.width, "grid": state.map_rows(raw=True)},
            "powerups": [{"x": i.x, "y": i.y, "type": i.kind, "timeout": timeout}
                         for i in state.item_list()]}


def turn_log(states: list[RobotState]) -> dict:
    """The whole log for a game given as its states (``states[0]`` before turn 0).

    With quirk ``seal-after-all-left`` (option ``compat = organizers``) a game that ended
    because every robot left goes on, as the organizers' referee does, one sealed ring
    per turn until no open cell remains (nothing else changes: the scores are final)."""
    log = {str(state.turn): entry_for(state) for state in states}
    last = states[-1]
    if "seal-after-all-left" in last.quirks and last.finished and last.outcome() is not None \
            and b"1" in last.grid.translate(_OPEN_TABLE):
        state = last.clone()
        state.finished = False
        log[str(state.turn)] = entry_for(state)
        while not state.finished:
            state.sealing_turn()
            log[str(state.turn)] = entry_for(state)
    return log


def dump(log: dict) -> str:
    """The log's text as the organizers' referee writes it."""
    return json.dumps(log, indent=5)


def map_file_text(board: Board) -> str:
    """The organizers' map file for ``board`` (``M N K`` then the rows)."""
    return f"{board.height} {board.width} {board.period}\n" + "\n".join(board.rows) + "\n"


def write_contest_records(replay: Replay, folder: str | Path) -> list[str]:
    """The plugin's writer: the organizers' turn log and map file of a finished match."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = (Path(replay.source).name.split(".")[0] if replay.source else "") or "robot"
    log_path = folder / f"{stem}.turnlog.json"
    log_path.write_text(dump(turn_log(replay.states)), encoding="utf-8")
    map_path = folder / f"{stem}.map.txt"
    map_path.write_text(map_file_text(replay.states[0].board), encoding="utf-8")
    return [str(log_path), str(map_path)]


# ----------------------------------------------------------------------------- audit
#: The quirks the audit tries, one at a time and then in pairs, to explain a divergence.
AUDIT_QUIRKS = ("seal-after-all-left", "paint-layers", "enclosure-in-order",
                "explosion-first-robot", "spawn-schedule", "spawn-fair-only")
# Not "repaint-short-double": the cell it repaints comes from an earlier turn, which an
# audit re-running one logged turn at a time does not know.


def predict(before: RobotState, entry: dict, quirks=()) -> RobotState:
    """The rules' (with ``quirks``) state after the turn that led to ``entry``."""
    predicted = before.clone()
    predicted.quirks = frozenset(quirks)
    predicted.injected_spawns = [[Item(i["x"], i["y"], i["type"]) for i in entry["powerups"]]]
    if not predicted.to_move() and not predicted.finished:
        predicted.sealing_turn() if "seal-after-all-left" in predicted.quirks else predicted.apply({})
    elif not predicted.is_terminal():
        predicted.apply(_moves_from(entry, before))
    return predicted


def explain(before: RobotState, entry: dict, logged: RobotState, quirks=()) -> str:
    """Which organizers' behaviours (one or two) reproduce the logged turn, or "".

    Auditing with ``quirks`` on, the cause is the behaviours that, turned off (the
    arena's rule instead), reproduce it: ``"not <quirk>"``."""
    quirks = frozenset(quirks)
    for size in (1, 2):
        if quirks:
            for combo in combinations(sorted(quirks), size):
                if not compare(predict(before, entry, quirks - set(combo)), logged, entry):
                    return " + ".join(f"not {q}" for q in combo)
        else:
            for combo in combinations(AUDIT_QUIRKS, size):
                if not compare(predict(before, entry, combo), logged, entry):
                    return " + ".join(combo)
    return ""


def audit(text: str, path: str, respawn: bool = False, quirks=()) -> tuple[list[str], int, int, int]:
    """Re-run the rules (with ``quirks``, e.g. all of ``QUIRKS`` for ``compat =
    organizers``) from each entry to the next; return (report lines, turns audited,
    divergent, unexplained).  Turns are numbered as in the log: turn t leads from entry
    t to entry t + 1."""
    entries = load_entries(text, path)
    board = board_for(entries)
    lines, divergent, unexplained, causes = [], 0, 0, {}
    start = first_turn(entries)
    before = state_from_entry(board, entries[0], start, respawn, quirks)
    for t, entry in enumerate(entries[1:], start):
        logged = state_from_entry(board, entry, t + 1, respawn, quirks)
        problems = compare(predict(before, entry, quirks), logged, entry)
        if problems:
            divergent += 1
            cause = explain(before, entry, logged, quirks)
            if cause:
                causes[cause] = causes.get(cause, 0) + 1
                who = "the arena's rules" if quirks else "the organizers' referee"
                lines.append(f"turn {t}: {who}: {cause} ({_describe(cause)})")
            else:
                unexplained += 1
                lines.append(f"turn {t}: unexplained")
            lines += [f"turn {t}:   {p}" for p in problems]
        before = logged
    turns = len(entries) - 1
    for cause, count in sorted(causes.items()):
        lines.append(f"{count} turns: {cause}")
    lines.append(f"{turns} turns audited, {divergent} divergent, {unexplained} unexplained")
    return lines, turns, divergent, unexplained


def _describe(cause: str) -> str:
    return "; ".join(("not: " if q.startswith("not ") else "") + QUIRKS[q.removeprefix("not ")]
                     for q in cause.split(" + "))


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
            problems.append(f"player {COLOURS[seat]} position: log {_xy(b, a.pos)}, rules "
                            f"{_xy(b, p.pos)}")
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
    if predicted.spawn_check and predicted.spawn_check[0] != predicted.spawn_check[1]:
        drawn, logged_count = predicted.spawn_check
        problems.append(f"spawn: log {logged_count} new items, rules {drawn}")
    if predicted.injected_spawns and predicted.injected_spawns[0] and want_items != sorted(
            (i.x, i.y, i.kind) for i in predicted.item_list()):
        problems.append("spawn: log new items, rules none")
    stopped = logged.finished != predicted.finished
    gone = not any(r.in_game for r in predicted.robots) and not any(r.in_game for r in logged.robots)
    if stopped and not (gone and "seal-after-all-left" in predicted.quirks):
        problems.append(f"stopGame: log {logged.finished}, rules {predicted.finished}")
    return problems


def _xy(board: Board, pos: int | None):
    return board.xy(pos) if pos is not None else None
