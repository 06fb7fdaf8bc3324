"""The Wendish expert's learned card scorer: the shipped weights load with the model's
shape, the feature kernel reads the seat's legal cards, weights that copy the heuristic
play the heuristic's card, the training rows are pimc's choices and reproducible, the
paired-deal kernel is the shipped expert, and the fit is deterministic."""
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore.games.wendish.engine import (P_DONE, P_PLAY, STATE_SIZE, legal_cards, py_apply,
                                          py_init_game, ST_PHASE, ST_TO_MOVE)
from simcore.games.wendish.cards import V_FOUR, V_OFFICERS, V_THREE
from simcore.games.wendish.expert import (EXPERT_TRICKS, EXPERT_WORLDS, MAX_CARDS, MODEL,
                                          MODEL_FILE, MODEL_SHAPE, N_CARD, N_CONTEXT,
                                          N_HIDDEN, OUT, VARIANTS,
                                          card_features, expert_searches, load_model,
                                          model_card, model_file)
from simcore.games.wendish.imitation import (imitation_rows, model_deal_scores, new_rows,
                                             rows_features)
from simcore.games.wendish.pimc import pimc_choose
from simcore.games.wendish.policies import HEURISTIC, heuristic_play, py_choose
from simcore.games.wendish.rules import rules_array
from simcore.games.wendish.solver import new_work
from simcore import get_game
from test_wendish_pimc_speed import _card_states as card_states

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
GAME = get_game("wendish")
R = rules_array(GAME.build_rules(assignments=["variant=four", "deals=1"]))
#: four's search window (expert.EXPERT_TRICKS by variant id, four's 0)
TRICKS = int(EXPERT_TRICKS[0])


def _card_states(deals, seed=11):
    """Card-play states with two or more legal cards of ``deals`` heuristic deals."""
    return card_states("four", deals, seed)[1]


def test_the_shipped_weights_load_with_the_models_shape(tmp_path):
    w = load_model()
    assert w.shape == MODEL_SHAPE and w.dtype == np.float64
    assert np.array_equal(w, MODEL[V_FOUR]) and np.isfinite(MODEL).all()
    assert MODEL_FILE.parent.name == "wendish" and MODEL.shape == (4, *MODEL_SHAPE)
    for v, name in enumerate(VARIANTS):     # every variant's own model (three_sharp: three's)
        assert np.array_equal(MODEL[v], load_model(model_file(name)))
        assert model_file(name).exists()
    assert not np.array_equal(MODEL[V_THREE], MODEL[V_OFFICERS])
    with pytest.raises(ValueError, match="unknown variant 'five'"):
        model_file("five")
    for shape in [(3, 4), (N_CARD + N_HIDDEN + 1, MODEL_SHAPE[1]), (N_CARD, N_CONTEXT + 1)]:
        bad = tmp_path / "bad.npy"
        np.save(bad, np.zeros(shape))
        with pytest.raises(ValueError, match="expected float64 weights of shape"):
            load_model(bad)
    # a bilinear file and one with fewer hidden units are padded with zeros
    small = tmp_path / "small.npy"
    np.save(small, np.arange(N_CARD * N_CONTEXT, dtype=np.float64).reshape(N_CARD, N_CONTEXT))
    got = load_model(small)
    assert got.shape == MODEL_SHAPE and got[:N_CARD, :N_CONTEXT].sum() == np.load(small).sum()
    assert not got[N_CARD:].any() and not got[:, N_CONTEXT:].any()
    np.save(small, np.ones((N_CARD + 2, MODEL_SHAPE[1])))
    got = load_model(small)
    assert got[:N_CARD + 2].all() and not got[N_CARD + 2:].any()


def test_features_list_the_legal_cards_and_mark_the_heuristics():
    acts = np.empty(MAX_CARDS, np.int64)
    feats = np.empty((MAX_CARDS, N_CARD))
    ctx = np.empty(N_CONTEXT)
    states = _card_states(4)
    assert len(states) > 40
    for st in states:
        k = card_features(R, st, acts, feats, ctx)
        legal = int(legal_cards(st))
        assert sorted(acts[:k]) == [c for c in range(32) if legal >> c & 1]
        h = heuristic_play(R, st)
        assert [bool(x) for x in feats[:k, 0]] == [int(c) == h for c in acts[:k]]
        assert ctx[0] == 1.0 and ctx[1:5].sum() == 1.0
        assert np.isfinite(feats[:k]).all() and np.abs(feats[:k]).max() <= 2.0


def test_heuristic_weights_play_the_heuristics_card_and_others_differ():
    from train_expert_wendish import heuristic_weights
    w = np.repeat(heuristic_weights()[None], len(VARIANTS), axis=0)
    other = np.zeros((len(VARIANTS), N_CARD, N_CONTEXT))
    other[:, 3, 0] = 1.0                   # most points
    differ = 0
    for st in _card_states(3):
        assert model_card(R, st.copy(), w) == heuristic_play(R, st)
        differ += model_card(R, st.copy(), other) != heuristic_play(R, st)
    assert differ > 0


