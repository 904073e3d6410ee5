"""Waiting for something another thread or process does, without a fixed sleep."""
import time


def wait_for(predicate, seconds: float = 5.0, step: float = 0.05) -> bool:
    """Poll ``predicate()`` every ``step`` seconds until it holds or ``seconds`` pass;
    its last answer (a loaded machine may be late, so callers give generous limits)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def play_turns(match, turns: int, seconds: float = 60.0) -> None:
    """Start ``match``, let it play until ``turns`` turns are in (or it ends, or ``seconds``
    pass), then stop it and wait for its thread."""
    match.start()
    wait_for(lambda: len(match.snapshot().turns) >= turns or match.outcome is not None, seconds, step=0.02)
    match.stop()
    match.join(20)
