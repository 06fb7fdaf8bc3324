"""Schadenfreude open-card search (max-n) and the worlds the ``pimc`` player samples.

Search: max-n
-------------
Three to five players each play for themself, so the search is **max-n**: every
node carries a vector of utilities, one per seat, and the seat to move picks the
child best for itself.  Paranoid search (the others all minimise the mover) would
allow full alpha-beta, but it models a coalition that does not exist here: in
Schadenfreude the others are as happy to push *each other* over the limit as to
hurt the mover, and a paranoid player treats every rival's harmless move as an
attack, so it plays far too timidly near the limit.  Max-n is the model of the
game as it is played.

Utilities are non-negative and sum to at most 1 (``evaluate``): a finished game
gives its winner 1 and everyone else 0; otherwise each seat's share of
``exp(d(total) / EVAL_T)``, where ``d`` rises with the seat's total up to a
safety margin below the limit, falls inside the margin, and a bust seat gets 0.
So a value reads as "estimated share of the win".  With the sum bounded, max-n
allows **shallow pruning**: once the mover's best child gives it more than
``1 - b`` where ``b`` is what the seat one level up already has, that seat cannot
gain here, and the other children need not be searched.  (Deep pruning is not
sound in max-n; it is not done.)

How much it prunes: little.  Away from the end of a game the utilities are
spread over the seats, so a mover rarely gets above ``1 - b``; on random
positions the pruned, ordered search is about 15-20% *slower* than plain max-n
(benchmarks/bench_solver_schadenfreude.py), with or without move ordering.  The
cuts are kept because they are exact and pay near the end of a game, where one
seat's value approaches 1.

Ties: a mover indifferent between children takes the lowest card id, whatever
order the children were searched in, so move ordering (a cheap guess of the
mover's better cards first) never changes a value, and the pruned search gives
exactly the vectors of the plain one (``maxn_plain``: every child, engine order,
no pruning), which the tests check.

Depth and the leaf value: a full round is up to 48 plies, so the search is
depth-limited in tricks: ``depth = D`` searches to the start of the D-th trick
from the position (the current trick counts as the first; ``D = 0``: only the
next card; ``D`` at least the tricks left: to the round's end).  At that horizon
the leaf value is ``evaluate`` of the totals with the round's points so far
(``play = 0``), or ``evaluate`` after the heuristic has played the round out for
every seat (``play = 1``, ``playout``: each seat reading its own observation of
the world).  With at most ``FULL_TRICKS`` tricks left the search always goes to
the round's end (cheap and exact).

Not done, and why: equivalent cards are not merged, because no two
Schadenfreude cards are equivalent - each carries its own value into the score
piles (and its own cancelling partner), so even adjacent cards of one suit in one
hand lead to different scores.  No transposition table: max-n vectors under a
depth limit rarely recur within one search.

Worlds (for pimc.py)
--------------------
``sample_world``: the unseen cards (other hands and the cards set aside) are
dealt again seat by seat, the most constrained seat first, each taking a uniform
subset of the unseen cards it may hold (none of a suit it showed it lacks by not
following; as many cards as it holds); the rest are set aside.  This is
consistent with everything the seat saw, though not exactly uniform over the
consistent deals when voids constrain several seats.  ``decision_stream``: the
draws come from a stream derived from the game's stream and the decision (cards
played, the seat's hand, trick and position), so the game's own stream is not
advanced and a choice is reproducible by (seed, index).
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, draw_from_mask, lowest_bit, mix64, popcount, sort_by_key_desc
from .cards import CARD_RANK, CARD_VALUE, SUIT_MASK, WILD_MASK
from .engine import (GAME_OVER, MAX_SEATS, PLAYING, S_FOLLOW, S_HAND, S_LEAD, S_PLAYED,
                     S_POINTS, S_RNG, S_SCORE, S_STATUS, S_TO_MOVE, S_TRICK_NUM, S_TRICK_POS,
                     S_VOID, S_WINNER, STATE_SIZE, apply_action, legal_cards, winning_rank)
from .policies import heuristic_on_state
from .rules import R_DECK, R_FLOOR, R_FLOOR_ON, R_HAND, R_LIMIT, R_PLAYERS

MAX_PLIES = 50                  # a round: at most 5 x 10 or 4 x 12 cards
ROWS = MAX_PLIES + 2
W_COLS = 128                    # >= STATE_SIZE
# work rows: 0 .. ROWS-1 states by depth, ROWS .. 2*ROWS-1 action lists by depth,
# then pimc's rows (world, cards, totals)
ROW_WORLD = 2 * ROWS
ROW_CARDS = 2 * ROWS + 1
ROW_TOP = 2 * ROWS + 2
ROW_ACTS = 2 * ROWS + 3
WORK_ROWS = 2 * ROWS + 4
# float rows (fw): 0 .. ROWS-1 the value vector of each depth, ROWS .. 2*ROWS-1 the
# best vector so far at each depth, 2*ROWS the pimc totals, 2*ROWS+1 scratch, then
# pimc's stopping rule: per card the sum of squares and products of its world values
# with every other card's (F_PAIRS + i, column j), which cards are still sampled, and
# each card's value in the current world
F_COLS = 64
MAX_ACTS = 16                   # legal cards at most (a hand has at most 12)
F_PAIRS = 2 * ROWS + 2
F_ACTIVE = F_PAIRS + MAX_ACTS
F_VALS = F_ACTIVE + 1
F_ROWS = F_VALS + 1

FULL_TRICKS = 2                 # this few tricks left: always searched to the round's end
SUM_BOUND = 1.0 + 1e-9          # utilities sum to at most 1 (rounding margin)
EVAL_T = 6.0                    # evaluation temperature (points)
EVAL_MARGIN = 6.0               # points below the limit where more stops helping
_WILD = WILD_MASK

assert W_COLS >= STATE_SIZE


def new_work():
    """A search's scratch space: (int64 rows, float64 rows)."""
    return (np.zeros((WORK_ROWS, W_COLS), dtype=np.int64),
            np.zeros((F_ROWS, F_COLS), dtype=np.float64))


