"""The match panel's clock text: rounded before it is split, so never "9:60.0"."""
from ui.panels import format_clock


def test_the_clock_never_shows_sixty_seconds():
    assert format_clock(599.96) == "10:00.0"
    assert format_clock(59.94) == "0:59.9"
    assert format_clock(61.25) in ("1:01.2", "1:01.3")
    assert format_clock(0) == "0:00.0" and format_clock(None) == ""
