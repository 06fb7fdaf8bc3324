"""Overhead of playing a run on a local Dask cluster instead of numba threads.

Random four-player Schadenfreude, 10 million games, summary only, default
chunk size, on this machine's cores:

- ``threads``: the embedded default, numba threads in one process (no run folder);
- ``threads_checkpointed``: the same, each chunk saved to a run folder (as the CLI does);
- ``cluster``: a ``distributed.LocalCluster`` of one single-threaded worker process
  per core, chunks checkpointed into a run folder; the cluster is started once
  before timing (its start-up is reported separately).

The variants alternate within each repeat so that load from other users of
the machine hits them alike; the ratio is of medians.  Every run's summary is
checked to be identical to the threaded one's.

    python benchmarks/bench_cluster.py [--games N] [--repeats R]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numba  # noqa: E402
import pandas as pd  # noqa: E402

from common import write  # noqa: E402
from simcore import simulate  # noqa: E402
from simcore.running.cluster import start_local_cluster  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    import distributed

    games, seed = args.games, 12345
    simulate("schadenfreude", None, ["random"], 1000, seed, summary_only=True)   # warm cache
    t0 = time.perf_counter()
    cluster = start_local_cluster(args.workers)
    client = distributed.Client(cluster, set_as_default=False)
    simulate("schadenfreude", None, ["random"], 1000, seed, summary_only=True, chunk_size=100,
             client=client)          # workers import simcore and load the kernels
    startup = time.perf_counter() - t0
    tmp = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    times = {"threads": [], "threads_checkpointed": [], "cluster": []}
    reference = None
    try:
        for r in range(args.repeats):
            for variant in times:
                out = tmp / f"{variant}-{r}"
                kwargs = {}
                if variant != "threads":
                    kwargs["out"] = out
                if variant == "cluster":
                    kwargs["client"] = client
                t = time.perf_counter()
                res = simulate("schadenfreude", None, ["random"], games, seed,
                               summary_only=True, **kwargs)
                times[variant].append(time.perf_counter() - t)
                if reference is None:
                    reference = res.summary
                else:
                    for section in reference:
                        pd.testing.assert_frame_equal(res.summary[section], reference[section],
                                                      check_exact=True)
                shutil.rmtree(out, ignore_errors=True)
                print(f"repeat {r} {variant}: {times[variant][-1]:.2f}s", flush=True)
    finally:
        client.close()
        cluster.close()
        shutil.rmtree(tmp, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    results = {
        "game": "schadenfreude", "players": 4, "policy": "random", "games": games,
        "summary_only": True, "chunk_size": 1 << 16, "seed": seed,
        "numba_threads": numba.config.NUMBA_NUM_THREADS, "cluster_workers": args.workers,
        "repeats": args.repeats,
        "median_s": {k: round(v, 3) for k, v in med.items()},
        "runs_s": {k: [round(x, 3) for x in v] for k, v in times.items()},
        "games_per_s": {k: round(games / v) for k, v in med.items()},
        "ratio_cluster_to_threads": round(med["cluster"] / med["threads"], 3),
        "ratio_cluster_to_threads_checkpointed":
            round(med["cluster"] / med["threads_checkpointed"], 3),
        "ratio_checkpointed_to_threads": round(med["threads_checkpointed"] / med["threads"], 3),
        "cluster_startup_s": round(startup, 2),
        "identical_summaries": True,
        "note": "2-core machine shared with other work: noisy; variants alternate within "
                "each repeat; ratio = median(cluster) / median(threads), cluster start-up "
                "excluded (reported separately)",
    }
    path = write("cluster", results)
    print(f"cluster/threads = {results['ratio_cluster_to_threads']} "
          f"(medians {med['cluster']:.2f}s / {med['threads']:.2f}s); start-up "
          f"{startup:.1f}s; wrote {path}")


if __name__ == "__main__":
    main()
