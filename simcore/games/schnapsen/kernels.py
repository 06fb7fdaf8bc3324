"""Schnapsen kernels: the rules on bit masks, shared by play, policies and replay.

All take and return integers, so numba inlines them into the deal loop and
the Python replay engine (records.py) calls the very same functions.
"""
import numpy as np
from numba import njit

from ...bits import U0, U1
from .cards import SUIT_MASK

# action verbs (log codes) and how a deal ended
V_PLAY, V_MARRIAGE, V_EXCHANGE, V_CLOSE, V_CLAIM, V_RESIGN = range(6)
VERBS = ("play", "marriage", "exchange", "close", "claim", "resign")
CLAIM, WRONG_CLAIM, FAILED_CLOSE, LAST_TRICK, RESIGN = range(5)
REASONS = ("claim", "wrong_claim", "failed_close", "last_trick", "resign")

_FIVE = np.uint64(5)
_KQ = np.uint64(0b110)  # king and queen of suit 0


@njit(cache=True, inline="always")
def card_bit(card):
    """The one-card mask of ``card``."""
    return U1 << np.uint64(card)


@njit(cache=True, inline="always")
def follower_wins(lead, follow, trump):
    """Whether the follower's card beats the led card, ``trump`` the trump suit."""
    ls = lead // 5
    fs = follow // 5
    if fs == ls:
        return follow > lead
    return fs == trump


@njit(cache=True, inline="always")
def follow_mask(hand, lead, trump, strict):
    """Cards of ``hand`` that may answer ``lead``.

    With the talon open (``strict`` false) any card; once it is closed or
    empty: a higher card of the led suit if held, else any card of that suit,
    else a trump, else anything.
    """
    if not strict:
        return hand
    same = hand & SUIT_MASK[lead // 5]
    if same != U0:
        higher = same & ~((U1 << np.uint64(lead + 1)) - U1)
        if higher != U0:
            return higher
        return same
    trumps = hand & SUIT_MASK[trump]
    if trumps != U0:
        return trumps
    return hand


@njit(cache=True, inline="always")
def marriage_suits(hand):
    """Bit s set for every suit s whose king and queen are both in ``hand``."""
    out = 0
    for s in range(4):
        kq = _KQ << (_FIVE * np.uint64(s))
        if hand & kq == kq:
            out |= 1 << s
    return out


@njit(cache=True, inline="always")
def counted_points(trick_points, marriage_points, tricks):
    """Card points that count: tricks, plus marriages once their owner has a trick."""
    if tricks > 0:
        return trick_points + marriage_points
    return trick_points


@njit(cache=True, inline="always")
def score_claim(claimant, points, target, closer, at_close, opp_points, opp_tricks,
                snap_points, snap_tricks, schneider_below):
    """Score a claim by ``claimant`` holding ``points`` counted card points.

    ``opp_points``/``opp_tricks``: the opponent's now; ``snap_*``: the closer's
    opponent's at the close (used when ``closer`` >= 0).  Returns
    (winner, game points, reason).
    """
    opp = 1 - claimant
    if points < target:
        return opp, 3 if opp_tricks == 0 else 2, WRONG_CLAIM
    if closer == opp:  # the opponent closed and the claimant got there first
        return claimant, 3 if snap_tricks == 0 else 2, FAILED_CLOSE
    if closer == claimant and at_close:
        opp_points = snap_points
        opp_tricks = snap_tricks
    if opp_tricks == 0:
        return claimant, 3, CLAIM
    if opp_points < schneider_below:
        return claimant, 2, CLAIM
    return claimant, 1, CLAIM


@njit(cache=True, inline="always")
def score_run_out(last_winner, closer, snap_tricks):
    """Score a deal whose cards ran out unclaimed: (winner, game points, reason)."""
    if closer >= 0:
        return 1 - closer, 3 if snap_tricks == 0 else 2, FAILED_CLOSE
    return last_winner, 1, LAST_TRICK
