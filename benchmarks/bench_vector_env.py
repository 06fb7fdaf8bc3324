"""Environment steps per second of the vectorised batch environment, end to end from Python.

Every game (and Wendish variant) runs ``VectorEnv(game, n)``; each iteration draws a
uniformly random legal action per row from the returned mask (``RandomActions``, a
jitted helper) and calls ``env.step``, which applies them, deals on, auto-resets finished
games and writes every row's observation tensor (the game's full encoding) and mask.
One environment step is one decision in one row: steps/s = n x iterations / wall time.
Each setting is timed ``--repeats`` times for ``--seconds`` each (after a warm-up step);
the best and the median are reported, with the thread count, the threading layer and
the machine's load average (the machine is shared: "loaded" when it is above 1 per core).

Then the cost of choosing, per decision, in Schnapsen on the same rows: the jitted random
picker, a numba player (docs/players-api.md's ``low_follower``, run by ``NumbaPlayer``)
and the built-in heuristic (``env.policy_actions("heuristic")``, the engine's own
kernel), each timed alone on the rows of a running environment, and the steps per second
of the loop with each choosing every action.

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
from numba import njit  # noqa: E402

from simcore.bits import bounded  # noqa: E402
from simcore.envs.vector import NumbaPlayer, RandomActions, VectorEnv  # noqa: E402

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


def low_follower_for(env):
    """docs/players-api.md's numba player, over ``env``'s columns."""
    hand = env.observation_spec.offsets["hand"][0]
    phase = env.observation_spec.offsets["phase"][0]

    @njit
    def low_follower(obs, mask, rng):
        if obs[phase] == 1:
            for a in range(20):
                if mask[a] and obs[hand + a] == 1:
                    return a
        k = 0
        for a in range(mask.shape[0]):
            k += mask[a]
        rng[0], j = bounded(rng[0], k)
        for a in range(mask.shape[0]):
            if mask[a]:
                if j == 0:
                    return a
                j -= 1
        return -1
    return low_follower


def player_costs(n, seconds, threads):
    """Schnapsen: ns per decision of each chooser alone, and the loop's steps/s with it."""
    env = VectorEnv("schnapsen", n, seed=3)
    numba.set_num_threads(threads)
    choosers = {"random (RandomActions)": (lambda rnd: lambda obs, mask: rnd(mask))(
                    RandomActions(n, seed=4)),
                "numba player (NumbaPlayer, low_follower)": NumbaPlayer(
                    low_follower_for(env), n, seed=5),
                "built-in heuristic (policy_actions)": lambda obs, mask:
                    env.policy_actions("heuristic")}
    out = []
    for label, choose in choosers.items():
        obs, mask, _ = env.reset()
        obs, mask, *_ = env.step(choose(obs, mask))
        pick_time, steps, t0 = 0.0, 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            t1 = time.perf_counter()
            a = choose(obs, mask)
            pick_time += time.perf_counter() - t1
            obs, mask, *_ = env.step(a)
            steps += n
        wall = time.perf_counter() - t0
        row = {"chooser": label, "n": n, "threads": threads,
               "ns_per_decision": round(pick_time / steps * 1e9, 1),
               "loop_steps_per_s": round(steps / wall),
               "load_average": round(os.getloadavg()[0], 1)}
        out.append(row)
        print(f"schnapsen {label:42s} threads={threads}: {row['ns_per_decision']} ns a "
              f"decision to choose; loop {steps / wall / 1e6:.2f}M steps/s (load average "
              f"{row['load_average']})", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16384, help="environments per batch")
    ap.add_argument("--threads", default="2,1", help="thread counts to time, comma-separated")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--games", default="", help="only these games (comma-separated)")
    ap.add_argument("--no-players", action="store_true", help="skip the choosers' costs")
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
    players = [] if args.no_players else [r for t in threads
                                           for r in player_costs(args.n, args.seconds, t)]
    path = write("vector_env", {"threading_layer": numba.threading_layer(), "rows": rows,
                                "players": players, "command": " ".join(sys.argv)})
    print(f"threading layer {numba.threading_layer()}; wrote {path}")


if __name__ == "__main__":
    main()
