"""The Xiangqi referee: a match with the contest's clocks, verdicts and REPORT.TXT.

:class:`XiangqiMatch` is :class:`runner.match.Match` with what the contest's rules (RULES.md)
adds on top of the rules:

* clocks: ``seconds`` for each side (PLAY.INI line 4; -1 untimed) and no single move
  over 15 minutes, as a :class:`runner.match.TimeControl`;
* a flag fall is adjudicated by :func:`games.xiangqi.rules.adjudicate_flag_fall`
  (loss only when the opponent has more than 5 minutes left, else a draw unless a
  side can force mate within 4 half-moves), a move over 15 minutes by
  :func:`~games.xiangqi.rules.adjudicate_move_time`;
* contest mode: the other program's status word (WIN, DRAW, FINISH) ends the game
  as written;
* the official REPORT.TXT, grown by one small write per move (no fsync: the
  record's one fsync a move is the safety), and beside it the machine-readable
  result file ``REPORT.JSON`` (result, reason, final clocks), written at the first
  move and at the end.

Everything else (illegal move, malformed file, crash, resignation, mate, repetition,
no attacking material) is the rules' and the runner's, unchanged.

``python main.py xiangqi referee --bottom CMD --top CMD [--seconds N] [--out DIR]``
referees two contest programs, each in its own folder under DIR.
"""
from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any, Mapping, Sequence

from games.api import Outcome, Termination, parse_option_pairs
from games.fileio import atomic_write
from games.registry import OpenWindow
from games.xiangqi.movefiles import COMPUTER, HUMAN, OTHER, UNTIMED
from games.xiangqi.records import NO_REPORT_REASON
from games.xiangqi.rules import SIDE_NAMES, SINGLE_MOVE_LIMIT_SECONDS
from runner.match import Match, TimeControl

REPORT_NAME = "REPORT.TXT"
#: The small machine-readable result file beside REPORT.TXT (CONTEST.md).
RESULT_NAME = "REPORT.JSON"
RESULT_FORMAT = "xiangqi-report-result"
MAX_REPORT_COLUMNS = 255


def start_fen_differs(fen: str) -> bool:
    """True when ``fen`` is a start position other than the usual one."""
    from games.xiangqi.rules import START_FEN
    return bool(fen) and fen.split()[:2] != START_FEN.split()[:2]


def contest_time_control(seconds: int) -> TimeControl:
    """PLAY.INI's seconds as the runner's limits: the whole game, and 15 minutes a move."""
    total = float(seconds) if seconds and seconds > 0 else None
    return TimeControl(per_move=float(SINGLE_MOVE_LIMIT_SECONDS), total=total, human_total=total)


