"""Pictures and films of a replay: a PNG of one position, a GIF or MP4 of a range of turns.

Each frame is :func:`ui.snapshot.render_state` of one position with the players' panel
and the turn's caption, so a film shows what the replay viewer shows.  GIFs are written
by Pillow, MP4s by the ffmpeg that the ``imageio-ffmpeg`` package ships.  Nothing here
opens a window.

    arena export RECORD --format GIF --from 0 --to 100 --size 640x360 --fps 4 --out game.gif
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Generator, Iterator

import pygame

from games import registry
from games.replay import Replay
from ui.snapshot import PictureError, TurnOutOfRangeError, render_state, turn_caption

MEDIA_FORMATS = ("PNG", "GIF", "MP4")
#: The largest film the arena makes in one go (frames), so a typo cannot fill the disk.
MAX_FRAMES = 5000


@dataclass(frozen=True)
class FilmSettings:
    """What to film: turns ``first``..``last`` (inclusive; -1 = the last), picture size, pace."""

    first: int = 0
    last: int = -1
    size: tuple[int, int] = (960, 540)
    fps: float = 4.0


def turn_range(replay: Replay, first: int, last: int) -> range:
    """Indices into ``replay.states`` from ``first`` to ``last`` (negative counts from the end)."""
    count = len(replay.states)
    start = first + count if first < 0 else first
    stop = last + count if last < 0 else last
    if not (0 <= start < count and 0 <= stop < count) or start > stop:
        raise TurnOutOfRangeError(f"turns {first} to {last} are not a range of this record "
                                  f"(turns 0-{count - 1}; -1 = the last)")
    if stop - start + 1 > MAX_FRAMES:
        raise PictureError(f"{stop - start + 1} frames are more than {MAX_FRAMES}; film a shorter range")
    return range(start, stop + 1)


def frames(replay: Replay, settings: FilmSettings) -> Iterator[pygame.Surface]:
    """One picture per position of the range, with the players' panel and the caption."""
    if settings.fps <= 0:
        raise PictureError(f"--fps must be above 0, not {settings.fps:g}")
    plugin = registry.plugin(replay.game)
    options = replay.header.get("options") or {}
    for index in turn_range(replay, settings.first, settings.last):
        yield render_state(plugin, replay.states[index], options, replay.seat_names,
                           settings.size, turn_caption(replay, index))


def save_png(replay: Replay, turn: int, out: Path, size: tuple[int, int]) -> Path:
    """One position (``turn``; -1 = the last) as a PNG."""
    (picture,) = frames(replay, FilmSettings(turn, turn, size))
    _prepare(out)
    try:
        pygame.image.save(picture, str(out))
    except pygame.error as exc:
        raise PictureError(f"cannot save the picture to {out}: {exc}") from None
    return out


def save_gif(replay: Replay, settings: FilmSettings, out: Path) -> int:
    """The range as an animated GIF (looping, ``fps`` frames a second); the frame count."""
    return _drain(gif_steps(replay, settings, out))


def gif_steps(replay: Replay, settings: FilmSettings, out: Path) -> Generator[tuple[int, int], None, int]:
    """:func:`save_gif` one frame at a time: yields (frames drawn, frames in all) so a
    window can show progress between frames; returns the frame count."""
    from PIL import Image

    total = len(turn_range(replay, settings.first, settings.last))
    pictures = []
    for surface in frames(replay, settings):
        pictures.append(Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))
                        .quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
        yield len(pictures), total
    _prepare(out)
    duration = max(20, int(round(1000 / settings.fps)))
    try:
        pictures[0].save(out, format="GIF", save_all=True, append_images=pictures[1:],
                         duration=duration, loop=0, optimize=False, disposal=1)
    except OSError as exc:
        raise PictureError(f"cannot save the GIF to {out}: {exc}") from None
    return len(pictures)


def save_mp4(replay: Replay, settings: FilmSettings, out: Path) -> int:
    """The range as an H.264 MP4 through the packaged ffmpeg; the frame count."""
    return _drain(mp4_steps(replay, settings, out))


def mp4_steps(replay: Replay, settings: FilmSettings, out: Path) -> Generator[tuple[int, int], None, int]:
    """:func:`save_mp4` one frame at a time, like :func:`gif_steps`."""
    import imageio_ffmpeg

    width, height = (x - x % 2 for x in settings.size)     # H.264 wants even sides
    total = len(turn_range(replay, settings.first, settings.last))
    _prepare(out)
    writer = imageio_ffmpeg.write_frames(str(out), (width, height), fps=settings.fps,
                                         codec="libx264", pix_fmt_out="yuv420p", quality=7,
                                         macro_block_size=1, ffmpeg_log_level="error")
    count = 0
    try:
        writer.send(None)
        for surface in frames(replay, FilmSettings(settings.first, settings.last, (width, height),
                                                   settings.fps)):
            writer.send(pygame.image.tobytes(surface, "RGB"))
            count += 1
            yield count, total
    except (OSError, RuntimeError) as exc:
        raise PictureError(f"cannot save the film to {out}: {exc}") from None
    finally:
        writer.close()
    return count


def export_media(replay: Replay, fmt: str, out: Path, settings: FilmSettings) -> str:
    """Save ``replay`` as ``fmt`` (PNG of turn ``settings.last``, GIF or MP4 of the range);
    a sentence saying what was written, for the command line and the viewer."""
    return _drain(export_steps(replay, fmt, out, settings))


def export_steps(replay: Replay, fmt: str, out: Path,
                 settings: FilmSettings) -> Generator[tuple[int, int], None, str]:
    """:func:`export_media` one frame at a time (the replay viewer draws between frames):
    yields (frames done, frames in all); returns the sentence saying what was written."""
    kind = fmt.upper()
    if kind == "PNG":
        save_png(replay, settings.last, out, settings.size)
        yield 1, 1
        return f"saved {out}"
    if kind == "GIF":
        count = yield from gif_steps(replay, settings, out)
    elif kind == "MP4":
        count = yield from mp4_steps(replay, settings, out)
    else:
        raise PictureError(f"{fmt!r} is not one of " + ", ".join(MEDIA_FORMATS))
    return f"saved {out} ({count} frames, {settings.size[0]}x{settings.size[1]}, {settings.fps:g} a second)"


def _drain(steps: Generator[tuple[int, int], None, object]):
    """Run a step generator to its end; its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


def _prepare(out: Path) -> None:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PictureError(f"cannot make the folder {out.parent}: {exc.strerror or exc}") from None
