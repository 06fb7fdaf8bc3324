"""Schnapsen open-card solver and pimc player: speed and strength.

    python benchmarks/bench_pimc_schnapsen.py [--part speed|strength|all] [--pairs N]
        [--policy pimc[:worlds=W]] [--opponent heuristic|pimc:...] [--seed S] [--out NAME]

Measures, on one thread (CPU time, ``time.process_time``):
  - speed: endgame solves/s, random positions with the talon closed or used up (gate
    >= 250,000/s), the median of 3 runs over the same positions, the transposition table
    cleared before each run; a whole deal solved from the first trick, mean ms (gate <=
    10 ms), the median of 3 runs of the mean; nodes searched per solve (exact counts);
  - strength: ``--policy`` (default ``pimc``, its default parameters) against
    ``heuristic``, austrian, on paired deals: every match index is played twice, the
    searching player in seat 0 and in seat 1 (``--opponent``, default heuristic: the
    other seat; a pimc name pairs two searchers, e.g. the default against stop=0), with the same (seed, index) and so the same
    first deal (pimc draws nothing from the game's stream). A pair scores 0, 1/2 or 1
    (matches won of its two); the win share is the mean pair score with its 95% normal
    interval over pairs (the paired interval: deal luck shared by a pair cancels), next
    to the plain Wilson interval over matches (gate >= 65%). Also the CPU time per
    searching decision (gate <= 20 ms with the default parameters).
Writes results/benchmarks/<out>.json (default pimc_schnapsen), after every 10 pairs
while the strength part runs ("complete": false until the last pair).
"""
import argparse
import statistics
import time

import numpy as np
from numba import njit

from common import machine, write
from simcore.bits import bounded, popcount
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.engine import (MAX_LEGAL, N_STATE, OVER, S_CLOSER, S_HAND,
                                            S_PHASE, S_RNG, S_TALON_LEFT, apply_action,
                                            init_game, legal_actions, to_move)
from simcore.games.schnapsen.policies import parse_policy, policy_name
from simcore.games.schnapsen.rules import rules_array
from simcore.games.schnapsen.solver import NODES_COL, WORK_ROWS, new_work, solve
from simcore.statistics.stats import mean_ci, rate_ci


@njit(cache=True)
def endgame_positions(r, seed, count, out):
    """``count`` positions of random play with the talon closed or used up, at a turn to
    lead or follow, into rows of ``out``."""
    st = np.empty(N_STATE, np.int64)
    acts = np.empty(MAX_LEGAL, np.int64)
    k = 0
    i = 0
    while k < count:
        init_game(r, st, np.uint64(seed), i)
        i += 1
        rng = np.uint64(st[S_RNG])
        rng, stop = bounded(rng, 10)
        while st[S_PHASE] != OVER:
            strict = st[S_CLOSER] >= 0 or st[S_TALON_LEFT] == 0
            cards = popcount(np.uint64(st[S_HAND])) + popcount(np.uint64(st[S_HAND + 1]))
            if strict and cards <= stop + 1:
                break
            n = legal_actions(r, st, acts) - 1
            rng, j = bounded(rng, n)
            apply_action(r, st, acts[j])
        if st[S_PHASE] == OVER or not (st[S_CLOSER] >= 0 or st[S_TALON_LEFT] == 0):
            continue
        out[k] = st
        k += 1


@njit(cache=True)
def first_positions(r, seed, count, out):
    """The first position of matches 0 .. count-1 of run ``seed``."""
    st = np.empty(N_STATE, np.int64)
    for i in range(count):
        init_game(r, st, np.uint64(seed), i)
        out[i] = st


@njit(cache=True)
def solve_all(r, states, work):
    """Solve every row of ``states`` for its seat to move; the sum of the values."""
    s = 0
    for i in range(len(states)):
        s += solve(r, states[i], to_move(states[i]), work)
    return s


def _timed_solves(r, states, work, repeats=3):
    """Median CPU seconds of solving all ``states`` (table cleared before each run) and
    the nodes searched per solve."""
    solve_all(r, states[:2], work)
    times = []
    for _ in range(repeats):
        work[:] = 0
        t0 = time.process_time()
        solve_all(r, states, work)
        times.append(time.process_time() - t0)
    return statistics.median(times), work[2 * WORK_ROWS, NODES_COL] / len(states)


