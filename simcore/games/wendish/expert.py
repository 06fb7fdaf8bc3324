"""Wendish Schafkopf's ``expert`` player: the heuristic's contracts and discards, a
learned card scorer for the early tricks (one per variant), and ``pimc``'s search over a
few sampled worlds for the last tricks.

Over the last ``EXPERT_TRICKS[variant]`` tricks of a deal (2 in four, 3 in the others)
few cards are left, so the open-card solver answers a world in microseconds: there
(``expert_searches``) the expert plays ``pimc.pimc_choose`` with ``EXPERT_WORLDS``
worlds (worlds consistent with what its seat saw: voids, the discards it took,
Officers' face-down cards unseen; see pimc.py).
Before that it plays the legal card with the highest score of a bilinear model learned
from ``pimc``'s choices (``card_features``, ``model_card``; the weights
``expert_wendish_<variant>.npy`` next to this file, one for four, three and officers,
three_sharp playing three's; rebuilt by ``benchmarks/train_expert_wendish.py
--variant V``). Every contract decision (the pickup, the discards, the Lust Solo round,
the Old Ones' choice) it plays as ``heuristic`` (policies.py). The dispatch is
``pimc.choose_w``. It reads only what its seat sees.

The model: a card's score is ``f @ W @ x + sum_j o_j max(0, c_j @ x + a_j @ f)`` (a
bilinear term and a one-layer network of at most N_HIDDEN units, packed into one
MODEL_SHAPE array; a variant's file may have fewer units or none), ``x`` the
decision's context (N_CONTEXT
numbers: the seat's place in the trick, the trick's points, who holds it and whether
that holds, the sides as the seat knows them and their card points, who is still to
play, trumps in and out of its hand, the contract as the seat sees it; Officers: the
face-up cards of each seat that lie on a face-down one) and ``f`` the card's features
(N_CARD numbers: the heuristic's choice or not, trump, rank, points, whether it takes
the trick now and holds it, whether a higher card of its suit is out, the cards of its
suit in the hand and outside, known voids of foes and friends in its suit; Officers:
whether playing it turns a face-down card up and, on lead, how the foe's face-up cards,
from which it must answer, can answer it); ``card_features`` lists them. The weights
were fitted to pimc's choices (a conditional logit over the legal cards with a softmax
of pimc's values as the target; the bilinear part first, then the hidden units; see
the training script).
"""
from pathlib import Path

import numpy as np
from numba import njit

from ...bits import U0, U1, lowest_bit, popcount
from .cards import CARD_POINTS, FOLLOW_MASK, POWER, QC, QS, TRUMP_MASK, V_OFFICERS
from .engine import (P_PLAY, QUIET_SOLO, SOLO, ST_HAND, ST_NTRICKS, ST_PHASE, ST_PTS,
                     ST_TRICK_PTS, ST_TRICKS_DONE, ST_VARIANT, ST_VOID, WEDDING,
                     covered_cards, seen_contract)
from .pimc_params import EXPERT_SEARCH_TRICKS, EXPERT_WORLDS  # noqa: F401 (re-exported)
from .policies import ABOVE, _beats, _keep_value, heuristic_card, seat_view

#: the kernel id of ``expert`` (``pid & 7`` is not pimc's)
EXPERT = 3
#: the last tricks of a deal searched, by variant id (cards.V_FOUR ...), and the worlds
#: sampled per decision there (pimc_params.py, which ``tricksim rules`` reads)
EXPERT_TRICKS = np.array(EXPERT_SEARCH_TRICKS, dtype=np.int64)
#: sizes of the model's context and card feature vectors (``card_features``)
N_CONTEXT = 24
N_CARD = 23
#: hidden units of the model's one-layer network at most, and the weight array's shape:
#: rows 0..N_CARD-1 the bilinear W (first N_CONTEXT columns); row N_CARD+j hidden unit
#: j: its context weights (N_CONTEXT, the bias on the constant context 1), its card
#: weights (N_CARD) and its output weight (the last column, OUT)
N_HIDDEN = 16
MODEL_SHAPE = (N_CARD + N_HIDDEN, N_CONTEXT + N_CARD + 1)
OUT = N_CONTEXT + N_CARD
#: the most legal cards of a decision (a hand of Officers' 16 face-up and hidden cards)
MAX_CARDS = 16
#: the variants by kernel id (cards.V_FOUR ...), and the one whose model each plays
VARIANTS = ("four", "three", "three_sharp", "officers")
MODEL_OF = {"four": "four", "three": "three", "three_sharp": "three",
            "officers": "officers"}


