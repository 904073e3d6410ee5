"""The output pump (runner.output.OutputPump): one thread drains the output of every
run of the warm sandbox, kept as a reader thread keeps it, with no thread a run."""
import os
import subprocess
import sys
import threading

from runner.output import TAIL_BYTES, OutputPump, PumpedOutput, _OutputReader


def pumped_run(code: str) -> tuple[subprocess.Popen, PumpedOutput]:
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    output = PumpedOutput(proc.stdout)
    output.start()
    return proc, output


def test_many_streams_are_drained_at_once_and_each_ends_at_its_end():
    code = "import sys; sys.stdout.write('{}' * 300000); sys.stdout.flush()"
    runs = [pumped_run(code.replace("{}", letter)) for letter in "abcdef"]
    for proc, output in runs:
        assert proc.wait(timeout=30) == 0          # 300 KB each: more than a pipe holds
        output.join(10)
        assert not output.is_alive()
    for (proc, output), letter in zip(runs, "abcdef"):
        assert output.total == 300000
        text = output.text()
        assert text.startswith(letter * TAIL_BYTES) and text.endswith(letter * TAIL_BYTES)
        assert f"[... {300000 - 2 * TAIL_BYTES} bytes left out ...]" in text


def test_a_pumped_stream_is_kept_as_a_reader_thread_keeps_it():
    code = "import sys\nfor i in range(3000): print('line', i)"
    proc, pumped = pumped_run(code)
    threaded_proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    threaded = _OutputReader(threaded_proc.stdout)
    threaded.start()
    proc.wait(timeout=30), threaded_proc.wait(timeout=30)
    pumped.join(10), threaded.join(10)
    assert pumped.text() == threaded.text()
    assert pumped.since(100) == threaded.since(100)
    assert pumped.since(0, limit=50) == threaded.since(0, limit=50)


def test_streams_start_no_thread_once_the_pump_runs():
    OutputPump.shared()
    before = threading.active_count()
    runs = [pumped_run("print('hello')") for _ in range(5)]
    during = threading.active_count()
    for proc, output in runs:
        proc.wait(timeout=30)
        output.join(10)
        assert output.text() == "hello\n"
    assert during == before


def test_a_forked_child_gets_a_pump_of_its_own():
    parent_pump = OutputPump.shared()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the parent's pump thread is not here
        try:
            proc, output = pumped_run("print('from the child')")
            proc.wait(timeout=30)
            output.join(10)
            ok = output.text() == "from the child\n" and OutputPump.shared() is not parent_pump
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    os.close(read)
    assert answer == b"1"
