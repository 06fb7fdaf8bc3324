"""One compile of a kernel at a time across a test session's processes.

A whole-suite run compiles kernels in two processes: the tests and the warm-up
(tests/_warm_kernels.py). Without coordination both may compile the same kernel at
once when their paths cross (a cold cache: both miss it), and on two cores that
wastes one. ``install(folder)`` wraps numba's ``Dispatcher.compile`` so that a
process takes a lock file in ``folder`` (named by the kernel and its argument types)
before it loads or compiles a specialization: a second process that needs the same
one waits for the lock to go, then loads what the first saved to numba's cache.

A lock whose process is gone is taken over; a wait longer than ``MAX_WAIT`` seconds
gives up and compiles (as without the locks). Waits cannot form a cycle: a process
waits while holding only the locks of the kernels whose compile led to this one (its
callers), and the other process, compiling this kernel, would need one of them only
if the call graph had a cycle. A compile already done in this process takes no lock.

The warm-up sets ``GIVE_WAY`` while it compiles ahead: a kernel the tests are compiling
is one they are about to use, so rather than wait for it (47 s idle in one cold run),
the warm-up drops that step (``Busy``) and goes on with the next.
"""
from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

#: seconds a process waits for another's compile before compiling itself
MAX_WAIT = 900.0
#: functions called ``hook(kernel, seconds)`` after each wait (tests/compile_log.py)
WAIT_HOOKS: list = []

#: raise ``Busy`` instead of waiting for a kernel another process is compiling
GIVE_WAY = False

_held: set = set()


class Busy(Exception):
    """Another live process is compiling this kernel, and this one gives way."""


def kernel_name(dispatcher) -> str:
    """``module.qualname`` of a jitted function."""
    return f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"


def lock_key(kernel: str, args) -> str:
    """The lock file's name of ``kernel`` (``kernel_name``) for argument types ``args``."""
    return hashlib.sha1(f"{kernel}{tuple(args)}".encode()).hexdigest()[:24]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _take(lock: Path) -> tuple[float, bool]:
    """Create ``lock`` (holding this process's id), waiting while another live process
    holds it: the seconds waited, and False if the wait gave up (lock not taken)."""
    began = time.monotonic()
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileNotFoundError:           # the folder is gone (the session ended)
            return time.monotonic() - began, False
        except FileExistsError:
            try:
                pid = int(lock.read_text() or 0)
            except (OSError, ValueError):
                pid = 0                     # being written or just removed: look again
            if pid and not _alive(pid):
                lock.unlink(missing_ok=True)
                continue
            if pid and GIVE_WAY:
                raise Busy(lock.name)
            if time.monotonic() - began > MAX_WAIT:
                return time.monotonic() - began, False  # compile it here after all
            time.sleep(0.05)
            continue
        with os.fdopen(fd, "w") as fh:
            fh.write(str(os.getpid()))
        return time.monotonic() - began, True


def install(folder) -> None:
    """Take a lock in ``folder`` around every load or compile of a kernel
    specialization in this process (see the module doc)."""
    from numba.core import dispatcher, sigutils
    original = dispatcher.Dispatcher.compile
    if getattr(original, "_locked", False):
        return
    folder = Path(folder)

    def compile(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in self.overloads:
            return original(self, sig)
        kernel = kernel_name(self)
        key = lock_key(kernel, args)
        if key in _held:                    # another thread of this process has it
            return original(self, sig)
        lock = folder / key
        try:
            waited, owned = _take(lock)
        except Busy:
            raise Busy(kernel) from None
        if waited > 0.1:
            for hook in WAIT_HOOKS:
                hook(kernel, waited)
        if not owned:
            return original(self, sig)
        _held.add(key)
        try:
            return original(self, sig)
        finally:
            _held.discard(key)
            lock.unlink(missing_ok=True)

    compile._locked = True
    dispatcher.Dispatcher.compile = compile
