"""Wendish Schafkopf open-card solver and the ``pimc`` player's card search.

Solver
------
``solve(r, st, work)`` is the card play of the deal in ``st`` (phase ``P_PLAY``)
with every hand open and the sides as the state has them, under best play by
both sides: the final card points of the first team (``ST_TEAM0``, the
declaring side: the black queens' pair, the wedding pair or lone caller, the
soloist; Officers: the non-dealer), the discards included when their taker is
on that side, exactly the ``ST_CP0`` the engine scores.  The seats of the first
team maximise it, the others minimise it.  In a ``wedding first_trick`` whose
partner is not found yet a seat counts as an opponent until a trick it wins
makes it the partner (the engine then counts its points for the first team).

It is an alpha-beta search over the engine's own kernels (``legal_cards``,
``apply_action`` on rows of a preallocated stack: copying a row is the undo),
with

* move ordering: on lead high trumps and aces first; following, a card that
  takes a foe's trick cheaply first, points onto a partner's trick, else the
  cheapest card;
* equivalent cards merged: of cards of one hand that follow alike (trumps, or
  one plain suit), carry the same card points and have no card of another
  hand or of the current trick between them in trick power, only the highest
  is searched (the called card and, in Officers, a card lying on a face-down
  card are never merged: they change more than the trick);
* bounds: at a trick's start the first team ends between the points it has and
  all the points still out;
* the exact value by null-window searches bisecting the range 0..120 (each
  fail-soft result narrows it), ``reaches`` being one such search;
* a transposition table at the start of each trick (key: the hands, who
  leads, the sides, trump, the called card, Officers' face-down cards), holding
  bounds on the card points still to come, with the best card; not used while
  a first-trick wedding's partner is open (the sides are still changing).

``minimax(r, st, work)`` is the same value by plain minimax over every legal
card in engine order (tests compare the two).
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, lowest_bit, mix64, popcount
from .cards import BLACK_QUEENS, CARD_POINTS, FOLLOW_MASK, POWER, QC, QS, V_OFFICERS, \
    VARIANT_DECK
from .engine import (P_DONE, P_PLAY, STATE_SIZE, ST_CBIT, ST_CP0, ST_DISCARDS, ST_ELIG,
                     ST_FIRST_TRICK, ST_HAND, ST_N, ST_PHASE, ST_PTS, ST_TAKER, ST_TEAM0,
                     ST_TEAMS_PUBLIC, ST_TMASK, ST_TO_MOVE, ST_TRICK, ST_TRICK_N,
                     ST_TRICK_PTS, ST_TRUMP, ST_UNDER, ST_VARIANT, ST_WIN_POW, ST_WIN_SEAT,
                     apply_action, legal_cards, under_card)

#: the words a search step reads and changes: from the phase to the tricks taken
#: (the header before them and Officers' face-down cards after them stay as the root
#: has them; the result words, the cards played by seat and the voids are written
#: by the kernels but never read by the search)
FIRST_WORD = 14
LAST_WORD = ST_UNDER
MAX_DEPTH = 33          # cards in a deal (32) and the root
W_COLS = 128
# work rows: 0..MAX_DEPTH states, then MAX_DEPTH+1 rows of move lists, 2 scratch rows,
# then the transposition table (64 entries a row: key, packed)
MOVES = MAX_DEPTH + 1
SCRATCH = 2 * MAX_DEPTH + 2
TT_BASE = SCRATCH + 4
TT_ROWS = 1024
TT_MASK = TT_ROWS * 64 - 1
EXACT, LOWER, UPPER = 0, 1, 2
INF = 1000


def new_work():
    """A solver's scratch space (state stack, move lists, transposition table)."""
    return np.zeros((TT_BASE + TT_ROWS, W_COLS), dtype=np.int64)


@njit(cache=True, inline="always")
def new_work_rows(search):
    """Rows of a solver's scratch space (1 when no player searches)."""
    return TT_BASE + TT_ROWS if search else 1


@njit(cache=True, inline="always")
def team_points(st):
    """Card points the first team has now (tricks won by its seats, and the discards
    when their taker is one of them): what the rest of the deal adds to."""
    team0 = st[ST_TEAM0]
    v = 0
    for p in range(st[ST_N]):
        if (team0 >> p) & 1:
            v += st[ST_PTS + p]
    taker = st[ST_TAKER]
    if taker >= 0 and (team0 >> taker) & 1:
        m = np.uint64(st[ST_DISCARDS])
        while m != U0:
            v += CARD_POINTS[lowest_bit(m)]
            m &= m - U1
    return v


@njit(cache=True, inline="always")
def taken_points(st):
    """Card points out of play so far: every trick taken, and the discards."""
    v = 0
    for p in range(st[ST_N]):
        v += st[ST_PTS + p]
    m = np.uint64(st[ST_DISCARDS])
    while m != U0:
        v += CARD_POINTS[lowest_bit(m)]
        m &= m - U1
    return v


