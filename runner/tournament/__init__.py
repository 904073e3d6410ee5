"""Tournaments for every game, headless: ``arena tournament EVENT.toml``.

An event file (TOML) names the game, variant and options, the contestants (seat specs
with names), the format, what to cycle over the matches (openings, start positions,
maps), time limits, the seed and how many matches run at once.  See TOURNAMENTS.md.

How it runs:

* The format gives a plan of matches (:class:`Pairing`), each with a deterministic id
  from the event, the seats and the seed; Swiss and SPRT plans grow as results come in.
* Each match is one picklable task (:func:`play_match`) run by any
  ``concurrent.futures`` executor: a local process pool, or a Dask cluster's
  (``Client.get_executor()``).  A task carries everything it needs (options with the
  files' content, and for a cluster the contestants' program files as bytes) and comes
  back with the record and contest files as bytes; only the organizer writes the event
  folder.
* A finished match counts once its files are in ``matches/ID/`` and one line is appended
  and fsynced to ``results.jsonl``.  Running the same command again reads that file and
  plays only what is missing: killing the arena loses at most the matches in flight.
* Standings (the game's own points, head-to-head, Elo with error bars for two-seat
  matches, an OpenSkill rating for games of more seats, an SPRT for A/B tests) are
  computed from the results file in match order, so a resumed event ends with exactly
  the standings of an uninterrupted one; they are written as CSV and JSON.

The parts: :mod:`~runner.tournament.event` (the event file), :mod:`~runner.tournament.plan`
(the formats' plans), :mod:`~runner.tournament.worker` (one match on a worker),
:mod:`~runner.tournament.pool` (the organizer's processes, started and stopped),
:mod:`~runner.tournament.organizer` (:func:`run_event`), :mod:`~runner.tournament.standings`
and :mod:`~runner.tournament.cli` (the command line).  What callers use is named here.

Never imports pygame.
"""
from runner.tournament.cli import ShowStandings, cmd_project, cmd_tournament, register
from runner.tournament.event import (FORMATS, PROJECTION_DEFAULTS, Contestant, Event, EventError, build_contestants,
                                     event_from_dict, fit_to_machine, load_event, projection_settings)
from runner.tournament.organizer import (MATCHES, NOT_PLAYED_TRIES, RESULTS, RETRIES, ResultsFile, _write_event_json,
                                         run_event)
from runner.tournament.plan import Pairing, Plan
from runner.tournament.pool import TournamentStopped, local_executor, remove_stale_scratch, request_stop
from runner.tournament.standings import score_table, sprt_state, standings, standings_text, write_standings
from runner.tournament.worker import _worker_start, play_match, task_for

__all__ = [
    "FORMATS", "MATCHES", "NOT_PLAYED_TRIES", "PROJECTION_DEFAULTS", "RESULTS", "RETRIES", "Contestant", "Event",
    "EventError", "Pairing", "Plan", "ResultsFile", "ShowStandings", "TournamentStopped", "_worker_start",
    "_write_event_json", "build_contestants", "cmd_project", "cmd_tournament", "event_from_dict", "fit_to_machine",
    "load_event", "local_executor", "play_match", "projection_settings", "register", "remove_stale_scratch",
    "request_stop", "run_event", "score_table", "sprt_state", "standings", "standings_text", "task_for",
    "write_standings",
]
