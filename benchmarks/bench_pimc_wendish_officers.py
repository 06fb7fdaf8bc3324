"""Where Officers' pimc spends its time (issue 22 item 1): the hand benchmark's Officers'
position played with pimc in both seats, CPU time and solver nodes by trick.

    python benchmarks/bench_pimc_wendish_officers.py [--deals 20] [--seed 1001]
        [--policy pimc:worlds=4,tricks=16] [--out NAME]

Each deal is completed from ``tricksim hand wendish --preset officers --hand "QC JC AD
TD AS AH KH 7C"`` as ``bench_hand_budget.py`` completes it (deal ``i`` of ``--seed``) and
played out by ``--policy`` in both seats on one thread, one decision at a time, so each
decision's CPU time and solver nodes (a seat with one legal card inside a trick left
out, as the solver counts them) are summed by the tricks done before it.  ``moves_md5``
is a digest of every card played: a change to the search that keeps pimc's choices
keeps it, so two runs on the same deals say whether the play is the same.  Written to
results/benchmarks/<NAME>.json (default ``pimc_wendish_officers_profile``).
"""
import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hand_budget import position  # noqa: E402
from common import load_note, write  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--policy", default="pimc:worlds=4,tricks=16")
    ap.add_argument("--out", default="pimc_wendish_officers_profile")
    a = ap.parse_args()
    if a.deals < 1:
        sys.exit(f"--deals {a.deals}: give 1 or more")
    from simcore.analysis.positions import _word, complete, deal_stream
    from simcore.games.wendish.engine import (STATE_SIZE, ST_TEAM0, ST_TRICKS_DONE,
                                              ST_WINNER, apply_action, deal_over)
    from simcore.games.wendish.hand import start_from_slots
    from simcore.games.wendish.pimc import parse_policy, policy_name, py_choose_w
    from simcore.games.wendish.rules import rules_array
    from simcore.games.wendish.solver import SCRATCH, new_work
    try:
        pid = parse_policy(a.policy)
    except ValueError as e:
        sys.exit(f"--policy: {e}")
    _, rules, _, su = position("wendish-officers")
    r = rules_array(rules)
    work = new_work()
    slots = np.empty(32, np.int64)
    scratch = np.empty(32, np.int64)
    st = np.empty(STATE_SIZE, np.int64)
    ns = su.template.shape[0]
    cpu = np.zeros(16)
    nodes = np.zeros(16)
    decisions = np.zeros(16, np.int64)
    moves = []
    wins = 0
    for first in (True, False):          # a first pass on one deal compiles the kernels
        for i in range(1 if first else a.deals):
            rng = _word(deal_stream(np.uint64(a.seed), i))
            rng = _word(complete(su.template, su.free, rng, slots, scratch))
            start_from_slots(r, st, slots[:ns], su.extra["dealer"], rng)
            while not deal_over(st):
                t = int(st[ST_TRICKS_DONE])
                work[SCRATCH + 1, 0] = 0
                t0 = time.process_time()
                c = py_choose_w(r, st, pid, work)
                if not first:
                    cpu[t] += time.process_time() - t0
                    nodes[t] += work[SCRATCH + 1, 0]
                    decisions[t] += 1
                    moves.append(int(c))
                apply_action(r, st, c)
            if not first:
                wins += int((st[ST_WINNER] == 0) == ((st[ST_TEAM0] & 1) == 1))
    total = float(cpu.sum())
    rows = [{"tricks_done": t, "ms_a_deal": round(1000 * cpu[t] / a.deals, 2),
             "knodes_a_deal": round(nodes[t] / a.deals / 1e3, 1),
             "share": round(cpu[t] / total, 4), "decisions": int(decisions[t])}
            for t in range(16)]
    payload = {"command": "python benchmarks/bench_pimc_wendish_officers.py "
                          + " ".join(sys.argv[1:]),
               "policy": policy_name(pid), "deals": a.deals, "seed": a.seed,
               "cpu_seconds": round(total, 2), "ms_a_deal": round(1000 * total / a.deals, 1),
               "nodes": int(nodes.sum()),
               "ns_a_node": round(1e9 * total / max(nodes.sum(), 1), 1),
               "owner_wins": wins, "moves_md5": hashlib.md5(str(moves).encode()).hexdigest(),
               "by_trick": rows, "load": load_note()}
    path = write(a.out, payload)
    print(f"{policy_name(pid)}: {a.deals} deals, {payload['ms_a_deal']} ms a deal, "
          f"{payload['nodes'] / 1e6:.1f}M nodes, {payload['ns_a_node']} ns a node, moves "
          f"{payload['moves_md5']} ({payload['load']})")
    for row in rows:
        if row["decisions"]:
            print(f"  {row['tricks_done']:2d} tricks done: {row['ms_a_deal']:8.1f} ms a deal, "
                  f"{row['knodes_a_deal']:8.0f}k nodes, {100 * row['share']:5.1f}%")
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
