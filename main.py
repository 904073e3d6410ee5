"""Arena's command line: parses arguments before importing anything heavy.

    python main.py                      the home screen
    python main.py replay FILE          open a record in the replay viewer
    python main.py match GAME --seat SPEC --seat SPEC [--headless] [--out DIR]
    python main.py tournament EVENT.toml [--workers N] [--cluster tcp://HOST:8786] [--project]
    python main.py project EVENT_FOLDER [--display N]
    python main.py render FILE --turn N --out PICTURE.png [--size WxH]
    python main.py GAME TOOL ...        a game's own tools (xiangqi perft, robot audit ...)
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from runner.i18n import N_, _


def error_text(exc: BaseException) -> str:
    """An error for the terminal in the interface's language: messages made with ``_`` are
    already translated; those written in English by a game's rules (a bad map, seat counts)
    are matched against the games' templates (see :func:`runner.messages.translated`)."""
    from runner.messages import translated
    from runner.referee import error_text as raised_with      # the Message it was raised with, if any
    return translated(raised_with(exc))

SEAT_HELP = N_("""seat specs and their settings (quote a spec that has spaces):
  human                      a person at the window (not with --headless)
  bot:LEVEL                  the built-in bot (Hex 1-5, Xiangqi 1-5, Robot 1-4)
  bot:LEVEL depth=N | nodes=N | movetime=MS
                             Xiangqi: a search bounded by depth or nodes plays the same
                             moves on any machine; movetime replaces the level's pace
  bot:LEVEL playouts=N | movetime=MS
                             Hex: at most N playouts a move, or MS milliseconds a move
  ext:COMMAND                a contest program (the game's file protocol; --poll)
  gtp:COMMAND                Hex: a GTP engine (Benzene, MoHex)
  uci:COMMAND [KEY=VALUE ...]   Xiangqi: Pikafish, Fairy-Stockfish
  ucci:COMMAND [KEY=VALUE ...]  Xiangqi: ElephantEye
engine settings (trailing KEY=VALUE words of a uci:/ucci: spec):
  movetime=MS     thinking time a move (default 3000, about bot:5's pace)
  depth=N         search N plies (go depth N)
  nodes=N         search N nodes (go nodes N)
  clock=auto|on|off  send the clocks (UCI wtime/btime/winc/binc, UCCI time/opptime);
                  auto: when the match is timed and no movetime/depth/nodes is given
  inc=MS          the increment sent with the clocks (default 0)
  maxtime=S       untimed depth/nodes search: send stop after S seconds (default 900)
  ranks=0|1|auto  rank numbering (Fairy-Stockfish counts 1-10; auto detects it)
  variant=NAME    UCI_Variant to set when offered (default xiangqi)
  timeunit=s      UCCI: send seconds instead of milliseconds
  option.NAME=VALUE  any engine option, e.g. option.Threads=2 option.Hash=64
  handshake=S     seconds to answer uci/ucci and isready (default 60); an engine that
                  does not is named so and the match is not played
  clock=wall|cpu  how its answers are charged (as --clock, for this seat)
Xiangqi with a uci:/ucci: seat plays the third occurrence of a position as the
repetition (engines' rule) unless --option repetition_count=2 (the contest's first
repeat) is given.
example:
  arena match xiangqi --seat "uci:/opt/fairy-stockfish movetime=500" --seat "bot:4 depth=4" \\
      --headless --out runs/fsf-vs-bot""")


def _games_help() -> str:
    from games.registry import all_plugins
    return ", ".join(p.name for p in all_plugins())


def _unavailable_tool(message: str):
    """The ``func`` of a game whose package or tools fail to load: say why, exit 2."""
    def report(args) -> int:
        print(f"arena: {message}", file=sys.stderr)
        return 2
    return report


