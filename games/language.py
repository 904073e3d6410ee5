"""The interface's language: English in the code, other languages from gettext catalogs.

A shared module of the contract: the runner (:mod:`runner.i18n` names the same
functions), the games' renderers and tools, and the ui all say texts through it, so no
layer reaches into another for its language.

Every user-visible string is written in English and passed through :func:`_` where it is
shown (``_("New match")``, ``_("Turn {n}").format(n=7)``).  Strings declared before a
language is known (option labels in a game's plugin, class attributes) are marked with
:func:`N_`, which only marks them for extraction, and translated where they are shown.

Catalogs live in ``assets/locale/<language>/LC_MESSAGES/arena.po`` (the template of
all messages is ``assets/locale/arena.pot``; ``python -m runner.catalog_tools`` remakes
it from the code with Babel).  The ``.po`` source is read at run time by
:func:`read_po`, so a checkout, ``pip install`` and the PyInstaller bundle all work
with no compile step and no generated ``.mo`` file; a compiled ``arena.mo`` next to
the ``.po``, if a packager adds one, is used instead.

The language can change while the application runs (:func:`set_language`); screens
rebuild their text when it does.  The first language is the system's
(:func:`system_language`: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), English
when that is not one Arena has.  This module uses only the standard library so the
runner, the command line and the games' plugins can all import it without pygame.
"""
from __future__ import annotations

import ast
import functools
import gettext
import os
import re
from pathlib import Path

DOMAIN = "arena"
LANGUAGES = {"en": "English", "vi": "Tiếng Việt"}
#: The environment variables gettext reads for the language, in its order of priority.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def _(message: str) -> str:
    """``message`` in the current language (itself when it has no translation; "" stays "",
    where gettext would give the catalog's header)."""
    return _translation.gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for ``n`` in the current language."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for translation without translating it now."""
    return message


def language() -> str:
    """The code of the current language (``"en"``, ``"vi"``)."""
    return _language


def set_language(code: str) -> None:
    """Switches the interface to ``code``; unknown codes and missing catalogs mean English."""
    global _translation, _language
    _translation = _load(code)
    _translate.cache_clear()
    _language = code if code in LANGUAGES and not isinstance(_translation, _English) else "en"


def in_every_language(message: str) -> set[str]:
    """``message`` as each language Arena has says it (English included): to recognise a
    default ("Player 1", "Người chơi 1") whichever language it was written in."""
    return {message} | {_catalog(code).gettext(message) for code in LANGUAGES if code != "en"}


@functools.lru_cache(maxsize=None)
def _catalog(code: str) -> gettext.NullTranslations:
    return _load(code)


def system_language(environ=None) -> str:
    """The language the system asks for, as gettext reads it: the first of LANGUAGE
    (a colon-separated list), LC_ALL, LC_MESSAGES and LANG that is set, and in it the first
    language Arena has ("vi_VN.UTF-8" -> "vi"); English otherwise (also for "C"/"POSIX")."""
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES:
                return code
        if variable != "LANGUAGE":
            return "en"
    return "en"


def catalog_path(code: str) -> Path:
    """Where the ``.po`` catalog of language ``code`` lives."""
    from games.assets import asset

    return Path(asset("locale")) / code / "LC_MESSAGES" / f"{DOMAIN}.po"


class _English(gettext.NullTranslations):
    """The identity translation, told apart from a catalog that loaded."""


class POError(ValueError):
    """A ``.po`` file that cannot be read; the message names the file and the line."""


def _load(code: str) -> gettext.NullTranslations:
    if code == "en" or code not in LANGUAGES:
        return _English()
    path = catalog_path(code)
    compiled = path.with_suffix(".mo")
    try:
        if compiled.exists() and compiled.stat().st_mtime >= path.stat().st_mtime:
            with open(compiled, "rb") as handle:
                return gettext.GNUTranslations(handle)
        return read_po(path)
    except (OSError, POError):
        return _English()


def read_po(path: str | Path) -> gettext.GNUTranslations:
    """The translations in the ``.po`` file ``path``, as gettext's own class.

    Fuzzy and empty entries are left out (their English shows), like ``msgfmt`` does.
    Raises :class:`POError` naming the file and line on a malformed file.
    """
    path = Path(path)
    catalog, plural_forms = parse_po(path.read_text(encoding="utf-8"), str(path))
    translations = gettext.GNUTranslations()
    translations._catalog = catalog
    translations._charset = "utf-8"
    translations.plural = _plural_function(plural_forms, str(path))
    translations._info = {}
    return translations


