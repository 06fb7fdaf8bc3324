"""Schnapsen match loop and the parallel batch kernel.

``play_match`` plays one whole match from its own random stream
(``game_stream(seed, index)``), so a match is the same whichever chunk or
thread plays it.  Per deal it writes one row of ``DEAL_COLUMNS`` and, with
``do_log``, the shuffled deck and every action (records.py turns that into
a record).
"""
import numpy as np
from numba import njit, prange

from ...bits import U0, bounded, game_stream, kth_bit, popcount, shuffle_inplace
from .cards import CARD_POINTS
from .kernels import (V_CLAIM, V_CLOSE, V_EXCHANGE, V_MARRIAGE, V_PLAY, card_bit,
                      counted_points, follow_mask, follower_wins, marriage_suits,
                      score_claim, score_run_out)
from .policies import (RANDOM, heuristic_close, heuristic_follow, heuristic_lead,
                       heuristic_marriage, wants_claim)
from .rules import (R_AT_CLOSE, R_CLOSE_MIN, R_EXCH_MIN, R_MARR_CLOSED, R_MATCH,
                    R_SCHNEIDER, R_TARGET)

# one row per deal (int16)
DEAL_COLUMNS = ("dealer", "winner", "game_points", "reason", "card_points_0",
                "card_points_1", "tricks_0", "tricks_1", "closer", "marriages_0",
                "marriages_1", "marriages_counted_0", "marriages_counted_1", "exchanges_0",
                "exchanges_1", "claimer", "match_points_0", "match_points_1")
(D_DEALER, D_WINNER, D_GP, D_REASON, D_CP0, D_CP1, D_TR0, D_TR1, D_CLOSER, D_MAR0, D_MAR1,
 D_MC0, D_MC1, D_EX0, D_EX1, D_CLAIMER, D_MP0, D_MP1) = range(len(DEAL_COLUMNS))
N_DEAL_COLUMNS = len(DEAL_COLUMNS)

# log row: the shuffled deck (20), the number of actions, then the actions
LOG_DECK, LOG_COUNT, LOG_ACTIONS = 0, 20, 21
LOG_WIDTH = 21 + 48
_KQ = np.uint64(0b110)
# work array layout (per seat s): trick points, marriage points, tricks, marriages shown,
# exchanges
W_PTS, W_MAR, W_TR, W_SHOWN, W_EXCH = 0, 2, 4, 6, 8


@njit(cache=True, inline="always")
def encode(seat, verb, arg):
    """An action as one log integer."""
    return seat * 1024 + verb * 32 + arg


@njit(cache=True, inline="always")
def log_action(log_row, nlog, do_log, seat, verb, arg):
    """Append an action to a deal's log (when logging); returns the new length."""
    if do_log:
        log_row[LOG_ACTIONS + nlog] = encode(seat, verb, arg)
        return nlog + 1
    return nlog


@njit(cache=True, inline="always")
def claim_result(p, cp, ws, target, closer, at_close, snap_pts, snap_tricks, schneider):
    """Score a claim by seat ``p`` holding ``cp`` counted points: (winner, gp, reason)."""
    o = 1 - p
    return score_claim(p, cp, target, closer, at_close,
                       counted_points(ws[W_PTS + o], ws[W_MAR + o], ws[W_TR + o]),
                       ws[W_TR + o], snap_pts, snap_tricks, schneider)


