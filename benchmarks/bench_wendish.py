"""Wendish Schafkopf throughput: games, deals and card plays per second for each
variant, random and heuristic players, on 1 thread and on all threads (median of
several runs, after a warm-up that compiles); records per second (``records`` as
dicts and ``records_jsonl`` as text); the Python API's cost per call.  Writes
results/benchmarks/wendish.json.

    python benchmarks/bench_wendish.py [--games N] [--repeats R]
"""
import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

from simcore import get_game
from simcore.games.wendish.play import D_FIELDS, play_batch
from simcore.games.wendish.rules import RULEBOOK, rules_array, seats_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write  # noqa: E402

VARIANTS = ("four", "three", "three_sharp", "officers")
CARDS_PER_DEAL = {"four": 32, "three": 30, "three_sharp": 18, "officers": 32}


def run(rules, pol, games, seed):
    ra = rules_array(rules)
    dout = np.zeros((games * rules["deals"], D_FIELDS), dtype=np.int64)
    t = time.perf_counter()
    play_batch(ra, pol, np.uint64(seed), 0, games, dout, np.zeros(games, dtype=np.int64))
    return time.perf_counter() - t


def records_rates(rules, policy, count, repeats):
    """(records/s as dicts, records/s as JSON text), medians, one thread."""
    g = get_game("wendish")
    names, ids = g.policy_ids([policy], rules)
    g.records(rules, names, ids, 0, 0, 10)
    g.records_jsonl(rules, names, ids, 0, 0, 10)
    out = []
    for fn in (g.records, g.records_jsonl):
        times = []
        for r in range(repeats):
            t = time.perf_counter()
            fn(rules, names, ids, 1 + r, 0, count)
            times.append(time.perf_counter() - t)
        out.append(round(count / statistics.median(times)))
    return out


def api_costs(repeats=20000):
    """Microseconds per call of the Python API's main methods (four players)."""
    eng = get_game("wendish").engine(RULEBOOK.build())
    s = eng.new(1, 0)
    while eng.legal(s)[0] >= 32:                     # to the first card
        eng.apply(s, eng.legal(s)[0])
    a = eng.legal(s)[0]
    calls = {"new": lambda: eng.new(1, 0), "legal": lambda: eng.legal(s),
             "apply_on_copy": lambda: eng.apply(s.copy(), a),
             "choose_random_on_copy": lambda: eng.choose("random", s.copy()),
             "choose_heuristic_on_copy": lambda: eng.choose("heuristic", s.copy()),
             "observe": lambda: eng.observe(s, 0), "copy": lambda: s.copy()}
    out = {}
    for name, f in calls.items():
        f()
        t = time.perf_counter()
        for _ in range(repeats):
            f()
        out[name] = round((time.perf_counter() - t) / repeats * 1e6, 3)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000, help="games per timed run")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs (median reported)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results"
                                         / "benchmarks" / "wendish.json"))
    args = ap.parse_args()
    top = numba.config.NUMBA_NUM_THREADS
    rows = []
    for variant in VARIANTS:
        rules = RULEBOOK.build(assignments=[f"variant={variant}"])
        n = seats_of(rules)
        for policy in ("random", "heuristic"):
            pol = np.full(n, 0 if policy == "random" else 1, dtype=np.int64)
            games = args.games if policy == "random" else max(1, args.games // 3)
            for threads in sorted({1, top}):
                numba.set_num_threads(threads)
                run(rules, pol, 1000, 0)  # warm-up / compile
                times = [run(rules, pol, games, 1 + r) for r in range(args.repeats)]
                med = statistics.median(times)
                deals = games * rules["deals"]
                row = {"variant": variant, "policy": policy, "threads": threads,
                       "games": games, "deals_per_game": rules["deals"],
                       "repeats": args.repeats, "median_s": round(med, 4),
                       "games_per_s": round(games / med),
                       "deals_per_s": round(deals / med),
                       "card_plays_per_s": round(deals * CARDS_PER_DEAL[variant] / med),
                       "deals_per_s_runs": [round(deals / t) for t in times]}
                rows.append(row)
                print(f"{variant:12s} {policy:9s} {threads} thr: {row['deals_per_s']:>11,} "
                      f"deals/s  {row['games_per_s']:>10,} games/s  "
                      f"{row['card_plays_per_s']:>12,} cards/s", flush=True)
    numba.set_num_threads(1)
    records = []
    for variant in VARIANTS:
        rules = RULEBOOK.build(assignments=[f"variant={variant}"])
        for policy in ("random", "heuristic"):
            dicts, text = records_rates(rules, policy, max(1000, args.games // 20), args.repeats)
            records.append({"variant": variant, "policy": policy, "threads": 1,
                            "records_per_s": dicts, "jsonl_records_per_s": text})
            print(f"{variant:12s} {policy:9s} records {dicts:>8,}/s  as JSON text "
                  f"{text:>8,}/s", flush=True)
    api = api_costs()
    print("API us per call: " + ", ".join(f"{k} {v}" for k, v in api.items()))
    info = {"benchmark": "wendish", "numba": numba.__version__, "numpy": np.__version__,
            "python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "numba_threads": top,
            "note": "median of repeats; the machine is shared, so figures are noisy",
            "results": rows, "records": records, "api_us_per_call": api}
    print(f"wrote {write('wendish', info, args.out)}")


if __name__ == "__main__":
    main()