def start_language() -> None:
    """Speak the language of the settings (or of the system locale) from the first word,
    argparse's own words included."""
    from runner import i18n
    from ui.settings import load_settings

    i18n.set_language(load_settings().interface_language())
    i18n.translate_argparse()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena", description=_("Arena: play, referee and replay classic programming-contest games. "
        "With no command, opens the home screen."))
    parser.add_argument("--fullscreen", action="store_true", help=_("start fullscreen (F11 toggles)"))
    parser.add_argument("--size", metavar="WxH", help=_("window size, e.g. 1280x720"))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = commands.add_parser("replay", help=_("open a record (arena record, HEX.OUT, SGF, REPORT.TXT, "
                                 "Robot turn log) in the replay viewer"))
    replay.add_argument("file", help=_("the record file"))
    replay.set_defaults(func=cmd_replay)

    match = commands.add_parser(
        "match", help=_("play or referee a match"), formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_("Play or referee a match between people, built-in bots, contest programs and engines."),
        epilog=_(SEAT_HELP))
    match.add_argument("game", help=_("the game ({games})").format(games=_games_help()))
    match.add_argument("--seat", action="append", default=[], metavar="SPEC",
                       help=_("one per seat, in seat order: human, bot[:LEVEL [KEY=VALUE ...]], "
                       "ext:COMMAND (an external program speaking the game's file protocol), or a "
                       "game's engine kind: gtp:COMMAND (Hex), uci:COMMAND or ucci:COMMAND (Xiangqi); "
                       "settings below"))
    match.add_argument("--variant", help=_("a variant of the game (e.g. 9x9)"))
    match.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help=_("a game option, e.g. size=7 or time_total=20"))
    match.add_argument("--seed", type=int, default=None, help=_("the match's random seed (default: random)"))
    match.add_argument("--headless", action="store_true",
                       help=_("no window: bots and programs only (a human seat is an error)"))
    match.add_argument("--out", metavar="DIR", help=_("folder for the record, contest record files "
                       "and result.json (default: the records folder)"))
    match.add_argument("--poll", type=float, default=None, metavar="SECONDS",
                       help=_("seconds between two looks at a move file its program still holds open "
                       "(file-protocol seats, e.g. Xiangqi ext:; default 0.05; a finished "
                       "file is noticed at once through file-system notifications)"))
    match.add_argument("--clock", choices=("wall", "cpu"), default=None,
                       help=_("how a program's answers are charged: wall seconds (default), or the "
                       "CPU seconds of its whole process tree, within a wall cap of 3x the "
                       "limit + 1 s (fair on a busy machine)"))
    match.set_defaults(func=cmd_match)

    branch = commands.add_parser("branch", help=_("continue a recorded game from one of its turns "
                                 "with new seats (a person, another bot, a new build)"))
    branch.add_argument("file", help=_("an arena record (*.arena.jsonl)"))
    branch.add_argument("--turn", type=int, required=True,
                        help=_("the position to continue from (0 = start; -1 = the last)"))
    branch.add_argument("--seat", action="append", default=[], metavar="SPEC",
                        help=_("one per seat, in seat order, as for 'match'"))
    branch.add_argument("--headless", action="store_true", help=_("no window (no human seat)"))
    branch.add_argument("--out", metavar="DIR", help=_("folder for the new record and its files "
                        "(default: the records folder)"))
    branch.set_defaults(func=cmd_branch)

    rerun = commands.add_parser("rerun", help=_("re-run one recorded turn with another program "
                                "(a new build) and print both answers"))
    rerun.add_argument("file", help=_("an arena record (*.arena.jsonl)"))
    rerun.add_argument("--turn", type=int, required=True, help=_("the turn (1 = the first move)"))
    rerun.add_argument("--seat", type=int, required=True, help=_("the seat (1 = the first player)"))
    rerun.add_argument("--program", required=True, metavar="SPEC",
                       help=_("the program: a seat spec (ext:CMD, gtp:CMD, uci:CMD, bot:N) or a bare command"))
    rerun.add_argument("--time", type=float, default=None, help=_("seconds allowed (default: the match's limit)"))
    rerun.set_defaults(func=cmd_rerun)

    compare = commands.add_parser("compare", help=_("two records of the same game side by side, "
                                  "stepping together, with their scores on one chart"))
    compare.add_argument("old", help=_("the first record (shown on the left)"))
    compare.add_argument("new", help=_("the second record (shown on the right)"))
    compare.set_defaults(func=cmd_compare)

    from runner.tournament import register as register_tournament
    register_tournament(commands)

    render = commands.add_parser("render", help=_("draw one turn of any record to a PNG, no window"))
    render.add_argument("file", help=_("the record file"))
    render.add_argument("--turn", type=int, default=-1, help=_("turn number (0 = start; default: last)"))
    render.add_argument("--out", required=True, metavar="PICTURE.png", help=_("where to save the picture"))
    render.add_argument("--size", default="1280x720", metavar="WxH", help=_("picture size (default 1280x720)"))
    render.set_defaults(func=cmd_render)

    export = commands.add_parser("export", help=_("save a record in a game's own formats "
                                 "(Xiangqi: PGN, FEN of a position; Hex: SGF, HEX.OUT), or as a "
                                 "picture (PNG) or film (GIF, MP4) of any game"))
    export.add_argument("file", help=_("the record file"))
    export.add_argument("--format", required=True, metavar="NAME",
                        help=_("the format, e.g. PGN, FEN, SGF, PNG, GIF, MP4"))
    export.add_argument("--turn", type=int, default=-1,
                        help=_("the position for FEN and PNG (0 = start; default: last)"))
    export.add_argument("--from", dest="first", type=int, default=0, metavar="TURN",
                        help=_("GIF/MP4: the first turn filmed (default 0, the start)"))
    export.add_argument("--to", dest="last", type=int, default=-1, metavar="TURN",
                        help=_("GIF/MP4: the last turn filmed (default -1, the end)"))
    export.add_argument("--size", default="960x540", metavar="WxH",
                        help=_("PNG/GIF/MP4: picture size (default 960x540)"))
    export.add_argument("--fps", type=float, default=4.0, help=_("GIF/MP4: turns a second (default 4)"))
    export.add_argument("--out", metavar="FILE", help=_("write here instead of standard output "
                        "(needed for PNG, GIF and MP4)"))
    export.set_defaults(func=cmd_export)

    from games.registry import all_plugins, broken_plugins
    parser.broken_games = {}        # {game: one-line error}: main() reports them once on stderr
    for name, error in broken_plugins().items():
        parser.broken_games[name] = f"game {name!r} cannot be loaded: {error}"
    for plugin in all_plugins():
        if plugin.cli:
            try:
                register_tools = plugin.load("cli")
            except Exception as exc:   # noqa: BLE001 - one game's broken tools must not take the rest down
                from games.registry import describe_error
                parser.broken_games[plugin.name] = f"{plugin.name} tools unavailable: {describe_error(exc)}"
                continue
            game_parser = commands.add_parser(plugin.name, help=_("{game} tools").format(game=plugin.name))
            register_tools(game_parser.add_subparsers(dest="tool", metavar="TOOL", required=True))
    for name, message in parser.broken_games.items():   # a placeholder that names the error
        broken = commands.add_parser(name, help=f"(broken) {message}", add_help=False,
                                     prefix_chars="\0")     # every word, --help too, is "rest"
        broken.add_argument("rest", nargs="*")
        broken.set_defaults(func=_unavailable_tool(message))
    return parser


