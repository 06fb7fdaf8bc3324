"""Schnapsen's ``expert`` player: the heuristic's rules while cards are drawn, exact
search once nothing more is drawn.

* Talon used up (``talon == 0`` in the seat's observation): nothing is hidden, the
  opponent holds exactly the cards the seat neither holds nor saw played. The expert
  values each of its actions (a card, a marriage, the claim, the pass after the last
  trick) by an exact alpha-beta search of the rest of the deal in game points
  (``endgame_value``) and takes the best: perfect play.
* Talon closed: the opponent's hand is hidden (the talon's cards are out of play). The
  expert samples ``EXPERT_WORLDS`` hands for it consistent with what the seat saw
  (cards it was seen to take, the suits the follow rule says it lacks), solves every
  action in each exactly and takes the best mean.
* Closing: where the rules let it close, it closes only when the closed deal wins in
  every one of ``EXPERT_CLOSE_WORLDS`` sampled opponent hands, each solved with both
  hands open (an open solve plays the closed deal knowing every card, which flatters
  the close, so one losing world is enough to keep the talon open).
* Everything else (the exchange, marriages and card play while the talon is open,
  claims) follows ``heuristic`` (policies.py): ``expert_choose`` returns -1 and
  ``choose`` goes on with the heuristic's rules.

The search is over scalars only (hands as masks, points, tricks, who leads, the card
led, the close packed in one context word): it needs no scratch array, so the expert
runs in the allocation-free batch loops like the heuristic. Its sampling draws from
``solver.decision_stream`` (derived from the decision, the game's stream is not
advanced: the deals stay paired with any other player's). It reads only what
``engine.observe`` shows the seat to move: its hand, the cards played, the opponent's
seen cards and voids, the points, marriage points and tricks of both seats, the close,
the trump card and the talon's size (tests/test_no_peek.py).
"""
import numpy as np
from numba import njit

from ...bits import ab_child, kth_bit, lowest_bit, next_u64, popcount
from .cards import CARD_POINTS
from .engine import (A_CLAIM, A_MARRIAGE, A_PASS, AFTER_LAST, FOLLOW, LEAD, S_CLOSER,
                     S_HAND, S_LEAD_CARD, S_LEADER, S_MARR, S_MARRIED, S_PHASE, S_PLAYED,
                     S_POINTS, S_SHOWN, S_SNAP_POINTS, S_SNAP_TRICKS, S_STEP,
                     S_TALON_LEFT, S_TRICKS, S_TRUMP, S_TRUMP_CARD, S_VOID, T_MARRIED,
                     T_START, follow_mask, follower_wins, marriage_suits)
from .rules import R_AT_CLOSE, R_MARR_CLOSED, R_SCHNEIDER, R_TARGET
from .solver import decision_stream

_DECK = np.int64((1 << 20) - 1)
_KQ = np.int64(0b110)
_NONE, _ZERO, _ONE = np.int64(-1), np.int64(0), np.int64(1)
#: sampled hands of the opponent per decision in a closed deal, and per close considered
EXPERT_WORLDS = 6
EXPERT_CLOSE_WORLDS = 8
_SIG = ("int64(int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, "
        "int64, int64, int64, int64)")

# the search's context, packed in one word: what stays fixed during a deal's endgame
_C_SCHNEIDER, _C_MARR_OK, _C_AT_CLOSE, _C_TRUMP, _C_CLOSER, _C_SNAP_T, _C_SNAP_P = (
    8, 16, 17, 18, 20, 22, 24)


@njit(cache=True, inline="always")
def pack_context(target, schneider, marr_ok, at_close, trump, closer, snap_points,
                 snap_tricks):
    """The endgame search's fixed context in one int64 (rules, trump, the close)."""
    return (np.int64(target) | (np.int64(schneider) << _C_SCHNEIDER)
            | (np.int64(marr_ok != 0) << _C_MARR_OK) | (np.int64(at_close != 0) << _C_AT_CLOSE)
            | (np.int64(trump) << _C_TRUMP) | (np.int64(closer + 1) << _C_CLOSER)
            | (np.int64(snap_tricks > 0) << _C_SNAP_T)
            | (np.int64(snap_points) << _C_SNAP_P))


