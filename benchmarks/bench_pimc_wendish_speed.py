"""Wendish pimc's cost a card against its strength, for several settings of the player
(issue 21 item 2: the default at most 1 ms a card, no weaker than the old default).

    python benchmarks/bench_pimc_wendish_speed.py --variant four
        --policies pimc,pimc:tricks=16 [--base pimc:tricks=16] [--part time,strength]
        [--deals N] [--games G] [--seed S] [--out FILE]

time: ``tricksim simulate wendish --set variant=V --games G --seed S --threads 1
--policy P,P,..`` (P in every seat, after a warm-up run), the play time it prints over
the cards of its deals: ms a card, end to end, one thread, all seats searching.

strength: every deal (``deals=1``, run ``seed``, deals 0..N-1) played with the
heuristic everywhere and, for each seat s in turn, with P in s and the heuristic
elsewhere (the same cards: no player draws from the game's stream).  A deal's figure
is the mean over the seats of seat s's score with P minus its score with the
heuristic there (``edge``), and with P minus with ``--base`` there (``vs_base``: the
old default on the same deals and seats), mean per deal with a 95% normal interval.
Writes results/benchmarks/pimc_wendish_speed_<variant>_<seed>.json.
"""
import argparse
import os
import sys
import tempfile
import time

import numba
import numpy as np

from bench_expert import interval, kernel_seconds, tricksim
from common import load_note, write
from simcore.games.wendish import GAME
from simcore.games.wendish.cards import VARIANT_HAND, VARIANTS

numba.set_num_threads(1)


def ms_per_card(variant, policy, games, seed):
    """ms a card of ``policy`` in every seat through ``tricksim simulate`` (module)."""
    rules = GAME.build_rules(assignments=[f"variant={variant}"])
    n = GAME.seats(rules)
    opts = ["--set", f"variant={variant}", "--threads", "1", "--policy",
            ",".join([policy] * n)]
    with tempfile.TemporaryDirectory() as tmp:
        tricksim("simulate", "wendish", *opts, "--games", "1", "--seed", str(seed + 1),
                 "--out", tmp + "/warm")
        out = tricksim("simulate", "wendish", *opts, "--games", str(games), "--seed",
                       str(seed), "--out", tmp + "/run")
    cards = games * rules["deals"] * n * VARIANT_HAND[VARIANTS.index(variant)]
    secs = kernel_seconds(out)
    return {"games": games, "cards": cards, "seconds": secs,
            "ms_per_card": 1000 * secs / cards,
            "command": f"tricksim simulate wendish {' '.join(opts)} --games {games} "
                       f"--seed {seed}"}


def seat_scores(rules, n, policy, deals, seed):
    """Scores [deal, seat s] with ``policy`` in seat s and the heuristic elsewhere
    (every seat's own run), and the CPU seconds they took."""
    out = np.zeros((deals, n), dtype=np.int64)
    t0 = time.process_time()
    for s in range(n):
        pols = ["heuristic"] * n
        pols[s] = policy
        sc = GAME.run_chunk(rules, GAME.policy_ids(pols, rules)[1], seed, 0,
                            deals)["deals"]["scores"]
        out[:, s] = sc[:, s]
    return out, time.process_time() - t0


def strength(variant, policies, base, deals, seed):
    """Paired edges over the heuristic and over ``base`` (module)."""
    rules = GAME.build_rules(assignments=[f"variant={variant}", "deals=1"])
    n = GAME.seats(rules)
    heur, _ = seat_scores(rules, n, "heuristic", deals, seed)
    scores = {}
    for p in dict.fromkeys([base, *policies]):
        seat_scores(rules, n, p, 1, seed + 1)  # compile outside the clock
        scores[p] = seat_scores(rules, n, p, deals, seed)
        print(f"  {p}: {scores[p][1]:.1f} s CPU", file=sys.stderr, flush=True)
    res = {}
    for p in policies:
        sc, cpu = scores[p]
        res[p] = {"edge": interval((sc - heur).mean(axis=1)),
                  "vs_base": interval((sc - scores[base][0]).mean(axis=1)),
                  "cpu_seconds": cpu}
    return {"deals": deals, "seats_rotated": n, "base": base, "policies": res}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="four", choices=VARIANTS)
    ap.add_argument("--policies", default="pimc/pimc:worlds=8,tricks=16",
                    help="pimc settings to measure, separated by '/'")
    ap.add_argument("--base", default="pimc:worlds=8,tricks=16",
                    help="the player compared against (default: the old default pimc)")
    ap.add_argument("--part", default="time,strength")
    ap.add_argument("--deals", type=int, default=1000, help="deals of the strength part")
    ap.add_argument("--games", type=int, default=4, help="games of the time part")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    policies = [p for p in a.policies.split("/") if p]
    parts = a.part.split(",")
    res = {"variant": a.variant, "seed": a.seed,
           "command": "python benchmarks/bench_pimc_wendish_speed.py "
                      + " ".join(sys.argv[1:])}
    if "time" in parts:
        res["time"] = {}
        for p in policies:
            res["time"][p] = ms_per_card(a.variant, p, a.games, a.seed)
            print(f"{p}: {res['time'][p]['ms_per_card']:.3f} ms a card", flush=True)
    if "strength" in parts:
        res["strength"] = strength(a.variant, policies, a.base, a.deals, a.seed)
        for p, e in res["strength"]["policies"].items():
            f = "{mean:+.3f} [{low:+.3f}, {high:+.3f}]"
            print(f"{p}: edge {f.format(**e['edge'])}  vs {a.base} "
                  f"{f.format(**e['vs_base'])}", flush=True)
    res["note"] = load_note("wall time (time part) and CPU time (strength) of one thread")
    print(res["note"])
    name = f"pimc_wendish_speed_{a.variant}_{a.seed}"
    print(f"wrote {write(name, res, a.out)}")


if __name__ == "__main__":
    main()