def speed(r, a, out):
    """The solver's speed figures into ``out``."""
    work = new_work()
    ends = np.zeros((a.endgames, N_STATE), np.int64)
    endgame_positions(r, a.seed, a.endgames, ends)
    dt, nodes = _timed_solves(r, ends, work)
    out["endgame_solves_per_s"] = a.endgames / dt
    out["endgame_nodes_per_solve"] = float(nodes)
    out["endgame_cards_left_mean"] = float(np.mean(
        [bin(int(s[S_HAND])).count("1") + bin(int(s[S_HAND + 1])).count("1") for s in ends]))
    print(f"endgames (talon closed or empty): {out['endgame_solves_per_s']:,.0f} solves/s, "
          f"{nodes:.0f} nodes a solve (gate >= 250,000/s)", flush=True)
    firsts = np.zeros((a.deals, N_STATE), np.int64)
    first_positions(r, a.seed, a.deals, firsts)
    dt, nodes = _timed_solves(r, firsts, work)
    out["whole_deal_ms_mean"] = 1000 * dt / a.deals
    out["whole_deal_nodes_per_solve"] = float(nodes)
    print(f"whole deal from the first trick: {out['whole_deal_ms_mean']:.2f} ms mean over "
          f"{a.deals} deals, {nodes:,.0f} nodes a solve (gate <= 10 ms mean)", flush=True)


def play_match(eng, pols, seed, idx, searcher, clock):
    """Play match (seed, idx) with policy names ``pols`` per seat; returns the winner and
    adds the searching seat's decisions and CPU time to ``clock``."""
    s = eng.new(seed, idx)
    while True:
        while not eng.deal_over(s):
            p = eng.to_move(s)
            if p == searcher:
                t0 = time.process_time()
                act = eng.choose(pols[p], s)
                clock[1] += time.process_time() - t0
                clock[0] += 1
            else:
                act = eng.choose(pols[p], s)
            eng.apply(s, act)
        if eng.game_over(s):
            return eng.result(s)["winner"]
        eng.next_deal(s)


def strength(rules, a, out, name):
    """Paired matches of ``a.policy`` against heuristic into ``out`` (written as it goes)."""
    eng = GAME.engine(rules)
    pol = policy_name(parse_policy(a.policy))
    opp = a.opponent if a.opponent == "heuristic" else policy_name(parse_policy(a.opponent))
    eng.choose(pol, eng.new(a.seed, 0))          # compile before timing
    eng.choose(opp, eng.new(a.seed, 0))
    scores = []
    wins = 0
    clock = [0, 0.0]
    for idx in range(a.pairs):
        w0 = play_match(eng, [pol, opp], a.seed, idx, 0, clock) == 0
        w1 = play_match(eng, [opp, pol], a.seed, idx, 1, clock) == 1
        wins += w0 + w1
        scores.append((w0 + w1) / 2)
        if (idx + 1) % 10 == 0 or idx + 1 == a.pairs:
            n = len(scores)
            mean, _, lo, hi = mean_ci(sum(scores), sum(x * x for x in scores), n)
            lo, hi = max(lo, 0.0), min(hi, 1.0)   # the normal interval, cut to [0, 1]
            rate, wlo, whi = rate_ci(wins, 2 * n)
            out.update({
                "policy": pol, "opponent": opp, "rules": "austrian",
                "pairs": n, "matches": 2 * n, "wins": wins,
                "pairs_won_both": scores.count(1.0), "pairs_split": scores.count(0.5),
                "pairs_lost_both": scores.count(0.0),
                "win_share": mean, "paired_low": lo, "paired_high": hi,
                "wilson_low": wlo, "wilson_high": whi,
                "decisions": clock[0], "ms_per_decision": 1000 * clock[1] / max(clock[0], 1),
                "complete": n == a.pairs})
            write(name, out)
            print(f"  {n} pairs: {policy_name(parse_policy(a.policy))} won {wins} of {2 * n} "
                  f"matches against {opp}, {100 * mean:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] paired; "
                  f"{out['ms_per_decision']:.1f} ms per decision", flush=True)
    print(f"{pol} vs {opp}: {100 * out['win_share']:.1f}% of {2 * a.pairs} matches, "
          f"paired 95% interval [{100 * out['paired_low']:.1f}%, {100 * out['paired_high']:.1f}%]"
          f" (gate >= 65%); {out['ms_per_decision']:.1f} ms per decision (gate <= 20 ms)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("speed", "strength", "all"), default="all")
    ap.add_argument("--pairs", type=int, default=200, help="match indices, each played twice")
    ap.add_argument("--policy", default="pimc", help="the searching player (a pimc name)")
    ap.add_argument("--opponent", default="heuristic", help="the other seat's player")
    ap.add_argument("--endgames", type=int, default=20000)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="pimc_schnapsen", help="results file name")
    a = ap.parse_args()
    rules = GAME.build_rules()
    out = {"machine": machine(), "command": "python benchmarks/bench_pimc_schnapsen.py "
           f"--part {a.part} --pairs {a.pairs} --policy {a.policy} --opponent {a.opponent} --endgames {a.endgames} "
           f"--deals {a.deals} --seed {a.seed} --out {a.out}"}
    if a.part in ("speed", "all"):
        speed(rules_array(rules), a, out)
        write(a.out, out)
    if a.part in ("strength", "all"):
        strength(rules, a, out, a.out)
    print("wrote", write(a.out, out))


if __name__ == "__main__":
    main()