@njit(cache=True, inline="always")
def claim_value(claimant, mine, theirs, their_tricks, ctx):
    """The value for seat 0 of a claim by ``claimant`` holding ``mine`` counted points,
    the opponent ``theirs`` with ``their_tricks`` tricks (engine.score_claim's rules)."""
    sign = 1 if claimant == 0 else -1
    if mine < (ctx & 255):                       # a wrong claim
        return -sign * (3 if their_tricks == 0 else 2)
    closer = ((ctx >> _C_CLOSER) & 3) - 1
    snap_t = (ctx >> _C_SNAP_T) & 1
    if closer == 1 - claimant:                   # the opponent's close failed
        return sign * (2 if snap_t else 3)
    if closer == claimant and (ctx >> _C_AT_CLOSE) & 1:
        theirs = ctx >> _C_SNAP_P
        their_tricks = snap_t
    if their_tricks == 0:
        return sign * 3
    if theirs < ((ctx >> _C_SCHNEIDER) & 255):
        return sign * 2
    return sign


@njit(cache=True, inline="always")
def run_out_value(last_winner, ctx):
    """The value for seat 0 of a deal whose cards ran out unclaimed."""
    closer = ((ctx >> _C_CLOSER) & 3) - 1
    if closer >= 0:
        gp = 2 if (ctx >> _C_SNAP_T) & 1 else 3
        return gp if closer == 1 else -gp
    return 1 if last_winner == 0 else -1


@njit(_SIG, cache=True, _nrt=False)
def endgame_value(h0, h1, p0, p1, m0, m1, t0, t1, leader, lead, married, alpha, beta, ctx):
    """The deal's value for seat 0 (signed game points) once nothing more is drawn (the
    talon used up or closed) with both hands known, under best play by both seats:
    ``h0``/``h1`` the hands, ``p``/``m``/``t`` card points, marriage points and tricks of
    each seat, ``leader`` the seat leading, ``lead`` the card it led (else -1: the leader
    is to act).  ``married``: -1 at the start of the turn to lead, -2 after a close (no
    claim, a marriage may follow), else the suit of the marriage just shown (its king or
    queen must be led).  ``ctx``: ``pack_context``.  A fail-soft alpha-beta search in the
    window (``alpha``, ``beta``; each child through the solvers' ``bits.ab_child``, which
    keeps no move here: action 0).  A seat that may claim with the target reached claims
    at once (waiting only adds to the opponent's points and tricks)."""
    if lead < 0:
        if leader == 0:
            hl, pl, ml, tl = h0, p0, m0, t0
            po, mo, to = p1, m1, t1
        else:
            hl, pl, ml, tl = h1, p1, m1, t1
            po, mo, to = p0, m0, t0
        cl = pl + ml if tl > 0 else pl
        co = po + mo if to > 0 else po
        maxing = leader == 0
        if hl == 0:        # after the last trick: claim or pass
            a = claim_value(leader, cl, co, to, ctx)
            b = run_out_value(leader, ctx)
            return (a if a > b else b) if maxing else (a if a < b else b)
        best = -4 if maxing else 4
        if married >= 0 or (married == -1 and t0 + t1 > 0):
            best = claim_value(leader, cl, co, to, ctx)
            if cl >= (ctx & 255):
                return best
            if maxing:
                if best > alpha:
                    alpha = best
            elif best < beta:
                beta = best
            if alpha >= beta:
                return best
        if married >= 0:
            allowed = hl & (_KQ << (5 * married))
        else:
            allowed = hl
            if (ctx >> _C_MARR_OK) & 1:
                suits = marriage_suits(hl)
                trump = (ctx >> _C_TRUMP) & 3
                for s in range(4):
                    if (suits >> s) & 1:
                        add = 40 if s == trump else 20
                        if leader == 0:
                            v = endgame_value(h0, h1, p0, p1, m0 + add, m1, t0, t1, leader,
                                              _NONE, s, alpha, beta, ctx)
                        else:
                            v = endgame_value(h0, h1, p0, p1, m0, m1 + add, t0, t1, leader,
                                              _NONE, s, alpha, beta, ctx)
                        best, _, alpha, beta = ab_child(maxing, v, 0, best, 0, alpha, beta)
                        if alpha >= beta:
                            return best
        m = allowed
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            bit = np.int64(1) << c
            if leader == 0:
                v = endgame_value(h0 ^ bit, h1, p0, p1, m0, m1, t0, t1, leader, c, _NONE,
                                  alpha, beta, ctx)
            else:
                v = endgame_value(h0, h1 ^ bit, p0, p1, m0, m1, t0, t1, leader, c, _NONE,
                                  alpha, beta, ctx)
            best, _, alpha, beta = ab_child(maxing, v, 0, best, 0, alpha, beta)
            if alpha >= beta:
                break
        return best
    trump = (ctx >> _C_TRUMP) & 3
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
            v = endgame_value(n0, n1, p0 + pts, p1, m0, m1, t0 + 1, t1, _ZERO, _NONE, _NONE, alpha,
                              beta, ctx)
        else:
            v = endgame_value(n0, n1, p0, p1 + pts, m0, m1, t0, t1 + 1, _ONE, _NONE, _NONE, alpha,
                              beta, ctx)
        best, _, alpha, beta = ab_child(maxing, v, 0, best, 0, alpha, beta)
        if alpha >= beta:
            break
    return best


