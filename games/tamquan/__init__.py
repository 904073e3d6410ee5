"""Cờ Tam Quân: rules, bots, STATE.INP/MOVE.OUT programs, readable records, board."""
from games.registry import GamePlugin

PLUGIN = GamePlugin(
    name="tamquan",
    messages="games.tamquan.messages:MESSAGES",
    game="games.tamquan.rules:TamQuanGame",
    bot="games.tamquan.bot:make_bot",
    bot_levels=("random", "greedy", "search", "strongest"),
    external="games.tamquan.program:make_external_seat",
    readers="games.tamquan.records:READERS",
    writers="games.tamquan.records:write_contest_records",
    exports="games.tamquan.records:EXPORTS",
    renderer="games.tamquan.render:TamQuanRenderer",
    picture="tamquan.png",
)
