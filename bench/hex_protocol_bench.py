"""How much the HexLib line protocol costs per turn, and how fast the solver proves positions.

    /work/venv/bin/python bench/hex_protocol_bench.py

Builds the C example and a trivial C program (first free cell) with gcc, plays headless
matches between programs, and prints wall time per turn (arena + both programs; the
trivial program thinks for microseconds, so its figure is the protocol's overhead).
"""
from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.hex.rules import HexGame  # noqa: E402
from games.hex.solver import Solver, side_to_move_wins  # noqa: E402
from games.hex.start_positions import list_positions  # noqa: E402
from games.registry import plugin  # noqa: E402
from runner.match import Match, TimeControl  # noqa: E402
from runner.seats import make_seat  # noqa: E402

LIB = ROOT / "games" / "hex" / "lib"
TRIVIAL = r"""
#include "hexlib.h"
int main(void) {
    int n = GetMax(), r, c, done;
    while (!GameIsOver()) {
        done = 0;
        for (c = 1; c <= n && !done; c++)
            for (r = 1; r <= n && !done; r++)
                if (LookAtBoard(r, c) == 0) { PutHex(r, c); done = 1; }
        if (GameIsOver()) break;
        MakeLibMove();
    }
    return 0;
}
"""


def build(folder: Path) -> dict[str, str]:
    gcc = shutil.which("gcc")
    if gcc is None:
        sys.exit("gcc is needed for this benchmark")
    (folder / "trivial.c").write_text(TRIVIAL)
    programs = {"example": ROOT / "games" / "hex" / "examples" / "testhex.c", "trivial": folder / "trivial.c"}
    built = {}
    for name, source in programs.items():
        exe = folder / name
        subprocess.run([gcc, "-O2", "-o", str(exe), str(source), str(LIB / "hexlib.c"), "-I", str(LIB)],
                       check=True)
        built[name] = str(exe)
    return built


def timed_match(specs: list[str], size: int, seed: int = 1) -> tuple[int, float, str]:
    hex_plugin = plugin("hex")
    seats = [make_seat(spec, hex_plugin, seed) for spec in specs]
    match = Match(hex_plugin, {"size": size}, seats, seed=seed, time_control=TimeControl())
    start = time.perf_counter()
    outcome = match.run()
    return len(match.turns), time.perf_counter() - start, outcome.reason.value


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(Path(tmp))
        python_example = " ".join(shlex.quote(x) for x in
                                  (sys.executable, str(ROOT / "games/hex/examples/shortest_path.py")))
        cases = [
            ("trivial C vs trivial C, 20x20", [f"ext:{exe['trivial']}"] * 2, 20),
            ("C example vs C example, 11x11", [f"ext:{exe['example']}"] * 2, 11),
            ("C example vs random bot, 11x11", [f"ext:{exe['example']}", "bot:1"], 11),
            ("Python example vs random bot, 11x11", [f"ext:{python_example}", "bot:1"], 11),
        ]
        print(f"{'match':40s} {'turns':>6s} {'seconds':>8s} {'ms/turn':>8s}  end")
        for label, specs, size in cases:
            turns, seconds, reason = timed_match(specs, size)
            print(f"{label:40s} {turns:6d} {seconds:8.2f} {1000 * seconds / turns:8.2f}  {reason}")
    print()
    print(f"{'position (exhaustive proof)':40s} {'nodes':>8s} {'seconds':>8s}")
    for position in list_positions():
        if position.size > 6:
            continue
        state = HexGame().new_initial_state(position.options(), seed=0)
        solver = Solver(position.size)
        start = time.perf_counter()
        assert side_to_move_wins(state, solver)
        print(f"{position.name:40s} {solver.nodes:8d} {time.perf_counter() - start:8.2f}")


if __name__ == "__main__":
    main()
