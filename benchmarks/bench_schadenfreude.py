"""Schadenfreude throughput: games/s and rounds/s, random and heuristic, 1 and all threads.

Run: python benchmarks/bench_schadenfreude.py [--games N] [--repeats R]
Prints a table and writes results/benchmarks/schadenfreude.json.  Figures are
medians of R runs of the batch kernel (compile time excluded).
"""
import argparse
import sys
import time
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import median_time, write  # noqa: E402

from simcore.games.schadenfreude import GAME  # noqa: E402


def measure(players, policies, games, threads, repeats):
    rules = GAME.build_rules(players=players)
    _, ids = GAME.policy_ids(policies, rules)
    numba.set_num_threads(threads)
    out = {}

    def run():
        out["chunk"] = GAME.run_chunk(rules, ids, 12345, 0, games)

    med, times = median_time(run, repeats)
    rounds = int(out["chunk"]["games"]["rounds"].sum())
    cpu = {}
    if threads == 1:
        cpu_med, _ = median_time(run, repeats, time.process_time)
        cpu = {"cpu_median_s": cpu_med, "rounds_per_cpu_s": rounds / cpu_med}
    return {**cpu, "players": players, "policies": ",".join(policies), "threads": threads,
            "games": games, "rounds": rounds, "median_s": med,
            "games_per_s": games / med, "rounds_per_s": rounds / med,
            "rounds_per_s_per_thread": rounds / med / threads,
            "cards_per_s": rounds * players * rules["hand_size"] / med,
            "times_s": times}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    top = numba.config.NUMBA_NUM_THREADS
    rows = []
    for players in (3, 4, 5):
        for pol in (["random"], ["heuristic"] + ["random"] * (players - 1)):
            pol = pol * players if len(pol) == 1 else pol
            games = args.games if pol[0] == "random" else args.games // 4
            for threads in sorted({1, top}):
                r = measure(players, pol, games, threads, args.repeats)
                rows.append(r)
                print(f"{players}p {r['policies']:<36} {threads}t  "
                      f"{r['games_per_s']:>12,.0f} games/s  {r['rounds_per_s']:>12,.0f} rounds/s"
                      f"  ({r['rounds_per_s_per_thread']:,.0f} rounds/s per thread"
                      + (f"; {r['rounds_per_cpu_s']:,.0f} per CPU-second)" if threads == 1
                         else ")"))
    path = write("schadenfreude", {"runs": rows, "repeats": args.repeats,
                                   "note": "medians; compile excluded; ratios between rows "
                                           "of one run are comparable, absolute figures "
                                           "depend on machine load"})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
