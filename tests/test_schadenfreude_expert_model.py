"""The Schadenfreude expert's learned card scorer: the weights load with the model's
shape, the features of a hand-built position are the worked values below, weights that
copy the heuristic play its card, and the training rows and fit are reproducible."""
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore import get_game
from simcore.games.schadenfreude.cards import parse_card
from simcore.games.schadenfreude.expert import (MAX_CARDS, MODEL, MODEL_ON, MODEL_PLAYERS,
                                                MODEL_SHAPE, N_CARD, N_CONTEXT,
                                                card_features, expert_table,
                                                heuristic_weights,
                                                load_model, model_file)
from simcore.games.schadenfreude.rules import rules_array

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
GAME = get_game("schadenfreude")


def test_the_weights_load_with_the_models_shape(tmp_path):
    assert MODEL.shape == (len(MODEL_PLAYERS), *MODEL_SHAPE) and np.isfinite(MODEL).all()
    for i, n in enumerate(MODEL_PLAYERS):
        f = model_file(n)
        assert f.parent.name == "schadenfreude"
        if f.exists():      # a shipped model is played
            assert MODEL_ON[i] == 1 and np.array_equal(MODEL[i], load_model(f))
        else:               # none: the heuristic's card (and its weights)
            assert MODEL_ON[i] == 0 and np.array_equal(MODEL[i], heuristic_weights())
    with pytest.raises(ValueError, match="no expert model for 6 players"):
        model_file(6)
    bad = tmp_path / "bad.npy"
    np.save(bad, np.zeros((N_CARD, N_CONTEXT + 1)))
    with pytest.raises(ValueError, match="expected finite float64 weights of shape"):
        load_model(bad)
    np.save(bad, np.full(MODEL_SHAPE, np.nan))
    with pytest.raises(ValueError, match="expected finite float64"):
        load_model(bad)


def _position():
    """Four players, no points yet: seat 0 leads 9C, seat 1 plays 4C, seat 2 5C, and seat
    3 (last) holds 8C 7C 6C 3C 2C 1C -3C 0W 10W 9S 9H 9D; -2C and -1C are set aside."""
    eng = GAME.engine(GAME.build_rules(players=4))
    st = eng.new(seed=1, index=0)
    spades = [f"{v}S" for v in (-3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8)]
    hands = [["9C"] + spades, ["4C"] + [c.replace("S", "H") for c in spades],
             ["5C"] + [c.replace("S", "D") for c in spades],
             ["8C", "7C", "6C", "3C", "2C", "1C", "-3C", "0W", "10W", "9S", "9H", "9D"]]
    eng.start(st, hands, 0)
    for c in ("9C", "4C", "5C"):
        eng.apply(st, parse_card(c))
    return eng, st


