"""The ``expert`` player of Wendish and Schadenfreude: the heuristic early (Wendish four's
card play: a learned scorer), pimc's search over a few worlds late in a deal (the
decisions it searches), and better than the heuristic on paired deals."""
import numpy as np
import pytest

from simcore import get_game, simulate


def _positions(eng, seed, games):
    """Every position before a decision of ``games`` games of heuristic play."""
    out = []
    for index in range(games):
        st = eng.new(seed, index)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
                continue
            out.append(st.copy())
            eng.apply(st, eng.choose("heuristic", st))
    return out


@pytest.mark.parametrize("variant", ["four", "officers"])
def test_wendish_expert_searches_the_last_tricks_only(variant):
    from simcore.games.wendish import engine as E
    from simcore.games.wendish.expert import EXPERT_TRICKS, EXPERT_WORLDS, MODEL, model_card
    g = get_game("wendish")
    eng = g.engine(g.build_rules(assignments=[f"variant={variant}", "deals=1"]))
    searched = early = 0
    for st in _positions(eng, 3, 6):
        late = (int(st[E.ST_PHASE]) == E.P_PLAY
                and int(st[E.ST_NTRICKS]) - int(st[E.ST_TRICKS_DONE])
                <= EXPERT_TRICKS[int(st[E.ST_VARIANT])])
        other = f"pimc:worlds={EXPERT_WORLDS}" if late else "heuristic"
        if not late and int(st[E.ST_PHASE]) == E.P_PLAY:
            want = int(model_card(eng.r, st.copy(), MODEL))   # the learned scorer
        else:
            want = eng.choose(other, st.copy())
        assert eng.choose("expert", st.copy()) == want
        searched += late
        early += not late
    assert searched >= 20 and early >= 20


def test_wendish_expert_gains_over_a_heuristic_seat():
    """The expert in each seat in turn on the same 600 deals: its seat scores more than
    a heuristic seat does there (paired by deal)."""
    g = get_game("wendish")
    rules = g.build_rules(assignments=["variant=four", "deals=1"])

    def scores(pols):
        return g.run_chunk(rules, g.policy_ids(pols, rules)[1], 5, 0, 600)["deals"]["scores"]
    base = scores(["heuristic"] * 4)
    d = np.zeros(600)
    for s in range(4):
        pols = ["heuristic"] * 4
        pols[s] = "expert"
        d += scores(pols)[:, s] - base[:, s]
    d /= 4
    assert d.mean() - 1.96 * d.std(ddof=1) / np.sqrt(len(d)) > 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_schadenfreude_expert_searches_the_last_cards_only(players):
    """With few cards in hand the expert plays pimc's flat Monte Carlo with its table's
    worlds and stop, a playout after the card also in the last two tricks (where pimc
    searches exactly): pimc's own player with three or more cards, pimc_choose at depth
    -1 with two; before, the learned scorer where the player count has one
    (expert.MODEL_ON), else the heuristic's card."""
    from simcore.games.schadenfreude.engine import OBS_SIZE, S_HAND, S_TO_MOVE
    from simcore.games.schadenfreude.expert import (EXPERT_CARDS, EXPERT_DEPTH,
                                                    EXPERT_MIN_PLAYERS, EXPERT_SEARCH,
                                                    MODEL, MODEL_ON)
    from simcore.games.schadenfreude.pimc import expert_model_choose, pimc_choose
    from simcore.games.schadenfreude.rules import rules_array
    from simcore.games.schadenfreude.solver import new_work
    g = get_game("schadenfreude")
    rules = g.build_rules(players=players)
    eng = g.engine(rules)
    r = rules_array(rules)
    table = EXPERT_SEARCH[players - EXPERT_MIN_PLAYERS]
    work, fw = new_work()
    obs = np.zeros(OBS_SIZE, np.int64)
    searched = {2: 0, 3: 0, 4: 0}
    early = 0
    for st in _positions(eng, players, 2)[:800]:
        h = bin(int(st[S_HAND + int(st[S_TO_MOVE])])).count("1")
        got = eng.choose("expert", st.copy())
        if 2 <= h <= EXPERT_CARDS and table[h, 0] > 0:
            w, z = (int(x) for x in table[h])
            assert got == pimc_choose(r, st.copy(), np.int64(w), np.int64(EXPERT_DEPTH),
                                      np.int64(1), work, fw, np.int64(z))
            if h >= 3:
                assert got == eng.choose(f"pimc:worlds={w},depth=0,playout=1,cards=12,"
                                         f"stop={z}", st.copy())
            searched[h] += 1
        elif h > EXPERT_CARDS and MODEL_ON[players - EXPERT_MIN_PLAYERS]:
            # the learned scorer of this player count (expert.py)
            assert got == expert_model_choose(r, st.copy(), table, MODEL[players - 3],
                                              np.int64(1), obs, work, fw)
            early += 1
        else:
            assert got == eng.choose("heuristic", st.copy())
            early += h > EXPERT_CARDS
    assert min(searched.values()) >= 10 and early >= 20


def test_schadenfreude_expert_wins_more_than_its_share():
    """One expert seat against three heuristic ones, in every seat on the same 1,000
    games: it wins more than a quarter of them."""
    g = get_game("schadenfreude")
    rules = g.build_rules(players=4)
    wins = 0
    for s in range(4):
        pols = ["heuristic"] * 4
        pols[s] = "expert"
        res = simulate("schadenfreude", rules, pols, games=1000, seed=9, threads=1)
        wins += int(res.summary["seats"]["wins"][s])
    assert wins / 4000 > 0.25
