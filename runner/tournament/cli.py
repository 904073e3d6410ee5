"""The command line: ``arena tournament EVENT.toml`` (headless, ``--window``, ``--project``,
``--live``, ``--cluster``) and ``arena project FOLDER``; the shell shows the window
(:class:`ShowStandings`), the runner never opens one."""
from __future__ import annotations

import argparse
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from games.api import ArenaError
from runner.i18n import _
from runner.tournament.event import load_event
from runner.tournament.organizer import run_event
from runner.tournament.pool import _stop_on_sigterm, request_stop
from runner.tournament.standings import standings_text


def register(commands) -> None:
    """``arena tournament EVENT.toml`` (added by main.py next to ``match``)."""
    parser = commands.add_parser(
        "tournament", help=_("run a tournament from an event file, headless (see TOURNAMENTS.md)"))
    parser.add_argument("event", help=_("the event file (TOML)"))
    parser.add_argument("--out", metavar="DIR", help=_("the event folder (default: the event's "
                        "out, else a folder named after the event in the current folder)"))
    parser.add_argument("--workers", type=int, metavar="N",
                        help=_("matches at once on this machine (default: the event's concurrency)"))
    parser.add_argument("--cluster", metavar="tcp://HOST:8786",
                        help=_("run the matches on a Dask distributed cluster (pip install 'arena[cluster]')"))
    parser.add_argument("--quiet", action="store_true", help=_("print only the standings"))
    parser.add_argument("--window", action="store_true",
                        help=_("show the standings in the arena's window while the event runs"))
    parser.add_argument("--project", action="store_true",
                        help="project the event fullscreen while it runs: live boards at the "
                             "event's [projection] pace, intermissions, standings")
    parser.add_argument("--display", type=int, default=0, metavar="N",
                        help="with --project: the display to go fullscreen on (0 the first)")
    parser.add_argument("--live", action="store_true",
                        help="headless, but write each match's record turn by turn and play at "
                             "the event's pace, for `arena project FOLDER` on another machine")
    parser.set_defaults(func=cmd_tournament)
    project = commands.add_parser(
        "project", help="project an event folder another arena is writing (see TOURNAMENTS.md)")
    project.add_argument("folder", help="the event folder (results.jsonl, live/ ...), "
                                        "e.g. on a shared drive")
    project.add_argument("--display", type=int, default=0, metavar="N",
                         help="the display to go fullscreen on (0 the first)")
    project.add_argument("--windowed", action="store_true", help="a window, not fullscreen")
    project.add_argument("--size", metavar="WxH", default=argparse.SUPPRESS,   # keeps a global --size
                         help="the window's size (a window, not fullscreen)")
    project.set_defaults(func=cmd_project)


@dataclass
class ShowStandings:
    """A request to the shell (main.py): show the standings of ``folder`` in the window
    while ``thread`` runs the event; the runner itself never opens a window."""

    folder: Path
    thread: threading.Thread | None
    log: list[str]
    outcome: dict
    #: Open the projection (fullscreen on ``display``) rather than the standings screen.
    project: bool = False
    display: int = 0
    windowed: bool = False

    def error(self) -> str:
        return self.outcome.get("error", "")

    def finish(self) -> int:
        """Wait for the event's end (see :meth:`stop`)."""
        if self.thread is None:
            return self.outcome.get("code", 0)
        self.thread.join()
        return self.outcome.get("code", 1)

    def stop(self, why: str) -> None:
        """The window was closed, or the shell got SIGTERM (``why``): an event still
        running stops cleanly (:func:`request_stop`); :meth:`finish` then waits for it."""
        if self.thread is not None and self.thread.is_alive():
            request_stop(why)


def cmd_project(args) -> int | ShowStandings:
    """``arena project FOLDER``: follow an event folder written by another arena."""
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"arena: {folder}: no such event folder (the folder holding results.jsonl)",
              file=sys.stderr)
        return 2
    return ShowStandings(folder.absolute(), None, [], {}, project=True, display=args.display,
                         windowed=args.windowed)


def cmd_tournament(args) -> int | ShowStandings:
    project = getattr(args, "project", False)
    if getattr(args, "window", False) or project:
        lines: list[str] = []
        outcome: dict = {}

        def background() -> None:
            outcome["code"] = _run_command(args, lambda text: (lines.append(text),
                                                               None if args.quiet else print(text, flush=True)),
                                           outcome)
        try:
            folder = load_event(args.event, args.out).out
        except ArenaError as exc:
            print(f"arena: {exc}", file=sys.stderr)
            return 2
        thread = threading.Thread(target=background, name="tournament", daemon=True)
        thread.start()
        return ShowStandings(folder, thread, lines, outcome, project=project,
                             display=getattr(args, "display", 0) or 0)
    log = (lambda text: print(text, file=sys.stderr) if text.startswith("WARNING") else None) \
        if args.quiet else (lambda text: print(text, flush=True))
    return _run_command(args, log, {})


def _run_command(args, log, outcome: dict) -> int:
    """``arena tournament``'s work; a stop by SIGTERM or Ctrl-C ends it cleanly with
    128 + the signal's number, what was finished being kept for the next run."""
    _stop_on_sigterm()
    try:
        return _run_event_command(args, log, outcome)
    except KeyboardInterrupt as exc:
        name = getattr(exc, "signal_name", "SIGINT")
        print(f"arena: the tournament was stopped ({name}); the matches finished are kept "
              "and the same command resumes it", file=sys.stderr)
        outcome["error"] = f"stopped ({name})"
        import signal
        number = getattr(signal, name, None)
        return 128 + int(number if isinstance(number, int) else signal.SIGINT)


def _run_event_command(args, log, outcome: dict) -> int:
    try:
        event = load_event(args.event, args.out)
        if args.workers:
            event.concurrency, event.concurrency_asked = max(1, args.workers), True
        if args.cluster:
            try:
                from distributed import Client
            except ImportError:
                print("arena: --cluster needs Dask: pip install 'arena[cluster]'", file=sys.stderr)
                return 2
            if getattr(args, "project", False) or getattr(args, "live", False):
                log("the cluster's matches are not followed live (their workers do not "
                    "share the event folder); the projection shows results and standings")
            with Client(args.cluster) as client:
                if not args.workers:
                    event.concurrency = max(1, sum(client.nthreads().values()))
                with client.get_executor(pure=False) as executor:
                    table = run_event(event, executor, ship=True, log=log)
        else:
            paced = getattr(args, "project", False) or getattr(args, "live", False)
            followed = paced or getattr(args, "window", False)
            # --window alone: records written live but unpaced until a projection asks
            table = run_event(event, log=log, live=followed, pace=None if paced else 0.0)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        outcome["error"] = str(exc)
        return 2
    print(standings_text(table), end="")
    run = table.get("run", {})
    print(f"{run.get('played_now', 0)} matches played now in {run.get('seconds', 0)} s; "
          f"standings in {event.out / 'standings.csv'} and standings.json")
    return 0
