"""How far a hand benchmark position's answer moves with the seed: the first row
("policy decides") of one of ``bench_hand_budget.py``'s positions, one player in every
seat, on ``--deals`` deals of each of several seeds (issue 22: is a default answer that
misses its reference a different path, or the luck of the deals?).

    python benchmarks/hand_seed_spread.py wendish-seat2 [--policy pimc] [--deals 3000]
        [--seeds 1,1001,2001,3001] [--threads 2] [--out FILE]

Prints and writes, per seed, P(win) with its 95% Wilson interval, P(win) of the first
1,000 deals (the size of the benchmark's reference) and the seconds; then all seeds
together.  Results: results/benchmarks/hand_seed_spread_<position>.json.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hand_budget import POSITIONS, first_row_wins  # noqa: E402
from common import load_note, write  # noqa: E402


def spread(name: str, policy: str, deals: int, seeds: list[int], threads: int) -> dict:
    """P(win) of ``name``'s first row with ``policy`` in every seat, per seed and over all."""
    from simcore.analysis.positions import wilson
    rows, everything = {}, []
    for seed in seeds:
        t0 = time.perf_counter()
        wins = first_row_wins(name, policy, deals, threads, seed)
        p, lo, hi = wilson(int(wins.sum()), len(wins))
        rows[str(seed)] = {"deals": len(wins), "win": p, "low": lo, "high": hi,
                           "first_1000": float(wins[:1000].mean()),
                           "seconds": round(time.perf_counter() - t0, 1)}
        everything.append(wins)
        print(f"{name} {policy} seed {seed}: {p:.1%} [{lo:.1%}, {hi:.1%}] on {len(wins)} "
              f"deals, the first 1,000 {wins[:1000].mean():.1%}", flush=True)
    allw = np.concatenate(everything)
    p, lo, hi = wilson(int(allw.sum()), len(allw))
    print(f"all seeds: {p:.1%} [{lo:.1%}, {hi:.1%}] on {len(allw)} deals")
    return {"seeds": rows, "all": {"deals": len(allw), "win": p, "low": lo, "high": hi}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("position", choices=sorted(POSITIONS))
    ap.add_argument("--policy", default="pimc")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seeds", default="1,1001,2001,3001")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    res = spread(a.position, a.policy, a.deals, seeds, a.threads)
    cmd = "python benchmarks/hand_seed_spread.py " + " ".join(sys.argv[1:])
    print(write(f"hand_seed_spread_{a.position}",
                {"position": a.position, "policy": a.policy, "threads": a.threads,
                 "command": cmd, **res, "note": load_note("wall time")}, a.out))


if __name__ == "__main__":
    main()
