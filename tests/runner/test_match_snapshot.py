"""The snapshot is the shell's only view of a running match: the positions so far, the
seats (kind, label, description), the options and the people being asked are declared
parts of it; the game API declares the rules headline the match screen shows."""
from __future__ import annotations

import pytest

from games import registry
from runner.match import Match, TimeControl
from runner.seats import Answer, HumanSeat, Seat, make_seat
from waiting import wait_for

HEX = registry.plugin("hex")


def wait_until(predicate, seconds=20.0) -> None:
    """Fail unless ``predicate()`` holds within ``seconds``."""
    assert wait_for(predicate, seconds, step=0.01)


class NamingSeat(Seat):
    """Names itself when it starts, as an engine does after its handshake; plays a1, b1 ..."""

    kind = "ext"

    def __init__(self):
        super().__init__("ext:engine", "engine command")

    def start(self, info, state):
        super().start(info, state)
        self.label = "Named Engine 2"

    def ask(self, state, seat, time_limit):
        return Answer(move=state.legal_moves(seat)[0])

    def describe(self):
        return {**super().describe(), "engine": "Named Engine", "version": "2"}


def test_people_asked_states_seats_and_options_come_in_the_snapshot():
    options = HEX.new_game().spec.resolve_options(None, {"size": 5})
    match = Match(HEX, options, [HumanSeat(label="Anna"), make_seat("bot:1", HEX, 9)], seed=3,
                  time_control=TimeControl())
    before = match.snapshot()
    assert [(s.kind, s.label) for s in before.seats] == [("human", "Anna"), ("bot", "Bot (level 1)")]
    assert before.asking == () and before.options == match.options and len(before.states) == 1
    match.start()
    try:
        wait_until(lambda: match.snapshot().asking == (0,))
        match.submit(0, "c3")
        wait_until(lambda: len(match.snapshot().turns) == 2 and match.snapshot().asking == (0,))
        snap = match.snapshot()
        assert len(snap.states) == 3 and snap.states[-1] == snap.state
        assert snap.states[1] == match.states[1]
        assert snap.can_undo is True
    finally:
        match.stop()
        match.join(10)


def test_a_seat_that_names_itself_at_start_is_seen_through_the_snapshot():
    options = HEX.new_game().spec.resolve_options(None, {"size": 3})
    match = Match(HEX, options, [NamingSeat(), make_seat("bot:1", HEX, 1)], seed=1)
    assert match.snapshot().seats[0].label == "engine command"
    assert match.snapshot().seats[0].described == {}
    match.run()
    seat = match.snapshot().seats[0]
    assert seat.label == "Named Engine 2"
    assert seat.described["engine"] == "Named Engine" and seat.described["version"] == "2"


@pytest.mark.parametrize("plugin", registry.all_plugins(), ids=lambda p: p.name)
def test_every_game_declares_its_rules_headline(plugin):
    game = plugin.new_game()
    headline = game.rules_headline(game.spec.resolve_options(None, {}))
    assert isinstance(headline, str)


def test_xiangqis_headline_names_the_repetition_rule():
    game = registry.plugin("xiangqi").new_game()
    assert game.rules_headline({"repetition_count": 2}) == "first repeat ends the game"
    assert game.rules_headline({"repetition_count": 3}) == "third repetition ends the game"
    assert registry.plugin("hex").new_game().rules_headline({}) == ""
