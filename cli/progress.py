"""A command's heartbeat: a line on stderr at least every interval while it works.

Progress bars (``cli.main.Progress``) move when a chunk finishes; between two chunks,
while the kernels compile, or in a command that makes one long kernel call (``hand``,
``analyse``), nothing would be printed.  ``heartbeat(command)`` runs a small thread for
the command's duration that, whenever nothing was printed for ``interval`` seconds
(``TRICKSIM_PROGRESS_INTERVAL``, default 10), redraws the latest progress bar (with the
time elapsed) or, if there is none, says the command is still working.  On a terminal
and when piped alike; one line per report when stderr is not a terminal.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

import click

#: the commands that get a heartbeat (``play`` waits for its user: none)
COMMANDS = ("simulate", "sweep", "compare", "batch", "hand", "analyse")

#: the heartbeat of the command running now (None outside a command)
CURRENT: "Heartbeat | None" = None


def progress_interval(default: float = 10.0) -> float:
    """Seconds between progress reports: ``TRICKSIM_PROGRESS_INTERVAL`` or ``default``."""
    try:
        value = float(os.environ.get("TRICKSIM_PROGRESS_INTERVAL", default))
    except ValueError:
        return default
    return value if value >= 0 else default


def rate_text(rate: float) -> str:
    """A rate for a progress line: ``1,234`` or, below 10, ``2.5`` (a slow search)."""
    return f"{rate:,.1f}" if 0 < rate < 10 else f"{rate:,.0f}"


class Heartbeat:
    """The thread behind :func:`heartbeat`; ``printed()`` after any progress output."""

    def __init__(self, command: str, interval: float, tty: bool):
        self.command = command
        self.interval = interval
        self.tty = tty
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.bar = None                 # the Progress called last (cli.main.Progress)
        self.lock = threading.RLock()   # one writer at a time on stderr
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tricksim-heartbeat",
                                        daemon=True)

    def printed(self) -> None:
        """Something was just shown: the next beat is due an interval from now."""
        self.last = time.perf_counter()

    def _run(self) -> None:
        tick = max(0.01, min(0.5, self.interval / 4))
        while not self._stop.wait(tick):
            now = time.perf_counter()
            if now - self.last < self.interval:
                continue
            with self.lock:
                if self._stop.is_set():
                    return
                bar = self.bar
                if bar is None or not bar.beat():
                    self._line(now)
                self.last = time.perf_counter()

    def _line(self, now: float) -> None:
        from simcore.running.progress import decisions
        n = decisions() - self.decisions0
        done = f", {n:,} search decisions" if n else ""
        click.echo(f"{self.command}: working{done}, {now - self.t0:,.0f}s elapsed", err=True)

    def start(self) -> "Heartbeat":
        from simcore.running.progress import decisions
        self.decisions0 = decisions()
        self._thread.start()
        return self

    def stop(self) -> None:
        with self.lock:
            self._stop.set()
        self._thread.join(timeout=5)


@contextlib.contextmanager
def heartbeat(command: str, interval: float | None = None, tty: bool | None = None):
    """Keep ``command`` from going silent while the block runs (see the module's text);
    a no-op for commands not in :data:`COMMANDS`."""
    global CURRENT
    if command not in COMMANDS or CURRENT is not None:
        yield None
        return
    interval = progress_interval() if interval is None else interval
    # TRICKSIM_PROGRESS_INTERVAL=0 (a line per chunk): a heartbeat a second, not a flood
    beat = Heartbeat(command, interval if interval > 0 else 1.0,
                     sys.stderr.isatty() if tty is None else tty)
    CURRENT = beat.start()
    try:
        yield beat
    finally:
        beat.stop()
        CURRENT = None