def _plural_function(header: str, where: str):
    """The plural-form chooser of a ``Plural-Forms`` header (``nplurals=1; plural=0;``)."""
    if not header:
        return lambda n: int(n != 1)
    try:
        expression = header.split("plural=", 1)[1].split(";")[0].strip()
        return gettext.c2py(expression)
    except (IndexError, ValueError, SyntaxError) as exc:
        raise POError(f"{where}: bad Plural-Forms header {header!r}") from exc


def parse_po(text: str, where: str = "<po>") -> tuple[dict, str]:
    """``({msgid: text, (msgid, n): text}, plural forms header)`` of a ``.po`` file's text.

    Keys follow :class:`gettext.GNUTranslations`: a message with a context is keyed
    ``"context\\x04msgid"``, a plural message ``(msgid, form)`` for each form.
    """
    entries: list[dict] = []
    entry: dict = {}
    field = None
    fuzzy = False          # a "#, fuzzy" comment seen since the last entry
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            fuzzy = fuzzy or (line.startswith("#,") and "fuzzy" in line)
            field = None
            continue
        if line.startswith('"'):
            if field is None:
                raise POError(f"{where}, line {number}: a string with no msgid/msgstr before it")
            entry[field] += _unquote(line, where, number)
            continue
        keyword, _space, rest = line.partition(" ")
        starts_entry = keyword == "msgctxt" or (keyword == "msgid" and "msgctxt" not in entry)
        if starts_entry or (keyword == "msgid" and any(k.startswith("msgstr") for k in entry)):
            if entry:
                entries.append(entry)
            entry = {"fuzzy": fuzzy}
            fuzzy = False
        if keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit():
            pass
        elif keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
            raise POError(f"{where}, line {number}: expected msgid, msgstr or a quoted string, "
                          f"got {line[:40]!r}")
        field = keyword
        entry[field] = _unquote(rest.strip(), where, number)
    if entry:
        entries.append(entry)
    return _catalog_of(entries, where)


def _unquote(text: str, where: str, number: int) -> str:
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        raise POError(f"{where}, line {number}: expected a quoted string, got {text[:40]!r}")
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise POError(f"{where}, line {number}: bad escape in {text[:40]!r}") from None
    if not isinstance(value, str):
        raise POError(f"{where}, line {number}: expected a quoted string, got {text[:40]!r}")
    return value


def _catalog_of(entries: list[dict], where: str) -> tuple[dict, str]:
    catalog: dict = {}
    plural_forms = ""
    for entry in entries:
        if "msgid" not in entry:
            raise POError(f"{where}: an entry without msgid")
        msgid = entry["msgid"]
        if "msgctxt" in entry:
            msgid = f"{entry['msgctxt']}\x04{msgid}"
        if msgid == "":
            for header in entry.get("msgstr", "").splitlines():
                if header.lower().startswith("plural-forms:"):
                    plural_forms = header.split(":", 1)[1].strip()
            continue
        if entry.get("fuzzy"):
            continue
        if "msgid_plural" in entry:
            forms = sorted((int(k[7:-1]), v) for k, v in entry.items() if k.startswith("msgstr["))
            if forms and all(text for _n, text in forms):
                for n, text in forms:
                    catalog[(msgid, n)] = text
        elif entry.get("msgstr"):
            catalog[msgid] = entry["msgstr"]
    return catalog, plural_forms


def translate_message(message: str, fallback=None) -> str:
    """``message`` (a :class:`games.api.Message`: an English text with its id and parts)
    in the current language, made from its id and parts: the id's translation filled with
    the parts, each part that is a message translated the same way, each plain text part
    (a name, a word) looked up whole in the catalog ("Red" -> "Đỏ"), else as written, a
    list (a tuple of parts) item by item.

    A text with no id (a plain ``str``, or a message part made before ids existed) is
    given to ``fallback`` (the old reading by templates, :func:`translate_text`), as is a
    message whose translation names a part it does not have; without a fallback it shows
    in English.
    """
    fallback = fallback or (lambda text: text)
    msgid = getattr(message, "msgid", "")
    if not msgid:
        return fallback(str(message))
    if _language == "en":
        return str(message)
    parts = {name: _translated_part(value, fallback) for name, value in message.params.items()}
    try:
        return _(msgid).format(**parts)
    except (KeyError, IndexError, ValueError):      # a translation with a wrong name
        return fallback(str(message))


def _translated_part(value, fallback):
    """One part of a message in the current language (see :func:`translate_message`)."""
    if getattr(value, "msgid", None) is not None:
        return translate_message(value, fallback)
    if isinstance(value, tuple):                    # a list: "A 5, B 3"
        return ", ".join(str(_translated_part(item, fallback)) for item in value)
    return _(value) if isinstance(value, str) else value


