"""The ``pimc`` player of Schadenfreude: sampled worlds valued with all cards open.

``pimc_choose(r, st, worlds, depth, playout, work, fw)``: the seat to move
samples ``worlds`` worlds (solver.sample_world: the hidden cards dealt again
consistently with what it saw), values each legal card in each world with all
cards open and plays the card with the best mean value for itself (the lowest
card on ties).  A card's value in a world: the card, then the max-n search of
solver.py ``depth`` tricks deep (0: none), then the leaf value: with ``playout =
1`` the heuristic plays the round out for every seat and the round's end is
evaluated, with ``playout = 0`` the totals at the horizon are evaluated
(solver.evaluate).  Its draws come from the decision's own stream
(solver.decision_stream), so a choice is reproducible by (seed, index).

The default, ``pimc:worlds=32,depth=0,playout=1``, is flat Monte Carlo over
sampled worlds with heuristic playouts (a policy-improvement step over the
heuristic); deeper max-n with the static evaluation measured no better than the
heuristic (docs/schadenfreude.md).
"""
from numba import njit

from ...bits import U0, U1, lowest_bit
from .engine import S_TO_MOVE, apply_action, legal_cards
from .expert import EXPERT, EXPERT_WORLDS, expert_searches
from .policies import HEURISTIC, PIMC, PIMC_DEPTH_SHIFT, PIMC_PLAYOUT_SHIFT, PIMC_SHIFT, \
    choose_into
from .solver import (R_ACTS, R_CARDS, R_TOP, R_WORLD, ROWS, _copy_state, _maxn, decision_stream,
                     sample_world, stop_trick)


@njit(cache=True)
def pimc_values(r, st, worlds, depth, play, work, fw, acts, totals):
    """Sum over ``worlds`` sampled worlds of each legal card's value (``play``: by
    playout, else by search) for the seat to move
    (into ``totals``, cards into ``acts``); returns how many cards."""
    seat = st[S_TO_MOVE]
    m = legal_cards(st)
    k = 0
    while m != U0:
        acts[k] = lowest_bit(m)
        totals[k] = 0.0
        m &= m - U1
        k += 1
    if k == 1:
        return 1
    stop = stop_trick(r, st, depth)
    world = work[R_WORLD]
    cards = work[R_CARDS]
    top = work[R_TOP]
    rng = decision_stream(st)
    for _ in range(worlds):
        rng = sample_world(r, st, seat, rng, world, cards)
        for i in range(k):
            _copy_state(world, top)
            apply_action(r, top, acts[i])
            _copy_state(top, work[0])
            _maxn(r, work, fw, 0, stop, play, -1, 0.0)
            totals[i] += fw[0, seat]
    return k


@njit(cache=True)
def pimc_choose(r, st, worlds, depth, play, work, fw):
    """The card of the ``pimc`` player (see the module): best mean over the worlds."""
    acts = work[R_ACTS]
    totals = fw[2 * ROWS]
    k = pimc_values(r, st, worlds, depth, play, work, fw, acts, totals)
    best = 0
    for i in range(1, k):
        if totals[i] > totals[best]:
            best = i
    return acts[best]


@njit(cache=True)
def choose_search(r, st, pid, obs, work, fw):
    """``policies.choose_into`` for every policy, ``pimc`` and ``expert`` included
    (``work, fw``: ``solver.new_work()``)."""
    if pid == EXPERT:
        if expert_searches(st):
            return pimc_choose(r, st, EXPERT_WORLDS, 0, 1, work, fw)
        return choose_into(r, st, HEURISTIC, obs)
    if pid & 7 == PIMC:
        return pimc_choose(r, st, (pid >> PIMC_SHIFT) & 0x1FFF,
                           (pid >> PIMC_DEPTH_SHIFT) & 0xFF, pid >> PIMC_PLAYOUT_SHIFT,
                           work, fw)
    return choose_into(r, st, pid, obs)
