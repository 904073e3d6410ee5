"""Xiangqi (Chinese chess), as played in the Vietnamese computer Xiangqi tournament.

Rules: :mod:`games.xiangqi.rules`; built-in bot (an alpha-beta engine): :mod:`games.xiangqi.bot`;
command-line tools (perft, legal): :mod:`games.xiangqi.cli`.
"""
from games.registry import GamePlugin

PLUGIN = GamePlugin(
    name="xiangqi",
    messages="games.xiangqi.messages:MESSAGES",
    game="games.xiangqi.rules:XiangqiGame",
    renderer="games.xiangqi.render:XiangqiRenderer",
    bot="games.xiangqi.bot:make_bot",
    warm_up="games.xiangqi.bot:warm_up",
    bot_levels=("beginner", "novice", "club", "strong", "strongest"),
    cli="games.xiangqi.cli:register",
    readers="games.xiangqi.records:READERS",
    writers="games.xiangqi.records:write_contest_records",
    exports="games.xiangqi.records:EXPORTS",
    external="games.xiangqi.program:make_external_seat",
    extra_seats={"uci": "games.xiangqi.engine_seats:make_uci_seat",
                 "ucci": "games.xiangqi.engine_seats:make_ucci_seat"},
)
