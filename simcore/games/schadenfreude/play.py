"""Schadenfreude batch loops on the engine: the games table, and logged games for records.

Each game is ``init_game`` then ``choose`` / ``apply_action`` until the round
is over, ``next_deal`` until the game is over; every game draws from its own
stream (``game_stream(seed, index)``), so it is the same whichever chunk or
thread plays it.  Each loop has a parallel driver and a serial one for a few
games (a parallel launch wakes every thread, which on a busy machine can cost
milliseconds); ``parallel(count)`` says which to use.
"""
import numpy as np
from numba import njit, prange

from .engine import (OBS_SIZE, S_BUST, S_FIRST_LEADER, S_HAND, S_LEADER, S_PILE,
                     S_POINTS, S_ROUND, S_SCORE, S_STATUS, S_TO_MOVE, S_UNFINISHED,
                     S_WINNER, STATE_SIZE, PLAYING, apply_action, game_over, init_game,
                     next_deal)
from .policies import choose_into
from .rules import R_PLAYERS

PARALLEL_MIN = 64  # fewer games than this run on the calling thread


def parallel(count) -> bool:
    """Whether ``count`` games are worth a parallel launch."""
    return count >= PARALLEL_MIN


@njit(cache=True, inline="always")
def _play_round(r, policies, st, obs):
    """Play the current round to its end (the engine scores it)."""
    while st[S_STATUS] == PLAYING:
        a = choose_into(r, st, policies[st[S_TO_MOVE]], obs)
        apply_action(r, st, a)


@njit(cache=True, inline="always")
def _game_row(r, policies, seed, index, g, rounds, scores, winner, bust, unfinished,
              first_leader, st, obs):
    """Play game ``index`` and write its row ``g`` of the games table."""
    init_game(r, st, seed, index)
    while True:
        _play_round(r, policies, st, obs)
        if game_over(st):
            break
        next_deal(r, st)
    rounds[g] = st[S_ROUND]
    for p in range(r[R_PLAYERS]):
        scores[g, p] = st[S_SCORE + p]
    winner[g] = st[S_WINNER]
    bust[g] = st[S_BUST]
    unfinished[g] = st[S_UNFINISHED] != 0
    first_leader[g] = st[S_FIRST_LEADER]


@njit(cache=True, parallel=True)
def play_batch(r, policies, seed, start, count, rounds, scores, winner, bust, unfinished,
               first_leader):
    """Play games ``start .. start+count-1`` in parallel into the output arrays."""
    for g in prange(count):
        st = np.empty(STATE_SIZE, dtype=np.int64)
        obs = np.empty(OBS_SIZE, dtype=np.int64)
        _game_row(r, policies, seed, start + g, g, rounds, scores, winner, bust, unfinished,
                  first_leader, st, obs)


@njit(cache=True)
def play_batch_serial(r, policies, seed, start, count, rounds, scores, winner, bust,
                      unfinished, first_leader):
    """``play_batch`` on the calling thread."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    for g in range(count):
        _game_row(r, policies, seed, start + g, g, rounds, scores, winner, bust, unfinished,
                  first_leader, st, obs)


# per-round log row: leader, the hands and the aside cards at the start,
# then after the round the piles, points and scores (per seat, MAX_SEATS wide)
L_LEADER = 0
L_HANDS = 1
L_ASIDE = L_HANDS + 5
L_PILES = L_ASIDE + 1
L_POINTS = L_PILES + 5
L_SCORES = L_POINTS + 5
LOG_WIDTH = L_SCORES + 5


@njit(cache=True, inline="always")
def _logged_game(r, policies, seed, index, row, log, seats, cards, deck, st, obs):
    """Play game ``index`` logging its rounds from row ``row`` on."""
    n = r[R_PLAYERS]
    init_game(r, st, seed, index)
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


@njit(cache=True, parallel=True)
def play_logged(r, policies, seed, start, count, offsets, log, seats, cards, deck):
    """Play games ``start ..`` again (``play_batch`` gave their rounds), logging every
    round: game ``g``'s rounds are rows ``offsets[g] .. offsets[g+1]-1`` of ``log``
    (LOG_WIDTH columns, see L_*), ``seats`` and ``cards`` (players * hand_size
    actions per round, in order)."""
    for g in prange(count):
        st = np.empty(STATE_SIZE, dtype=np.int64)
        obs = np.empty(OBS_SIZE, dtype=np.int64)
        _logged_game(r, policies, seed, start + g, offsets[g], log, seats, cards, deck, st,
                     obs)


@njit(cache=True)
def play_logged_serial(r, policies, seed, start, count, offsets, log, seats, cards, deck):
    """``play_logged`` on the calling thread."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    for g in range(count):
        _logged_game(r, policies, seed, start + g, offsets[g], log, seats, cards, deck, st,
                     obs)
