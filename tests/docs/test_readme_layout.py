"""The README's "How the code is laid out" matches the tree, both ways."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = [p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").is_file() and p.name != "render"]


def layout_paths() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]
    paths = []
    for row in section.splitlines():
        if row.startswith("| `"):
            paths += re.findall(r"`([^`]+)`", row.split("|")[1])
    return paths


def exists(path: str) -> bool:
    if "<game>" in path:
        return any((ROOT / path.replace("<game>", game)).exists() for game in GAMES)
    return (ROOT / path).exists()


def test_every_path_in_the_layout_exists():
    paths = layout_paths()
    assert len(paths) > 10
    missing = [p for p in paths if not exists(p)]
    assert not missing, f"the README names paths that are not in the tree: {missing}"


def test_every_top_level_part_and_shared_module_is_in_the_layout():
    named = " ".join(layout_paths())
    parts = [p.name for p in ROOT.iterdir() if not p.name.startswith(".") and p.name not in (
        "pyproject.toml", "build.spec", "docs", "out", "build", "dist", "venv")
        and not p.name.endswith((".egg-info", ".md"))]
    parts += [f"games/{p.name}" for p in (ROOT / "games").glob("*.py") if p.name != "__init__.py"]
    parts += [f"runner/{p.name}" for p in (ROOT / "runner").glob("*.py") if p.name not in (
        "__init__.py", "paths.py")]
    unnamed = [p for p in parts if p not in named and p + "/" not in named]
    assert not unnamed, f"the README's layout does not say where these live: {unnamed}"