def test_training_rows_are_pimcs_choices_and_reproducible():
    work = new_work()
    a = new_rows(3)
    n = imitation_rows(R, 5, 0, 3, 2, TRICKS, work, *a)
    b = new_rows(3)
    assert imitation_rows(R, 5, 0, 3, 2, TRICKS, work, *b) == n and n >= 3
    for x, y in zip(a, b):
        assert np.array_equal(x, y)
    states, score, nleg, target, deal = a
    assert (nleg[:n] >= 2).all() and (target[:n] < nleg[:n]).all()
    assert set(deal[:n]) <= {0, 1, 2}
    for i in range(n):
        # the recorded card has the best summed score, the position the pimc seat's
        k = nleg[i]
        assert score[i, target[i]] == score[i, :k].max()
        assert states[i, ST_TO_MOVE] == deal[i] % 4 and states[i, ST_PHASE] == P_PLAY


def test_rows_follow_the_pimc_seats_play():
    """A row is a position of the pimc seat (deal 0: seat 0) and its target pimc_choose's
    card there: replay the deal and compare."""
    work = new_work()
    states, score, nleg, target, deal = new_rows(1)
    n = imitation_rows(R, 6, 0, 1, 2, TRICKS, work, states, score, nleg, target, deal)
    feats = np.zeros((n, MAX_CARDS, N_CARD))
    ctx = np.zeros((n, N_CONTEXT))
    rows_features(R, states[:n], feats, ctx)
    acts = np.empty(MAX_CARDS, np.int64)
    f2 = np.empty((MAX_CARDS, N_CARD))
    c2 = np.empty(N_CONTEXT)
    st = np.zeros(STATE_SIZE, np.int64)
    py_init_game(R, st, 6, 0)
    row = 0
    while st[ST_PHASE] != P_DONE:
        p = int(st[ST_TO_MOVE])
        if p == 0 and st[ST_PHASE] == P_PLAY and not expert_searches(st):
            a = pimc_choose(R, st, 2, work)
            if bin(int(legal_cards(st))).count("1") > 1:
                assert np.array_equal(st, states[row])
                k = card_features(R, st, acts, f2, c2)
                assert acts[target[row]] == a and k == nleg[row]
                assert np.array_equal(f2[:k], feats[row, :k]) and np.array_equal(c2, ctx[row])
                row += 1
        elif p == 0 and st[ST_PHASE] == P_PLAY:
            a = pimc_choose(R, st, EXPERT_WORLDS, work)
        else:
            a = py_choose(R, st, HEURISTIC)
        py_apply(R, st, a)
    assert row == n > 0


def test_model_deal_scores_is_the_shipped_expert_on_paired_deals():
    """With the shipped weights and window, ``model_deal_scores`` gives the scores of
    ``simulate`` with the expert in each seat in turn on the same deals."""
    rules = GAME.build_rules(assignments=["variant=four", "deals=1"])
    out = np.zeros((30, 4), np.int64)
    model_deal_scores(R, 8, 0, 30, MODEL, TRICKS, EXPERT_WORLDS, new_work(), out)
    for s in range(4):
        pols = ["heuristic"] * 4
        pols[s] = "expert"
        got = GAME.run_chunk(rules, GAME.policy_ids(pols, rules)[1], 8, 0, 30)
        assert np.array_equal(got["deals"]["scores"][:, s], out[:, s])


def test_the_fit_is_deterministic_and_beats_the_start_on_its_data():
    """The bilinear fit, and the hidden units' fit from it (which lowers the loss and
    uses only the units asked for), give the same weights twice."""
    from train_expert_wendish import evaluate, fit, heuristic_weights, targets, with_features
    work = new_work()
    states, score, nleg, target, deal = new_rows(8)
    n = imitation_rows(R, 4, 0, 8, 2, TRICKS, work, states, score, nleg, target, deal)
    d = with_features(R, dict(states=states[:n], score=score[:n], nleg=nleg[:n],
                              target=target[:n], deal=deal[:n]))
    y = targets(d, 0.0)
    w1, loss1, _ = fit(d, y, 1e-3)
    w2, loss2, _ = fit(d, y, 1e-3)
    assert np.array_equal(w1, w2) and loss1 == loss2
    assert evaluate(d, w1)["agree"] >= evaluate(d, heuristic_weights())["agree"]
    h1, hloss1, _ = fit(d, y, 1e-3, 4, w1, 1e-3, 200)
    h2, hloss2, _ = fit(d, y, 1e-3, 4, w1, 1e-3, 200)
    assert np.array_equal(h1, h2) and hloss1 == hloss2 and hloss1 < loss1
    assert h1[N_CARD:N_CARD + 4, OUT].any() and not h1[N_CARD + 4:].any()


