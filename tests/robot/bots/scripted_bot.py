"""Does on each turn what its arguments say: argument T+1 is turn T's action (the last
one repeats).  Places itself on the cell given by ``at=X,Y`` (default 1,1), then stays.

Actions:
  stay        answer at once
  sleep=S     sleep S seconds, then answer; the run's start and end times (time.time())
              are added to STATE.DAT as a line ``start end``
  late=TOKEN  fork a child, note ``forked PARENT CHILD`` (their pids) in STATE.DAT, then
              both become ``python -c sleep(60) TOKEN-late``: a process tree that never
              answers, findable by its command line
  orphan=TOKEN  leave a double-forked orphan in a session of its own that holds the
              program's stdout and stderr open (``python -c sleep(30) TOKEN-orphan``),
              then answer at once
  quiet-orphan=TOKEN  the same orphan, its output sent to /dev/null: no open output
              tells the judge it is there (only the orphan sweep finds it)
  look=TOKEN  note ``alive N`` in STATE.DAT: how many ``TOKEN-orphan`` processes run
              now, as this program starts (read from /proc), then answer
  exit=N      exit with code N, writing nothing
  kill        kill itself with SIGKILL, writing nothing
  silent      exit 0, writing nothing
  scratch     answer, and leave a file scratch.tmp behind (the judge deletes it)
Every run also appends the turn number to STATE.DAT's first line (``runs: 0 1 ...``).
"""
import os
import signal
import sys
import time

START = time.time()
words = [w for w in sys.argv[1:] if not w.startswith("at=")]
place = next((w[3:] for w in sys.argv[1:] if w.startswith("at=")), "1,1").replace(",", " ")
lines = open("MAP.INP").read().split("\n")
turn = int(lines[0].split()[3])
x, y, _ = lines[1].split()
move = place if x == "-1" else f"{x} {y}"
action, _, value = (words[min(turn, len(words) - 1)] if words else "stay").partition("=")

log = open("STATE.DAT").read().splitlines() if os.path.exists("STATE.DAT") else ["runs:"]
log[0] += f" {turn}"


def answer():
    open("STATE.DAT", "w").write("\n".join(log) + "\n")
    open("MOVE.OUT", "w").write(move + "\n")


if action == "sleep":
    time.sleep(float(value))
    log.append(f"{START} {time.time()}")
    answer()
elif action == "late":
    child = os.fork()
    if child:
        log.append(f"forked {os.getpid()} {child}")
        open("STATE.DAT", "w").write("\n".join(log) + "\n")
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", f"{value}-late"])
elif action == "orphan":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(30)",
                                      f"{value}-orphan"])
        os._exit(0)
    os.wait()
    answer()
elif action == "quiet-orphan":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            quiet = os.open(os.devnull, os.O_RDWR)
            for stream in (0, 1, 2):
                os.dup2(quiet, stream)
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(30)",
                                      f"{value}-orphan"])
        os._exit(0)
    os.wait()
    answer()
elif action == "look":
    alive = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            alive += f"{value}-orphan".encode() in open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            pass
    log.append(f"alive {alive}")
    answer()
elif action == "exit":
    raise SystemExit(int(value))
elif action == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
elif action == "silent":
    pass
elif action == "scratch":
    open("scratch.tmp", "w").write("scratch")
    answer()
else:
    answer()
