"""Under a plain ``arena match xiangqi``, a program that never answers meets its verdict
at the match's clock (option ``time_total``) or per-move limit (``time_per_move``), not
after the 15-minute move rule (RULES.md, "Time")."""
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NEVER = "import time\ntime.sleep(3600)\n"


def run_cli(tmp_path: Path, *options: str) -> tuple[dict, float, str]:
    program = tmp_path / "never_answers.py"
    program.write_text(NEVER)
    out = tmp_path / "out"
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "match", "xiangqi", "--headless",
         "--seat", f"ext:{sys.executable} {program}", "--seat", "bot:1", "--seed", "1",
         "--out", str(out), *[f"--option={o}" for o in options]],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    took = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    return json.loads((out / "result.json").read_text()), took, done.stdout


def test_a_silent_program_meets_the_flag_fall_at_its_clock(tmp_path):
    result, took, stdout = run_cli(tmp_path, "time_total=3")
    assert took < 40, f"the verdict took {took:.0f} s"
    # The opponent has 5 minutes or less: a draw unless a side can force mate (RULES.md).
    assert "ran out of time" in stdout, stdout
    assert result["reason"] == "timeout" and result["winners"] == [], result


def test_a_silent_program_loses_at_the_per_move_limit(tmp_path):
    result, took, stdout = run_cli(tmp_path, "time_total=900", "time_per_move=2")
    assert took < 40, f"the verdict took {took:.0f} s"
    assert result["reason"] == "timeout", result
    assert result["winners"] == [1], result

