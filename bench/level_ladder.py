"""A game's bot levels measured against each other: the ladder the New match form shows.

    nice -n 19 python bench/level_ladder.py hex --games 10 [--workers 4] [--out DIR] [--write]
    nice -n 19 python bench/level_ladder.py xiangqi --games 20      # + ElephantEye, from
                                                   # ARENA_ELEPHANTEYE, as the anchor
    nice -n 19 python bench/level_ladder.py tamquan --games 20
    nice -n 19 python bench/level_ladder.py robot --games 42        # duels, maps cycled
    ARENA_SANDBOX=basic ARENA_MOHEX=... nice -n 19 python bench/level_ladder.py hex \
        --anchor-only --games 2 --out /tmp/hex-ladder     # MoHex against each level only
    nice -n 19 python bench/level_ladder.py crosswords --games 20   # pile sets, not games
    python bench/level_ladder.py GAME --again bench/ladders/GAME-DATE.tar.xz --write
                                                   # no games: the files again from an
                                                   # earlier run's archive (or event folder)

The event folder (default ``out/ladders/GAME-DATE``) is the tournament's: run the same
command again and it plays only the games still missing.  ``--write`` also keeps the
games' records in the repository, as one compressed archive of the event folder,
``bench/ladders/GAME-DATE.tar.xz`` (:func:`archive_records`), which ``levels.json`` and
``LEVELS.md`` name.

Two-player games (Hex, Xiangqi, Tam Quan): one round robin of the levels (and of the
anchor engine, when one is given) through the arena's own tournament code
(:func:`runner.tournament.run_event`), ``--games`` games a pair, seats swapped every
game, so every game is a real arena record in ``OUT/matches/``.  Robot: duels the same
way, maps cycled (a ladder in the ``all-in`` format, every level in each 4-robot match, is
rated by placement: OpenSkill from the standings, and each pair's score from who finished
above whom in the same match).  ``--anchor-only`` plays the anchor against each level
(the tournament's gauntlet) and counts the level pairs of the game's ``levels.json`` with
those games, when a full round robin does not fit the time.  Crossed Words, a solitaire: each
level plays the same seeded pile sets through :class:`runner.match.Match`; its ladder
is the mean score and the ratio to the greedy level.

Each level plays at fixed work (:data:`LADDERS`: a depth, a node count, a number of
playouts, or the bot's untimed mode, which is one of those), never at a wall-clock
pace, so the result does not depend on the machine's load; the matches have no clock.
(Crossed Words' planner is the exception: it has no fixed-work mode; its budget is
wall time, and the load is printed beside it.)

Printed: each pair's score (the higher level's points a game) with its 95 % Wilson
interval, whether it reaches the 70 % the levels should be spaced by; each level's
Elo (Bradley-Terry, :func:`runner.ratings.elo_ratings`, level 1 = 0) with its 95 %
interval; the median nodes or playouts a move and CPU seconds a move each level
reported in the records; the games not played (a seat that never got through its
handshake, a referee failure), which count for nobody; the command, the date and the
load.  ``--write`` stores it as ``games/<game>/levels.json`` and ``LEVELS.md``.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import re
import shlex
import statistics
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner import ratings  # noqa: E402
from runner.levels import LEVELS_FILE, category, strength_text  # noqa: E402

#: The 70 % each level should score against the one below it (issue 43).
SPACING = 0.70
#: Where each ladder's records are kept (one ``GAME-DATE.tar.xz`` per run), and the size
#: past which the archive is too big for the repository (play fewer games, or keep a sample).
ARCHIVES = ROOT / "bench" / "ladders"
ARCHIVE_LIMIT = 3_000_000

#: MoHex's playouts a move as Hex's anchor (``param_mohex max_games``).
MOHEX_PLAYOUTS = 30

#: Every game's ladder: the seat each level plays as (fixed work), the options, what is
#: cycled over the games, the format.  ``{anchor}`` contestants are added when their
#: engine is found (the environment variable names its path).
LADDERS: dict[str, dict[str, Any]] = {
    "hex": {
        "variant": "11x11",
        "options": {"time_total": 0, "time_per_move": 0},      # untimed: playouts a move
        "levels": {1: "bot:1", 2: "bot:2", 3: "bot:3", 4: "bot:4", 5: "bot:5"},
        # Up to so many playouts: the search stops once no playout left could change its move.
        "work": {1: "random", 2: "up to 150 playouts a move", 3: "up to 800 playouts a move",
                 4: "up to 2,500 playouts a move", 5: "up to 96,000 playouts a move (compiled)"},
        # MoHex (Benzene's Hex engine; build: bench/gtp_match.py, run it with
        # ARENA_SANDBOX=basic and the event folder outside its own) at a fixed number of
        # playouts a move, the time cap far away so only the playouts stop it.
        "anchor": {"env": "ARENA_MOHEX", "name": f"MoHex {MOHEX_PLAYOUTS} playouts",
                   "seat": ('gtp:{path} --quiet cmd="param_mohex max_games %d" '
                            'cmd="param_mohex max_time 1000"' % MOHEX_PLAYOUTS),
                   "environment": "ARENA_SANDBOX=basic"},
    },
    "xiangqi": {
        "variant": None,
        "options": {"time_total": 0, "time_per_move": 0},
        "levels": {1: "bot:1", 2: "bot:2 depth=1", 3: "bot:3 depth=2", 4: "bot:4 depth=4",
                   5: "bot:5 nodes=100000"},
        "work": {1: "random, captures half the time", 2: "depth 1", 3: "depth 2", 4: "depth 4",
                 5: "100,000 nodes a move (compiled)"},
        "anchor": {"env": "ARENA_ELEPHANTEYE", "name": "ElephantEye depth 3",
                   "seat": "ucci:{path} depth=3"},
        # Openings cycled over the games, so two engines without randomness do not
        # replay one game: the usual start, then two plies of common openings.
        "openings": ["", "h2e2 h9g7", "c3c4 g6g5", "b0c2 b9c7", "h2e2 b9c7", "g3g4 c6c5",
                     "b2e2 h9g7", "c3c4 b9c7"],
    },
    "tamquan": {
        "variant": "5x5-2teams",
        "options": {},                                         # untimed: fixed depth
        "levels": {1: "bot:1", 2: "bot:2", 3: "bot:3", 4: "bot:4"},
        "work": {1: "random", 2: "one team turn", 3: "alpha-beta, 2 team turns",
                 4: "alpha-beta, 3 team turns"},
        "anchor": None,
    },
    "robot": {
        # Duels: "beats the one below" as a head-to-head game.  In matches of four robots
        # the placements bunch the levels together (the other two robots take cells from
        # both), so the all-in format does not show how far apart two levels are.
        "variant": "2 players",
        "options": {"players": 2},
        "levels": {1: "bot:1", 2: "bot:2", 3: "bot:3", 4: "bot:4"},
        "work": {1: "random", 2: "one-step painter, 25 % of its moves random",
                 3: "one turn ahead", 4: "3-4 turns ahead against predicted replies"},
        # Seven maps for six pairs: the tournament gives a pair's games the values
        # j + 6 * (round // 2) (:mod:`runner.tournament.plan`), so six maps would give
        # each pair one map; seven give every pair every map, both colours, in 14 games.
        "cycle": {"map": ["scatter-21", "open-11", "rooms-17", "cross-15", "pillars-13", "rings-21",
                          "maze-19"]},
        "anchor": None,
        "note": ("Duels, maps cycled (seven maps, each pair on every map as each robot). In matches of "
                 "four robots the levels finish closer together: the earlier ladder of 200 four-robot "
                 "matches (2026-11-28, level 2 then the painter without random moves) had level 3 at 60% "
                 "against level 2 and level 4 at 58% against level 3, by placement."),
    },
    "crosswords": {
        "variant": None,
        "solitaire": True,
        "options": {},
        "levels": {1: "bot:1", 2: "bot:2"},
        "work": {1: "greedy, each turn", 2: "planner, 5 s of wall time for the game (no fixed-work mode)"},
        "anchor": None,
        "wall_time": True,
        "note": ("The planner (level 2) has no fixed-work mode: it plans for 5 s of wall time, so its "
                 "figure depends on the share of the processor it gets (the load before and after "
                 "are above). Run it in its own session at nice -15, its autogroup set to nice -15 "
                 "too (`setsid nice -n -15 ...` with an autogroup watcher), so the planner has a "
                 "core whatever else runs; the ladder of 2026-11-28 before this one, at nice 19 on a "
                 "busy machine (load 8 to 23), had it only 2% above level 1 (3915 against 3844 "
                 "points a game)."),
    },
}


def load_text() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def wilson(points: float, games: int, z: float = ratings.Z95) -> tuple[float, float]:
    """95 % Wilson interval of a score fraction (draws as half points)."""
    if games <= 0:
        return 0.0, 1.0
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


# ====================================================================== the event
def xiangqi_fens(openings: Sequence[str]) -> list[str]:
    """Start FENs after each opening's moves ("" for the usual start)."""
    from games import registry
    game = registry.plugin("xiangqi").new_game()
    fens = []
    for line in openings:
        if not line:
            fens.append("")
            continue
        state = game.new_initial_state(game.spec.resolve_options(None), 0)
        for text in line.split():
            state.apply({state.to_move()[0]: game.parse_move(text)})
        fens.append(state.fen())
    return fens


