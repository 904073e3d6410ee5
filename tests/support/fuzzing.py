"""What the fuzzers of files share: how many examples (``ARENA_FUZZ_EXAMPLES``, default 25
per reader, so CI stays quick), hypothesis' settings for them, and the mutation of real
files (bytes flipped, slices cut, copied or inserted, lines swapped, the file truncated).
Import it after ``pytest.importorskip("hypothesis")``."""
import os
import random

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


def mutate(data: bytes, rng: random.Random, rounds: int) -> bytes:
    buf = bytearray(data)
    for _ in range(rounds):
        kind = rng.randrange(7)
        at = rng.randrange(len(buf) + 1)
        if kind == 0 and buf:                               # flip a byte
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif kind == 1:                                     # cut a slice
            del buf[at:at + rng.randrange(1, 64)]
        elif kind == 2:                                     # copy a slice elsewhere
            piece = buf[at:at + rng.randrange(1, 64)]
            where = rng.randrange(len(buf) + 1)
            buf[where:where] = piece
        elif kind == 3:                                     # insert something nasty
            buf[at:at] = rng.choice([b"\0", b"\xff\xfe", b"\n", b"\r\n", b"-1", b"999999999999",
                                     b"1e308", b"NaN", b'"', b"{", b"}", b"[", b"]", b"null",
                                     b'{"type": "turn", "n": 1}', b"\t", "\u2028".encode()])
        elif kind == 4:                                     # truncate
            del buf[at:]
        elif kind == 5:                                     # swap two lines
            lines = bytes(buf).split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                buf = bytearray(b"\n".join(lines))
        else:                                               # a digit changed
            digits = [i for i, b in enumerate(buf) if 48 <= b <= 57]
            if digits:
                buf[rng.choice(digits)] = rng.choice(b"0123456789-")
    return bytes(buf)
