"""Running external programs: limits, whole-tree kill, bounded output, no shell."""
import os
import sys
import textwrap
import time

import psutil
import pytest

from games.fileio import OpenFolder, atomic_write
from runner.process import TAIL_BYTES, LineProcess, run_once, split_command

PY = sys.executable


def script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return [PY, str(path)]


def test_run_once_reports_a_clean_exit_and_output(tmp_path):
    result = run_once(script(tmp_path, "ok.py", "print('hello'); import sys; print('oops', file=sys.stderr)"),
                      tmp_path, timeout=10)
    assert result.returncode == 0 and not result.timed_out and not result.crashed
    assert result.stdout.strip() == "hello" and result.stderr.strip() == "oops"


def test_time_out_kills_the_whole_process_tree(tmp_path):
    # The child's pid may be a sandbox namespace's: it is found by a marker instead.
    marker = f"arena-test-child-{os.getpid()}-{time.monotonic_ns()}"
    cmd = script(tmp_path, "hang.py", f"""
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", {marker!r}])
        time.sleep(60)
    """)
    start = time.perf_counter()
    result = run_once(cmd, tmp_path, timeout=1.0)
    assert result.timed_out and 1.0 <= result.elapsed < 5
    assert time.perf_counter() - start < 8
    time.sleep(0.2)
    left = [p for p in psutil.process_iter(["cmdline", "status"])
            if marker in (p.info["cmdline"] or []) and p.info["status"] != psutil.STATUS_ZOMBIE]
    assert not left


def test_crash_is_reported_with_its_exit_code(tmp_path):
    result = run_once(script(tmp_path, "crash.py", "raise SystemExit(3)"), tmp_path, timeout=10)
    assert result.crashed and result.returncode == 3 and "code 3" in result.describe()


def test_missing_program_is_an_error_not_an_exception(tmp_path):
    result = run_once([str(tmp_path / "nope")], tmp_path, timeout=5)
    assert result.crashed and "could not start" in result.error


def test_output_is_bounded(tmp_path):
    result = run_once(script(tmp_path, "spam.py", "import sys\nfor i in range(200000): sys.stdout.write('x' * 50 + '\\n')"),
                      tmp_path, timeout=20)
    assert len(result.stdout) <= 2 * TAIL_BYTES + 60 and "bytes left out ...]" in result.stdout
    assert result.stdout.startswith("x" * 50 + "\n") and result.stdout.endswith("x" * 50 + "\n")


def test_memory_cap_stops_a_greedy_program(tmp_path):
    result = run_once(script(tmp_path, "greedy.py", "x = bytearray(900 * 1024 * 1024)\nprint('got it')"),
                      tmp_path, timeout=20, memory_mb=300)
    assert result.crashed and "got it" not in result.stdout


def test_no_shell_is_involved(tmp_path):
    assert split_command("prog 'a b' c") == ["prog", "a b", "c"]
    result = run_once([PY, "-c", "import sys; print(sys.argv[1])", "$HOME;echo hi"], tmp_path, timeout=10)
    assert result.stdout.strip() == "$HOME;echo hi"


def test_line_process_exchanges_lines_and_times_out(tmp_path):
    proc = LineProcess(script(tmp_path, "echo.py", """
        import sys
        for line in sys.stdin:
            if line.strip() == 'quiet':
                continue
            print('got ' + line.strip(), flush=True)
    """), cwd=tmp_path)
    try:
        assert proc.send("one")
        assert proc.read_line(5) == "got one"
        proc.send("quiet")
        assert proc.read_line(0.3) is None
    finally:
        proc.close()
    assert proc.exited


def test_output_printed_before_a_move_file_is_in_the_tail_when_the_file_is_seen(
        tmp_path, monkeypatch):
    """A program prints, then writes its move file; the referee sees the file at once.
    The line must be in the record even when the reader thread is slow to wake (made
    slow here on purpose), as it is on a busy machine."""
    import runner.process as process
    if process._FIONREAD is None:
        pytest.skip("settling output needs FIONREAD (POSIX)")
    woken = process._wait_readable

    def slow_to_wake(fd):
        woken(fd)
        time.sleep(0.1)

    monkeypatch.setattr("runner.output._wait_readable", slow_to_wake)
    proc = LineProcess(script(tmp_path, "mover.py", """
        import os, sys, time
        print('thinking hard', flush=True)
        sys.stderr.write('depth 9\\n'); sys.stderr.flush()
        open('MOVE.tmp', 'w').write('a0a1\\n'); os.replace('MOVE.tmp', 'MOVE')
        time.sleep(30)
    """), cwd=tmp_path, stdout_lines=False)
    try:
        deadline = time.monotonic() + 10
        while not (tmp_path / "MOVE").exists() and time.monotonic() < deadline:
            time.sleep(0.001)
        assert "thinking hard" in proc.stdout_tail()
        assert "depth 9" in proc.stderr_tail()
    finally:
        proc.kill()


def _reader_fed(*chunks: bytes):
    """An output reader that has kept ``chunks`` as if it had read them from a pipe."""
    from runner.process import _OutputReader
    reader = _OutputReader(None)
    for chunk in chunks:
        reader.total += len(chunk)
        reader._keep(chunk)
    return reader