@njit(cache=True, inline="always")
def _copy_state(src, dst):
    for w in range(STATE_SIZE):
        dst[w] = src[w]


@njit(cache=True, inline="always")
def _desire(t, limit):
    """How good a total ``t`` is for its seat (before normalising; not bust)."""
    peak = limit - EVAL_MARGIN
    if t <= peak:
        return t
    return peak - 3.0 * (t - peak)


@njit(cache=True)
def evaluate(r, st, out):
    """Utilities of every seat into ``out[:n]``: non-negative, summing to at most 1.

    A finished game: 1 for its winner, 0 for the rest (all 0 without a winner).
    Otherwise each seat's share of ``exp(d(total) / EVAL_T)`` with a bust seat at
    0, where the total adds the round's points so far (the floor applied) and ``d``
    rises up to EVAL_MARGIN below the limit and falls after; if a seat is over the
    limit the game is scored as if the round ended here."""
    n = r[R_PLAYERS]
    if st[S_STATUS] == GAME_OVER:
        w = st[S_WINNER]
        for p in range(n):
            out[p] = 1.0 if p == w else 0.0
        return
    limit = r[R_LIMIT]
    playing = st[S_STATUS] == PLAYING
    tot = np.empty(MAX_SEATS, dtype=np.int64)
    any_bust = False
    all_bust = True
    for p in range(n):
        t = st[S_SCORE + p]
        if playing:
            t += st[S_POINTS + p]
            if r[R_FLOOR_ON] != 0 and t < r[R_FLOOR]:
                t = r[R_FLOOR]
        tot[p] = t
        if t > limit:
            any_bust = True
        else:
            all_bust = False
    if any_bust:
        # the game would end: the highest total held by exactly one seat not bust wins
        best = -1
        for p in range(n):
            if tot[p] > limit:
                continue
            shared = False
            for q in range(n):
                if q != p and tot[q] == tot[p]:
                    shared = True
            if not shared and (best < 0 or tot[p] > tot[best]):
                best = p
        if all_bust:
            best = -1
        for p in range(n):
            out[p] = 1.0 if p == best else 0.0
        return
    top = -1e300
    for p in range(n):
        d = _desire(np.float64(tot[p]), np.float64(limit))
        out[p] = d
        if d > top:
            top = d
    s = 0.0
    for p in range(n):
        e = np.exp((out[p] - top) / EVAL_T)
        out[p] = e
        s += e
    for p in range(n):
        out[p] = out[p] / s


@njit(cache=True)
def playout(r, st, out):
    """Play the round of ``st`` out (in place) with the heuristic in every seat (each
    reading only what its seat sees of the world, as at a table: ``heuristic_on_state``,
    the heuristic's card without writing an observation), then ``evaluate``.  A seat
    with one legal card plays it without asking the heuristic (the same card, for less)."""
    while st[S_STATUS] == PLAYING:
        m = legal_cards(st)
        if m & (m - U1) == U0:
            apply_action(r, st, lowest_bit(m))
        else:
            apply_action(r, st, heuristic_on_state(r, st))
    evaluate(r, st, out)


