"""Shared helpers of the benchmark scripts: timing medians and writing results."""
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numba

RESULTS = Path(__file__).resolve().parent.parent / "results" / "benchmarks"


def median_time(fn, repeats, clock=time.perf_counter):
    """Median time of ``fn()`` over ``repeats`` runs (after one warm-up call).

    ``clock=time.process_time`` measures CPU time: on one thread that is the
    per-core cost, which a busy shared machine disturbs far less than wall time.
    """
    fn()
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times), times


def load_note(what="CPU time of one thread") -> str:
    """``what`` with the machine's load average over the last minute, read at the call
    (a loaded machine measures slower: the figure says how busy it was)."""
    import os
    return (f"{what}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
            "when the run ended")


def machine():
    """What the figures were measured on."""
    return {"cpu_count": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS,
            "python": platform.python_version(), "numba": numba.__version__,
            "machine": platform.machine(), "processor": platform.processor()}


def write(name, payload, path=None):
    """Write results/benchmarks/<name>.json (or ``path``) with the machine's
    description and the time, atomically; return its path."""
    path = Path(path) if path else RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"benchmark": name, "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
               "machine": machine(), **payload}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(payload, indent=2) + "\n")
    os.replace(tmp, path)
    return path
