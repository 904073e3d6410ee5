"""Robot Đại Chiến (RULES.md): rules, maps, the MAP.INP/MOVE.OUT program seat, turn logs, bots."""
from games.registry import GamePlugin

PLUGIN = GamePlugin(
    name="robot",
    messages="games.robot.messages:MESSAGES",
    game="games.robot.rules:RobotGame",
    bot="games.robot.bot:make_bot",
    bot_levels=("random", "painter", "territory", "strongest"),
    external="games.robot.program:make_external_seat",
    readers="games.robot.turnlog:READERS",
    writers="games.robot.turnlog:write_contest_records",
    renderer="games.robot.render:RobotRenderer",
    cli="games.robot.cli:register",
    files="games.robot.maps:load_files",
    tournament="games.robot.tournament:FORMATS",
    picture="robot.png",
)
