"""The settings a seat spec carries, as the New match form offers them.

Engines and bots take settings as trailing ``KEY=VALUE`` words of their seat spec
(``uci:fairy-stockfish movetime=500 option.Threads=2``, ``bot:4 depth=6``,
``gtp:mohex time_per_move=1``): the same words as on the command line, so a match
started from the form can be repeated with ``arena match`` and the form can show a
remembered spec again.  This module says which fields a seat kind has (in plain words,
with units), splits a spec's settings off its command and puts them back.
"""
from __future__ import annotations

import importlib
import shlex
from dataclasses import dataclass

from runner.i18n import N_

#: The field holding an engine's own options (``option.NAME=VALUE`` words).
ENGINE_OPTIONS = "options"


@dataclass(frozen=True)
class SettingField:
    """One setting in the form: its spec key, its label and unit, and what it accepts."""

    key: str
    label: str                 # plain words (marked for translation, shown through _)
    unit: str = ""             # "ms", "s", "plies"; "" when it is a count or text
    number: str = "int"        # "int" (whole, above 0), "float" (above 0), "" (text)
    width: int = 130           # design pixels of its entry
    hint: str = N_("default")  # shown in the empty entry


#: UCI and UCCI engines (Xiangqi): the ``go`` limits and the engine's own options.
ENGINE_FIELDS = (
    SettingField("movetime", N_("Time a move"), "ms"),
    SettingField("depth", N_("Depth"), N_("plies"), width=140),   # "Độ sâu (nửa nước)" whole
    SettingField("nodes", N_("Nodes"), "", width=110),
    SettingField(ENGINE_OPTIONS, N_("Engine options"), "", "", width=218, hint=N_("NAME=VALUE …")),
)
#: Built-in bots' settings, offered for those their game's bot module lists in
#: ``BOT_SETTINGS`` (Xiangqi: time, depth, nodes; Hex: time, playouts).
BOT_FIELDS = ENGINE_FIELDS[:3] + (SettingField("playouts", N_("Playouts"), "", width=110),)
#: GTP engines (Hex): the per-move time and a file of GTP commands sent at the start.
GTP_FIELDS = (
    SettingField("time_per_move", N_("Time a move"), "s", "float"),
    SettingField("config", N_("GTP commands file (sent at the start)"), "", "", width=448, hint=N_("none")),
)


def fields_for(plugin, kind: str) -> tuple[SettingField, ...]:
    """The setting fields of seat ``kind`` in ``plugin``'s game (none for people and programs)."""
    if kind in ("uci", "ucci"):
        return ENGINE_FIELDS
    if kind == "gtp":
        return GTP_FIELDS
    if kind == "bot":
        return bot_fields(plugin)
    return ()


def bot_fields(plugin) -> tuple[SettingField, ...]:
    """The fields of the settings the game's built-in bot takes (``BOT_SETTINGS``)."""
    if not plugin.bot:
        return ()
    try:
        module = importlib.import_module(plugin.bot.partition(":")[0])
    except ImportError:
        return ()
    known = set(getattr(module, "BOT_SETTINGS", ()))
    return tuple(field for field in BOT_FIELDS if field.key in known)


def field_unit_label(field: SettingField, translate=lambda text: text) -> str:
    """ "Time a move (ms)": the label in plain words with its unit."""
    label = translate(field.label)
    return f"{label} ({translate(field.unit)})" if field.unit else label


def split_settings(text: str, fields: tuple[SettingField, ...]) -> tuple[str, dict[str, str]]:
    """``"engine -x movetime=500 option.Threads=2"`` -> ("engine -x", {"movetime": "500",
    "options": "Threads=2"}).  Only trailing words of the fields' keys are taken (so an
    engine's own arguments stay in the command); other settings stay in the command."""
    keys = {f.key for f in fields}
    try:
        words = shlex.split(text)
    except ValueError:           # an unfinished quote: everything is the command
        return text.strip(), {}
    found: dict[str, str] = {}
    options: list[str] = []
    while words:
        key, sep, value = words[-1].partition("=")
        if sep and key in keys and key != ENGINE_OPTIONS and key not in found:
            found[key] = value
        elif sep and ENGINE_OPTIONS in keys and key.startswith("option.") and len(key) > 7:
            options.insert(0, f"{key[7:]}={value}")
        else:
            break
        words.pop()
    if options:
        found[ENGINE_OPTIONS] = " ".join(options)
    if not found:
        return text.strip(), {}
    return " ".join(shlex.quote(w) for w in words), found


def join_settings(command: str, settings: dict[str, str], fields: tuple[SettingField, ...]) -> str:
    """The command followed by its settings' words (empty settings left out)."""
    words = [command.strip()] if command.strip() else []
    for field in fields:
        value = (settings.get(field.key) or "").strip()
        if not value:
            continue
        if field.key == ENGINE_OPTIONS:
            words += [shlex.quote(f"option.{pair}") for pair in value.split()]
        else:
            words.append(shlex.quote(f"{field.key}={value}"))
    return " ".join(words)


def settings_problem(settings: dict[str, str], fields: tuple[SettingField, ...], translate=lambda t: t) -> str:
    """The first setting the seat would refuse, in plain words; "" when all are fine."""
    for field in fields:
        value = (settings.get(field.key) or "").strip()
        if not value:
            continue
        label = field_unit_label(field, translate)
        if field.number == "int":
            if not value.isdigit() or int(value) <= 0:
                return translate("{label}: a whole number above 0, not {value!r}").format(label=label, value=value)
        elif field.number == "float":
            try:
                ok = float(value) > 0
            except ValueError:
                ok = False
            if not ok:
                return translate("{label}: a number above 0, not {value!r}").format(label=label, value=value)
        elif field.key == ENGINE_OPTIONS:
            bad = next((pair for pair in value.split() if "=" not in pair.strip("=")[1:]), None)
            if bad is not None:
                return translate("{label}: write each as NAME=VALUE, not {value!r}").format(label=label, value=bad)
    return ""
