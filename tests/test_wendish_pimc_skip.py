"""Wendish ``pimc:skip=S``: the first S tricks of a deal played by the heuristic, the search
from the next trick on; names and bad values."""
import numpy as np
import pytest

from simcore import get_game
from simcore.errors import RulesError
from simcore.games.wendish.engine import (MAX_LEGAL, P_DONE, P_PLAY, STATE_SIZE, ST_PHASE,
                                          ST_TRICKS_DONE, py_apply, py_init_game,
                                          py_legal_actions)
from simcore.games.wendish.pimc import parse_policy, policy_name, py_choose_w
from simcore.games.wendish.policies import HEURISTIC, py_choose
from simcore.games.wendish.rules import rules_array
from simcore.games.wendish.solver import new_work

GAME = get_game("wendish")


def test_skip_plays_the_heuristic_first_then_searches():
    r = rules_array(GAME.build_rules())
    work = new_work()
    skip = parse_policy("pimc:worlds=2,skip=2")
    full = parse_policy("pimc:worlds=2")
    acts = np.empty(MAX_LEGAL, np.int64)
    heur = searched = 0
    for index in range(6):
        st = np.zeros(STATE_SIZE, np.int64)
        py_init_game(r, st, 9, index)
        while st[ST_PHASE] != P_DONE and st[ST_TRICKS_DONE] < 4:
            if st[ST_PHASE] == P_PLAY and py_legal_actions(r, st, acts) > 1:
                got = py_choose_w(r, st.copy(), skip, work)
                if st[ST_TRICKS_DONE] < 2:
                    assert got == py_choose(r, st.copy(), HEURISTIC)
                    heur += 1
                else:
                    assert got == py_choose_w(r, st.copy(), full, work)
                    searched += 1
            assert py_apply(r, st, py_choose(r, st, HEURISTIC))
    assert heur > 10 and searched > 10, (heur, searched)


def test_skip_names_round_trip_and_bad_values_are_one_line():
    assert parse_policy("pimc:skip=0") == parse_policy("pimc")
    assert policy_name(parse_policy("pimc:skip=1")) == "pimc:worlds=8,skip=1"
    assert policy_name(parse_policy("pimc:worlds=4,contracts=search,cworlds=3,skip=7")) == \
        "pimc:worlds=4,contracts=search,cworlds=3,skip=7"
    rules = GAME.build_rules()
    names, _ = GAME.policy_ids(["pimc:worlds=4", "skip=1", "heuristic", "heuristic",
                                "heuristic"], rules)
    assert names[0] == "pimc:worlds=4,skip=1"
    for bad in ("pimc:skip=8", "pimc:skip=-1", "pimc:skip="):
        with pytest.raises(RulesError, match="skip=S"):
            GAME.policy_ids([bad, "heuristic", "heuristic", "heuristic"], rules)
