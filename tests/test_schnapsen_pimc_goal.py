"""Schnapsen ``pimc:goal=deal``: its name, and its choice against a naive reference that
ranks each action by the sampled worlds it wins, then by its mean game points."""
import numpy as np
import pytest

from simcore.errors import RulesError
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.engine import (A_CLOSE, AFTER_LAST, MAX_LEGAL, N_STATE, OVER,
                                            S_HAND, S_PHASE, S_TALON_LEFT,
                                            apply_action, init_game, legal_actions, to_move)
from simcore.games.schnapsen.policies import parse_policy, policy_name
from simcore.games.schnapsen.rules import rules_array
from simcore.games.schnapsen.solver import (decision_stream, new_work, pimc_choose,
                                            sample_world, solve)


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
        with pytest.raises(RulesError, match="bad pimc parameter .*goal=points\\|deal"):
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
        init_game(r, st, 17, i)
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
        for deal in (True, False):
            want, score = _reference(r, st, 6, ref_work, deal)
            assert pimc_choose(r, st.copy(), 6, work, deal) == want, (i, deal, score)
        a_deal = pimc_choose(r, st.copy(), 6, work, True)
        differ += a_deal != pimc_choose(r, st.copy(), 6, work, False)
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
    assert "pimc[:worlds=N,goal=G]" in line and "goal points|deal, default points" in line
