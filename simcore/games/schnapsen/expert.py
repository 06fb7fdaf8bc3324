"""Schnapsen's ``expert`` player: the heuristic's rules early, exact play once every
card is known to its seat.

Once the talon is used up (``talon == 0`` in the seat's observation) nothing is hidden:
the opponent holds exactly the cards the seat neither holds nor saw played. From
there the expert plays perfectly: each of its actions (a card, a marriage, the claim,
the pass after the last trick) is valued by an exact alpha-beta search of the rest of
the deal in game points (``endgame_value``), and it takes the best one.

At the last trick before the talon runs out (two cards left: one face down, the
face-up trump card) only which unseen card lies face down is hidden: five or six
worlds. The expert values each action by its mean over those worlds, each solved
exactly (after that trick both seats know every card, so the worlds' solves are the
play that follows).

Everywhere else (and when the expert's search has nothing to add) it plays like
``heuristic`` (``policies.py``): ``expert_choose`` returns -1 and ``choose`` goes on
with the heuristic's rules.

The search is over scalars only (hands as masks, points, tricks, who leads, the card
led): it needs no scratch array, so the expert runs in the allocation-free batch loops
like the heuristic and the random player. It reads only what ``engine.observe`` shows
the seat to move (its hand, the cards played, the points, marriage points and tricks of
both seats, the trump card and the talon's size), never the opponent's hand or the
talon's order (tests/test_no_peek.py).
"""
import numpy as np
from numba import njit

from ...bits import lowest_bit
from .cards import CARD_POINTS
from .engine import (A_CLAIM, A_MARRIAGE, A_PASS, AFTER_LAST, FOLLOW, LEAD, S_HAND,
                     S_LEAD_CARD, S_LEADER, S_MARR, S_MARRIED, S_PHASE, S_PLAYED,
                     S_POINTS, S_STEP, S_TALON_LEFT, S_TRICKS, S_TRUMP, S_TRUMP_CARD,
                     S_CLOSER, T_CLOSED, T_MARRIED, follow_mask, follower_wins,
                     marriage_suits)
from .rules import R_MARR_CLOSED, R_SCHNEIDER, R_TARGET

_DECK = np.int64((1 << 20) - 1)
_KQ = np.int64(0b110)
_NONE, _ZERO, _ONE = np.int64(-1), np.int64(0), np.int64(1)
_SIG = ("int64(int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, "
        "int64, int64, int64, int64, int64, int64, int64)")


@njit(cache=True, inline="always")
def _claim_points(opp_counted, opp_tricks, schneider):
    """Game points of a correct claim with the talon used up (nobody closed)."""
    if opp_tricks == 0:
        return 3
    if opp_counted < schneider:
        return 2
    return 1


@njit(_SIG, cache=True, _nrt=False)
def endgame_value(h0, h1, p0, p1, m0, m1, t0, t1, leader, lead, married, alpha, beta,
                  trump, target, schneider, marr_ok):
    """The deal's value for seat 0 (signed game points) with the talon used up and every
    card known, under best play by both seats: ``h0``/``h1`` the hands, ``p``/``m``/``t``
    card points, marriage points and tricks of each seat, ``leader`` the seat leading,
    ``lead`` the card it led (else -1: the leader is to act, or has just shown the
    marriage of suit ``married`` (else -1) and must lead its king or queen).  A
    fail-hard alpha-beta search in the window (``alpha``, ``beta``).  A seat that may
    claim with the target reached claims at once (waiting only adds to the opponent's
    points and tricks); a claim short of the target is never better than playing on
    and is not searched."""
    if lead < 0:
        if leader == 0:
            hl, pl, ml, tl = h0, p0, m0, t0
            po, mo, to = p1, m1, t1
        else:
            hl, pl, ml, tl = h1, p1, m1, t1
            po, mo, to = p0, m0, t0
        cl = pl + ml if tl > 0 else pl
        sign = 1 if leader == 0 else -1
        if cl >= target:   # claim (right after a trick, after a marriage, after the last)
            co = po + mo if to > 0 else po
            return sign * _claim_points(co, to, schneider)
        if hl == 0:        # after the last trick, short of the target: the pass
            return sign
        maxing = leader == 0
        best = -4 if maxing else 4
        if married >= 0:
            allowed = hl & (_KQ << (5 * married))
        else:
            allowed = hl
            if marr_ok:
                suits = marriage_suits(hl)
                for s in range(4):
                    if (suits >> s) & 1:
                        add = 40 if s == trump else 20
                        if leader == 0:
                            v = endgame_value(h0, h1, p0, p1, m0 + add, m1, t0, t1, leader,
                                              -1, s, alpha, beta, trump, target, schneider,
                                              marr_ok)
                        else:
                            v = endgame_value(h0, h1, p0, p1, m0, m1 + add, t0, t1, leader,
                                              -1, s, alpha, beta, trump, target, schneider,
                                              marr_ok)
                        if maxing:
                            if v > best:
                                best = v
                                if v > alpha:
                                    alpha = v
                        else:
                            if v < best:
                                best = v
                                if v < beta:
                                    beta = v
                        if alpha >= beta:
                            return best
        m = allowed
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            bit = np.int64(1) << c
            if leader == 0:
                v = endgame_value(h0 ^ bit, h1, p0, p1, m0, m1, t0, t1, leader, c, -1,
                                  alpha, beta, trump, target, schneider, marr_ok)
            else:
                v = endgame_value(h0, h1 ^ bit, p0, p1, m0, m1, t0, t1, leader, c, -1,
                                  alpha, beta, trump, target, schneider, marr_ok)
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        return best
    f = 1 - leader
    hf = h1 if f == 1 else h0
    legal = follow_mask(hf, lead, trump, True)
    maxing = f == 0
    best = -4 if maxing else 4
    worth = CARD_POINTS[lead]
    m = legal
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        bit = np.int64(1) << c
        w = f if follower_wins(lead, c, trump) else leader
        pts = worth + CARD_POINTS[c]
        n0 = h0 ^ bit if f == 0 else h0
        n1 = h1 ^ bit if f == 1 else h1
        if w == 0:
            v = endgame_value(n0, n1, p0 + pts, p1, m0, m1, t0 + 1, t1, 0, -1, -1, alpha,
                              beta, trump, target, schneider, marr_ok)
        else:
            v = endgame_value(n0, n1, p0, p1 + pts, m0, m1, t0, t1 + 1, 1, -1, -1, alpha,
                              beta, trump, target, schneider, marr_ok)
        if maxing:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                if v < beta:
                    beta = v
        if alpha >= beta:
            break
    return best