#: A ``{name}`` placeholder in a message template.
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: How deep :func:`translate_text` follows parts inside parts (a reason in a verdict in a note).
_MAX_DEPTH = 6


def template_pattern(template: str) -> re.Pattern:
    """The regular expression a finished English text of ``template`` matches, each
    ``{name}`` a named group: ``"{seat} left the game: {why}"`` matches
    ``"A left the game: enclosed by B"`` with seat="A", why="enclosed by B".
    A name used twice ("{size}x{size}") must hold the same text both times."""
    pieces = _PLACEHOLDER.split(template)
    seen: set[str] = set()
    regex = ""
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            regex += re.escape(piece)
        else:
            regex += f"(?P={piece})" if piece in seen else f"(?P<{piece}>.+?)"
            seen.add(piece)
    return re.compile(regex + r"\Z", re.DOTALL)


@functools.lru_cache(maxsize=64)
def _compiled(templates: tuple[str, ...]) -> tuple[tuple[str, re.Pattern], ...]:
    """``templates`` compiled once, the most specific first (more fixed words before fewer),
    so "{side} is checkmated; {winner} wins" is tried before "{first}; {rest}"."""
    fixed = lambda template: len(_PLACEHOLDER.sub("", template))       # noqa: E731
    return tuple((t, template_pattern(t)) for t in sorted(set(templates), key=fixed, reverse=True))


def translate_text(text: str, templates=()) -> str:
    """A finished English text with no message id (a record written before texts kept
    their ids, or a text still written as plain English), in the current language; a
    :class:`games.api.Message` is said from its id instead (:func:`translate_message`).

    ``text`` is looked up whole in the catalog first; else it is matched against
    ``templates`` (English messages with ``{name}`` placeholders, each marked with
    :func:`N_` where it is declared), and the matching template's translation is filled
    with its parts, each translated the same way ("Red" inside "Red gives check").  A list
    ("A 3, B 0", "x; y") is translated item by item.  Text that matches nothing is
    returned as it was, so records keep their English and show translated.
    """
    if not text or _language == "en":
        return text
    return _translate(text, tuple(templates), _language, 0)


@functools.lru_cache(maxsize=4096)
def _translate(text: str, templates: tuple[str, ...], language_code: str, depth: int) -> str:
    return _best_reading(text, templates, depth, {})[0]


def _fixed_length(template: str) -> int:
    """How many characters of ``template`` are its own words (not ``{name}`` parts)."""
    return len(_PLACEHOLDER.sub("", template))


def _best_reading(text: str, templates: tuple[str, ...], depth: int,
                  memo: dict) -> tuple[str, int]:
    """``text`` translated, and how many of its characters the translation recognised.

    Several templates may match one text, each cutting it at other places: "Black
    forfeits (illegal move: E7E8 is not legal: ...)" matches "{side} forfeits ({reason})"
    and, wrongly cut, "{move} is not legal: {why}".  Every matching template is tried,
    its parts read the same way, and the reading that recognises the most characters
    (its own words, its parts' words, whole texts found in the catalog) wins; on a tie
    the more specific template.  A list ("x; y", "A 3, B 0") is read item by item.
    ``memo`` keeps the parts already read during one call of :func:`_translate`.
    """
    if text not in memo:
        memo[text] = _read(text, templates, depth, memo)
    return memo[text]


def _read(text: str, templates: tuple[str, ...], depth: int, memo: dict) -> tuple[str, int]:
    """The best reading of ``text`` (see :func:`_best_reading`), not yet remembered."""
    exact = _(text)
    if exact != text:
        return exact, len(text)
    if depth > _MAX_DEPTH:
        return text, 0
    best = (text, 0)
    for template, pattern in _compiled(templates):
        match = pattern.match(text)
        if not match:
            continue
        covered, parts = _fixed_length(template), {}
        for name, value in match.groupdict().items():
            parts[name], known = _best_reading(value, templates, depth + 1, memo)
            covered += known
        try:
            shown = _(template).format(**parts)
        except (KeyError, IndexError, ValueError):      # a translation with a wrong name
            continue
        if covered > best[1]:
            best = (shown, covered)
    for separator in ("; ", ", "):
        if separator in text:
            items = [_best_reading(item, templates, depth + 1, memo)
                     for item in text.split(separator)]
            covered = sum(known for _shown, known in items) + len(separator) * (len(items) - 1)
            if covered > best[1]:
                best = (separator.join(shown for shown, _known in items), covered)
            break
    return best
