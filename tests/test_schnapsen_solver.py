"""The Schnapsen open-card solver against plain minimax, and the pimc player."""
import numpy as np
import pytest
from numba import njit

from simcore.bits import bounded, game_stream
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.engine import (MAX_LEGAL, N_STATE, S_CLOSER, S_HAND, S_PHASE,
                                            S_RNG, S_TALON_LEFT, OVER, apply_action,
                                            init_game, legal_actions)
from simcore.bits import popcount
from simcore.games.schnapsen.rules import rules_array
from simcore.games.schnapsen.solver import minimax, new_work, solve


@njit(cache=True)
def _positions_checked(r, seed, count, max_cards, work, out):
    """``count`` random positions (random legal play from a random deal until at most
    ``max_cards`` cards are left in hands and talon together, then a few random actions
    more): solver and minimax values for both seats into ``out``."""
    st = np.empty(N_STATE, np.int64)
    acts = np.empty(MAX_LEGAL, np.int64)
    k = 0
    i = 0
    while k < count:
        init_game(r, st, np.uint64(seed), i)
        i += 1
        rng = np.uint64(st[S_RNG])
        rng, extra = bounded(rng, 4)
        while st[S_PHASE] != OVER:
            left = popcount(np.uint64(st[S_HAND])) + popcount(np.uint64(st[S_HAND + 1]))
            left += st[S_TALON_LEFT]
            if left <= max_cards + 3 * (k % 4 == 1):
                if extra == 0:
                    break
                extra -= 1
            n = legal_actions(r, st, acts) - 1
            rng, j = bounded(rng, n)
            apply_action(r, st, acts[j])
        if st[S_PHASE] == OVER:
            continue
        seat = k & 1
        out[k, 0] = solve(r, st, seat, work)
        out[k, 1] = minimax(r, st, seat, work)
        out[k, 2] = st[S_CLOSER] >= 0 or st[S_TALON_LEFT] == 0
        k += 1
    return i


@pytest.mark.parametrize("preset,sets", [("austrian", ()), ("tournament", ()),
                                         ("austrian", ("closed_scoring=at_end",
                                                       "marriage_after_close=false",
                                                       "target=50"))])
def test_solver_agrees_with_minimax(preset, sets):
    # 3 x 3,400 = 10,200 positions, a quarter of them with the talon still open
    r = rules_array(GAME.build_rules(preset, None, sets))
    out = np.zeros((3400, 3), np.int64)
    _positions_checked(r, 11, len(out), 9, new_work(), out)
    bad = np.flatnonzero(out[:, 0] != out[:, 1])
    assert len(bad) == 0, (bad[:5], out[bad[:5]])
    # both kinds of position were searched, and the values spread over wins and losses
    assert 0 < out[:, 2].sum() < len(out)
    assert set(np.unique(out[:, 0])) >= {-3, -2, -1, 1, 2, 3}


def test_pimc_batch_is_reproducible_and_matches_records():
    rules = GAME.build_rules("austrian", None, ("match_points=1",))
    names, ids = GAME.policy_ids(["pimc:worlds=2", "heuristic"], rules)
    assert names == ["pimc:worlds=2", "heuristic"]
    whole = GAME.run_chunk(rules, ids, 5, 0, 4)
    parts = [GAME.run_chunk(rules, ids, 5, s, 2) for s in (0, 2)]
    for k in ("winner", "deals"):
        assert list(whole["games"][k]) == list(parts[0]["games"][k]) + list(parts[1]["games"][k])
    rec = GAME.records(rules, names, ids, 5, 1, 1)[0]
    assert GAME.engine(rules).play(5, 1, names)["deals"] == rec["deals"]
    assert rec["deals"][0]["end"]["winner"] == whole["games"]["winner"][1]


def test_pimc_bad_name_is_one_line():
    from simcore.errors import RulesError
    rules = GAME.build_rules()
    with pytest.raises(RulesError, match="worlds=N with N from 1 to"):
        GAME.policy_ids(["pimc:worlds=0"], rules)
    with pytest.raises(RulesError, match="unknown policy 'best'"):
        GAME.policy_ids(["best"], rules)


def test_search_decisions_counts_the_searching_seats_decisions():
    # the batch run's aggregate equals the decisions the pimc seat takes when the same
    # matches are played through the per-decision API; nobody searching: no such key
    rules = GAME.build_rules("austrian", None, ("match_points=2",))
    names, ids = GAME.policy_ids(["heuristic", "pimc:worlds=1"], rules)
    eng = GAME.engine(rules)
    expected = 0
    for idx in range(3):
        s = eng.new(5, idx)
        while True:
            while not eng.deal_over(s):
                expected += eng.to_move(s) == 1
                eng.apply(s, eng.choose(names[eng.to_move(s)], s))
            if eng.game_over(s):
                break
            eng.next_deal(s)
    assert expected > 0
    for summary_only in (False, True):
        agg = GAME.aggregate(GAME.run_chunk(rules, ids, 5, 0, 3, summary_only), rules)
        assert agg["search_decisions"] == expected
    _, plain = GAME.policy_ids(["heuristic", "random"], rules)
    assert "search_decisions" not in GAME.aggregate(GAME.run_chunk(rules, plain, 5, 0, 3),
                                                    rules)
