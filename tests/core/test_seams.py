"""The seams the project promises: rules, protocols and the referee never import pygame."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def python_files(folder: str):
    return sorted((ROOT / folder).rglob("*.py"))


def test_only_renderers_under_games_import_pygame():
    offenders = [str(p.relative_to(ROOT)) for p in python_files("games")
                 if not any("render" in part for part in p.relative_to(ROOT / "games").parts)
                 and {"pygame", "pygame_gui"} & imported_modules(p)]
    assert offenders == []


def test_runner_never_imports_pygame_or_ui():
    offenders = [str(p.relative_to(ROOT)) for p in python_files("runner")
                 if {"pygame", "pygame_gui", "ui"} & imported_modules(p)]
    assert offenders == []


def test_games_never_import_the_ui():
    offenders = [str(p.relative_to(ROOT)) for p in python_files("games") if "ui" in imported_modules(p)]
    assert offenders == []


def test_seam_check_sees_an_offender(tmp_path):
    """The checker itself must be able to fail."""
    bad = tmp_path / "rules.py"
    bad.write_text("import os\nfrom pygame import Rect\n")
    assert "pygame" in imported_modules(bad)


def test_rules_modules_use_only_the_standard_library():
    import sys
    allowed = set(sys.stdlib_module_names) | {"games"}
    offenders = {}
    for path in (ROOT / "games").glob("*/rules.py"):
        extra = imported_modules(path) - allowed
        if extra:
            offenders[str(path.relative_to(ROOT))] = sorted(extra)
    assert offenders == {}
