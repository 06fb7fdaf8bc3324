"""Wendish pimc against the heuristic, on paired deals, for one variant, with each way
of taking the contract decisions.

    python benchmarks/bench_pimc_wendish.py --variant four [--deals N] [--worlds W]
        [--contracts heuristic,playout,search] [--seed S] [--budget SECONDS] [--out FILE]

Every game is one deal (``deals=1``), game ``index`` of run ``seed``, with the searching
seat ``s = index % players`` (rotated).  Each deal is played with the same cards (pimc
does not draw from the game's stream, the heuristic draws nothing):

* with the ``heuristic`` everywhere (the baseline);
* with ``pimc:worlds=W,contracts=M`` in seat s and the heuristic elsewhere, for every
  method M of ``--contracts``.

A method's figure is seat s's score with pimc there minus its score in the baseline
(mean per deal, 95% normal interval): what putting that pimc in the seat is worth,
deal luck cancelled.  Gate: the interval above zero.  Methods are also compared with
each other on the same deals (``vs_contracts_heuristic``: the paired difference to
pimc with the heuristic's contracts).

Saving work, exactly: pimc's card play is a function of the state (its draws come
from a stream derived from the decision), so a deal in which method M takes the same
contract decisions as the heuristic ends exactly as with ``contracts=heuristic``.
The contract round of each deal is therefore first walked with M's decisions for
seat s (the engine's kernels, one decision at a time, timed); only deals where some
decision differs from the heuristic's are played out again with M.  With
``heuristic`` not among the methods every deal is played out with each method.

Times are CPU times of one thread: per contract decision of seat s (by method), and
per card decision of the pimc seat.  Contract shares: of the deals, how often seat s
declares a Lust Solo, plays the Old Ones' quiet solo, a wedding, or neither (a
normal game or another seat's contract), with pimc there and with the heuristic
there.  Writes results/benchmarks/pimc_wendish_<variant>.json.
"""
import argparse
import time

import numpy as np

from common import load_note, machine, write
from simcore.games.wendish import GAME
from simcore.games.wendish.engine import (P_DONE, P_PLAY, QUIET_SOLO, SOLO, STATE_SIZE,
                                          ST_PHASE, ST_TO_MOVE, WEDDING, py_apply,
                                          py_init_game)
from simcore.games.wendish.pimc import PIMC_WORLDS, parse_policy, py_choose_w
from simcore.games.wendish.policies import HEURISTIC, py_choose
from simcore.games.wendish.rules import rules_array
from simcore.games.wendish.solver import new_work

SHARES = ("lust_solo", "quiet_solo", "wedding", "none")


def share_key(contract, declarer, seat):
    """What seat ``seat`` declared in a deal: one of SHARES."""
    if declarer != seat:
        return "none"
    return {SOLO: "lust_solo", QUIET_SOLO: "quiet_solo", WEDDING: "wedding"}.get(contract,
                                                                                 "none")


def interval(d):
    """Mean and 95% normal interval of the values ``d``."""
    d = np.asarray(d, dtype=np.float64)
    if len(d) < 2:
        return {"mean": float(d.mean()) if len(d) else None, "low": None, "high": None}
    m = float(d.mean())
    half = float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))
    return {"mean": m, "low": m - half, "high": m + half}