def contestants(game: str, anchor_path: str | None = None) -> list[dict[str, str]]:
    """The ladder's contestants: ``level N`` per level, then the anchor engine if found."""
    ladder = LADDERS[game]
    people = [{"name": f"level {level}", "seat": seat} for level, seat in ladder["levels"].items()]
    anchor = ladder.get("anchor")
    if anchor:
        path = anchor_path if anchor_path is not None else os.environ.get(anchor["env"], "")
        if path and Path(path).is_file():
            people.append({"name": anchor["name"], "seat": anchor["seat"].format(path=shlex.quote(path))})
    return people


def event_data(game: str, games: int, seed: int, workers: int, people: Sequence[Mapping[str, str]],
               out: Path) -> dict:
    """The tournament event (as an event file's table) that plays the ladder."""
    ladder = LADDERS[game]
    data: dict[str, Any] = {
        "name": f"{game}-ladder", "game": game, "format": ladder.get("format", "round-robin"),
        "rounds": games, "seed": seed, "concurrency": workers, "options": dict(ladder["options"]),
        "contestant": [dict(p) for p in people], "out": str(out)}
    if ladder.get("variant"):
        data["variant"] = ladder["variant"]
        from games import registry
        spec = registry.plugin(game).new_game().spec
        data["options"] = {**spec.resolve_options(ladder["variant"]), **data["options"]}
        data["options"] = {k: v for k, v in data["options"].items() if v not in ("", None)}
    cycle = dict(ladder.get("cycle") or {})
    if ladder.get("openings"):
        cycle["fen"] = xiangqi_fens(ladder["openings"])
    if cycle:
        data["cycle"] = cycle
    return data