def test_the_features_of_a_hand_built_position():
    eng, st = _position()
    r = eng.r
    acts = np.zeros(MAX_CARDS, np.int64)
    f = np.zeros((MAX_CARDS, N_CARD))
    x = np.zeros(N_CONTEXT)
    k = card_features(r, st, acts, f, x)
    names = ["-3C", "1C", "2C", "3C", "6C", "7C", "8C", "0W", "10W"]   # clubs or a wild
    assert [int(a) for a in acts[:k]] == [parse_card(c) for c in names]
    # last to play, 40 to go, nobody ahead or near the limit, a full round left
    assert x.tolist() == [1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0]
    row = {c: f[i] for i, c in enumerate(names)}
    h = eng.choose("heuristic", st.copy())
    for i, c in enumerate(names):
        assert row[c][0] == (acts[i] == h)              # the heuristic's card, once
    assert sum(row[c][0] for c in names) == 1
    # 6C, 7C, 8C follow with exactly one follower (9C) above: they take the trick for
    # their own value; the others have two or more above, or (10W) none and one below
    for c, v in (("6C", 6), ("7C", 7), ("8C", 8)):
        assert row[c][1] == 1.0 and row[c][16] == 1 and row[c][17] == 0
        assert row[c][2] == pytest.approx(v / 10) and row[c][3] == pytest.approx(v / 10)
        assert row[c][18] == 0.0                        # taking it: no gift
    for c in ("-3C", "1C", "2C", "3C", "0W", "10W"):
        assert row[c][1] == 0.0 and row[c][17] == 1
    # who takes the trick instead: with 3C the 5C (seat 2, 5 points), with 10W the 9C
    # (seat 0: 9), with 0W the 5C; nobody is pushed over the limit
    assert row["3C"][18] == pytest.approx(0.5) and row["10W"][18] == pytest.approx(0.9)
    assert row["0W"][18] == pytest.approx(0.5) and all(row[c][19] == 0 for c in names)
    assert row["10W"][5] == 1 and row["10W"][4] == 1.0 and row["-3C"][4] == -0.3
    # the suit in hand (7 clubs), unseen (the two set aside), top and lowest of it
    assert row["8C"][10] == pytest.approx(7 / 12) and row["8C"][11] == pytest.approx(2 / 12)
    assert row["8C"][12] == 1 and row["8C"][13] == 0
    assert row["-3C"][12] == 0 and row["-3C"][13] == 1
    assert row["10W"][12] == 1 and row["10W"][13] == 0 and row["0W"][13] == 1
    # leading 8C later: no unseen club above it, so it takes a trick when nobody else
    # follows: each of the three others holds none of the 2 unseen clubs among the 35
    # unseen cards with chance (33/35)^12 (the heuristic's estimate)
    assert row["8C"][9] == pytest.approx(((33 / 35) ** 12) ** 3)
    assert row["8C"][15] == 0.0 and all(row[c][7] == 0 and row[c][20] == 0 for c in names)


def test_heuristic_weights_play_the_heuristics_card():
    from simcore.games.schadenfreude.pimc import expert_model_choose
    from simcore.games.schadenfreude.solver import new_work
    from simcore.games.schadenfreude.engine import OBS_SIZE
    eng = GAME.engine(GAME.build_rules(players=4))
    work, fw = new_work()
    obs = np.zeros(OBS_SIZE, np.int64)
    none = np.zeros((1, 2), np.int64)         # no search rows: the scorer everywhere
    st = eng.new(seed=3, index=0)
    n = 0
    while not eng.deal_over(st):
        got = expert_model_choose(eng.r, st.copy(), none, heuristic_weights(), 1, obs, work,
                                  fw)
        assert got == eng.choose("heuristic", st.copy())
        eng.apply(st, got)
        n += 1
    assert n == 48


def test_the_training_rows_and_fit_are_reproducible():
    from train_expert_schadenfreude import fit, rows_of, targets, with_features
    from simcore.games.schadenfreude.solver import new_work
    r = rules_array(GAME.build_rules(players=4))
    table = expert_table(r)
    work, fw = new_work()
    a = rows_of(r, 5, 0, 2, 4, table, work, fw)
    b = rows_of(r, 5, 0, 2, 4, table, work, fw)
    assert len(a["nleg"]) > 10 and all(np.array_equal(a[k], b[k]) for k in a)
    rows = np.arange(len(a["nleg"]))
    assert (a["nleg"] >= 2).all()
    # pimc's card: the best summed value (the first on a tie)
    assert np.array_equal(a["target"], np.array(
        [int(np.argmax(a["score"][i, :a["nleg"][i]])) for i in rows]))
    d = with_features(r, a)
    y = targets(d, 4, 0.01)
    assert np.allclose(y.sum(axis=1), 1.0)
    w1, _, _ = fit(d, y, 1e-3, maxiter=50)
    w2, _, _ = fit(d, y, 1e-3, maxiter=50)
    assert np.array_equal(w1, w2) and w1.shape == MODEL_SHAPE
