"""A hostile contest program: ``hostile.py PROTOCOL MODE TARGETS_JSON``.

PROTOCOL is ``robot`` (MAP.INP -> MOVE.OUT once per turn), ``xiangqi`` (PLAY.INI, move
files; it plays the top side, does its trick on its first turn, then resigns with LOST),
``hex`` (HexLib lines; the trick on its first turn, then it plays the first free cell),
``tamquan`` (STATE.INP -> MOVE.OUT once per turn; the trick on its first run, then it
answers as the shipped example ``targets["example"]`` does) or ``crosswords`` (one run
a game: the trick, then the shipped example's output.txt) or ``engine`` (GTP, UCI or
UCCI: the trick at start, then it becomes the test engine ``targets["example"]``).
TARGETS_JSON names what the tricks aim at: ``opponent`` (the other seat's folder),
``canary`` (a folder of the user's files), ``arena`` (the arena's pid), ``marker`` (a
word put on every process it starts, so the test can find leftovers).

MODES: crash, silent (exit 0 without answering), late (sleep ``targets["late"]``
seconds, just past the limit, then answer), delete (remove its own files first), sleep, spin, output, longline, bigfile, half, rewrites, fifo, symlink,
directory, legallink (Robot: its answer file a link to a file of its own holding a legal
move, so a referee that followed links would take it), inlink (the next input file made a link to a user's file), forkbomb, alloc,
spy (read the other seat's and the user's files and the arena's environment, print
them), vandal (write into the other seat's folder and the user's folder, forge LOST),
kill (kill the other seat's process and the parent, signal the process group),
doublefork (a grandchild in its own session that would live on).
"""
import json
import os
import signal
import sys
import time

protocol, mode = sys.argv[1], sys.argv[2]
targets = json.loads(sys.argv[3])
MARKER = targets["marker"]


def own_answer_file():
    if protocol in ("robot", "tamquan"):
        return "MOVE.OUT"
    if protocol == "crosswords":
        return "output.txt"
    if protocol == "xiangqi":
        return play_ini()[5]
    return "HEX.ANSWER"


def play_ini():
    return [line.strip() for line in open("PLAY.INI").read().splitlines()]


def try_(action):
    try:
        action()
        return True
    except BaseException:      # noqa: the attack may fail in any way; that is the point
        return False


def trick():
    """The hostile part; returns normally when the program should go on answering."""
    if mode == "crash":
        sys.exit(3)
    if mode == "silent":                 # exit cleanly without answering
        sys.exit(0)
    if mode == "late":                   # answer just past the limit (targets["late"] s)
        time.sleep(float(targets.get("late", 2.0)))
    if mode == "delete":                 # delete its own files, then answer
        for name in os.listdir("."):
            try_(lambda: os.remove(name))
    if mode == "sleep":
        time.sleep(120)
    if mode == "spin":
        while True:
            pass
    if mode == "output":
        block = b"x" * (1 << 20)
        for _ in range(100):
            os.write(1, block)
            os.write(2, block[:1 << 18])
        os.write(1, b"\n")
    if mode == "longline":
        block = b"y" * (1 << 20)
        for _ in range(100):
            os.write(1, block)
        os.write(1, b"\n" + b"put 0 0\n" * 20_000)      # then a flood of short lines
    if mode == "bigfile":
        with open("BIG.DAT", "wb") as fh:
            for _ in range(2048):
                fh.write(b"z" * (1 << 20))
    if mode == "half":
        with open(own_answer_file(), "w") as fh:
            fh.write({"robot": "1", "tamquan": "1 2", "crosswords": "12\nAB"}.get(protocol, "A"))
            fh.flush()
            time.sleep(120 if protocol == "xiangqi" else 0)
        sys.exit(0)
    if mode == "rewrites":
        name = own_answer_file()
        for i in range(500):
            with open(name, "w") as fh:
                fh.write(f"{i} {i}\n" if protocol == "robot" else f"E{i % 10}E{(i + 1) % 10}\n")
    if mode in ("fifo", "symlink", "directory"):
        name = own_answer_file()
        try_(lambda: os.unlink(name))
        if mode == "fifo":
            os.mkfifo(name)
        elif mode == "symlink":
            os.symlink(os.path.join(targets["canary"], "secret.txt"), name)
        else:
            os.mkdir(name)
        if protocol == "xiangqi":
            time.sleep(120)
        sys.exit(0)
    if mode == "legallink" and protocol == "robot":
        words = open("MAP.INP").read().split()
        with open("MOVE.REAL", "w") as fh:
            fh.write(("2 2" if words[4] == "-1" else f"{words[4]} {words[5]}") + "\n")
        try_(lambda: os.unlink("MOVE.OUT"))
        os.symlink("MOVE.REAL", "MOVE.OUT")
        sys.exit(0)
    if mode == "inlink":
        for name in ("MAP.INP", "PLAY.INI", "M1.DAT", "M2.DAT", "STATE.INP", "input.txt",
                     "seconds.txt"):
            try_(lambda: os.unlink(name))
            try_(lambda: os.symlink(os.path.join(targets["canary"], "secret.txt"), name))
        try_(lambda: os.mkfifo("fifo-in-folder"))
    if mode == "forkbomb":
        children = 0
        deadline = time.time() + 0.4
        while time.time() < deadline:
            try:
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                children += 1
            except OSError:
                time.sleep(0.01)
        print("children", children, flush=True)
        sys.exit(5)
    if mode == "alloc":
        try:
            hog = bytearray(4 << 30)
            hog[::4096] = b"x" * len(hog[::4096])
        except MemoryError:
            sys.exit(7)
    if mode == "spy":
        found = []
        opponent = targets["opponent"]
        for name in ("STATE.DAT", "REPORT.TXT", "M1.DAT", "M2.DAT", "MOVE.OUT", "PLAY.INI",
                     "STATE.INP", "input.txt", "output.txt"):
            try_(lambda: found.append(open(os.path.join(opponent, name)).read()))
        try_(lambda: found.append(open(os.path.join(targets["canary"], "secret.txt")).read()))
        try_(lambda: found.append(open(f"/proc/{targets['arena']}/environ").read()))
        try_(lambda: found.append(open(f"/proc/{os.getppid()}/environ").read()))
        print("SPY:" + repr(found)[:20000], flush=True)
    if mode == "vandal":
        opponent = targets["opponent"]
        for name in ("MOVE.OUT", "STATE.DAT", "M1.DAT", "M2.DAT", "MAP.INP", "STATE.INP"):
            try_(lambda: open(os.path.join(opponent, name), "w").write("LOST\n-1\n-1\n"))
        try_(lambda: os.mkdir(os.path.join(opponent, "MOVE.OUT.d")))
        try_(lambda: open(os.path.join(targets["canary"], "secret.txt"), "w").write("vandalised"))
        try_(lambda: open(os.path.join(targets["canary"], "new.txt"), "w").write("vandalised"))
        try_(lambda: open(os.path.join(targets["home"], "arena-hostile-was-here"), "w").write("x"))
    if mode == "kill":
        for pid in os.listdir("/proc"):
            if pid.isdigit() and int(pid) != os.getpid():
                try:
                    cmd = open(f"/proc/{pid}/cmdline", "rb").read()
                except OSError:
                    continue
                if targets["opponent_word"].encode() in cmd:
                    try_(lambda: os.kill(int(pid), signal.SIGKILL))
        try_(lambda: os.kill(targets["arena"], signal.SIGKILL))
        try_(lambda: os.kill(os.getppid(), signal.SIGKILL))
        try_(lambda: os.killpg(os.getpgid(os.getppid()), signal.SIGKILL))
        try_(lambda: os.killpg(targets["arena"], signal.SIGKILL))
    if mode == "doublefork":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execvp(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)",
                                           MARKER])
            os._exit(0)
        os.wait()


