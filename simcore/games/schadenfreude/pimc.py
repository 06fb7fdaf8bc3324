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

With ``cards = C`` it searches only with at most C cards in hand and plays the
heuristic's card before (``choose_search``); with ``stop = Z`` a card stops being
sampled once it is Z tenths of a standard error behind the best (``pimc_values``).

The default, ``pimc:worlds=64,depth=0,playout=1,cards=6,stop=15``, is flat Monte
Carlo over sampled worlds with heuristic playouts (a policy-improvement step over the
heuristic) for the last six cards of a round; deeper max-n with the static evaluation
measured no better than the heuristic, and the full search of every decision
(``pimc:worlds=32,cards=12,stop=0``, the default until December 2026) no better than
the default at 7-8 times its cost (docs/schadenfreude.md).
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, lowest_bit, popcount
from .engine import S_HAND, S_TO_MOVE, apply_action, legal_cards
from .expert import (EXPERT, EXPERT_DEPTH, EXPERT_MIN_PLAYERS, MODEL, MODEL_ON, expert_row,
                     expert_table, model_card)
from .policies import (HEURISTIC, PIMC, PIMC_CARDS_SHIFT, PIMC_DEPTH_SHIFT, PIMC_PLAYOUT_SHIFT,
                       PIMC_SHIFT, PIMC_STOP_SHIFT, choose_into)
from .rules import R_PLAYERS
from .solver import (F_ACTIVE, F_PAIRS, F_VALS, ROW_ACTS, ROW_CARDS, ROW_TOP, ROW_WORLD, ROWS, _copy_state,
                     _maxn, decision_stream, playout, sample_world, stop_trick)

#: worlds every card is sampled in before the stopping rule may drop it
STOP_MIN_WORLDS = 8


@njit(cache=True)
def pimc_values(r, st, worlds, depth, play, work, fw, acts, totals, z10=0):
    """Sum over sampled worlds of each legal card's value (``play``: by playout, else
    by search; ``depth`` -1 with ``play``: the playout straight after the card, also in
    the last tricks, which ``stop_trick`` otherwise searches exactly) for the seat to
    move (into ``totals``, cards into ``acts``); returns how many cards.  ``z10`` (tenths of a standard error, 0: never): from
    ``STOP_MIN_WORLDS`` worlds on, a card stops being sampled once the leader's mean
    beats it by more than ``z10 / 10`` standard errors of their paired difference (or
    equals it in every world so far, the lower card kept); sampling ends when one card
    is left.  ``fw[F_ACTIVE, i]`` says whether card ``i`` was sampled to the end: the
    choice is among those (each with the same worlds)."""
    seat = st[S_TO_MOVE]
    m = legal_cards(st)
    active = fw[F_ACTIVE]
    k = 0
    while m != U0:
        acts[k] = lowest_bit(m)
        totals[k] = 0.0
        active[k] = 1.0
        m &= m - U1
        k += 1
    if k == 1:
        return 1
    for i in range(k):
        for j in range(k):
            fw[F_PAIRS + i, j] = 0.0
    horizon = stop_trick(r, st, depth)
    world = work[ROW_WORLD]
    cards = work[ROW_CARDS]
    top = work[ROW_TOP]
    vals = fw[F_VALS]
    rng = decision_stream(st)
    left = k
    for w in range(worlds):
        rng = sample_world(r, st, seat, rng, world, cards)
        for i in range(k):
            if active[i] == 0.0:
                continue
            _copy_state(world, top)
            apply_action(r, top, acts[i])
            if depth < 0 and play:  # the expert's: the playout straight after the card
                playout(r, top, fw[0])
            else:
                _copy_state(top, work[0])
                _maxn(r, work, fw, 0, horizon, play, -1, 0.0)
            vals[i] = fw[0, seat]
        for i in range(k):
            if active[i] != 0.0:
                totals[i] += vals[i]
                if z10 > 0:         # the paired variances only the stopping rule reads
                    for j in range(k):
                        if active[j] != 0.0:
                            fw[F_PAIRS + i, j] += vals[i] * vals[j]
        if z10 > 0 and w + 1 >= STOP_MIN_WORLDS:
            left = _drop_clear_losers(fw, totals, active, k, w + 1, z10)
            if left == 1:
                break
    return k


