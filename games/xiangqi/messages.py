"""The texts Xiangqi's rules and contest referee write (captures, checks, results,
verdicts), as templates for the catalog.

:mod:`games.xiangqi.rules` is standard library only: it writes its events,
results and move errors as :class:`games.api.Message` values whose ids are among these
(records keep the English text and the id with its parts) and cannot mark strings for
the catalog, so they are declared here. The interface says a message from its id and
parts; a text with no id (an old record's, or one still written as plain English) is
read back against these templates (:func:`games.language.translate_text`).
"""
from games.language import N_

MESSAGES = (
    N_("{side} {piece} takes {taken} on {square}"),
    N_("{side} gives check"),
    N_("{side} is checkmated; {winner} wins"),
    N_("{side} has no legal move (stalemate loses); {winner} wins"),
    N_("Draw: neither side has an attacking piece left"),
    N_("Draw: {limit} half-moves without a capture"),
    N_("{side} repeated the position by perpetual check ({cycle} half-moves) and loses"),
    N_("Draw: the position occurred for the third time (over {cycle} half-moves)"),
    N_("Draw: the position repeated within {cycle} half-moves"),
    N_("{side} ran out of time with the opponent above 5 minutes"),
    N_("{side} ran out of time; {winner} can force mate within {plies} half-moves and wins"),
    N_("Draw: {side} ran out of time with the opponent at 5 minutes or less"),
    N_("{side} took {seconds} s over one move (limit 15 minutes)"),
    N_("{side} forfeits ({reason})"),
    N_("{side} resigned (wrote LOST)"),
    N_("{side} wrote {word} while the game was still on; a false claim loses"),
    N_("{side} (the other program) wrote {word}"),
    # the pieces, as the rules name them
    N_("general"), N_("advisor"), N_("elephant"), N_("horse"), N_("chariot"), N_("cannon"),
    N_("soldier"),
    # what a program's move file was found to hold, and why a move is illegal
    N_("the program ended (exit code {code}) without writing a move"),
    N_("no move in its move file within {seconds} s"),
    N_("{file}: larger than {limit} bytes"),
    N_("{file}: not a regular file (a link, FIFO or folder)"),
    N_("{file}: binary data"),
    N_("a move such as H2E2 (files A-I, ranks 0-9) or one of FINISH, WIN, LOST, DRAW"),
    N_("a move such as H2E2 between two different squares"),
    N_("{move} is not legal: {why}"),
    N_("there is no piece on {square}"),
    N_("the piece on {square} is {side}'s"),
    N_("a {piece} cannot move from {origin} to {target}"),
    N_("it leaves the general in check or facing the other general"),
    N_("it is {side}'s turn, not {other}'s"),
    N_("{move} is not a Xiangqi move: expected ICCS like H2E2 (files A-I, ranks 0-9)"),
    N_("{move} does not move: origin and destination are the same"),
    N_("{square} is not a square (A0 to I9)"),
    # UCI / UCCI engines (games.xiangqi.engine_seats)
    N_("no bestmove in time"),
    N_("the engine gave up ({line})"),
    N_("bestmove {move} is not a move (ranks counted from {base})"),
    N_("the arena sent 'stop' after {seconds} s ({limit} for '{command}')"),
    N_("no {answer} from the engine"),
    N_("the engine ended before {word} ({how})"),
    N_("the engine ended (exit code {code})"),
    N_("the time limit"),
    # the rulings in force (the match's header, the status line, the record's summary)
    N_("first repeat ends the game"),
    N_("third repetition ends the game"),
    N_("third occurrence ends the game"),
    N_("perpetual check loses"),
    N_("always a draw"),
    N_("repetition: {when}, {how}"),
    N_("draw after {limit} half-moves without a capture"),
    N_("no capture limit"),
    N_("{side} to move (check) · {rule}"),
    # a start position or options that cannot be played (games.xiangqi.rules)
    N_("empty FEN"),
    N_("FEN {fen}: expected 10 ranks separated by '/', got {count}"),
    N_("FEN {fen}: unknown piece letter {letter}"),
    N_("FEN {fen}: rank {rank} has more than 9 files"),
    N_("FEN {fen}: rank {rank} does not have 9 files"),
    N_("FEN {fen}: side to move must be w (Red) or b (Black)"),
    N_("FEN {fen}: half-move and move counters must be numbers"),
    N_("{side} has two generals"),
    N_("FEN {fen}: {side} has no general"),
    N_("{side} {piece} on {square}"),
    N_("FEN {fen}: {where} is outside its palace"),
    N_("FEN {fen}: {where} is not on a palace diagonal point"),
    N_("FEN {fen}: {where} is not on an elephant point"),
    N_("FEN {fen}: {where} is behind its starting rank"),
    N_("FEN {fen}: {side} has {count} {piece}s (at most {most})"),
    N_("FEN {fen}: the side not to move is in check"),
    N_("repetition must be one of {choices}"),
    N_("repetition_count must be 2 (the first repeat) or 3 (the third occurrence)"),
    N_("no_capture_limit must be a whole number"),
    # an engine seat's setting of seconds (games.xiangqi.engine_seats)
    N_("{name}={value}: expected a number of seconds above 0"),
)
