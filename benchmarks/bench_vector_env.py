"""Environment steps per second of the vectorised batch environment, end to end from Python.

Every game (and Wendish variant) runs ``VectorEnv(game, n)``; each iteration draws a
uniformly random legal action per row from the returned mask (``RandomActions``, a
jitted helper) and calls ``env.step``, which applies them, deals on, auto-resets finished
games and writes every row's observation tensor (the game's full encoding) and mask.
One environment step is one decision in one row: steps/s = n x iterations / wall time.
Each setting is timed ``--repeats`` times for ``--seconds`` each (after a warm-up step);
the best and the median are reported, with the thread count, the threading layer and
the machine's load average (the machine is shared: "loaded" when it is above 1 per core).

    python benchmarks/bench_vector_env.py [--n 16384] [--threads 2,1] [--seconds 2]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numba  # noqa: E402

from common import write  # noqa: E402
from simcore.envs.vector import RandomActions, VectorEnv  # noqa: E402

CASES = (("schnapsen", {}), ("schadenfreude", {}), ("wendish", {}),
         ("wendish", {"variant": "three"}), ("wendish", {"variant": "three_sharp"}),
         ("wendish", {"variant": "officers"}))


def rate(env, pick, seconds):
    """Steps per second of one timed loop of ``seconds``."""
    obs, mask, _ = env.reset()
    obs, mask, *_ = env.step(pick(mask))
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        obs, mask, *_ = env.step(pick(mask))
        steps += env.n
    return steps / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16384, help="environments per batch")
    ap.add_argument("--threads", default="2,1", help="thread counts to time, comma-separated")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--games", default="", help="only these games (comma-separated)")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    rows = []
    for game, options in CASES:
        if args.games and game not in args.games.split(","):
            continue
        label = game + "".join(f" {k}={v}" for k, v in options.items())
        env = VectorEnv(game, args.n, seed=1, **options)
        pick = RandomActions(args.n, seed=2)
        for t in threads:
            numba.set_num_threads(t)
            load0 = os.getloadavg()[0]
            rates = [rate(env, pick, args.seconds) for _ in range(args.repeats)]
            load = max(load0, os.getloadavg()[0])
            row = {"game": label, "n": args.n, "threads": t,
                   "best_steps_per_s": round(max(rates)),
                   "median_steps_per_s": round(statistics.median(rates)),
                   "obs_columns": env.observation_spec.size, "load_average": round(load, 1),
                   "loaded": load > (os.cpu_count() or 1)}
            rows.append(row)
            print(f"{label:28s} n={args.n} threads={t}: best {max(rates) / 1e6:.2f}M, median "
                  f"{statistics.median(rates) / 1e6:.2f}M steps/s ({row['obs_columns']} obs "
                  f"columns; load average {load:.1f} on {os.cpu_count()} cores"
                  f"{', loaded' if row['loaded'] else ''})", flush=True)
    path = write("vector_env", {"threading_layer": numba.threading_layer(), "rows": rows,
                                "command": " ".join(sys.argv)})
    print(f"threading layer {numba.threading_layer()}; wrote {path}")


if __name__ == "__main__":
    main()
