"""Schnapsen ``pimc``'s stop rule (``stop=K``) against a plain Python reference, the single
solve once the talon is gone, and the parameter's names."""
import numpy as np
import pytest

from simcore.errors import RulesError
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.engine import (A_CLOSE, AFTER_LAST, MAX_LEGAL, N_STATE, OVER,
                                            S_HAND, S_PHASE, S_TALON_LEFT, apply_action,
                                            init_game, legal_actions, to_move)
from simcore.games.schnapsen.policies import parse_policy, policy_name
from simcore.games.schnapsen.rules import rules_array
from simcore.games.schnapsen.solver import (NODES_COL, WORK_ROWS, decision_stream, new_work,
                                            pimc_choose, sample_world, solve)


def _rank(acts, active, total, won, worst_close, k, deal):
    """The best active action's index: a close at its worst world, (won,) total, first."""
    def score(i):
        t, w = total[i], won[i]
        if acts[i] == A_CLOSE:
            t, w = worst_close * k, (k if worst_close > 0 else 0)
        return (w if deal else 0, t)
    return max((i for i in range(len(acts)) if active[i]), key=lambda i: (score(i), -i))


def _reference(r, st, worlds, stop, deal, work):
    """The stop rule by hand: every world's values kept; from world ``stop`` on, an action
    whose value was never above the current best's in any world and below it in one is
    dropped, from world 2 * stop on also one level with it in all (a close also
    once its worst world times the worlds is no more than the best's total)."""
    acts = np.zeros(MAX_LEGAL, np.int64)
    n = legal_actions(r, st, acts) - 1
    acts = list(acts[:n])
    seat = to_move(st)
    world, top = np.zeros(N_STATE, np.int64), np.zeros(N_STATE, np.int64)
    cards = np.zeros(64, np.int64)
    rng = np.uint64(decision_stream(st))
    hist = []
    active = [True] * n
    total, won = [0] * n, [0] * n
    worst_close = 4
    k = 0
    while k < worlds:
        rng = np.uint64(sample_world(st, seat, rng, world, cards))
        k += 1
        vals = {}
        for i in range(n):
            if active[i]:
                top[:] = world
                apply_action(r, top, acts[i])
                vals[i] = solve(r, top, seat, work)
                total[i] += vals[i]
                won[i] += vals[i] > 0
                if acts[i] == A_CLOSE:
                    worst_close = min(worst_close, vals[i])
        hist.append(vals)
        if k < stop:
            continue
        best = _rank(acts, active, total, won, worst_close, k, deal)
        for i in range(n):
            if active[i] and i != best:
                never_better = all(h[i] <= h[best] for h in hist) and (
                    any(h[i] < h[best] for h in hist) or k >= 2 * stop)
                if never_better or (acts[i] == A_CLOSE and worst_close * k <= total[best]):
                    active[i] = False
        if sum(active) == 1:
            break
    return acts[_rank(acts, active, total, won, worst_close, k, deal)], k


def _positions(r, seed, count, cards_left):
    """Positions of random play with the talon open, ``cards_left`` + 0..3 cards left in
    hands and talon, two or more actions."""
    st = np.zeros(N_STATE, np.int64)
    acts = np.zeros(MAX_LEGAL, np.int64)
    rand = np.random.default_rng(seed)
    out = []
    i = 0
    while len(out) < count:
        init_game(r, st, np.uint64(seed), i)
        i += 1
        extra = int(rand.integers(4))
        while st[S_PHASE] != OVER:
            left = bin(st[S_HAND]).count("1") + bin(st[S_HAND + 1]).count("1")
            if left + st[S_TALON_LEFT] <= cards_left + extra:
                break
            n = legal_actions(r, st, acts) - 1
            apply_action(r, st, acts[rand.integers(n)])
        if st[S_PHASE] in (OVER, AFTER_LAST) or st[S_TALON_LEFT] == 0 \
                or legal_actions(r, st, acts) - 1 < 2:
            continue
        out.append(st.copy())
    return out


def test_stop_rule_matches_the_reference():
    r = rules_array(GAME.build_rules())
    work, ref_work = new_work(), new_work()
    early = differ = 0
    for st in _positions(r, 41, 120, 10):
        for stop in (1, 2, 3):
            for deal in (False, True):
                want, k = _reference(r, st, 6, stop, deal, ref_work)
                got = pimc_choose(r, st.copy(), 6, work, deal, True, stop)
                assert got == want, (stop, deal, got, want)
                early += k < 6
        differ += pimc_choose(r, st.copy(), 6, work, False, True, 1) != \
            pimc_choose(r, st.copy(), 6, work, False, True, 0)
    # the rule did stop early, and it can change a choice (it is not the full search)
    assert early > 100 and differ > 0, (early, differ)


def _nodes(r, st, worlds):
    work = new_work()
    pimc_choose(r, st.copy(), worlds, work, False, True, 0)
    return work[2 * WORK_ROWS, NODES_COL]


def test_one_solve_once_the_talon_is_gone():
    r = rules_array(GAME.build_rules())
    st = np.zeros(N_STATE, np.int64)
    acts = np.zeros(MAX_LEGAL, np.int64)
    rand = np.random.default_rng(5)
    checked = 0
    for i in range(400):
        init_game(r, st, np.uint64(43), i)
        while st[S_PHASE] != OVER and st[S_TALON_LEFT] > 0:
            n = legal_actions(r, st, acts) - 1
            apply_action(r, st, acts[rand.integers(n)])
        for _ in range(int(rand.integers(3))):
            if st[S_PHASE] not in (OVER, AFTER_LAST):
                n = legal_actions(r, st, acts) - 1
                apply_action(r, st, acts[rand.integers(n)])
        if st[S_PHASE] in (OVER, AFTER_LAST) or legal_actions(r, st, acts) - 1 < 2:
            continue
        # every card is known: eight worlds are the one world, searched once
        assert _nodes(r, st, 8) == _nodes(r, st, 1) > 0
        checked += 1
        if checked == 40:
            break
    assert checked == 40


def test_stop_names_round_trip_and_bad_values_are_one_line():
    assert parse_policy("pimc") == parse_policy("pimc:stop=0")
    assert policy_name(parse_policy("pimc")) == "pimc:worlds=8"
    assert policy_name(parse_policy("pimc:stop=2")) == "pimc:worlds=8,stop=2"
    assert policy_name(parse_policy("pimc:goal=deal,stop=5")) == "pimc:worlds=8,goal=deal,stop=5"
    rules = GAME.build_rules()
    names, _ = GAME.policy_ids(["pimc:worlds=4", "stop=3", "heuristic"], rules)
    assert names == ["pimc:worlds=4,stop=3", "heuristic"]
    for bad in ("pimc:stop=16", "pimc:stop=-1", "pimc:stop="):
        with pytest.raises(RulesError, match="stop=K with K from 0 to 15"):
            GAME.policy_ids([bad], rules)


def test_default_drops_only_actions_that_cannot_catch_up():
    """stop=0 (the default) stops solving an action only when it cannot reach the best
    total even at +3 in every world left: its choice is the full search's."""
    r = rules_array(GAME.build_rules())
    work, ref_work = new_work(), new_work()
    for st in _positions(r, 47, 150, 9):
        want, _ = _reference(r, st, 8, 99, False, ref_work)     # stop 99: never drops
        assert pimc_choose(r, st.copy(), 8, work, False, True, 0) == want
