"""Schadenfreude kernels: the rules on bit masks, shared by play, policies and replay.

All take and return integers (numba inlines them into the round loop):
a hand, pile or trick is a uint64 card mask; a *rank mask* has bit
``value + 3`` set per card and is how trick resolution and pair
cancelling see cards (see cards.py for the encoding).
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, highest_bit, lowest_bit
from .cards import CARD_RANK, CARD_VALUE, RANK_CARDS, SUIT_MASK, WILD_MASK

_WILD_MASK = WILD_MASK
_NO_SUIT = np.int64(4)


@njit(cache=True, inline="always")
def lead_mask_of(card):
    """Suit mask a card sets as the lead suit (0 for a wild card: no suit yet)."""
    if card >= 48:
        return U0
    return SUIT_MASK[card // 12]


@njit(cache=True, inline="always")
def legal_mask(hand, lead_mask):
    """Cards of ``hand`` that may be played when the lead suit is ``lead_mask``.

    With no lead suit yet (0) anything goes; a player holding the lead suit
    plays that suit or a wild card; one without it plays anything.
    """
    follow = hand & lead_mask
    # branch-free: all ones when the hand holds the lead suit
    must = U0 - np.uint64(follow != U0)
    return (hand & ~must) | ((follow | (hand & _WILD_MASK)) & must)


@njit(cache=True, inline="always")
def follows(card, lead_mask):
    """Whether ``card`` follows a trick whose lead suit is ``lead_mask`` (wilds always do)."""
    return card >= 48 or ((U1 << np.uint64(card)) & lead_mask) != U0


@njit(cache=True, inline="always")
def winning_rank(follow_ranks):
    """Rank that wins a trick: second-highest of the followers, or the lone follower."""
    hi = highest_bit(follow_ranks)
    rest = np.uint64(follow_ranks) ^ (U1 << np.uint64(hi))
    if rest == U0:
        return hi
    return highest_bit(rest)


@njit(cache=True, inline="always")
def collect_rank(pile_ranks, points, rank, cancel):
    """Add one card of ``rank`` to a pile held as a rank mask; returns (ranks, points).

    With cancelling, a rank already present leaves together with the new card
    (so a third card of a value stays): the pile toggles that bit.
    """
    bit = U1 << np.uint64(rank)
    value = rank - 3
    # branch-free: with cancelling a value already present leaves (sign -1)
    had = np.int64(cancel) & np.int64((pile_ranks & bit) != U0)
    return (pile_ranks | bit) ^ (bit & (U0 - np.uint64(had))), points + value - 2 * had * value


@njit(cache=True, inline="always")
def collect_card(pile, card, cancel):
    """Add ``card`` to a pile held as a card mask (the record view).

    With cancelling, a card whose value is already in the pile discards both.
    """
    same = pile & RANK_CARDS[CARD_RANK[card]]
    if cancel and same != U0:
        return pile & ~same
    return pile | (U1 << np.uint64(card))


@njit(cache=True)
def pile_points(pile):
    """Sum of the values of the cards in a card-mask pile."""
    total = 0
    m = np.uint64(pile)
    while m != U0:
        total += CARD_VALUE[lowest_bit(m)]
        m &= m - U1
    return total


@njit(cache=True)
def next_leader(cum, n, prev_leader, after_last, state):
    """Leader of the next round: the lowest cumulative score; ties by the rule.

    ``after_last``: the first tied seat in play order after ``prev_leader``,
    that leader itself last; otherwise a uniform choice among the tied seats.
    Returns (state, leader).
    """
    low = cum[0]
    for p in range(1, n):
        if cum[p] < low:
            low = cum[p]
    if after_last:
        for i in range(1, n + 1):
            p = (prev_leader + i) % n
            if cum[p] == low:
                return state, p
    tied = 0
    for p in range(n):
        if cum[p] == low:
            tied += 1
    if tied == 1:
        for p in range(n):
            if cum[p] == low:
                return state, p
    state, k = bounded(state, tied)
    for p in range(n):
        if cum[p] == low:
            if k == 0:
                return state, p
            k -= 1
    return state, 0


@njit(cache=True)
def game_winner(cum, n, limit, all_bust_highest):
    """The winning seat, or -1: the highest score held by exactly one candidate.

    Candidates are the players not bust; if all are bust, nobody wins unless
    ``all_bust_highest``, when the same cascade runs over everybody.
    """
    any_ok = False
    for p in range(n):
        if cum[p] <= limit:
            any_ok = True
    best = -1
    for p in range(n):
        if any_ok and cum[p] > limit:
            continue
        if not any_ok and not all_bust_highest:
            return -1
        shared = False
        for q in range(n):
            if q != p and cum[q] == cum[p] and (cum[q] <= limit or not any_ok):
                shared = True
        if not shared and (best < 0 or cum[p] > cum[best]):
            best = p
    return best
