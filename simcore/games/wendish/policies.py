"""Wendish Schafkopf players, dispatched by integer id: ``random`` and ``heuristic``.

``random`` picks uniformly among the legal choices of every decision (pass or a
solo suit; quiet solo, first_trick or any callable card; the discards; the
card).  ``heuristic`` sees only its own hand and the public play:

* contracts: a Lust Solo only with a strong hand for some trump suit (trumps
  weighted by rank, plain aces, voids), against a threshold per hand size that the
  tariff moves (``solo_shift``: the expected score of a solo against a normal
  game's); the Old Ones play a quiet solo with a strong hand (the same way), else
  a wedding calling the highest trump they do not hold (a strong partner);
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
from .cards import BLACK_QUEENS, CARD_POINTS, CARD_SUIT, FOLLOW_MASK, POWER, QC, QS, \
    TRUMP_MASK, VARIANT_DECK, VARIANT_HAND
from .engine import (A_DISCARD, A_FIRST_TRICK, A_PASS, A_PICKUP, A_QUIET, A_SOLO, A_WEDDING,
                     P_DISCARD, P_LUST, P_OLD_ONES, P_PLAY, ST_CALLED, ST_CALLED_BY, ST_HAND,
                     ST_N, ST_PHASE, ST_PLAYED, ST_QC_BY, ST_QS_BY, ST_RNG, ST_TAKER,
                     ST_TO_MOVE, ST_TRICK, ST_TRICK_N, ST_TRICK_PTS, ST_TRUMP, ST_VARIANT,
                     ST_WIN_CARD, ST_WIN_SEAT, WEDDING, callable_cards, legal_cards, own_hand,
                     seen_contract, seen_declarer, seen_discards, seen_phase, seen_team0,
                     teams_known)
from .rules import R_BASE, R_SCHNEIDER, R_SCHWARZ, R_SOLO_BASE, R_SOLO_SUITS

POLICIES = ("random", "heuristic", "expert")   # expert: id 3 (expert.py, pimc.choose_w)
RANDOM, HEURISTIC = 0, 1

_BQ = np.uint64(BLACK_QUEENS)
_UQC = np.uint64(1 << QC)
_UQS = np.uint64(1 << QS)
_VDECK = np.array(VARIANT_DECK, dtype=np.uint64)
_VHAND = np.array(VARIANT_HAND, dtype=np.int64)
_PLAIN_ACES = np.uint64((1 << 0) | (1 << 8) | (1 << 16) | (1 << 24))
#: strength threshold per card in hand for a Lust Solo and for a quiet solo under the
#: default tariff (base 1, solo_base 2, schneider 1, schwarz 1); other tariffs move them
LUST_PER_CARD = 1.9
QUIET_PER_CARD = 1.85
#: the solo model: the soloist wins with probability logistic(SOLO_SLOPE * (strength per
#: card - a centre)); a deal's value counts Schneider and Schwarz at these rates; a hand
#: strong enough to think of a solo expects NORMAL_SHARE of the normal game's value in a
#: normal game (or wedding)
SOLO_SLOPE = 6.0
P_SCHNEIDER = 0.3
P_SCHWARZ = 0.05
NORMAL_SHARE = 0.5
DEFAULT_TARIFF = (1, 2, 1, 1)        # base, solo_base, schneider, schwarz


@njit(cache=True)
def solo_shift(n, base, solo_base, schneider, schwarz):
    """How much the solo threshold (strength per card) moves under a tariff, by the
    expected deal score: a solo is worth playing when n-1 opponents times its value
    times (2 p - 1) beats NORMAL_SHARE of the normal game's value, i.e. when
    p >= (1 + NORMAL_SHARE * normal / ((n - 1) * solo)) / 2; the shift is the
    strength per card that p needs under this tariff over what it needs under the
    default one (so the default tariff keeps the thresholds).  Inf: never worth it."""
    extra = P_SCHNEIDER * schneider + P_SCHWARZ * schwarz
    need = 0.5 * (1.0 + NORMAL_SHARE * (base + extra) / ((n - 1) * (solo_base + extra)))
    d_extra = P_SCHNEIDER * DEFAULT_TARIFF[2] + P_SCHWARZ * DEFAULT_TARIFF[3]
    need0 = 0.5 * (1.0 + NORMAL_SHARE * (DEFAULT_TARIFF[0] + d_extra) /
                   ((n - 1) * (DEFAULT_TARIFF[1] + d_extra)))
    if need >= 1.0:
        return np.inf
    return (np.log(need / (1.0 - need)) - np.log(need0 / (1.0 - need0))) / SOLO_SLOPE


@njit(cache=True)
def solo_thresholds(r, n):
    """(Lust Solo, quiet solo) strength thresholds per card in hand under the tariff of
    the rules array ``r`` (see ``solo_shift``)."""
    sh = solo_shift(n, r[R_BASE], r[R_SOLO_BASE], r[R_SCHNEIDER], r[R_SCHWARZ])
    return LUST_PER_CARD + sh, QUIET_PER_CARD + sh


@njit(cache=True, inline="always")
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
def lust_suit(hand, suits_mask, hand_size, per_card):
    """The heuristic's Lust Solo: the suit of the strongest hand at or above the
    threshold (``per_card`` strength per card in hand), -1 to pass."""
    best = -1
    best_s = per_card * hand_size
    for t in range(4):
        if (suits_mask >> t) & 1:
            s = hand_strength(hand, t)
            if s >= best_s:
                best_s = s
                best = t
    return best


@njit(cache=True)
def old_ones_action(hand, callable_mask, hand_size, per_card):
    """The heuristic's Old Ones' choice as an action code (a quiet solo from
    ``per_card`` strength per card in hand)."""
    if hand_strength(hand, 3) >= per_card * hand_size:
        return A_QUIET
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
        return A_FIRST_TRICK
    return A_WEDDING + best


@njit(cache=True)
def discard_card(hand):
    """The heuristic's discard (never a black queen)."""
    allowed = hand & ~_BQ
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
    return best


