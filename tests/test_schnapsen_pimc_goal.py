"""Schnapsen ``pimc``'s parameters ``goal`` and ``marriage_claim``: their names, the choice
of ``goal=deal`` against a naive reference that ranks each action by the sampled worlds it
wins, then by its mean game points, and the search without the claim right after a
marriage against plain minimax."""
import numpy as np
import pytest

from simcore.errors import RulesError
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.engine import (A_CLAIM, A_CLOSE, A_EXCHANGE, A_MARRIAGE,
                                            AFTER_LAST, LEAD, MAX_LEGAL, N_STATE, OVER,
                                            S_GAME_POINTS, S_HAND, S_PHASE, S_STEP,
                                            S_TALON_LEFT, S_WINNER, T_MARRIED, apply_action,
                                            init_game, legal_actions, to_move)
from simcore.games.schnapsen.policies import parse_policy, policy_name
from simcore.games.schnapsen.rules import rules_array
from simcore.games.schnapsen.solver import (NO_MCLAIM_COL, WORK_ROWS, decision_stream,
                                            new_work, pimc_choose, sample_world, solve,
                                            solve_from)


def test_goal_names_round_trip_and_bad_values_are_one_line():
    for name, canon in [("pimc", "pimc:worlds=8"), ("pimc:goal=points", "pimc:worlds=8"),
                        ("pimc:goal=deal", "pimc:worlds=8,goal=deal"),
                        ("pimc:worlds=32;goal=deal", "pimc:worlds=32,goal=deal"),
                        ("pimc:goal=deal,worlds=1024", "pimc:worlds=1024,goal=deal")]:
        assert policy_name(parse_policy(name)) == canon
        assert parse_policy(canon) == parse_policy(name)
    assert parse_policy("pimc:goal=deal") != parse_policy("pimc")
    rules = GAME.build_rules()
    # a --policy list split at its commas is joined back
    names, _ = GAME.policy_ids(["pimc:worlds=2", "goal=deal", "heuristic"], rules)
    assert names == ["pimc:worlds=2,goal=deal", "heuristic"]
    names, _ = GAME.policy_ids(["pimc", "goal=deal"], rules)
    assert names == ["pimc:worlds=8,goal=deal"] * 2
    for bad in ("pimc:goal=win", "pimc:goal=", "pimc:worlds=2,depth=1"):
        with pytest.raises(RulesError, match="bad pimc parameter .*goal=points\\|deal and "
                           "marriage_claim=1\\|0"):
            GAME.policy_ids([bad], rules)


def _reference(r, st, worlds, work, deal):
    """The pimc choice by hand: every action solved in each sampled world (the player's
    own sampler and stream), a close at its worst world, then ranked."""
    acts = np.zeros(MAX_LEGAL, np.int64)
    n = legal_actions(r, st, acts) - 1
    seat = to_move(st)
    world = np.zeros(N_STATE, np.int64)
    top = np.zeros(N_STATE, np.int64)
    cards = np.zeros(64, np.int64)
    rng = np.uint64(decision_stream(st))
    values = np.zeros((worlds, n), np.int64)
    for w in range(worlds):
        rng = np.uint64(sample_world(st, seat, rng, world, cards))
        for i in range(n):
            top[:] = world
            apply_action(r, top, acts[i])
            values[w, i] = solve(r, top, seat, work)
    score = []
    for i in range(n):
        v = values[:, i]
        if acts[i] == A_CLOSE:
            v = np.full(worlds, v.min())
        score.append(((v > 0).sum() if deal else 0, v.sum()))
    best = max(range(n), key=lambda i: (score[i], -i))   # the first of equals
    return acts[best], score


