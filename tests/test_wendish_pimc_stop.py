"""The Wendish pimc player's stopping rule over worlds (``stop=Z``) and its
``tricks=auto`` default (issue 21 item 2: a faster default pimc)."""
import random

import numpy as np
import pytest

from simcore import get_game
from simcore.errors import RulesError
from simcore.games.wendish.engine import ST_NTRICKS, ST_TO_MOVE, ST_TRICKS_DONE
from simcore.games.wendish.pimc import (DROPPED, parse_policy, pimc_pick, pimc_scores,
                                        pimc_scores_stop, policy_name, py_choose_w)
from simcore.games.wendish.pimc_params import PIMC_MODEL_TRICKS, STOP_MIN_WORLDS
from simcore.games.wendish.solver import new_work
from test_wendish_engine import _redeal
from test_wendish_pimc_speed import _card_states

GAME = get_game("wendish")
WORK = new_work()


def _scores(r, st, worlds, z10):
    acts = np.zeros(16, np.int64)
    score = np.zeros(16)
    pts = np.zeros(16)
    live = np.zeros(16, np.bool_)
    if z10 is None:
        k = pimc_scores(r, st, worlds, WORK, acts, score, pts)
        live[:k] = True
    else:
        k = pimc_scores_stop(r, st, worlds, z10, WORK, acts, score, pts, live)
    return k, acts[:k], score[:k], pts[:k], live[:k]


@pytest.mark.parametrize("variant", ["four", "three"])
def test_stopped_search_keeps_the_full_sums_of_the_cards_it_keeps(variant):
    """With ``stop`` the cards still live have exactly the full search's sums (over all
    worlds, or over the first m >= STOP_MIN_WORLDS when one card was left early); the
    others are marked DROPPED; the rule drops cards on some decisions; ``stop=0`` is the
    full search, card for card."""
    r, states = _card_states(variant, 3)
    dropped = ended = 0
    for st in states[::2]:
        k, acts, full, pts, _ = _scores(r, st, 8, None)
        k0, _, s0, p0, live0 = _scores(r, st, 8, 0)
        assert np.array_equal(s0, full) and np.array_equal(p0, pts) and live0.all()
        _, acts_z, sz, pz, live = _scores(r, st, 8, 15)
        assert np.array_equal(acts_z, acts) and live.any()
        assert np.all(sz[~live] == DROPPED)
        dropped += int((~live).sum())
        if live.sum() > 1:
            assert np.array_equal(sz[live], full[live]) and np.array_equal(pz[live], pts[live])
        else:
            prefix = [_scores(r, st, m, None) for m in range(STOP_MIN_WORLDS, 9)]
            assert any(np.array_equal(sz[live], p[2][live]) and
                       np.array_equal(pz[live], p[3][live]) for p in prefix)
            ended += 1
        # the choice is a live card, and the player plays it
        a = pimc_pick(r, st, acts_z, sz, pz, k)
        assert live[list(acts_z).index(a)]
        pid = parse_policy("pimc:worlds=8,tricks=16,stop=15")
        assert py_choose_w(r, st.copy(), pid, WORK) == a
    assert dropped > 0 and ended > 0


def test_tricks_auto_is_the_model_cut_in_four_and_every_trick_elsewhere():
    """``tricks=auto`` (the default) plays as ``tricks=PIMC_MODEL_TRICKS`` in Wendish
    four (where the expert has its learned scorer) and as the full search elsewhere."""
    for variant, same in (("four", PIMC_MODEL_TRICKS), ("three", 16)):
        r, states = _card_states(variant, 2)
        auto = parse_policy("pimc:worlds=2,tricks=auto")
        other = parse_policy(f"pimc:worlds=2,tricks={same}")
        early = 0
        for st in states:
            early += int(st[ST_NTRICKS] - st[ST_TRICKS_DONE]) > PIMC_MODEL_TRICKS
            assert py_choose_w(r, st.copy(), auto, WORK) == \
                py_choose_w(r, st.copy(), other, WORK)
        assert early > 0


def test_stop_choices_depend_only_on_what_the_seat_sees():
    """A re-deal of the cards hidden from the seat to move leaves pimc's choice with the
    stopping rule unchanged (its worlds and its rule read only what the seat saw)."""
    r, states = _card_states("four", 3, seed=11)
    rng = random.Random(3)
    pid = parse_policy("pimc:worlds=6,tricks=6,stop=10")
    checked = 0
    for st in states:
        if int(st[ST_NTRICKS] - st[ST_TRICKS_DONE]) > 6:
            continue
        other = _redeal(st, int(st[ST_TO_MOVE]), rng)
        if other is None:
            continue
        assert py_choose_w(r, st.copy(), pid, WORK) == py_choose_w(r, other, pid, WORK)
        checked += 1
    assert checked > 20


def test_names_and_bad_values():
    """``stop`` and ``tricks=auto`` round-trip through the canonical name (left out at
    their defaults); bad values are refused with what is allowed."""
    assert policy_name(parse_policy("pimc:stop=12,worlds=3")) == "pimc:worlds=3,stop=12"
    assert policy_name(parse_policy("pimc:tricks=auto")) == policy_name(parse_policy("pimc"))
    assert policy_name(parse_policy("pimc:tricks=16")).endswith(",tricks=16")
    for bad in ("pimc:stop=-1", "pimc:stop=101", "pimc:stop=x", "pimc:tricks=auto7"):
        with pytest.raises(ValueError, match="allowed"):
            parse_policy(bad)
    with pytest.raises(RulesError):
        GAME.policy_ids(["pimc:stop=500", "heuristic", "heuristic", "heuristic"],
                        GAME.build_rules(assignments=["variant=four"]))
