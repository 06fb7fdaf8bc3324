"""Schadenfreude pimc's cost savers measured one by one: paired win shares against a baseline.

    python benchmarks/bench_pimc_schadenfreude_methods.py GAMES SEED POLICY [POLICY ...]
    BASE=pimc:worlds=1,cards=1,stop=0 python benchmarks/bench_pimc_schadenfreude_methods.py ...

Four players; each POLICY (and the baseline, ``$BASE``, default the full search of every
decision ``pimc:worlds=32,cards=12,stop=0``) plays one seat among three ``heuristic``
seats, in every seat in turn, on game indices 0 .. GAMES - 1 of SEED
(``bench_pimc_schadenfreude.play``).  Prints per policy its win share with a 95%
interval over the game indices, its CPU ms per decision of the searching seat (the
heuristic seats' time included) and its paired difference from the baseline with a 95%
interval.  ``pimc:worlds=1,cards=1`` is the heuristic (with one card in hand the card
is forced) and ``pimc:worlds=4,cards=4,stop=0`` is ``expert`` (tests/test_expert_players.py),
so both can stand in where decisions must be counted.  Output: stdout only (the runs
quoted in docs/schadenfreude.md are kept in results/benchmarks/pimc_schadenfreude_methods_*.txt).
"""
import contextlib
import io
import os
import sys
import types

from bench_pimc_schadenfreude import mean_half, play
from simcore.games.schadenfreude import GAME


def main():
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    a = types.SimpleNamespace(players=4, games=games, seed=seed)
    rules = GAME.build_rules("standard", players=4)

    def run(p):
        with contextlib.redirect_stdout(io.StringIO()):
            return play(rules, p, a)

    _, bw, bd, bc = run(os.environ.get("BASE", "pimc:worlds=32,cards=12,stop=0"))
    bg = bw.mean(axis=1)
    s, h = mean_half(bg)
    print(f"baseline {s:.3f} [{s-h:.3f},{s+h:.3f}] {1000*bc/bd:.3f} ms", flush=True)
    for p in sys.argv[3:]:
        n, w, d, c = run(p)
        g = w.mean(axis=1)
        s, h = mean_half(g)
        ds, dh = mean_half(g - bg)
        print(f"{n}: {s:.3f} [{s-h:.3f},{s+h:.3f}] {1000*c/d:.3f} ms; diff {ds:+.3f} "
              f"[{ds-dh:+.3f},{ds+dh:+.3f}]", flush=True)


if __name__ == "__main__":
    main()
