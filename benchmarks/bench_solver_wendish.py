"""Wendish open-card solver speed: whole deals from the first trick, one thread.

    python benchmarks/bench_solver_wendish.py [--deals N] [--seed S] [--variant V] [--repeats R]

Deals are dealt and bid by the heuristic (game ``index`` of run ``seed``, ``deals=1``);
each is solved from the first card of the first trick with an empty transposition
table: the exact value (``solve``, bisecting null windows) and one null-window search ("does the
declaring side reach 61?", ``reaches``, what pimc runs most).  CPU time per deal
(``time.process_time``; each deal solved ``repeats`` times, its time the median of
those), mean, median and max over the deals, with the searched nodes (a seat's
single legal card inside a trick is played without a node of its own).  Gate: the
exact solve of a whole four-player deal <= 20 ms mean.  Writes
results/benchmarks/solver_wendish.json (``--variant four``) or
solver_wendish_<variant>.json.
"""
import argparse
import time

import numpy as np

from common import load_note, machine, write
from simcore.games.wendish import GAME
from simcore.games.wendish.engine import P_PLAY, ST_PHASE
from simcore.games.wendish.solver import CONST, SCRATCH, new_work, reaches, solve


def first_trick_positions(variant, seed, count):
    """The states at the first card of ``count`` deals bid by the heuristic."""
    rules = GAME.build_rules(assignments=[f"variant={variant}", "deals=1"])
    eng = GAME.engine(rules)
    out = []
    for i in range(count):
        s = eng.new(seed=seed, index=i)
        while s[ST_PHASE] != P_PLAY:
            eng.apply(s, eng.choose("heuristic", s))
        out.append(s)
    return eng.r, out


def timed(fn, r, positions, work, repeats):
    ts, nodes = [], []
    for s in positions:
        runs = []
        for _ in range(repeats):
            work[CONST:] = 0                    # the table and the constants row
            work[SCRATCH + 1, 0] = 0
            t0 = time.process_time()
            fn(r, s, work)
            runs.append(time.process_time() - t0)
        ts.append(float(np.median(runs)))
        nodes.append(int(work[SCRATCH + 1, 0]))
    ms = np.array(ts) * 1000
    return {"mean_ms": float(ms.mean()), "median_ms": float(np.median(ms)),
            "max_ms": float(ms.max()), "mean_nodes": float(np.mean(nodes)),
            "ns_per_node": float(ms.sum() * 1e6 / max(1, sum(nodes)))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--variant", default="four")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", help="results/benchmarks/<OUT>.json (default solver_wendish, "
                                  "or solver_wendish_<variant>)")
    a = ap.parse_args()
    r, pos = first_trick_positions(a.variant, a.seed, a.deals)
    work = new_work()
    solve(r, pos[0], work)                      # compile
    reaches(r, pos[0], work, 61)
    res = {"variant": a.variant, "deals": a.deals, "seed": a.seed,
           "repeats": a.repeats,
           "exact_solve": timed(solve, r, pos, work, a.repeats),
           "reaches_61": timed(lambda r, s, w: reaches(r, s, w, 61), r, pos, work, a.repeats),
           "gate_exact_mean_ms": 20.0,
           "note": load_note(),
           "command": f"python benchmarks/bench_solver_wendish.py --deals {a.deals} "
                      f"--seed {a.seed} --variant {a.variant} --repeats {a.repeats}"
                      + (f" --out {a.out}" if a.out else ""),
           "machine": machine()}
    res["gate_met"] = res["exact_solve"]["mean_ms"] <= 20.0
    name = a.out or ("solver_wendish" if a.variant == "four" else f"solver_wendish_{a.variant}")
    path = write(name, res)
    for k in ("exact_solve", "reaches_61", "gate_met"):
        print(f"{k}: {res[k]}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
