"""Is ``tricksim hand``'s default answer (the strongest players that fit --budget) right?
(issue 22 item 1's gate).

    python benchmarks/bench_hand_budget.py [--only NAME ...] [--budget 20] [--threads 2]
        [--reference-deals 1000] [--seed 1] [--reference-only] [--reuse-reference]
        [--out FILE]

For each position below: the default answer exactly as ``tricksim hand GAME ARGS
--budget B`` computes it (the players the budget picks, the deals that fit, P(win) of
the first row, "policy decides", with its 95% Wilson interval), and a reference:
the game's strongest player (pimc) in every seat on ``--reference-deals`` deals of
another seed, the first row only (the policy decides its start itself), with its
interval.  ``ref_in_default_interval``: the reference's P(win) lies in the default
answer's 95% interval (the gate); ``default_in_ref_interval`` the other way round.

A reference records the player it resolved to (``policy_name``, the canonical name, and
``policy_id``, the kernel id, which encodes every parameter, defaults included), its
deals and seed.  ``--reuse-reference`` keeps a stored reference whose position (game,
rules, hand), resolved player, deals and seed all match the run's and computes only
the default answer, so the gate can be rerun cheaply after a change to the budget's
ladder; a reference that does not match is computed again.  ``--reference-only``
computes (or, with ``--reuse-reference``, keeps) the references and leaves the default
answers out (the gate of such a row is not judged until a later run adds them).
``--threads`` is the threads of whatever the run computes; each part records its own.

Results merge into results/benchmarks/hand_budget.json by position name (so positions
can be run one at a time); the file says how many reference deals each position had.

With 20 positions each judged at 95%, about one miss is expected when every answer is
right, so the run ends with the family's verdict too (``family``, ``--summary`` prints it
from the stored file without running anything): per position, the difference default -
reference with its z (independent samples, binomial standard errors), the two-sided
p-value and Holm's adjustment over every judged position; a position is consistent at
the family's 5% when its Holm p is at least 0.05.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import RESULTS, load_note, write  # noqa: E402

#: name: (game, rules options, hand options) as ``tricksim hand`` takes them
POSITIONS = {
    "schnapsen-issue": ("schnapsen", {}, {"hand": "AH TH KH QH JC", "trump_card": "JS"}),
    "schnapsen-trumps": ("schnapsen", {}, {"hand": "AC TC KC QS JD", "trump_card": "QC"}),
    "schnapsen-weak": ("schnapsen", {}, {"hand": "JH QS KD JC QD", "trump_card": "AH"}),
    "schnapsen-dealer": ("schnapsen", {}, {"hand": "AS TS KH QH JD", "dealer": 0}),
    "schnapsen-random-trump": ("schnapsen", {}, {"hand": "AD TD KD QC JS"}),
    "schnapsen-diamonds": ("schnapsen", {}, {"hand": "TD KD QD JD AC", "trump_card": "AD"}),
    "schnapsen-seat1": ("schnapsen", {}, {"hand": "AH AS TC KC QC", "seat": 1,
                                         "trump_card": "JH"}),
    "wendish-strong": ("wendish", {}, {"hand": "QC QS QH JC AD TD AC AS"}),
    "wendish-weak": ("wendish", {}, {"hand": "7H 8H 9S 7C KC TS 8S 9C"}),
    "wendish-middle": ("wendish", {}, {"hand": "QD JH AD KD 9D AH TH 8C"}),
    "wendish-seat2": ("wendish", {}, {"hand": "QS JS JD AD AC KH 7S 8S", "seat": 2}),
    "wendish-three": ("wendish", {"preset": "dreiwendsch"},
                      {"hand": "QC QH JD AD TD 9D AS TS KS AH"}),
    "wendish-officers": ("wendish", {"preset": "officers"},
                         {"hand": "QC JC AD TD AS AH KH 7C"}),
    "schadenfreude-4-low": ("schadenfreude", {"players": 4},
                            {"hand": "9C 9S 9H 8C 8S 10W 0W -3C"}),
    "schadenfreude-4-partial": ("schadenfreude", {"players": 4}, {"hand": "9C 9S 9H 8C 10W"}),
    "schadenfreude-3": ("schadenfreude", {"players": 3}, {"hand": "1S 4C 6H 7C 5S"}),
    "schadenfreude-5": ("schadenfreude", {"players": 5}, {"hand": "9C 8S 7H 10W"}),
    "schadenfreude-4-seat2": ("schadenfreude", {"players": 4},
                              {"hand": "1C 2S 3H 0W 9S", "seat": 2}),
    "schadenfreude-3-high": ("schadenfreude", {"players": 3}, {"hand": "1C 2C 3S 4H 5H"}),
    "schadenfreude-4-known": ("schadenfreude", {"players": 4},
                              {"hand": "5C 6S 7H", "known": [(1, "9C 9S")]}),
}


def position(name):
    """(g, rules, hand module, setup) of a named position."""
    from simcore.games import get_game, get_hand
    game, ropts, hopts = POSITIONS[name]
    g = get_game(game)
    rules = g.build_rules(ropts.get("preset"), None, (), ropts.get("players"))
    mod = get_hand(game)
    su = mod.setup(rules, hopts.get("seat", 0), hopts.get("dealer"), hopts["hand"],
                   hopts.get("known", []), trump_card=hopts.get("trump_card"))
    return g, rules, mod, su


def default_answer(name, budget, threads, seed):
    """The answer ``tricksim hand`` gives without --policy."""
    from simcore.analysis.budget import Limits
    from simcore.analysis.positions import Question, budgeted, hand_play, wilson
    g, rules, mod, su = position(name)
    t0 = time.perf_counter()
    ans = budgeted(g, rules, hand_play(g, mod, rules, su, seed), None,
                   Limits(budget, threads, 10_000),
                   Question("deal", "this hand", lambda r: r[1][0],
                            f"P(win) of '{su.choices[0].label}'"))
    wins = ans.result[1][0]
    p, lo, hi = wilson(int(wins.sum()), len(wins))
    return {"players": ans.names, "deals": ans.samples, "seconds": round(ans.seconds, 2),
            "wall_seconds": round(time.perf_counter() - t0, 2), "win": p, "low": lo, "high": hi,
            "lines": ans.lines}


def strongest(name):
    """(the strongest player's text, canonical name, kernel id) of a position's rules."""
    g, rules, _, _ = position(name)
    text = g.contract(rules).strongest_policy
    names, ids = g.policy_ids(text.split(","), rules)
    return text, names[0], int(ids[0])


def first_row_wins(name, policy, deals, threads, seed):
    """Per deal, whether the seat won with the first row ("policy decides") of
    ``name``, ``policy`` in every seat, deals ``0 .. deals-1`` of ``seed``."""
    from simcore.analysis import budget as b
    from simcore.analysis.positions import hand_play
    g, rules, mod, su = position(name)
    su.choices = su.choices[:1]
    return b.play_all(hand_play(g, mod, rules, su, seed), policy, deals, threads,
                      per_sample=0.2)[1][0]


def reference(name, deals, threads, seed):
    """P(win) of the first row with the strongest player in every seat."""
    from simcore.analysis.positions import wilson
    text, canonical, pid = strongest(name)
    t0 = time.perf_counter()
    wins = first_row_wins(name, text, deals, threads, seed)
    p, lo, hi = wilson(int(wins.sum()), len(wins))
    return {"policy": text, "policy_name": canonical, "policy_id": pid, "deals": len(wins),
            "seed": seed, "threads": threads, "seconds": round(time.perf_counter() - t0, 1),
            "win": p, "low": lo, "high": hi, "load": load_note("wall time")}


def same_position(row, name) -> bool:
    """Whether a stored row was measured on position ``name`` as defined now."""
    game, ropts, hopts = POSITIONS[name]
    return (row.get("game") == game and row.get("rules") == json.loads(json.dumps(ropts))
            and row.get("hand") == json.loads(json.dumps(hopts)))


def reusable(row, name, deals, seed) -> bool:
    """Whether ``row``'s stored reference is the one this run would compute: the same
    position, the same resolved player (canonical name and kernel id), deals and seed."""
    ref = (row or {}).get("reference")
    if not ref or not same_position(row, name):
        return False
    _, canonical, pid = strongest(name)
    return (ref.get("policy_name") == canonical and ref.get("policy_id") == pid
            and ref.get("deals") == deals and ref.get("seed") == seed)


def family_check(positions: dict) -> dict:
    """The family-wise verdict of the judged positions (module doc): per position the
    difference, z, p and Holm p, and which are inconsistent at the family's 5%."""
    import math

    from simcore.statistics.stats import holm
    rows = {}
    for name, row in positions.items():
        d, r = row.get("default"), row.get("reference")
        if not d or not r:
            continue
        diff = d["win"] - r["win"]
        se = math.sqrt(d["win"] * (1 - d["win"]) / d["deals"]
                       + r["win"] * (1 - r["win"]) / r["deals"])
        z = diff / se if se > 0 else (0.0 if diff == 0 else math.inf)
        rows[name] = {"diff": diff, "z": z, "p": math.erfc(abs(z) / math.sqrt(2)),
                      "default_deals": d["deals"], "reference_deals": r["deals"]}
    for name, adjusted in zip(rows, holm([v["p"] for v in rows.values()])):
        rows[name]["holm_p"] = adjusted
    return {"positions": rows, "judged": len(rows),
            "inconsistent_at_95_each": sorted(n for n, v in rows.items() if v["p"] < 0.05),
            "inconsistent_familywise": sorted(n for n, v in rows.items()
                                              if v["holm_p"] < 0.05)}


def print_family(family: dict) -> None:
    """The family-wise verdict (``family_check``) as lines."""
    for name, v in family["positions"].items():
        print(f"  {name:24s} {100 * v['diff']:+5.1f} pp  z {v['z']:+.2f}  p {v['p']:.3f}  "
              f"Holm p {v['holm_p']:.3f}")
    print(f"{family['judged']} positions judged; inconsistent at 95% each: "
          f"{', '.join(family['inconsistent_at_95_each']) or 'none'}; at the family's 5% "
          f"(Holm): {', '.join(family['inconsistent_familywise']) or 'none'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, choices=sorted(POSITIONS),
                    help="positions to run (default: all)")
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reference-deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference-only", action="store_true",
                    help="compute the references only (no default answers)")
    ap.add_argument("--reuse-reference", action="store_true",
                    help="keep a stored reference whose position, resolved player, deals "
                         "and seed match")
    ap.add_argument("--out", default=None)
    ap.add_argument("--summary", action="store_true",
                    help="print the family-wise verdict of the stored results and stop")
    a = ap.parse_args()
    out = Path(a.out) if a.out else RESULTS / "hand_budget.json"
    old = {}
    if out.exists():
        prev = json.loads(out.read_text())
        if prev.get("benchmark") != "hand_budget":
            sys.exit(f"{out} was not written by this benchmark; give another --out")
        old = prev.get("positions", {})
    if a.summary:
        if not old:
            sys.exit(f"{out} holds no results yet")
        print_family(family_check(old))
        return 0
    command = "python benchmarks/bench_hand_budget.py " + " ".join(sys.argv[1:])
    for name in a.only or list(POSITIONS):
        game, ropts, hopts = POSITIONS[name]
        ref_seed = a.seed + 1000
        stored = old.get(name)
        if a.reuse_reference and reusable(stored, name, a.reference_deals, ref_seed):
            r, kept = stored["reference"], True
        else:
            r, kept = reference(name, a.reference_deals, a.threads, ref_seed), False
            r["command"] = command
        row = {"game": game, "rules": ropts, "hand": {k: v for k, v in hopts.items()},
               "reference": r}
        if a.reference_only and kept:
            row = stored
            print(f"{name}: reference {r['policy_name']} kept", flush=True)
        elif a.reference_only:
            row.update(default=None, ref_in_default_interval=None,
                       default_in_ref_interval=None)
            print(f"{name}: reference {r['policy_name']} {r['deals']} deals "
                  f"{100 * r['win']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}] in "
                  f"{r['seconds']} s{' (kept)' if kept else ''}", flush=True)
        else:
            d = default_answer(name, a.budget, a.threads, a.seed)
            d["command"] = command
            row.update(budget=a.budget, threads=a.threads, default=d,
                       ref_in_default_interval=d["low"] <= r["win"] <= d["high"],
                       default_in_ref_interval=r["low"] <= d["win"] <= r["high"],
                       load=load_note("wall time"))
            print(f"{name}: default {', '.join(sorted(set(d['players'])))} {d['deals']} deals "
                  f"{100 * d['win']:.1f}% [{100 * d['low']:.1f}, {100 * d['high']:.1f}] in "
                  f"{d['seconds']} s; reference {r['policy_name']} {r['deals']} deals "
                  f"{100 * r['win']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
                  f"{' (kept)' if kept else ''}; ref in default interval: "
                  f"{row['ref_in_default_interval']}", flush=True)
        old[name] = row
        write("hand_budget", {"command": command,
                              "note": "each position's figures carry their own command, "
                                      "budget, threads, reference deals and load",
                              "positions": old, "family": family_check(old)}, out)
    print_family(family_check(old))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")
    sys.exit(main())
