"""Cờ Tam Quân: rules, bots, STATE.INP/MOVE.OUT programs, readable records, board."""
from games.registry import GamePlugin

PLUGIN = GamePlugin(
    name="tamquan",
    game="games.tamquan.rules:TamQuanGame",
    bot="games.tamquan.bot:make_bot",
    bot_levels=("random", "greedy", "search", "strongest"),
    external="games.tamquan.program:make_external_seat",
)
