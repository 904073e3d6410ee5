"""The Xiangqi contest's files as pure text: PLAY.INI, move files, and the polling rule.

CONTEST.md.  Nothing here touches the disk: readers take the text (and the
file's name, for error messages), writers return the text, and :class:`StablePoller`
is fed what the caller read on each poll.  The seats that run programs
(:mod:`games.xiangqi.program`) do the I/O.

PLAY.INI, one item a line::

    OTHER            who plays the bottom side (Red, moves first)
    COMPUTER         who plays the top side
    12891            the opponent's id, below 65000
    3600             seconds for each side, below 32000; -1 = untimed
    C:\\MOVE\\M1.DAT   the file the bottom side writes its moves to
    C:\\MOVE\\M2.DAT   the file the top side writes its moves to

A move file: line 1 the move (``A7A8``) or a status word (FINISH, WIN, LOST, DRAW);
lines 2-3 the seconds left for the bottom and the top side, which only the referee
computes (a program's own values are read leniently and never used).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from games.api import RecordFormatError

COMPUTER, HUMAN, OTHER = "COMPUTER", "HUMAN", "OTHER"
PLAYER_WORDS = (COMPUTER, HUMAN, OTHER)

FINISH, WIN, LOST, DRAW = "FINISH", "WIN", "LOST", "DRAW"
STATUS_WORDS = (FINISH, WIN, LOST, DRAW)

UNTIMED = -1
MAX_OPPONENT_ID = 65000          # the id is "an integer below 65000"
MAX_SECONDS = 32000              # seconds are "below 32000"
#: A move file is a few bytes; anything larger is read only this far and is malformed.
MAX_MOVE_FILE_BYTES = 256

_MOVE_RE = re.compile(r"^[A-I][0-9][A-I][0-9]$")
_SIDE_LINES = ("bottom side", "top side")


# --------------------------------------------------------------------------- PLAY.INI


@dataclass(frozen=True)
class PlayIni:
    """The six lines of PLAY.INI.  ``seconds`` is -1 when untimed."""

    bottom: str
    top: str
    opponent_id: int = 0
    seconds: int = UNTIMED
    bottom_file: str = ""
    top_file: str = ""

    @property
    def words(self) -> tuple[str, str]:
        return self.bottom, self.top

    @property
    def has_other(self) -> bool:
        return OTHER in self.words

    @property
    def other_side(self) -> int | None:
        """0 when the other program plays the bottom, 1 when it plays the top, else None."""
        return self.words.index(OTHER) if self.has_other else None

    def move_file(self, side: int) -> str:
        """The file ``side`` (0 bottom, 1 top) writes its moves to."""
        return self.bottom_file if side == 0 else self.top_file

    def report_line(self) -> str:
        """REPORT.TXT's line 4: lines 1 and 2 joined by one space."""
        return f"{self.bottom} {self.top}"


def parse_play_ini(text: str, path: str = "PLAY.INI") -> PlayIni:
    """Read PLAY.INI, raising :class:`RecordFormatError` naming the line at fault.

    Words are read case-insensitively and surrounding spaces are ignored (a
    careful referee forgives ``computer``); everything else is checked strictly.
    Lines 3-6 are required only when a side is ``OTHER``; otherwise line 4, when
    present and valid, still sets the clock (``COMPUTER HUMAN 28 -1``, as the contest's own example has it).
    """
    lines = [line.strip() for line in text.splitlines()]
    words = []
    for index in (0, 1):
        word = lines[index].upper() if index < len(lines) else ""
        if word not in PLAYER_WORDS:
            shown = f"{lines[index]!r}" if index < len(lines) and lines[index] else "nothing"
            raise RecordFormatError(path, index + 1, f"who plays the {_SIDE_LINES[index]}: "
                                    f"COMPUTER, HUMAN or OTHER (found {shown})")
        words.append(word)
    if words == [OTHER, OTHER]:
        raise RecordFormatError(path, 2, "COMPUTER or HUMAN: line 1 already says OTHER, and "
                                "this program must play one side itself (OTHER OTHER)")
    if OTHER not in words:
        seconds = UNTIMED
        if len(lines) > 3:
            try:
                seconds = _seconds(lines[3], path)
            except RecordFormatError:
                seconds = UNTIMED
        return PlayIni(words[0], words[1], seconds=seconds)
    opponent = _integer(lines, 2, path, "the opponent's id, a whole number from 0 to 64999")
    if not 0 <= opponent < MAX_OPPONENT_ID:
        raise RecordFormatError(path, 3, f"the opponent's id below {MAX_OPPONENT_ID} (found {opponent})")
    seconds = _seconds(lines[3] if len(lines) > 3 else "", path)
    files = []
    for index, side in ((4, "bottom"), (5, "top")):
        name = lines[index] if index < len(lines) else ""
        if not name:
            raise RecordFormatError(path, index + 1, f"the full path of the file the {side} "
                                    "side writes its moves to")
        files.append(name)
    if files[0] == files[1]:
        raise RecordFormatError(path, 6, "a different move file from line 5's")
    return PlayIni(words[0], words[1], opponent, seconds, files[0], files[1])


