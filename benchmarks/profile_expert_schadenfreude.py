"""Where Schadenfreude's four-player ``expert`` spends its search time (issue 21 item 3).

    python benchmarks/profile_expert_schadenfreude.py [--games 3000] [--seed 7]

Collects the expert seat's (seat 0, heuristic elsewhere) decisions with 2 to 4 cards in
hand over ``--games`` games of ``--seed``, then times on those states (CPU, one thread,
after compiling): the shipped expert's choice; the table's worlds sampled alone; every
legal card played out in every world with the heuristic (no stopping rule), counting
playouts, plies and heuristic calls; the same with the lowest legal card instead of the
heuristic (the engine's part). Writes results/benchmarks/expert_schadenfreude_profile.json.
"""
import argparse
import time

import numpy as np
from numba import njit

from common import load_note, write
from simcore.bits import U0, U1, lowest_bit, popcount
from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.engine import (OBS_SIZE, PLAYING, S_HAND, S_STATUS,
                                                S_TO_MOVE, STATE_SIZE, apply_action,
                                                game_over, init_game, legal_cards, next_deal)
from simcore.games.schadenfreude.expert import EXPERT_SEARCH
from simcore.games.schadenfreude.pimc import expert_choose
from simcore.games.schadenfreude.policies import HEURISTIC, choose_into, heuristic_on_state
from simcore.games.schadenfreude.rules import rules_array
from simcore.games.schadenfreude.solver import (ROW_CARDS, ROW_TOP, ROW_WORLD, _copy_state,
                                                decision_stream, new_work, sample_world)


@njit(cache=False)
def collect_states(r, seed, count, table, work, fw, out):
    """The expert seat's states with 2-4 cards in hand (into ``out``); how many."""
    st = np.empty(STATE_SIZE, np.int64)
    obs = np.empty(OBS_SIZE, np.int64)
    k = 0
    for g in range(count):
        init_game(r, st, seed, g)
        while True:
            while st[S_STATUS] == PLAYING:
                if st[S_TO_MOVE] == 0:
                    h = popcount(np.uint64(st[S_HAND]))
                    if 2 <= h <= 4 and k < out.shape[0]:
                        out[k, :STATE_SIZE] = st
                        k += 1
                    a = expert_choose(r, st, table, obs, work, fw)
                else:
                    a = choose_into(r, st, HEURISTIC, obs)
                apply_action(r, st, a)
            if game_over(st):
                break
            next_deal(r, st)
    return k


@njit(cache=False)
def run_expert(r, states, table, work, fw, cnt):
    """The shipped expert's choice on every state."""
    obs = np.empty(OBS_SIZE, np.int64)
    for i in range(states.shape[0]):
        cnt[0] += expert_choose(r, states[i], table, obs, work, fw)


@njit(cache=False)
def run_sample(r, states, table, work, fw, cnt):
    """The table's worlds sampled for every state, nothing else."""
    for i in range(states.shape[0]):
        st = states[i]
        rng = decision_stream(st)
        for _ in range(table[popcount(np.uint64(st[S_HAND + st[S_TO_MOVE]])), 0]):
            rng = sample_world(r, st, st[S_TO_MOVE], rng, work[ROW_WORLD], work[ROW_CARDS])
        cnt[0] += work[ROW_WORLD, S_HAND]


@njit(cache=False)
def run_playouts(r, states, table, work, fw, cnt, heuristic=True):
    """Every legal card in every world played out (the heuristic, or with ``heuristic``
    False the lowest legal card); cnt: playouts, plies, heuristic calls."""
    world, top = work[ROW_WORLD], work[ROW_TOP]
    for i in range(states.shape[0]):
        st = states[i]
        rng = decision_stream(st)
        m0 = legal_cards(st)
        if m0 & (m0 - U1) == U0:
            continue
        for _ in range(table[popcount(np.uint64(st[S_HAND + st[S_TO_MOVE]])), 0]):
            rng = sample_world(r, st, st[S_TO_MOVE], rng, world, work[ROW_CARDS])
            m = m0
            while m != U0:
                _copy_state(world, top)
                apply_action(r, top, lowest_bit(m))
                m &= m - U1
                cnt[0] += 1
                while top[S_STATUS] == PLAYING:
                    mm = legal_cards(top)
                    cnt[1] += 1
                    if mm & (mm - U1) == U0 or not heuristic:
                        apply_action(r, top, lowest_bit(mm))
                    else:
                        cnt[2] += 1
                        apply_action(r, top, heuristic_on_state(r, top))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    r = rules_array(GAME.build_rules(players=4))
    table = EXPERT_SEARCH[1]
    work, fw = new_work()
    out = np.zeros((40 * a.games, work.shape[1]), np.int64)
    states = out[:collect_states(r, a.seed, a.games, table, work, fw, out)].copy()
    parts = {"expert": (run_expert, ()), "sample_worlds": (run_sample, ()),
             "playouts_heuristic": (run_playouts, (True,)),
             "playouts_engine_only": (run_playouts, (False,))}
    res = {"states": len(states), "parts": {}}
    for name, (fn, extra) in parts.items():
        cnt = np.zeros(3, np.int64)
        fn(r, states[:20], table, work, fw, cnt, *extra)        # compile before the clock
        cnt[:] = 0
        t0 = time.process_time()
        fn(r, states, table, work, fw, cnt, *extra)
        t = time.process_time() - t0
        row = {"cpu_seconds": t, "cpu_us_per_state": 1e6 * t / len(states)}
        if name.startswith("playouts"):
            row.update(playouts=int(cnt[0]), plies=int(cnt[1]), heuristic_calls=int(cnt[2]))
        res["parts"][name] = row
        print(name, row, flush=True)
    res["command"] = (f"python benchmarks/profile_expert_schadenfreude.py --games {a.games} "
                      f"--seed {a.seed}")
    res["note"] = load_note()
    print(res["note"])
    write("expert_schadenfreude_profile", res)


if __name__ == "__main__":
    main()
