"""Schadenfreude pimc against the heuristic: strength on rotated deals, and time per decision.

    python benchmarks/bench_pimc_schadenfreude.py [--games N] [--policy pimc:worlds=8,depth=1]
        [--baseline pimc:cards=12,stop=0] [--players 4] [--seed S] [--threads T] [--out PATH]

Four players (``--players``): one ``--policy`` seat against ``heuristic`` in the others.
Every game index is played once with the searching seat in each seat, with the same
(seed, index) and so the same first deal (neither player draws from the game's stream;
later rounds follow the scores), so deal and seat luck cancel.  Reports the searching
seat's win share with a 95% interval over the game indices (each index's share of its
rotations is one observation: the rotations of one deal are not independent), the gate
(interval above a fair share, 1 / players: 25% for four), and the CPU time per searching
decision.  ``--baseline P`` plays ``P`` on the same game indices and seats too and reports
the paired difference of the two win shares (``--policy`` minus ``--baseline``) with its 95%
interval over the game indices (the first deal of each index is the same for both; later
rounds follow the scores).  Writes results/benchmarks/pimc_schadenfreude.json (or ``--out``).
"""
import argparse
import time

import numpy as np

from common import machine, write
from simcore.games.schadenfreude import GAME
from simcore.running.runner import resolve_threads


def rotated(policy, players, k):
    """The policy list with ``policy`` in seat ``k`` and ``heuristic`` elsewhere."""
    return ["heuristic"] * k + [policy] + ["heuristic"] * (players - k - 1)


def mean_half(x):
    """The mean of ``x`` and the half-width of its normal 95% interval."""
    return float(x.mean()), 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x))


def play(rules, policy, a):
    """One ``policy`` seat among heuristic ones in every seat in turn, on game indices
    0 .. a.games - 1: (its canonical name, wins per index and seat, its decisions, CPU
    seconds)."""
    n = a.players
    wins = np.zeros((a.games, n))
    decisions = 0
    cpu = 0.0
    name = None
    for k in range(n):
        names, ids = GAME.policy_ids(rotated(policy, n, k), rules)
        name = names[k]
        GAME.run_chunk(rules, ids, a.seed, 0, 1)          # compile before the clock
        t0 = time.process_time()
        chunk = GAME.run_chunk(rules, ids, a.seed, 0, a.games)
        cpu += time.process_time() - t0
        decisions += chunk["search_decisions"]
        wins[:, k] = chunk["games"]["winner"] == k
        print(f"{name} in seat {k}: {int(wins[:, k].sum())} of {a.games} games won",
              flush=True)
    return name, wins, decisions, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=500, help="game indices (each played "
                    "once per seat)")
    ap.add_argument("--policy", default="pimc", help="the searching player")
    ap.add_argument("--baseline", default=None, help="a second player played on the same "
                    "indices and seats; prints the paired difference")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    import numba
    numba.set_num_threads(resolve_threads(a.threads))
    rules = GAME.build_rules("standard", players=a.players)
    n = a.players
    wall0 = time.perf_counter()
    name, wins, decisions, cpu = play(rules, a.policy, a)
    per_game = wins.mean(axis=1)                           # share of the rotations won
    share, half = mean_half(per_game)
    fair = 1.0 / n
    out = {
        "machine": machine(),
        "command": (f"python benchmarks/bench_pimc_schadenfreude.py --games {a.games} "
                    f"--policy {a.policy} --players {n} --seed {a.seed} --threads {a.threads}"
                    + (f" --baseline {a.baseline}" if a.baseline else "")),
        "policy": name, "against": "heuristic", "players": n, "game_indices": a.games,
        "games": a.games * n, "wins": int(wins.sum()),
        "win_share": share, "win_low": share - half, "win_high": share + half,
        "interval": "95%, normal over game indices (each index: its share of the rotations)",
        "fair_share": fair, "gate": f"interval above {fair:.0%}",
        "gate_met": bool(share - half > fair),
        "win_share_by_seat": [float(x) for x in wins.mean(axis=0)],
        "search_decisions": int(decisions),
        "cpu_seconds": cpu,
        "ms_per_decision": 1000.0 * cpu / decisions if decisions else None,
        "note": "CPU time of whole games (the heuristic seats' time included, which is "
                "negligible), measured on a shared, loaded machine",
    }
    print(f"{name} vs 3 heuristic: win share {share:.1%} [{share - half:.1%}, "
          f"{share + half:.1%}] over {a.games} x {n} games; {out['ms_per_decision']:.3f} ms "
          f"per decision; gate (> {fair:.0%}) {'met' if out['gate_met'] else 'NOT met'}")
    if a.baseline:
        bname, bwins, bdec, bcpu = play(rules, a.baseline, a)
        bshare, bhalf = mean_half(bwins.mean(axis=1))
        diff, dhalf = mean_half(per_game - bwins.mean(axis=1))
        out["baseline"] = {
            "policy": bname, "win_share": bshare, "win_low": bshare - bhalf,
            "win_high": bshare + bhalf, "search_decisions": int(bdec), "cpu_seconds": bcpu,
            "ms_per_decision": 1000.0 * bcpu / bdec if bdec else None}
        out["paired_difference"] = {
            "value": diff, "low": diff - dhalf, "high": diff + dhalf,
            "of": f"{name} minus {bname}: win share on the same game indices and seats",
            "verdict": ("evidence that it is stronger" if diff - dhalf > 0 else
                        "evidence that it is weaker" if diff + dhalf < 0 else
                        "no clear evidence of a difference")}
        print(f"baseline {bname}: {bshare:.1%} [{bshare - bhalf:.1%}, {bshare + bhalf:.1%}], "
              f"{out['baseline']['ms_per_decision']:.3f} ms per decision; paired difference "
              f"{diff:+.1%} [{diff - dhalf:+.1%}, {diff + dhalf:+.1%}]: "
              f"{out['paired_difference']['verdict']}")
    out["wall_seconds"] = time.perf_counter() - wall0
    print("wrote", write("pimc_schadenfreude", out, a.out))


if __name__ == "__main__":
    main()
