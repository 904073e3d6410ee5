"""The texts Crossed Words Solitaire's rules write (results, verdicts), as templates for
the catalog.

:mod:`games.crosswords.rules` is standard library only and writes these in English
(records keep them so); the interface shows them translated through
:func:`runner.i18n.translate_text`, which matches a finished text against these.
"""
from runner.i18n import N_

MESSAGES = (
    N_("stopped by the referee at {score}"),
    N_("{words} words, {points} points, {lost} lost to discards"),
    N_("output.txt line {line}: {reason}"),
)
