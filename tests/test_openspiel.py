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


def _holdings(game, eng, st):
    """Where each card of the deal in play lies, as card masks: the hands, the cards
    played, and the game's hidden piles (the cards set aside; the skat before its pickup
    and the discards; Officers' covered face-down cards)."""
    if game == "schadenfreude":
        from simcore.games.schadenfreude.engine import S_HAND, S_PLAYED
        from simcore.games.schadenfreude.rules import R_DECK
        held = [int(st[S_HAND + p]) for p in range(eng.seats)] + [int(st[S_PLAYED])]
        union = 0
        for m in held:
            union |= m
        return held + [int(eng.r[R_DECK]) & ~union]
    from simcore.games.wendish import engine as w
    from simcore.games.wendish.cards import V_OFFICERS
    held = [int(st[w.ST_HAND + p]) for p in range(eng.seats)] + [int(st[w.ST_PLAYED])]
    if int(st[w.ST_VARIANT]) == V_OFFICERS:
        under = 0
        for c in range(32):
            if int(w.covered_cards(st)) >> c & 1:
                under |= 1 << ((int(st[w.ST_UNDER + (c >> 3)]) >> 8 * (c & 7) & 0xFF) - 1)
        return held + [under]
    held.append(int(st[w.ST_DISCARDS]))
    if int(st[w.ST_PHASE]) == w.P_PICKUP:
        held.append(int(st[w.ST_SKAT]))
    return held


def _assert_every_card_once(game, eng, st):
    held = _holdings(game, eng, st)
    union = 0
    for m in held:
        assert union & m == 0, "a card lies in two places"
        union |= m
    assert sorted(c for c in range(64) if union >> c & 1) == sorted(eng.deal_order(st))


def _play_until(s, rng, steps, stop=lambda s: False):
    for _ in range(steps):
        if s.is_terminal() or s.is_chance_node() or stop(s):
            break
        s.apply_action(int(rng.choice(s.legal_actions())))
    return s


@pytest.mark.parametrize("game,params", [("schadenfreude", {"players": 3}),
                                         ("schadenfreude", {"players": 5}),
                                         ("wendish", {"variant": "four"}),
                                         ("wendish", {"variant": "three"}),
                                         ("wendish", {"variant": "officers"})])
def test_resampling_keeps_every_seats_view_and_puts_every_card_in_one_place(game, params):
    g = pyspiel.load_game(osp.short_name(game), dict(params, single_deal=True))
    eng = g.ctx.eng
    rng = np.random.default_rng(4)
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    varied = 0
    for steps in (0, 3, 9):
        s = _play_until(_dealt(g, rng), rng, steps)
        for seat in range(g.num_players()):
            worlds = set()
            for _ in range(4):
                r = s.resample_from_infostate(seat, sampler)
                assert r.information_state_string(seat) == s.information_state_string(seat)
                assert np.array_equal(eng.observe(r.st, seat), eng.observe(s.st, seat))
                assert r.current_player() == s.current_player()
                assert [a.player for a in r.full_history()] == \
                    [a.player for a in s.full_history()]
                _assert_every_card_once(game, eng, r.st)
                worlds.add(r.st.tobytes())
            varied += len(worlds) > 1
    assert varied > 0                                        # the hidden cards vary


def test_wendish_resampling_renames_a_hidden_discard():
    """Seen by a seat that did not take the skat, the taker's discards are hidden: the
    resampled worlds re-deal them, renamed in the discard actions as in the deal."""
    from simcore.games.wendish.engine import A_DISCARD, P_PLAY, ST_DISCARDS, ST_PHASE, ST_TAKER
    g = pyspiel.load_game("tricksim_wendish", {"variant": "three", "single_deal": True})
    rng = np.random.default_rng(8)
    s = _play_until(_dealt(g, rng), rng, 40, lambda s: int(s.st[ST_PHASE]) >= P_PLAY)
    taker = int(s.st[ST_TAKER])
    assert taker >= 0 and int(s.st[ST_DISCARDS]) != 0
    seat = (taker + 1) % 3
    discards = set()
    for _ in range(12):
        r = s.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0., 1.))
        assert r.information_state_string(seat) == s.information_state_string(seat)
        moves = [a.action for a in r.full_history() if a.player == taker
                 and A_DISCARD <= a.action < A_DISCARD + 32]
        assert sum(1 << (a - A_DISCARD) for a in moves) == int(r.st[ST_DISCARDS])
        discards.add(int(r.st[ST_DISCARDS]))
        _assert_every_card_once("wendish", g.ctx.eng, r.st)
    assert len(discards) > 1
    # the taker knows its discards: they stay
    for _ in range(4):
        r = s.resample_from_infostate(taker, pyspiel.UniformProbabilitySampler(0., 1.))
        assert int(r.st[ST_DISCARDS]) == int(s.st[ST_DISCARDS])


@pytest.mark.parametrize("game,params", [("schadenfreude", {"players": 4}),
                                         ("wendish", {"variant": "three"}),
                                         ("wendish", {"variant": "officers"})])
def test_ismcts_plays_whole_deals(game, params):
    from open_spiel.python.algorithms import ismcts, mcts
    g = pyspiel.load_game(osp.short_name(game), dict(params, single_deal=True))
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    rng = np.random.default_rng(6)
    for _ in range(2):
        s = _dealt(g, rng)
        while not s.is_terminal():
            if s.current_player() == 0:
                a = bot.step(s)
                assert a in s.legal_actions()
            else:
                a = int(rng.choice(s.legal_actions()))
            s.apply_action(a)
        assert abs(sum(s.returns())) < 1e-9


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
