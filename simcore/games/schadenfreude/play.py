"""Schadenfreude batch loops on the engine: the games table, and logged games for records.

Each game is ``init_game`` then ``choose`` / ``apply_action`` until the round
is over, ``next_deal`` until the game is over; every game draws from its own
stream (``game_stream(seed, index)``), so it is the same whichever chunk or
thread plays it.  Each loop is one serial kernel over games ``lo .. hi-1``
(``*_rows``), compiled once: a few games call it on the calling thread (a
parallel launch wakes every thread, which on a busy machine can cost
milliseconds; ``parallel(count)`` says which to use), and a thin parallel driver
calls it on blocks of games in ``prange``.  Its body is not inlined into the
driver: numba's parallel passes over a whole game loop cost far more compile
time than the loop itself (a cold cache compiled each loop twice before).
"""
import numpy as np
from numba import njit, prange

from .engine import (OBS_SIZE, S_BUST, S_FIRST_LEADER, S_HAND, S_LEADER, S_PILE,
                     S_POINTS, S_ROUND, S_SCORE, S_STATUS, S_TO_MOVE, S_UNFINISHED,
                     S_WINNER, STATE_SIZE, PLAYING, apply_action, game_over, init_game,
                     next_deal)
from .pimc import choose_search
from .policies import EXPERT, PIMC, choose_into
from .rules import R_PLAYERS
from .solver import F_COLS, F_ROWS, W_COLS, WORK_ROWS

PARALLEL_MIN = 64  # fewer games than this run on the calling thread
BLOCK = 16         # games per parallel task of the table loop


def parallel(count) -> bool:
    """Whether ``count`` games are worth a parallel launch."""
    return count >= PARALLEL_MIN


def drive(driver, rows, head, count, *rest):
    """Games ``0 .. count-1`` of a loop: ``driver(*head, count, *rest)`` in parallel, or
    for a few games its serial kernel ``rows(*head, 0, count, *rest)`` on this thread."""
    if parallel(count):
        driver(*head, count, *rest)
    else:
        rows(*head, 0, count, *rest)


@njit(cache=True, inline="always")
def _play_round(r, policies, st, obs):
    """Play the current round to its end (the engine scores it)."""
    while st[S_STATUS] == PLAYING:
        a = choose_into(r, st, policies[st[S_TO_MOVE]], obs)
        apply_action(r, st, a)


@njit(cache=True, inline="always")
def _play_game(r, policies, seed, index, st, obs):
    """Play game ``index`` to its end in ``st`` (players that do not search)."""
    init_game(r, st, seed, index)
    while True:
        _play_round(r, policies, st, obs)
        if game_over(st):
            break
        next_deal(r, st)


@njit(cache=True, inline="always")
def _write_game(r, st, g, rounds, scores, winner, bust, unfinished, first_leader):
    """Row ``g`` of the games table from the game's final state ``st``."""
    rounds[g] = st[S_ROUND]
    for p in range(r[R_PLAYERS]):
        scores[g, p] = st[S_SCORE + p]
    winner[g] = st[S_WINNER]
    bust[g] = st[S_BUST]
    unfinished[g] = st[S_UNFINISHED] != 0
    first_leader[g] = st[S_FIRST_LEADER]


@njit(cache=True, inline="always")
def _game_row(r, policies, seed, index, g, rounds, scores, winner, bust, unfinished,
              first_leader, st, obs):
    """Play game ``index`` and write its row ``g`` of the games table."""
    _play_game(r, policies, seed, index, st, obs)
    _write_game(r, st, g, rounds, scores, winner, bust, unfinished, first_leader)


