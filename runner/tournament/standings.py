"""Standings from the results file, in match order (so a resumed event ends with exactly
the standings of an uninterrupted one): the game's own points, head-to-head, Elo with error
bars, OpenSkill for games of more seats, an SPRT; written as CSV and JSON and as text."""
from __future__ import annotations

import csv
import itertools
import json
import os
from typing import TYPE_CHECKING, Mapping, Sequence

from runner import ratings
from runner.tournament.event import Event

if TYPE_CHECKING:                          # the plan asks the standings how a Swiss or SPRT goes on
    from runner.tournament.plan import Pairing, Plan


def _counted(plan_ids: set[str], done: Mapping[str, dict]) -> list[dict]:
    lines = [done[i] for i in plan_ids if i in done and done[i].get("outcome")]
    return sorted(lines, key=lambda l: l["index"])


def score_table(event: Event, pairings: Sequence[Pairing], done: Mapping[str, dict]) -> list[dict]:
    """Per contestant: points by the event's scoring, the games' own score, W/D/L."""
    beat, tie = event.points
    rows = [{"name": c.name, "points": 0.0, "score": 0.0, "played": 0, "wins": 0, "draws": 0,
             "losses": 0, "byes": 0, "failures": 0} for c in event.contestants]
    index = {c.name: i for i, c in enumerate(event.contestants)}
    for p in pairings:
        if p.bye:
            rows[p.seats[0]]["points"] += beat
            rows[p.seats[0]]["byes"] += 1
    for line in _counted({p.id for p in pairings}, done):
        ranks, scores = line["outcome"]["ranks"], line["outcome"]["scores"]
        for seat, name in enumerate(line["contestants"]):
            row = rows[index[name]]
            better = sum(1 for r in ranks if r > ranks[seat])
            same = sum(1 for r in ranks if r == ranks[seat]) - 1
            worse = len(ranks) - 1 - better - same
            row["points"] += beat * better + tie * same
            row["score"] += scores[seat]
            row["played"] += 1
            row["wins"] += better
            row["draws"] += same
            row["losses"] += worse
        for failure in line.get("failures", []):
            rows[index[line["contestants"][failure["seat"]]]]["failures"] += 1
    return rows


def sprt_state(event: Event, lines: Sequence[Mapping]) -> dict:
    """W/D/L of contestant A (the first) against B, and the SPRT's decision."""
    a = event.contestants[0].name
    w = d = l = 0
    for line in lines:
        if not line.get("outcome"):
            continue
        ranks = line["outcome"]["ranks"]
        mine = ranks[line["contestants"].index(a)]
        theirs = ranks[1 - line["contestants"].index(a)]
        w, d, l = w + (mine < theirs), d + (mine == theirs), l + (mine > theirs)
    cfg = event.sprt
    return ratings.sprt(w, d, l, float(cfg.get("elo0", 0)), float(cfg.get("elo1", 5)),
                        float(cfg.get("alpha", 0.05)), float(cfg.get("beta", 0.05)))


