"""Schadenfreude players: ``random`` and ``heuristic``, dispatched by integer id.

The heuristic estimates, for each legal card, the chance that it wins the
trick (second-highest of the followers wins) from the cards still unseen,
and what winning would do to its pile: points are welcome while the limit is
far, unwelcome near it, and a value already in the pile cancels.  It never
sees other hands.
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, highest_bit, kth_bit, lowest_bit, popcount
from .cards import CARD_RANK, RANK_CARDS, SUIT_MASK, WILD_MASK
from .kernels import collect_rank

POLICIES = ("random", "heuristic")
RANDOM, HEURISTIC = 0, 1

_WILD_MASK = WILD_MASK


@njit(cache=True, inline="always")
def random_card(state, legal):
    """A uniform choice among the legal cards; returns (state, card)."""
    state, k = bounded(state, popcount(legal))
    return state, kth_bit(legal, k)


@njit(cache=True)
def _cards_above(unseen, lead_mask, rank):
    """Unseen cards that would follow and rank above ``rank``."""
    above = U0
    for r in range(rank + 1, 14):
        above |= RANK_CARDS[r]
    return popcount(unseen & above & (lead_mask | _WILD_MASK))


@njit(cache=True)
def win_chance(card, lead_mask, follow_ranks, others, unseen, hand_left):
    """Estimated chance that ``card`` wins the trick, with ``others`` still to play.

    ``follow_ranks`` are the ranks of the followers so far. A card wins when
    exactly one follower ranks above it, or when it is the only follower.
    """
    rank = CARD_RANK[card]
    lm = lead_mask
    if lm == U0:
        lm = U0 if card >= 48 else SUIT_MASK[card // 12]
        if lm == U0:  # a wild on an empty trick: any suit may come
            lm = ~U0 ^ _WILD_MASK
    above = np.int64(popcount(follow_ranks >> np.uint64(rank + 1)))
    below = follow_ranks & ((U1 << np.uint64(rank)) - U1)
    if above >= 2:
        return 0.0
    if others == 0:
        if above == 1 or below == U0:
            return 1.0
        return 0.0
    n_unseen = max(1, np.int64(popcount(unseen)))
    n_follow = np.int64(popcount(unseen & (lm | _WILD_MASK)))
    n_lead = np.int64(popcount(unseen & lm))
    # chance that a player still to play holds the lead suit (and so follows)
    p_has = 1.0 - (1.0 - min(1.0, n_lead / n_unseen)) ** hand_left
    q = 0.0
    if n_follow > 0:
        q = p_has * _cards_above(unseen, lm, rank) / n_follow
    if above == 1:
        return (1.0 - q) ** others
    p = others * q * (1.0 - q) ** (others - 1)
    if below == U0:
        p += (1.0 - p_has) ** others
    return min(1.0, p)


@njit(cache=True)
def win_utility(delta, room, tricks_left):
    """What collecting ``delta`` points is worth with ``room`` left under the limit."""
    new_room = room - delta
    margin = 2.0 + 1.5 * tricks_left
    if new_room < 0:
        return -40.0 + 2.0 * new_room
    if new_room < margin:
        return delta - 3.0 * (margin - new_room)
    return float(delta)


@njit(cache=True)
def heuristic_card(legal, hand, lead_mask, follow_ranks, offsuit, others, unseen,
                   pile_ranks, points, cum, limit, tricks_left, cancel):
    """The heuristic's card for the position described; see the module doc."""
    room = limit - cum - points
    hand_left = np.int64(popcount(hand))
    best_card = -1
    best = -1e300
    m = legal
    while m != U0:
        card = lowest_bit(m)
        m &= m - U1
        p = win_chance(card, lead_mask, follow_ranks, others, unseen, hand_left)
        # what winning would bring: this card and the cards that did not follow
        pr, pts = collect_rank(pile_ranks, points, CARD_RANK[card], cancel)
        o = offsuit
        while o != U0:
            c = lowest_bit(o)
            o &= o - U1
            pr, pts = collect_rank(pr, pts, CARD_RANK[c], cancel)
        score = p * win_utility(pts - points, room, tricks_left - 1)
        # keep cards that can win cheaply later: shed high values first when
        # close to the limit, low ones when far from it
        value = CARD_RANK[card] - 3
        if room < 12:
            score += 0.01 * value
        else:
            score -= 0.01 * value
        if score > best:
            best = score
            best_card = card
    return best_card
