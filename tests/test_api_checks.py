"""The Python API checks what it is given before a kernel sees it (issue: a damaged
state never crashes the interpreter): states of the wrong length, dtype or with a
field out of range, and arguments of the wrong type or range, are one TricksimError
naming what is wrong; every state the game itself reaches passes the check."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simcore import RunSettings, engine, game_names, get_game, simulate
from simcore.errors import TricksimError

GAMES = {**{game: {} for game in game_names()},
         "wendish-three": {"variant": "three"}, "wendish-officers": {"variant": "officers"}}


def make(key):
    game = key.split("-")[0]
    return engine(game, **GAMES[key])


@pytest.fixture(scope="module")
def engines():
    return {k: make(k) for k in GAMES}


@pytest.mark.parametrize("key", list(GAMES))
def test_every_reached_state_passes_the_check(engines, key):
    """The checks accept what the game makes: 12 random games stepped through the API,
    every state checked (a consistency rule too strict for a real position fails here)."""
    e = engines[key]
    for index in range(12):
        s = e.new(seed=5, index=index)
        steps = 0
        while not e.game_over(s) and steps < 2000:
            e.check_state(s)
            if e.deal_over(s):
                e.next_deal(s)
            else:
                e.apply(s, e.choose("random", s))
            steps += 1
        e.check_state(s)


@pytest.mark.parametrize("key", list(GAMES))
def test_damaged_states_are_refused(engines, key):
    e = engines[key]
    s = e.new(seed=1, index=0)
    for bad, word in [(np.full_like(s, 2**31 - 1), "field"), (s[:3], "words"),
                      (s.astype(np.int32), "int64"), (list(s), "numpy")]:
        with pytest.raises(TricksimError, match=word):
            e.legal(bad)


@pytest.mark.parametrize("key", game_names())
def test_arguments_are_checked(engines, key):
    e = engines[key]
    s = e.new(seed=1, index=0)
    probes = {"action": lambda: e.apply(s, 2.5), "index": lambda: e.new(index=-1),
              "seat": lambda: e.view(s, 9), "action code": lambda: e.describe(e.n_actions),
              "seed": lambda: e.new(seed=-1)}
    for what, probe in probes.items():
        with pytest.raises(TricksimError, match=what.split()[0]):
            probe()


def test_run_arguments_are_checked():
    g = get_game("schadenfreude")
    rules = g.build_rules()
    other = get_game("schnapsen").build_rules()
    four = ["random"] * 4
    with pytest.raises(TricksimError, match="assignments"):
        g.build_rules(assignments="limit=30")
    with pytest.raises(TricksimError, match="RuleSet"):
        simulate("schadenfreude", {"limit": 30}, four, games=3, seed=1)
    with pytest.raises(TricksimError, match="schnapsen rules"):
        simulate("schadenfreude", other, four, games=3, seed=1)
    for bad in [{"seed": -1}, {"seed": 1.5}, {"games": True}]:
        kwargs = {"games": 3, "seed": 1, **bad}
        with pytest.raises(TricksimError, match=next(iter(bad))):
            simulate("schadenfreude", rules, four, **kwargs)
    with pytest.raises(TricksimError, match="games"):
        RunSettings(games=-5)
    with pytest.raises(TricksimError, match="policy names"):
        simulate("schadenfreude", rules, [1, 2, 3, 4], games=3, seed=1)
    # one string is read as the CLI reads --policy: a name or a comma list, not letters
    res = simulate("schadenfreude", rules, "random", games=3, seed=1)
    assert list(res.summary["seats"]["policy"]) == four


def test_from_record_of_another_game_names_it(engines):
    rec = engines["schnapsen"].play(1, 0, ["random", "random"])
    with pytest.raises(TricksimError, match="schnapsen record"):
        engines["schadenfreude"].from_record(rec)


_METHODS = ("legal", "to_move", "deal_over", "game_over", "view", "apply", "choose",
            "action_to_record", "result", "next_deal")


@settings(max_examples=60)
@given(key=st.sampled_from(sorted(GAMES)), method=st.sampled_from(_METHODS),
       fields=st.lists(st.tuples(st.integers(0, 200), st.integers(-2**63, 2**63 - 1)),
                       max_size=4),
       arg=st.one_of(st.integers(-2**40, 2**40), st.floats(), st.text(max_size=3),
                     st.none()),
       trim=st.integers(0, 3))
def test_random_states_and_arguments_never_crash(engines, key, method, fields, arg, trim):
    """Random fields set, arrays cut short and odd arguments: every Engine method
    either works or raises a TricksimError (never a segfault, never a raw error)."""
    e = engines[key]
    s = e.new(seed=3, index=7)
    for _ in range(trim * 3):                      # a few real steps in, sometimes
        if e.game_over(s) or e.deal_over(s):
            break
        e.apply(s, e.choose("random", s))
    for i, v in fields:
        s[i % len(s)] = v
    if trim == 3:
        s = s[:-1]
    call = getattr(e, method)
    args = {"view": (s, arg), "apply": (s, arg), "action_to_record": (s, arg),
            "choose": ("random", s)}.get(method, (s,))
    try:
        call(*args)
    except TricksimError:
        pass