@njit(cache=True)
def play_deal(rules, policies, state, deck, dealer, hands, ws, row, log_row, do_log):
    """Play one deal from the shuffled ``deck``; returns (state, winner, game points).

    Deal 3-2: ``deck[0:3]`` and ``deck[7:9]`` to the non-dealer, ``deck[3:6]``
    and ``deck[9:11]`` to the dealer, ``deck[6]`` the trump card, ``deck[11:]``
    the talon, drawn from the front.
    """
    target = rules[R_TARGET]
    exch_min = rules[R_EXCH_MIN]
    close_min = rules[R_CLOSE_MIN]
    marr_closed = rules[R_MARR_CLOSED] != 0
    at_close = rules[R_AT_CLOSE] != 0
    schneider = rules[R_SCHNEIDER]
    for i in range(10):
        ws[i] = 0
    nd = 1 - dealer
    h = U0
    g = U0
    for i in range(3):
        h |= card_bit(deck[i])
        g |= card_bit(deck[3 + i])
    for i in range(2):
        h |= card_bit(deck[7 + i])
        g |= card_bit(deck[9 + i])
    hands[nd] = h
    hands[dealer] = g
    trump_card = deck[6]
    trump = trump_card // 5
    talon_left = 10  # cards in the talon, the trump card included
    nxt = 11
    closed = False
    closer = -1
    snap_pts = 0
    snap_tricks = 0
    seen = U0
    leader = nd
    first = True
    nlog = 0
    winner = -1
    gp = 0
    reason = -1
    claimer = -1
    while True:
        p = leader
        o = 1 - p
        pol = policies[p]
        strict = closed or talon_left == 0
        # 1. a claim right after winning a trick
        if not first:
            cp = counted_points(ws[W_PTS + p], ws[W_MAR + p], ws[W_TR + p])
            state, yes = wants_claim(pol, state, cp, target)
            if yes:
                nlog = log_action(log_row, nlog, do_log, p, V_CLAIM, 0)
                claimer = p
                winner, gp, reason = claim_result(p, cp, ws, target, closer, at_close,
                                                  snap_pts, snap_tricks, schneider)
                break
        # 2. exchange the trump jack for the trump card
        if not strict and talon_left >= exch_min:
            jack = trump * 5
            if hands[p] & card_bit(jack):
                yes = True
                if pol == RANDOM:
                    state, k = bounded(state, 2)
                    yes = k == 1
                if yes:
                    hands[p] ^= card_bit(jack) | card_bit(trump_card)
                    trump_card = jack
                    ws[W_EXCH + p] += 1
                    nlog = log_action(log_row, nlog, do_log, p, V_EXCHANGE, 0)
        # 3. close the talon
        if not strict and talon_left >= close_min:
            if pol == RANDOM:
                state, k = bounded(state, 2)
                yes = k == 1
            else:
                known = seen | card_bit(trump_card)
                yes = heuristic_close(hands[p], trump, known, ws[W_PTS + p], ws[W_MAR + p],
                                      ws[W_TR + p], target, marr_closed)
            if yes:
                closed = True
                strict = True
                closer = p
                snap_pts = counted_points(ws[W_PTS + o], ws[W_MAR + o], ws[W_TR + o])
                snap_tricks = ws[W_TR + o]
                nlog = log_action(log_row, nlog, do_log, p, V_CLOSE, 0)
        # 4. a marriage, then possibly a claim
        married = -1
        if not strict or marr_closed:
            suits = marriage_suits(hands[p])
            if suits != 0:
                if pol == RANDOM:
                    state, k = bounded(state, 2)
                    if k == 1:
                        state, j = bounded(state, popcount(np.uint64(suits)))
                        married = kth_bit(np.uint64(suits), j)
                else:
                    married = heuristic_marriage(suits, trump)
                if married >= 0:
                    ws[W_MAR + p] += 40 if married == trump else 20
                    ws[W_SHOWN + p] += 1
                    nlog = log_action(log_row, nlog, do_log, p, V_MARRIAGE, married)
                    cp = counted_points(ws[W_PTS + p], ws[W_MAR + p], ws[W_TR + p])
                    state, yes = wants_claim(pol, state, cp, target)
                    if yes:
                        nlog = log_action(log_row, nlog, do_log, p, V_CLAIM, 0)
                        claimer = p
                        winner, gp, reason = claim_result(p, cp, ws, target, closer, at_close,
                                                          snap_pts, snap_tricks, schneider)
                        break
        # 5. the lead
        hand = hands[p]
        allowed = hand
        if married >= 0:
            allowed = hand & (_KQ << np.uint64(5 * married))
        if pol == RANDOM:
            state, k = bounded(state, popcount(allowed))
            card = kth_bit(allowed, k)
        else:
            known = seen
            if not strict:
                known |= card_bit(trump_card)
            card = heuristic_lead(allowed, hand, trump, known, strict, married)
        hands[p] = hand ^ card_bit(card)
        # the answer
        legal = follow_mask(hands[o], card, trump, strict)
        if policies[o] == RANDOM:
            state, k = bounded(state, popcount(legal))
            fcard = kth_bit(legal, k)
        else:
            known = seen | card_bit(card)
            if not strict:
                known |= card_bit(trump_card)
            fcard = heuristic_follow(legal, hands[o], card, trump, known, strict,
                                     counted_points(ws[W_PTS + o], ws[W_MAR + o], 1), target)
        hands[o] ^= card_bit(fcard)
        if do_log:
            log_row[LOG_ACTIONS + nlog] = encode(p, V_PLAY, card)
            log_row[LOG_ACTIONS + nlog + 1] = encode(o, V_PLAY, fcard)
            nlog += 2
        seen |= card_bit(card) | card_bit(fcard)
        w = o if follower_wins(card, fcard, trump) else p
        ws[W_PTS + w] += CARD_POINTS[card] + CARD_POINTS[fcard]
        ws[W_TR + w] += 1
        # the winner draws first; the loser of the last draw takes the trump card
        if not closed and talon_left > 0:
            hands[w] |= card_bit(deck[nxt])
            if talon_left == 2:
                hands[1 - w] |= card_bit(trump_card)
            else:
                hands[1 - w] |= card_bit(deck[nxt + 1])
            nxt += 2
            talon_left -= 2
        leader = w
        first = False
        if hands[w] == U0:  # that was the last trick: its winner may claim
            cp = counted_points(ws[W_PTS + w], ws[W_MAR + w], ws[W_TR + w])
            state, yes = wants_claim(policies[w], state, cp, target)
            if yes:
                nlog = log_action(log_row, nlog, do_log, w, V_CLAIM, 0)
                claimer = w
                winner, gp, reason = claim_result(w, cp, ws, target, closer, at_close,
                                                  snap_pts, snap_tricks, schneider)
            else:
                winner, gp, reason = score_run_out(w, closer, snap_tricks)
            break
    row[D_DEALER] = dealer
    row[D_WINNER] = winner
    row[D_GP] = gp
    row[D_REASON] = reason
    for s in range(2):
        row[D_CP0 + s] = counted_points(ws[W_PTS + s], ws[W_MAR + s], ws[W_TR + s])
        row[D_TR0 + s] = ws[W_TR + s]
        row[D_MAR0 + s] = ws[W_SHOWN + s]
        row[D_MC0 + s] = ws[W_SHOWN + s] if ws[W_TR + s] > 0 else 0
        row[D_EX0 + s] = ws[W_EXCH + s]
    row[D_CLOSER] = closer
    row[D_CLAIMER] = claimer
    if do_log:
        for i in range(20):
            log_row[LOG_DECK + i] = deck[i]
        log_row[LOG_COUNT] = nlog
    return state, winner, gp