@njit(cache=True, inline="always")
def _context(r, st):
    """``pack_context`` of the deal in ``st``."""
    return pack_context(r[R_TARGET], r[R_SCHNEIDER], r[R_MARR_CLOSED], r[R_AT_CLOSE],
                        st[S_TRUMP], st[S_CLOSER], st[S_SNAP_POINTS], st[S_SNAP_TRICKS])


@njit(cache=True, inline="always")
def _counted(st, s):
    return st[S_POINTS + s] + (st[S_MARR + s] if st[S_TRICKS + s] > 0 else 0)


@njit(cache=True, inline="always")
def action_value(st, ctx, h0, h1, p, action, alpha, beta):
    """The value for seat ``p`` (to move, nothing more to draw) of ``action`` in ``st``
    with the hands ``h0``/``h1`` (as the seat knows or samples them); fail-soft in
    (``alpha``, ``beta``) of p's values."""
    trump = st[S_TRUMP]
    p0, p1 = st[S_POINTS], st[S_POINTS + 1]
    m0, m1 = st[S_MARR], st[S_MARR + 1]
    t0, t1 = st[S_TRICKS], st[S_TRICKS + 1]
    sign = 1 if p == 0 else -1
    lo, hi = (alpha, beta) if p == 0 else (-beta, -alpha)
    if action == A_CLAIM:
        return sign * claim_value(p, _counted(st, p), _counted(st, 1 - p),
                                  st[S_TRICKS + 1 - p], ctx)
    if action == A_PASS:
        return sign * run_out_value(p, ctx)
    if st[S_PHASE] == FOLLOW:
        leader = 1 - p
        lead = st[S_LEAD_CARD]
        bit = np.int64(1) << action
        w = p if follower_wins(lead, action, trump) else leader
        pts = CARD_POINTS[lead] + CARD_POINTS[action]
        n0 = h0 ^ bit if p == 0 else h0
        n1 = h1 ^ bit if p == 1 else h1
        if w == 0:
            v = endgame_value(n0, n1, p0 + pts, p1, m0, m1, t0 + 1, t1, _ZERO, _NONE, _NONE,
                              lo, hi, ctx)
        else:
            v = endgame_value(n0, n1, p0, p1 + pts, m0, m1, t0, t1 + 1, _ONE, _NONE, _NONE,
                              lo, hi, ctx)
        return sign * v
    if action >= A_MARRIAGE:
        s = action - A_MARRIAGE
        add = 40 if s == trump else 20
        if p == 0:
            m0 += add
        else:
            m1 += add
        return sign * endgame_value(h0, h1, p0, p1, m0, m1, t0, t1, p, _NONE, s, lo, hi, ctx)
    bit = np.int64(1) << action
    n0 = h0 ^ bit if p == 0 else h0
    n1 = h1 ^ bit if p == 1 else h1
    return sign * endgame_value(n0, n1, p0, p1, m0, m1, t0, t1, p, action, _NONE, lo, hi,
                                ctx)