def test_output_since_a_mark_is_what_came_after_it():
    reader = _reader_fed(b"turn 1\n", b"turn 2\n")
    first, mark = reader.since(0)
    assert first == "turn 1\nturn 2\n" and mark == 14
    reader.total += 7
    reader._keep(b"turn 3\n")
    assert reader.since(mark) == ("turn 3\n", 21)
    assert reader.since(21) == ("", 21)


def test_output_since_a_mark_says_how_much_scrolled_out_or_passed_the_limit():
    big = b"x" * (3 * TAIL_BYTES)
    reader = _reader_fed(b"a" * 10, big, b"last\n")
    text, mark = reader.since(10)         # the first TAIL_BYTES of big are in the head, then dropped
    assert mark == 10 + len(big) + 5
    kept = text.split("...]\n", 1)[1]
    assert kept.endswith("last\n") and len(kept) <= TAIL_BYTES + 5
    assert text.startswith(f"[... {len(big) + 5 - len(kept)} bytes left out ...]")
    short, _ = reader.since(10 + len(big) - 3, limit=4)
    assert short == "[... 4 bytes left out ...]\nast\n"


def test_each_turn_gets_only_its_own_output(tmp_path):
    proc = LineProcess(script(tmp_path, "turns.py", """
        import sys
        for line in sys.stdin:
            sys.stderr.write('thought about ' + line); sys.stderr.flush()
            print('answer ' + line.strip(), flush=True)
    """), cwd=tmp_path, stdout_lines=True)
    try:
        for word in ("one", "two"):
            proc.send(word)
            assert proc.read_line(5) == f"answer {word}"
            assert proc.take_stderr() == f"thought about {word}\n"
        assert proc.take_stderr() == ""
    finally:
        proc.close()


def test_new_files_are_removed_except_kept_ones(tmp_path):
    (tmp_path / "MAP.INP").write_text("x")
    with OpenFolder(tmp_path) as folder:
        before = folder.entries()
        for name in ("MOVE.OUT", "STATE.DAT", "junk.tmp"):
            (tmp_path / name).write_text("y")
        removed, left = folder.remove_new(before, keep=["move.out", "STATE.DAT"])
    assert removed == ["junk.tmp"] and left == {"MAP.INP", "MOVE.OUT", "STATE.DAT"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MAP.INP", "MOVE.OUT", "STATE.DAT"]


def test_atomic_write_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "PLAY.INI"
    atomic_write(target, "COMPUTER\nOTHER\n")
    atomic_write(target, "HUMAN\nOTHER\n")
    assert target.read_text() == "HUMAN\nOTHER\n"
    assert os.listdir(tmp_path) == ["PLAY.INI"]


def test_program_files_are_never_followed_waited_on_or_read_whole(tmp_path):
    import pytest
    from games.fileio import UnsafeFileError, read_untrusted, remove_untrusted, replace_file
    outside = tmp_path / "outside.txt"
    outside.write_text("the user's file")
    seat = tmp_path / "seat"
    seat.mkdir()
    os.symlink(outside, seat / "MAP.INP")
    replace_file(seat, "MAP.INP", "map", atomic=False)            # replaces the link itself
    assert outside.read_text() == "the user's file" and (seat / "MAP.INP").read_text() == "map"
    os.mkfifo(seat / "MOVE.OUT")
    with pytest.raises(UnsafeFileError):                            # a FIFO: no waiting
        read_untrusted(seat, "MOVE.OUT", 10)
    remove_untrusted(seat, "MOVE.OUT")
    (seat / "MOVE.OUT").mkdir()
    with pytest.raises(UnsafeFileError):
        read_untrusted(seat, "MOVE.OUT", 10)
    replace_file(seat, "MOVE.OUT", "1 2\n")                         # a folder in the way
    assert read_untrusted(seat, "MOVE.OUT", 2) == b"1 2"            # limit + 1 bytes at most
    os.symlink(tmp_path, seat / "sub")
    replace_file(seat, "sub/a.txt", "x")                            # a linked folder on the way
    assert not (tmp_path / "a.txt").exists() and not (seat / "sub").is_symlink()


@pytest.mark.parametrize("level", ["basic", "strict"])
def test_a_line_program_that_exits_leaving_children_on_its_output_ends_at_once(tmp_path, level):
    """A program that prints, starts children holding its stdout and exits has ended:
    the next read says so within a second, not at its deadline (a fork-bombing engine
    kept a 60 s handshake waiting for 60 s at the basic level), and the children die."""
    from runner.sandbox import Sandbox, strict_problem
    if level == "strict" and strict_problem():
        pytest.skip(f"strict sandbox unavailable here: {strict_problem()}")
    proc = LineProcess(script(tmp_path, "forker.py", """
        import os, sys, time
        for _ in range(3):
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
        print('ready', flush=True)
        sys.exit(5)
    """), cwd=tmp_path, sandbox=Sandbox(level_name=level))
    try:
        assert proc.read_line_by(time.perf_counter() + 20) == ("ready", "")
        start = time.perf_counter()
        assert proc.read_line_by(time.perf_counter() + 20) == (None, "eof")
        assert time.perf_counter() - start < 5
    finally:
        proc.kill()
    left = [p for p in psutil.process_iter(["cmdline"]) if "forker.py" in " ".join(p.info["cmdline"] or [])]
    assert not left, left
