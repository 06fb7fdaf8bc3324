"""Schadenfreude open-card search (solver.py): speed, pruned against plain max-n.

    python benchmarks/bench_solver_schadenfreude.py [--positions N] [--players 4] [--seed S]

On one thread (CPU time), random positions at the start of a trick with K tricks left
(random scores below the limit, random play before), for each K:
  - full solves (to the round's end) per second, pruned+ordered ``solve`` and plain
    ``maxn_plain``, and whether they agree on every position;
  - and depth-limited searches from the first trick of a round (depth 1 and 2 tricks,
    static evaluation and heuristic playout at the horizon): mean ms per search.
Writes results/benchmarks/solver_schadenfreude.json.
"""
import argparse
import time

import numpy as np
from numba import njit

from common import machine, write
from simcore.bits import bounded, kth_bit, popcount
from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.engine import (MAX_SEATS, PLAYING, S_SCORE, S_STATUS,
                                                STATE_SIZE, apply_action, init_game,
                                                legal_cards)
from simcore.games.schadenfreude.rules import R_HAND, R_LIMIT, R_PLAYERS, rules_array
from simcore.games.schadenfreude.solver import maxn_plain, new_work, solve


@njit(cache=True)
def positions(r, seed, count, left, out):
    """``count`` positions at the start of a trick with ``left`` tricks left into ``out``;
    returns how many (a game may end early: those are skipped)."""
    st = np.empty(STATE_SIZE, np.int64)
    n = r[R_PLAYERS]
    rng = np.uint64(seed)
    k = 0
    i = 0
    while k < count:
        init_game(r, st, np.uint64(seed), i)
        i += 1
        for p in range(n):
            rng, s = bounded(rng, r[R_LIMIT] + 1)
            st[S_SCORE + p] = s
        for _ in range((r[R_HAND] - left) * n):
            m = legal_cards(st)
            rng, j = bounded(rng, popcount(m))
            apply_action(r, st, kth_bit(m, j))
        if st[S_STATUS] != PLAYING:
            continue
        out[k] = st
        k += 1
    return k


@njit(cache=True)
def run_solve(r, pos, depth, play, work, fw, vals):
    out = np.zeros(MAX_SEATS)
    for i in range(pos.shape[0]):
        solve(r, pos[i], depth, play, work, fw, out)
        for q in range(MAX_SEATS):
            vals[i, q] = out[q]


@njit(cache=True)
def run_plain(r, pos, depth, play, work, fw, vals):
    out = np.zeros(MAX_SEATS)
    for i in range(pos.shape[0]):
        maxn_plain(r, pos[i], depth, play, work, fw, out)
        for q in range(MAX_SEATS):
            vals[i, q] = out[q]


def timed(fn, *args):
    t0 = time.process_time()
    fn(*args)
    return time.process_time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    rules = GAME.build_rules("standard", players=a.players)
    r = rules_array(rules)
    work, fw = new_work()
    rows = []
    h = rules["hand_size"]
    for left in range(1, 5):
        count = a.positions if left <= 2 else max(10, a.positions // (20 ** (left - 2)))
        pos = np.zeros((count, STATE_SIZE), np.int64)
        positions(r, np.uint64(a.seed), count, left, pos)
        v1 = np.zeros((count, MAX_SEATS))
        v2 = np.zeros((count, MAX_SEATS))
        run_solve(r, pos[:1], 12, 0, work, fw, v1)        # compile before the clock
        run_plain(r, pos[:1], 12, 0, work, fw, v2)
        t1 = timed(run_solve, r, pos, 12, 0, work, fw, v1)
        t2 = timed(run_plain, r, pos, 12, 0, work, fw, v2)
        row = {"tricks_left": left, "positions": count, "solves_per_s": count / t1,
               "plain_solves_per_s": count / t2, "speedup": t2 / t1,
               "agree": bool(np.array_equal(v1, v2))}
        rows.append(row)
        print(row, flush=True)
    limited = []
    start = np.zeros((max(20, a.positions // 50), STATE_SIZE), np.int64)
    positions(r, np.uint64(a.seed + 1), start.shape[0], h, start)
    for depth, play in ((1, 0), (1, 1), (2, 0)):
        count = start.shape[0] if depth == 1 else max(5, start.shape[0] // 10)
        v = np.zeros((count, MAX_SEATS))
        run_solve(r, start[:1], depth, play, work, fw, v)
        t = timed(run_solve, r, start[:count], depth, play, work, fw, v)
        row = {"depth": depth, "playout": play, "positions": count,
               "ms_per_search": 1000 * t / count}
        limited.append(row)
        print(row, flush=True)
    out = {"machine": machine(),
           "command": f"python benchmarks/bench_solver_schadenfreude.py --positions "
                      f"{a.positions} --players {a.players} --seed {a.seed}",
           "players": a.players, "full_solves": rows, "first_trick_depth_limited": limited,
           "note": "CPU time on one thread, on a shared, loaded machine"}
    print("wrote", write("solver_schadenfreude", out))


if __name__ == "__main__":
    main()
