"""Schadenfreude's open-card search (solver.py), the pimc player (pimc.py) and the
heuristic's response to the scoring rules.

- the pruned, ordered max-n search gives exactly the value vectors of plain max-n
  (every child, engine order, no pruning) on 10,000 random late positions of 3, 4
  and 5 players under varied rules and scores (full solves and depth-limited ones);
- the evaluation: utilities non-negative, summing to at most 1, the winner's 1;
- a sampled world keeps what the seat saw and deals the hidden cards consistently
  (hand sizes, suits shown missing); pimc's choice does not depend on the hidden
  cards, is reproducible, and a batch with pimc is the same however it is chunked;
- the API accepts pimc names and gives ``open_values``;
- the heuristic's choices respond to limit, pairs and all_bust;
- the heuristic read straight from the state (pimc's playouts) is the heuristic.
"""
import numpy as np
import pytest
from numba import njit

from conftest import needs_two_threads
from simcore.bits import bounded, next_u64
from simcore.errors import RulesError
from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.engine import (MAX_SEATS, OBS_SIZE, PLAYING, S_HAND, S_PLAYED,
                                                S_SCORE, S_STATUS, S_TO_MOVE, S_TRICK_NUM,
                                                S_VOID, STATE_SIZE, apply_action, init_game,
                                                legal_cards, observe)
from simcore.games.schadenfreude.pimc import choose_search
from simcore.games.schadenfreude.pimc_params import PIMC_CARDS, PIMC_STOP, PIMC_WORLDS
from simcore.games.schadenfreude.policies import (choose, heuristic_action, heuristic_on_state,
                                                  parse_policy, policy_name)
from simcore.games.schadenfreude.rules import R_HAND, R_LIMIT, R_PLAYERS, rules_array
from simcore.games.schadenfreude.solver import (evaluate, maxn_plain, new_work, sample_world,
                                                solve)
from simcore.bits import kth_bit, popcount


@njit(cache=True)
def _agreement(r, seed, count, tricks_lo, tricks_hi, depth, play, work, fw):
    """``count`` random positions (random scores below the limit, random play until
    ``tricks_lo .. tricks_hi`` tricks are left, a random point inside a trick): how many
    differ between ``solve`` and ``maxn_plain``, and how many game-ending leaves'
    positions (a seat within 10 of the limit) were among them."""
    st = np.empty(STATE_SIZE, np.int64)
    a = np.zeros(MAX_SEATS)
    b = np.zeros(MAX_SEATS)
    n = r[R_PLAYERS]
    h = r[R_HAND]
    bad = 0
    near = 0
    rng = np.uint64(seed)
    for i in range(count):
        init_game(r, st, np.uint64(seed), i)
        for p in range(n):
            rng, s = bounded(rng, r[R_LIMIT] + 1)
            st[S_SCORE + p] = s
            if s > r[R_LIMIT] - 10:
                near += 1
        rng, left = bounded(rng, tricks_hi - tricks_lo + 1)
        left += tricks_lo
        rng, extra = bounded(rng, n)
        target = (h - left) * n + extra
        for _ in range(target):
            m = legal_cards(st)
            rng, j = bounded(rng, popcount(m))
            apply_action(r, st, kth_bit(m, j))
        if st[S_STATUS] != PLAYING:
            continue
        solve(r, st, depth, play, work, fw, a)
        maxn_plain(r, st, depth, play, work, fw, b)
        for p in range(n):
            if a[p] != b[p]:
                bad += 1
                break
    return bad, near


@pytest.fixture(scope="module")
def work():
    return new_work()


def _rules(players, *assign):
    return GAME.build_rules("standard", players=players, assignments=list(assign))


@pytest.mark.parametrize("players,assign,count,lo,hi,depth,play", [
    (4, (), 3000, 1, 3, 12, 0),
    (3, ("pairs=keep", "limit=25"), 2000, 1, 3, 12, 0),
    (5, ("limit=20", "all_bust=highest"), 2000, 1, 2, 12, 0),
    (4, ("limit=30", "floor=none"), 1500, 4, 5, 1, 0),
    (3, (), 1000, 4, 6, 1, 1),
    (4, (), 500, 3, 4, 2, 0),
])
def test_pruned_search_equals_plain_maxn(work, players, assign, count, lo, hi, depth, play):
    """10,000 positions in all (the rows' counts), each vector equal to plain max-n's:
    full solves, and depth-limited ones with the static and the playout leaf value."""
    r = rules_array(_rules(players, *assign))
    bad, near = _agreement(r, np.uint64(7 + players), count, lo, hi, depth, play, *work)
    assert bad == 0
    assert near > count // 10          # scores near the limit: game-ending leaves occur