@njit(cache=True, inline="always")
def _sides_fixed(st):
    return st[ST_FIRST_TRICK] == 0 or st[ST_TEAMS_PUBLIC] != 0


@njit(cache=True, inline="always")
def _key(st):
    """Hash of what decides the rest of the deal at a trick's start (never 0)."""
    n = st[ST_N]
    h = np.uint64(st[ST_TO_MOVE] + 8 * st[ST_TEAM0] + 256 * st[ST_TRUMP])
    h = mix64(h ^ (np.uint64(st[ST_CBIT]) << np.uint64(16)))
    for p in range(n):
        h = mix64(h ^ np.uint64(st[ST_HAND + p]) ^ (np.uint64(p) << np.uint64(58)))
    if st[ST_VARIANT] == V_OFFICERS:
        for w in range(4):
            h = mix64(h ^ np.uint64(st[ST_UNDER + w]))
    return np.int64(h | U1)


def _class_order():
    """[t]: every card grouped by how it follows (the trumps, then each plain suit),
    each group strongest first; [t, 32 + i]: the group of the i-th card."""
    out = np.zeros((4, 64), dtype=np.int64)
    for t in range(4):
        groups = [[c for c in range(32) if int(FOLLOW_MASK[t, c]) == int(FOLLOW_MASK[t, x])]
                  for x in range(32)]
        seen = []
        for g in groups:
            if g not in seen:
                seen.append(g)
        seen.sort(key=lambda g: -max(POWER[t, c] for c in g) - (100 if len(g) > 8 else 0))
        i = 0
        for k, g in enumerate(seen):
            for c in sorted(g, key=lambda c: -POWER[t, c]):
                out[t, i] = c
                out[t, 32 + i] = k
                i += 1
    return out


#: see ``_class_order``
CLASS_ORDER = _class_order()


@njit(cache=True, inline="always")
def _mergeable(st, c, officers):
    if np.uint64(st[ST_CBIT]) == (U1 << np.uint64(c)):
        return False
    if officers and under_card(st, c) >= 0:
        return False
    return True


@njit(cache=True, inline="always")
def _moves(st, out, keys):
    """The cards to search for the seat to move into ``out`` (equivalent ones merged:
    of a run of cards of this hand that follow alike, with equal card points and no
    card still in play between them, only the strongest), best guess first; returns
    how many."""
    p = st[ST_TO_MOVE]
    n = st[ST_N]
    t = st[ST_TRUMP]
    officers = st[ST_VARIANT] == V_OFFICERS
    legal = legal_cards(st)
    alive = U0
    for q in range(n):
        alive |= np.uint64(st[ST_HAND + q])
    tn = st[ST_TRICK_N]
    for i in range(tn):
        alive |= U1 << np.uint64(st[ST_TRICK + i])
    if officers:
        # the face-down cards are in play too
        m = alive
        while m != U0:
            u = under_card(st, lowest_bit(m))
            m &= m - U1
            if u >= 0:
                alive |= U1 << np.uint64(u)
    team0 = st[ST_TEAM0]
    mine = (team0 >> p) & 1
    friend = False
    if tn > 0:
        friend = ((team0 >> st[ST_WIN_SEAT]) & 1) == mine
    win_pow = st[ST_WIN_POW]
    elig = np.uint64(st[ST_ELIG])
    tpts = st[ST_TRICK_PTS]
    order = CLASS_ORDER[t]
    k = 0
    prev = -1            # the last card in play of this group, if it is a legal mergeable one
    group = -1
    for i in range(32):
        c = order[i]
        bit = U1 << np.uint64(c)
        if (alive & bit) == U0:
            continue
        if order[32 + i] != group:
            group = order[32 + i]
            prev = -1
        if (legal & bit) == U0:
            prev = -1
            continue
        ok = _mergeable(st, c, officers)
        pts = CARD_POINTS[c]
        if prev >= 0 and ok and CARD_POINTS[prev] == pts:
            continue
        prev = c if ok else -1
        pc = POWER[t, c]
        if tn == 0:
            kk = pc * 4 + pts
        else:
            beats = (bit & elig) != U0 and pc > win_pow
            if beats and not friend:
                kk = 1000 + tpts * 4 - pc
            elif friend:
                kk = 500 + pts * 4 - pc
            else:
                kk = 100 - pts * 4 - pc
        out[k] = c
        keys[k] = kk
        k += 1
    for i in range(1, k):
        a = out[i]
        kk = keys[i]
        j = i - 1
        while j >= 0 and keys[j] < kk:
            out[j + 1] = out[j]
            keys[j + 1] = keys[j]
            j -= 1
        out[j + 1] = a
        keys[j + 1] = kk
    return k


_SIG_AB = "int64(int64[::1], int64[:, ::1], int64, int64, int64)"
_SIG_MM = "int64(int64[::1], int64[:, ::1], int64)"


