"""Finding user-visible strings that skip the translation function (used by test_i18n).

:func:`unwrapped_strings` reads Python source with :mod:`ast` and reports literal text
given straight to the calls that put words on screen: pygame_gui widgets (``UILabel``,
``UIButton``, ``UITextBox``, ``set_text``, tooltips, placeholders, window titles), the
scenes' helpers (``label``, ``button``, ``top_bar``, ``draw_text``) and ``font.render``;
and, in renderers, what ``key_help``/``legend``/``status`` hand back.  Text counts as
literal when a string constant, an f-string or a ``"...".format()`` with two letters in
a row reaches the call without passing through ``_``/``ngettext``.

:func:`shadowed_translations` reports functions that call ``_()`` and also bind a local
named ``_`` (``a, _ = pair``), which would make the call fail.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

#: call name -> (index of the text argument or None, keyword names that carry text)
TEXT_CALLS = {
    "label": (1, ("text",)), "button": (1, ("text", "tooltip")), "top_bar": (0, ("title",)),
    "draw_text": (1, ("text",)), "set_text": (0, ("text",)), "UILabel": (1, ("text",)),
    "UIButton": (1, ("text", "tool_tip_text")), "UITextBox": (0, ("html_text",)),
    "UICheckBox": (1, ("text",)), "render": (0, ("text",)), "set_tooltip": (0, ("text",)),
    "append_html_text": (0, ("html_text",)), "entry": (2, ("placeholder",)),
}
TEXT_KEYWORDS = {"tool_tip_text", "tooltip", "placeholder", "placeholder_text", "window_title",
                 "action_long_desc", "action_short_name", "window_display_title"}
#: Renderer methods whose returned strings are shown as they are.
SHOWN_RETURNS = {"key_help", "legend", "status", "headline"}
TRANSLATORS = {"_", "ngettext"}
WORDS = re.compile(r"[A-Za-z]{2}")


def _has_words(node: ast.AST) -> bool:
    """True when ``node`` is literal text (or builds text from literal words)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(WORDS.search(node.value))
    if isinstance(node, ast.JoinedStr):
        return any(_has_words(v) for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _has_words(node.left) or _has_words(node.right)
    if isinstance(node, ast.IfExp):
        return _has_words(node.body) or _has_words(node.orelse)
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(_has_words(e) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _has_words(node.func.value)
    return False


def _name(func: ast.AST) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _text_arguments(call: ast.Call) -> list[ast.AST]:
    name = _name(call.func)
    found = [k.value for k in call.keywords if k.arg in TEXT_KEYWORDS]
    if name in TEXT_CALLS:
        index, keywords = TEXT_CALLS[name]
        if index is not None and len(call.args) > index:
            found.append(call.args[index])
        found += [k.value for k in call.keywords if k.arg in keywords]
    return found


def unwrapped_strings(source: str, filename: str = "<source>") -> list[str]:
    """``file:line: text`` for each literal text shown without ``_()``."""
    tree = ast.parse(source, filename)
    problems = []
    for node in ast.walk(tree):
        candidates: list[ast.AST] = []
        if isinstance(node, ast.Call) and _name(node.func) not in TRANSLATORS:
            candidates = _text_arguments(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in SHOWN_RETURNS:
            candidates = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
        for value in candidates:
            if _has_words(value):
                problems.append(f"{filename}:{value.lineno}: {ast.unparse(value)[:90]}")
    return problems


def shadowed_translations(source: str, filename: str = "<source>") -> list[str]:
    """``file:line: function`` for each function that calls ``_()`` and binds ``_`` itself."""
    tree = ast.parse(source, filename)
    problems = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                    for n in _own_nodes(function))
        binds = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                    for n in _own_nodes(function))
        if calls and binds:
            problems.append(f"{filename}:{function.lineno}: {function.name}")
    return problems


def _own_nodes(function: ast.AST):
    """The nodes of ``function``'s own scope (not nested functions, lambdas, comprehensions)."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
              ast.DictComp, ast.GeneratorExp, ast.ClassDef)
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, scopes):
            stack.extend(ast.iter_child_nodes(node))


def shown_sources(root: Path) -> list[Path]:
    """The files whose words reach the screen: the shell and the games' renderers."""
    files = sorted((root / "ui").rglob("*.py"))
    files += sorted((root / "games").glob("*/render.py")) + sorted((root / "games" / "render").glob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts]
