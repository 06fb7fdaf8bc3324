"""A searching run end to end on one thread, two threads and a 2-worker local Dask
cluster: the cost-sized chunks (issue 21, item 1) should use every thread and worker
and give the same summary bit for bit.

Times ``tricksim simulate schnapsen --games N --policy pimc,heuristic --summary-only``
as a subprocess (start-up, compile and cluster start included in ``wall_s``; the
run's own clock in ``run_s``, from its run.json), with ``--threads 1``, ``--threads 2``
and ``--workers 2``; checks that the three summary.csv files are identical; prints the
ratios and writes results/benchmarks/search_chunks.json (``--name`` to change).

    python benchmarks/bench_search_chunks.py [--games 2000] [--policy pimc,heuristic]

The gate: 2 threads at least 1.8 times one thread on 2,000 matches, and the Dask
summary equal to the threaded one.  The full size took about an hour of one core
with the full search of every decision (``pimc:talon=10``); with the default ``pimc``
(search from six talon cards on) a few minutes: on a shared machine, try ``--games 60``
first.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import load_note, write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: (label, extra arguments)
SETUPS = (("1 thread", ["--threads", "1"]),
          ("2 threads", ["--threads", "2"]),
          ("dask 2 workers", ["--workers", "2"]))


def run_cli(args: list[str], out: Path) -> dict:
    """One ``tricksim simulate`` as a subprocess; its wall time, run.json and summary."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-c", "from cli.main import main; main()", "simulate", *args,
           "--out", str(out)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{proc.stderr}")
    info = json.loads((out / "run.json").read_text())
    return {"wall_s": round(wall, 3), "run_s": info["wall_time_s"],
            "chunk_size": info["chunk_size"], "chunks": info.get("chunks"),
            "search_decisions_per_s": info.get("search_decisions_per_s"),
            "summary": (out / "summary.csv").read_text(),
            "progress_lines": sum(1 for ln in proc.stderr.splitlines()
                                  if ln.startswith("schnapsen: "))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--policy", default="pimc,heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default="search_chunks")
    a = ap.parse_args()
    base = ["schnapsen", "--games", str(a.games), "--policy", a.policy, "--seed",
            str(a.seed), "--summary-only"]
    rows = {}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra in SETUPS:
            rows[label] = run_cli(base + extra, Path(tmp) / label.replace(" ", "_"))
            r = rows[label]
            print(f"{label:15s} run {r['run_s']:8.2f} s, wall {r['wall_s']:8.2f} s, "
                  f"{r['chunks']} chunks of {r['chunk_size']}, "
                  f"{r['search_decisions_per_s']} decisions/s", flush=True)
    summaries = {label: r.pop("summary") for label, r in rows.items()}
    identical = len(set(summaries.values())) == 1
    one, two, dask = (rows[label]["run_s"] for label, _ in SETUPS)
    ratio = one / two if two > 0 else None
    dask_ratio = one / dask if dask > 0 else None
    print(f"2 threads / 1 thread: {ratio:.2f}x (gate 1.8x); dask 2 workers / 1 thread: "
          f"{dask_ratio:.2f}x; summaries identical: {identical}")
    path = write(a.name, {
        "command": "tricksim simulate " + " ".join(base) + " [--threads 1 | --threads 2 | "
                   "--workers 2]",
        "games": a.games, "policy": a.policy, "seed": a.seed, "runs": rows,
        "speedup_2_threads": round(ratio, 3) if ratio else None,
        "speedup_dask_2_workers": round(dask_ratio, 3) if dask_ratio else None,
        "summaries_identical": identical,
        "load_average_before": round(load_before, 2),
        "note": load_note("wall time of the run (run.json), compile excluded"),
    })
    print(f"wrote {path}")
    if not identical:
        raise SystemExit("the summaries differ")


if __name__ == "__main__":
    main()
