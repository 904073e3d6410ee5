"""The shell's settings: language, names, theme, window, recent records, last seat choices, notations.

Stored as JSON at :func:`runner.paths.settings_path` (``$ARENA_HOME/settings.json``),
written atomically so a crash never leaves half a file.  A missing or corrupt file
gives the defaults: settings are a convenience, never a reason not to start.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from games.fileio import atomic_write
from runner import paths
from runner.i18n import LANGUAGES, _, system_language

THEME_NAMES = ("dark", "light")
WINDOW_SIZES = ((1280, 720), (1600, 900), (1920, 1080), (2560, 1440), (3840, 2160))
MAX_RECENT = 30
MAX_NAMES = 4


def is_default_name(text: str, seat: int) -> bool:
    """True for "" and for seat ``seat``'s default name in any language."""
    from runner.i18n import in_every_language
    return not text or text in {t.format(n=seat + 1) for t in in_every_language("Player {n}")}


@dataclass
class Settings:
    """What the shell remembers between runs."""

    names: list[str] = field(default_factory=lambda: [f"Player {i + 1}" for i in range(MAX_NAMES)])
    theme: str = "dark"
    window_size: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    recent_records: list[str] = field(default_factory=list)   # most recent first
    last_seats: dict[str, list[str]] = field(default_factory=dict)   # game -> seat specs
    notations: dict[str, str] = field(default_factory=dict)          # game -> move-list notation
    #: game -> {"variant": name, "options": {option: text}}: the New match form's last choices
    last_forms: dict[str, dict] = field(default_factory=dict)
    export_folder: str = ""          # where the replay's Export saved last ("" : not yet)
    language: str = ""               # "en", "vi"; "" : the system's (see interface_language)

    def add_recent(self, path: str | Path, last: bool = False) -> None:
        """Put ``path`` first in the recent list (once), keeping at most MAX_RECENT;
        ``last``: at the end instead (a match stopped before its first move is kept,
        below the records worth opening, and dropped first)."""
        text = str(Path(path).resolve())
        others = [p for p in self.recent_records if p != text]
        if last:
            self.recent_records = (others[:MAX_RECENT - 1] + [text])
            return
        self.recent_records = [text] + others
        del self.recent_records[MAX_RECENT:]

    def interface_language(self) -> str:
        """The language to show: the one chosen in Settings, else the system locale's."""
        return self.language if self.language in LANGUAGES else system_language()

    def name(self, seat: int) -> str:
        """Seat ``seat``'s person: the name set in Settings, else "Player N" in the current language."""
        given = self.given_name(seat)
        return given or _("Player {n}").format(n=seat + 1)

    def given_name(self, seat: int) -> str:
        """The name a person typed for seat ``seat``; "" for the default ("Player N" in any
        language: a default saved as text by an older version counts as the default)."""
        given = self.names[seat] if seat < len(self.names) else ""
        return "" if is_default_name(given, seat) else given

    def to_json(self) -> dict:
        data = asdict(self)
        data["window_size"] = list(self.window_size)
        return data

    @classmethod
    def from_json(cls, data: dict) -> "Settings":
        """Take each known field that has the right shape; ignore the rest."""
        settings = cls()
        if not isinstance(data, dict):
            return settings
        names = data.get("names")
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            settings.names = (names + settings.names[len(names):])[:MAX_NAMES]
        if data.get("theme") in THEME_NAMES:
            settings.theme = data["theme"]
        size = data.get("window_size")
        if (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) for v in size)
                and size[0] >= 320 and size[1] >= 240):
            settings.window_size = (size[0], size[1])
        if isinstance(data.get("fullscreen"), bool):
            settings.fullscreen = data["fullscreen"]
        recent = data.get("recent_records")
        if isinstance(recent, list):
            settings.recent_records = [p for p in recent if isinstance(p, str)][:MAX_RECENT]
        seats = data.get("last_seats")
        if isinstance(seats, dict):
            settings.last_seats = {g: s for g, s in seats.items()
                                   if isinstance(s, list) and all(isinstance(x, str) for x in s)}
        if data.get("language") in LANGUAGES:
            settings.language = data["language"]
        if isinstance(data.get("export_folder"), str):
            settings.export_folder = data["export_folder"]
        forms = data.get("last_forms")
        if isinstance(forms, dict):
            settings.last_forms = {
                g: {"variant": f.get("variant") if isinstance(f.get("variant"), str) else None,
                    "options": {k: v for k, v in (f.get("options") or {}).items()
                                if isinstance(k, str) and isinstance(v, str)}}
                for g, f in forms.items() if isinstance(g, str) and isinstance(f, dict)
                and isinstance(f.get("options") or {}, dict)}
        notations = data.get("notations")
        if isinstance(notations, dict):
            settings.notations = {g: n for g, n in notations.items()
                                  if isinstance(g, str) and isinstance(n, str)}
        return settings


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults when the file is missing or unreadable."""
    path = Path(path) if path else paths.settings_path()
    try:
        return Settings.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return Settings()


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (creating the data folder on first save)."""
    path = Path(path) if path else paths.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(settings.to_json(), indent=2, ensure_ascii=False) + "\n")
    return path
