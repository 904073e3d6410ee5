"""Arena's command line: parses arguments before importing anything heavy.

    python main.py                      the home screen
    python main.py replay FILE          open a record in the replay viewer
    python main.py match GAME --seat SPEC --seat SPEC [--headless] [--out DIR]
    python main.py tournament EVENT.toml [--workers N] [--cluster tcp://HOST:8786]
    python main.py render FILE --turn N --out PICTURE.png [--size WxH]
    python main.py GAME TOOL ...        a game's own tools (xiangqi perft, robot audit ...)
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def _games_help() -> str:
    from games.registry import all_plugins
    return ", ".join(p.name for p in all_plugins())


def _unavailable_tool(message: str):
    """The ``func`` of a game whose package or tools fail to load: say why, exit 2."""
    def report(args) -> int:
        print(f"arena: {message}", file=sys.stderr)
        return 2
    return report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena", description="Arena: play, referee and replay classic programming-contest games. "
        "With no command, opens the home screen.")
    parser.add_argument("--fullscreen", action="store_true", help="start fullscreen (F11 toggles)")
    parser.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x720")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = commands.add_parser("replay", help="open a record (arena record, HEX.OUT, SGF, REPORT.TXT, "
                                 "Robot turn log) in the replay viewer")
    replay.add_argument("file", help="the record file")
    replay.set_defaults(func=cmd_replay)

    match = commands.add_parser("match", help="play or referee a match")
    match.add_argument("game", help=f"the game ({_games_help()})")
    match.add_argument("--seat", action="append", default=[], metavar="SPEC",
                       help="one per seat, in seat order: human, bot[:LEVEL], ext:COMMAND "
                       "(an external program speaking the game's file protocol), or a game's "
                       "engine kind such as gtp:COMMAND, uci:COMMAND")
    match.add_argument("--variant", help="a variant of the game (e.g. 9x9)")
    match.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="a game option, e.g. size=7 or time_total=20")
    match.add_argument("--seed", type=int, default=None, help="the match's random seed (default: random)")
    match.add_argument("--headless", action="store_true",
                       help="no window: bots and programs only (a human seat is an error)")
    match.add_argument("--out", metavar="DIR", help="folder for the record, contest record files "
                       "and result.json (default: the records folder)")
    match.set_defaults(func=cmd_match)

    from runner.tournament import register as register_tournament
    register_tournament(commands)

    render = commands.add_parser("render", help="draw one turn of any record to a PNG, no window")
    render.add_argument("file", help="the record file")
    render.add_argument("--turn", type=int, default=-1, help="turn number (0 = start; default: last)")
    render.add_argument("--out", required=True, metavar="PICTURE.png", help="where to save the picture")
    render.add_argument("--size", default="1280x720", metavar="WxH", help="picture size (default 1280x720)")
    render.set_defaults(func=cmd_render)

    export = commands.add_parser("export", help="save a record in a game's own formats "
                                 "(Xiangqi: PGN, FEN of a position; Hex: SGF, HEX.OUT)")
    export.add_argument("file", help="the record file")
    export.add_argument("--format", required=True, metavar="NAME", help="the format, e.g. PGN, FEN, SGF")
    export.add_argument("--turn", type=int, default=-1, help="the position for FEN (0 = start; default: last)")
    export.add_argument("--out", metavar="FILE", help="write here instead of standard output")
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
            game_parser = commands.add_parser(plugin.name, help=f"{plugin.name} tools")
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
        raise SystemExit(f"arena: size {text!r} is not WxH, e.g. 1280x720")
    return width, height


def cmd_match(args) -> int:
    import random

    from games import registry
    from games.api import ArenaError, parse_option_pairs
    from runner import paths
    from runner.match import Match, default_record_path
    from runner.seats import make_seat

    try:
        plugin = registry.plugin(args.game)
        game = plugin.new_game()
        explicit = parse_option_pairs(args.option)
        count_option = game.spec.seats_option
        if count_option and count_option not in explicit:
            explicit[count_option] = str(len(args.seat))     # one seat per --seat
        options = game.spec.resolve_options(args.variant, explicit)
        seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
        if args.headless and any(s.strip().lower() == "human" for s in args.seat):
            raise SystemExit("arena: a human seat needs the window; drop --headless")
        out = Path(args.out) if args.out else paths.records_dir()
        record = default_record_path(out, plugin.name)
        seats = [make_seat(spec, plugin, seed + index) for index, spec in enumerate(args.seat)]
        match = Match(plugin, options, seats, seed=seed, variant=args.variant, record_path=record,
                      out_dir=out)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    if not args.headless:
        from ui.app import run_app
        return run_app(args, match=match)
    outcome = match.run()
    print(f"{plugin.name}: {outcome.detail or outcome.reason.value} after {len(match.turns)} turns; "
          f"record {record}")
    return 0


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
        _, text = export_text(registry.plugin(replay.game), replay, args.turn, args.format)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(args.out)
    else:
        sys.stdout.write(text)
    return 0


def cmd_render(args) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from games.api import ArenaError
    from ui.snapshot import render_record_turn
    try:
        path = render_record_turn(args.file, args.turn, args.out, parse_size(args.size))
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


def run_command(args) -> int:
    """Run a parsed command; a game's tool may hand back :class:`~games.registry.OpenWindow`,
    and then the window is opened here, in the shell's layer."""
    from games.registry import OpenWindow
    from runner.tournament import ShowStandings
    result = args.func(args)
    if isinstance(result, ShowStandings):       # arena tournament --window
        from ui.app import open_app
        from ui.scenes.tournament import TournamentScene
        app = open_app(args)
        app.push(TournamentScene(app, result.folder, result.thread, result.log, result.error))
        app.run()
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