@njit(cache=True)
def play_match(rules, policies, seed, index, rows, log, do_log):
    """Play match ``index`` of run ``seed``; one row per deal into ``rows``.

    Returns (deals, winner, first dealer, match points left of seat 0, of seat 1).
    """
    state = game_stream(seed, index)
    deck = np.arange(20).astype(np.int64)
    hands = np.zeros(2, dtype=np.uint64)
    ws = np.zeros(10, dtype=np.int64)
    state, dealer = bounded(state, 2)
    first_dealer = dealer
    left0 = rules[R_MATCH]
    left1 = rules[R_MATCH]
    nd = 0
    while True:
        state = shuffle_inplace(state, deck, 20)
        state, w, gp = play_deal(rules, policies, state, deck, dealer, hands, ws, rows[nd],
                                 log[nd if do_log else 0], do_log)
        if w == 0:
            left0 -= gp
        else:
            left1 -= gp
        rows[nd, D_MP0] = left0
        rows[nd, D_MP1] = left1
        nd += 1
        if left0 <= 0 or left1 <= 0:
            return nd, w, first_dealer, left0, left1
        dealer = 1 - dealer


@njit(cache=True, parallel=True)
def play_batch(rules, policies, seed, start, count, deal_rows, deals, winner, first_dealer,
               left):
    """Play matches ``start .. start+count-1`` in parallel into the output arrays."""
    dummy = np.zeros((1, LOG_WIDTH), dtype=np.int16)
    for g in prange(count):
        nd, w, fd, l0, l1 = play_match(rules, policies, seed, start + g, deal_rows[g], dummy,
                                       False)
        deals[g] = nd
        winner[g] = w
        first_dealer[g] = fd
        left[g, 0] = l0
        left[g, 1] = l1


@njit(cache=True)
def play_logged(rules, policies, seed, index, rows, log):
    """One match with its per-deal log of deck and actions (for records)."""
    return play_match(rules, policies, seed, index, rows, log, True)