class XiangqiMatch(Match):
    """A refereed Xiangqi match (see the module's doc)."""

    def __init__(self, plugin, options: Mapping[str, Any], seats: list, *, seconds: int = UNTIMED,
                 report_dir: str | Path | None = None, report_authors: Sequence[str] | None = ("", "", ""),
                 report_words: tuple[str, str] | None = None, **kwargs):
        kwargs.setdefault("time_control", contest_time_control(seconds))
        super().__init__(plugin, options, seats, **kwargs)
        self.seconds = seconds
        self.report_dir = Path(report_dir) if report_dir else None
        #: REPORT.TXT lines 1-3; None: the referee, the players' names and the rules in force.
        self._report_authors = tuple(report_authors) if report_authors is not None else None
        self.report_words = report_words or tuple(seat_word(s) for s in seats)
        self._report_tail: tuple[int, int] | None = None    # (half-moves, offset of the last line)
        for seat in seats:
            attach = getattr(seat, "attach_clock", None)
            if attach is not None:
                attach(self.seconds_left, seconds)

    # ------------------------------------------------------------------ clocks
    def seconds_left(self) -> tuple[float | None, float | None]:
        """Seconds left for the bottom and the top side (None when untimed)."""
        total = self.time_control.total
        if total is None:
            return None, None
        return total - self.time_used[0], total - self.time_used[1]

    def _clock_verdict(self, seat: int, elapsed: float) -> Outcome | None:
        """The contest's ruling on a time-out by ``seat`` after ``elapsed`` seconds."""
        return self.game.timeout_ruling(self.state, seat, elapsed, self.time_used,
                                        self.time_control.total)

    # ------------------------------------------------------------------ the turn
    def ruling(self, seat, answer) -> Outcome | None:
        """The contest's rulings: flag fall and the 15-minute move; status words taken as written."""
        if answer.failure is Termination.TIMEOUT:
            return self._clock_verdict(seat, answer.elapsed)
        if getattr(answer, "claim", ""):
            return claim_outcome(seat, answer.claim)
        return None

    def after_turn(self, info) -> None:
        self.update_report()

    def after_close(self) -> None:
        self.write_reports()

    # ------------------------------------------------------------------ REPORT.TXT
    @property
    def report_authors(self) -> tuple[str, ...]:
        if self._report_authors is not None:
            return self._report_authors
        from games.xiangqi.records import report_header
        return tuple(report_header([seat.describe() for seat in self.seats], self._rules_summary(),
                                   "Arena referee"))

    def has_report(self) -> bool:
        """REPORT.TXT is the contest's record: it always starts from the usual position."""
        return not start_fen_differs(self.options.get("fen", ""))

    def update_report(self) -> None:
        """After a move: REPORT.TXT grows by that move, one small write and no fsync.

        A bottom move appends ``N BOTTOM``; a top move rewrites that last line as
        ``N BOTTOM TOP`` (the file is never shorter than the moves before it).  The
        first move, and anything unusual (a takeback), writes both files whole;
        REPORT.JSON is written then and at the end (the record keeps every turn).
        """
        if self.report_dir is None:
            return
        moves = self.states[-1].moves
        count = len(moves)
        if not self.has_report() or self._report_tail is None or self._report_tail[0] != count - 1:
            self.write_reports()
            return
        path = self.report_dir / REPORT_NAME
        number = (count + 1) // 2
        try:
            if count % 2:
                with open(path, "ab") as fh:
                    offset = fh.tell()
                    fh.write(f"{number} {moves[-1]}\r\n".encode("ascii"))
            else:
                offset = self._report_tail[1]
                with open(path, "r+b") as fh:
                    fh.seek(offset)
                    fh.write(f"{number} {moves[-2]} {moves[-1]}\r\n".encode("ascii"))
                    fh.truncate()
        except OSError as exc:      # the game goes on; the screen and the record say why
            self.error = f"could not write {path}: {exc.strerror or exc}"
            self._report_tail = None
            return
        self._report_tail = (count, offset)

    def write_reports(self) -> list[Path]:
        """REPORT.TXT and REPORT.JSON in ``report_dir``, whole (nothing when it is not set).

        A game from another start position has no REPORT.TXT; REPORT.JSON says why.
        """
        if self.report_dir is None:
            return []
        moves = list(self.states[-1].moves)
        report, result = self.report_dir / REPORT_NAME, self.report_dir / RESULT_NAME
        written = []
        try:
            self.report_dir.mkdir(parents=True, exist_ok=True)
            if self.has_report():
                text = format_report(self.report_authors, self.report_words, moves)
                atomic_write(report, text)
                written.append(report)
                last = text.rstrip("\r\n").rsplit("\r\n", 1)[-1]
                self._report_tail = (len(moves), len(text) - len(last) - 2)
            atomic_write(result, json.dumps(self.result_data(), indent=2) + "\n")
            written.append(result)
        except OSError as exc:      # the game goes on; the screen and the record say why
            self.error = f"could not write {report.parent}: {exc.strerror or exc}"
            self._report_tail = None
            return []
        return written

    def result_data(self) -> dict:
        outcome = self.outcome if self.outcome is not None else None
        left = self.seconds_left()
        return {
            "format": RESULT_FORMAT, "version": 1,
            "report": REPORT_NAME if self.has_report() else None,
            **({} if self.has_report() else {"no_report": NO_REPORT_REASON}),
            "result": (outcome.result_text() if outcome else "*"), "winner": _winner_name(outcome),
            "reason": outcome.reason.value if outcome else None,
            "detail": outcome.detail if outcome else "",
            "players": " ".join(self.report_words),
            "seconds": self.seconds,
            "clocks": {"bottom": _clock_value(left[0]), "top": _clock_value(left[1])},
            "time_used": {"bottom": round(self.time_used[0], 3), "top": round(self.time_used[1], 3)},
            "half_moves": len(self.states[-1].moves),
            "record": str(self.record_path) if self.record_path else None,
            "program_reports": self.program_reports() if outcome is not None else {},
        }

    def program_reports(self) -> dict[str, str]:
        """For organizers: does each contest program's own REPORT.TXT agree with the game?

        Information only: the results do not depend on it.
        """
        moves = list(self.states[-1].moves)
        found = {}
        for seat, name in zip(self.seats, ("bottom", "top")):
            folder = getattr(seat, "folder", None)
            if folder is not None:
                found[name] = compare_program_report(Path(folder) / REPORT_NAME, moves)
        return found


