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