def run_ladder_event(data: Mapping[str, Any], executor=None, log=print) -> list[dict]:
    """Play the event through the arena's tournament code; its results file's lines."""
    from runner.tournament import event_from_dict, run_event
    event = event_from_dict(data, ROOT)
    event.clock = event.clock or "cpu"       # no limits anyway; the note says why it is not "wall"
    run_event(event, executor=executor, log=log)
    return read_results(event.out)


def read_results(folder: Path) -> list[dict]:
    path = Path(folder) / "results.jsonl"
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.strip():
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}, line {number}: not a JSON line ({exc.msg})") from None
    return lines


# ====================================================================== the figures
def counted(lines: Sequence[Mapping]) -> tuple[list[Mapping], list[Mapping]]:
    """(games with a result, games not played): a game whose seat never got through its
    handshake, or whose referee failed, has no outcome (or a not-played one) and counts
    for nobody."""
    played, not_played = [], []
    for line in lines:
        outcome = line.get("outcome")
        if not outcome or outcome.get("reason") == "not-played" or line.get("error"):
            not_played.append(line)
        else:
            played.append(line)
    return played, not_played


def pair_results(played: Sequence[Mapping]) -> list[tuple[str, str, float]]:
    """Every (a, b, score of a) of two contestants in the same game: for two seats the
    game itself, for more each pair of seats by who finished above whom."""
    results = []
    for line in played:
        names, ranks = line["contestants"], line["outcome"]["ranks"]
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                results.append((names[i], names[j],
                                1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0))
    return results


def pair_scores(results: Sequence[tuple[str, str, float]], names: Sequence[str]) -> list[dict]:
    """Per pair (stronger-listed second: ``names`` go weakest first), the second's score."""
    order = {n: i for i, n in enumerate(names)}
    table: dict[tuple[str, str], list[float]] = {}
    for a, b, s in results:
        low, high, score = (a, b, 1 - s) if order[a] < order[b] else (b, a, s)
        table.setdefault((low, high), []).append(score)
    rows = []
    for (low, high), scores in sorted(table.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])):
        points, n = sum(scores), len(scores)
        lo, hi = wilson(points, n)
        rows.append({"higher": high, "lower": low, "games": n, "points": points,
                     "score": round(points / n, 3), "low95": round(lo, 3), "high95": round(hi, 3),
                     "wins": sum(1 for s in scores if s == 1.0), "draws": sum(1 for s in scores if s == 0.5),
                     "losses": sum(1 for s in scores if s == 0.0)})
    return rows


SEARCH_WORDS = re.compile(r"\b(nodes|playouts)\s+(\d+)")


def work_per_move(out: Path, played: Sequence[Mapping]) -> dict[str, dict]:
    """Per contestant, from the records: median nodes or playouts a move (where the bot
    reports them) and median CPU seconds a move."""
    work: dict[str, dict[str, list[float]]] = {}
    for line in played:
        folder = Path(out) / line.get("folder", "")
        records = sorted(folder.glob("*.arena.jsonl"))
        if not records:
            continue
        for text in records[0].read_text(encoding="utf-8").splitlines():
            turn = json.loads(text)
            for seat, answer in (turn.get("answers") or {}).items():
                name = line["contestants"][int(seat)]
                entry = work.setdefault(name, {"nodes": [], "playouts": [], "cpu": []})
                if answer.get("cpu") is not None:
                    entry["cpu"].append(answer["cpu"])
                found = dict(SEARCH_WORDS.findall(answer.get("answered", "")))
                nodes = (answer.get("search") or {}).get("nodes") or found.get("nodes")
                if nodes:
                    entry["nodes"].append(float(nodes))
                if found.get("playouts"):
                    entry["playouts"].append(float(found["playouts"]))
    summary = {}
    for name, entry in work.items():
        row = {"moves": len(entry["cpu"])}
        for key in ("nodes", "playouts"):
            if entry[key]:
                row[f"{key}_median"] = int(statistics.median(entry[key]))
        if entry["cpu"]:
            row["cpu_median"] = round(statistics.median(entry["cpu"]), 4)
            row["cpu_total"] = round(sum(entry["cpu"]), 1)
        summary[name] = row
    return summary