def compare_program_report(path: Path, moves: Sequence[str]) -> str:
    """``agrees``, ``missing``, or where a program's REPORT.TXT departs from ``moves``."""
    try:
        lines = path.read_bytes().decode("latin-1").splitlines()
    except OSError:
        return "missing"
    if len(lines) < 4:
        return f"only {len(lines)} lines: line 4 (the players) is missing"
    written = [word.upper() for line in lines[4:] for word in line.split()[1:]]
    if written == list(moves):
        return "agrees"
    if written[:len(moves)] == list(moves) and len(written) == len(moves) + 1:
        return "agrees (plus its answer to the last move, played after the end)"
    if written == list(moves[:-1]):
        # The final move is relayed just before the status words: it may not be seen.
        return "agrees (without the move that ended the game)"
    for index, (theirs, ours) in enumerate(zip(written, moves)):
        if theirs != ours:
            return f"differs at half-move {index + 1}: {theirs} instead of {ours}"
    return f"has {len(written)} half-moves; the game had {len(moves)}"


def claim_outcome(seat: int, word: str) -> Outcome:
    """Contest mode: what the other program's status word means, taken as written."""
    who = SIDE_NAMES[seat]
    if word == "WIN":
        scores = (1.0, 0.0) if seat == 0 else (0.0, 1.0)
        return Outcome((seat,), scores, Termination.ADJUDICATION, f"{who} (the other program) wrote WIN")
    if word == "DRAW":
        return Outcome((), (0.5, 0.5), Termination.ADJUDICATION, f"Draw: {who} (the other program) wrote DRAW")
    return Outcome((), (0.0, 0.0), Termination.ABORTED,
                   f"{who} (the other program) wrote FINISH: game over, result unknown")


def seat_word(seat) -> str:
    """REPORT.TXT's word for a seat: a person is HUMAN, a program OTHER, an engine COMPUTER."""
    return {"human": HUMAN, "ext": OTHER}.get(getattr(seat, "kind", ""), COMPUTER)


def _winner_name(outcome: Outcome | None) -> str | None:
    if outcome is None or not outcome.winners:
        return None
    return "bottom" if outcome.winners[0] == 0 else "top"


def _clock_value(left: float | None) -> float:
    return UNTIMED if left is None else round(max(0.0, left), 3)


def format_report(authors: Sequence[str], words: Sequence[str], moves: Sequence[str]) -> str:
    """REPORT.TXT's text (CONTEST.md), through :mod:`games.xiangqi.records`.

    Lines 1-3 author, program, address, made plain ASCII here (Vietnamese loses its
    accents: the contest allows English or unaccented Vietnamese), at most 255
    columns, empty when unused; line 4 the two PLAY.INI words; then ``N BOTTOM TOP``.
    """
    from games.xiangqi.records import Report
    from games.xiangqi.records import format_report as format_report_text
    header = [unaccented(text)[:MAX_REPORT_COLUMNS] for text in (list(authors) + ["", "", ""])[:3]]
    return format_report_text(Report(header, tuple(words), [m.upper() for m in moves]))


def unaccented(text: str) -> str:
    """``"Nguyễn Văn Đức"`` -> ``"Nguyen Van Duc"``; other non-ASCII letters become ``?``."""
    text = re.sub(r"[\r\n\t]+", " ", text or "").replace("đ", "d").replace("Đ", "D")
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return plain.encode("ascii", "replace").decode("ascii")


# --------------------------------------------------------------------------- the command

_SPEC_RE = re.compile(r"^(human|bot(:\d+(\s+\S+=\S*)*)?|(ext|uci|ucci):.+)$", re.IGNORECASE | re.DOTALL)


