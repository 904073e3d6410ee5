"""The texts Robot Đại Chiến's rules write (events, reasons a robot left, results), as
templates for the catalog.

:mod:`games.robot.rules` is standard library only and writes these in English (records
keep them so); the interface shows them translated through
:func:`runner.i18n.translate_text`, which matches a finished text against these.
"""
from runner.i18n import N_

MESSAGES = (
    N_("{robot} was placed at random on {cell}"),
    N_("{robot} picked up {item} at {cell}"),
    N_("{robot} exploded E at {cell}"),
    N_("caught in {robot}'s explosion"),
    N_("{robot} enclosed {count} cells"),
    N_("enclosed by {robot}"),
    N_("ring {ring} sealed (shrink {count} of {total})"),
    N_("stood on a cell sealed by the shrink"),
    N_("items: {items}"),
    N_("{item} at {cell}"),
    N_("{robot} left the game: {why}"),
    N_("{robot} left the game: {reason}: {detail}"),
    N_("the referee ended the game"),
    N_("cells painted: {scores}"),
    N_("stayed on the forbidden cell it oiled onto"),
    N_("stepped onto another forbidden cell"),
    N_("did not step off the forbidden cell it oiled onto"),
)
