"""tests/compile_locks.py: a process waits while another live process holds a kernel's
lock, takes over the lock of a process that is gone, and reports its waits."""
import subprocess
import sys
import time
from pathlib import Path

from numba import types

from compile_locks import lock_key

TESTS = Path(__file__).resolve().parent
# a process that installs the locks, then compiles f(int64): prints the seconds the
# call took and the waits the hook saw
SCRIPT = f"""
import sys, time
sys.path.insert(0, {str(TESTS)!r})
import compile_locks
from numba import njit
waits = []
compile_locks.WAIT_HOOKS.append(lambda kernel, s: waits.append(kernel))
compile_locks.install(sys.argv[1])

@njit
def f(x):
    return x + 1

print("calling", flush=True)
t = time.monotonic()
assert f(1) == 2
print(time.monotonic() - t, waits)
"""


def _run(folder, release=None):
    """Run SCRIPT; ``release()`` once it is about to call f: the seconds the call took
    and the waits."""
    child = subprocess.Popen([sys.executable, "-c", SCRIPT, str(folder)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "calling\n", child.stderr.read()
    if release is not None:
        release()
    out, err = child.communicate(timeout=300)
    assert child.returncode == 0, err
    seconds, waits = out.split(" ", 1)
    return float(seconds), waits.strip()


def test_a_compile_waits_for_the_other_process_and_takes_a_dead_ones_lock(tmp_path):
    lock = tmp_path / lock_key("__main__.f", (types.int64,))
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        lock.write_text(str(holder.pid))
        seconds, waits = _run(tmp_path, lambda: (time.sleep(3), lock.unlink()))
    finally:
        holder.kill()
        holder.wait()
    assert seconds >= 3.0 and waits == "['__main__.f']"
    assert not lock.exists()
    # the holder is gone now: its lock is taken over at once, and removed after
    lock.write_text(str(holder.pid))
    seconds, waits = _run(tmp_path)
    assert waits == "[]" and not lock.exists()


def test_a_process_that_gives_way_does_not_wait(tmp_path):
    lock = tmp_path / lock_key("__main__.f", (types.int64,))
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    script = SCRIPT.replace("compile_locks.install(sys.argv[1])",
                            "compile_locks.install(sys.argv[1]); compile_locks.GIVE_WAY = True")
    try:
        lock.write_text(str(holder.pid))
        began = time.monotonic()
        child = subprocess.run([sys.executable, "-c", script, str(tmp_path)],
                               capture_output=True, text=True, timeout=120)
    finally:
        holder.kill()
        holder.wait()
    assert child.returncode != 0 and time.monotonic() - began < 60
    assert "compile_locks.Busy: __main__.f" in child.stderr
    assert lock.exists()        # the holder's lock is left alone