def _integer(lines: list[str], index: int, path: str, expected: str) -> int:
    text = lines[index] if index < len(lines) else ""
    if not re.fullmatch(r"-?[0-9]+", text):
        raise RecordFormatError(path, index + 1, f"{expected} (found {text!r})" if text else expected)
    return int(text)


def _seconds(text: str, path: str) -> int:
    expected = f"seconds for each side, below {MAX_SECONDS}, or -1 for untimed"
    if not re.fullmatch(r"-?[0-9]+", text):
        raise RecordFormatError(path, 4, f"{expected} (found {text!r})" if text else expected)
    value = int(text)
    if value != UNTIMED and not 0 < value < MAX_SECONDS:
        raise RecordFormatError(path, 4, f"{expected} (found {value})")
    return value


def format_play_ini(ini: PlayIni) -> str:
    """PLAY.INI's text, upper case, one item a line, CR LF line ends as DOS programs expect."""
    lines = [ini.bottom, ini.top, str(ini.opponent_id), str(ini.seconds),
             ini.bottom_file, ini.top_file]
    return "\r\n".join(lines) + "\r\n"


# --------------------------------------------------------------------------- move files


@dataclass(frozen=True)
class MoveFile:
    """One move file: a move in upper-case ICCS or a status word, and the clocks.

    ``bottom_seconds``/``top_seconds`` are None when the writer gave none (or
    gave something unreadable: they are the referee's, so they never make a file bad).
    """

    word: str
    bottom_seconds: int | None = None
    top_seconds: int | None = None

    @property
    def is_status(self) -> bool:
        return self.word in STATUS_WORDS


def parse_move_file(text: str, path: str = "move file") -> MoveFile:
    """Read a move file written by a program; only line 1 can make it malformed."""
    lines = [line.strip() for line in text.splitlines()]
    first = lines[0].upper() if lines else ""
    if not (_MOVE_RE.match(first) or first in STATUS_WORDS):
        shown = f" (found {lines[0][:40]!r})" if lines and lines[0] else " (found nothing)"
        raise RecordFormatError(path, 1, "a move such as H2E2 (files A-I, ranks 0-9) or one of "
                                "FINISH, WIN, LOST, DRAW" + shown)
    if _MOVE_RE.match(first) and first[:2] == first[2:]:
        raise RecordFormatError(path, 1, f"a move such as H2E2 between two different squares (found {first})")
    clocks = [_lenient_int(lines[i]) if i < len(lines) else None for i in (1, 2)]
    return MoveFile(first, clocks[0], clocks[1])


def _lenient_int(text: str) -> int | None:
    return int(text) if re.fullmatch(r"-?[0-9]+", text) else None


def format_move_file(word: str, bottom_seconds: float | None, top_seconds: float | None) -> str:
    """A move file's text: the word in upper case and the two clocks (-1 when untimed).

    Clocks are whole seconds left, rounded down and never below 0.
    """
    return "\r\n".join([word.strip().upper(), _clock_text(bottom_seconds),
                        _clock_text(top_seconds)]) + "\r\n"


def _clock_text(seconds: float | None) -> str:
    if seconds is None:
        return str(UNTIMED)
    return str(max(0, min(MAX_SECONDS - 1, int(seconds))))


def status_words(winners: tuple[int, ...] | None) -> tuple[str, str]:
    """The final word each side's move file gets: (bottom's, top's).

    Each file speaks for its writer: the winner's file says WIN, the loser's LOST,
    both say DRAW for a draw, and FINISH when the result is unknown (``None``: the
    match was stopped).
    """
    if winners is None:
        return FINISH, FINISH
    if not winners:
        return DRAW, DRAW
    return (WIN, LOST) if winners[0] == 0 else (LOST, WIN)


# --------------------------------------------------------------------------- polling


class StablePoller:
    """The polling rule for a file another program writes (CONTEST.md).

    Feed it what the file held on each poll (``None`` when absent).  It returns the
    content once the content differs from the last one taken and has stayed the same
    for two polls in a row, and from then on treats that content as taken.

    An empty (or blank) file counts as absent: it is a file being written (a program
    that opens it for writing truncates it first), never an answer.
    """

    def __init__(self, taken: str | None = None):
        self.taken = taken
        self._candidate: str | None = None
        self._seen = 0

    def feed(self, content: str | None) -> str | None:
        if content is None or not content.strip() or content == self.taken:
            self._candidate, self._seen = None, 0
            return None
        if content == self._candidate:
            self._seen += 1
        else:
            self._candidate, self._seen = content, 1
        if self._seen >= 2:
            self.taken, self._candidate, self._seen = content, None, 0
            return content
        return None

    @property
    def pending(self) -> str | None:
        """A new content seen once and not yet confirmed."""
        return self._candidate

    def reset(self, taken: str | None = None) -> None:
        """Forget everything (the file was removed or rewritten by the arena)."""
        self.taken, self._candidate, self._seen = taken, None, 0