@njit(cache=True)
def play_rows(r, policies, seed, start, lo, hi, rounds, scores, winner, bust, unfinished,
              first_leader):
    """Play games ``start+lo .. start+hi-1`` on the calling thread into rows
    ``lo .. hi-1`` of the output arrays."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    for g in range(lo, hi):
        _game_row(r, policies, seed, start + g, g, rounds, scores, winner, bust, unfinished,
                  first_leader, st, obs)


@njit(cache=True, parallel=True)
def play_batch(r, policies, seed, start, count, rounds, scores, winner, bust, unfinished,
               first_leader):
    """Play games ``start .. start+count-1`` in parallel into the output arrays
    (``play_rows`` on blocks of BLOCK games)."""
    for b in prange((count + BLOCK - 1) // BLOCK):
        play_rows(r, policies, seed, start, b * BLOCK, min(count, (b + 1) * BLOCK), rounds,
                  scores, winner, bust, unfinished, first_leader)


@njit(cache=True, inline="always")
def searching(policies):
    """Whether any seat's policy searches (``pimc``, ``expert``)."""
    for p in range(len(policies)):
        if policies[p] & 7 == PIMC or policies[p] == EXPERT:
            return True
    return False


@njit(cache=True, inline="always")
def _scratch(policies):
    """The search scratch space (int rows, float rows); one row each when nobody searches."""
    if searching(policies):
        return (np.zeros((WORK_ROWS, W_COLS), dtype=np.int64),
                np.zeros((F_ROWS, F_COLS), dtype=np.float64))
    return np.zeros((1, W_COLS), dtype=np.int64), np.zeros((1, F_COLS), dtype=np.float64)


@njit(cache=True, inline="always")
def _search_game(r, policies, seed, index, g, rounds, scores, winner, bust, unfinished,
                 first_leader, decisions, st, obs, work, fw):
    """``_game_row`` with searching players; ``decisions[g]``: how many decisions they
    took (a seat with one legal card counts too: it is asked)."""
    init_game(r, st, seed, index)
    k = 0
    while True:
        while st[S_STATUS] == PLAYING:
            pid = policies[st[S_TO_MOVE]]
            if pid & 7 == PIMC or pid == EXPERT:
                k += 1
            apply_action(r, st, choose_search(r, st, pid, obs, work, fw))
        if game_over(st):
            break
        next_deal(r, st)
    _write_game(r, st, g, rounds, scores, winner, bust, unfinished, first_leader)
    decisions[g] = k


