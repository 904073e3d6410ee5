"""The interface's language, as the runner and the command line use it.

The language itself (``_``, ``ngettext``, ``N_``, the catalogs, switching live, saying a
:class:`games.api.Message` from its id, reading an old text back by templates) lives in
the shared module :mod:`games.language`, which the games' renderers and tools import
too; this module names the same functions, and adds argparse's own words.
"""
from __future__ import annotations

from games.language import (  # noqa: F401 - the shared module's names, for the runner's callers
    DOMAIN, LANGUAGES, LOCALE_VARIABLES, N_, POError, _, _translate, catalog_path, in_every_language,
    language, ngettext, parse_po, read_po, set_language, system_language, template_pattern,
    translate_message, translate_text,
)


def translate_argparse() -> None:
    """Let argparse's own words ("usage:", "options", "show this help message and exit",
    its error messages) come from Arena's catalog, so ``arena --help`` is all one language.

    argparse looks up ``_``/``ngettext`` in its module when it formats, so pointing them
    here follows :func:`set_language` from then on.
    """
    import argparse

    argparse._ = _
    argparse.ngettext = ngettext


#: argparse's own messages that Arena's command line shows, for the catalog (argparse
#: translates them through :func:`translate_argparse`).
ARGPARSE_MESSAGES = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"), N_("expected at least one argument"), N_("expected at most one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
