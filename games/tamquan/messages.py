"""The texts Cờ Tam Quân's rules write (placements, captures, results, the referee's
repairs), as templates for the catalog.

:mod:`games.tamquan.rules` is standard library only and writes these in English (records
keep them so); the interface shows them translated through
:func:`runner.i18n.translate_text`, which matches a finished text against these.
"""
from runner.i18n import N_

MESSAGES = (
    N_("{team} took zone {zone}"),
    N_("{team} captured {victim} at {cell} before moving"),
    N_("{team} captured {victim} at {cell} after moving"),
    N_("{team} has no pieces left"),
    N_("{team} is the last team on the board ({counts})"),
    N_("no team is left ({counts})"),
    N_("turn limit {limit} reached; pieces left: {counts}"),
    N_("{team} left the game: {reason} ({detail})"),
    N_("{team} left the game: {reason}"),
    N_("the referee played {move} ({note})"),
    N_("kept zone {zone} and {kept} answered cell(s)"),
    N_("took zone {zone}"),
    N_("kept {kept} answered step(s), {waiting} member(s) took their first free step"),
)
