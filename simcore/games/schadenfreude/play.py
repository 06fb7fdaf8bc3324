"""Schadenfreude batch loops on the engine: the games table, and logged games for records.

Each game is ``init_game`` then ``choose`` / ``apply_action`` until the round
is over, ``next_deal`` until the game is over; every game draws from its own
stream (``game_stream(seed, index)``), so it is the same whichever chunk or
thread plays it.
"""
import numpy as np
from numba import njit, prange

from .engine import (OBS_SIZE, S_BUST, S_FIRST_LEADER, S_HAND, S_LEADER, S_PILE,
                     S_POINTS, S_ROUND, S_SCORE, S_STATUS, S_TO_MOVE, S_UNFINISHED,
                     S_WINNER, STATE_SIZE, PLAYING, apply_action, game_over, init_game,
                     next_deal)
from .policies import choose_into
from .rules import R_PLAYERS


@njit(cache=True, inline="always")
def _play_round(r, policies, st, obs):
    """Play the current round to its end (the engine scores it)."""
    while st[S_STATUS] == PLAYING:
        a = choose_into(r, st, policies[st[S_TO_MOVE]], obs)
        apply_action(r, st, a)


@njit(cache=True, parallel=True)
def play_batch(r, policies, seed, start, count, rounds, scores, winner, bust, unfinished,
               first_leader):
    """Play games ``start .. start+count-1`` in parallel into the output arrays."""
    n = r[R_PLAYERS]
    for g in prange(count):
        st = np.empty(STATE_SIZE, dtype=np.int64)
        obs = np.empty(OBS_SIZE, dtype=np.int64)
        init_game(r, st, seed, start + g)
        while True:
            _play_round(r, policies, st, obs)
            if game_over(st):
                break
            next_deal(r, st)
        rounds[g] = st[S_ROUND]
        for p in range(n):
            scores[g, p] = st[S_SCORE + p]
        winner[g] = st[S_WINNER]
        bust[g] = st[S_BUST]
        unfinished[g] = st[S_UNFINISHED] != 0
        first_leader[g] = st[S_FIRST_LEADER]


# per-round log row: leader, the hands and the aside cards at the start,
# then after the round the piles, points and scores (per seat, MAX_SEATS wide)
L_LEADER = 0
L_HANDS = 1
L_ASIDE = L_HANDS + 5
L_PILES = L_ASIDE + 1
L_POINTS = L_PILES + 5
L_SCORES = L_POINTS + 5
LOG_WIDTH = L_SCORES + 5


@njit(cache=True, parallel=True)
def play_logged(r, policies, seed, start, count, offsets, log, seats, cards, deck):
    """Play games ``start ..`` again (``play_batch`` gave their rounds), logging every
    round: game ``g``'s rounds are rows ``offsets[g] .. offsets[g+1]-1`` of ``log``
    (LOG_WIDTH columns, see L_*), ``seats`` and ``cards`` (players * hand_size
    actions per round, in order)."""
    n = r[R_PLAYERS]
    for g in prange(count):
        st = np.empty(STATE_SIZE, dtype=np.int64)
        obs = np.empty(OBS_SIZE, dtype=np.int64)
        init_game(r, st, seed, start + g)
        row = offsets[g]
        while True:
            log[row, L_LEADER] = st[S_LEADER]
            hands = np.uint64(0)
            for p in range(n):
                log[row, L_HANDS + p] = st[S_HAND + p]
                hands |= np.uint64(st[S_HAND + p])
            log[row, L_ASIDE] = np.int64(deck & ~hands)
            k = 0
            while st[S_STATUS] == PLAYING:
                p = st[S_TO_MOVE]
                a = choose_into(r, st, policies[p], obs)
                seats[row, k] = p
                cards[row, k] = a
                k += 1
                apply_action(r, st, a)
            for p in range(n):
                log[row, L_PILES + p] = st[S_PILE + p]
                log[row, L_POINTS + p] = st[S_POINTS + p]
                log[row, L_SCORES + p] = st[S_SCORE + p]
            row += 1
            if game_over(st):
                break
            next_deal(r, st)
