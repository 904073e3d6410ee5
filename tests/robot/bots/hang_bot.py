"""Never answers: sleeps past any time limit (after writing a scratch file)."""
import time
open("junk.bin", "w").write("x")
time.sleep(30)