def parse_size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        width, height = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise SystemExit(_("arena: size {size!r} is not WxH, e.g. 1280x720").format(size=text))
    return width, height


def refuse_human_headless(args) -> None:
    """A person plays at the window: ``--headless`` with a ``human`` seat is an error."""
    if args.headless and any(s.strip().lower() == "human" for s in args.seat):
        raise SystemExit(_("arena: a human seat needs the window; drop --headless"))


def match_plan(args):
    """``arena match``'s arguments as a :class:`runner.build.MatchPlan`."""
    from games.api import parse_option_pairs
    from runner.build import MatchPlan

    limits = {"poll": args.poll} if getattr(args, "poll", None) else {}
    if getattr(args, "clock", None):
        limits["clock"] = args.clock
    return MatchPlan.new(args.game, args.seat, seed=args.seed, variant=args.variant,
                         options=parse_option_pairs(args.option), limits=limits)


def cmd_match(args) -> int:
    from games.api import ArenaError
    from runner import paths
    from runner.build import build_match
    from runner.match import default_record_path

    try:
        plan = match_plan(args)
        refuse_human_headless(args)
        out = Path(args.out) if args.out else paths.records_dir()
        record = default_record_path(out, plan.game)
        match = build_match(plan, record_path=record, out_dir=out)
    except ArenaError as exc:
        print(f"arena: {error_text(exc)}", file=sys.stderr)
        return 2
    if not args.headless:
        from ui.app import run_app
        return run_app(args, match=match)
    if match.sandbox_line():
        print(f"arena: {match.sandbox_line()}", file=sys.stderr)
    outcome = match.run()
    if match.error:                     # e.g. an engine refused the set-up: no game was played
        print(f"arena: {match.error}", file=sys.stderr)
        return 2
    print(f"{plan.game}: {outcome.detail or outcome.reason.value} after {len(match.turns)} turns; "
          f"record {record}")
    if match.not_played or "could not start" in (outcome.detail or ""):   # no real result
        print(f"arena: {outcome.detail}", file=sys.stderr)
        return 1
    return 0


def cmd_branch(args) -> int:
    """A new match from turn N of a record: the first N turns as recorded, then new seats."""
    from games.api import ArenaError
    from runner import paths
    from runner.build import MatchPlan, build_match
    from runner.match import default_record_path
    from runner.records import open_replay

    try:
        replay = open_replay(args.file)
        plan = MatchPlan.from_record(replay, args.seat, turn=args.turn)
        refuse_human_headless(args)
        out = Path(args.out) if args.out else paths.records_dir()
        record = default_record_path(out, plan.game)
        match = build_match(plan, record_path=record, out_dir=out if args.out else None)
    except ArenaError as exc:
        print(f"arena: {error_text(exc)}", file=sys.stderr)
        return 2
    if not args.headless:
        from ui.app import run_app
        return run_app(args, match=match)
    outcome = match.run()
    if match.error:
        print(f"arena: {match.error}", file=sys.stderr)
        return 1
    print(f"{plan.game}: branched at turn {plan.branch.turn}; {outcome.detail or outcome.reason.value} "
          f"after {len(match.turns)} turns; record {record}")
    return 0


