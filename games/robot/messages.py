"""The texts Robot Đại Chiến's rules write (events, reasons a robot left, results, what
a bad map was expected to hold), as templates for the catalog.

:mod:`games.robot.rules` is standard library only: it writes its events,
results and move errors as :class:`games.api.Message` values whose ids are among these
(records keep the English text and the id with its parts) and cannot mark strings for
the catalog, so they are declared here. The interface says a message from its id and
parts; a text with no id (an old record's, or one still written as plain English) is
read back against these templates (:func:`games.language.translate_text`).
"""
from games.language import N_

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
    N_("next shrink after turn {turn}: {scores}"),
    N_("{robot} left the game: {reason}: {detail}"),
    N_("the referee ended the game"),
    N_("cells painted: {scores}"),
    N_("stayed on the forbidden cell it oiled onto"),
    N_("stepped onto another forbidden cell"),
    N_("did not step off the forbidden cell it oiled onto"),
    # the events of a contest's turn log (games.robot.turnlog), which says less than the rules
    N_("{robot} left the game"),
    N_("a ring was sealed"),
    # what a map file was expected to hold (games.robot.rules.parse_map, games.robot.maps)
    N_("'M N K' (rows, columns, shrink period)"),
    N_("'M N K' as three whole numbers, not {found}"),
    N_("{side} odd and between {low} and {high}, not {value}"),
    N_("K between {low} and {high}, not {value}"),
    N_("map row {row} of {rows} (the file ends early)"),
    N_("{count} cells in map row {row}, found {found}"),
    N_("only '.' and '#' in map row {row}, found {found}"),
    N_("the end of the file after {rows} map rows"),
    N_("at least one open '.' cell"),
    N_("a connected map: cell {cell} cannot be reached from cell {start}"),
    N_("a readable map file ({error})"),
    N_("a shipped map name ({names}), a map file, or map text"),
    N_("Robot takes 2-4 players, not {count}"),
    N_("the map must be given as its text, not {map} (the arena reads map files before the game starts)"),
    N_("shrink period must be at least 1, not {period}"),
    # what a program's MOVE.OUT was found to hold (games.robot.protocol, rules, program)
    N_("expected 'X Y' (two whole numbers), got {found}"),
    N_("MOVE.OUT is {size} bytes; expected one short line"),
    N_("MOVE.OUT {why} ({line}): the organizers' referee reads this as no move (stay, or a random placement)"),
    N_("has no newline after the move"),
    N_("separates the numbers with a comma"),
    N_("starts with a space"),
    N_("does not separate the numbers with exactly one space"),
    N_("{warning} (compat=organizers)"),
    N_("seat {seat} is not in the game"),
    N_("{move} is not a cell"),
    N_("{cell} is not a cell a robot may start on"),
    N_("{cell} cannot be reached from {start} this turn"),
)