def test_evaluate_is_a_share(work):
    r = rules_array(_rules(4))
    eng = GAME.engine(_rules(4))
    out = np.zeros(MAX_SEATS)
    for i in range(50):
        s = eng.new(seed=5, index=i)
        s[S_SCORE:S_SCORE + 4] = np.arange(4) * 9 + i % 5
        evaluate(r, s, out)
        assert (out[:4] >= 0).all() and out[:4].sum() <= 1 + 1e-12
        # more points (all well below the limit) is better
        assert out[3] > out[0]
    s[S_SCORE:S_SCORE + 4] = [10, 41, 30, 30]   # seat 1 bust, 2 and 3 tied: nobody wins yet
    s[S_STATUS] = 1
    evaluate(r, s, out)
    assert list(out[:4]) == [1.0, 0.0, 0.0, 0.0]   # the cascade: 30 is shared, 10 wins


def _mid_position(eng, seed, index, plies):
    s = eng.new(seed=seed, index=index)
    rng = np.random.default_rng(index)
    for _ in range(plies):
        eng.apply(s, int(rng.choice(eng.legal(s))))
    return s


def test_sampled_worlds_agree_with_the_view(work):
    rules = _rules(4)
    eng = GAME.engine(rules)
    r = eng.r
    cards = np.zeros(64, np.int64)
    world = np.zeros(STATE_SIZE, np.int64)
    voids_seen = 0
    for i in range(200):
        s = _mid_position(eng, 3, i, 5 + i % 35)
        seat = int(s[S_TO_MOVE])
        sample_world(r, s, seat, np.uint64(i + 1), world, cards)
        hidden = sum(int(s[S_HAND + p]) for p in range(4) if p != seat)
        again = sum(int(world[S_HAND + p]) for p in range(4) if p != seat)
        assert world[S_HAND + seat] == s[S_HAND + seat]
        assert world[S_PLAYED] == s[S_PLAYED]
        assert again & int(s[S_PLAYED]) == 0 and again & int(s[S_HAND + seat]) == 0
        for p in range(4):
            assert bin(int(world[S_HAND + p])).count("1") == bin(int(s[S_HAND + p])).count("1")
            assert int(world[S_HAND + p]) & int(s[S_VOID + p]) == 0
            voids_seen += int(s[S_VOID + p]) != 0
        assert bin(again).count("1") == bin(hidden).count("1")
    assert voids_seen > 20


def test_pimc_reads_only_what_the_seat_sees(work):
    """Re-deal the hidden cards consistently: pimc's choice stays (the same stream)."""
    rules = _rules(4)
    eng = GAME.engine(rules)
    r = eng.r
    cards = np.zeros(64, np.int64)
    obs = np.zeros(200, np.int64)
    for name in ("pimc:worlds=3,depth=1,playout=0", "pimc:worlds=3"):
        pid = parse_policy(name)
        for i in range(30):
            s = _mid_position(eng, 9, i, 3 + i)
            other = np.zeros(STATE_SIZE, np.int64)
            sample_world(r, s, int(s[S_TO_MOVE]), np.uint64(1000 + i), other, cards)
            a = choose_search(r, s.copy(), pid, obs, *work)
            assert choose_search(r, other, pid, obs, *work) == a
            assert choose_search(r, s.copy(), pid, obs, *work) == a     # reproducible
            assert a in eng.legal(s)


def test_policy_names():
    tail = f"cards={PIMC_CARDS},stop={PIMC_STOP}"
    assert policy_name(parse_policy("pimc")) == f"pimc:worlds={PIMC_WORLDS},depth=0,playout=1,{tail}"
    assert policy_name(parse_policy("pimc:depth=2;worlds=5;playout=0")) == \
        f"pimc:worlds=5,depth=2,playout=0,{tail}"
    rules = _rules(4)
    names, ids = GAME.policy_ids("pimc:worlds=3,depth=2,heuristic,heuristic,heuristic".split(","),
                                  rules)
    assert names == [f"pimc:worlds=3,depth=2,playout=1,{tail}"] + ["heuristic"] * 3
    for bad in ("pimc:worlds=0", "pimc:depth=13", "pimc:speed=2", "pimc:worlds=x",
                "pimc:playout=2"):
        with pytest.raises(RulesError, match="bad pimc parameter"):
            GAME.policy_ids([bad], rules)
    with pytest.raises(RulesError, match="unknown policy 'genius' for schadenfreude"):
        GAME.policy_ids(["genius"], rules)


def test_batch_with_pimc_is_chunk_independent():
    rules = _rules(3)
    _, ids = GAME.policy_ids(["pimc:worlds=2,depth=1", "heuristic", "random"], rules)
    whole = GAME.run_chunk(rules, ids, 4, 0, 4)
    parts = [GAME.run_chunk(rules, ids, 4, 0, 1), GAME.run_chunk(rules, ids, 4, 1, 3)]
    for key in ("rounds", "scores", "winner", "bust"):
        assert np.array_equal(whole["games"][key],
                              np.concatenate([p["games"][key] for p in parts]))
    agg = GAME.aggregate(whole, rules)
    assert agg["search_decisions"] == whole["search_decisions"] > 0
    assert agg["search_decisions"] == sum(p["search_decisions"] for p in parts)
    # a summary-only chunk with a searching player takes the same table path
    assert GAME.run_chunk(rules, ids, 4, 0, 4, summary_only=True)["search_decisions"] == \
        whole["search_decisions"]


