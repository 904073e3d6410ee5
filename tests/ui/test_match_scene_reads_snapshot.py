"""The match screen reads a running match only through its snapshot and the game's
declared API: no probing for attributes a game or seat may lack, and no reading of the
match's growing lists or seats from the frame loop's thread."""
import re
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "ui" / "scenes" / "match.py"

#: Looking up what a game, match or seat may not have, or reading the match's own
#: lists and seats (they change on the match's thread).
FORBIDDEN = {
    "a probe": re.compile(r"\b(getattr|hasattr)\((self\.)?(game|match|seat)\b|"
                          r"getattr\(self\.match\.\w+"),
    "the match's positions, seats or options": re.compile(r"\bmatch\.(states|seats|options)\b"),
    "human_waiting (snap.asking says it)": re.compile(r"\bhuman_waiting\("),
    "a seat's waiting event": re.compile(r"\.waiting\b"),
}


def test_the_match_screen_reads_declared_parts_only():
    found = []
    for number, line in enumerate(SOURCE.read_text(encoding="utf-8").splitlines(), 1):
        for what, pattern in FORBIDDEN.items():
            if pattern.search(line):
                found.append(f"match.py:{number}: {what}: {line.strip()}")
    assert not found, "\n".join(found)