@njit(cache=True, inline="always")
def _value_of(r, st, h0, h1, p, action, alpha, beta):
    """The value for seat ``p`` (to move, the talon used up) of ``action`` in ``st``, with
    the hands ``h0``/``h1`` as the seat knows them; fail-hard in (alpha, beta) of p's
    values."""
    trump = st[S_TRUMP]
    target = r[R_TARGET]
    sch = r[R_SCHNEIDER]
    mok = r[R_MARR_CLOSED]
    p0, p1 = st[S_POINTS], st[S_POINTS + 1]
    m0, m1 = st[S_MARR], st[S_MARR + 1]
    t0, t1 = st[S_TRICKS], st[S_TRICKS + 1]
    sign = 1 if p == 0 else -1
    lo, hi = (alpha, beta) if p == 0 else (-beta, -alpha)
    if st[S_PHASE] == FOLLOW:
        leader = 1 - p
        lead = st[S_LEAD_CARD]
        bit = np.int64(1) << action
        w = p if follower_wins(lead, action, trump) else leader
        pts = CARD_POINTS[lead] + CARD_POINTS[action]
        n0 = h0 ^ bit if p == 0 else h0
        n1 = h1 ^ bit if p == 1 else h1
        if w == 0:
            v = endgame_value(n0, n1, p0 + pts, p1, m0, m1, t0 + 1, t1, _ZERO, _NONE, _NONE, lo, hi,
                              trump, target, sch, mok)
        else:
            v = endgame_value(n0, n1, p0, p1 + pts, m0, m1, t0, t1 + 1, _ONE, _NONE, _NONE, lo, hi,
                              trump, target, sch, mok)
        return sign * v
    if action >= A_MARRIAGE:   # a marriage (claims and passes are decided before)
        s = action - A_MARRIAGE
        add = 40 if s == trump else 20
        if p == 0:
            m0 += add
        else:
            m1 += add
        return sign * endgame_value(h0, h1, p0, p1, m0, m1, t0, t1, p, _NONE, s, lo, hi, trump,
                                    target, sch, mok)
    bit = np.int64(1) << action
    n0 = h0 ^ bit if p == 0 else h0
    n1 = h1 ^ bit if p == 1 else h1
    return sign * endgame_value(n0, n1, p0, p1, m0, m1, t0, t1, p, action, _NONE, lo, hi,
                                trump, target, sch, mok)


@njit(cache=True, _nrt=False)
def _endgame_choose(r, st, p, opp_hand):
    """The best action of seat ``p`` (to move, the talon used up, ``opp_hand`` the
    opponent's cards as the seat infers them); the first best in engine order."""
    hand = st[S_HAND + p]
    h0 = hand if p == 0 else opp_hand
    h1 = opp_hand if p == 0 else hand
    ph = st[S_PHASE]
    counted = st[S_POINTS + p] + (st[S_MARR + p] if st[S_TRICKS + p] > 0 else 0)
    if ph == AFTER_LAST:
        return A_CLAIM if counted >= r[R_TARGET] else A_PASS
    if ph == FOLLOW:
        cards = follow_mask(hand, st[S_LEAD_CARD], st[S_TRUMP], True)
        suits = 0
    else:
        step = st[S_STEP]
        if counted >= r[R_TARGET] and st[S_TRICKS] + st[S_TRICKS + 1] > 0:
            return A_CLAIM
        if step == T_MARRIED:
            cards = hand & (_KQ << (5 * st[S_MARRIED]))
            suits = 0
        else:
            cards = hand
            suits = marriage_suits(hand) if (step <= T_CLOSED and r[R_MARR_CLOSED] != 0) else 0
    best_a = -1
    best = -4
    m = cards
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = _value_of(r, st, h0, h1, p, c, best, 4)
        if v > best:
            best = v
            best_a = c
            if best == 3:
                return best_a
    for s in range(4):
        if (suits >> s) & 1:
            v = _value_of(r, st, h0, h1, p, A_MARRIAGE + s, best, 4)
            if v > best:
                best = v
                best_a = A_MARRIAGE + s
    return best_a


@njit(cache=True, _nrt=False)
def expert_choose(r, st):
    """The expert's action for the seat to move where its search decides it, else -1
    (the heuristic's rules decide). Reads only what the seat observes."""
    if st[S_TALON_LEFT] != 0 or st[S_CLOSER] >= 0:
        return -1
    ph = st[S_PHASE]
    p = st[S_LEADER] if ph != FOLLOW else 1 - st[S_LEADER]
    if ph != LEAD and ph != FOLLOW and ph != AFTER_LAST:
        return -1
    opp = _DECK & ~st[S_HAND + p] & ~st[S_PLAYED]
    return _endgame_choose(r, st, p, opp)
