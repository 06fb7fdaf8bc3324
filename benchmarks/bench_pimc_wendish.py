"""Wendish pimc against the heuristic, on paired deals, for one variant.

    python benchmarks/bench_pimc_wendish.py --variant four [--deals N] [--worlds W]
        [--seed S] [--budget SECONDS] [--out FILE]

Every game is one deal (``deals=1``), game ``index`` of run ``seed``.  Each deal is
played twice with the same cards (pimc does not draw from the game's stream, the
heuristic draws nothing): once with ``pimc`` in seat ``index % players`` and the
``heuristic`` in the other seats, once with the ``heuristic`` everywhere.  The figure
is that seat's score in the first run minus its score in the second (mean per deal
with a 95% normal interval): what putting pimc in the seat is worth, deal luck
cancelled, the seat rotated.  Gate: the interval above zero.  Deals are played in
chunks until ``--deals`` or ``--budget`` seconds run out (whole chunks); time per
pimc decision is CPU time of the pimc runs over the searching seat's decisions
(one thread).  Writes results/benchmarks/pimc_wendish_<variant>.json.
"""
import argparse
import time

import numpy as np

from common import machine, write
from simcore.games.wendish import GAME
from simcore.games.wendish.pimc import PIMC_WORLDS


def run(variant, deals, worlds, seed, budget, chunk):
    """The paired comparison (see the module)."""
    rules = GAME.build_rules(assignments=[f"variant={variant}", "deals=1"])
    n = GAME.seats(rules)
    pname = f"pimc:worlds={worlds}"
    heur = GAME.policy_ids(["heuristic"], rules)[1]
    base_ids = [GAME.policy_ids([pname if q == s else "heuristic" for q in range(n)],
                                rules)[1] for s in range(n)]
    # compile outside the clock
    GAME.run_chunk(rules, base_ids[0], seed + 1, 0, 1)
    GAME.run_chunk(rules, heur, seed + 1, 0, 1)
    diffs, pim, hs = [], [], []
    cpu = 0.0
    decisions = 0
    t_end = time.time() + budget
    start = 0
    while start < deals and time.time() < t_end:
        count = min(chunk, deals - start)
        h = GAME.run_chunk(rules, heur, seed, start, count)["deals"]["scores"]
        for s in range(n):
            # the deals of this chunk whose index puts pimc in seat s
            idx = [i for i in range(start, start + count) if i % n == s]
            if not idx:
                continue
            t0 = time.process_time()
            sub = [GAME.run_chunk(rules, base_ids[s], seed, i, 1) for i in idx]
            cpu += time.process_time() - t0
            for i, c in zip(idx, sub):
                decisions += int(c["games"]["search_decisions"].sum())
                a = int(c["deals"]["scores"][0, s])
                b = int(h[i - start, s])
                pim.append(a)
                hs.append(b)
                diffs.append(a - b)
        start += count
    d = np.array(diffs, dtype=np.float64)
    m = float(d.mean()) if len(d) else float("nan")
    half = float(1.96 * d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else float("nan")
    return {
        "variant": variant, "players": n, "policy": pname, "seed": seed, "deals": len(d),
        "pimc_score_per_deal": float(np.mean(pim)) if pim else None,
        "heuristic_score_per_deal": float(np.mean(hs)) if hs else None,
        "difference_per_deal": m, "difference_low": m - half, "difference_high": m + half,
        "deals_changed": int((d != 0).sum()),
        "gate_interval_above_zero": bool(m - half > 0),
        "pimc_decisions": decisions,
        "cpu_ms_per_pimc_decision": 1000 * cpu / decisions if decisions else None,
        "note": "CPU time on a shared, loaded machine (2 cores, several jobs)",
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="four", choices=("four", "three", "three_sharp",
                                                          "officers"))
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--worlds", type=int, default=PIMC_WORLDS)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--budget", type=float, default=3600.0, help="seconds of play at most")
    ap.add_argument("--chunk", type=int, default=40)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    res = run(a.variant, a.deals, a.worlds, a.seed, a.budget, a.chunk)
    res["machine"] = machine()
    res["command"] = (f"python benchmarks/bench_pimc_wendish.py --variant {a.variant} "
                      f"--deals {a.deals} --worlds {a.worlds} --seed {a.seed} "
                      f"--budget {a.budget:g}")
    path = write(f"pimc_wendish_{a.variant}", res, a.out)
    for k, v in res.items():
        if k != "machine":
            print(f"{k}: {v}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
