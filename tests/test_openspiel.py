"""The OpenSpiel games (simcore/envs/openspiel.py, the optional [rl] extra): OpenSpiel's own
random-simulation test on every game and table, the same encoding and action codes as
the engines, the deals tricksim deals, and IS-MCTS's world resampling in Schnapsen.

Skipped where OpenSpiel is not installed (the core installs without it), unless
TRICKSIM_REQUIRE_RL=1 (set it where the [rl] extra is installed, as CI should): then a
missing OpenSpiel fails the module."""
import os

import numpy as np
import pytest

if os.environ.get("TRICKSIM_REQUIRE_RL") == "1":
    import pyspiel  # noqa: F401
else:
    pyspiel = pytest.importorskip("pyspiel")

import simcore.envs.openspiel as osp  # noqa: E402
from simcore import engine  # noqa: E402

TABLES = [("schnapsen", {}), ("schnapsen", {"single_deal": True}),
          ("schadenfreude", {"players": 3}), ("schadenfreude", {"players": 4}),
          ("schadenfreude", {"players": 5}),
          ("wendish", {"variant": "four"}), ("wendish", {"variant": "three"}),
          ("wendish", {"variant": "three_sharp"}), ("wendish", {"variant": "officers"})]


@pytest.mark.parametrize("game,params", TABLES)
def test_openspiel_random_simulation_test_passes(game, params):
    g = pyspiel.load_game(osp.short_name(game), params)
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)


def _dealt(g, rng):
    s = g.new_initial_state()
    while s.is_chance_node():
        actions, probs = zip(*s.chance_outcomes())
        assert abs(sum(probs) - 1) < 1e-9
        s.apply_action(int(rng.choice(actions, p=probs)))
    return s


@pytest.mark.parametrize("game,params", [("schadenfreude", {"players": 3}),
                                         ("wendish", {"variant": "officers"}),
                                         ("schnapsen", {})])
def test_observations_and_actions_are_the_engines(game, params):
    g = pyspiel.load_game(osp.short_name(game), params)
    eng = engine(game, **{k: v for k, v in params.items() if k != "single_deal"})
    rng = np.random.default_rng(3)
    s = g.new_initial_state()
    assert not any(s.observation_tensor(0))          # nothing dealt yet
    s = _dealt(g, rng)
    for _ in range(12):
        if s.is_terminal() or s.is_chance_node():
            break
        for p in range(g.num_players()):
            assert np.array_equal(np.asarray(s.observation_tensor(p), np.float32),
                                  eng.observation(s.st, p))
        assert s.legal_actions() == sorted(eng.legal(s.st))
        assert s.current_player() == eng.to_move(s.st)
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert g.observation_tensor_size() == eng.observation_spec.size
    assert g.num_distinct_actions() == eng.n_actions


def test_a_deal_from_its_chance_outcomes_is_tricksims_deal():
    eng = engine("wendish", variant="three")
    g = pyspiel.load_game("tricksim_wendish", {"variant": "three"})
    st = eng.new(7, 2)
    s = g.new_initial_state()
    for a in [eng.deal_start(st)["dealer"]] + eng.deal_order(st)[:-1]:
        s.apply_action(a)
    assert eng.deal_start(s.st) == eng.deal_start(st)


def test_information_states_and_returns():
    g = pyspiel.load_game("tricksim_schnapsen", {"single_deal": True})
    rng = np.random.default_rng(5)
    s = _dealt(g, rng)
    p = s.current_player()
    before = s.information_state_string(p)
    s.apply_action(int(rng.choice(s.legal_actions())))
    assert s.information_state_string(p) != before      # its own action is remembered
    while not s.is_terminal():
        s.apply_action(int(rng.choice(s.legal_actions())))
    r = s.returns()
    assert sum(r) == 0 and abs(r[0]) >= 1


def test_resampling_keeps_the_seats_information_state_and_redeals_the_rest():
    g = pyspiel.load_game("tricksim_schnapsen", {"single_deal": True})
    rng = np.random.default_rng(11)
    s = _dealt(g, rng)
    for _ in range(4):
        legal = [a for a in s.legal_actions() if a != 28]    # no resignation
        s.apply_action(int(rng.choice(legal)))
    p = s.current_player()
    other = set()
    for _ in range(20):
        r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.legal_actions() == s.legal_actions()
        assert len(r.history()) == len(s.history())
        other.add(int(r.st[1 - p]))                          # S_HAND + the opponent
    assert len(other) > 1                                    # the hidden cards vary


def test_ismcts_plays_a_legal_action():
    from open_spiel.python.algorithms import ismcts, mcts
    g = pyspiel.load_game("tricksim_schnapsen", {"single_deal": True})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs), 2.0, 20, random_state=rs)
    s = _dealt(g, np.random.default_rng(2))
    assert bot.step(s) in s.legal_actions()


def test_resampling_other_games_says_what_is_missing():
    g = pyspiel.load_game("tricksim_schadenfreude", {"players": 3})
    s = _dealt(g, np.random.default_rng(1))
    with pytest.raises(pyspiel.SpielError, match="renamed"):
        s.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))


def test_bad_parameters_name_what_is_allowed():
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("tricksim_schadenfreude", {"players": 9})
    with pytest.raises(Exception, match="no_such_option"):
        pyspiel.load_game("tricksim_schnapsen", {"rules": "no_such_option=1"})


def test_the_docs_example_runs():
    import re
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "players-api.md").read_text()
    code = re.search(r"## OpenSpiel\n.*?```python\n(.*?)```", doc, re.S).group(1)
    exec(compile(code, "players-api.md", "exec"), {})