@njit(_SIG_AB, cache=True)
def _ab(r, work, d, alpha, beta):
    st = work[d]
    work[SCRATCH + 1, 0] += 1
    if st[ST_PHASE] == P_DONE:
        return st[ST_CP0]
    use_tt = st[ST_TRICK_N] == 0 and _sides_fixed(st)
    base = 0
    if use_tt:
        # the first team ends between what it has and all the points still out
        base = team_points(st)
        if base >= beta:
            return base
        top = 120 - (taken_points(st) - base)
        if top <= alpha:
            return top
    acts = work[MOVES + d]
    keys = work[SCRATCH]
    n = _moves(st, acts, keys)
    key = np.int64(0)
    col = 0
    ttrow = work[0]
    if use_tt:
        key = _key(st)
        slot = key & TT_MASK
        ttrow = work[TT_BASE + (slot >> 6)]
        col = (slot & 63) * 2
        if ttrow[col] == key:
            packed = ttrow[col + 1]
            v = base + (packed >> 8)
            flag = packed & 3
            bm = (packed >> 2) & 63
            if flag == EXACT:
                return v
            if flag == LOWER:
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
            else:
                if v <= alpha:
                    return v
                if v < beta:
                    beta = v
            # the stored best card first
            for i in range(n):
                if acts[i] == bm:
                    for j in range(i, 0, -1):
                        acts[j] = acts[j - 1]
                    acts[0] = bm
                    break
    alpha0 = alpha
    beta0 = beta
    maxing = (st[ST_TEAM0] >> st[ST_TO_MOVE]) & 1 == 1
    child = work[d + 1]
    best = -INF if maxing else INF
    bm = acts[0]
    for i in range(n):
        for w in range(FIRST_WORD, LAST_WORD):
            child[w] = st[w]
        apply_action(r, child, acts[i])
        v = _ab(r, work, d + 1, alpha, beta)
        if maxing:
            if v > best:
                best = v
                bm = acts[i]
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                bm = acts[i]
                if v < beta:
                    beta = v
        if alpha >= beta:
            break
    if use_tt:
        if best <= alpha0:
            flag = UPPER
        elif best >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        ttrow[col] = key
        ttrow[col + 1] = ((best - base) << 8) | (bm << 2) | flag
    return best


@njit(cache=True, inline="always")
def _load_root(st, work):
    """The root into row 0, the game header (words a search step never changes) into
    every row of the stack."""
    row = work[0]
    for w in range(STATE_SIZE):
        row[w] = st[w]
    for d in range(1, MAX_DEPTH + 1):
        row = work[d]
        for w in range(FIRST_WORD):
            row[w] = st[w]
        for w in range(LAST_WORD, STATE_SIZE):
            row[w] = st[w]


@njit(cache=True)
def solve(r, st, work):
    """Final card points of the first team (``ST_TEAM0``) with all cards open, best
    play by both sides, from the state ``st`` (phase ``P_PLAY`` or over)."""
    _load_root(st, work)
    # null-window searches bisecting the range the value is known to lie in (each
    # fail-soft result narrows it), the table keeping what each learnt
    lo = 0
    hi = 120
    while lo < hi:
        beta = (lo + hi + 1) // 2
        g = _ab(r, work, 0, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return lo


@njit(cache=True)
def reaches(r, st, work, target):
    """Whether the first team ends with at least ``target`` card points under best play
    with all cards open (one null-window search: far cheaper than ``solve``)."""
    _load_root(st, work)
    return _ab(r, work, 0, target - 1, target) >= target


@njit(_SIG_MM, cache=True)
def _mm(r, work, d):
    st = work[d]
    if st[ST_PHASE] == P_DONE:
        return st[ST_CP0]
    acts = work[MOVES + d]
    m = legal_cards(st)
    n = 0
    while m != U0:
        acts[n] = lowest_bit(m)
        n += 1
        m &= m - U1
    maxing = (st[ST_TEAM0] >> st[ST_TO_MOVE]) & 1 == 1
    child = work[d + 1]
    best = -INF if maxing else INF
    for i in range(n):
        for w in range(FIRST_WORD, STATE_SIZE):
            child[w] = st[w]
        apply_action(r, child, acts[i])
        v = _mm(r, work, d + 1)
        if (maxing and v > best) or (not maxing and v < best):
            best = v
    return best


@njit(cache=True)
def minimax(r, st, work):
    """The same value as ``solve`` by plain minimax (every legal card, no pruning)."""
    _load_root(st, work)
    return _mm(r, work, 0)


@njit(cache=True)
def solve_cards(r, st, work, acts, values):
    """Each legal card of the seat to move with its value (``solve`` after playing it:
    final card points of the first team) into ``acts``/``values``; returns how many."""
    m = legal_cards(st)
    n = 0
    top = work[MAX_DEPTH]
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        for w in range(STATE_SIZE):
            top[w] = st[w]
        apply_action(r, top, c)
        acts[n] = c
        values[n] = solve(r, top, work)
        n += 1
    return n


@njit(cache=True)
def in_play(st):
    """Whether ``st`` is a card-play position the solver takes."""
    return st[ST_PHASE] == P_PLAY
