"""The games' own status words, shown in the interface's language.

A game's rules module is pure standard library and writes its status in English
(``Game.describe``: "Red to move · first repeat ends the game", "Player 1 (columns) to
move (move 3)", "Turn 12, next shrink after turn 20: A 5, B 3") as a Message that keeps
its id and parts; :func:`game_text` says it from those (a text with no id is read back
by the rules' templates, or shown as the game wrote it), and :func:`after_the_seat`
gives what is left of it once "Your move" has said whose move it is.

:func:`rules_text` does the same for the texts the rules and the referee write into
events, results and verdicts ("Red gives check", "A left the game: enclosed by B",
"exited with code 1"), by the templates the runner (:mod:`runner.messages`) and every
game (``GamePlugin.messages``) declare; records keep those texts in English.
"""
from __future__ import annotations

from games.api import Message
from runner.i18n import N_, _
from runner.messages import all_templates, translated

#: The games' status lines (``Game.describe``), declared for the catalog: the rules write
#: them as Messages with these ids, and the interface says them from the id and parts.
STATUS_LINES = (
    N_("{seat} to move (move {n})"), N_("{seat} to move · {rest}"), N_("{seat} to move"), N_("move {n}"),
    N_("Turn {n}, next shrink after turn {shrink}: {rest}"), N_("Turn {n} of {last}: {seat} to move · {rest}"),
    N_("Turn {n}: {rest}"), N_("Score {score} · hand {hand} · step {n}"), N_("Game over: score {score}"),
    N_("(check) · {rule}"),
)

#: What is left of a status line that begins with whose move it is, once "Your move"
#: has said so: for each such id, the rest said from the status line's parts.
AFTER_THE_SEAT = {
    "{seat} to move": lambda parts: "",
    "{seat} to move (move {n})": lambda parts: Message("move {n}", n=parts["n"]),
    "{seat} to move · {rest}": lambda parts: parts["rest"],
    "{side} to move (check) · {rule}": lambda parts: Message("(check) · {rule}", rule=parts["rule"]),
}


def game_text(text: str) -> str:
    """``text`` from a game (its status line, ``Game.describe``) in the interface's
    language: said from its id and parts; a text with no id is looked up whole, else read
    back by the rules' templates, else shown as written."""
    text = text or ""
    if getattr(text, "msgid", ""):
        return translated(text)
    exact = _(text)
    return exact if exact != text else translated(text)


def after_the_seat(text: str, seat_name: str) -> str | None:
    """The status line ``text`` without its leading "``seat_name`` to move", in the
    interface's language ("" when nothing is left); None when it does not begin so.

    A status line with an id is cut by its id and parts; one without (a game that writes
    plain English) by its English words."""
    params = getattr(text, "params", None)
    rest = AFTER_THE_SEAT.get(getattr(text, "msgid", ""))
    if rest is not None and seat_name in (params.get("seat"), params.get("side")):
        return game_text(rest(params))
    said = f"{seat_name} to move"
    if getattr(text, "msgid", "") or not str(text).startswith(said):
        return None
    left = str(text)[len(said):].strip(" ,·")
    return game_text(left[1:-1] if left.startswith("(") and left.endswith(")") else left)


def message_templates() -> tuple[str, ...]:
    """Every template of a text the referee or a game's rules write (see
    :func:`runner.messages.all_templates`)."""
    return all_templates()


def rules_text(text: str) -> str:
    """A text a game's rules or the referee wrote (an event, a result's detail, a verdict,
    a repair note), in the interface's language; as written when no template fits."""
    return translated(text)
