"""Shared by the renderer benchmarks: the first draw (building caches) and a cached draw."""
import time


def time_draw(renderer, surface, state, view, repeats: int = 30) -> tuple[float, float]:
    """Seconds for the first draw and the mean of ``repeats`` further draws."""
    start = time.perf_counter()
    renderer.draw(surface, surface.get_rect(), state, view)
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeats):
        renderer.draw(surface, surface.get_rect(), state, view)
    return first, (time.perf_counter() - start) / repeats