@njit(cache=True, nogil=True)
def play_search_rows(r, policies, seed, start, lo, hi, rounds, scores, winner, bust,
                     unfinished, first_leader, decisions):
    """``play_rows`` with searching players, with its own scratch space."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    work, fw = _scratch(policies)
    for g in range(lo, hi):
        _search_game(r, policies, seed, start + g, g, rounds, scores, winner, bust,
                     unfinished, first_leader, decisions, st, obs, work, fw)


@njit(cache=True, parallel=True, nogil=True)
def play_batch_search(r, policies, seed, start, count, rounds, scores, winner, bust,
                      unfinished, first_leader, decisions):
    """``play_batch`` with searching players (one game a task: a search's cost varies)."""
    for g in prange(count):
        lo = np.int64(g)            # (a prange index may be uint64: a second compile)
        play_search_rows(r, policies, seed, start, lo, lo + 1, rounds, scores, winner, bust,
                         unfinished, first_leader, decisions)


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
def _logged_game(r, policies, user, script, seed, index, row, log, seats, cards, deck, st,
                 obs, work, fw):
    """Play game ``index`` logging its rounds from row ``row`` on (``work, fw``: the
    scratch space of searching players); the seats with ``user[p]`` (a numba player's)
    play the actions of ``script`` in turn, as the players' batch loop logged them."""
    n = r[R_PLAYERS]
    init_game(r, st, seed, index)
    j = 0
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
            if user[p]:
                a = np.int64(script[j])
                j += 1
            else:
                a = choose_search(r, st, policies[p], obs, work, fw)
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


@njit(cache=True)
def play_logged_rows(r, policies, user, script, seed, start, lo, hi, offsets, log, seats, cards,
                     deck):
    """Play games ``start+lo .. start+hi-1`` again on the calling thread (``play_rows``
    gave their rounds), logging every round: game ``g``'s rounds are rows
    ``offsets[g] .. offsets[g+1]-1`` of ``log`` (LOG_WIDTH columns, see L_*), ``seats``
    and ``cards`` (players * hand_size actions per round, in order); ``user``,
    ``script``: see ``_logged_game`` (game ``g`` plays ``script[g]``)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    work, fw = _scratch(policies)
    for g in range(lo, hi):
        _logged_game(r, policies, user, script[g], seed, start + g, offsets[g], log, seats,
                     cards, deck, st, obs, work, fw)


@njit(cache=True, parallel=True)
def play_logged(r, policies, user, script, seed, start, count, offsets, log, seats, cards,
                deck):
    """``play_logged_rows`` for games ``start .. start+count-1`` in parallel, one game a
    task (a searching player's game costs far more than another's)."""
    for g in prange(count):
        lo = np.int64(g)            # (a prange index may be uint64: a second compile)
        play_logged_rows(r, policies, user, script, seed, start, lo, lo + 1, offsets, log,
                         seats, cards, deck)


# --summary-only: the chunk's aggregates summed inside the kernel, one accumulator
# row per block of games (int64, exact), summed over blocks by game.py
AGG_BLOCK = 64
(A_ROUNDS, A_ROUNDS_SQ, A_NO_WINNER, A_UNFINISHED, A_ALL_BUST, A_FIRST_LEADER_WINS,
 A_WINS) = range(7)


def agg_width(n) -> int:
    """Accumulator columns for ``n`` seats: the game-wide sums, then wins, busts, score
    and score squared per seat."""
    return A_WINS + 4 * n


@njit(cache=True, inline="always")
def _game_acc(r, policies, seed, index, acc, st, obs):
    """Play game ``index`` and add its figures to ``acc`` (the sums of ``aggregate`` on
    the games table: the same values, as the table stores them)."""
    n = r[R_PLAYERS]
    _play_game(r, policies, seed, index, st, obs)
    rounds = np.int64(np.int32(st[S_ROUND]))
    acc[A_ROUNDS] += rounds
    acc[A_ROUNDS_SQ] += rounds * rounds
    winner = np.int64(np.int8(st[S_WINNER]))
    bust = np.int64(np.uint8(st[S_BUST]))
    if winner < 0:
        acc[A_NO_WINNER] += 1
    if st[S_UNFINISHED] != 0:
        acc[A_UNFINISHED] += 1
    if winner == np.int64(np.int8(st[S_FIRST_LEADER])):
        acc[A_FIRST_LEADER_WINS] += 1
    busted = 0
    for p in range(n):
        if winner == p:
            acc[A_WINS + p] += 1
        b = (bust >> p) & 1
        acc[A_WINS + n + p] += b
        busted += b
        s = np.int64(np.int32(st[S_SCORE + p]))
        acc[A_WINS + 2 * n + p] += s
        acc[A_WINS + 3 * n + p] += s * s
    if busted == n:
        acc[A_ALL_BUST] += 1


@njit(cache=True)
def play_aggregate_rows(r, policies, seed, start, lo, hi, acc):
    """Play games ``start+lo .. start+hi-1`` on the calling thread, summing into
    ``acc[lo // AGG_BLOCK]`` (``agg_width`` columns; row 0 for a serial call)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    row = acc[lo // AGG_BLOCK]
    for g in range(lo, hi):
        _game_acc(r, policies, seed, start + g, row, st, obs)


@njit(cache=True, parallel=True)
def play_aggregate(r, policies, seed, start, count, acc):
    """Play games ``start .. start+count-1`` in parallel, block ``b`` of AGG_BLOCK games
    summing into ``acc[b]`` (``agg_width`` columns, zeros on entry)."""
    for b in prange((count + AGG_BLOCK - 1) // AGG_BLOCK):
        play_aggregate_rows(r, policies, seed, start, b * AGG_BLOCK,
                            min(count, (b + 1) * AGG_BLOCK), acc)