def earlier_results(pairs: Sequence[Mapping]) -> list[tuple[str, str, float]]:
    """The games of an earlier run's pairs (``levels.json``'s ``summary.pairs``), one
    (higher, lower, score of higher) per game, from their wins, draws and losses."""
    results = []
    for p in pairs:
        for score, count in ((1.0, p["wins"]), (0.5, p["draws"]), (0.0, p["losses"])):
            results += [(p["higher"], p["lower"], score)] * int(count)
    return results


def rate(played: Sequence[Mapping], names: Sequence[str], out: Path | None = None,
         earlier: Sequence[tuple[str, str, float]] = ()) -> dict[str, dict]:
    """Each contestant's Elo (level 1 = 0) with its 95 % interval, from the pairs' results
    (and ``earlier`` ones); for games of more seats also the OpenSkill rating of the
    tournament's standings."""
    results = pair_results(played) + list(earlier)
    elo = ratings.elo_ratings(results) if results else {}
    base = elo.get(names[0], (0.0, 0.0))[0]
    rated = {n: {"elo": round(elo[n][0] - base, 1), "elo95": round(elo[n][1], 1)} for n in names if n in elo}
    if played and max(len(l["contestants"]) for l in played) > 2:
        skill = ratings.openskill_ratings([(l["contestants"], l["outcome"]["ranks"]) for l in played], names)
        for n in names:
            mu, sigma, ordinal = skill[n]
            rated.setdefault(n, {}).update({"mu": round(mu, 2), "sigma": round(sigma, 2)})
    return rated


# ====================================================================== the solitaire
def run_solitaire(game: str, games: int, seed: int, out: Path, log=print) -> list[dict]:
    """Each level on the same ``games`` seeded pile sets, one arena match each; results
    lines shaped as the tournament's (contestants, outcome, folder)."""
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    plugin = registry.plugin(game)
    ladder = LADDERS[game]
    options = plugin.new_game().spec.resolve_options(ladder.get("variant"), ladder["options"])
    lines = []
    for index in range(games):
        for level, spec in ladder["levels"].items():
            name = f"level {level}"
            folder = out / "matches" / f"s{seed + index}-l{level}"
            folder.mkdir(parents=True, exist_ok=True)
            record = folder / f"{game}-s{seed + index}-l{level}.arena.jsonl"
            match = Match(plugin, options, [make_seat(spec, plugin, seed + index)], seed=seed + index,
                          record_path=record, out_dir=folder)
            outcome = match.run()
            line = {"contestants": [name], "seed": seed + index, "folder": str(folder.relative_to(out)),
                    "outcome": outcome.to_json(), "result": outcome.result_text(), "load": load_text()}
            if match.error:
                line["error"] = match.error
            lines.append(line)
            log(f"pile set {seed + index} {name}: {line['result']} ({outcome.reason.value}; {load_text()})")
    (out / "results.jsonl").write_text("".join(json.dumps(l) + "\n" for l in lines), encoding="utf-8")
    return lines


def solitaire_table(played: Sequence[Mapping], names: Sequence[str]) -> dict[str, dict]:
    """Per level: mean score with its 95 % interval, and the mean ratio to level 1 on
    the same pile sets."""
    scores = {n: {} for n in names}
    for line in played:
        scores[line["contestants"][0]][line["seed"]] = line["outcome"]["scores"][0]
    base = scores[names[0]]
    table = {}
    for n in names:
        values = list(scores[n].values())
        if not values:
            continue
        mean = statistics.mean(values)
        half = ratings.Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
        ratios = [scores[n][s] / base[s] for s in scores[n] if base.get(s)]
        table[n] = {"sets": len(values), "mean": round(mean, 1), "mean95": round(half, 1),
                    "ratio": round(statistics.mean(ratios), 3) if ratios else None,
                    "ratio_low": round(min(ratios), 3) if ratios else None}
    return table


