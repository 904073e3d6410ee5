"""The texts the referee and the program runner write about programs (time-outs,
crashes, unreadable or illegal answers, repairs), as templates for the catalog.

These are written in English where they are made (answers, forfeits and records keep
them so: records are data), most as a :class:`games.api.Message` that keeps its id (the
template) and parts, and shown translated by :func:`translated` from those.  A text with
no id (an old record's) is matched against these templates and each game's own
(``GamePlugin.messages``) instead.
Errors that name a file and line (a bad map) are shown the same way.
"""
import functools

from runner.i18n import N_, translate_message, translate_text

MESSAGES = (
    # runner.referee
    N_("answered after {elapsed} s; the limit was {limit} s"),
    N_("answered after {elapsed} s of CPU; the limit was {limit} s"),
    N_("unreadable move ({source}): {error}"),
    N_("unreadable move: {error}"),
    N_("illegal move ({source}): {error}"),
    N_("illegal move: {error}"),
    N_("no move was given"),
    N_("{failure}: {detail}; {note}"),
    # a repair note whose detail holds "; " itself: the repair is found by its words
    N_("{failure}: {detail}; the referee played {move}"),
    N_("{failure}: {detail}; the referee played {move} ({note})"),
    N_("{reason}: {detail}"),
    N_("{detail}; the repair was illegal too ({error})"),
    # runner.process / runner.program_seats
    N_("killed after {seconds} s (time limit)"),
    N_("killed after {cpu} s of CPU (time limit, CPU clock; {wall} s wall)"),
    N_("killed after {wall} s wall, the cap of a {limit} s CPU clock (it used {cpu} s of CPU)"),
    N_("exited with code {code}"),
    N_("finished in {seconds} s"),
    N_("closed its output but kept running"),
    N_("was killed by signal {signal}"),
    N_("deleted files the program created: {files}"),
    N_("{file} ends before the game does"),
    N_("{file} holds no move"),
    N_("the program is not running"),
    N_("match stopped"),
    N_("the match was stopped"),          # runner.match: a stopped match's result detail
    N_("could not write the contest files in {folder}: {error}"),     # runner.match, after the end
    N_("killed by signal {signal}"),
    N_("could not start {program}: {error}"),
    N_("no {what} within {seconds} s"),      # runner.line_seat: a handshake that never came
    N_("{count} output lines longer than {limit} bytes were cut"),
    # the answer file of a program run once per turn or once a game (runner.program_seats)
    N_("the program wrote no {file}"),
    N_("{file} is not a regular file (a link, FIFO or folder)"),
    N_("{file} is not a regular file (a link, FIFO or folder); ignored"),
    N_("{file} could not be read: {error}"),
    N_("{file} could not be read: {error}; ignored"),
    N_("{file} is larger than {limit} bytes"),
    N_("{file} holds binary data"),
    N_("{file} is empty"),
    # runner.seats: people's and built-in bots' seats
    N_("no move before the clock ran out"),
    N_("resigned"),
    N_("bot error: {error}"),
    # games.api: the default repair, the default legality check, annotation notes
    N_("the referee played {move}"),
    N_("it is not seat {seat}'s turn"),
    N_("{move} is not a legal move here"),
    N_("the game is over"),
    N_("(further notes left out)"),
    # notes on a program's annotations (games.annotations), shown in the debug panel
    N_("{source}: not text"),
    N_("{source}: only the first {limit} bytes were read"),
    N_("{source}: holds binary data; ignored"),
    N_("{source}: more than {limit} commands; the rest were ignored"),
    N_("{source} line {line}: longer than {limit} characters; ignored"),
    N_("{source} line {line}: {error}"),
    N_("unexpected {words} (expected {usage})"),
    N_("expected text [COLOUR] MESSAGE"),
    N_("expected heat CELL NUMBER"),
    N_("unknown command {word} (expected one of {kinds})"),
    N_("{cell} is not a cell of this game (expected {usage})"),
    N_("a cell is missing (expected {usage})"),
    N_("{word} is not a number (expected heat CELL NUMBER)"),
    N_("{word} is out of range (at most {limit} either way)"),
    # what a file was expected to hold, with what was found instead (games' readers)
    N_("{expected} (found {found})"),
    N_("line {line}: {reason}"),
    N_("nothing"),
    # the system's words for why a program could not start or a file could not be read
    N_("No such file or directory"), N_("Permission denied"), N_("Exec format error"),
    N_("Is a directory"), N_("Not a directory"), N_("Too many open files"),
    # games.api.Outcome.result_text of a solitaire
    N_("score {n}"),
    # the reasons a game ends (games.api.Termination values), as records write them
    N_("win"), N_("draw"), N_("stalemate"), N_("repetition"), N_("no-material"),
    N_("move-limit"), N_("board-full"), N_("elimination"), N_("score"), N_("resignation"),
    N_("stopped"), N_("timeout"), N_("illegal-move"), N_("crash"), N_("bad-file"),
    N_("adjudication"), N_("aborted"), N_("not-played"), N_("forfeit"),
    # games.api: RecordFormatError (a file that cannot be read), check_seats
    N_("{path}, line {line}: {expected}"),
    N_("{game} takes {low}–{high} seats; {count} were given"),
    N_("{game} takes {low}–{high} seats; {count} was given"),
    N_("{game} takes {count} seats; {given} were given"),
    N_("{game} takes {count} seats; {given} was given"),
)


@functools.cache
def all_templates() -> tuple[str, ...]:
    """Every template of a text the referee or a game's rules write: the runner's and
    each installed game's (all games', so a record of any game reads the same way)."""
    from games import registry

    templates = list(MESSAGES)
    for plugin in registry.all_plugins():
        if plugin.messages:
            try:
                templates.extend(plugin.load("messages"))
            except Exception:          # noqa: BLE001 - a half-written game's texts stay English
                continue
    return tuple(templates)


def translated(text: str) -> str:
    """A text a game's rules or the referee wrote (an event, a result's detail, a verdict,
    a repair note, an error naming a file and line), in the interface's language.

    A :class:`games.api.Message` is said from its id and parts; a text without an id (an
    old record's, or one still written as plain English) is read back by the templates
    (:func:`runner.i18n.translate_text`), and shown as written when none fits."""
    if getattr(text, "msgid", ""):
        return translate_message(text, read_back)
    return read_back(text)


def read_back(text: str) -> str:
    """A finished English text with no id, translated by matching it against every
    template (records written before texts carried ids)."""
    return translate_text(text or "", all_templates())
