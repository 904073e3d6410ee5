"""The interface's language: English in the code, other languages from gettext catalogs.

Every user-visible string is written in English and passed through :func:`_` where it is
shown (``_("New match")``, ``_("Turn {n}").format(n=7)``).  Strings declared before a
language is known (option labels in a game's plugin, class attributes) are marked with
:func:`N_`, which only marks them for extraction, and translated where they are shown.

Catalogs live in ``assets/locale/<language>/LC_MESSAGES/arena.po``.  The language can
change while the application runs (:func:`set_language`); screens rebuild their text
when it does.  This module uses only the standard library so the runner, the command
line and the games' plugins can all import it without pygame.
"""
from __future__ import annotations

import gettext

DOMAIN = "arena"
LANGUAGES = {"en": "English", "vi": "Tiếng Việt"}

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def _(message: str) -> str:
    """``message`` in the current language (itself when it has no translation)."""
    return _translation.gettext(message)


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
    _language = code if code in LANGUAGES and not isinstance(_translation, _English) else "en"


class _English(gettext.NullTranslations):
    """The identity translation, told apart from a catalog that loaded."""


def _load(code: str) -> gettext.NullTranslations:
    if code == "en" or code not in LANGUAGES:
        return _English()
    from runner.paths import asset

    try:
        return gettext.translation(DOMAIN, localedir=str(asset("locale")), languages=[code])
    except OSError:
        return _English()
