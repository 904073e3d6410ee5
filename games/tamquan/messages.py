"""The texts Cờ Tam Quân's rules write (placements, captures, results, the referee's
repairs), as templates for the catalog.

:mod:`games.tamquan.rules` is standard library only: it writes its events,
results and move errors as :class:`games.api.Message` values whose ids are among these
(records keep the English text and the id with its parts) and cannot mark strings for
the catalog, so they are declared here. The interface says a message from its id and
parts; a text with no id (an old record's, or one still written as plain English) is
read back against these templates (:func:`games.language.translate_text`).
"""
from games.language import N_

MESSAGES = (
    N_("{team} took zone {zone}"),
    N_("Setup: team {team} chooses a zone and places {count} pieces"),     # the status line in setup
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
    # what a program's MOVE.OUT was found to hold (games.tamquan.protocol, rules)
    N_("MOVE.OUT is {size} bytes; expected a few short lines"),
    N_("MOVE.OUT holds {word}; expected whole numbers only"),
    N_("MOVE.OUT holds a number outside 0-999"),
    N_("expected a zone number and {members} cells ({want} numbers), got {count} numbers"),
    N_("expected {members} lines 'R1 C1 R2 C2' ({want} numbers), got {count} numbers"),
    N_("{count} numbers: expected lines 'R1 C1 R2 C2' (or a zone number and cells during setup)"),
    N_("zones are numbered from 1"),
    N_("expected 'zone K: R,C ...' or steps 'R,C-R,C ...', got {found}"),
    N_("zone {zone}: {cells}"),
    N_("it is not team {team}'s turn"),
    N_("setup: expected a placement 'zone K: R,C ...'"),
    N_("zone {zone} is already taken"),
    N_("there is no zone {zone}"),
    N_("place exactly {members} members, not {count}"),
    N_("two members on one cell"),
    N_("cell {cell} is not in zone {zone}"),
    N_("expected each member's steps 'R,C-R,C ...'"),
    N_("team {team} has {count} members; {steps} steps were given"),
    N_("{step} leaves the board"),
    N_("no member of {team} waits to step at {cell}"),
    N_("the member at {cell} must step: {free} is free"),
    N_("{step} is not one orthogonal step"),
    N_("{cell} is not empty"),
    # a layout the options describe that cannot be played (games.tamquan.rules)
    N_("board size must be 2-26, not {size}"),
    N_("Tam Quan takes 2-{most} teams, not {teams}"),
    N_("a team needs at least one member, not {members}"),
    N_("turn_limit must be at least 1, not {limit}"),
    N_("{teams} teams need {teams} zones; only {zones} are defined"),
    N_("zone {zone}: cell {cell} is off the {size}x{size} board"),
    N_("zone {zone}: cell {cell} is in two zones"),
    N_("zone {zone} has {cells} cells for {members} members"),
    N_("a {size}x{size} board has no room for {teams} corner zones of {k}x{k} cells"),
    N_("zones: {word} is not a cell 'ROW,COL'"),
    N_("Tam Quan options must be whole numbers: {error}"),
    N_("board rows must make a square"),
)
