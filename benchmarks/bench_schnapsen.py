"""Schnapsen throughput: deals/s and matches/s on one thread and on all threads.

Times the batch kernel (``play_batch``, the same one ``tricksim simulate`` runs)
for random and for heuristic play, median of several runs after a warm-up, and
the records written per second (``GAME.records_jsonl``, JSON Lines bytes) and
built as dicts (``GAME.records``).  If the peer engine ``schnapsen``
(PyPI 0.0.5) is importable (here or in the Python named by ``--peer-python``),
also times its random bots playing games and prints both deal rates and the
ratio.  The peer has no closing and no explicit claims (a deal ends at 66
automatically), so its deals are not the same work; the ratio is indicative.

    python benchmarks/bench_schnapsen.py [--matches 200000] [--runs 5] [--records 20000]
        [--peer-python /path/to/python] [--out results/benchmarks/schnapsen.json]
"""
from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.play import N_DEAL_COLUMNS, play_batch
from simcore.games.schnapsen.policies import HEURISTIC, RANDOM
from simcore.games.schnapsen.rules import RULEBOOK, max_deals, rules_array

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write  # noqa: E402

PEER_SCRIPT = r"""
import random, sys, time
from schnapsen.game import SchnapsenGamePlayEngine
from schnapsen.bots import RandBot
n = int(sys.argv[1])
engine = SchnapsenGamePlayEngine()
rng = random.Random(1)
b1, b2 = RandBot(rng), RandBot(rng)
t = time.perf_counter()
for i in range(n):
    engine.play_game(b1, b2, random.Random(i))
print(n / (time.perf_counter() - t))
"""


def time_kernel(matches: int, threads: int, runs: int, seed: int = 1,
                policy: int = RANDOM) -> dict:
    """Median deals/s and matches/s of play by ``policy`` in both seats over ``runs`` runs."""
    rules = RULEBOOK.build()
    ra = rules_array(rules)
    md = max_deals(rules)
    pol = np.array([policy, policy], dtype=np.int64)
    rows = np.zeros((matches, md, N_DEAL_COLUMNS), np.int16)
    deals = np.zeros(matches, np.int16)
    winner = np.zeros(matches, np.int8)
    first = np.zeros(matches, np.int8)
    left = np.zeros((matches, 2), np.int16)
    numba.set_num_threads(threads)
    play_batch(ra, pol, np.uint64(seed), 0, 1000, rows, deals, winner, first, left)  # warm-up
    rates, mrates = [], []
    for r in range(runs):
        t = time.perf_counter()
        play_batch(ra, pol, np.uint64(seed + r), 0, matches, rows, deals, winner, first, left)
        dt = time.perf_counter() - t
        rates.append(float(deals.astype(np.int64).sum()) / dt)
        mrates.append(matches / dt)
    return {"policy": "random" if policy == RANDOM else "heuristic", "threads": threads,
            "matches": matches, "runs": runs,
            "deals_per_s": statistics.median(rates), "matches_per_s": statistics.median(mrates),
            "deals_per_s_all_runs": [round(x) for x in rates]}


def time_records(matches: int, threads: int, runs: int, policy: str) -> dict:
    """Median records/s: JSON Lines bytes (records_jsonl) and dicts (records)."""
    rules = RULEBOOK.build()
    names, ids = GAME.policy_ids([policy], rules)
    numba.set_num_threads(threads)
    GAME.records_jsonl(rules, names, ids, 1, 0, 200)   # warm-up
    GAME.records(rules, names, ids, 1, 0, 200)
    out = {"policy": policy, "threads": threads, "matches": matches, "runs": runs}
    for key, fn in (("jsonl_per_s", GAME.records_jsonl), ("dicts_per_s", GAME.records)):
        rates = []
        for r in range(runs):
            t = time.perf_counter()
            fn(rules, names, ids, 1 + r, 0, matches)
            rates.append(matches / (time.perf_counter() - t))
        out[key] = statistics.median(rates)
    return out


def time_peer(python: str, games: int, runs: int) -> dict | None:
    """Median games (deals) per second of the peer engine's random bots, or None."""
    rates = []
    for _ in range(runs):
        try:
            out = subprocess.run([python, "-c", PEER_SCRIPT, str(games)], capture_output=True,
                                 text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if out.returncode != 0:
            print("peer engine unavailable:", out.stderr.strip().splitlines()[-1:],
                  file=sys.stderr)
            return None
        rates.append(float(out.stdout.strip()))
    return {"engine": "schnapsen 0.0.5 (PyPI), RandBot vs RandBot", "games": games,
            "runs": runs, "deals_per_s": statistics.median(rates),
            "lacks": ["closing the talon", "explicit claims (a deal ends at 66 by itself)"]}


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip() or None
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--records", type=int, default=20_000, help="records per timed run")
    ap.add_argument("--peer-python", default=sys.executable)
    ap.add_argument("--peer-games", type=int, default=2000)
    ap.add_argument("--out", default="results/benchmarks/schnapsen.json")
    args = ap.parse_args()
    top = numba.config.NUMBA_NUM_THREADS
    threads = [1, top] if top > 1 else [1]
    results = [time_kernel(args.matches // (1 if p == RANDOM else 2), t, args.runs, policy=p)
               for p in (RANDOM, HEURISTIC) for t in threads]
    for r in results:
        print(f"tricksim {r['policy']} play, {r['threads']} thread(s): "
              f"{r['deals_per_s']:,.0f} deals/s, {r['matches_per_s']:,.0f} matches/s "
              f"(median of {r['runs']})")
    records = [time_records(args.records, t, args.runs, p) for p in ("random", "heuristic")
               for t in threads]
    for r in records:
        print(f"records, {r['policy']} play, {r['threads']} thread(s): "
              f"{r['jsonl_per_s']:,.0f} JSON lines/s, {r['dicts_per_s']:,.0f} dicts/s")
    peer = time_peer(args.peer_python, args.peer_games, min(args.runs, 3))
    info = {"benchmark": "schnapsen random play", "machine": platform.processor() or
            platform.machine(), "cpus": top, "python": platform.python_version(),
            "numba": numba.__version__, "commit": _commit(), "tricksim": results,
            "records": records, "peer": peer,
            "note": "random deals are short (random closes on a coin flip); the machine's "
                    "cores are shared, so thread scaling here is not representative"}
    if peer:
        ratio = results[0]["deals_per_s"] / peer["deals_per_s"]
        info["ratio_one_thread_vs_peer"] = ratio
        print(f"peer {peer['engine']}: {peer['deals_per_s']:,.0f} deals/s; tricksim on one "
              f"thread is {ratio:,.0f}x faster (the peer lacks closing and explicit claims)")
    print(f"wrote {write('schnapsen', info, args.out)}")


if __name__ == "__main__":
    main()
