"""The texts Hex's rules write (results, verdicts), as templates for the catalog.

:mod:`games.hex.rules` is standard library only and writes these in English (records
keep them so); the interface shows them translated through
:func:`runner.i18n.translate_text`, which matches a finished text against these.
"""
from runner.i18n import N_

MESSAGES = (
    N_("Player {n} connected {edges}"),
    N_("columns {first} and {last}"),
    N_("rows {first} and {last}"),
    N_("the board is full"),
    N_("player 1 did not connect within {moves} moves"),
    N_("Player {n} loses: {reason}"),
    N_("ended its turn (done / MakeLibMove) without placing a stone"),
    N_("no 'done' within {seconds} s; the program was killed"),
    N_("the program {how} before ending its turn"),
)