def standings(event: Event, plan: Plan, done: Mapping[str, dict]) -> dict:
    pairings = plan.pairings(done)
    lines = _counted({p.id for p in pairings}, done)
    rows = score_table(event, pairings, done)
    for row, c in zip(rows, event.contestants):
        row["seat"] = c.seat
        if c.error:
            row["error"] = c.error
    two_seat = bool(lines) and all(len(l["contestants"]) == 2 for l in lines)
    if two_seat:
        games = []
        for line in lines:
            r = line["outcome"]["ranks"]
            games.append((line["contestants"][0], line["contestants"][1],
                          1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0))
        elo = ratings.elo_ratings(games)
        for row in rows:
            if row["name"] in elo:
                row["elo"], row["elo_error"] = (round(x, 1) for x in elo[row["name"]])
    if plan.spec.max_seats > 2:
        skill = ratings.openskill_ratings(
            [(l["contestants"], l["outcome"]["ranks"]) for l in lines], event.names)
        for row in rows:
            mu, sigma, ordinal = skill[row["name"]]
            row["mu"], row["sigma"], row["ordinal"] = round(mu, 2), round(sigma, 2), round(ordinal, 2)
    ordered = sorted(rows, key=lambda r: (-r["points"], -r["score"], r["name"]))
    previous = None
    for place, row in enumerate(ordered, start=1):
        key = (row["points"], row["score"])
        row["rank"] = ordered[place - 2]["rank"] if key == previous else place
        previous = key
    h2h: dict[str, dict[str, list[int]]] = {a: {b: [0, 0, 0] for b in event.names if b != a}
                                            for a in event.names}
    for line in lines:
        ranks = line["outcome"]["ranks"]
        for (i, a), (j, b) in itertools.permutations(enumerate(line["contestants"]), 2):
            h2h[a][b][0 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 2] += 1
    planned = [p for p in pairings if not p.bye]
    table = {"event": event.name, "game": event.game, "format": event.format,
             "format_name": event.shown_format,
             "clock": event.clock or "wall", "machine": event.machine_notes + event.warnings,
             "matches": {"planned": len(planned), "played": len(lines),
                         "errors": sum(1 for p in planned if p.id in done
                                       and not done[p.id].get("outcome"))},
             "points": {"beat": event.points[0], "tie": event.points[1]},
             "standings": ordered, "head_to_head": h2h}
    if event.format == "sprt":
        table["sprt"] = sprt_state(event, lines)
    return table


COLUMNS = ("rank", "name", "played", "points", "score", "wins", "draws", "losses", "byes",
           "failures", "elo", "elo_error", "mu", "sigma", "ordinal", "seat")


def write_standings(event: Event, table: dict) -> None:
    """standings.json, standings.csv and head_to_head.csv in the event folder."""
    out = event.out
    tmp = out / "standings.json.tmp"
    tmp.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, out / "standings.json")
    present = [c for c in COLUMNS if any(c in row for row in table["standings"])]
    with open(out / "standings.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(present)
        for row in table["standings"]:
            writer.writerow([_cell(row.get(c, "")) for c in present])
    names = event.names
    with open(out / "head_to_head.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["W-D-L of row against column", *names])
        for a in names:
            writer.writerow([a, *("" if a == b else "-".join(map(str, table["head_to_head"][a][b]))
                                  for b in names)])


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def standings_text(table: dict) -> str:
    rows = table["standings"]
    lines = [f"{table['event']} ({table['game']}, {table['format']}, clock {table.get('clock', 'wall')}): "
             f"{table['matches']['played']}/{table['matches']['planned']} matches"]
    lines += table.get("machine") or []
    extra = "elo" in rows[0] if rows else False
    skill = "mu" in rows[0] if rows else False
    head = f"{'rank':>4}  {'contestant':24s} {'played':>6} {'points':>7} {'score':>7}  {'W-D-L':>11}"
    head += "  {:>13}".format("Elo ±95%") if extra else ""
    head += "  {:>14}".format("mu ± sigma") if skill else ""
    lines.append(head)
    for r in rows:
        text = (f"{r['rank']:>4}  {r['name'][:24]:24s} {r['played']:>6} {_cell(r['points']):>7} "
                f"{_cell(round(r['score'], 2)):>7}  {str(r['wins']) + '-' + str(r['draws']) + '-' + str(r['losses']):>11}")
        if extra:
            text += "  {:>13}".format(f"{r['elo']:+.0f} ± {r['elo_error']:.0f}" if "elo" in r else "")
        if skill:
            text += "  {:>14}".format(f"{r['mu']:.1f} ± {r['sigma']:.1f}")
        if r.get("failures"):
            text += f"  ({r['failures']} matches with failures)"
        if r.get("error"):
            text += f"  [{r['error'][:60]}]"
        lines.append(text)
    if "sprt" in table:
        s = table["sprt"]
        lines.append(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} "
                     f"beta={s['beta']:g}: W-D-L {s['wins']}-{s['draws']}-{s['losses']}, "
                     f"LLR {s['llr']:.2f} ({s['lower']:.2f}, {s['upper']:.2f}) "
                     + ({"H1": "H1 accepted: A is stronger",
                         "H0": "H0 accepted: A is not stronger"}.get(s["decision"], "no decision yet")))
    return "\n".join(lines) + "\n"
