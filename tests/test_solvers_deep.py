"""The open-card solvers against plain references that share no move generation or
scoring with them (tests/naive_search.py, on the naive rule references), on positions
with three and four tricks left, in every variant (Schadenfreude: 3, 4 and 5 players
under several rule options): the depths where the search's ordering, merging, bounds,
pruning and table have something to do (with one or two tricks left most cards are
forced)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from naive_schnapsen import NaiveDeal
from naive_search import schadenfreude_value, schnapsen_value, wendish_value
from simcore import get_game


# ----- Wendish -----------------------------------------------------------------------------
def _wendish_deep_positions(r, seed, per_depth):
    """``per_depth`` card-play positions with exactly three and as many with four tricks
    to go (a random number of the current trick's cards played)."""
    from test_wendish_solver import late_positions
    from simcore.games.wendish.engine import STATE_SIZE, ST_NTRICKS, ST_TRICKS_DONE
    pos = np.zeros((12 * per_depth, STATE_SIZE), np.int64)
    late_positions(r, seed, len(pos), 4, pos)
    left = pos[:, ST_NTRICKS] - pos[:, ST_TRICKS_DONE]
    out = [p for d in (3, 4) for p in pos[left == d][:per_depth]]
    assert len(out) == 2 * per_depth
    return out


def _open_wedding(st, decl):
    """``st`` rewritten into a first-trick wedding of ``decl`` whose partner is still
    open (``decl`` has won every trick so far)."""
    from simcore.games.wendish import engine as E
    st = st.copy()
    n = int(st[E.ST_N])
    st[E.ST_CONTRACT] = E.WEDDING
    st[E.ST_DECLARER] = decl
    st[E.ST_FIRST_TRICK] = 1
    st[E.ST_CALLED] = -1
    st[E.ST_CBIT] = 0
    st[E.ST_TEAMS_PUBLIC] = 0
    st[E.ST_TEAM0] = 1 << decl
    for field in (E.ST_PTS, E.ST_NTR):
        total = int(st[field:field + n].sum())
        st[field:field + n] = 0
        st[field + decl] = total
    return st


@pytest.mark.parametrize("variant,per_depth,wedding", [
    ("four", 25, 0), ("three", 25, 0), ("three_sharp", 25, 0),
    ("officers", 25, 0), ("four", 10, 16), ("three", 10, 16), ("four", 10, 6),
    ("three", 10, 8)])
def test_wendish_solver_equals_a_naive_search_three_and_four_tricks_left(
        variant, per_depth, wedding):
    """``solve`` (alpha-beta, merged cards, bounds, the table) against a memoised plain
    minimax on the naive rules, with three and four tricks to go; ``wedding`` (a
    deadline): the positions rewritten into a first-trick wedding whose partner is
    still open, where the sides change with the trick another seat wins (deadline 16:
    never reached; 6 of 8 and 8 of 10 tricks: reached one or two tricks into the
    search, after which the caller plays alone)."""
    from simcore.games.wendish.engine import ST_N, ST_TRICK_N
    from simcore.games.wendish.rules import rules_array
    from simcore.games.wendish.solver import new_work, solve
    sets = [f"variant={variant}"] + ([f"wedding_deadline={wedding}"] if wedding else [])
    rules = get_game("wendish").build_rules(assignments=sets)
    r = rules_array(rules)
    work = new_work()
    positions = _wendish_deep_positions(r, 29 + (wedding > 0), per_depth)
    values = set()
    for i, st in enumerate(positions):
        if wedding:
            st = _open_wedding(st, i % int(st[ST_N]))
        want = wendish_value(st, rules["wedding_deadline"])
        assert solve(r, st, work) == want, (i, st.tolist())
        values.add(want)
    assert any(st[ST_TRICK_N] > 0 for st in positions)
    assert len(values) > per_depth // 2           # not a few trivial values


# ----- Schnapsen ----------------------------------------------------------------------------
def _schnapsen_deep_positions(eng, rules, seed, count, rng):
    """(engine state, naive deal) pairs with three or four tricks left (the talon gone or
    closed, three or four cards a hand), reached by random legal play (no resigning)
    replayed on the naive reference."""
    from test_schnapsen_engine import items_of                      # noqa: F401
    from simcore.games.schnapsen.api import deal_start_of
    from simcore.games.schnapsen.engine import (A_PASS, A_RESIGN, S_CLOSER, S_HAND, S_MATCH,
                                                S_TALON_LEFT)
    out = []
    index = 0
    while len(out) < count:
        st = eng.new(seed, index)
        index += 1
        want = 3 + len(out) % 2
        naive = NaiveDeal(rules, deal_start_of(st), [int(x) for x in st[S_MATCH:S_MATCH + 2]])
        while not eng.deal_over(st):
            sizes = [bin(int(st[S_HAND + p])).count("1") for p in range(2)]
            strict = int(st[S_CLOSER]) >= 0 or int(st[S_TALON_LEFT]) == 0
            if strict and max(sizes) == want and rng.random() < 0.5:
                out.append((st.copy(), naive))
                break
            legal = [a for a in eng.legal(st) if a != A_RESIGN]
            a = rng.choice(legal)
            item = (eng.to_move(st), "pass") if a == A_PASS else eng.action_to_record(st, a)
            eng.apply(st, a)
            naive.apply(item)
    return out


@pytest.mark.parametrize("variant", ["austrian", "tournament", "odd"])
def test_schnapsen_solver_equals_a_naive_search_three_and_four_tricks_left(variant):
    """``solve`` (MTD(f), ordering, the table, the claim shortcut) against minimax over
    the naive reference's legal items (claims, marriages, passes), signed game points:
    the position's value, and (``solve_actions``, one table for many windows and
    positions) the value of every legal action of the seat to move."""
    from test_schnapsen_engine import VARIANTS
    from naive_search import _clone
    from simcore.games.schnapsen.engine import A_PASS, MAX_LEGAL
    from simcore.games.schnapsen.solver import new_work, solve, solve_actions
    rules = VARIANTS[variant]
    eng = get_game("schnapsen").engine(rules)
    rng = random.Random(variant)
    work = new_work()
    acts = np.zeros(MAX_LEGAL, np.int64)
    got = np.zeros(MAX_LEGAL, np.int64)
    values = []
    for k, (st, naive) in enumerate(_schnapsen_deep_positions(eng, rules, 13, 80, rng)):
        seat = k % 2
        want = schnapsen_value(naive, seat)
        assert solve(eng.r, st, seat, work) == want, (k, st.tolist())
        values.append(want)
        mover = eng.to_move(st)
        for i in range(solve_actions(eng.r, st, work, acts, got)):
            a = int(acts[i])
            child = _clone(naive)
            child.apply((mover, "pass") if a == A_PASS else eng.action_to_record(st, a))
            assert got[i] == schnapsen_value(child, mover), (k, a, st.tolist())
    assert len(set(values)) >= 4


# ----- Schadenfreude ------------------------------------------------------------------------
def _schadenfreude_deep_positions(eng, rules, seed, count, rng):
    """``count`` positions, alternately with three and four tricks left (a random number
    of the current trick's cards played; five players at four tricks: three or four of
    them), after random legal play from scores drawn
    below the limit (a seat in eight within 8 of it, so that game-ending leaves and
    busts occur; the others at most a quarter of it: a round's points are many)."""
    from simcore.games.schadenfreude.engine import S_SCORE, S_TRICK_NUM, S_TRICK_POS
    n, h, limit = rules["players"], rules["hand_size"], rules["limit"]
    out = []
    index = 0
    while len(out) < count:
        st = eng.new(seed, index)
        index += 1
        for p in range(n):
            near = rng.random() < 1 / 8
            st[S_SCORE + p] = rng.randint(limit - 8, limit) if near else \
                rng.randint(0, limit // 4)
        left = 3 + len(out) % 2
        # (five players, four tricks: a plain search of 20 open cards takes Python some
        # ten seconds; with three of the trick's cards played, one to three)
        extra = rng.randrange(3 if n == 5 and left == 4 else 0, n)
        while int(st[S_TRICK_NUM]) < h - left or (int(st[S_TRICK_NUM]) == h - left and
                                                    int(st[S_TRICK_POS]) < extra):
            eng.apply(st, rng.choice(list(eng.legal(st))))
        out.append(st.copy())
    return out


@pytest.mark.parametrize("players,assign,count,depth", [
    (3, (), 16, 12),
    (3, ("pairs=keep", "limit=25"), 12, 12),
    (4, ("max_rounds=1", "limit=60"), 10, 12),
    (4, (), 10, 12),
    (4, ("limit=30", "floor=none"), 10, 1),
    (5, ("limit=20", "all_bust=highest"), 6, 12),
    (5, ("floor=5",), 8, 2),
])
def test_schadenfreude_maxn_equals_a_naive_maxn_three_and_four_tricks_left(
        players, assign, count, depth):
    """``solve`` (max-n with shallow pruning, move ordering, the lowest card on ties,
    the depth limit and the static leaf value) against a memoised plain max-n on the
    naive rules, with three and four tricks to go: every seat's utility exactly.
    ``depth`` 12 searches to the round's end (the scores, floor, bust and the game's
    winner, ``max_rounds=1``: a game stopped unfinished); 1 and 2 stop at a trick's
    start (the totals so far evaluated)."""
    from simcore.games.schadenfreude.rules import rules_array
    from simcore.games.schadenfreude.solver import new_work, solve
    g = get_game("schadenfreude")
    rules = g.build_rules("standard", players=players, assignments=list(assign))
    eng = g.engine(rules)
    r = rules_array(rules)
    work, fw = new_work()
    got = np.zeros(players)
    rng = random.Random(players * 100 + depth + len(assign))
    vectors = set()
    decided = 0
    for i, st in enumerate(_schadenfreude_deep_positions(eng, rules, 37, count, rng)):
        want = schadenfreude_value(st, rules, depth)
        solve(r, st, depth, 0, work, fw, got)
        assert tuple(got) == want, (i, st.tolist())
        vectors.add(want)
        decided += max(want) == 1.0 or max(want) == 0.0
    # not a few trivial vectors, and both kinds of value: decided games and shares (with
    # max_rounds=1 every round's end ends the game: all decided)
    assert len(vectors) >= count // 3 and decided > 0
    assert decided == count if "max_rounds=1" in assign else decided < count
