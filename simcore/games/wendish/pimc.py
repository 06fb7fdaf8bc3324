"""The Wendish ``pimc`` player: perfect-information Monte Carlo over the open-card solver.

Card play
---------
``pimc_choose(r, st, worlds, work)`` for the seat to move in ``P_PLAY``: it samples
``worlds`` deals consistent with what that seat has seen (``sample_world``), and
in each, for each of its legal cards, finds with the solver (``solver.reaches``,
null-window searches) which score band of the deal the card leads to under best
open play: the deal's score for this seat under the tariff in force, read off the
engine's own scoring (``deal_scores``) for every possible card-point total of the
first team.  It plays the card with the best mean score; among cards tied on it,
the one the ``heuristic`` would play if it is one of them, else the one with the
most card points of its side on average (the lowest card id on a full tie).
Schwarz is not searched for (tricks are not part of the solver's value): a world's
score assumes each side takes a trick.  With ``tricks=T`` (``choose_w``) it searches
only once at most T tricks of the deal are left and plays the ``expert``'s choice
before (its learned card scorer's there, EXPERT_TRICKS being its own search): the
search's cost falls steeply with the cards left, the first trick alone costing most of
a deal's (docs/wendish.md has the measured trade-off of cost and strength).  The
default ``tricks=auto`` is T = PIMC_MODEL_TRICKS (6) in Wendish four (the tricks before are
the expert's scorer's; measured level with the full search on two seeds) and every trick
in the other variants (measured there only as the full search: their scorers came later).
With ``stop=Z`` (``pimc_scores_stop``; default 0, off) a card stops being searched once,
from STOP_MIN_WORLDS worlds on, the leader beats it by more than Z/10 standard errors of
their paired difference over the worlds so far, and the search ends with one card left.

Worlds: the cards the seat cannot see (the other hands; the discards unless it
took the skat; Officers' face-down cards, its own included; before the pickup the
skat, holding the black queens the sampling taker lacks) are re-dealt with the
hand sizes kept, never giving a seat a card of a suit it showed void in (the
engine's ``ST_VOID``), never a black queen to the discards, never the called card
to its caller; the sides follow from the world's cards (in a game that looks
normal, both unplayed black queens in one other hand make it that hand's quiet
solo; a wedding's partner is the world's holder of the called card).  Cards are
dealt most constrained first, each to a seat with room drawn in proportion to
that room (close to uniform over the consistent deals; after 32 dead ends the
voids are dropped).  The draws come from a stream derived from the game's stream
and the decision, so the game's own stream is not advanced and every choice is
reproducible by (seed, index).

Contract decisions
------------------
``pimc_contract(r, st, worlds, method, work)`` for the discards, the Lust Solo round
and the Old Ones' choice (the pickup is forced), by the ``contracts`` parameter:

* ``heuristic``: the tariff-aware heuristic (``policies.heuristic_action``);
* ``playout`` and ``search``: every legal choice is tried on the same sampled worlds
  (paired), and the one with the best mean deal score for this seat under the
  tariff in force is taken (ties: the heuristic's choice if it is among the best,
  else the first in action-code order).  After the choice the rest of the contract
  round is the heuristic's, for every seat (its own later choice included: the Old
  Ones after a pass); then ``playout`` lets the heuristic play the cards out and
  reads the engine's score of the deal (``worlds`` x PLAYOUT_WORLDS_PER_WORLD
  worlds), while ``search`` solves the card play with all cards open at the score
  bands of the tariff (``_band_search``, as in card play; ``worlds`` worlds).  Under
  ``search`` a wedding's value in a world depends only on who holds the called card
  there, so it is solved once per partner seat.  The first discard is valued with
  the heuristic's second discard after it; the second discard is a decision of its
  own.

Worlds for a contract decision are card play's (above) with the announcements read
in: every seat that has passed the Lust Solo would pass by the heuristic's rule with
its world hand (a world where it would not is redrawn, up to 16 times), the Old Ones
are whoever holds both black queens in the world, and in Dreiwendsch the skat's
taker holds the queen of clubs (the taker is the holder of QC, else of QS with QC in
the skat, else forehand with both there: after the pickup it always holds QC; card
play's worlds keep this too).  The draws come from a stream derived from the
decision stream and the phase, the Lust Solo calls and the discards so far as the seat
knows them (a seat other than the taker: their number only).
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, lowest_bit, mix64, popcount
from .cards import BLACK_QUEENS, QC, QS, V_FOUR, V_OFFICERS, VARIANT_DECK
from .cards import VARIANT_HAND
from .engine import (A_DISCARD, A_WEDDING, MAX_LEGAL, NORMAL, P_DISCARD, P_DONE, P_PICKUP,
                     P_PLAY, QUIET_SOLO, SOLO, STATE_SIZE, ST_CALLED, ST_CALLED_BY, ST_CBIT,
                     ST_CONTRACT, ST_DECLARER, ST_DELTA, ST_DISCARDS, ST_FIRST_TRICK,
                     ST_FOREHAND, ST_HAND, ST_LUST_N, ST_N, ST_NTR, ST_NTRICKS, ST_OLD_ONES,
                     ST_PHASE, ST_PLAYED, ST_PTS, ST_QC_BY, ST_QS_BY, ST_RNG, ST_SKAT, ST_TAKER,
                     ST_TEAM0, ST_TEAMS_PUBLIC, ST_TO_MOVE, ST_TRICK_N, ST_TRICKS_DONE,
                     ST_UNDER, ST_VARIANT, ST_VOID, WEDDING,
                     _score_deal, apply_action, covered_cards, legal_actions, legal_cards,
                     seen_discards)
from .policies import choose, discard_card, heuristic_action, heuristic_play, lust_suit, \
    solo_thresholds
from .rules import R_LUST, R_SOLO_SUITS
from .solver import SCRATCH, reaches
from .expert import EXPERT, EXPERT_WORLDS, MODEL, expert_models, expert_searches, model_card

RANDOM, HEURISTIC, PIMC = 0, 1, 2
#: a pimc id carries its parameters: PIMC + (worlds << PIMC_SHIFT) + (contract method
#: << CONTRACTS_SHIFT) + (contract worlds << CWORLDS_SHIFT) + ((PIMC_MAX_TRICKS - tricks)
#: << TRICKS_SHIFT) + (stop << STOP_SHIFT), the method an index into CONTRACT_METHODS
PIMC_SHIFT = 3
WORLDS_MASK = 0x7FF
CONTRACTS_SHIFT = 14
CWORLDS_SHIFT = 16
CWORLDS_MASK = 0x3FFF
TRICKS_SHIFT = 30
#: the tricks field of ``tricks=auto``
TRICKS_AUTO = 31
STOP_SHIFT = 35
STOP_MASK = 0x7F
C_HEURISTIC, C_PLAYOUT, C_SEARCH = 0, 1, 2
from .pimc_params import (CONTRACT_METHODS, PIMC_CONTRACTS, PIMC_MAX_CWORLDS,  # noqa: E402
                          PIMC_MAX_STOP, PIMC_MAX_TRICKS, PIMC_MAX_WORLDS, PIMC_MODEL_TRICKS,
                          PIMC_STOP,
                          PIMC_TRICKS, PIMC_WORLDS, PLAYOUT_WORLDS_PER_WORLD, STOP_MIN_WORLDS)
#: the score of a card the stopping rule dropped (below any deal score)
DROPPED = -1e18
_VHAND = np.array(VARIANT_HAND, dtype=np.int64)
# work rows used here (free while the solver is not running at these depths)
_W_WORLD = SCRATCH + 2          # the sampled world
_W_TOP = SCRATCH + 3            # a world after the candidate card
_VDECK = np.array(VARIANT_DECK, dtype=np.uint64)
_UBQ = np.uint64(BLACK_QUEENS)


@njit(cache=True, inline="always")
def decision_stream(st):
    """A random stream for this decision, derived from the game's stream and the
    decision (cards played, the mover and its hand, the trick): the game's stream
    itself is not advanced."""
    p = st[ST_TO_MOVE]
    z = mix64(np.uint64(st[ST_RNG]) ^ np.uint64(0x5CA1AB1E))
    z = mix64(z ^ np.uint64(st[ST_PLAYED]) * np.uint64(0x9E3779B97F4A7C15))
    z = mix64(z ^ np.uint64(st[ST_HAND + p]) ^ (np.uint64(p) << np.uint64(40))
              ^ (np.uint64(st[ST_TRICK_N]) << np.uint64(44)))
    return z


@njit(cache=True)
def _deal_cards(rng, cards, nc, allowed, room, nseat, out, relax):
    """Deal ``cards[:nc]`` to ``nseat`` seats with ``room[s]`` places each, card i only
    to a seat of the mask ``allowed[i]`` (ignored with ``relax``); most constrained
    card first, each to an allowed seat drawn in proportion to its room.  Returns
    (stream, ok); the masks dealt into ``out[:nseat]``."""
    left = np.empty(8, dtype=np.int64)
    for s in range(nseat):
        left[s] = room[s]
        out[s] = 0
    done = np.zeros(32, dtype=np.bool_)
    for _ in range(nc):
        # the card with the fewest seats that still have room
        bi = -1
        bn = 99
        for i in range(nc):
            if done[i]:
                continue
            k = 0
            for s in range(nseat):
                if left[s] > 0 and (relax or (allowed[i] >> s) & 1):
                    k += 1
            if k < bn:
                bn = k
                bi = i
        if bn == 0:
            return rng, False
        tot = 0
        for s in range(nseat):
            if left[s] > 0 and (relax or (allowed[bi] >> s) & 1):
                tot += left[s]
        rng, x = bounded(rng, tot)
        for s in range(nseat):
            if left[s] > 0 and (relax or (allowed[bi] >> s) & 1):
                if x < left[s]:
                    out[s] |= np.int64(1) << cards[bi]
                    left[s] -= 1
                    break
                x -= left[s]
        done[bi] = True
    return rng, True


@njit(cache=True)
def sample_world(st, seat, rng, world):
    """Write into ``world`` a copy of ``st`` whose cards hidden from ``seat`` are
    re-dealt consistently with what it has seen (module doc); returns the stream."""
    for w in range(STATE_SIZE):
        world[w] = st[w]
    n = st[ST_N]
    played = np.uint64(st[ST_PLAYED])
    deck = _VDECK[st[ST_VARIANT]]
    cards = np.empty(32, dtype=np.int64)
    allowed = np.zeros(32, dtype=np.int64)
    room = np.zeros(8, dtype=np.int64)
    out = np.zeros(8, dtype=np.int64)
    if st[ST_VARIANT] == V_OFFICERS:
        up = np.uint64(st[ST_HAND]) | np.uint64(st[ST_HAND + 1])
        pool = deck & ~played & ~up
        cov = covered_cards(st)
        nc = 0
        m = pool
        while m != U0:
            cards[nc] = lowest_bit(m)
            nc += 1
            m &= m - U1
        # a uniform order of the pool onto the covered cards (ascending)
        for i in range(nc - 1, 0, -1):
            rng, j = bounded(rng, i + 1)
            c = cards[j]
            cards[j] = cards[i]
            cards[i] = c
        for w in range(4):
            world[ST_UNDER + w] = 0
        k = 0
        m = cov
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            wd = ST_UNDER + (c >> 3)
            world[wd] = np.int64(np.uint64(world[wd]) |
                                 (np.uint64(cards[k] + 1) << np.uint64((c & 7) * 8)))
            k += 1
        return rng
    own = np.uint64(st[ST_HAND + seat])
    taker = st[ST_TAKER]
    pool = deck & ~played & ~own
    if taker == seat:
        pool &= ~np.uint64(st[ST_DISCARDS])
    # seats to deal to: the others, then the discards when hidden
    seats = np.empty(8, dtype=np.int64)
    ns = 0
    for q in range(n):
        if q != seat:
            seats[ns] = q
            room[ns] = popcount(np.uint64(st[ST_HAND + q]))
            ns += 1
    pile = -1
    if taker >= 0 and taker != seat and st[ST_DISCARDS] != 0:
        pile = ns
        room[ns] = popcount(np.uint64(st[ST_DISCARDS]))
        ns += 1
    # before the pickup the skat is unseen: dealt too, holding the black queens the
    # taker lacks when the taker samples (the taker rule keeps it the taker)
    skat = -1
    sk_qc = False
    sk_qs = False
    if st[ST_PHASE] == P_PICKUP and st[ST_SKAT] != 0:
        skat = ns
        room[ns] = popcount(np.uint64(st[ST_SKAT]))
        ns += 1
        if taker == seat and (own >> np.uint64(QC)) & U1 == U0:
            sk_qc = True
            sk_qs = (own >> np.uint64(QS)) & U1 == U0
    cbit = np.uint64(st[ST_CBIT])
    decl = st[ST_DECLARER]
    # the skat's taker holds the queen of clubs once it has picked up (module doc)
    qc_to = -1
    if taker >= 0 and taker != seat and st[ST_PHASE] != P_PICKUP:
        for i in range(ns):
            if i != pile and seats[i] == taker:
                qc_to = i
    nc = 0
    m = pool
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        bit = U1 << np.uint64(c)
        a = 0
        for i in range(ns):
            if i == skat:
                a |= 1 << i
            elif i == pile:
                if (bit & _UBQ) == U0 and (bit & cbit) == U0:
                    a |= 1 << i
            else:
                q = seats[i]
                if (np.uint64(st[ST_VOID + q]) & bit) != U0:
                    continue
                if (bit & cbit) != U0 and q == decl:
                    continue
                a |= 1 << i
        if c == QC and qc_to >= 0:
            a = 1 << qc_to
        if (c == QC and sk_qc) or (c == QS and sk_qs):
            a = 1 << skat
        cards[nc] = c
        allowed[nc] = a
        nc += 1
    # a random card order first, so ties in the constraint order fall at random
    for i in range(nc - 1, 0, -1):
        rng, j = bounded(rng, i + 1)
        c = cards[j]
        cards[j] = cards[i]
        cards[i] = c
        a = allowed[j]
        allowed[j] = allowed[i]
        allowed[i] = a
    ok = False
    for attempt in range(33):
        rng, ok = _deal_cards(rng, cards, nc, allowed, room, ns, out, attempt == 32)
        if ok:
            break
    for i in range(ns):
        if i == pile:
            world[ST_DISCARDS] = out[i]
        elif i == skat:
            world[ST_SKAT] = out[i]
        else:
            world[ST_HAND + seats[i]] = out[i]
    # the sides as the world's cards make them
    con = st[ST_CONTRACT]
    if con == WEDDING and st[ST_FIRST_TRICK] == 0 and st[ST_CALLED_BY] < 0:
        t0 = 1 << decl
        for q in range(n):
            if (np.uint64(world[ST_HAND + q]) & cbit) != U0:
                t0 |= 1 << q
        world[ST_TEAM0] = t0
    elif (con == NORMAL or con == QUIET_SOLO) and not (con == QUIET_SOLO and decl == seat):
        hc = st[ST_QC_BY]
        hs = st[ST_QS_BY]
        for q in range(n):
            h = np.uint64(world[ST_HAND + q])
            if (h >> np.uint64(QC)) & U1:
                hc = q
            if (h >> np.uint64(QS)) & U1:
                hs = q
        if hc == hs:
            world[ST_CONTRACT] = QUIET_SOLO
            world[ST_DECLARER] = hc
            world[ST_TEAM0] = 1 << hc
        else:
            world[ST_CONTRACT] = NORMAL
            world[ST_DECLARER] = -1
            world[ST_TEAM0] = (1 << hc) | (1 << hs)
    return rng


@njit(cache=True)
def deal_scores(r, world, seat, table, scratch):
    """``table[cp]``: the deal's score for ``seat`` if the first team of ``world`` ends
    with ``cp`` card points (0..120), by the engine's own scoring of a finished deal
    (each side with a trick: no Schwarz)."""
    n = world[ST_N]
    t0 = world[ST_TEAM0]
    a = -1
    b = -1
    for q in range(n):
        if (t0 >> q) & 1:
            if a < 0:
                a = q
        elif b < 0:
            b = q
    for cp in range(121):
        for w in range(STATE_SIZE):
            scratch[w] = world[w]
        for q in range(n):
            scratch[ST_PTS + q] = 0
            scratch[ST_NTR + q] = 0
        scratch[ST_DISCARDS] = 0
        scratch[ST_PTS + a] = cp
        scratch[ST_NTR + a] = 1
        if b >= 0:
            scratch[ST_NTR + b] = 1
        _score_deal(r, scratch)
        table[cp] = scratch[ST_DELTA + seat]


@njit(cache=True)
def _band_search(r, top, work, table):
    """The card points of the first team from ``top``, narrowed by null-window
    searches (bisecting the card-point totals where ``table``, the score by card
    points, changes) only until the score is known: returns the lowest total with
    that score (the band's lower edge)."""
    return _band_search_from(r, top, work, table, np.int64(-1))


@njit(cache=True)
def _band_search_from(r, top, work, table, guess):
    """``_band_search`` that first tries the band of total ``guess`` (a band's lower
    edge; -1: none): the searches at its upper and lower edges, then bisection of
    whatever is still open.  The answer is the band's lower edge whichever searches
    find it (each one exact), so the guess changes the cost only."""
    lo = 0
    hi = 120
    if guess >= 0:
        # the lower edge of the guess's band in this table (another world's sides
        # may have another table)
        while guess > 0 and table[guess] == table[guess - 1]:
            guess -= 1
        b = guess + 1
        while b <= 120 and table[b] == table[b - 1]:
            b += 1
        if b <= 120:
            if reaches(r, top, work, b):
                lo = b
            else:
                hi = b - 1
        if lo < guess <= hi:
            if reaches(r, top, work, guess):
                lo = guess
            else:
                hi = guess - 1
    marks = np.empty(121, dtype=np.int64)
    while True:
        nb = 0
        for cp in range(lo + 1, hi + 1):
            if table[cp] != table[cp - 1]:
                marks[nb] = cp
                nb += 1
        if nb == 0:
            return lo
        b = marks[nb // 2]
        if reaches(r, top, work, b):
            lo = b
        else:
            hi = b - 1


@njit(cache=True)
def pimc_scores(r, st, worlds, work, acts, score, pts):
    """pimc's search for the seat to move in card play: its legal cards into ``acts``
    (ascending ids), each card's summed deal score over the ``worlds`` sampled worlds
    into ``score`` and its summed card points of the seat's side into ``pts``; returns
    the number of legal cards (one card: nothing searched, zeros)."""
    live = np.empty(16, dtype=np.bool_)
    # np.int64(0), not 0: a literal would compile pimc_scores_stop a second time
    return pimc_scores_stop(r, st, worlds, np.int64(0), work, acts, score, pts, live)


@njit(cache=True)
def pimc_scores_stop(r, st, worlds, z10, work, acts, score, pts, live):
    """``pimc_scores`` with a stopping rule: with ``z10`` > 0, from ``STOP_MIN_WORLDS``
    worlds on, a card stops being searched (``live[i]`` False, its ``score`` then
    ``DROPPED``) once the leader (``pimc_pick``'s choice on the sums so far) beats it by
    more than ``z10 / 10`` standard errors of their paired per-world difference (a
    difference the same in every world so far included; equal in every world: the
    leader keeps its tie-break); the search ends when one card is left.  The cards
    still live have sums over the same worlds.  ``z10 = 0``: every card, every world."""
    seat = st[ST_TO_MOVE]
    legal = legal_cards(st)
    k = 0
    m = legal
    while m != U0:
        acts[k] = lowest_bit(m)
        score[k] = 0.0
        pts[k] = 0.0
        live[k] = True
        k += 1
        m &= m - U1
    if k == 1:
        return k
    world = work[_W_WORLD]
    top = work[_W_TOP]
    scratch = np.empty(STATE_SIZE, dtype=np.int64)
    table = np.empty(121, dtype=np.int64)
    val = np.zeros(16, dtype=np.float64)
    cps = np.zeros(16, dtype=np.float64)
    pair = np.zeros((k, k), dtype=np.float64)
    h = heuristic_play(r, st) if z10 > 0 else -1
    rng = decision_stream(st)
    t0 = -1
    con = -1
    left = k
    # each card's band in the world before: the first guess at its band in this one
    prev = np.full(16, -1, dtype=np.int64)
    for w in range(worlds):
        rng = sample_world(st, seat, rng, world)
        # the score table depends on the world's sides and contract only
        if world[ST_TEAM0] != t0 or world[ST_CONTRACT] != con:
            deal_scores(r, world, seat, table, scratch)
            t0 = world[ST_TEAM0]
            con = world[ST_CONTRACT]
        mine = (world[ST_TEAM0] >> seat) & 1
        for i in range(k):
            if not live[i]:
                continue
            for x in range(STATE_SIZE):
                top[x] = world[x]
            apply_action(r, top, acts[i])
            cp = _band_search_from(r, top, work, table, prev[i])
            prev[i] = cp
            val[i] = table[cp]
            cps[i] = cp if mine else 120 - cp
        for i in range(k):
            if live[i]:
                score[i] += val[i]
                pts[i] += cps[i]
                if z10 > 0:
                    for j in range(k):
                        if live[j]:
                            pair[i, j] += val[i] * val[j]
        if z10 > 0 and w + 1 >= STOP_MIN_WORLDS and w + 1 < worlds:
            left = _drop_clear_losers(acts, score, pts, live, pair, k, w + 1, z10, h)
            if left == 1:
                break
    if z10 > 0:
        for i in range(k):
            if not live[i]:
                score[i] = DROPPED
    return k


@njit(cache=True)
def _drop_clear_losers(acts, score, pts, live, pair, k, n, z10, h):
    """``pimc_scores_stop``'s rule after ``n`` worlds: marks not live every live card
    clearly behind the leader; returns how many are left."""
    b = -1
    for i in range(k):
        if not live[i]:
            continue
        if b < 0 or score[i] > score[b]:
            b = i
        elif score[i] == score[b] and acts[b] != h and (acts[i] == h or pts[i] > pts[b]):
            b = i
    z2 = (z10 / 10.0) ** 2
    left = 0
    for j in range(k):
        if not live[j]:
            continue
        if j != b:
            d = (score[b] - score[j]) / n
            var = max(0.0, (pair[b, b] + pair[j, j] - 2.0 * pair[b, j]) / n - d * d)
            if (d > 0.0 and d * d * (n - 1) > z2 * var) or (d == 0.0 and var <= 1e-9):
                live[j] = False
                continue
        left += 1
    return left


@njit(cache=True)
def pimc_pick(r, st, acts, score, pts, k):
    """pimc's card from ``pimc_scores``' answer: the best summed score; among cards tied
    on it the heuristic's if it is one of them, else the most card points (module doc)."""
    if k == 1:
        return acts[0]
    best = 0
    for i in range(1, k):
        if score[i] > score[best]:
            best = i
    h = heuristic_play(r, st)
    for i in range(k):
        if acts[i] == h and score[i] == score[best]:
            return h
    for i in range(k):
        if score[i] == score[best] and pts[i] > pts[best]:
            best = i
    return acts[best]


@njit(cache=True)
def pimc_choose(r, st, worlds, work):
    """The ``pimc`` player's action for the seat to move (see the module), every card
    searched in every world."""
    return pimc_choose_stop(r, st, worlds, np.int64(0), work)   # typed: one compile


@njit(cache=True)
def pimc_choose_stop(r, st, worlds, z10, work):
    """``pimc_choose`` with ``pimc_scores_stop``'s stopping rule ``z10``."""
    if st[ST_PHASE] != P_PLAY:
        return choose(r, st, HEURISTIC)
    acts = np.empty(16, dtype=np.int64)
    score = np.empty(16, dtype=np.float64)
    pts = np.empty(16, dtype=np.float64)
    live = np.empty(16, dtype=np.bool_)
    k = pimc_scores_stop(r, st, worlds, z10, work, acts, score, pts, live)
    return pimc_pick(r, st, acts, score, pts, k)


@njit(cache=True, inline="always")
def contract_stream(st):
    """The stream of a contract decision: the decision's stream (``decision_stream``)
    mixed with the phase, the Lust Solo calls and the discards so far as the seat to
    move knows them (the taker's own; to the others their number only: the pile is
    hidden from them, and a stream drawn from it would let their choice depend on it)."""
    z = decision_stream(st)
    z = mix64(z ^ (np.uint64(st[ST_PHASE]) << np.uint64(48))
              ^ (np.uint64(st[ST_LUST_N]) << np.uint64(52)))
    d = seen_discards(st, st[ST_TO_MOVE]) | (np.uint64(popcount(np.uint64(st[ST_DISCARDS])))
                                             << np.uint64(40))
    return mix64(z ^ d * np.uint64(0xD1B54A32D192ED03))


@njit(cache=True)
def passes_hold(r, world, seat):
    """Whether every seat other than ``seat`` that has passed the Lust Solo in
    ``world`` would pass by the heuristic's rule with its hand there."""
    if r[R_LUST] == 0:
        return True
    n = world[ST_N]
    lust, _ = solo_thresholds(r, n)
    hs = _VHAND[world[ST_VARIANT]]
    q = world[ST_FOREHAND]
    for _ in range(world[ST_LUST_N]):
        if q != seat and lust_suit(np.uint64(world[ST_HAND + q]), r[R_SOLO_SUITS], hs,
                                   lust) >= 0:
            return False
        q += 1
        if q >= n:
            q = 0
    return True


@njit(cache=True)
def sample_contract_world(r, st, seat, rng, world):
    """A world for a contract decision of ``seat`` (module doc): ``sample_world``'s
    cards, redrawn (up to 16 times) while a seat that passed the Lust Solo would not
    have; the contract words as in ``st``, the Old Ones from the world's cards.
    Returns the stream."""
    for _ in range(16):
        rng = sample_world(st, seat, rng, world)
        if passes_hold(r, world, seat):
            break
    contract_sides(st, world)
    return rng


@njit(cache=True)
def contract_sides(st, world):
    """In a contract phase: the contract words of ``world`` as in ``st`` (the contract
    is made later, from the world's cards), the Old Ones the world's holder of both
    black queens (after the discards)."""
    world[ST_CONTRACT] = st[ST_CONTRACT]
    world[ST_DECLARER] = st[ST_DECLARER]
    world[ST_TEAM0] = st[ST_TEAM0]
    oo = -1
    if st[ST_PHASE] != P_DISCARD and st[ST_PHASE] != P_PICKUP:
        for q in range(st[ST_N]):
            if (np.uint64(world[ST_HAND + q]) & _UBQ) == _UBQ:
                oo = q
    world[ST_OLD_ONES] = oo


@njit(cache=True)
def search_value(r, s, seat, work, table, scratch, tmp):
    """The deal's score for ``seat`` from ``s`` (the start of card play) with all cards
    open, found at the tariff's score bands (``_band_search``).  A first-trick wedding
    is scored as a two-seat side (the partner the first trick finds: a seat other
    than ``seat`` when ``seat`` is not the declarer)."""
    if s[ST_FIRST_TRICK] != 0 and s[ST_TEAMS_PUBLIC] == 0:
        for w in range(STATE_SIZE):
            tmp[w] = s[w]
        d = s[ST_DECLARER]
        q = 0
        while q == d or q == seat:
            q += 1
        tmp[ST_TEAM0] = (1 << d) | (1 << q)
        deal_scores(r, tmp, seat, table, scratch)
    else:
        deal_scores(r, s, seat, table, scratch)
    return table[_band_search(r, s, work, table)]


@njit(cache=True)
def playout_value(r, s, seat):
    """The deal's score for ``seat`` once the heuristic has played ``s`` out (every
    seat, contracts and cards)."""
    while s[ST_PHASE] != P_DONE:
        apply_action(r, s, heuristic_action(r, s))
    return s[ST_DELTA + seat]


@njit(cache=True)
def pimc_contract(r, st, nw, method, work):
    """The ``pimc`` player's contract decision (discards, Lust Solo, Old Ones) by the
    ``method`` (``C_HEURISTIC``, ``C_PLAYOUT``, ``C_SEARCH``; module doc) over ``nw``
    sampled worlds."""
    ph = st[ST_PHASE]
    if method == C_HEURISTIC or ph == P_PICKUP or ph == P_PLAY or ph == P_DONE:
        return choose(r, st, HEURISTIC)
    seat = st[ST_TO_MOVE]
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    k = legal_actions(r, st, acts)
    if k == 1:
        return acts[0]
    h = heuristic_action(r, st)
    # the first discard is tried with the heuristic's second discard after it
    second = np.full(k, -1, dtype=np.int64)
    if ph == P_DISCARD and st[ST_DISCARDS] == 0:
        hand = np.uint64(st[ST_HAND + seat])
        for i in range(k):
            second[i] = A_DISCARD + discard_card(hand & ~(U1 << np.uint64(acts[i] - A_DISCARD)))
    score = np.zeros(k, dtype=np.float64)
    world = np.empty(STATE_SIZE, dtype=np.int64)
    top = np.empty(STATE_SIZE, dtype=np.int64)
    scratch = np.empty(STATE_SIZE, dtype=np.int64)
    tmp = np.empty(STATE_SIZE, dtype=np.int64)
    table = np.empty(121, dtype=np.int64)
    by_partner = np.empty(4, dtype=np.int64)
    known = np.zeros(4, dtype=np.bool_)
    n = st[ST_N]
    rng = contract_stream(st)
    for _ in range(nw):
        rng = sample_contract_world(r, st, seat, rng, world)
        for q in range(4):
            known[q] = False
        for i in range(k):
            a = acts[i]
            partner = -1
            if method == C_SEARCH and a >= A_WEDDING:
                cb = U1 << np.uint64(a - A_WEDDING)
                for q in range(n):
                    if (np.uint64(world[ST_HAND + q]) & cb) != U0:
                        partner = q
                if partner >= 0 and known[partner]:
                    score[i] += by_partner[partner]
                    continue
            for w in range(STATE_SIZE):
                top[w] = world[w]
            apply_action(r, top, a)
            if second[i] >= 0:
                apply_action(r, top, second[i])
            if method == C_PLAYOUT:
                v = playout_value(r, top, seat)
            else:
                while top[ST_PHASE] != P_PLAY:
                    apply_action(r, top, heuristic_action(r, top))
                v = search_value(r, top, seat, work, table, scratch, tmp)
            if partner >= 0:
                by_partner[partner] = v
                known[partner] = True
            score[i] += v
    best = 0
    for i in range(1, k):
        if score[i] > score[best]:
            best = i
    for i in range(k):
        if acts[i] == h and score[i] == score[best]:
            return h
    return acts[best]


@njit(cache=True, inline="always")
def expert_choose(r, st, work):
    """The ``expert`` player's action (expert.py): pimc's search over EXPERT_WORLDS
    worlds in the last tricks, the learned card scorer before them (Wendish four), the
    heuristic elsewhere."""
    if expert_searches(st):
        return pimc_choose(r, st, np.int64(EXPERT_WORLDS), work)   # typed: one compile
    if expert_models(st):
        return model_card(r, st, MODEL)
    return heuristic_action(r, st)


def policy_searches(pid) -> bool:
    """Whether the kernel policy id ``pid`` searches (``pimc``, ``expert``): it plays
    through ``choose_w`` with the solver's work array, the others through ``choose``."""
    return pid & 7 == PIMC or pid == EXPERT


#: ``policy_searches`` for kernels
searches = njit(cache=True, inline="always")(policy_searches)


@njit(cache=True, inline="always")
def choose_w(r, st, pid, work):
    """``choose`` for every policy, ``pimc`` and ``expert`` included (``work``:
    ``solver.new_work()``).  ``pimc``'s card play searches once at most ``tricks``
    tricks of the deal are left (its parameter; ``auto``: PIMC_MODEL_TRICKS in four,
    every trick elsewhere), the expert's choice
    before; it stops searching a card by its ``stop`` (``pimc_scores_stop``)."""
    if pid == EXPERT:
        return expert_choose(r, st, work)
    if pid & 7 == PIMC:
        if st[ST_PHASE] == P_PLAY:
            f = (pid >> TRICKS_SHIFT) & 31
            tricks = PIMC_MAX_TRICKS - f
            if f == TRICKS_AUTO:
                # four only: the variant where leaving the first tricks to the expert
                # was measured level with the full search (docs/wendish.md)
                tricks = PIMC_MODEL_TRICKS if st[ST_VARIANT] == V_FOUR else PIMC_MAX_TRICKS
            if st[ST_NTRICKS] - st[ST_TRICKS_DONE] > tricks:
                return expert_choose(r, st, work)
            return pimc_choose_stop(r, st, (pid >> PIMC_SHIFT) & WORLDS_MASK,
                                    (pid >> STOP_SHIFT) & STOP_MASK, work)
        return pimc_contract(r, st, (pid >> CWORLDS_SHIFT) & CWORLDS_MASK,
                             (pid >> CONTRACTS_SHIFT) & 3, work)
    return choose(r, st, pid)


@njit(cache=True)
def py_choose_w(r, st, pid, work):
    """``choose_w`` as one compiled call: from Python, and from a kernel that should
    not inline the whole search (``hand.play_hands``: numba then compiles the search
    once, here, not again inside the caller; the cheap policies stay inlined there)."""
    return choose_w(r, st, pid, work)


_PIMC_HELP = (f"allowed: pimc, or pimc:worlds=N,contracts=M,cworlds=K,tricks=T,stop=Z "
              f"(any of them; N from 1 to {PIMC_MAX_WORLDS}, default {PIMC_WORLDS}; M one "
              f"of {', '.join(CONTRACT_METHODS)}, default {PIMC_CONTRACTS}; K worlds per "
              f"contract decision, 1 to {PIMC_MAX_CWORLDS}, default N for search, "
              f"{PLAYOUT_WORLDS_PER_WORLD} N for playout; T the last tricks of a deal "
              f"searched, 1 to {PIMC_MAX_TRICKS} ({PIMC_MAX_TRICKS}: every card) or auto "
              f"({PIMC_MODEL_TRICKS} in four, the expert's learned scorer playing the "
              f"tricks before, every trick elsewhere), default {PIMC_TRICKS}; Z a card's "
              "search stopped once it is Z tenths of a standard "
              f"error behind the best, 0 to {PIMC_MAX_STOP} (0: never), default "
              f"{PIMC_STOP}; e.g. pimc:worlds=16,contracts=search)")


def _tricks_field(tricks):
    """The id's field of ``tricks`` (a number or ``auto``)."""
    return TRICKS_AUTO if tricks == "auto" else PIMC_MAX_TRICKS - tricks


def _default_cworlds(worlds, method):
    """Worlds per contract decision when ``cworlds`` is not given."""
    return worlds * PLAYOUT_WORLDS_PER_WORLD if method == "playout" else worlds


def parse_policy(name: str) -> int:
    """The kernel id of a policy name: ``random``, ``heuristic``, ``pimc`` or
    ``pimc:worlds=N,contracts=M,cworlds=K,tricks=T,stop=Z`` (parameters separated by
    ``,`` or ``;``, any may be left out; N from 1 to PIMC_MAX_WORLDS, M one of
    CONTRACT_METHODS, K from 1 to PIMC_MAX_CWORLDS, T from 1 to PIMC_MAX_TRICKS, Z from 0
    to PIMC_MAX_STOP); ValueError naming what is allowed."""
    plain = ("random", "heuristic")
    if name in plain:
        return plain.index(name)
    if name == "expert":
        return EXPERT
    if name == "pimc" or name.startswith("pimc:"):
        worlds = PIMC_WORLDS
        method = PIMC_CONTRACTS
        cworlds = None
        tricks = PIMC_TRICKS
        stop = PIMC_STOP
        for part in filter(None, name[5:].replace(";", ",").split(",")):
            key, _, val = part.partition("=")
            if key == "worlds" and val.isdigit() and 1 <= int(val) <= PIMC_MAX_WORLDS:
                worlds = int(val)
            elif key == "contracts" and val in CONTRACT_METHODS:
                method = val
            elif key == "cworlds" and val.isdigit() and 1 <= int(val) <= PIMC_MAX_CWORLDS:
                cworlds = int(val)
            elif key == "tricks" and (val == "auto" or val.isdigit() and
                                      1 <= int(val) <= PIMC_MAX_TRICKS):
                tricks = val if val == "auto" else int(val)
            elif key == "stop" and val.isdigit() and 0 <= int(val) <= PIMC_MAX_STOP:
                stop = int(val)
            else:
                raise ValueError(f"bad pimc parameter '{part}'; {_PIMC_HELP}")
        if cworlds is None:
            cworlds = _default_cworlds(worlds, method)
        return (PIMC + (worlds << PIMC_SHIFT)
                + (CONTRACT_METHODS.index(method) << CONTRACTS_SHIFT)
                + (cworlds << CWORLDS_SHIFT) + (_tricks_field(tricks) << TRICKS_SHIFT)
                + (stop << STOP_SHIFT))
    raise ValueError(f"unknown policy '{name}'; policies: {', '.join(plain)}, expert, "
                     f"pimc[:worlds=N,contracts=M,tricks=T,stop=Z] (default {PIMC_WORLDS} "
                     f"worlds, contracts by {PIMC_CONTRACTS}, the last {PIMC_TRICKS} tricks "
                     f"searched, stop={PIMC_STOP})")


def policy_name(pid: int) -> str:
    """The canonical name of a kernel id: ``pimc:worlds=N`` for pimc, with
    ``,contracts=M`` when M is not the default method, ``,cworlds=K`` when K is not
    the default for N and M, ``,tricks=T`` and ``,stop=Z`` when not the default."""
    pid = int(pid)
    if pid == EXPERT:
        return "expert"
    if pid & 7 != PIMC:
        return ("random", "heuristic")[pid]
    worlds = (pid >> PIMC_SHIFT) & WORLDS_MASK
    method = CONTRACT_METHODS[(pid >> CONTRACTS_SHIFT) & 3]
    cworlds = (pid >> CWORLDS_SHIFT) & CWORLDS_MASK
    f = (pid >> TRICKS_SHIFT) & 31
    tricks = "auto" if f == TRICKS_AUTO else PIMC_MAX_TRICKS - f
    stop = (pid >> STOP_SHIFT) & STOP_MASK
    name = f"pimc:worlds={worlds}"
    if method != PIMC_CONTRACTS:
        name += f",contracts={method}"
    if method != "heuristic" and cworlds != _default_cworlds(worlds, method):
        name += f",cworlds={cworlds}"
    if tricks != PIMC_TRICKS:
        name += f",tricks={tricks}"
    if stop != PIMC_STOP:
        name += f",stop={stop}"
    return name


def uses_search(pids) -> bool:
    """Whether any of the kernel ids needs the solver's scratch space (pimc, expert)."""
    return any(policy_searches(int(p)) for p in pids)