# ---------------------------------------------------------------------- the protocols
def robot():
    words = open("MAP.INP").read().split()
    x, y = words[4], words[5]
    first = not os.path.exists("STATE.DAT")
    open("STATE.DAT", "w").write("seen\n")
    if first:
        trick()
    with open("MOVE.OUT", "w") as fh:
        fh.write(("2 2" if x == "-1" else f"{x} {y}") + "\n")


def xiangqi():
    ini = play_ini()
    own, other = ini[5], ini[4]          # the top side: its file is line 6
    last = None
    while True:                          # wait for the bottom's first move
        try:
            text = open(other).read()
        except OSError:
            text = None
        if text and text == last:
            break
        last = text
        time.sleep(0.02)
    trick()
    try_(lambda: os.unlink(own))         # the trick may have left a link there
    with open(own, "w") as fh:
        fh.write("LOST\n-1\n-1\n")
    time.sleep(30)                       # the referee ends the game and the program


def hex_():
    def read():
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)
        return line.split()

    def send(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    board = set()
    words = read()
    while words[0] != "start":
        words = read()
    n = int(words[1])
    for r in range(1, n + 1):
        for c, ch in enumerate(sys.stdin.readline().strip(), start=1):
            if ch != ".":
                board.add((r, c))
    turn = 0
    while True:
        words = read()
        if words[0] == "move":
            board.add((int(words[1]), int(words[2])))
        elif words[0] == "end":
            return
        elif words[0] == "yourturn":
            turn += 1
            if turn == 1:
                trick()
            cell = next((r, c) for r in range(1, n + 1) for c in range(1, n + 1)
                        if (r, c) not in board)
            send(f"put {cell[0]} {cell[1]}")
            while True:
                answer = read()
                if answer[0] in ("ok", "error"):
                    break
                if answer[0] == "end":
                    return
            board.add(cell)
            send("done")


def run_example(path):
    """Answer as the shipped example program does (after the trick)."""
    import runpy
    runpy.run_path(path, run_name="__main__")


def tamquan():
    first = not os.path.exists("seen")
    open("seen", "w").write("x")
    state = open("STATE.INP").read()       # read first, as a program does
    if first:
        trick()
        try_(lambda: os.unlink("STATE.INP"))
        try_(lambda: open("STATE.INP", "w").write(state))
    run_example(targets["example"])


def crosswords():
    trick()
    run_example(targets["example"])


def engine():
    """GTP, UCI or UCCI: the trick at start, then the real engine (``example``: its
    command as a list) takes over this process."""
    trick()
    command = targets["example"]
    os.execv(command[0], command)


{"robot": robot, "xiangqi": xiangqi, "hex": hex_, "tamquan": tamquan,
 "crosswords": crosswords, "engine": engine}[protocol]()