def solitaire_pairs(played: Sequence[Mapping], names: Sequence[str]) -> list[dict]:
    """Per level above the first, how often it beat the level below (scored more on the
    same pile set), shaped as :func:`pair_scores`'s rows: wins, draws (equal scores) and
    losses over the sets both played, the score (draws half) and its Wilson interval."""
    scores: dict[str, dict[int, float]] = {n: {} for n in names}
    for line in played:
        scores[line["contestants"][0]][line["seed"]] = line["outcome"]["scores"][0]
    rows = []
    for low, high in zip(names, names[1:]):
        sets = sorted(set(scores[low]) & set(scores[high]))
        if not sets:
            continue
        wins = sum(1 for s in sets if scores[high][s] > scores[low][s])
        draws = sum(1 for s in sets if scores[high][s] == scores[low][s])
        points = wins + draws / 2
        lo, hi = wilson(points, len(sets))
        rows.append({"higher": high, "lower": low, "games": len(sets), "points": points,
                     "score": round(points / len(sets), 3), "low95": round(lo, 3), "high95": round(hi, 3),
                     "wins": wins, "draws": draws, "losses": len(sets) - wins - draws})
    return rows


# ====================================================================== the report
def summarise(game: str, lines: Sequence[Mapping], people: Sequence[Mapping], out: Path,
              earlier: Mapping | None = None) -> dict:
    """The ladder's figures (what ``levels.json`` holds, less where it came from).
    ``earlier`` (``--anchor-only``): an earlier run's level pairs and work a move, counted
    with this run's games."""
    names = [p["name"] for p in people]
    played, not_played = counted(lines)
    summary: dict[str, Any] = {"games_played": len(played), "not_played": len(not_played),
                               "not_played_why": sorted({str(l.get("error") or (l.get("outcome") or {})
                                                             .get("detail", "")) for l in not_played})}
    if LADDERS[game].get("solitaire"):
        summary["solitaire"] = solitaire_table(played, names)
        summary["pairs"] = solitaire_pairs(played, names)
        summary["ratings"] = {}
    else:
        before = earlier_results((earlier or {}).get("pairs", ()))
        summary["pairs"] = pair_scores(pair_results(played) + before, names)
        summary["ratings"] = rate(played, names, earlier=before)
    summary["work"] = {**(earlier or {}).get("work", {}), **work_per_move(out, played)}
    return summary


def earlier_ladder(game: str) -> dict:
    """What ``--anchor-only`` keeps of the game's current ``levels.json``: its level pairs
    (wins, draws, losses), each level's work a move, and where they came from."""
    made = json.loads((ROOT / "games" / game / LEVELS_FILE).read_text(encoding="utf-8"))
    pairs = [{k: p[k] for k in ("higher", "lower", "wins", "draws", "losses")}
             for p in made["summary"]["pairs"] if p["higher"].startswith("level ") and p["lower"].startswith("level ")]
    work = {n: w for n, w in made["summary"].get("work", {}).items() if n.startswith("level ")}
    return {"pairs": pairs, "work": work, "command": made["command"], "date": made["date"],
            "games_per_pair": made["games_per_pair"], "records": made["records"]}


def nearest_level(rated: Mapping[str, Mapping], anchor: str) -> str | None:
    """The level whose Elo is nearest the anchor's (None without ratings)."""
    if anchor not in rated:
        return None
    levels = [n for n in rated if n.startswith("level ")]
    return min(levels, key=lambda n: abs(rated[n]["elo"] - rated[anchor]["elo"]), default=None)


def levels_entries(game: str, summary: Mapping, people: Sequence[Mapping]) -> list[dict]:
    """One entry per level: its fixed-work seat, the figures, and the words the form shows."""
    ladder = LADDERS[game]
    anchor = next((p["name"] for p in people if not p["name"].startswith("level ")), None)
    entries = []
    for level, seat in ladder["levels"].items():
        name = f"level {level}"
        entry: dict[str, Any] = {"level": level, "measured_as": seat, "work": ladder["work"][level]}
        entry.update(summary["ratings"].get(name, {}))
        entry.update((summary.get("solitaire") or {}).get(name, {}))
        below = next((p for p in summary["pairs"] if p["higher"] == name and p["lower"] == f"level {level - 1}"),
                     None)
        if below:
            entry["vs_below"] = {k: below[k] for k in ("games", "score", "low95", "high95")}
        if anchor:
            versus = next((p for p in summary["pairs"] if {p["higher"], p["lower"]} == {name, anchor}), None)
            if versus:
                # The level's own score against the anchor (a pair's score is its "higher"'s).
                score = versus["score"] if versus["higher"] == name else round(1 - versus["score"], 3)
                low, high = ((versus["low95"], versus["high95"]) if versus["higher"] == name
                             else (round(1 - versus["high95"], 3), round(1 - versus["low95"], 3)))
                # The form says "even with" when the interval holds 50 %: with few games
                # that is every level, so only the level nearest the anchor by Elo says it;
                # the others speak of the anchor only when their interval excludes 50 %.
                if low > 0.5 or high < 0.5 or name == nearest_level(summary["ratings"], anchor):
                    entry["vs_anchor"] = {"anchor": anchor, "games": versus["games"], "score": score,
                                          "low95": low, "high95": high}
        entry.update((summary["work"].get(name) or {}))
        entries.append(entry)
    for entry in entries:
        if not ladder.get("solitaire"):
            entry["category"] = category(entry, entries)
        entry["words"] = strength_text(entry)
    return entries