@njit(cache=True, inline="always")
def _leaf(r, work, d, play, out):
    """The value at the search's horizon: ``evaluate`` there, or with ``play`` after the
    heuristic has played the round out (on a copy)."""
    st = work[d]
    if play and st[S_STATUS] == PLAYING:
        tmp = work[d + 1]
        _copy_state(st, tmp)
        playout(r, tmp, out)
    else:
        evaluate(r, st, out)


@njit(cache=True, inline="always")
def _order_key(st, a):
    """Higher first: a cheap guess of the mover's better cards (never changes values)."""
    v = CARD_VALUE[a]
    if st[S_TRICK_POS] == 0:
        return -abs(v) - (20 if a >= 48 else 0)      # lead low cards, keep the wilds
    lead = np.uint64(st[S_LEAD])
    follows = a >= 48 or ((U1 << np.uint64(a)) & lead) != U0
    if not follows:
        return -v                                    # throw off low value cards first
    ranks = np.uint64(st[S_FOLLOW]) | (U1 << np.uint64(CARD_RANK[a]))
    if winning_rank(ranks) == CARD_RANK[a]:
        return -100 - v                              # a card that would take it: last
    return -v


_SIG = ("void(int64[::1], int64[:, ::1], float64[:, ::1], int64, int64, int64, int64, "
        "float64)")


@njit(_SIG, cache=True)
def _maxn(r, work, fw, d, stop, play, parent, bound):
    """Max-n value of ``work[d]`` into ``fw[d]`` with shallow pruning against seat
    ``parent`` (-1: none) which already has ``bound``; search stops at the start of
    trick ``stop`` (then ``_leaf``)."""
    st = work[d]
    n = r[R_PLAYERS]
    out = fw[d]
    if st[S_STATUS] != PLAYING or st[S_TRICK_NUM] * MAX_SEATS + st[S_TRICK_POS] >= stop:
        _leaf(r, work, d, play, out)
        return
    p = st[S_TO_MOVE]
    acts = work[ROWS + d]
    keys = fw[2 * ROWS + 1]
    m = legal_cards(st)
    k = 0
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        acts[k] = c
        keys[k] = np.float64(_order_key(st, c))
        k += 1
    sort_by_key_desc(acts, keys, k)
    best = fw[ROWS + d]
    best_a = -1
    child = work[d + 1]
    cv = fw[d + 1]
    for i in range(k):
        a = acts[i]
        _copy_state(st, child)
        apply_action(r, child, a)
        _maxn(r, work, fw, d + 1, stop, play, p, best[p] if best_a >= 0 else -1.0)
        if best_a < 0 or cv[p] > best[p] or (cv[p] == best[p] and a < best_a):
            for q in range(n):
                best[q] = cv[q]
            best_a = a
            # shallow cut: the seat above cannot get more than 1 - best[p] here
            if parent >= 0 and parent != p and best[p] > SUM_BOUND - bound:
                break
    for q in range(n):
        out[q] = best[q]


_SIG_P = "void(int64[::1], int64[:, ::1], float64[:, ::1], int64, int64, int64)"


@njit(_SIG_P, cache=True)
def _plain(r, work, fw, d, stop, play):
    """Plain max-n: every child in engine order (lowest card first), no pruning; the
    first best child for the mover (so the lowest card on ties)."""
    st = work[d]
    n = r[R_PLAYERS]
    out = fw[d]
    if st[S_STATUS] != PLAYING or st[S_TRICK_NUM] * MAX_SEATS + st[S_TRICK_POS] >= stop:
        _leaf(r, work, d, play, out)
        return
    p = st[S_TO_MOVE]
    best = fw[ROWS + d]
    first = True
    child = work[d + 1]
    cv = fw[d + 1]
    m = legal_cards(st)
    while m != U0:
        a = lowest_bit(m)
        m &= m - U1
        _copy_state(st, child)
        apply_action(r, child, a)
        _plain(r, work, fw, d + 1, stop, play)
        if first or cv[p] > best[p]:
            for q in range(n):
                best[q] = cv[q]
            first = False
    for q in range(n):
        out[q] = best[q]


@njit(cache=True, inline="always")
def stop_trick(r, st, depth):
    """Where a search of ``depth`` tricks from ``st`` stops, as ``trick * MAX_SEATS +
    position``: at the start of a trick, the current one counting as the first; with
    ``depth`` 0 right after the next card; past the round's end with at most FULL_TRICKS
    tricks left or ``depth`` at least the tricks left; with ``depth`` -1 (the expert's)
    right after the next card even then."""
    if depth < 0:       # the expert's: the next card, then the leaf, even near the end
        return st[S_TRICK_NUM] * MAX_SEATS + st[S_TRICK_POS] + 1
    left = r[R_HAND] - st[S_TRICK_NUM]
    if left <= FULL_TRICKS or depth >= left:
        return (r[R_HAND] + 1) * MAX_SEATS
    if depth == 0:
        return st[S_TRICK_NUM] * MAX_SEATS + st[S_TRICK_POS] + 1
    return (st[S_TRICK_NUM] + depth) * MAX_SEATS


