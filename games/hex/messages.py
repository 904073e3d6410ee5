"""The texts Hex's rules write (results, verdicts), as templates for the catalog.

:mod:`games.hex.rules` is standard library only: it writes its events,
results and move errors as :class:`games.api.Message` values whose ids are among these
(records keep the English text and the id with its parts) and cannot mark strings for
the catalog, so they are declared here. The interface says a message from its id and
parts; a text with no id (an old record's, or one still written as plain English) is
read back against these templates (:func:`games.language.translate_text`).
"""
from games.language import N_

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
    # what a HexLib program did wrong (games.hex.program) and why a move is illegal (rules)
    N_("ignored line {line}"),
    N_("{where} placed nothing: {error}"),
    N_("{command} sent during the opponent's turn placed nothing"),
    N_("it is player {n}'s turn, not player {seat}'s"),
    # a start the options describe that cannot be played (games.hex.rules)
    N_("board size must be 1-{most}, not {size}"),
    N_("position has {rows} rows; the board has {size}"),
    N_("position row {number} has {cells} cells, expected {size}"),
    N_("position row {number}: {char} is not one of . 1 2"),
    N_("a start position needs equal stone counts (player 1 to move) or one more stone of player 1 "
       "(player 2 to move); it has {first} of player 1 and {second} of player 2"),
    N_("give the start position either as position or as a start file, not both"),
    N_("start: {start} is not a file Arena can read"),
    N_("the start file holds a {rows}-row position but the board is {size}x{size}: add size={rows}"),
    N_("the start position is already won"),
    N_("swap is allowed only as player 2's first move with the swap rule on"),
    N_("row {row}, column {col} is off the {size}x{size} board"),
    N_("{move} (row {row}, column {col}) is occupied"),
    N_("{move} is not a Hex move (expected a cell such as c3, or ROW COL)"),
    # GTP engines (games.hex.gtp)
    N_("unreadable genmove answer: {error}"),
    N_("the engine resigned"),
    N_("no genmove answer within {seconds} s; the engine was killed"),
    N_("the engine {how} during genmove"),
    N_("the engine answered genmove with an error: {text}"),
    # a GTP seat's settings and an engine's refusals at the start (games.hex.gtp)
    N_("gtp seat {spec}: {error}"),
    N_("gtp seat {spec}: no engine command before the settings"),
    N_("gtp seat setting cmd= needs a GTP command"),
    N_("gtp seat setting handshake={value}: expected seconds above 0"),
    N_("gtp seat setting time_per_move={value} is not a number"),
    N_("gtp seat setting time_per_move must be more than 0"),
    N_("gtp seat setting config={path}: {error}"),
    N_("the engine refused '{command}': {words}"),
    N_("seat {n} ({label}): {why}"),
)
