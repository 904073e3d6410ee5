"""The plan of an event's matches (:class:`Plan`, :class:`Pairing`): the formats (round-robin,
gauntlet, Swiss, all-in, SPRT), each match with a deterministic id from the event, the
seats and the seed; Swiss and SPRT plans grow as results come in."""
from __future__ import annotations

import hashlib
import itertools
import json
import shlex
from dataclasses import dataclass
from typing import Mapping, Sequence

from games.api import ArenaError
from runner.tournament.event import Event, EventError
from runner.tournament.standings import score_table, sprt_state


@dataclass(frozen=True)
class Pairing:
    index: int                     # the match's place in the plan (its number, from 0)
    round: int
    seats: tuple[int, ...]         # contestant indices in seat order
    group: int                     # which cycled value (opening, map) it plays
    id: str = ""
    seed: int = 0
    bye: bool = False              # Swiss: a bye, scored as a win, nothing played


def _digest(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class Plan:
    """The event's matches: options, seeds and ids for each pairing of a format."""

    def __init__(self, event: Event):
        from games import registry
        from runner.build import match_options, started_options
        self.event = event
        self.plugin = registry.plugin(event.game)
        self.game = self.plugin.new_game()
        self.spec = self.game.spec
        self._options: dict[int, dict] = {}
        self._cycled: dict[int, dict] = {}
        groups = max([len(v) for v in event.cycle.values()] or [1])
        for g in range(groups):
            chosen = {k: v[g % len(v)] for k, v in event.cycle.items()}
            resolved = match_options(self.plugin, event.variant, {**event.options, **chosen},
                                     seat_count=event.seats)
            try:
                loaded = started_options(self.plugin, resolved)     # options that cannot start
            except ArenaError as exc:
                where = f" (with {', '.join(f'{k} = {v!r}' for k, v in chosen.items())})" if chosen else ""
                raise EventError(f"the event's options{where}: {exc}") from None
            self._options[g], self._cycled[g] = loaded, chosen
        self.groups = groups

    def options(self, group: int) -> dict:
        return self._options[group % self.groups]

    def cycled(self, group: int) -> dict:
        """The cycled values as the event names them (a map's name, not its text)."""
        return {k: (v if not isinstance(v, str) or len(v) < 80 else v[:77] + "...")
                for k, v in self._cycled[group % self.groups].items()}

    def make(self, index: int, round_: int, seats: Sequence[int], group: int,
             bye: bool = False) -> Pairing:
        e = self.event
        names = [e.contestants[s].name for s in seats]
        # the event folder's path is left out, so a copy of the event elsewhere keeps its ids
        specs = [e.contestants[s].seat.replace(shlex.quote(str(e.out)), "{out}") for s in seats]
        seed = int(_digest(e.seed, e.name, index, names)[:8], 16) % (2 ** 31)
        key = _digest(e.game, e.variant, self.options(group), names, specs, seed,
                      e.per_move, e.total, e.limits, bye)
        return Pairing(index, round_, tuple(seats), group, f"m{index:04d}-{key[:10]}", seed, bye)

    # ---------------------------------------------------------------- formats
    def pairings(self, done: Mapping[str, dict]) -> list[Pairing]:
        """Every match planned so far given the finished ones (``{id: result line}``)."""
        fmt = self.event.format
        if fmt == "swiss":
            return self._swiss(done)
        if fmt == "sprt":
            return self._sprt(done)
        return self._static()

    def _static(self) -> list[Pairing]:
        e = self.event
        n = len(e.contestants)
        plan, index = [], 0
        if e.format == "round-robin":
            groups = list(itertools.combinations(range(n), e.seats))
        elif e.format == "gauntlet":
            groups = [(e.champion, other) for other in range(n) if other != e.champion]
        else:                                   # all-in: everybody in every match
            groups = [tuple(range(n))]
        for r in range(e.rounds):
            for j, members in enumerate(groups):
                shift = r % len(members)
                seats = members[shift:] + members[:shift]       # seats rotated each round
                if e.format == "all-in":
                    group = r // len(members)                   # a full rotation per map
                else:
                    group = j + (r // len(members)) * len(groups)
                plan.append(self.make(index, r, seats, group))
                index += 1
        return plan

    def _swiss(self, done: Mapping[str, dict]) -> list[Pairing]:
        e = self.event
        n = len(e.contestants)
        plan: list[Pairing] = []
        for r in range(e.rounds):
            if any(p.id not in done and not p.bye for p in plan):
                break                           # the next round waits for this one
            table = score_table(e, plan, done)
            order = sorted(range(n), key=lambda i: (-table[i]["points"], -table[i]["score"], i))
            met = {frozenset(p.seats) for p in plan if len(p.seats) == 2}
            whites = {i: sum(1 for p in plan if p.seats[0] == i and not p.bye) for i in range(n)}
            byes = {p.seats[0] for p in plan if p.bye}
            round_plan = []
            candidates = [i for i in reversed(order) if i not in byes] or list(reversed(order))
            for bye in (candidates if n % 2 else [None]):
                field_ = [i for i in order if i != bye]
                pairs = _swiss_pairs(field_, met)
                if pairs is not None:
                    break
            else:                               # everybody has met: rematches allowed
                bye = candidates[0] if n % 2 else None
                field_ = [i for i in order if i != bye]
                pairs = list(zip(field_[::2], field_[1::2]))
            if bye is not None:
                round_plan.append(((bye,), True))
            for a, b in pairs:
                first = a if whites[a] < whites[b] or (whites[a] == whites[b] and r % 2 == 0) else b
                round_plan.append(((first, b if first == a else a), False))
            for k, (seats, bye) in enumerate(round_plan):
                plan.append(self.make(r * 1000 + k, r, seats, r, bye))
        return plan

    def _sprt(self, done: Mapping[str, dict]) -> list[Pairing]:
        e = self.event
        plan: list[Pairing] = []
        finished = 0
        for index in range(e.max_matches):
            pair = index // 2
            seats = (0, 1) if index % 2 == 0 else (1, 0)
            p = self.make(index, pair, seats, pair)
            if p.id not in done:
                if index >= finished + 2 * e.concurrency:
                    break
            else:
                finished += 1
            plan.append(p)
        results = [done[p.id] for p in plan if p.id in done]
        if sprt_state(e, results)["decision"]:
            plan = [p for p in plan if p.id in done]          # decided: nothing more to play
        return plan


def _swiss_pairs(players: list[int], met: set, budget: list | None = None) -> list | None:
    """Pairs of ``players`` (in standings order) with no rematch, each player meeting
    the nearest one it may; None when there is no such pairing (or the search gives up)."""
    budget = budget if budget is not None else [20000]
    if not players:
        return []
    a, rest = players[0], players[1:]
    for b in rest:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((a, b)) in met:
            continue
        tail = _swiss_pairs([x for x in rest if x != b], met, budget)
        if tail is not None:
            return [(a, b)] + tail
    return None