def report_text(game: str, data: Mapping) -> str:
    """The ladder as text (printed, and the body of LEVELS.md)."""
    each = (f"{data['games_per_pair']} seeded pile sets, each played by every level" if LADDERS[game].get("solitaire")
            else f"{data['games_per_pair']} matches of every level together (seats rotated)"
            if LADDERS[game].get("format") == "all-in" else f"{data['games_per_pair']} games a pair")
    out = [f"game {game}; {each}; {data['summary']['games_played']} "
           f"played, {data['summary']['not_played']} not played (excluded)"
           + (": " + "; ".join(data["summary"]["not_played_why"]) if data["summary"]["not_played"] else "")]
    if data.get("run_note"):
        out.append(data["run_note"])
    if data.get("anchor_note"):
        out.append(f"anchor: {data['anchor_note']}")
    if LADDERS[game].get("note"):
        out.append(LADDERS[game]["note"])
    out.append("")
    if data["summary"]["pairs"]:
        out.append("| higher | lower | games | W-D-L | score | 95 % interval | ≥ 70 % |")
        out.append("| --- | --- | ---: | --- | ---: | --- | --- |")
        for p in data["summary"]["pairs"]:
            adjacent = _adjacent(p)
            verdict = ("" if not adjacent else "yes" if p["low95"] >= SPACING else
                       "likely" if p["score"] >= SPACING else "NO")
            out.append(f"| {p['higher']} | {p['lower']} | {p['games']} | {p['wins']}-{p['draws']}-{p['losses']} "
                       f"| {p['score']:.0%} | {p['low95']:.0%}-{p['high95']:.0%} | {verdict} |")
        out.append("")
    if LADDERS[game].get("solitaire"):
        out.append("| level | measured as | work | mean score ± 95 % | × level 1 (lowest) | CPU s a game | words |")
        out.append("| --- | --- | --- | ---: | ---: | ---: | --- |")
        for e in data["levels"]:
            per_game = round(e.get("cpu_total", 0) / e["sets"], 2) if e.get("sets") else "-"
            out.append(f"| {e['level']} | `{e['measured_as']}` | {e['work']} | {e.get('mean')} ± {e.get('mean95')} "
                       f"| {e.get('ratio')} ({e.get('ratio_low')}) | {per_game} | {e['words']} |")
        return "\n".join(out)
    out.append("| level | measured as | work | Elo (level 1 = 0) | nodes a move | playouts a move "
               "| CPU s a move | words |")
    out.append("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
    for e in data["levels"]:
        elo = f"{e['elo']:+.0f} ± {e['elo95']:.0f}" if "elo" in e else "-"
        out.append(f"| {e['level']} | `{e['measured_as']}` | {e['work']} | {elo} | {e.get('nodes_median', '-')} "
                   f"| {e.get('playouts_median', '-')} | {e.get('cpu_median', '-')} | {e['words']} |")
    anchors = {k: v for k, v in data["summary"]["ratings"].items() if not k.startswith("level ")}
    for name, r in anchors.items():
        out.append(f"| anchor | {name} | | {r['elo']:+.0f} ± {r['elo95']:.0f} | | | | |")
    skill = [(n, r) for n, r in data["summary"]["ratings"].items() if "mu" in r]
    if skill:
        out.append("")
        out.append("OpenSkill (Plackett-Luce) of the placements, as the tournament's standings rate them: "
                   + ", ".join(f"{n} {r['mu']:.1f} ± {r['sigma']:.1f}" for n, r in skill)
                   + ". The pairs' scores and Elo count every two robots of a match as one game "
                   "between them (who finished above), so their intervals are narrower than "
                   "independent games' would be.")
    return "\n".join(out)


def _adjacent(pair: Mapping) -> bool:
    a, b = pair["higher"], pair["lower"]
    if not (a.startswith("level ") and b.startswith("level ")):
        return False
    return int(a.split()[1]) == int(b.split()[1]) + 1


PAIRS_TEXT = ("Each pair's score is the higher level's points a game, with its 95 % Wilson "
              "interval; levels should each score at least 70 % against the one below "
              "('yes': the whole interval is above; 'likely': the score is; 'NO': it is not). "
              "Elo is the Bradley-Terry fit of every game (runner/ratings.py), level 1 = 0, "
              "± its 95 % interval. Games not played (a seat that never started, a referee "
              "failure) count for nobody.\n\n")
SOLITAIRE_TEXT = ("A solitaire has nobody to beat: every level played the same seeded pile sets, "
                  "one arena match each. A level beats the one below on a set when it scores more "
                  "on it: the first table counts the sets each level won, tied and lost against "
                  "the one below (W-D-L), its score (ties as half) with the 95 % Wilson interval, "
                  "and whether that reaches the 70 % levels should be spaced by ('yes': the whole "
                  "interval is above; 'likely': the score is; 'NO': it is not). The second gives "
                  "each level's mean score with its 95 % interval, and its mean ratio to level 1 "
                  "on the same sets (the lowest ratio in brackets).\n\n")


def write_files(game: str, data: Mapping) -> list[Path]:
    """``games/<game>/levels.json`` and ``LEVELS.md``."""
    folder = ROOT / "games" / game
    target = folder / LEVELS_FILE
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    md = folder / "LEVELS.md"
    md.write_text(f"# Levels of the built-in bot: the measured ladder\n\n"
                  f"Made by `{data['command']}` on {data['date']} ({data['load_before']} before, "
                  f"{data['load_after']} after; {data['cpu_seconds']} CPU seconds of moves, "
                  f"{data['wall_seconds']} s of wall time); the games' records "
                  f"are kept in `{data['records']}`{_records_words(data['records'])}. The same figures, for "
                  f"programs, are in `{LEVELS_FILE}`; the New match form shows each level's words.\n\n"
                  + ("Each level played with the work in the table and no clock; a level given wall "
                     "time (the note under the figures says which) thinks less on a busy machine, so its "
                     "figure depends on the load.\n\n" if LADDERS[game].get("wall_time") else
                     "Each level played at the fixed work in the table (no clock), so the figures do not "
                     "depend on the machine's load; in a match with a clock a level thinks by the clock "
                     "instead (bot.py says how), on a quiet machine about as much or more.\n\n")
                  + (SOLITAIRE_TEXT if LADDERS[game].get("solitaire") else PAIRS_TEXT)
                  + report_text(game, data) + "\n", encoding="utf-8")
    return [target, md]


def archive_records(out: Path, game: str, date: str, folder: Path = ARCHIVES) -> Path:
    """The event folder ``out`` (its results, the run's note and every match's records)
    as ``folder/GAME-DATE.tar.xz``, its members under ``GAME-DATE/``.  Raises ValueError
    when the archive comes out larger than :data:`ARCHIVE_LIMIT` (it is removed)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{game}-{date}.tar.xz"
    with tarfile.open(target, "w:xz", preset=9) as tar:
        for path in sorted(Path(out).rglob("*")):
            if path.is_file():
                tar.add(path, arcname=f"{game}-{date}/{path.relative_to(out).as_posix()}", recursive=False)
    size = target.stat().st_size
    if size > ARCHIVE_LIMIT:
        target.unlink()
        raise ValueError(f"{target}: {size:,} bytes, more than the {ARCHIVE_LIMIT:,} kept in the "
                         "repository: play fewer games, or archive a sample")
    return target


def unpack_archive(archive: Path, into: Path) -> Path:
    """An archive of :func:`archive_records` unpacked in ``into``: its event folder."""
    with tarfile.open(archive, "r:xz") as tar:
        names = tar.getnames()
        tops = {name.split("/", 1)[0] for name in names}
        if len(tops) != 1 or any(name.startswith("/") or ".." in name.split("/") for name in names):
            raise ValueError(f"{archive}: not a ladder archive (one GAME-DATE folder expected)")
        tar.extractall(into, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return Path(into) / tops.pop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(LADDERS))
    parser.add_argument("--games", type=int, default=10, help="games a pair (Crossed Words: pile sets)")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--workers", type=int, default=1, help="matches at once")
    parser.add_argument("--out", default="", help="the event folder (default out/ladders/GAME-DATE)")
    parser.add_argument("--write", action="store_true", help="write games/GAME/levels.json and LEVELS.md")
    parser.add_argument("--anchor-only", action="store_true",
                        help="play only the anchor against each level (a gauntlet); the levels' own "
                             "pairs come from the game's levels.json, and are counted with them")
    parser.add_argument("--again", metavar="DIR", default="",
                        help="no games: the figures again from an earlier run's event folder DIR "
                             "or its archive (.tar.xz)")
    args = parser.parse_args(argv)
    if args.again:
        again = Path(args.again)
        if again.is_file():
            with tempfile.TemporaryDirectory(prefix="arena-ladder-") as folder:
                return report_again(unpack_archive(again, Path(folder)), args.write,
                                    records=_shown_path(again.absolute()))
        return report_again(again, args.write)
    date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d")
    out = Path(args.out or f"out/ladders/{args.game}-{date}").absolute()
    out.mkdir(parents=True, exist_ok=True)
    niceness = os.nice(0)                 # the command as run: its nice value, not a fixed 19
    command = ((f"nice -n {niceness} " if niceness else "") + "python bench/level_ladder.py "
               + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])))
    people = contestants(args.game)
    ladder = LADDERS[args.game]
    anchor_note = ""
    if ladder.get("anchor") and len(people) == len(ladder["levels"]):
        anchor_note = f"none: set {ladder['anchor']['env']} to the engine's path"
    elif ladder.get("no_anchor"):
        anchor_note = "none: " + ladder["no_anchor"]
    elif len(people) > len(ladder["levels"]):
        anchor_note = f"{people[-1]['name']} (`{people[-1]['seat']}`)"
    if anchor_note.startswith("none"):
        print(f"anchor: {anchor_note} (its games are left out)", flush=True)
    earlier = None
    if args.anchor_only:
        if len(people) == len(ladder["levels"]):
            print("--anchor-only: no anchor to play; nothing done", file=sys.stderr)
            return 2
        earlier = earlier_ladder(args.game)
    load_before = load_text()
    started = time.perf_counter()
    print(f"{command}\n{load_before}", flush=True)
    if ladder.get("solitaire"):
        lines = run_solitaire(args.game, args.games, args.seed, out)
    else:
        event = event_data(args.game, args.games, args.seed, args.workers, people, out)
        if args.anchor_only:
            event.update(format="gauntlet", champion=people[-1]["name"])
        lines = run_ladder_event(event)
    summary = summarise(args.game, lines, people, out, earlier)
    data = {"game": args.game, "date": date, "command": command, "load_before": load_before,
            "load_after": load_text(), "wall_seconds": round(time.perf_counter() - started),
            "cpu_seconds": round(sum(w.get("cpu_total", 0) for w in summary["work"].values())),
            "records": _shown_path(out), "games_per_pair": args.games, "anchor_note": anchor_note,
            "contestants": list(people), "summary": summary}
    if earlier:
        data["earlier"] = earlier
        data["run_note"] = (f"Only the anchor's games were played here ({args.games} against each level); "
                            f"the levels' games against each other are those of `{earlier['command']}` "
                            f"on {earlier['date']} ({earlier['games_per_pair']} games a pair; "
                            + (f"records: `{earlier['records']}`" if earlier["records"].endswith(".tar.xz")
                               else "their records were not kept")
                            + "), counted with these in the pairs and the Elo.")
    data["levels"] = levels_entries(args.game, summary, people)
    data["event_folder"] = out
    (out / RUN_FILE).write_text(json.dumps({k: data[k] for k in RUN_KEYS if k in data}, indent=1) + "\n",
                                encoding="utf-8")
    return finish(data, args.write)


#: What ``--again`` takes from the earlier run (the rest it works out from the records).
RUN_FILE = "ladder-run.json"
RUN_KEYS = ("game", "date", "command", "load_before", "load_after", "wall_seconds", "records",
            "games_per_pair", "anchor_note", "contestants", "run_note", "earlier")


def report_again(out: Path, write: bool, records: str = "") -> int:
    """The figures of an earlier run, from its event folder (after a change to this bench's
    report, say), with the command, date and load of that run.  ``records``: the archive
    the folder came from (nothing to archive again)."""
    data = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))
    data["event_folder"] = None if records else out
    if records:
        data["records"] = records
    lines = read_results(out)
    data["summary"] = summarise(data["game"], lines, data["contestants"], out, data.get("earlier"))
    data["cpu_seconds"] = round(sum(w.get("cpu_total", 0) for w in data["summary"]["work"].values()))
    data["levels"] = levels_entries(data["game"], data["summary"], data["contestants"])
    return finish(data, write)


def shown_anchor(data: dict) -> None:
    """Name the anchor engine by its variable, not its path on this machine: the seat as
    ``ucci:$ARENA_ELEPHANTEYE depth=3``, the command with the variable set before it."""
    anchor = LADDERS[data["game"]].get("anchor")
    if not anchor or len(data["contestants"]) == len(LADDERS[data["game"]]["levels"]):
        return
    seat = anchor["seat"].format(path="$" + anchor["env"])
    data["contestants"] = [p if p["name"].startswith("level ") else {**p, "seat": seat}
                           for p in data["contestants"]]
    data["anchor_note"] = f"{anchor['name']} (`{seat}`)"
    if anchor["env"] not in data["command"].split(" nice ")[0]:
        data["command"] = " ".join(filter(None, (anchor.get("environment"), f"{anchor['env']}=<its path>",
                                                 data["command"])))


def finish(data: dict, write: bool) -> int:
    shown_anchor(data)
    event_folder = data.pop("event_folder", None)
    if write and event_folder is not None:
        archive = archive_records(Path(event_folder), data["game"], data["date"])
        data["records"] = _shown_path(archive)
        print(f"wrote {data['records']} ({archive.stat().st_size:,} bytes: the event folder's records)")
    print(report_text(data["game"], data))
    print(f"{data['load_after']}; {data['wall_seconds']} s wall, {data['cpu_seconds']} CPU s")
    if write:
        for path in write_files(data["game"], data):
            print("wrote", path.relative_to(ROOT))
    return 0


def _records_words(records: str) -> str:
    if records.endswith(".tar.xz"):
        return (" (the event folder, compressed: `tar xJf` unpacks it, and `--again` it makes "
                "these files again)")
    return " (not kept in the repository)"


def _shown_path(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
