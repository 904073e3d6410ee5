"""The guard: a small process that outlives a killed arena just long enough to kill the
programs it left.  Its stdin is a pipe only the arena holds; end of file means the
arena is gone (``kill -9`` included), whatever the level.  While programs run it
notes the arena's direct children (its programs and, the arena being their subreaper,
every orphan they left: a double-forked ``setsid`` child included) with their start
times, twenty times a second, and at the end kills those and everything below them,
and only those (a process orphaned in the last 50 ms before the arena died can be
missed).  The arena tells it when programs start
(``+PID``) and end (``-PID``).  It guards only its parent (the arena that started it)
and notes only processes younger than the arena: nothing else is ever killed.  A
``+PID`` naming no program's group (PID 0 or 1, the arena itself, its own process group
or the guard's) is ignored, so a slip can never make it kill the arena's terminal or
the machine's first process group.

    python guard.py ARENA_PID        (stdin: a pipe only the arena holds)

Started by :mod:`runner.process_tree` (``_guard_note``) with the arena's own Python.
"""
import os
import select
import signal
import sys

if __name__ == "__main__" and sys.path and sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]            # runner/ itself is not a place to import from

import psutil


def protected_groups(arena: int, me: int) -> set[int]:
    """Process ids the guard never kills a group of: 0 and 1, the arena, the guard, and
    the process groups both are in (the arena's may be its terminal's)."""
    never = {0, 1, arena, me}
    for pid in (arena, me):
        try:
            never.add(os.getpgid(pid))
        except OSError:
            pass
    return never


def main() -> None:
    arena, me, fd = int(sys.argv[1]), os.getpid(), sys.stdin.fileno()
    if arena <= 1 or os.getppid() != arena:
        sys.exit(0)          # only the arena that started it may be guarded
    born = psutil.Process(arena).create_time()
    never = protected_groups(arena, me)
    live, known, pending = set(), {}, b""
    def children():
        # The arena's direct children: its programs, and (the arena being their subreaper)
        # every orphan a program left, a double fork included.  Read from /proc, cheaply.
        found = set()
        try:
            for tid in os.listdir(f"/proc/{arena}/task"):
                with open(f"/proc/{arena}/task/{tid}/children") as fh:
                    found.update(int(word) for word in fh.read().split())
            return found
        except (OSError, ValueError):
            try:
                return {proc.pid for proc in psutil.Process(arena).children()}
            except psutil.Error:
                return set()
    def note():
        for pid in children() - known.keys() - {me}:
            try:
                started = psutil.Process(pid).create_time()
            except psutil.Error:
                continue
            if started >= born:          # the arena's own descendants only
                known[pid] = started
        for pid in [p for p in known if not psutil.pid_exists(p)]:
            del known[pid]
    while True:
        ready = select.select([fd], [], [], 0.05 if live else None)[0]
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                if line[:1] == b"+" and int(line[1:]) not in never:
                    live.add(int(line[1:]))
                elif line[:1] == b"-":
                    live.discard(int(line[1:]))
            if not live:
                known.clear()
        if live:
            note()
    doomed = []
    for pid, started in known.items():
        try:
            proc = psutil.Process(pid)
            if proc.create_time() == started:
                doomed += [proc, *proc.children(recursive=True)]
        except psutil.Error:
            pass
    for proc in doomed:
        try:
            proc.kill()
        except psutil.Error:
            pass
    for pid in live:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


if __name__ == "__main__":
    main()
