"""Hex (IOI 1997): rules, the HexLib line protocol, GTP engines, records, bot, board."""
from games.registry import GamePlugin

PLUGIN = GamePlugin(
    name="hex",
    messages="games.hex.messages:MESSAGES",
    game="games.hex.rules:HexGame",
    bot="games.hex.bot:make_bot",
    bot_levels=("random", "easy", "medium", "strong", "strongest"),
    external="games.hex.program:make_external_seat",
    readers="games.hex.records:READERS",
    writers="games.hex.records:write_contest_records",
    exports="games.hex.records:EXPORTS",
    renderer="games.hex.render:HexRenderer",
    extra_seats={"gtp": "games.hex.gtp:make_gtp_seat"},
    warm_up="games.hex.bot:warm_up",
    picture="hex.png",
)