def test_the_kernels_card_is_the_training_scripts_best_score():
    """``model_card`` with hidden units plays the card of the highest score the training
    script computes (``model_scores``: the model the fit optimizes), and a hidden unit
    changes some choice; zero output weights play the bilinear part alone."""
    from train_expert_wendish import model_scores
    rng = np.random.default_rng(3)
    w = np.zeros(MODEL_SHAPE)
    w[:N_CARD, :N_CONTEXT] = MODEL[V_FOUR][:N_CARD, :N_CONTEXT]
    w[N_CARD:] = rng.normal(0, 1.0, (N_HIDDEN, MODEL_SHAPE[1]))
    w[N_CARD + 3, OUT] = 0.0                   # an unused unit: skipped
    bil = w.copy()
    bil[N_CARD:, OUT] = 0.0
    states = np.array(_card_states(3))
    d = {"feats": np.zeros((len(states), MAX_CARDS, N_CARD)),
         "ctx": np.zeros((len(states), N_CONTEXT))}
    rows_features(R, states, d["feats"], d["ctx"])
    acts = np.empty(MAX_CARDS, np.int64)
    f = np.empty((MAX_CARDS, N_CARD))
    c = np.empty(N_CONTEXT)
    differ = 0
    for i, st in enumerate(states):
        k = card_features(R, st.copy(), acts, f, c)
        for weights in (w, bil):
            s, _ = model_scores({"feats": d["feats"][i:i + 1], "ctx": d["ctx"][i:i + 1]},
                                weights)
            models = np.repeat(weights[None], len(VARIANTS), axis=0)
            assert model_card(R, st.copy(), models) == acts[int(np.argmax(s[0, :k]))]
        differ += model_card(R, st.copy(), np.repeat(w[None], 4, axis=0)) != \
            model_card(R, st.copy(), np.repeat(bil[None], 4, axis=0))
    assert differ > 0


@pytest.mark.parametrize("preset", ["dreiwendsch", "officers"])
def test_the_scorer_reads_only_what_its_seat_sees(preset):
    """Early card play (the scorer's decisions, which test_no_peek's late positions do
    not reach): the features and the card are the same when every card the seat cannot
    see (Officers: the face-down cards) is dealt anew consistently with what it saw."""
    import random
    from test_wendish_engine import _redeal, engine
    from simcore.games.wendish import engine as E
    eng, _ = engine(preset)
    rng = random.Random(preset)
    acts = np.empty(MAX_CARDS, np.int64)
    f1 = np.empty((MAX_CARDS, N_CARD))
    f2 = np.empty((MAX_CARDS, N_CARD))
    c1 = np.empty(N_CONTEXT)
    c2 = np.empty(N_CONTEXT)
    checked = changed = 0
    for index in range(3):
        st = eng.new(17, index)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
                continue
            if int(st[E.ST_PHASE]) == E.P_PLAY and not expert_searches(st):
                other = _redeal(st, eng.to_move(st), rng)
                if other is not None:
                    k = card_features(eng.r, st.copy(), acts, f1, c1)
                    assert card_features(eng.r, other.copy(), acts, f2, c2) == k
                    assert np.array_equal(f1[:k], f2[:k]) and np.array_equal(c1, c2)
                    assert model_card(eng.r, st.copy(), MODEL) == \
                        model_card(eng.r, other.copy(), MODEL)
                    checked += 1
                    changed += not np.array_equal(st, other)
            eng.apply(st, eng.choose("heuristic", st))
    assert checked > 20 and changed > 10


def test_officers_features_read_the_face_up_cards():
    """Officers: a card's 'turns a card up' feature is whether it lies on a face-down
    card; on lead, 'the foe can take it' is whether one of the foe's face-up cards it
    may answer with (those of the led suit, any when it has none) beats it; in the other
    variants these features are 0."""
    from simcore.games.wendish import engine as E
    from simcore.games.wendish.cards import CARD_POINTS, FOLLOW_MASK
    from simcore.games.wendish.policies import _beats
    rules = {v: rules_array(GAME.build_rules(assignments=[f"variant={v}", "deals=1"]))
             for v in ("officers", "three")}
    acts = np.empty(MAX_CARDS, np.int64)
    f = np.empty((MAX_CARDS, N_CARD))
    ctx = np.empty(N_CONTEXT)
    leads = 0
    for st in card_states("three", 2)[1]:
        k = card_features(rules["three"], st, acts, f, ctx)
        assert not f[:k, 19:].any() and not ctx[22:].any()
    for st in card_states("officers", 3)[1]:
        k = card_features(rules["officers"], st, acts, f, ctx)
        p = int(st[ST_TO_MOVE])
        covered = int(E.covered_cards(st))
        foe_up = int(st[E.ST_HAND + 1 - p])
        t = int(st[E.ST_TRUMP])
        for i in range(k):
            c = int(acts[i])
            assert f[i, 19] == (covered >> c & 1)
            if int(st[E.ST_TRICK_N]) == 0:
                grp = int(FOLLOW_MASK[t, c])
                ans = foe_up & grp or foe_up
                beat = [d for d in range(32) if ans >> d & 1 and _beats(t, c, c, d)]
                assert f[i, 20] == (1.0 if beat else 0.0)
                assert f[i, 22] == (max(CARD_POINTS[d] for d in beat) / 11 if beat else 0)
                leads += 1
            else:
                assert not f[i, 20:23].any()
    assert leads > 20
