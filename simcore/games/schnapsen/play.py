"""Schnapsen batch play on the engine: matches in parallel, tables and action logs.

A match is ``init_game``, then ``choose`` and ``apply_action`` until a deal is
scored, its row written, ``next_deal``, until the match is decided. Every match
draws from its own stream (``game_stream(seed, index)``), so it is the same
whichever chunk or thread plays it. ``play_batch`` fills the tables of
``run_chunk``; ``play_logged`` also keeps every deal's start and actions, from
which records.py builds records in bulk.

The match loops are compiled with ``_nrt=False`` (numba's private switch for
"no reference counting"): every inlined kernel takes the state and rules
arrays, and with reference counting on, each inlined call pays an atomic
incref and decref of both, which made the loop about 25% slower than the
fused loop it replaced. These loops allocate nothing, so they need no NRT.
"""
import numpy as np
from numba import njit, prange

from .engine import (A_PASS, N_STATE, S_CLAIMER, S_CLOSER, S_DEALER, S_EXCHANGER,
                     S_FIRST_DEALER, S_GAME_POINTS, S_HAND, S_MATCH, S_MSUITS, S_REASON,
                     S_TALON, S_TRICKS, S_TRUMP_CARD, S_WINNER, WRONG_CLAIM, apply_action, counted,
                     deal_over, game_over, init_game, match_winner, next_deal, to_move)
from ...bits import popcount
from .policies import PIMC, choose, choose_w
from .solver import new_work_rows, W_COLS

# matches per parallel task: each task reuses one state array for its matches
BLOCK = 64

# one row per deal (int16)
DEAL_COLUMNS = ("dealer", "winner", "game_points", "reason", "card_points_0",
                "card_points_1", "tricks_0", "tricks_1", "closer", "marriages_0",
                "marriages_1", "marriages_counted_0", "marriages_counted_1", "exchanges_0",
                "exchanges_1", "claimer", "match_points_0", "match_points_1")
(D_DEALER, D_WINNER, D_GP, D_REASON, D_CP0, D_CP1, D_TR0, D_TR1, D_CLOSER, D_MAR0, D_MAR1,
 D_MC0, D_MC1, D_EX0, D_EX1, D_CLAIMER, D_MP0, D_MP1) = range(len(DEAL_COLUMNS))
N_DEAL_COLUMNS = len(DEAL_COLUMNS)

# a deal's start in the action log (int64 words), then its actions (int8: seat * 32 + code)
L_DEALER, L_HAND0, L_HAND1, L_TRUMP_CARD, L_TALON, L_COUNT = range(6)
LOG_START = 6
MAX_DEAL_ACTIONS = 40   # 20 cards, at most 4 marriages, exchange, close, claim, pass


@njit(cache=True, inline="always")
def write_row(st, row):
    """The deal's row of ``DEAL_COLUMNS`` from a scored state."""
    row[D_DEALER] = st[S_DEALER]
    row[D_WINNER] = st[S_WINNER]
    row[D_GP] = st[S_GAME_POINTS]
    row[D_REASON] = st[S_REASON]
    for s in range(2):
        shown = np.int64(popcount(np.uint64(st[S_MSUITS + s])))
        row[D_CP0 + s] = counted(st, s)
        row[D_TR0 + s] = st[S_TRICKS + s]
        row[D_MAR0 + s] = shown
        row[D_MC0 + s] = shown if st[S_TRICKS + s] > 0 else 0
        row[D_EX0 + s] = st[S_EXCHANGER] == s
        row[D_MP0 + s] = st[S_MATCH + s]
    row[D_CLOSER] = st[S_CLOSER]
    row[D_CLAIMER] = st[S_CLAIMER]


@njit(cache=True, _nrt=False)
def play_match(r, policies, seed, index, st, rows):
    """Play match ``index`` of run ``seed`` in ``st``, one row per deal into ``rows``;
    returns the number of deals."""
    init_game(r, st, seed, index)
    nd = 0
    while True:
        apply_action(r, st, choose(r, st, policies[to_move(st)]))
        if deal_over(st):
            write_row(st, rows[nd])
            nd += 1
            if game_over(st):
                return nd
            next_deal(r, st)


@njit(cache=True)
def play_match_w(r, policies, seed, index, st, rows, work):
    """``play_match`` for players that search (``pimc``): with the solver's scratch space.
    Returns the number of deals and the decisions taken by searching seats."""
    init_game(r, st, seed, index)
    nd = 0
    searched = 0
    while True:
        pid = policies[to_move(st)]
        if pid & 7 == PIMC:
            searched += 1
        apply_action(r, st, choose_w(r, st, pid, work))
        if deal_over(st):
            write_row(st, rows[nd])
            nd += 1
            if game_over(st):
                return nd, searched
            next_deal(r, st)


