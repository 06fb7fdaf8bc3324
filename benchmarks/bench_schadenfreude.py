"""Schadenfreude throughput: games/s and rounds/s, random and heuristic, 1 and all threads;
records/s; the per-call cost of the Python API.

Run: python benchmarks/bench_schadenfreude.py [--games N] [--repeats R] [--records N]
Prints a table and writes results/benchmarks/schadenfreude.json.  Figures are
medians of R runs of the batch kernel (compile time excluded); records/s and
the API figures are on one thread.
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


def measure_records(policies, games, repeats):
    """Records/s (JSON Lines bytes, and dicts) against the simulation's games/s,
    4 players, one thread, CPU time."""
    import json
    rules = GAME.build_rules(players=4)
    names, ids = GAME.policy_ids(policies, rules)
    numba.set_num_threads(1)
    out = {"policies": ",".join(names), "games": games}
    for what, fn in (
            ("simulate", lambda: GAME.run_chunk(rules, ids, 7, 0, games)),
            ("jsonl", lambda: GAME.records_jsonl(rules, names, ids, 7, 0, games)),
            ("dicts", lambda: GAME.records(rules, names, ids, 7, 0, games)),
            ("dicts_dumped", lambda: [json.dumps(r, separators=(",", ":"))
                                      for r in GAME.records(rules, names, ids, 7, 0, games)])):
        med, _ = median_time(fn, repeats, time.process_time)
        out[f"{what}_per_s"] = games / med
    return out


def measure_api(repeats):
    """Microseconds per call of the Python API (api.Engine), 4 players."""
    import numpy as np
    rules = GAME.build_rules(players=4)
    eng = GAME.engine(rules)
    st = eng.new(1, 0)
    a = eng.legal(st)[0]
    work = st.copy()
    n = 20000

    def per_call(fn, calls=n):
        def run():
            for _ in range(calls):
                fn()
        med, _ = median_time(run, repeats)
        return med / calls * 1e6

    copy = per_call(lambda: np.copyto(work, st))
    return {
        "new_us": per_call(lambda: eng.new(1, 0)),
        "legal_us": per_call(lambda: eng.legal(st)),
        "to_move_us": per_call(lambda: eng.to_move(st)),
        "apply_us": per_call(lambda: (np.copyto(work, st), eng.apply(work, a))) - copy,
        "choose_random_us": per_call(lambda: (np.copyto(work, st),
                                              eng.choose("random", work))) - copy,
        "choose_heuristic_us": per_call(lambda: eng.choose("heuristic", st)),
        "observe_us": per_call(lambda: eng.observe(st, 0)),
        "view_us": per_call(lambda: eng.view(st, 0), 2000),
        "play_game_ms": per_call(lambda: eng.play(1, 0, ["random"]), 100) / 1000,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--records", type=int, default=20_000, help="games per records run")
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
    recs = [measure_records(p, args.records if p[0] == "random" else args.records // 4,
                            args.repeats)
            for p in (["random"], ["heuristic", "random", "random", "random"])]
    for r in recs:
        print(f"records 4p {r['policies']:<36} 1t  " + "  ".join(
            f"{k[:-6]} {v:,.0f}/s" for k, v in r.items() if k.endswith("_per_s")))
    api = measure_api(args.repeats)
    print("API per call: " + ", ".join(f"{k} {v:.2f}" for k, v in api.items()))
    numba.set_num_threads(top)
    path = write("schadenfreude", {"runs": rows, "records": recs, "api": api,
                                   "repeats": args.repeats,
                                   "note": "medians; compile excluded; ratios between rows "
                                           "of one run are comparable, absolute figures "
                                           "depend on machine load"})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