@njit(cache=True)
def knowledge(p, n, contract, declarer, hand, called, called_by, teams_known, team0,
              qc_by, qs_by):
    """What seat ``p`` knows of the sides: (friends, foes, declaring) as seat masks.

    Every argument is part of p's observation: ``contract`` and ``declarer`` as p
    knows them (a quiet solo is a normal game to the others), ``team0`` only when
    ``teams_known``."""
    allm = np.uint64((1 << n) - 1)
    me = U1 << np.uint64(p)
    others = allm & ~me
    if teams_known:
        t0 = np.uint64(team0)
        if (t0 & me) != U0:
            return t0 & ~me, allm & ~t0, True
        return allm & ~t0 & ~me, t0, False
    dbit = U1 << np.uint64(declarer) if declarer >= 0 else U0
    if contract == WEDDING:
        if p == declarer:
            if called_by >= 0:
                f = U1 << np.uint64(called_by)
                return f, others & ~f, True
            return U0, U0, True
        if called >= 0 and (((hand >> np.uint64(called)) & U1) != U0 or called_by == p):
            return dbit, others & ~dbit, True
        foes = dbit
        if called_by >= 0:
            foes |= U1 << np.uint64(called_by)
            return others & ~foes, foes, False
        cand = others & ~dbit
        if called >= 0 and popcount(cand) == 1:
            foes |= cand
        return U0, foes, False
    # a normal game as the player sees it (a quiet solo looks like one to the others)
    has_c = (hand & _UQC) != U0 or qc_by == p
    has_s = (hand & _UQS) != U0 or qs_by == p
    if has_c or has_s:
        other = qs_by if has_c else qc_by
        if other >= 0:
            f = U1 << np.uint64(other)
            return f, others & ~f, True
        return U0, U0, True
    foes = U0
    if qc_by >= 0:
        foes |= U1 << np.uint64(qc_by)
    if qs_by >= 0:
        foes |= U1 << np.uint64(qs_by)
    if qc_by >= 0 and qs_by >= 0:
        return others & ~foes, foes, False
    return U0, foes, False


@njit(cache=True, inline="always")
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


def _above_table():
    """[t, c]: the cards that beat ``c`` when ``c`` holds a trick (so ``c`` is a trump
    or of the led suit): every higher trump; for a plain card also every trump and
    the higher cards of its suit."""
    out = np.zeros((4, 32), dtype=np.uint64)
    for t in range(4):
        tm = int(TRUMP_MASK[t])
        for c in range(32):
            m = 0
            for x in range(32):
                if tm >> x & 1:
                    if not tm >> c & 1 or POWER[t, x] > POWER[t, c]:
                        m |= 1 << x
                elif not tm >> c & 1 and x // 8 == c // 8 and POWER[t, x] > POWER[t, c]:
                    m |= 1 << x
            out[t, c] = m
    return out


#: see ``_above_table``
ABOVE = _above_table()


@njit(cache=True, inline="always")
def _is_boss(t, lead_card, card, outside):
    """No card in ``outside`` beats ``card`` (as winner of a trick led by lead_card):
    ``_beats(t, lead_card, card, x)`` is false for every x in ``outside``, since
    ``card`` is a trump or of the led suit whenever this is asked."""
    return (outside & ABOVE[t, card]) == U0


