"""Keeping the translation catalogs in step with the code (for developers and tests).

* :func:`code_messages`: every string the code marks with ``_``, ``N_`` or ``ngettext``,
  extracted with Babel (a test/dev dependency, imported only here).
* :func:`declared_game_messages`: the texts the games declare in their stdlib-only rules
  modules (titles, summaries, seat names, option help, variant names and help, bot level names).
  Those modules may not import :mod:`runner.i18n`, so they are not marked; the shell
  translates them where it shows them, and they are collected here from the specs.
* :func:`write_template` and :func:`update_catalog` remake ``assets/locale/arena.pot``
  and merge it into each language's ``arena.po``, keeping the translations made.

    python -m runner.catalog_tools            # remake the template, update the catalogs
"""
from __future__ import annotations

import sys
from pathlib import Path

from runner.i18n import DOMAIN, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
#: Where marked strings are looked for: the command line, the runner, the shell, the games.
SOURCES = ("main.py", "runner", "ui", "games")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
HEADER = ("# {language} translations of Arena's interface.\n"
          "# Remade by `python -m runner.catalog_tools`; see assets/locale/README.md.")


def code_messages(root: Path = ROOT) -> dict[str | tuple[str, str], list[tuple[str, int]]]:
    """``{message: [(file, line), ...]}`` of every marked string under :data:`SOURCES`
    (a plural message is the tuple ``(singular, plural)``)."""
    from babel.messages.extract import extract_from_file

    found: dict = {}
    for source in SOURCES:
        path = root / source
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            if "__pycache__" in file.parts or file.name == "catalog_tools.py":
                continue
            relative = file.relative_to(root).as_posix()
            for line, message, _comments, _context in extract_from_file(
                    "python", str(file), keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True):
                if isinstance(message, tuple):
                    message = tuple(message) if all(message) else message[0]
                if message:
                    found.setdefault(message, []).append((relative, line))
    return found


def declared_game_messages() -> dict[str, list[tuple[str, int]]]:
    """``{text: [(where, 0)]}``: the texts each installed game declares for people."""
    from games import registry

    found: dict = {}

    def add(text, where: str) -> None:
        if isinstance(text, str) and text.strip():
            found.setdefault(text, []).append((where, 0))

    for plugin in registry.all_plugins():
        where = f"games/{plugin.name}"
        for level in plugin.bot_levels:
            add(level, f"{where}/__init__.py")
        try:
            spec = plugin.new_game().spec
        except Exception:        # noqa: BLE001 - a half-written game has nothing to say yet
            continue
        add(spec.title, f"{where}/rules.py")
        add(spec.summary, f"{where}/rules.py")
        for seat in range(max(spec.max_seats, len(spec.seat_names))):
            add(spec.seat_name(seat), f"{where}/rules.py")
        for option in spec.options:
            add(option.help, f"{where}/rules.py")
        for variant in spec.variants:
            add(variant.name, f"{where}/rules.py")
            add(variant.help, f"{where}/rules.py")
    return found


def all_messages(root: Path = ROOT) -> dict:
    """What the catalogs must translate: the marked strings and the games' declared texts."""
    messages = code_messages(root)
    for text, places in declared_game_messages().items():
        messages.setdefault(text, []).extend(places)
    return messages


def template(root: Path = ROOT):
    """A Babel catalog of :func:`all_messages` (the ``.pot``)."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(project="Arena", version="0.1.0", charset="utf-8", fuzzy=False,
                      header_comment=HEADER.format(language="Template for the"))
    for message, places in sorted(all_messages(root).items(), key=lambda item: str(item[0])):
        catalog.add(message, locations=places)
    return catalog


def write_template(root: Path = ROOT) -> Path:
    from babel.messages.pofile import write_po

    path = root / "assets" / "locale" / f"{DOMAIN}.pot"
    with open(path, "wb") as handle:
        write_po(handle, template(root), width=100, omit_header=False, sort_output=True)
    return path


def update_catalog(code: str, root: Path = ROOT) -> Path:
    """Merge the template into ``<code>/LC_MESSAGES/arena.po``: new messages come in empty,
    gone ones are dropped, translations made are kept."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    path = root / "assets" / "locale" / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        with open(path, "rb") as handle:
            catalog = read_po(handle, locale=code)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale=code, project="Arena", charset="utf-8", fuzzy=False)
    catalog.update(template(root), no_fuzzy_matching=True)
    catalog.version = "0.1.0"
    catalog.header_comment = HEADER.format(language=str(catalog.locale.english_name))
    catalog.obsolete.clear()
    with open(path, "wb") as handle:
        write_po(handle, catalog, width=100, sort_output=True, ignore_obsolete=True)
    return path


def main(argv: list[str] | None = None) -> int:
    print(write_template())
    for code in LANGUAGES:
        if code != "en":
            print(update_catalog(code))
    return 0


if __name__ == "__main__":
    sys.exit(main())