def seat_spec(text: str) -> str:
    """``--bottom``/``--top``: a seat spec (human, bot:N, ext:, uci:, ucci:) or a bare command."""
    text = text.strip()
    return text if _SPEC_RE.match(text) else f"ext:{text}"


def build_referee_match(bottom: str, top: str, out: Path, seconds: int = UNTIMED,
                        options: Mapping[str, str] | None = None, seed: int | None = None,
                        authors: Sequence[str] | None = None, poll: float | None = None) -> XiangqiMatch:
    """Two seats (programs, engines, bots or people); programs run in ``out/seat1``, ``out/seat2``.

    The match is built as every match is (:func:`runner.build.build_match`); what the
    referee adds is :class:`XiangqiMatch`: the contest's clocks, REPORT.TXT and REPORT.JSON."""
    from runner.build import MatchPlan, build_match
    from runner.match import default_record_path

    out = Path(out).absolute()
    limits: dict[str, Any] = {"seconds": seconds, **({"poll": poll} if poll else {})}
    plan = MatchPlan.new("xiangqi", [seat_spec(bottom), seat_spec(top)], seed=seed,
                         options=dict(options or {}), limits=limits)
    return build_match(plan, match_class=XiangqiMatch, seconds=seconds, report_dir=out,
                       report_authors=authors, record_path=default_record_path(out, plan.game),
                       workdir=out, check_commands=False)     # a program that cannot start loses


def referee_command(args) -> int | OpenWindow:
    """``python main.py xiangqi referee``: referee one game and print the result, or ask the
    shell to show it in the window (``--window``, or a person plays)."""
    from games.api import ArenaError

    out = Path(args.out) if args.out else _default_out()
    try:
        match = build_referee_match(args.bottom, args.top, out, args.seconds,
                                    parse_option_pairs(args.option), args.seed, None, args.poll)
    except (ArenaError, ImportError) as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    if args.window or any(s.kind == "human" for s in match.seats):
        return OpenWindow(match)           # the shell (main.py) opens the window
    outcome = match.run()
    print(f"xiangqi: {outcome.result_text()} {outcome.detail or outcome.reason.value} "
          f"after {len(match.states[-1].moves)} half-moves; report {out / REPORT_NAME}; "
          f"record {match.record_path}")
    return 0


def _default_out() -> Path:
    import datetime as _dt
    from runner import paths
    return paths.records_dir() / f"xiangqi-referee-{_dt.datetime.now():%Y%m%d-%H%M%S}"


def register(subparsers) -> None:
    """Add ``referee`` to ``python main.py xiangqi ...``."""
    parser = subparsers.add_parser(
        "referee", help="referee two contest programs (PLAY.INI, move files, REPORT.TXT)",
        description="Runs each side in its own folder (DIR/seat1 for the bottom, DIR/seat2 for the top) with its own "
        "PLAY.INI, relays the moves through the move files with the referee's clocks, "
        "adjudicates every result of the contest's rules, writes the final status words, DIR/REPORT.TXT, "
        "DIR/REPORT.JSON and the arena record. The same as 'python main.py match xiangqi "
        "--seat ext:A --seat ext:B --headless --out DIR' plus the contest clocks and REPORT.TXT.")
    parser.add_argument("--bottom", required=True, metavar="CMD",
                        help="the bottom side (Red, moves first): a program's command, or a seat "
                        "spec: human, bot:LEVEL [depth=N] [nodes=N] [movetime=MS], ext:CMD, uci:CMD, ucci:CMD")
    parser.add_argument("--top", required=True, metavar="CMD", help="the top side, the same way")
    parser.add_argument("--seconds", type=int, default=UNTIMED,
                        help="thinking time for each side in seconds (default -1: untimed)")
    parser.add_argument("--out", metavar="DIR", help="folder for the programs' folders, REPORT.TXT, "
                        "REPORT.JSON and the record (default: a new folder in the records folder)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. no_capture_limit=60 or repetition=draw")
    parser.add_argument("--seed", type=int, default=None, help="random seed for built-in bots")
    parser.add_argument("--poll", type=float, default=None,
                        help="seconds between two looks at a move file its program still holds open "
                        "(default 0.05; a finished file is noticed at once)")
    parser.add_argument("--window", action="store_true", help="watch the game in the window")
    parser.set_defaults(func=referee_command)
