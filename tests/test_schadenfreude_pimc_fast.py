"""Schadenfreude pimc's cost savers (pimc.py): ``cards=C`` (the heuristic's card while
more than C cards are in hand) and ``stop=Z`` (a card stops being sampled once it is
clearly behind the best).

- ``cards``: with more than C cards in hand the choice is the heuristic's, with C or
  fewer it is the full search's, on 400 random positions;
- ``stop``: the chosen card was sampled in every world and its mean is the best among
  those; with a loose rule (3 standard errors) it agrees with the full search on most
  positions, with ``stop=0`` exactly; cards equal in every world are merged (the lower
  kept), so a forced outcome costs only the first worlds.
"""
import numpy as np
import pytest

from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.engine import S_HAND, S_TO_MOVE
from simcore.games.schadenfreude.pimc import STOP_MIN_WORLDS, choose_search, pimc_values
from simcore.games.schadenfreude.policies import parse_policy
from simcore.games.schadenfreude.solver import F_ACTIVE, ROW_ACTS, ROWS, new_work


@pytest.fixture(scope="module")
def eng():
    return GAME.engine(GAME.build_rules("standard", players=4))


def _positions(eng, count, seed):
    out = []
    rng = np.random.default_rng(seed)
    for i in range(count):
        s = eng.new(seed=seed, index=i)
        for _ in range(int(rng.integers(0, 44))):
            eng.apply(s, int(rng.choice(eng.legal(s))))
        out.append(s)
    return out


def _hand(s):
    return bin(int(s[S_HAND + int(s[S_TO_MOVE])])).count("1")


def test_cards_takes_the_heuristic_early_and_searches_late(eng):
    searched = early = 0
    for s in _positions(eng, 400, 3):
        late = _hand(s) <= 5
        want = eng.choose("pimc:worlds=4,cards=12,stop=0" if late else "heuristic", s.copy())
        assert eng.choose("pimc:worlds=4,cards=5,stop=0", s.copy()) == want
        searched += late
        early += not late
    assert searched >= 50 and early >= 50


def test_stop_keeps_the_best_sampled_card(eng):
    work, fw = new_work()
    obs = np.zeros(200, np.int64)
    r = eng.r
    agree = total = 0
    for s in _positions(eng, 150, 5):
        full = choose_search(r, s.copy(), parse_policy("pimc:worlds=24,cards=12,stop=0"), obs,
                             work, fw)
        pid = parse_policy("pimc:worlds=24,cards=12,stop=30")
        got = choose_search(r, s.copy(), pid, obs, work, fw)
        agree += got == full
        total += 1
        # the chosen card is among those sampled to the end, and the best of them
        k = pimc_values(r, s.copy(), 24, 0, 1, work, fw, work[ROW_ACTS], fw[2 * ROWS], 30)
        if k > 1:
            acts = list(work[ROW_ACTS][:k])
            alive = [i for i in range(k) if fw[F_ACTIVE, i] != 0.0]
            assert acts.index(got) in alive
            assert max(fw[2 * ROWS, i] for i in alive) == fw[2 * ROWS, acts.index(got)]
        assert choose_search(r, s.copy(), parse_policy("pimc:worlds=24,stop=0,cards=12"), obs,
                             work, fw) == full
    assert agree >= 0.85 * total


def test_stop_ends_sampling_when_one_card_is_left(eng):
    """With a 2-standard-error rule, 64 worlds are not all sampled when every card but
    one falls clearly behind: at least a fifth of random positions end with one card."""
    work, fw = new_work()
    r = eng.r
    early_end = 0
    for s in _positions(eng, 100, 9):
        k = pimc_values(r, s.copy(), 64, 0, 1, work, fw, work[ROW_ACTS], fw[2 * ROWS], 20)
        if k > 1 and sum(fw[F_ACTIVE, i] != 0.0 for i in range(k)) == 1:
            early_end += 1
    assert early_end >= 20
    assert STOP_MIN_WORLDS <= 64


def test_names_carry_cards_and_stop():
    from simcore.games.schadenfreude.policies import policy_name
    name = policy_name(parse_policy("pimc:stop=15;cards=7"))
    assert ",cards=7,stop=15" in name
    with pytest.raises(ValueError, match="bad pimc parameter 'cards=13'"):
        parse_policy("pimc:cards=13")
    with pytest.raises(ValueError, match="bad pimc parameter 'stop=64'"):
        parse_policy("pimc:stop=64")
