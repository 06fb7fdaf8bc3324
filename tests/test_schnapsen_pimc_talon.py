"""Schnapsen ``pimc:talon=T``: the search only once at most T cards are left to draw, the
expert's choice before; its names and bad values."""
import numpy as np
import pytest

from simcore.errors import RulesError
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.engine import (MAX_LEGAL, N_STATE, OVER, S_PHASE,
                                            S_TALON_LEFT, apply_action, init_game,
                                            legal_actions)
from simcore.games.schnapsen.policies import EXPERT, choose_w, parse_policy, policy_name
from simcore.games.schnapsen.rules import rules_array
from simcore.games.schnapsen.solver import new_work


def _positions(r, seed, count):
    """Positions of random play at every talon size, open or closed, with 2+ actions."""
    st = np.zeros(N_STATE, np.int64)
    acts = np.zeros(MAX_LEGAL, np.int64)
    rand = np.random.default_rng(seed)
    out = []
    i = 0
    while len(out) < count:
        init_game(r, st, np.uint64(seed), i)
        i += 1
        for _ in range(int(rand.integers(0, 14))):
            if st[S_PHASE] == OVER:
                break
            n = legal_actions(r, st, acts) - 1
            apply_action(r, st, acts[rand.integers(n)])
        if st[S_PHASE] != OVER and legal_actions(r, st, acts) - 1 >= 2:
            out.append(st.copy())
    return out


def test_talon_switches_between_expert_and_search():
    r = rules_array(GAME.build_rules())
    work = new_work()
    full = parse_policy("pimc:worlds=4,talon=10")
    seen_expert = seen_search = 0
    for talon in (4, 6):
        pid = parse_policy(f"pimc:worlds=4,talon={talon}")
        for st in _positions(r, 11 + talon, 60):
            got = choose_w(r, st.copy(), pid, work)
            if st[S_TALON_LEFT] > talon:
                # choose_w of a player that does not search is its choose (compiled once
                # with the loop's kernels, not again alone for this test)
                assert got == choose_w(r, st.copy(), EXPERT, work), st[S_TALON_LEFT]
                seen_expert += 1
            else:
                assert got == choose_w(r, st.copy(), full, work)
                seen_search += 1
    assert seen_expert > 20 and seen_search > 20, (seen_expert, seen_search)


def test_talon_names_round_trip_and_bad_values_are_one_line():
    assert parse_policy("pimc:talon=6") == parse_policy("pimc")   # the default
    assert policy_name(parse_policy("pimc:talon=10")) == "pimc:worlds=8,talon=10"
    assert policy_name(parse_policy("pimc:worlds=16,stop=2,talon=0")) == \
        "pimc:worlds=16,stop=2,talon=0"
    rules = GAME.build_rules()
    names, _ = GAME.policy_ids(["pimc:worlds=4", "talon=4", "heuristic"], rules)
    assert names == ["pimc:worlds=4,talon=4", "heuristic"]
    for bad in ("pimc:talon=5", "pimc:talon=12", "pimc:talon="):
        with pytest.raises(RulesError, match=r"talon=T with T in 0\|2\|4\|6\|8\|10"):
            GAME.policy_ids([bad], rules)