@njit(cache=True)
def _drop_clear_losers(fw, totals, active, k, n, z10):
    """Marks inactive every sampled card clearly worse than the leader after ``n``
    worlds (see ``pimc_values``); returns how many are left."""
    b = -1
    for i in range(k):
        if active[i] != 0.0 and (b < 0 or totals[i] > totals[b]):
            b = i
    z2 = (z10 / 10.0) ** 2
    left = 0
    for j in range(k):
        if active[j] == 0.0:
            continue
        if j != b:
            d = (totals[b] - totals[j]) / n
            var = max(0.0, (fw[F_PAIRS + b, b] + fw[F_PAIRS + j, j]
                            - 2.0 * fw[F_PAIRS + b, j]) / n - d * d)
            if (d > 0.0 and d * d * (n - 1) > z2 * var) or (d == 0.0 and var <= 0.0):
                active[j] = 0.0
                continue
        left += 1
    return left


@njit(cache=True)
def pimc_choose(r, st, worlds, depth, play, work, fw, z10=0):
    """The card of the ``pimc`` player (see the module): best mean over the worlds
    among the cards sampled to the end (``z10``: ``pimc_values``'s stop)."""
    acts = work[ROW_ACTS]
    totals = fw[2 * ROWS]
    k = pimc_values(r, st, worlds, depth, play, work, fw, acts, totals, z10)
    active = fw[F_ACTIVE]
    best = -1
    for i in range(k):
        if (k == 1 or active[i] != 0.0) and (best < 0 or totals[i] > totals[best]):
            best = i
    return acts[best]


@njit(cache=True)
def expert_choose(r, st, table, obs, work, fw):
    """The ``expert``'s card (expert.py) with the worlds and stopping rule by cards in
    hand of ``table`` (``expert_table(r)`` for the shipped player; another table lets a
    benchmark compare settings without compiling a player for each) and the shipped
    learned scorer for the player count (``MODEL``, where ``MODEL_ON``)."""
    i = r[R_PLAYERS] - EXPERT_MIN_PLAYERS
    return expert_model_choose(r, st, table, MODEL[i], MODEL_ON[i], obs, work, fw)


@njit(cache=True)
def expert_model_choose(r, st, table, weights, use_model, obs, work, fw):
    """``expert_choose`` with the scorer's ``weights`` (expert.MODEL_SHAPE) played with
    more cards in hand than ``table`` has rows when ``use_model`` is 1 (else the
    heuristic's card there): weights can be compared on paired games without compiling
    a player for each."""
    row = expert_row(st, table)
    if row >= 0 and table[row, 0] > 0:
        # typed values: literal constants would compile pimc_choose a second time
        return pimc_choose(r, st, table[row, 0], np.int64(EXPERT_DEPTH), np.int64(1), work,
                           fw, table[row, 1])
    if row < 0 and use_model != 0:
        return model_card(r, st, weights, work, fw)
    return choose_into(r, st, HEURISTIC, obs)


@njit(cache=True)
def choose_search(r, st, pid, obs, work, fw):
    """``policies.choose_into`` for every policy, ``pimc`` and ``expert`` included
    (``work, fw``: ``solver.new_work()``).  ``pimc`` with more than its ``cards`` left
    in hand plays the heuristic's card."""
    if pid == EXPERT:
        return expert_choose(r, st, expert_table(r), obs, work, fw)
    if pid & 7 == PIMC:
        if popcount(np.uint64(st[S_HAND + st[S_TO_MOVE]])) > (pid >> PIMC_CARDS_SHIFT) & 15:
            return choose_into(r, st, HEURISTIC, obs)
        return pimc_choose(r, st, (pid >> PIMC_SHIFT) & 0x1FFF,
                           (pid >> PIMC_DEPTH_SHIFT) & 0xFF,
                           (pid >> PIMC_PLAYOUT_SHIFT) & 1, work, fw,
                           (pid >> PIMC_STOP_SHIFT) & 0x3F)
    return choose_into(r, st, pid, obs)