@njit(cache=True, inline="always")
def _options(r, st, p):
    """What seat ``p`` (to move, nothing more to draw) may do: (cards mask, marriage suit
    bits, may claim, after the last trick)."""
    hand = st[S_HAND + p]
    ph = st[S_PHASE]
    if ph == AFTER_LAST:
        return np.int64(0), np.int64(0), True, True
    if ph == FOLLOW:
        return follow_mask(hand, st[S_LEAD_CARD], st[S_TRUMP], True), np.int64(0), False, False
    step = st[S_STEP]
    if step == T_MARRIED:
        return hand & (_KQ << (5 * st[S_MARRIED])), np.int64(0), True, False
    suits = marriage_suits(hand) if r[R_MARR_CLOSED] != 0 else np.int64(0)
    claim = step == T_START and st[S_TRICKS] + st[S_TRICKS + 1] > 0
    return hand, suits, claim, False


@njit(cache=True, _nrt=False)
def _known_choose(r, st, p, opp_hand):
    """The best action of seat ``p`` (to move, nothing more to draw, the opponent's hand
    ``opp_hand`` known); a claim with the target reached at once, else the first best of
    the cards (lowest id first), the marriages, the claim, the pass."""
    ctx = _context(r, st)
    hand = st[S_HAND + p]
    h0 = hand if p == 0 else opp_hand
    h1 = opp_hand if p == 0 else hand
    cards, suits, claim, last = _options(r, st, p)
    if claim and _counted(st, p) >= r[R_TARGET]:
        return A_CLAIM
    best_a = -1
    best = -4
    m = cards
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = action_value(st, ctx, h0, h1, p, c, best, 4)
        if v > best:
            best = v
            best_a = c
    for s in range(4):
        if (suits >> s) & 1:
            v = action_value(st, ctx, h0, h1, p, A_MARRIAGE + s, best, 4)
            if v > best:
                best = v
                best_a = A_MARRIAGE + s
    if claim or last:
        v = action_value(st, ctx, h0, h1, p, A_CLAIM, best, 4)
        if v > best:
            best = v
            best_a = A_CLAIM
    if last:
        v = action_value(st, ctx, h0, h1, p, A_PASS, best, 4)
        if v > best:
            best_a = A_PASS
    return best_a


@njit(cache=True, inline="always")
def _sample_opponent(st, p, rng, free, need, known):
    """A uniform hand for the opponent of ``p``: ``known`` plus ``need`` cards of
    ``free``; (rng, hand)."""
    hand = known
    m = free
    nf = popcount(np.uint64(free))
    for i in range(need):
        rng, x = next_u64(rng)
        k = np.int64(((x >> np.uint64(32)) * np.uint64(nf - i)) >> np.uint64(32))
        c = kth_bit(np.uint64(m), k)
        m &= ~(np.int64(1) << c)
        hand |= np.int64(1) << c
    return rng, hand


@njit(cache=True, inline="always")
def _hidden(st, p):
    """What seat ``p`` does not know of the opponent's hand: (cards it surely holds, cards
    it may hold, how many of those it holds)."""
    o = 1 - p
    played = st[S_PLAYED]
    known = st[S_SHOWN + o] & ~played
    unknown = _DECK & ~st[S_HAND + p] & ~played & ~known
    if st[S_TALON_LEFT] > 0:
        unknown &= ~(np.int64(1) << st[S_TRUMP_CARD])
    free = unknown & ~st[S_VOID + o]
    need = popcount(np.uint64(st[S_HAND + o])) - popcount(np.uint64(known))
    return known, free, need


