"""The Wendish pimc player's ``tricks=T``: the expert's choice until the last T tricks
of a deal, the search from there."""
import numpy as np
import pytest

from conftest import TWO_THREADS
from simcore import get_game
from simcore.errors import RulesError
from simcore.games.wendish.engine import (P_DONE, P_PLAY, STATE_SIZE, ST_NTRICKS, ST_PHASE,
                                          ST_TRICKS_DONE, legal_cards, py_apply,
                                          py_init_game)
from simcore.games.wendish.expert import EXPERT, EXPERT_TRICKS, MODEL, VARIANTS, model_card
from simcore.games.wendish.pimc import parse_policy, policy_name, py_choose_w
from simcore.games.wendish.pimc_params import PIMC_MAX_TRICKS, PIMC_TRICKS
from simcore.games.wendish.policies import HEURISTIC, py_choose
from simcore.games.wendish.rules import rules_array
from simcore.games.wendish.solver import new_work
from simcore.running.runner import simulate

GAME = get_game("wendish")
WORK = new_work()


def _card_states(variant, deals, seed=5):
    """Card-play states with two or more legal cards of ``deals`` heuristic deals."""
    rules = GAME.build_rules(assignments=[f"variant={variant}", "deals=1"])
    r = rules_array(rules)
    out = []
    for i in range(deals):
        st = np.zeros(STATE_SIZE, np.int64)
        py_init_game(r, st, seed, i)
        while st[ST_PHASE] != P_DONE:
            if st[ST_PHASE] == P_PLAY and bin(int(legal_cards(st))).count("1") > 1:
                out.append(st.copy())
            py_apply(r, st, py_choose(r, st, HEURISTIC))
    return r, out


@pytest.mark.parametrize("variant", ["four", "three"])
def test_tricks_takes_the_experts_choice_before_the_switch_and_searches_after(variant):
    """With ``tricks=T`` a card decision with more than T tricks left is the expert's
    (its learned card scorer's there: T >= the expert's own search tricks), one with T
    or fewer
    left is the full search's (``tricks=16``) with the same worlds; and the switch
    changes some early choice (the parameter has an effect)."""
    r, states = _card_states(variant, 6)
    t = int(EXPERT_TRICKS[VARIANTS.index(variant)]) + 1
    cut = parse_policy(f"pimc:worlds=2,tricks={t}")
    full = parse_policy(f"pimc:worlds=2,tricks={PIMC_MAX_TRICKS}")
    early = late = changed = 0
    for st in states:
        left = int(st[ST_NTRICKS] - st[ST_TRICKS_DONE])
        got = py_choose_w(r, st.copy(), cut, WORK)
        if left > t:
            early += 1
            assert got == py_choose_w(r, st.copy(), EXPERT, WORK)
            assert got == model_card(r, st.copy(), MODEL)    # the learned scorer
            changed += got != py_choose_w(r, st.copy(), full, WORK)
        else:
            late += 1
            assert got == py_choose_w(r, st.copy(), full, WORK)
    assert early > 10 and late > 10 and changed > 0


@pytest.mark.parametrize("variant", ["four", "officers"])
def test_new_parameters_give_identical_results_on_any_threads(variant):
    """A run with ``tricks`` set is the same on 1 and 2 threads and any chunk size."""
    rules = GAME.build_rules(assignments=[f"variant={variant}", "deals=1"])
    n = GAME.seats(rules)
    pol = ["pimc:worlds=2,tricks=4"] + ["heuristic"] * (n - 1)
    a = simulate("wendish", rules, pol, games=12, seed=3, threads=1, chunk_size=12)
    b = simulate("wendish", rules, pol, games=12, seed=3, threads=TWO_THREADS, chunk_size=5)
    for name in ("games", "deals"):
        assert a.tables[name].equals(b.tables[name])


def test_names_and_bad_values():
    """``tricks`` round-trips through the canonical name (left out at its default);
    bad values are refused with what is allowed."""
    assert policy_name(parse_policy("pimc:tricks=3,worlds=3")) == "pimc:worlds=3,tricks=3"
    assert policy_name(parse_policy(f"pimc:tricks={PIMC_TRICKS}")) == \
        policy_name(parse_policy("pimc"))
    for bad in ("pimc:tricks=0", "pimc:tricks=17", "pimc:tricks=x"):
        with pytest.raises(ValueError, match="allowed"):
            parse_policy(bad)
    with pytest.raises(RulesError):
        GAME.policy_ids(["pimc:tricks=99", "heuristic", "heuristic", "heuristic"],
                        GAME.build_rules(assignments=["variant=four"]))
