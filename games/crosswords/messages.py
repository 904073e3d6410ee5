"""The texts Crossed Words Solitaire's rules write (results, verdicts), as templates for
the catalog.

:mod:`games.crosswords.rules` is standard library only: it writes its results as
:class:`games.api.Message` values whose ids are among these (records keep the English
text and the id with its parts) and cannot mark strings for the catalog, so they are
declared here. The interface says a message from its id and parts; a text with no id
(an old record's, or one still written as plain English: the verifier's findings) is
read back against these templates (:func:`games.language.translate_text`).
"""
from games.language import N_

MESSAGES = (
    N_("stopped by the referee at {score}"),
    N_("{words} words, {points} points, {lost} lost to discards"),
    N_("output.txt line {line}: {reason}"),
    N_("output.txt line {line}"),
    # what the program's output.txt was found to hold (games.crosswords.program, files)
    N_("output.txt claims {claimed}; verified {score}"),
    N_("output.txt claims {claimed}; verified {score} up to line {line}"),
    N_("nothing readable"),
    N_("board row {row} of 17: {size} characters, '.' or a letter"),
    N_("a word step is: play SQ across|down WORD N (CROSS N)... [+50|+100] = T"),
    N_("a discard step is: discard LETTERS -N"),
    N_("a step ({error})"),
    N_("board row {row} after the steps is {want}, not {got}"),
    N_("the steps score {total}, not {claimed}"),
    N_("discarding {letters} loses {lost}, not {claimed}"),
    N_("{word} scores {points}, not {claimed}"),
    N_("the cross words are {words}"),
    N_("no cross word"),
    N_("the bonus is {bonus}, not {claimed}"),
    N_("none"),
    N_("the move scores {total} in all, not {claimed}"),
    N_("stop must be the last step"),
    N_("{word} is not in the dictionary"),
    N_("{word} touches no letter on the board"),
    N_("{word} places no new letter"),
    N_("{word} runs off the board"),
    N_("{word} is not 2 to {size} letters long"),
    N_("{square} holds {here}, not {letter}"),
    N_("{word} is not the whole word: the letter at {square} joins it"),
    N_("{text} (across {word} at {square}) is not in the dictionary"),
    N_("the hand {hand} has no {letter} for {letters}"),
    N_("the hand would hold {count} letters (at most {limit})"),
    N_("a draw takes 1 to {limit} letters, not {count}"),
    N_("pile {pile} starts with {found}, not {letters}"),
    N_("there is no pile {pile}"),
    N_("a second draw must follow a discard"),
    N_("{move} is not a Crossed Words move"),
    N_("an empty line is not a move"),
    N_("{square} is not a square (A1 to Q17)"),
    N_("{word} is not a word of letters A-Z"),
    N_("{text} is not a move (draw P LETTERS, discard LETTERS, play SQUARE across|down WORD, stop)"),
    # a dictionary that cannot be read (games.crosswords.dictionary, rules)
    N_("dictionary {folder}: not a folder of word files"),
    N_("dictionary {folder}: the folder holds no files"),
    N_("dictionary {folder}: {error}"),
    N_("dictionary {folder}: no words of 2 to 12 letters a-z"),
    N_("the built-in dictionary needs the {package} package (pip install english-words), "
       "or give a dictionary folder"),
    N_("no dictionary was given to the game"),
)