@njit(cache=True, inline="always")
def _match_out(st, g, nd, deals, winner, first_dealer, left):
    """Match ``g``'s figures from its final state ``st`` (``nd`` deals) into the
    output arrays."""
    deals[g] = nd
    winner[g] = match_winner(st)
    first_dealer[g] = st[S_FIRST_DEALER]
    left[g, 0] = st[S_MATCH]
    left[g, 1] = st[S_MATCH + 1]


def match_columns(count: int) -> tuple:
    """Zeros for ``_match_out`` to write the figures of ``count`` matches into, in the
    games table's types: deals, winner, first dealer, match points left."""
    return (np.zeros(count, np.int16), np.zeros(count, np.int8), np.zeros(count, np.int8),
            np.zeros((count, 2), np.int16))


@njit(cache=True, parallel=True)
def play_batch(r, policies, seed, start, count, deal_rows, deals, winner, first_dealer,
               left):
    """Play matches ``start .. start+count-1`` in parallel into the output arrays (players
    that do not search; see ``play_batch_w``)."""
    for b in prange((count + BLOCK - 1) // BLOCK):
        st = np.empty(N_STATE, dtype=np.int64)
        for g in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            nd = play_match(r, policies, seed, start + g, st, deal_rows[g])
            _match_out(st, g, nd, deals, winner, first_dealer, left)


@njit(cache=True, parallel=True, nogil=True)
def play_batch_w(r, policies, seed, start, count, deal_rows, deals, winner, first_dealer,
                 left, searched):
    """``play_batch`` when a player searches: one match a task (a search's cost varies a
    lot), each task with its solver scratch space; ``searched[g]``: the decisions match
    ``g``'s searching seats took."""
    for g in prange(count):
        st = np.empty(N_STATE, dtype=np.int64)
        work = np.zeros((new_work_rows(True), W_COLS), dtype=np.int64)
        nd, k = play_match_w(r, policies, seed, start + g, st, deal_rows[g], work)
        searched[g] = k
        _match_out(st, g, nd, deals, winner, first_dealer, left)


@njit(cache=True, inline="always")
def _log_start(st, log):
    log[L_DEALER] = st[S_DEALER]
    log[L_HAND0] = st[S_HAND]
    log[L_HAND0 + 1] = st[S_HAND + 1]
    log[L_TRUMP_CARD] = st[S_TRUMP_CARD]
    log[L_TALON] = st[S_TALON]


@njit(cache=True, _nrt=False)
def play_match_logged(r, policies, user, script, seed, index, st, rows, log, acts, work):
    """``play_match`` that also keeps each deal's start (``log[d]``, with the number of
    its actions) and the match's actions one after the other (``acts``, seat * 32 +
    code; the implicit ``pass`` after the last trick is left out, as in a record).  The
    seats with ``user[p]`` (a numba player's) play the actions of ``script`` in turn
    (its every decision, as the players' batch loop logged them)."""
    init_game(r, st, seed, index)
    nd = 0
    na = 0
    first = 0
    k = 0
    _log_start(st, log[0])
    while True:
        p = to_move(st)
        if user[p]:
            a = np.int64(script[k])
            k += 1
        else:
            a = choose_w(r, st, policies[p], work)
        if a != A_PASS:
            acts[na] = p * 32 + a
            na += 1
        apply_action(r, st, a)
        if deal_over(st):
            write_row(st, rows[nd])
            log[nd, L_COUNT] = na - first
            first = na
            nd += 1
            if game_over(st):
                return nd
            next_deal(r, st)
            _log_start(st, log[nd])


@njit(cache=True)
def play_logged_block(r, policies, user, script, seed, start, lo, hi, deal_rows, logs, acts,
                      deals, winner, left):
    """Matches ``start+lo .. start+hi-1`` one after the other, with their action logs
    (``user``, ``script``: see ``play_match_logged``; match ``g`` plays ``script[g]``)."""
    st = np.empty(N_STATE, dtype=np.int64)
    search = False
    for p in range(len(policies)):
        search |= policies[p] & 7 == PIMC
    work = np.zeros((new_work_rows(search), W_COLS), dtype=np.int64)
    for g in range(lo, hi):
        deals[g] = play_match_logged(r, policies, user, script[g], seed, start + g, st,
                                     deal_rows[g], logs[g], acts[g], work)
        winner[g] = match_winner(st)
        left[g, 0] = st[S_MATCH]
        left[g, 1] = st[S_MATCH + 1]


@njit(cache=True, parallel=True)
def play_logged(r, policies, user, script, seed, start, count, deal_rows, logs, acts, deals,
                winner, left):
    """Matches ``start .. start+count-1`` in parallel, with their action logs (a few
    matches are cheaper through ``play_logged_block`` alone: no threads to wake)."""
    for b in prange((count + BLOCK - 1) // BLOCK):
        play_logged_block(r, policies, user, script, seed, start, b * BLOCK,
                          min(count, (b + 1) * BLOCK), deal_rows, logs, acts, deals, winner,
                          left)


# --summary-only: the chunk's aggregates summed inside the kernel, one int64
# accumulator row per block of matches, summed over blocks by game.py.  Game-wide
# sums, then per-seat pairs (2 columns each, in SEAT_SUMS order), then one column per
# deal ending (game.py's ENDINGS).
A_DEALS, A_DEALS_SQ, A_DEALER_WINS = range(3)
SEAT_SUMS = ("match_wins", "deal_wins", "gp", "gp_sq", "closes", "close_wins", "claims",
             "wrong_claims", "marriages", "marriages_counted", "exchanges",
             "seat_dealer_deals", "seat_dealer_wins")
(P_MATCH_WINS, P_DEAL_WINS, P_GP, P_GP_SQ, P_CLOSES, P_CLOSE_WINS, P_CLAIMS, P_WRONG_CLAIMS,
 P_MAR, P_MC, P_EX, P_SD_DEALS, P_SD_WINS) = range(3, 3 + 2 * len(SEAT_SUMS), 2)
A_ENDINGS = 3 + 2 * len(SEAT_SUMS)


@njit(cache=True, inline="always")
def _match_acc(r, policies, seed, index, st, rows, end_reason, end_points, acc):
    """Play match ``index`` (its deal rows into ``rows``, as the table path writes them)
    and add its figures to ``acc``."""
    nd = play_match(r, policies, seed, index, st, rows)
    mw = np.int64(np.int8(match_winner(st)))
    acc[A_DEALS] += nd
    acc[A_DEALS_SQ] += nd * nd
    for s in range(2):
        if mw == s:
            acc[P_MATCH_WINS + s] += 1
    for d in range(nd):
        row = rows[d]
        winner = np.int64(row[D_WINNER])
        gp = np.int64(row[D_GP])
        reason = np.int64(row[D_REASON])
        dealer = np.int64(row[D_DEALER])
        closer = np.int64(row[D_CLOSER])
        claimer = np.int64(row[D_CLAIMER])
        if winner == dealer:
            acc[A_DEALER_WINS] += 1
        for e in range(end_reason.shape[0]):
            if reason == end_reason[e] and (gp == end_points[e] or end_points[e] == 0):
                acc[A_ENDINGS + e] += 1
        for s in range(2):
            won = winner == s
            if won:
                acc[P_DEAL_WINS + s] += 1
                acc[P_GP + s] += gp
                acc[P_GP_SQ + s] += gp * gp
            if closer == s:
                acc[P_CLOSES + s] += 1
                if won:
                    acc[P_CLOSE_WINS + s] += 1
            if claimer == s:
                acc[P_CLAIMS + s] += 1
                if reason == WRONG_CLAIM:
                    acc[P_WRONG_CLAIMS + s] += 1
            acc[P_MAR + s] += row[D_MAR0 + s]
            acc[P_MC + s] += row[D_MC0 + s]
            acc[P_EX + s] += row[D_EX0 + s]
            if dealer == s:
                acc[P_SD_DEALS + s] += 1
                if won:
                    acc[P_SD_WINS + s] += 1


@njit(cache=True, parallel=True)
def play_aggregate(r, policies, seed, start, count, max_deals, end_reason, end_points, acc):
    """Play matches ``start .. start+count-1`` in parallel, block ``b`` of BLOCK matches
    summing into ``acc[b]`` (zeros on entry)."""
    for b in prange((count + BLOCK - 1) // BLOCK):
        st = np.empty(N_STATE, dtype=np.int64)
        rows = np.zeros((max_deals, N_DEAL_COLUMNS), dtype=np.int16)
        local = np.zeros(acc.shape[1], dtype=np.int64)
        for g in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            _match_acc(r, policies, seed, start + g, st, rows, end_reason, end_points, local)
        acc[b, :] = local
