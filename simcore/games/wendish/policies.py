"""Wendish Schafkopf players, dispatched by integer id: ``random`` and ``heuristic``.

``random`` picks uniformly among the legal choices of every decision (pass or a
solo suit; quiet solo, first_trick or any callable card; the discards; the
card).  ``heuristic`` sees only its own hand and the public play:

* contracts: a Lust Solo only with a strong hand for some trump suit (trumps
  weighted by rank, plain aces, voids), against a threshold per hand size; the
  Old Ones play a quiet solo with a strong hand, else a wedding calling the
  highest trump they do not hold (whose holder is a strong partner);
* skat: discards plain cards, points first, preferring cards that leave a void,
  so that the points are banked for the taker's side;
* play: knows friends and foes as far as the contract and the cards played tell
  (black queens revealing the normal game's partnerships); the declaring side
  leads its boss trumps, everybody cashes plain aces; a follower smears points on
  a trick its side is winning, takes a trick held by a foe with the cheapest card
  that holds, and otherwise throws its cheapest card.
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, kth_bit, lowest_bit, popcount
from .cards import BLACK_QUEENS, CARD_POINTS, CARD_SUIT, FOLLOW_MASK, POWER, TRUMP_MASK

POLICIES = ("random", "heuristic")
RANDOM, HEURISTIC = 0, 1

_BQ = np.uint64(BLACK_QUEENS)
_PLAIN_ACES = np.uint64((1 << 0) | (1 << 8) | (1 << 16) | (1 << 24))
#: strength threshold per card in hand for a Lust Solo and for a quiet solo
LUST_PER_CARD = 1.9
QUIET_PER_CARD = 1.85


@njit(cache=True)
def hand_strength(hand, t):
    """A rough solo strength of ``hand`` with trump suit ``t``."""
    tm = TRUMP_MASK[t]
    s = 0.0
    m = hand & tm
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        s += 1.0 + (POWER[t, c] - 16) * (2.0 / 13.0)
    plain = hand & ~tm
    for su in range(4):
        if su == t:
            continue
        sm = np.uint64(0xFF) << np.uint64(8 * su)
        ps = plain & sm
        if ps == U0:
            s += 0.5
        else:
            ace = np.uint64(1) << np.uint64(8 * su)
            if (ps & ace) != U0:
                s += 1.0
    return s


@njit(cache=True)
def choose_lust(pol, state, hand, suits_mask, hand_size):
    """Returns (state, suit) for a Lust Solo, suit -1 to pass."""
    if pol == RANDOM:
        k = np.int64(popcount(np.uint64(suits_mask)))
        state, r = bounded(state, k + 1)
        if r == 0:
            return state, -1
        return state, kth_bit(np.uint64(suits_mask), r - 1)
    best = -1
    best_s = LUST_PER_CARD * hand_size
    for t in range(4):
        if (suits_mask >> t) & 1:
            s = hand_strength(hand, t)
            if s >= best_s:
                best_s = s
                best = t
    return state, best


@njit(cache=True)
def choose_old_ones(pol, state, hand, callable_mask, hand_size):
    """Returns (state, kind, card): kind 0 quiet_solo, 1 wedding card, 2 first_trick."""
    if pol == RANDOM:
        k = np.int64(popcount(callable_mask))
        state, r = bounded(state, k + 2)
        if r == 0:
            return state, 0, -1
        if r == 1:
            return state, 2, -1
        return state, 1, kth_bit(callable_mask, r - 2)
    if hand_strength(hand, 3) >= QUIET_PER_CARD * hand_size:
        return state, 0, -1
    best = -1
    bp = -1
    m = callable_mask
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if POWER[3, c] > bp:
            bp = POWER[3, c]
            best = c
    if best < 0:
        return state, 2, -1
    return state, 1, best


@njit(cache=True)
def choose_discard(pol, state, hand):
    """Returns (state, card) to discard (never a black queen)."""
    allowed = hand & ~_BQ
    if pol == RANDOM:
        state, r = bounded(state, popcount(allowed))
        return state, kth_bit(allowed, r)
    tm = TRUMP_MASK[3]
    cand = allowed & ~tm
    if cand == U0:
        cand = allowed
    best = -1
    bs = -1e9
    m = cand
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        sc = float(CARD_POINTS[c])
        bit = U1 << np.uint64(c)
        if (bit & tm) != U0:
            sc -= 10.0 + POWER[3, c]
        else:
            sm = np.uint64(0xFF) << np.uint64(8 * CARD_SUIT[c])
            left = np.int64(popcount(hand & sm & ~tm))
            if left == 1:
                sc += 6.0
            elif left == 2:
                sc += 2.0
        if sc > bs:
            bs = sc
            best = c
    return state, best


@njit(cache=True)
def _beats(t, lead_card, cur_card, card):
    """Whether ``card`` beats ``cur_card`` in a trick led by ``lead_card``."""
    tm = TRUMP_MASK[t]
    bit = U1 << np.uint64(card)
    if (bit & tm) == U0 and (bit & FOLLOW_MASK[t, lead_card]) == U0:
        return False
    cbit = U1 << np.uint64(cur_card)
    if (bit & tm) != U0 and (cbit & tm) == U0:
        return True
    if (bit & tm) == U0 and (cbit & tm) != U0:
        return False
    return POWER[t, card] > POWER[t, cur_card]


@njit(cache=True)
def _is_boss(t, lead_card, card, outside):
    """No card in ``outside`` beats ``card`` (as winner of a trick led by lead_card)."""
    m = outside
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if _beats(t, lead_card, card, c):
            return False
    return True


@njit(cache=True)
def _keep_value(t, c):
    """What a card is worth to keep for later tricks (higher: keep it)."""
    tm = TRUMP_MASK[t]
    if ((U1 << np.uint64(c)) & tm) != U0:
        return 6.0 + POWER[t, c]
    return float(POWER[t, c])


@njit(cache=True)
def _cheapest(t, cards, points_weight):
    """The card of ``cards`` minimizing points_weight × its points + its keep value
    (the first such card, lowest id first)."""
    best = -1
    bs = 1e9
    m = cards
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        sc = points_weight * CARD_POINTS[c] + _keep_value(t, c)
        if sc < bs:
            bs = sc
            best = c
    return best


@njit(cache=True)
def _by_power(t, cards, highest):
    """The highest (or lowest) ranking card of ``cards`` with trump suit ``t``."""
    best = -1
    bp = -1
    m = cards
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        key = POWER[t, c] if highest else -POWER[t, c]
        if best < 0 or key > bp:
            bp = key
            best = c
    return best


@njit(cache=True)
def heuristic_card(t, legal, hand, outside, pos, n, lead_card, win_card, win_seat,
                   trick_pts, rest_mask, friends, foes, declaring):
    """The heuristic's card; ``outside``: cards unplayed and not in this hand,
    ``rest_mask``: seats still to play after this one, ``friends``/``foes``: seats
    known to be on this player's side / the other side, ``declaring``: this
    player knows it is on the declaring side."""
    tm = TRUMP_MASK[t]
    if pos == 0:
        trumps = legal & tm
        if declaring and trumps != U0:
            # lead the highest trump when it is the boss
            best = _by_power(t, trumps, True)
            if _is_boss(t, best, best, outside):
                return best
        aces = legal & _PLAIN_ACES & ~tm
        if aces != U0:
            return lowest_bit(aces)
        if declaring and popcount(trumps) >= 2:
            return _by_power(t, trumps, False)
        # a low plain card from the shortest plain suit
        plain = legal & ~tm
        if plain != U0:
            best = -1
            bs = 1e9
            m = plain
            while m != U0:
                c = lowest_bit(m)
                m &= m - U1
                sm = np.uint64(0xFF) << np.uint64(8 * CARD_SUIT[c])
                sc = 10.0 * popcount(hand & sm & ~tm) + CARD_POINTS[c] + 0.1 * POWER[t, c]
                if sc < bs:
                    bs = sc
                    best = c
            return best
        return _cheapest(t, legal, 1.0)
    friend_wins = ((friends >> np.uint64(win_seat)) & U1) != U0
    rest_friendly = (rest_mask & ~friends) == U0
    win_safe = _is_boss(t, lead_card, win_card, outside)
    if friend_wins and (rest_friendly or win_safe):
        # smear: most points, keeping strong trumps
        return _cheapest(t, legal, -3.0)
    if not friend_wins:
        # try to take the trick
        best = -1
        bs = 1e9
        strongest = -1
        sp = -1
        m = legal
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            if _beats(t, lead_card, win_card, c):
                holds = rest_friendly or _is_boss(t, lead_card, c, outside)
                if holds:
                    sc = _keep_value(t, c) - CARD_POINTS[c]
                    if sc < bs:
                        bs = sc
                        best = c
                if POWER[t, c] > sp:
                    sp = POWER[t, c]
                    strongest = c
        if best >= 0 and (trick_pts >= 3 or rest_mask != U0 or
                          ((U1 << np.uint64(best)) & tm) == U0):
            return best
        if strongest >= 0 and trick_pts >= 10 and rest_mask != U0:
            return strongest
    # throw the cheapest card
    return _cheapest(t, legal, 2.0)