def model_file(variant):
    """The learned weights the package ships for ``variant`` (one of VARIANTS)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant '{variant}'; variants: {', '.join(VARIANTS)}")
    return Path(__file__).resolve().parent / f"expert_wendish_{MODEL_OF[variant]}.npy"


MODEL_FILE = model_file("four")


def load_model(path=MODEL_FILE):
    """The learned weights of one variant from ``path`` as a MODEL_SHAPE float64 array
    (module doc): a file of N_CARD + h rows (0 <= h <= N_HIDDEN hidden units) and
    MODEL_SHAPE[1] columns, or a bilinear model's N_CARD x N_CONTEXT, is padded with
    zeros (a unit whose output weight is 0 adds nothing and is skipped); ValueError for
    any other shape or type."""
    w = np.load(path)
    ok = w.dtype == np.float64 and w.ndim == 2 and (
        w.shape == (N_CARD, N_CONTEXT) or
        (w.shape[1] == MODEL_SHAPE[1] and N_CARD <= w.shape[0] <= MODEL_SHAPE[0]))
    if not ok:
        raise ValueError(f"{path}: expected float64 weights of shape {(N_CARD, N_CONTEXT)} "
                         f"or (N_CARD + h, {MODEL_SHAPE[1]}) with h <= {N_HIDDEN}, "
                         f"got {w.dtype} {w.shape}")
    out = np.zeros(MODEL_SHAPE)
    out[:w.shape[0], :w.shape[1]] = w
    return out


#: every variant's weights, MODEL[variant id] (cards.V_FOUR ...), read once at import; a
#: compiled kernel holds them as a constant (the numba cache is keyed by the package's
#: sources and these files: simcore/_cache.py)
MODEL = np.stack([load_model(model_file(v)) for v in VARIANTS])


@njit(cache=True, inline="always")
def expert_searches(st):
    """Whether the expert searches this decision (card play in the last tricks)."""
    return (st[ST_PHASE] == P_PLAY and
            st[ST_NTRICKS] - st[ST_TRICKS_DONE] <= EXPERT_TRICKS[st[ST_VARIANT]])


@njit(cache=True, inline="always")
def expert_models(st):
    """Whether the expert plays this decision by the learned model (card play before
    the searched tricks)."""
    return st[ST_PHASE] == P_PLAY


@njit(cache=True)
def card_features(r, st, acts, feats, ctx):
    """The model's inputs for the seat to move in card play, from what it sees: its
    legal cards (ascending ids) into ``acts``, their features into ``feats[i, :N_CARD]``
    and the decision's context into ``ctx[:N_CONTEXT]``; returns the number of legal
    cards. Every value is 0/1 or scaled to about [0, 1] (see the inline list)."""
    (p, n, t, hand, legal, pos, lead_card, win_card, win_seat, friends, foes, declaring,
     rest, outside) = seat_view(st)
    tm = TRUMP_MASK[t]
    contract = seen_contract(st, p)
    trick_pts = st[ST_TRICK_PTS]
    h = heuristic_card(t, legal, hand, outside, pos, n, lead_card, win_card, win_seat,
                       trick_pts, rest, friends, foes, declaring)
    friend_wins = pos > 0 and ((friends >> np.uint64(win_seat)) & U1) != U0
    foe_wins = pos > 0 and ((foes >> np.uint64(win_seat)) & U1) != U0
    rest_friendly = (rest & ~friends) == U0
    others = np.uint64((1 << n) - 1) & ~(U1 << np.uint64(p))
    # the context
    ctx[0] = 1.0
    for i in range(4):
        ctx[1 + i] = 1.0 if pos == i else 0.0
    ctx[5] = trick_pts / 10.0
    ctx[6] = 1.0 if friend_wins else 0.0
    ctx[7] = 1.0 if foe_wins else 0.0
    ctx[8] = 1.0 if rest_friendly else 0.0
    ctx[9] = 1.0 if pos > 0 and (outside & ABOVE[t, win_card]) == U0 else 0.0
    ctx[10] = 1.0 if declaring else 0.0
    ctx[11] = 1.0 if (friends | foes) == others else 0.0
    ctx[12] = st[ST_TRICKS_DONE] / 8.0
    ctx[13] = popcount(hand & tm) / 8.0
    ctx[14] = popcount(outside & tm) / 14.0
    ctx[15] = 1.0 if contract == SOLO or contract == QUIET_SOLO else 0.0
    ctx[16] = 1.0 if contract == WEDDING else 0.0
    own = 0
    their = 0
    for q in range(n):
        b = U1 << np.uint64(q)
        if q == p or (friends & b) != U0:
            own += st[ST_PTS + q]
        elif (foes & b) != U0:
            their += st[ST_PTS + q]
    ctx[17] = own / 120.0
    ctx[18] = their / 120.0
    ctx[19] = 1.0 if (rest & friends) != U0 else 0.0       # a friend plays after me
    ctx[20] = 1.0 if (rest & foes) != U0 else 0.0          # a foe plays after me
    ctx[21] = 1.0 if (rest & ~friends & ~foes) != U0 else 0.0
    officers = st[ST_VARIANT] == V_OFFICERS
    covered = U0
    foe_up = U0
    if officers:
        covered = covered_cards(st)         # public: face-up cards on a face-down one
        foe_up = np.uint64(st[ST_HAND + 1 - p])     # the foe's face-up cards (public)
        ctx[22] = popcount(covered & hand) / 8.0
        ctx[23] = popcount(covered & foe_up) / 8.0
    else:
        ctx[22] = 0.0
        ctx[23] = 0.0
    # the cards
    k = 0
    m = legal
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        bit = U1 << np.uint64(c)
        grp = FOLLOW_MASK[t, c]
        trump = (bit & tm) != U0
        wins = pos == 0 or _beats(t, lead_card, win_card, c)
        top = (outside & grp & ABOVE[t, c]) == U0
        mine = hand & grp
        foe_void = 0
        friend_void = 0
        for q in range(n):
            if q != p and (np.uint64(st[ST_VOID + q]) & grp) != U0:
                if ((friends >> np.uint64(q)) & U1) != U0:
                    friend_void += 1
                else:
                    foe_void += 1
        f = feats[k]
        f[0] = 1.0 if c == h else 0.0                           # the heuristic's card
        f[1] = 1.0 if trump else 0.0
        f[2] = (POWER[t, c] - 16) / 13.0 if trump else POWER[t, c] / 5.0
        f[3] = CARD_POINTS[c] / 11.0
        f[4] = 1.0 if wins else 0.0                             # holds the trick now
        f[5] = 1.0 if wins and pos > 0 and (rest_friendly or
                                            (outside & ABOVE[t, c]) == U0) else 0.0
        f[6] = 1.0 if top else 0.0                              # no higher card outside
        f[7] = 1.0 if not trump and CARD_POINTS[c] == 11 else 0.0
        f[8] = popcount(mine) / 8.0
        f[9] = 1.0 if not trump and popcount(mine) == 1 else 0.0    # leaves a void
        f[10] = popcount(outside & grp) / 8.0
        f[11] = 1.0 if (mine & ABOVE[t, c] & ~bit) == mine & ~bit and \
            popcount(mine) > 1 else 0.0                         # the lowest of its suit
        f[12] = 1.0 if (mine & ABOVE[t, c]) == U0 and popcount(mine) > 1 else 0.0
        f[13] = CARD_POINTS[c] / 11.0 if wins else 0.0
        f[14] = 1.0 if c == QC or c == QS else 0.0
        f[15] = foe_void / 3.0                              # known voids in its suit
        f[18] = friend_void
        f[16] = popcount(outside & grp & ABOVE[t, c]) / 8.0
        f[17] = _keep_value(t, c) / 30.0
        if officers:
            f[19] = 1.0 if (covered & bit) != U0 else 0.0       # turns a card up
            f[20] = 0.0
            f[21] = 0.0
            f[22] = 0.0
            if pos == 0:
                # the foe answers a lead from its face-up cards (public): those of the
                # led suit, any when it has none
                ans = foe_up & grp
                if ans == U0:
                    ans = foe_up
                lo = 11
                hi = -1
                a = ans
                while a != U0:
                    d = lowest_bit(a)
                    a &= a - U1
                    lo = min(lo, CARD_POINTS[d])
                    if _beats(t, c, c, d):
                        hi = max(hi, CARD_POINTS[d])
                f[20] = 1.0 if hi >= 0 else 0.0                 # the foe can take it
                f[21] = lo / 11.0 if ans != U0 else 0.0         # the least it adds
                f[22] = hi / 11.0 if hi >= 0 else 0.0           # the most it takes with
        else:
            for a in range(19, N_CARD):
                f[a] = 0.0
        acts[k] = c
        k += 1
    return k


@njit(cache=True, inline="always")
def model_card(r, st, models):
    """The legal card with the highest score (module doc: ``f @ W @ x`` plus the hidden
    units' ``sum_j o_j relu(c_j @ x + a_j @ f)``; the first on a tie) for the seat to
    move in card play, the weights ``models[variant]`` (MODEL's shape)."""
    w = models[st[ST_VARIANT]]
    acts = np.empty(MAX_CARDS, dtype=np.int64)
    feats = np.empty((MAX_CARDS, N_CARD), dtype=np.float64)
    ctx = np.empty(N_CONTEXT, dtype=np.float64)
    k = card_features(r, st, acts, feats, ctx)
    if k == 1:
        return acts[0]
    # the context's numbers that are not 0 (about half are 0): the sums skip the rest
    cz = np.empty(N_CONTEXT, dtype=np.int64)
    mc = 0
    for b in range(N_CONTEXT):
        if ctx[b] != 0.0:
            cz[mc] = b
            mc += 1
    v = np.zeros(N_CARD, dtype=np.float64)
    for a in range(N_CARD):
        s = 0.0
        for q in range(mc):
            s += w[a, cz[q]] * ctx[cz[q]]
        v[a] = s
    # the hidden units in use (output weight not 0) and their context part
    units = np.empty(N_HIDDEN, dtype=np.int64)
    hc = np.empty(N_HIDDEN, dtype=np.float64)
    nu = 0
    for j in range(N_CARD, w.shape[0]):
        if w[j, OUT] != 0.0:
            s = 0.0
            for q in range(mc):
                s += w[j, cz[q]] * ctx[cz[q]]
            units[nu] = j
            hc[nu] = s
            nu += 1
    best = 0
    bs = -1e300
    nz = np.empty(N_CARD, dtype=np.int64)
    for i in range(k):
        # the card's features that are not 0 (most are 0/1 and about half are 0)
        m = 0
        s = 0.0
        for a in range(N_CARD):
            if feats[i, a] != 0.0:
                nz[m] = a
                m += 1
                s += feats[i, a] * v[a]
        for u in range(nu):
            j = units[u]
            h = hc[u]
            for q in range(m):
                h += w[j, N_CONTEXT + nz[q]] * feats[i, nz[q]]
            if h > 0.0:
                s += w[j, OUT] * h
        if s > bs:
            bs = s
            best = i
    return acts[best]