@needs_two_threads
def test_batch_with_pimc_is_thread_independent():
    """One thread or two: the same games (each game has its own scratch space); enough
    games for the parallel kernel (fewer run on the calling thread)."""
    import numba
    from simcore.games.schadenfreude.play import PARALLEL_MIN, parallel
    assert parallel(PARALLEL_MIN)
    rules = _rules(3)
    _, ids = GAME.policy_ids(["pimc:worlds=2,depth=1", "heuristic", "random"], rules)
    before = numba.get_num_threads()
    got = {}
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            got[threads] = GAME.run_chunk(rules, ids, 4, 0, PARALLEL_MIN)
    finally:
        numba.set_num_threads(before)
    for key in ("rounds", "scores", "winner", "bust"):
        assert np.array_equal(got[1]["games"][key], got[2]["games"][key]), key


def test_api_pimc_and_open_values(work):
    rules = _rules(4)
    eng = GAME.engine(rules)
    eng.check_policy("pimc:worlds=2")
    with pytest.raises(ValueError, match="bad pimc parameter"):
        eng.check_policy("pimc:worlds=-1")
    s = _mid_position(eng, 2, 1, 30)
    vals = eng.open_values(s)
    assert sorted(vals) == eng.legal(s)
    assert all(0.0 <= v <= 1.0 for v in vals.values())
    # exact at the end of a round: the full search, which plain max-n agrees with
    late = _mid_position(eng, 2, 2, 40)
    full = eng.open_values(late)
    seat = int(late[S_TO_MOVE])
    out = np.zeros(MAX_SEATS)
    for a, v in full.items():
        t = late.copy()
        eng.apply(t, a)
        maxn_plain(eng.r, t, 12, 0, *work, out)
        assert out[seat] == v
    a = eng.choose("pimc:worlds=2", s)
    assert a in eng.legal(s)


def _heuristic_choices(rules, positions):
    r = rules_array(rules)
    return [int(choose(r, s.copy(), 1)) for s in positions]


def test_heuristic_responds_to_the_scoring_rules():
    """limit, pairs and all_bust each change some of the heuristic's cards (positions
    with the totals near the limit, where the rules bite)."""
    base = _rules(4)
    eng = GAME.engine(base)
    rng = np.random.default_rng(0)
    positions = []
    for i in range(1500):
        s = eng.new(seed=11, index=i)
        s[S_SCORE:S_SCORE + 4] = rng.integers(30, 41, 4)
        for _ in range(int(rng.integers(20, 46))):
            eng.apply(s, int(rng.choice(eng.legal(s))))
        if s[S_STATUS] == PLAYING:
            positions.append(s)
    mine = _heuristic_choices(base, positions)
    for assign in ("limit=25", "pairs=keep", "all_bust=highest"):
        other = _heuristic_choices(_rules(4, assign), positions)
        changed = sum(x != y for x, y in zip(mine, other))
        assert changed >= 5, assign


@njit(cache=True)
def _state_heuristic_differs(r, seed, count):
    """Over ``count`` random games played to their end by random cards (random scores
    below the limit): how many decisions with two or more legal cards
    ``heuristic_on_state`` answered differently from ``heuristic_action`` of the seat's
    observation, and how many such decisions there were."""
    st = np.empty(STATE_SIZE, np.int64)
    obs = np.empty(OBS_SIZE, np.int64)
    rng = np.uint64(seed)
    bad = 0
    seen = 0
    for i in range(count):
        init_game(r, st, np.uint64(seed), i)
        for p in range(r[R_PLAYERS]):
            rng, s = bounded(rng, r[R_LIMIT] + 1)
            st[S_SCORE + p] = s
        while st[S_STATUS] == PLAYING:
            m = legal_cards(st)
            if popcount(m) > 1:
                observe(r, st, st[S_TO_MOVE], obs)
                seen += 1
                if heuristic_on_state(r, st) != heuristic_action(r, obs):
                    bad += 1
            rng, j = bounded(rng, popcount(m))
            apply_action(r, st, kth_bit(m, j))
    return bad, seen


@pytest.mark.parametrize("players,assign", [
    (4, ()), (3, ("pairs=keep", "limit=25")), (5, ("limit=20", "all_bust=highest")),
])
def test_heuristic_on_state_is_the_heuristic(players, assign):
    """pimc's playouts read the heuristic's card straight from the state: the same card as
    the heuristic given the seat's observation, on every decision of 300 random rounds."""
    r = rules_array(_rules(players, *assign))
    bad, seen = _state_heuristic_differs(r, np.uint64(11 + players), 300)
    assert bad == 0 and seen > 1000
