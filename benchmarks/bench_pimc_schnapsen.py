"""Schnapsen open-card solver and pimc player: speed and strength.

    python benchmarks/bench_pimc_schnapsen.py [--matches N] [--worlds W] [--seed S]

Measures, on one thread (CPU time):
  - endgame solves/s: random positions with the talon closed or used up (gate >= 250,000/s);
  - a whole deal solved from the first trick, mean ms (gate <= 10 ms);
  - pimc time per decision with ``--worlds`` (gate <= 20 ms with the default parameters);
  - pimc against heuristic, austrian, on paired deals: every match index is played twice,
    pimc in seat 0 and in seat 1, with the same (seed, index) and so the same deals (pimc
    does not draw from the game's stream); match win rate with its 95% Wilson interval
    (gate >= 65%).
Writes results/benchmarks/pimc_schnapsen.json.
"""
import argparse
import time

import numpy as np
from numba import njit

from common import machine, write
from simcore.bits import bounded, popcount
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.engine import (MAX_LEGAL, N_STATE, OVER, S_CLOSER, S_HAND,
                                            S_PHASE, S_RNG, S_TALON_LEFT, apply_action,
                                            init_game, legal_actions, to_move)
from simcore.games.schnapsen.rules import rules_array
from simcore.games.schnapsen.solver import new_work, solve
from simcore.stats import rate_ci


@njit(cache=True)
def endgame_positions(r, seed, count, out):
    """``count`` positions of random play with the talon closed or used up, at a turn to
    lead or follow, into rows of ``out``."""
    st = np.empty(N_STATE, np.int64)
    acts = np.empty(MAX_LEGAL, np.int64)
    k = 0
    i = 0
    while k < count:
        init_game(r, st, seed, i)
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
    st = np.empty(N_STATE, np.int64)
    for i in range(count):
        init_game(r, st, seed, i)
        out[i] = st


@njit(cache=True)
def solve_all(r, states, work):
    s = 0
    for i in range(len(states)):
        s += solve(r, states[i], to_move(states[i]), work)
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20, help="match indices (each played twice)")
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--endgames", type=int, default=20000)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rules = GAME.build_rules()
    r = rules_array(rules)
    work = new_work()
    out = {"machine": machine(), "command": "python benchmarks/bench_pimc_schnapsen.py "
           f"--matches {a.matches} --worlds {a.worlds} --endgames {a.endgames} "
           f"--deals {a.deals} --seed {a.seed}"}

    ends = np.zeros((a.endgames, N_STATE), np.int64)
    endgame_positions(r, a.seed, a.endgames, ends)
    solve_all(r, ends[:10], work)
    t0 = time.process_time()
    solve_all(r, ends, work)
    dt = time.process_time() - t0
    out["endgame_solves_per_s"] = a.endgames / dt
    out["endgame_cards_left_mean"] = float(np.mean(
        [bin(int(s[S_HAND])).count("1") + bin(int(s[S_HAND + 1])).count("1") for s in ends]))
    print(f"endgames (talon closed or empty): {out['endgame_solves_per_s']:,.0f} solves/s "
          "(gate >= 250,000)")

    firsts = np.zeros((a.deals, N_STATE), np.int64)
    first_positions(r, a.seed, a.deals, firsts)
    times = []
    for s in firsts:
        t0 = time.process_time()
        solve_all(r, s[None, :], work)
        times.append(time.process_time() - t0)
    out["whole_deal_ms_mean"] = 1000 * float(np.mean(times))
    out["whole_deal_ms_max"] = 1000 * float(np.max(times))
    print(f"whole deal from the first trick: {out['whole_deal_ms_mean']:.1f} ms mean, "
          f"{out['whole_deal_ms_max']:.1f} ms max over {a.deals} deals (gate <= 10 ms mean)")

    eng = GAME.engine(rules)
    pimc = f"pimc:worlds={a.worlds}"
    wins = 0
    n = 0
    decisions = 0
    dtime = 0.0
    for idx in range(a.matches):
        for pseat in (0, 1):
            pols = [pimc, "heuristic"] if pseat == 0 else ["heuristic", pimc]
            s = eng.new(a.seed, idx)
            while True:
                while not eng.deal_over(s):
                    p = eng.to_move(s)
                    if pols[p] == pimc:
                        t0 = time.process_time()
                        act = eng.choose(pimc, s)
                        dtime += time.process_time() - t0
                        decisions += 1
                    else:
                        act = eng.choose("heuristic", s)
                    eng.apply(s, act)
                if eng.game_over(s):
                    break
                eng.next_deal(s)
            wins += eng.result(s)["winner"] == pseat
            n += 1
        rate, lo, hi = rate_ci(wins, n)
        print(f"  {n} matches: pimc won {wins} ({100 * rate:.1f}%), "
              f"{1000 * dtime / max(decisions, 1):.0f} ms per decision", flush=True)
    rate, lo, hi = rate_ci(wins, n)
    out.update({"pimc": pimc, "matches": n, "pimc_wins": wins, "pimc_win_rate": rate,
                "pimc_win_low": lo, "pimc_win_high": hi, "pimc_decisions": decisions,
                "pimc_ms_per_decision": 1000 * dtime / max(decisions, 1),
                "pimc_decisions_per_s": decisions / dtime if dtime else None})
    print(f"pimc vs heuristic: {100 * rate:.1f}% of {n} matches, 95% interval "
          f"[{100 * lo:.1f}%, {100 * hi:.1f}%] (gate >= 65%); "
          f"{out['pimc_ms_per_decision']:.1f} ms per decision (gate <= 20 ms)")
    print("wrote", write("pimc_schnapsen", out))


if __name__ == "__main__":
    main()