@njit(cache=True, inline="always")
def _keep_value(t, c):
    """What a card is worth to keep for later tricks (higher: keep it)."""
    tm = TRUMP_MASK[t]
    if ((U1 << np.uint64(c)) & tm) != U0:
        return 6.0 + POWER[t, c]
    return float(POWER[t, c])


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def seat_view(st):
    """What the seat to move sees of a card decision: (seat, players, trump suit, hand,
    legal cards, its place in the trick, the led card, the card and seat holding the
    trick (-1, -1 and itself on lead), friends, foes, declaring (``knowledge``), the
    seats still to play after it, the cards outside: unplayed, not in its hand and not
    its own discards). Read through the engine's ``seen_*`` accessors, the same
    ``observe`` reports."""
    p = st[ST_TO_MOVE]
    n = st[ST_N]
    hand = own_hand(st, p)
    i = st[ST_TRICK_N]
    if i == 0:
        lead_card = -1
        win_card = -1
        win_seat = p
    else:
        lead_card = st[ST_TRICK]
        win_card = st[ST_WIN_CARD]
        win_seat = st[ST_WIN_SEAT]
    friends, foes, declaring = knowledge(p, n, seen_contract(st, p), seen_declarer(st, p),
                                         hand, st[ST_CALLED], st[ST_CALLED_BY],
                                         teams_known(st, p), seen_team0(st, p),
                                         st[ST_QC_BY], st[ST_QS_BY])
    rest = U0
    q = p
    for _ in range(i + 1, n):
        q += 1
        if q >= n:
            q -= n
        rest |= U1 << np.uint64(q)
    outside = _VDECK[st[ST_VARIANT]] & ~np.uint64(st[ST_PLAYED]) & ~hand & \
        ~seen_discards(st, p)
    return (p, n, st[ST_TRUMP], hand, legal_cards(st), i, lead_card, win_card, win_seat,
            friends, foes, declaring, rest, outside)


@njit(cache=True, inline="always")
def heuristic_play(r, st):
    """The heuristic's card for the seat to move, from what that seat sees
    (``seat_view``): its own hand, the public trick and play, and its view of the
    contract and the sides."""
    (p, n, t, hand, legal, i, lead_card, win_card, win_seat, friends, foes, declaring,
     rest, outside) = seat_view(st)
    return heuristic_card(t, legal, hand, outside, i, n, lead_card, win_card, win_seat,
                          st[ST_TRICK_PTS], rest, friends, foes, declaring)


@njit(cache=True, inline="always")
def heuristic_action(r, st):
    """The heuristic's action for the seat to move, from what that seat sees."""
    p = st[ST_TO_MOVE]
    ph = seen_phase(st, p)
    if ph == P_PLAY:
        return heuristic_play(r, st)
    hand = own_hand(st, p)
    hs = _VHAND[st[ST_VARIANT]]
    if ph == P_DISCARD:
        return A_DISCARD + discard_card(hand)
    if ph == P_LUST:
        lust, _ = solo_thresholds(r, st[ST_N])
        s = lust_suit(hand, r[R_SOLO_SUITS], hs, lust)
        return A_PASS if s < 0 else A_SOLO + s
    if ph == P_OLD_ONES:
        _, quiet = solo_thresholds(r, st[ST_N])
        callable_mask = _VDECK[st[ST_VARIANT]] & ~hand & ~seen_discards(st, p)
        return old_ones_action(hand, callable_mask, hs, quiet)
    return A_PICKUP


@njit(cache=True, inline="always")
def _draw(st, k):
    """A uniform integer in [0, k) from the state's stream (advancing it)."""
    rng, x = bounded(np.uint64(st[ST_RNG]), k)
    st[ST_RNG] = np.int64(rng)
    return x


@njit(cache=True, inline="always")
def random_action(r, st):
    """A uniform legal action of the seat to move, drawn from the state's stream
    (the forced pickup draws nothing).  Reads the mover's own hand and the public
    trick: the same as ``legal_actions``."""
    ph = st[ST_PHASE]
    if ph == P_PLAY:
        legal = legal_cards(st)
        return kth_bit(legal, _draw(st, popcount(legal)))
    if ph == P_DISCARD:
        allowed = np.uint64(st[ST_HAND + st[ST_TAKER]]) & ~_BQ
        return A_DISCARD + kth_bit(allowed, _draw(st, popcount(allowed)))
    if ph == P_LUST:
        suits = np.uint64(r[R_SOLO_SUITS])
        x = _draw(st, np.int64(popcount(suits)) + 1)
        return A_PASS if x == 0 else A_SOLO + kth_bit(suits, x - 1)
    if ph == P_OLD_ONES:
        cm = callable_cards(st)
        x = _draw(st, np.int64(popcount(cm)) + 2)
        if x == 0:
            return A_QUIET
        if x == 1:
            return A_FIRST_TRICK
        return A_WEDDING + kth_bit(cm, x - 2)
    return A_PICKUP


@njit(cache=True, inline="always")
def choose(r, st, pol):
    """The action policy ``pol`` takes for the seat to move; advances the state's
    stream as the policy draws.  Both policies read only what the mover sees."""
    if pol == RANDOM:
        return random_action(r, st)
    return heuristic_action(r, st)


@njit(cache=True)
def py_choose(r, st, pol):
    """``choose`` as one call from Python."""
    return choose(r, st, pol)
