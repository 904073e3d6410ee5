"""Crossed Words Solitaire: rules, dictionary, output.txt verifier, solver and bot."""
from games.registry import GamePlugin

PLUGIN = GamePlugin(
    name="crosswords",
    messages="games.crosswords.messages:MESSAGES",
    game="games.crosswords.dictionary:ArenaCrosswordsGame",
    bot="games.crosswords.solver:make_bot",
    bot_levels=("greedy", "planner"),
    external="games.crosswords.program:make_external_seat",
    readers="games.crosswords.records:READERS",
    writers="games.crosswords.records:write_contest_records",
    renderer="games.crosswords.render:CrosswordsRenderer",
    cli="games.crosswords.cli:register",
    files="games.crosswords.dictionary:load_files",
    picture="crosswords.png",
)