def test_goal_deal_ranks_by_worlds_won_then_points():
    r = rules_array(GAME.build_rules())
    work, ref_work = new_work(), new_work()
    st = np.zeros(N_STATE, np.int64)
    acts = np.zeros(MAX_LEGAL, np.int64)
    checked = differ = 0
    rand = np.random.default_rng(17)
    for i in range(450):
        init_game(r, st, np.uint64(17), i)
        stop = int(rand.integers(4))
        # random play until 10 to 13 cards are left in hands and talon
        while st[S_PHASE] != OVER:
            left = bin(st[S_HAND]).count("1") + bin(st[S_HAND + 1]).count("1")
            if left + st[S_TALON_LEFT] <= 10 + stop:
                break
            n = legal_actions(r, st, acts) - 1
            apply_action(r, st, acts[rand.integers(n)])
        if st[S_PHASE] in (OVER, AFTER_LAST) or legal_actions(r, st, acts) - 1 < 2:
            continue
        # every argument given, as the policy gives them: a call leaving defaults out
        # would be a specialization of its own, compiled again
        for deal in (True, False):
            want, score = _reference(r, st, 6, ref_work, deal)
            assert pimc_choose(r, st.copy(), 6, work, deal, True, 0) == want, (i, deal, score)
        a_deal = pimc_choose(r, st.copy(), 6, work, True, True, 0)
        differ += a_deal != pimc_choose(r, st.copy(), 6, work, False, True, 0)
        checked += 1
    assert checked >= 200, checked
    # the goal matters: some positions' best mean game points is not the safest win
    assert differ > 0, (differ, checked)


def test_rules_listing_names_the_goal():
    from click.testing import CliRunner

    from cli.main import cli
    out = CliRunner().invoke(cli, ["rules", "schnapsen"])
    assert out.exit_code == 0
    line = next(x for x in out.output.splitlines() if x.strip().startswith("pimc["))
    assert "pimc[:worlds=N,goal=G,marriage_claim=M]" in line
    assert "goal points|deal, default points" in line and "default 1)" in line


def _naive(r, st, seat, no_marriage_claim):
    """Plain minimax in Python over every action but resign, leaving out the claim right
    after a marriage when ``no_marriage_claim``."""
    if st[S_PHASE] == OVER:
        return st[S_GAME_POINTS] if st[S_WINNER] == seat else -st[S_GAME_POINTS]
    acts = np.zeros(MAX_LEGAL, np.int64)
    n = legal_actions(r, st, acts) - 1
    values = []
    for a in acts[:n]:
        if no_marriage_claim and a == A_CLAIM and st[S_PHASE] == LEAD \
                and st[S_STEP] == T_MARRIED:
            continue
        child = st.copy()
        apply_action(r, child, a)
        values.append(_naive(r, child, seat, no_marriage_claim))
    return max(values) if to_move(st) == seat else min(values)


def test_marriage_claim_0_searches_and_plays_without_the_claim_after_a_marriage():
    assert policy_name(parse_policy("pimc:goal=deal,marriage_claim=0")) == \
        "pimc:worlds=8,goal=deal,marriage_claim=0"
    assert parse_policy("pimc:marriage_claim=1") == parse_policy("pimc")
    r = rules_array(GAME.build_rules())
    work = new_work()
    st = np.zeros(N_STATE, np.int64)
    acts = np.zeros(MAX_LEGAL, np.int64)
    rand = np.random.default_rng(3)
    checked = differ = at_marriage = 0
    for i in range(6000):
        init_game(r, st, np.uint64(29), i)
        stop = int(rand.integers(3))
        # random play, marriages first, until 6 to 8 cards are left in hands and talon
        while st[S_PHASE] != OVER:
            left = bin(st[S_HAND]).count("1") + bin(st[S_HAND + 1]).count("1")
            if left + st[S_TALON_LEFT] <= 6 + stop:
                break
            n = legal_actions(r, st, acts) - 1
            marr = [a for a in acts[:n] if A_MARRIAGE <= a < A_EXCHANGE]
            apply_action(r, st, marr[0] if marr else acts[rand.integers(n)])
            if marr and left + st[S_TALON_LEFT] <= 8 and rand.integers(2):
                break                                 # a turn right after a marriage
        if st[S_PHASE] != LEAD:
            continue
        seat = to_move(st)
        for flag in (0, 1):
            work[2 * WORK_ROWS, NO_MCLAIM_COL] = flag
            got = solve_from(r, st, seat, work, 0)
            assert got == _naive(r, st.copy(), seat, flag == 1), (i, flag)
        differ += solve(r, st, seat, work) != got
        if st[S_STEP] == T_MARRIED and legal_actions(r, st, acts) - 1 >= 2:
            at_marriage += 1
            a = pimc_choose(r, st.copy(), 2, work, True, False, 0)
            assert a != A_CLAIM and a in acts[:MAX_LEGAL]
        checked += 1
        if checked == 300:
            break
    # the claim after a marriage was reachable and changed some values
    assert checked == 300 and differ > 0 and at_marriage > 0, (checked, differ, at_marriage)