def walk_contracts(r, pid, seed, index, seat, work):
    """The contract round of deal ``index`` with ``pid`` in ``seat`` and the heuristic
    elsewhere: (whether some decision of ``seat`` differed from the heuristic's, CPU
    seconds of its decisions, how many it took)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    py_init_game(r, st, seed, index)
    differs = False
    cpu = 0.0
    k = 0
    while st[ST_PHASE] != P_PLAY and st[ST_PHASE] != P_DONE:
        h = py_choose(r, st, HEURISTIC)
        a = h
        if st[ST_TO_MOVE] == seat:
            t0 = time.process_time()
            a = py_choose_w(r, st, pid, work)
            cpu += time.process_time() - t0
            k += 1
            differs |= a != h
        py_apply(r, st, a)
    return differs, cpu, k


def run(variant, deals, worlds, methods, seed, budget, chunk):
    """The paired comparison (see the module)."""
    rules = GAME.build_rules(assignments=[f"variant={variant}", "deals=1"])
    r = rules_array(rules)
    n = GAME.seats(rules)
    work = new_work()
    heur = GAME.policy_ids(["heuristic"], rules)[1]
    pids = {m: parse_policy(f"pimc:worlds={worlds},contracts={m}") for m in methods}

    def ids(m, s):
        return np.array([pids[m] if q == s else HEURISTIC for q in range(n)], dtype=np.int64)

    # compile outside the clock
    for m in methods:
        GAME.run_chunk(rules, ids(m, 0), seed + 1, 0, 1)
        walk_contracts(r, pids[m], np.uint64(seed + 1), 0, 0, work)
    GAME.run_chunk(rules, heur, seed + 1, 0, 1)
    shortcut = "heuristic" in methods
    res = {m: {"scores": [], "shares": dict.fromkeys(SHARES, 0), "cpu_contract": 0.0,
               "contract_decisions": 0, "replayed": 0} for m in methods}
    base, base_shares = [], dict.fromkeys(SHARES, 0)
    card_cpu, card_dec = 0.0, 0
    t_end = time.time() + budget
    start = 0
    while start < deals and time.time() < t_end:
        count = min(chunk, deals - start)
        h = GAME.run_chunk(rules, heur, seed, start, count)["deals"]
        for i in range(start, start + count):
            s = i % n
            j = i - start
            base.append(int(h["scores"][j, s]))
            base_shares[share_key(h["contract"][j], h["declarer"][j], s)] += 1
            done = {}
            order = (["heuristic"] if shortcut else []) + [m for m in methods
                                                           if m != "heuristic"]
            for m in order:
                differs, cpu, k = walk_contracts(r, pids[m], np.uint64(seed), i, s, work)
                res[m]["cpu_contract"] += cpu
                res[m]["contract_decisions"] += k
                if shortcut and m != "heuristic" and not differs:
                    row = done["heuristic"]
                else:
                    t0 = time.process_time()
                    c = GAME.run_chunk(rules, ids(m, s), seed, i, 1)
                    dt = time.process_time() - t0
                    row = (int(c["deals"]["scores"][0, s]), int(c["deals"]["contract"][0]),
                           int(c["deals"]["declarer"][0]))
                    if m == "heuristic":
                        # card decisions of the pimc seat: all of its decisions but its
                        # contract ones (taken by the heuristic here, at no cost)
                        card_cpu += dt
                        card_dec += int(c["games"]["search_decisions"].sum()) - k
                    else:
                        res[m]["replayed"] += 1
                done[m] = row
                res[m]["scores"].append(row[0])
                res[m]["shares"][share_key(row[1], row[2], s)] += 1
        start += count
    nd = len(base)
    out = {"variant": variant, "players": n, "worlds": worlds, "seed": seed, "deals": nd,
           "heuristic_score_per_deal": float(np.mean(base)) if nd else None,
           "heuristic_contract_shares": {k: v / nd for k, v in base_shares.items()} if nd
           else None,
           "cpu_ms_per_card_decision": 1000 * card_cpu / card_dec if card_dec else None,
           "methods": {}}
    for m in methods:
        x = res[m]
        d = np.array(x["scores"]) - np.array(base)
        iv = interval(d)
        entry = {
            "policy": GAME.policy_ids([f"pimc:worlds={worlds},contracts={m}"], rules)[0][0],
            "pimc_score_per_deal": float(np.mean(x["scores"])) if nd else None,
            "difference_per_deal": iv["mean"], "difference_low": iv["low"],
            "difference_high": iv["high"],
            "gate_interval_above_zero": bool(iv["low"] is not None and iv["low"] > 0),
            "deals_changed": int((d != 0).sum()),
            "contract_shares": {k: v / nd for k, v in x["shares"].items()} if nd else None,
            "contract_decisions": x["contract_decisions"],
            "cpu_ms_per_contract_decision": (1000 * x["cpu_contract"] / x["contract_decisions"]
                                             if x["contract_decisions"] else None),
            "deals_played_again": x["replayed"] if shortcut else nd,
        }
        if "heuristic" in methods and m != "heuristic":
            dv = np.array(x["scores"]) - np.array(res["heuristic"]["scores"])
            iv = interval(dv)
            entry["vs_contracts_heuristic"] = {"difference_per_deal": iv["mean"],
                                               "low": iv["low"], "high": iv["high"],
                                               "deals_changed": int((dv != 0).sum())}
        out["methods"][m] = entry
    out["note"] = load_note()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="four", choices=("four", "three", "three_sharp",
                                                          "officers"))
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--worlds", type=int, default=PIMC_WORLDS)
    ap.add_argument("--contracts", default="heuristic,playout,search",
                    help="contract methods to measure, comma-separated (heuristic, playout, "
                         "search)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--budget", type=float, default=3600.0, help="seconds of play at most")
    ap.add_argument("--chunk", type=int, default=20)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    methods = list(dict.fromkeys(m.strip() for m in a.contracts.split(",") if m.strip()))
    for m in methods:
        try:
            parse_policy(f"pimc:contracts={m}")
        except ValueError as e:
            ap.error(str(e))
    res = run(a.variant, a.deals, a.worlds, methods, a.seed, a.budget, a.chunk)
    res["machine"] = machine()
    res["command"] = (f"python benchmarks/bench_pimc_wendish.py --variant {a.variant} "
                      f"--deals {a.deals} --worlds {a.worlds} --contracts {','.join(methods)} "
                      f"--seed {a.seed} --budget {a.budget:g}"
                      + (f" --out {a.out}" if a.out else ""))
    path = write(f"pimc_wendish_{a.variant}", res, a.out)
    for k, v in res.items():
        if k not in ("machine", "methods"):
            print(f"{k}: {v}")
    for m, e in res["methods"].items():
        print(f"[contracts={m}]")
        for k, v in e.items():
            print(f"  {k}: {v}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
