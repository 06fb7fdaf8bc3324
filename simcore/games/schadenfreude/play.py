"""Schadenfreude game loop and the parallel batch kernel.

``play_game`` plays one whole game from its own random stream
(``game_stream(seed, index)``), so a game is the same whichever chunk or
thread plays it.  With ``log`` it also writes, per round, the leader and the
cards in the order played; records.py turns that into a record.
"""
import numpy as np
from numba import njit, prange

from ...bits import mask_ids, MASK32, S32, U0, U1, bounded, game_stream, next_u64, kth_bit, lowest_bit, \
    popcount, shuffle_inplace
from .cards import CARD_RANK, SUIT_MASK
from .kernels import collect_rank, game_winner, legal_mask, next_leader, winning_rank
from .policies import RANDOM, heuristic_card
from .rules import (R_AFTER_LAST, R_ALL_BUST_HIGHEST, R_CANCEL, R_DECK, R_FLOOR, R_FLOOR_ON,
                    R_HAND, R_LIMIT, R_MAX_ROUNDS, R_PLAYERS, R_SEAT0_FIRST)

MAX_SEATS = 5


@njit(cache=True)
def play_game(rules, policies, seed, index, scores_out, log, do_log):
    """Play game ``index`` of run ``seed``; returns (rounds, winner, bust_mask,
    unfinished, first_leader) and writes final scores to ``scores_out``."""
    n = rules[R_PLAYERS]
    h = rules[R_HAND]
    limit = rules[R_LIMIT]
    cancel = rules[R_CANCEL] != 0
    floor_on = rules[R_FLOOR_ON] != 0
    floor = rules[R_FLOOR]
    max_rounds = rules[R_MAX_ROUNDS]
    deck_mask = np.uint64(rules[R_DECK])
    state = game_stream(seed, index)

    deck = np.empty(50, dtype=np.int64)
    n_deck = mask_ids(deck_mask, deck)

    hands = np.zeros(MAX_SEATS, dtype=np.uint64)
    pile_ranks = np.zeros(MAX_SEATS, dtype=np.uint64)
    points = np.zeros(MAX_SEATS, dtype=np.int64)
    cum = np.zeros(MAX_SEATS, dtype=np.int64)
    seat_of_rank = np.zeros(32, dtype=np.int64)
    card_of_rank = np.zeros(32, dtype=np.int64)

    if rules[R_SEAT0_FIRST]:
        leader = 0
    else:
        state, leader = bounded(state, n)
    first_leader = leader
    spare = U0
    spare_left = False
    rounds = 0
    unfinished = False
    bust = 0
    while True:
        # deal: a fresh shuffle of the whole deck; the rest is set aside
        state = shuffle_inplace(state, deck, n_deck)
        for p in range(n):
            hm = U0
            for i in range(h):
                hm |= U1 << np.uint64(deck[p * h + i])
            hands[p] = hm
            pile_ranks[p] = U0
            points[p] = 0
        if do_log:
            log[rounds, 0] = leader
        played = U0
        nplayed = 0
        trick_leader = leader
        for t in range(h):
            lead_mask = U0
            follow_ranks = U0
            offsuit = U0
            for i in range(n):
                p = trick_leader + i
                if p >= n:
                    p -= n
                legal = legal_mask(hands[p], lead_mask)
                if policies[p] == RANDOM:
                    # two uniform choices per 64-bit draw: use the spare half first
                    if spare_left:
                        half = spare
                        spare_left = False
                    else:
                        state, r64 = next_u64(state)
                        half = r64 & MASK32
                        spare = r64 >> S32
                        spare_left = True
                    card = kth_bit(legal, np.int64((half * popcount(legal)) >> S32))
                else:
                    unseen = deck_mask & ~played & ~hands[p]
                    card = heuristic_card(legal, hands[p], lead_mask, follow_ranks, offsuit,
                                          n - 1 - i, unseen, p, n, seat_of_rank, pile_ranks,
                                          points, cum, limit, h - t, cancel)
                bit = U1 << np.uint64(card)
                hands[p] ^= bit
                played |= bit
                if do_log:
                    log[rounds, 1 + nplayed] = card
                nplayed += 1
                if card < 48 and lead_mask == U0:
                    lead_mask = SUIT_MASK[card // 12]
                # branch-free: a follower's rank goes to the trick's rank mask and
                # its seat to slot r; a non-follower to the off-suit cards and a
                # dummy slot (16 + r), so equal values of other suits never clash
                is_follow = np.uint64((card >= 48) | ((bit & lead_mask) != U0))
                r = CARD_RANK[card]
                follow_ranks |= is_follow << np.uint64(r)
                offsuit |= bit & (is_follow - U1)
                slot = r + 16 * (1 - np.int64(is_follow))
                seat_of_rank[slot] = p
                card_of_rank[slot] = card
            wr = winning_rank(follow_ranks)
            winner = seat_of_rank[wr]
            # the winner collects their own card and the non-followers (the order
            # does not matter for points: cancelling toggles a value's bit)
            taken = offsuit | (U1 << np.uint64(card_of_rank[wr]))
            pr = pile_ranks[winner]
            pts = points[winner]
            while taken != U0:
                c = lowest_bit(taken)
                taken &= taken - U1
                pr, pts = collect_rank(pr, pts, CARD_RANK[c], cancel)
            pile_ranks[winner] = pr
            points[winner] = pts
            trick_leader = winner
        rounds += 1
        bust = 0
        for p in range(n):
            c = cum[p] + points[p]
            if floor_on and c < floor:
                c = floor
            cum[p] = c
            if c > limit:
                bust |= 1 << p
        if bust != 0:
            break
        if rounds >= max_rounds:
            unfinished = True
            break
        state, leader = next_leader(cum, n, leader, rules[R_AFTER_LAST] != 0, state)
    for p in range(n):
        scores_out[p] = cum[p]
    if unfinished:
        winner = -1
    else:
        winner = game_winner(cum, n, limit, rules[R_ALL_BUST_HIGHEST] != 0)
    return rounds, winner, bust, unfinished, first_leader


@njit(cache=True, parallel=True)
def play_batch(rules, policies, seed, start, count, rounds, scores, winner, bust, unfinished,
               first_leader):
    """Play games ``start .. start+count-1`` in parallel into the output arrays."""
    dummy = np.zeros((1, 1), dtype=np.int16)
    for g in prange(count):
        r, w, b, u, fl = play_game(rules, policies, seed, start + g, scores[g], dummy, False)
        rounds[g] = r
        winner[g] = w
        bust[g] = b
        unfinished[g] = u
        first_leader[g] = fl


@njit(cache=True)
def play_logged(rules, policies, seed, index, scores_out, log):
    """One game with its per-round log of leader and cards (for records)."""
    return play_game(rules, policies, seed, index, scores_out, log, True)