@njit(cache=True, _nrt=False)
def _closed_choose(r, st, p, worlds):
    """The action of seat ``p`` in a closed deal (the opponent's hand hidden): the best
    mean exact value over ``worlds`` sampled hands of the opponent (each action solved in
    each), first best in the order of ``_known_choose``."""
    cards, suits, claim, last = _options(r, st, p)
    if claim and _counted(st, p) >= r[R_TARGET]:
        return A_CLAIM
    if last:                # nothing is hidden any more
        return _known_choose(r, st, p, np.int64(0))
    n = popcount(np.uint64(cards)) + popcount(np.uint64(suits))
    if n == 1 and not claim:
        return lowest_bit(cards) if cards != 0 else A_MARRIAGE + lowest_bit(suits)
    ctx = _context(r, st)
    known, free, need = _hidden(st, p)
    if popcount(np.uint64(free)) == need:
        worlds = 1
    rng = decision_stream(st)
    hand = st[S_HAND + p]
    best_a = -1
    best_total = -1 << 30
    # one pass per action over the same worlds (the stream restarts per action)
    m = cards
    while True:
        if m != 0:
            a = lowest_bit(m)
            m &= m - 1
        elif suits != 0:
            s = lowest_bit(suits)
            suits &= suits - 1
            a = A_MARRIAGE + s
        elif claim:
            claim = False
            a = A_CLAIM
        else:
            break
        g = rng
        total = 0
        for _ in range(worlds):
            g, opp = _sample_opponent(st, p, g, free, need, known)
            h0 = hand if p == 0 else opp
            h1 = opp if p == 0 else hand
            total += action_value(st, ctx, h0, h1, p, a, -4, 4)
        if total > best_total:
            best_total = total
            best_a = a
    return best_a


@njit(cache=True, _nrt=False)
def expert_close(r, st, worlds):
    """Whether the seat on lead (who may close now) closes: only when the closed deal
    wins in every one of ``worlds`` sampled hands of the opponent, each solved with both
    hands open (a close is the dearest mistake, and the open solve plays it knowing
    every card, which flatters it)."""
    p = st[S_LEADER]
    o = 1 - p
    known, free, need = _hidden(st, p)
    rng = decision_stream(st)
    hand = st[S_HAND + p]
    ctx = pack_context(r[R_TARGET], r[R_SCHNEIDER], r[R_MARR_CLOSED], r[R_AT_CLOSE],
                       st[S_TRUMP], p, _counted(st, o), st[S_TRICKS + o])
    for _ in range(worlds):
        rng, opp = _sample_opponent(st, p, rng, free, need, known)
        h0 = hand if p == 0 else opp
        h1 = opp if p == 0 else hand
        v = endgame_value(h0, h1, st[S_POINTS], st[S_POINTS + 1], st[S_MARR],
                          st[S_MARR + 1], st[S_TRICKS], st[S_TRICKS + 1], p, _NONE,
                          np.int64(-2), _ZERO, _ONE, ctx)
        if (v if p == 0 else -v) < 1:
            return False
    return True


@njit(cache=True, _nrt=False)
def expert_choose(r, st, worlds):
    """The expert's action for the seat to move where its search decides it (nothing
    more to draw: the talon used up or closed), else -1 (the heuristic's rules decide).
    ``worlds``: sampled hands of the opponent in a closed deal. Reads only what the seat
    observes."""
    ph = st[S_PHASE]
    if ph != LEAD and ph != FOLLOW and ph != AFTER_LAST:
        return -1
    p = st[S_LEADER] if ph != FOLLOW else 1 - st[S_LEADER]
    if st[S_TALON_LEFT] == 0:
        return _known_choose(r, st, p, _DECK & ~st[S_HAND + p] & ~st[S_PLAYED])
    if st[S_CLOSER] >= 0:
        return _closed_choose(r, st, p, worlds)
    return -1
