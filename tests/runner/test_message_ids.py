"""Texts translated at the source: an event's or a verdict's text is a ``Message`` that
keeps its id (the English template) and parts, records keep the English text with them,
and the interface says it in Vietnamese from the id and parts, with no reading back of
the finished sentence; an old record's English-only text still reads in Vietnamese."""
from __future__ import annotations

import json
import pickle

import pytest

from games.api import Event, Message, Outcome, Termination
from runner import i18n
from runner.messages import all_templates, translated


@pytest.fixture
def vietnamese():
    i18n.set_language("vi")
    yield
    i18n.set_language("en")


@pytest.fixture
def no_reading_back(monkeypatch):
    """Any attempt to match a finished text against the templates fails the test."""
    def refused(*_args, **_kwargs):
        raise AssertionError("a text with an id was read back by the templates")
    monkeypatch.setattr(i18n, "translate_text", refused)
    monkeypatch.setattr(i18n, "template_pattern", refused)
    monkeypatch.setattr("runner.messages.translate_text", refused)


def forfeit_verdict() -> Message:
    reason = Message("answered after {elapsed} s; the limit was {limit} s", elapsed="2.10", limit="1.00")
    return Message("{side} forfeits ({reason})", side="Red", reason=reason)


def test_a_message_is_its_english_text_and_keeps_its_id_and_parts():
    verdict = forfeit_verdict()
    assert verdict == "Red forfeits (answered after 2.10 s; the limit was 1.00 s)"
    assert verdict.msgid == "{side} forfeits ({reason})"
    assert verdict.params["reason"].msgid == "answered after {elapsed} s; the limit was {limit} s"
    again = pickle.loads(pickle.dumps(verdict))        # a tournament worker sends results back
    assert (again, again.msgid, again.params) == (verdict, verdict.msgid, verdict.params)


def test_an_event_built_with_an_id_reads_in_vietnamese_without_reading_back(vietnamese, no_reading_back):
    event = Event("verdict", forfeit_verdict(), (1,))
    assert translated(event.text) == "Đỏ bị xử thua (trả lời sau 2.10 giây; giới hạn là 1.00 giây)"
    check = Message("{side} gives check", side="Black")
    assert translated(check) == i18n._("{side} gives check").format(side=i18n._("Black"))
    assert translated(check) != check


def test_an_events_and_a_results_message_survive_the_record(vietnamese, no_reading_back):
    event = Event("verdict", forfeit_verdict(), (1,), ((3, 4),))
    line = json.loads(json.dumps(event.to_json()))
    assert line[:3] == ["verdict", str(forfeit_verdict()), [1]]      # the English text stays
    back = Event.from_json(line)
    assert back == event and back.text.msgid == event.text.msgid
    assert translated(back.text) == translated(event.text)
    outcome = Outcome((0,), (1.0, 0.0), Termination.TIMEOUT, forfeit_verdict())
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["detail"] == str(forfeit_verdict())
    back = Outcome.from_json(data)
    assert back == outcome and translated(back.detail).startswith("Đỏ bị xử thua")


def test_an_old_records_english_only_text_still_reads_in_vietnamese(vietnamese):
    old = Event.from_json(["verdict", "Red forfeits (answered after 2.10 s; the limit was 1.00 s)", [1]])
    assert not isinstance(old.text, Message)
    assert translated(old.text) == "Đỏ bị xử thua (trả lời sau 2.10 giây; giới hạn là 1.00 giây)"
    result = Outcome.from_json({"winners": [1], "scores": [0, 1], "reason": "win",
                                "detail": "Red is checkmated; Black wins"})
    assert translated(result.detail) == i18n._("{side} is checkmated; {winner} wins").format(
        side=i18n._("Red"), winner=i18n._("Black"))


def test_a_part_with_no_id_is_read_back_by_the_templates(vietnamese):
    verdict = Message("{side} forfeits ({reason})", side="Red",
                      reason=Message.of("answered after 2.10 s; the limit was 1.00 s"))
    assert translated(verdict) == "Đỏ bị xử thua (trả lời sau 2.10 giây; giới hạn là 1.00 giây)"


@pytest.mark.parametrize("bad", [
    ["verdict", "x", [], [], {"params": {}}],
    ["verdict", "x", [], [], {"id": "{a}", "params": {"a": [1]}}],
    ["verdict", "x", [], [], {"id": "{a}", "params": {"a": {"id": "b"}}}],
])
def test_a_malformed_message_in_a_record_is_an_error(bad):
    with pytest.raises(ValueError):
        Event.from_json(bad)


def test_english_is_the_text_as_written():
    assert translated(forfeit_verdict()) == "Red forfeits (answered after 2.10 s; the limit was 1.00 s)"


def test_every_id_a_message_is_built_with_here_is_a_declared_template():
    for message in (forfeit_verdict(), forfeit_verdict().params["reason"]):
        assert message.msgid in all_templates()


def test_a_bot_seats_label_keeps_its_level_so_the_interface_need_not_parse_it(vietnamese, monkeypatch):
    import re

    from runner.seats import BotSeat
    from ui import catalog
    seat = BotSeat("bot:2", None, 2, {"depth": "3"})
    assert seat.label == "Bot (level 2, depth=3)"                     # as records write it
    monkeypatch.setattr(catalog, "_BOT_LABEL", re.compile(r"(?!)"))   # no parsing of the text
    shown = catalog.who_text(seat.label, ("easy", "medium"))
    assert shown == i18n._("Bot {level}").format(level=catalog.level_label(2, "medium") + ", depth=3")
