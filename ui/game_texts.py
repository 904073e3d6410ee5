"""The games' own status words, shown in the interface's language.

A game's rules module is pure standard library and writes its status in English
(``Game.describe``: "Red to move", "Player 1 (columns) to move (move 3)", "Turn 12, next
shrink after turn 20: A 5, B 3").  :func:`game_text` recognises those common shapes and
says them again through the catalog, translating the seat names inside; anything else is
shown as the game wrote it.

:func:`rules_text` does the same for the texts the rules and the referee write into
events, results and verdicts ("Red gives check", "A left the game: enclosed by B",
"exited with code 1"), by the templates the runner (:mod:`runner.messages`) and every
game (``GamePlugin.messages``) declare; records keep those texts in English.
"""
from __future__ import annotations

import re

from runner.i18n import N_, _
from runner.messages import all_templates, translated

#: (pattern of the game's English words, message with the same {names}); the first match wins.
SHAPES = (
    (re.compile(r"^(?P<seat>.+?) to move \(move (?P<n>\d+)\)$"), N_("{seat} to move (move {n})")),
    (re.compile(r"^(?P<seat>.+?) to move · (?P<rest>.+)$"), N_("{seat} to move · {rest}")),
    (re.compile(r"^(?P<seat>[^·:]+?) to move$"), N_("{seat} to move")),
    (re.compile(r"^\(?move (?P<n>\d+)\)?$"), N_("move {n}")),
    (re.compile(r"^Turn (?P<n>\d+), next shrink after turn (?P<shrink>\d+): (?P<rest>.*)$"),
     N_("Turn {n}, next shrink after turn {shrink}: {rest}")),
    (re.compile(r"^Turn (?P<n>\d+) of (?P<last>\d+): (?P<seat>.+?) to move · (?P<rest>.+)$"),
     N_("Turn {n} of {last}: {seat} to move · {rest}")),
    (re.compile(r"^Turn (?P<n>\d+): (?P<rest>.*)$"), N_("Turn {n}: {rest}")),
    (re.compile(r"^Score (?P<score>-?\d+) · hand (?P<hand>.+) · step (?P<n>\d+)$"),
     N_("Score {score} · hand {hand} · step {n}")),
    (re.compile(r"^Game over: score (?P<score>-?\d+)$"), N_("Game over: score {score}")),
)


def game_text(text: str) -> str:
    """``text`` from a game, in the interface's language where its shape is known."""
    text = text or ""
    if getattr(text, "msgid", ""):
        return translated(text)       # said from its id and parts
    exact = _(text)
    if exact != text:
        return exact
    for pattern, message in SHAPES:
        match = pattern.match(text)
        if match:
            parts = {key: _seat_words(value) for key, value in match.groupdict().items()}
            return _(message).format(**parts)
    return translated(text)           # a finished game's detail ("Black is checkmated; Red wins")


def _seat_words(value: str) -> str:
    """A captured part: seat names ("Red", "A, B") through the catalog, numbers as they
    are, a rule the game states ("repetition: first repeat ends the game, ...") by the
    rules' templates."""
    whole = translated(value)
    if whole != value:
        return whole
    return ", ".join(_(part) for part in value.split(", "))



def message_templates() -> tuple[str, ...]:
    """Every template of a text the referee or a game's rules write (see
    :func:`runner.messages.all_templates`)."""
    return all_templates()


def rules_text(text: str) -> str:
    """A text a game's rules or the referee wrote (an event, a result's detail, a verdict,
    a repair note), in the interface's language; as written when no template fits."""
    return translated(text)