def cmd_rerun(args) -> int:
    from games import registry
    from games.api import ArenaError
    from runner.records import open_replay
    from runner.rerun import describe, rerun_turn

    spec = args.program if ":" in args.program.split()[0] or args.program in ("human", "bot") \
        else f"ext:{args.program}"
    try:
        replay = open_replay(args.file)
        result = rerun_turn(replay, args.turn, args.seat - 1, spec, time_limit=args.time)
    except ArenaError as exc:
        print(f"arena: {error_text(exc)}", file=sys.stderr)
        return 2
    print("\n".join(describe(result, registry.plugin(replay.game).new_game().spec.title)))
    return 0


def cmd_compare(args) -> int:
    from games.api import ArenaError
    from runner.records import open_replay
    try:
        replays = open_replay(args.old), open_replay(args.new)
    except ArenaError as exc:
        print(f"arena: {error_text(exc)}", file=sys.stderr)
        return 2
    if replays[0].game != replays[1].game:
        print(_("arena: {old} is {old_game} and {new} is {new_game}: only records of the same game "
                "compare").format(old=args.old, old_game=replays[0].game, new=args.new,
                                  new_game=replays[1].game), file=sys.stderr)
        return 2
    from ui.app import open_app
    from ui.scenes.compare import CompareScene
    app = open_app(args)
    app.push(CompareScene(app, *replays))
    return app.run()


def cmd_replay(args) -> int:
    from ui.app import run_app
    return run_app(args, replay_path=args.file)


def cmd_export(args) -> int:
    from games import registry
    from games.api import ArenaError
    from runner.exports import export_text
    from runner.records import open_replay
    try:
        replay = open_replay(args.file)
        if args.format.upper() in ("PNG", "GIF", "MP4"):
            return _export_media(args, replay)
        _, text = export_text(registry.plugin(replay.game), replay, args.turn, args.format)
    except ArenaError as exc:
        print(f"arena: {error_text(exc)}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(args.out)
    else:
        sys.stdout.write(text)
    return 0


def _export_media(args, replay) -> int:
    """A picture or film of the replay (the ui's renderers draw it; no window opens)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from ui.media import FilmSettings, export_media
    if not args.out:
        raise SystemExit(_("arena: --format {format} needs --out FILE").format(format=args.format))
    size = parse_size(args.size)
    last = args.turn if args.format.upper() == "PNG" else args.last
    settings = FilmSettings(args.first, last, size, args.fps)
    print(export_media(replay, args.format, Path(args.out), settings))
    return 0


def cmd_render(args) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from games.api import ArenaError
    from ui.snapshot import render_record_turn
    try:
        path = render_record_turn(args.file, args.turn, args.out, parse_size(args.size))
    except ArenaError as exc:
        print(f"arena: {error_text(exc)}", file=sys.stderr)
        return 2
    print(path)
    return 0


class _Terminated(Exception):
    """SIGTERM reached the shell while a window was open."""


@contextlib.contextmanager
def _sigterm_raises():
    """While a window runs an event on another thread, SIGTERM closes the window (the
    event is then stopped cleanly) instead of killing the arena at once."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise _Terminated()
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGTERM) is terminated:
            signal.signal(signal.SIGTERM, previous)


def run_command(args) -> int:
    """Run a parsed command; a game's tool may hand back :class:`~games.registry.OpenWindow`,
    and then the window is opened here, in the shell's layer."""
    from games.registry import OpenWindow
    from runner.tournament import ShowStandings
    result = args.func(args)
    if isinstance(result, ShowStandings):       # arena tournament --window/--project, arena project
        from ui.scenes.tournament import open_tournament_window
        with _sigterm_raises():
            try:
                open_tournament_window(args, result).run()
            except _Terminated:
                result.stop("SIGTERM")
            else:
                result.stop("the window was closed")
        return result.finish()
    if isinstance(result, OpenWindow):
        from ui.app import run_app
        code = run_app(args, match=result.match)
        return code if result.exit_code is None else result.exit_code
    return result or 0


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # keep stdout for our own output
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")          # Arena plays no sound
    argv = sys.argv[1:] if argv is None else list(argv)
    start_language()
    parser = build_parser()
    for name, message in parser.broken_games.items():
        if name not in argv:          # a command naming the game reports the error itself
            print(f"arena: {message}", file=sys.stderr)
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        from ui.app import run_app
        return run_app(args)
    return run_command(args)


if __name__ == "__main__":
    sys.exit(main())
