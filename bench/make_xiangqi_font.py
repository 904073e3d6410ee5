"""Make ``assets/fonts/xiangqi-pieces.otf``: the Xiangqi piece and river glyphs only.

The board renderer writes the traditional Chinese characters on the pieces.  A whole
CJK font is 20+ MB; this keeps just the few dozen glyphs it needs (a few KB) from
Noto Serif CJK TC Bold, which is under the SIL Open Font License 1.1 like the other
shipped fonts (``assets/fonts/OFL.txt``).

Build-time tool only: needs ``fonttools`` (pip install fonttools==4.55.3) and Debian's
``fonts-noto-cjk``.  Run from the repository root::

    /work/venv/bin/python bench/make_xiangqi_font.py

It prints the output size and the characters kept, and fails if one is missing.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
SOURCE_FACE = "Noto Serif CJK TC Bold"      # traditional-character face of the collection
OUTPUT = ROOT / "assets" / "fonts" / "xiangqi-pieces.otf"

#: Red and Black pieces (traditional), simplified alternates, river words.
RED_PIECES = "帥仕相傌俥炮兵"
BLACK_PIECES = "將士象馬車砲卒"
ALTERNATES = "帅将马车"
RIVER = "楚河漢界汉"
CHARACTERS = "".join(dict.fromkeys(RED_PIECES + BLACK_PIECES + ALTERNATES + RIVER))


def load_face(path: Path, face_name: str):
    """The face of a TrueType/OpenType collection whose full name is ``face_name``."""
    for face in TTCollection(str(path)).fonts:
        if face["name"].getDebugName(4) == face_name:
            return face
    raise SystemExit(f"{path}: no face named {face_name!r}")


def make_subset(source: Path, face_name: str, characters: str, output: Path) -> None:
    face = load_face(source, face_name)
    cmap = face.getBestCmap()
    missing = [c for c in characters if ord(c) not in cmap]
    if missing:
        raise SystemExit(f"{face_name} lacks {''.join(missing)}")
    options = subset.Options()
    options.layout_features = []          # no vertical forms, no locl: plain glyphs
    options.name_IDs = ["*"]              # keep the copyright and licence records
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(face)
    output.parent.mkdir(parents=True, exist_ok=True)
    face.save(str(output))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--face", default=SOURCE_FACE)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    make_subset(args.source, args.face, CHARACTERS, args.output)
    print(f"{args.output}: {args.output.stat().st_size} bytes, {len(CHARACTERS)} characters: {CHARACTERS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