@njit(cache=True)
def solve(r, st, depth, play, work, fw, out):
    """Max-n value vector of the position ``st`` (all cards open) into ``out[:n]``,
    searching ``depth`` tricks (12: to the round's end), then ``evaluate`` (``play``:
    after the heuristic has played the round out); shallow pruning, move ordering."""
    _copy_state(st, work[0])
    _maxn(r, work, fw, 0, stop_trick(r, st, depth), play, -1, 0.0)
    for q in range(r[R_PLAYERS]):
        out[q] = fw[0, q]


@njit(cache=True)
def maxn_plain(r, st, depth, play, work, fw, out):
    """The same vector as ``solve`` by plain max-n (for the tests)."""
    _copy_state(st, work[0])
    _plain(r, work, fw, 0, stop_trick(r, st, depth), play)
    for q in range(r[R_PLAYERS]):
        out[q] = fw[0, q]


@njit(cache=True)
def solve_actions(r, st, depth, play, work, fw, acts, values):
    """For the seat to move, each legal card (into ``acts``) and its value for that seat
    (into ``values``) with all cards open: the card, then the search of ``depth`` tricks
    (the current trick counts as the first; 0: none), then the leaf value (``play``: after
    a heuristic playout); returns how many."""
    seat = st[S_TO_MOVE]
    stop = stop_trick(r, st, depth)
    top = work[ROW_TOP]
    m = legal_cards(st)
    k = 0
    while m != U0:
        a = lowest_bit(m)
        m &= m - U1
        _copy_state(st, top)
        apply_action(r, top, a)
        _copy_state(top, work[0])
        _maxn(r, work, fw, 0, stop, play, -1, 0.0)
        acts[k] = a
        values[k] = fw[0, seat]
        k += 1
    return k


# ===== worlds consistent with a seat's view =====================================================
@njit(cache=True, inline="always")
def decision_stream(st):
    """A random stream for this decision from the game's stream and what the seat to move
    knows (cards played, its hand, trick and position): the game's stream is not advanced."""
    p = st[S_TO_MOVE]
    z = mix64(np.uint64(st[S_RNG]) ^ np.uint64(st[S_PLAYED]) * np.uint64(0x9E3779B97F4A7C15))
    z = mix64(z ^ np.uint64(st[S_HAND + p])
              ^ (np.uint64(st[S_TRICK_NUM] * 8 + st[S_TRICK_POS]) << np.uint64(50))
              ^ (np.uint64(p) << np.uint64(61)))
    return z


@njit(cache=True)
def sample_world(r, st, seat, rng, world, cards):
    """Write into ``world`` a copy of ``st`` whose hidden cards (the other hands, the
    cards set aside) are dealt again consistently with what ``seat`` sees: each other
    seat keeps its number of cards and gets none of the suits it showed it lacks.
    Returns the advanced stream."""
    n = r[R_PLAYERS]
    _copy_state(st, world)
    unseen = np.uint64(r[R_DECK]) & ~np.uint64(st[S_PLAYED]) & ~np.uint64(st[S_HAND + seat])
    # seats by how many cards they may hold, fewest first (most constrained)
    order = np.empty(MAX_SEATS, dtype=np.int64)
    room = np.empty(MAX_SEATS, dtype=np.int64)
    k = 0
    for p in range(n):
        if p == seat:
            continue
        allowed = unseen & ~np.uint64(st[S_VOID + p])
        slack = np.int64(popcount(allowed)) - np.int64(popcount(np.uint64(st[S_HAND + p])))
        j = k - 1
        while j >= 0 and room[j] > slack:
            order[j + 1] = order[j]
            room[j + 1] = room[j]
            j -= 1
        order[j + 1] = p
        room[j + 1] = slack
        k += 1
    for attempt in range(64):
        pool = unseen
        ok = True
        for i in range(k):
            p = order[i]
            need = np.int64(popcount(np.uint64(st[S_HAND + p])))
            allowed = pool & ~np.uint64(st[S_VOID + p])
            if attempt == 63:
                allowed = pool        # never reached in practice: drop the void limits
            if np.int64(popcount(allowed)) < need:
                ok = False
                break
            rng, got = draw_from_mask(rng, allowed, need, cards)
            world[S_HAND + p] = np.int64(got)
            pool &= ~got
        if ok:
            break
    return rng
