"""Work done, announced as a run learns it, for whoever shows progress (the CLI).

The runner's ``progress(done, total)`` callback counts games; the decisions that
searching players (``pimc``) took are the unit that moves on such a run, so the
runner announces them here as each chunk finishes (``report_decisions``) and the
command line's progress lines read the running count (``decisions``).  One counter
per process, safe to touch from any thread; nothing here changes a result.
"""
from __future__ import annotations

import threading

_lock = threading.Lock()
_decisions = 0


def report_decisions(n: int) -> None:
    """Count ``n`` more decisions taken by searching players (a chunk just finished)."""
    global _decisions
    if n > 0:
        with _lock:
            _decisions += int(n)


def decisions() -> int:
    """The searching players' decisions announced so far in this process."""
    with _lock:
        return _decisions
