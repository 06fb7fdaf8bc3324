"""Schnapsen open-card solver and the ``pimc`` player.

Solver
------
``solve(r, st, seat, work)`` is the value of the deal in ``st`` with every card
open (both hands and the talon in its order) under best play by both seats:
the game points the deal scores, positive when ``seat`` wins them, negative
when the other seat does (-3 .. 3). Every rule of the deal is searched: the
jack exchange, closing, marriages (and the lead they force), claims at each
point the rules allow them (after a won trick, after a marriage, after the last
trick) and the scoring of failed closes and wrong claims. Resigning is left
out (it concedes the match, not a deal value). Match points play no part.

It is an alpha-beta search over the engine's own kernels (``legal_actions``,
``apply_action`` on rows of a preallocated stack: a row copy is the undo), run as
MTD(f): null-window tests on the integer values, whether the seat wins first, then
how much. Moves are ordered: the transposition table's best action first, then
claims, marriages (trumps), exchange, cards by a cheap guess of their worth, close
last. A seat that may claim with the target reached is scored as claiming at once
(waiting can only add to the opponent's points and tricks, which a claim's value
reads), without searching its other actions. The transposition table (32 entries
a row of the work array, replaced always), probed everywhere but where a seat
follows a lead (there the answers are few and the probe cost more than it saved:
17% more pimc decisions a second without it), keys what decides the value from a
position (hands, talon, the card under it, step, who acts, points, marriage
points, whether each seat has a trick, the close and its snapshot) and keeps a
bound and the best action; it is kept between solves on the same ``work``, so one
``work`` serves one rule set. The search kernels are compiled without reference
counting (``_nrt=False``: they allocate nothing, and the increfs of the rows they
slice were three quarters of the time).

Equivalent cards are not merged: in Schnapsen no two cards are equivalent in
general (adjacent cards of a suit win and lose the same tricks, but every rank has
its own card points, which decide claims and schneider, and king and queen are
marriage halves), so merging would change values.

``minimax(r, st, seat, work)`` is the same value by plain minimax over every
legal action in engine order (tests compare the two).

pimc
----
``pimc_choose(r, st, worlds, work)``: the seat to move samples ``worlds``
deals consistent with what it has seen (``engine.observe``: its hand, the cards
played, the face-up trump card, the cards the opponent was seen to take
(marriage halves, the card taken by an exchange or by the last draw) and the
cards the follow rule says it cannot hold), solves each with every action open,
and takes the action with the best mean value (the first in engine order on
ties; with ``goal=deal`` the action that wins the most worlds, the best mean value
among those), except that a close counts at its worst sampled world (a world's solve plays
the closed deal knowing every card, which makes closing look far better than it is). The worlds are uniform over the consistent ones: the opponent's unknown
cards are a uniform subset of the unknown cards it may hold, the talon a
uniform order of the rest. Its random draws come from a stream derived from the
game's stream and the decision (the cards played, the hands, the step), so the
game's own stream is not advanced: a match's deals are the same whoever plays
it, and a choice is reproducible by (seed, index).
Once the talon is gone every card is known (the opponent holds the rest), so one world
is solved, not ``worlds`` copies of it. With ``goal=points`` an action that cannot reach
the best total even at +3 in every world left is no longer solved (the choice is the
full search's). ``stop=K`` (off by default) drops an action that did no better than the
best in every world from world K on and stops when one is left: 7x faster (K=2) but
weaker (49.5% of 200 matches against ``heuristic`` for K=2, 52% of 140 for K=3, against
about 67% for the full search), so it is an option only.
"""
import numpy as np
from numba import njit

from ...bits import (ab_child, draw_from_mask, lowest_bit, mix64, next_u64, popcount,
                     sort_by_key_desc)
from .cards import CARD_POINTS
from .rules import R_AT_CLOSE, R_SCHNEIDER, R_TARGET
from .engine import (S_CLOSER, S_LEADER, S_MARR, LEAD, S_MARRIED, S_POINTS, S_SNAP_POINTS,
                     S_SNAP_TRICKS, S_TRICKS, A_CLAIM, A_CLOSE, A_EXCHANGE, A_MARRIAGE, A_PASS, A_RESIGN, AFTER_LAST,
                     FOLLOW, MAX_LEGAL, OVER, S_GAME_POINTS, S_HAND, S_LEAD_CARD, S_PHASE,
                     S_PLAYED, S_RNG, S_SHOWN, S_STEP, S_TALON, S_TALON_LEFT, S_TRUMP,
                     S_TRUMP_CARD, S_VOID, S_WINNER, T_MARRIED, apply_action, follower_wins,
                     counted, legal_actions, may_claim, score_claim, to_move)

# words of the state a deal's search changes (the match fields after S_RNG are left)
N_DEAL_WORDS = S_RNG
MAX_DEPTH = 48          # actions in a deal: 20 cards, marriages, exchange, close, claims
WORK_ROWS = MAX_DEPTH + 2
# work array layout: rows 0 .. MAX_DEPTH of states, one row per depth of action lists
W_COLS = 64

# transposition table: TT_ROWS rows of the work array after the stacks, 16 buckets a row
# of two entries (the deepest kept, the newest)
# (a 64-bit key and a packed value/bound each)
TT_ROWS = 2048
TT_MASK = TT_ROWS * 16 - 1
# pimc's rows before it: its actions, totals, the world, and (3 rows each) each pair of
# actions' least and greatest difference over the worlds sampled (the stop rule)
DIFF_BASE = 2 * WORK_ROWS + 4
DIFF_MAX = DIFF_BASE + 3
TT_BASE = DIFF_BASE + 6
EXACT, LOWER, UPPER = 0, 1, 2
NODES_COL = W_COLS - 1   # the keys row's last word counts the nodes searched
# the keys row's word before it: 1 when the search leaves out the claim right after a
# marriage (pimc's marriage_claim=0), else 0; set by every entry point
NO_MCLAIM_COL = W_COLS - 2
_NO_MCLAIM_SALT = np.int64(0x2545F4914F6CDD1C)   # even: a key stays odd (never 0)

from .pimc_params import PIMC_MAX_WORLDS, PIMC_WORLDS  # noqa: E402,F401
_DECK = np.int64((1 << 20) - 1)


@njit(cache=True, inline="always")
def new_work_rows(search):
    """Rows of a solver's scratch space (1 when no player searches)."""
    return TT_BASE + TT_ROWS if search else 1


def new_work():
    """A solver's scratch space (states and action lists per depth, transposition table)."""
    return np.zeros((TT_BASE + TT_ROWS, W_COLS), dtype=np.int64)


@njit(cache=True, inline="always")
def _key(st):
    """A 64-bit hash of what decides a deal's value from here: the cards (hands, talon and
    its size, the card under it), who is to act and at which step, the points, marriage
    points, whether each seat has a trick, the close and its snapshot. Never 0."""
    z = np.uint64(st[S_HAND]) | (np.uint64(st[S_HAND + 1]) << np.uint64(20))
    z |= np.uint64(st[S_TALON_LEFT]) << np.uint64(40)
    z |= np.uint64(st[S_TRUMP_CARD]) << np.uint64(44)
    z |= np.uint64(st[S_LEADER]) << np.uint64(49)
    z |= np.uint64(st[S_PHASE]) << np.uint64(50)
    z |= np.uint64(st[S_STEP]) << np.uint64(52)
    z |= np.uint64(st[S_MARRIED] + 1) << np.uint64(54)
    z |= np.uint64(st[S_CLOSER] + 1) << np.uint64(57)
    z |= np.uint64(st[S_TRICKS] > 0) << np.uint64(59)
    z |= np.uint64(st[S_TRICKS + 1] > 0) << np.uint64(60)
    z |= np.uint64(st[S_SNAP_TRICKS] > 0) << np.uint64(61)
    y = (np.uint64(st[S_TALON]) ^ (np.uint64(st[S_LEAD_CARD] + 1) << np.uint64(45))
         ^ (np.uint64(st[S_POINTS]) << np.uint64(50)))
    x = (np.uint64(st[S_POINTS + 1]) | (np.uint64(st[S_MARR]) << np.uint64(8))
         | (np.uint64(st[S_MARR + 1]) << np.uint64(16))
         | (np.uint64(st[S_SNAP_POINTS]) << np.uint64(24)))
    h = mix64(mix64(mix64(z) ^ y) ^ x)
    return np.int64(h | np.uint64(1))


@njit(cache=True, inline="always")
def _value(st, seat):
    v = st[S_GAME_POINTS]
    return v if st[S_WINNER] == seat else -v


@njit(cache=True, inline="always")
def _order_key(st, a):
    """Higher first: claims, marriages (trumps), exchange, then cards by a cheap guess of
    their worth, close last."""
    if a == A_CLAIM:
        return 1000
    if a >= A_MARRIAGE and a < A_EXCHANGE:
        return 900 + (50 if a - A_MARRIAGE == st[S_TRUMP] else 0)
    if a == A_EXCHANGE:
        return 800
    if a == A_CLOSE or a == A_PASS:
        return -100
    pts = CARD_POINTS[a]
    if st[S_PHASE] == FOLLOW:
        lead = st[S_LEAD_CARD]
        if follower_wins(lead, a, st[S_TRUMP]):
            # win cheaply with a plain card, with a trump only when the lead is worth it
            return 500 + pts + CARD_POINTS[lead] - (20 if a // 5 == st[S_TRUMP] else 0)
        return 100 - pts
    return 100 + pts


_SIG_AB = "int64(int64[::1], int64[:, ::1], int64, int64, int64, int64)"
_SIG_MM = "int64(int64[::1], int64[:, ::1], int64, int64)"


@njit(cache=True, inline="always")
def _claim_value(r, st, seat, work_flag):
    """The value for ``seat`` when the seat to move may claim and has reached the target
    (then claiming at once is its best action: waiting can only add to the opponent's
    points and tricks, which the claim's value reads), else 0 (no deal value is 0)."""
    if st[S_PHASE] != LEAD or not may_claim(st):
        return 0
    if st[S_STEP] == T_MARRIED and work_flag:
        return 0
    p = to_move(st)
    mine = counted(st, p)
    if mine < r[R_TARGET]:
        return 0
    o = 1 - p
    w, gp, _ = score_claim(p, mine, r[R_TARGET], st[S_CLOSER], r[R_AT_CLOSE] != 0,
                           counted(st, o), st[S_TRICKS + o], st[S_SNAP_POINTS],
                           st[S_SNAP_TRICKS], r[R_SCHNEIDER])
    return gp if w == seat else -gp


@njit(cache=True, inline="always")
def drop_marriage_claim(st, acts, n):
    """Leave the claim right after a marriage out of the ``n`` actions ``acts`` (the
    actions but resign); the new count."""
    if st[S_PHASE] != LEAD or st[S_STEP] != T_MARRIED:
        return n
    k = 0
    for i in range(n):
        if acts[i] != A_CLAIM:
            acts[k] = acts[i]
            k += 1
    return k


@njit(cache=True, inline="always")
def _ordered_actions(r, st, acts, keys, first):
    """The legal actions but resign into ``acts``, best guess first (``first``, the
    transposition table's best action, ahead of all when >= 0); returns how many."""
    n = legal_actions(r, st, acts) - 1          # resign is last: left out
    if keys[NO_MCLAIM_COL] != 0:
        n = drop_marriage_claim(st, acts, n)
    for i in range(n):
        keys[i] = 10000 if acts[i] == first else _order_key(st, acts[i])
    sort_by_key_desc(acts, keys, n)
    return n


@njit(_SIG_AB, cache=True, _nrt=False)
def _ab(r, work, d, alpha, beta, seat):
    st = work[d]
    work[2 * WORK_ROWS, NODES_COL] += 1
    if st[S_PHASE] == OVER:
        return _value(st, seat)
    flag = work[2 * WORK_ROWS, NO_MCLAIM_COL]
    c = _claim_value(r, st, seat, flag != 0)
    if c != 0:
        return c
    # transposition table: values kept for seat 0, with the best action
    use_tt = st[S_PHASE] != FOLLOW            # see the module doc
    key = np.int64(0)
    col = 0
    tt = work[0]
    hit = -1
    if use_tt:
        key = _key(st)
        if flag != 0:
            key ^= _NO_MCLAIM_SALT
        slot = key & TT_MASK
        tt = work[TT_BASE + (slot >> 4)]
        col = (slot & 15) * 4                  # a bucket: kept-deepest entry, newest entry
        if tt[col] == key:
            hit = col
        elif tt[col + 2] == key:
            hit = col + 2
    sign = 1 if seat == 0 else -1
    first = -1
    if hit >= 0:
        packed = tt[hit + 1]
        v = sign * (((packed >> 2) & 15) - 4)
        flag = packed & 3
        first = ((packed >> 8) & 31) - 1
        if seat != 0 and flag != EXACT:
            flag = LOWER + UPPER - flag
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
    alpha0 = alpha
    beta0 = beta
    acts = work[WORK_ROWS + d]
    n = _ordered_actions(r, st, acts, work[2 * WORK_ROWS], first)
    maxing = to_move(st) == seat
    child = work[d + 1]
    best = -4 if maxing else 4
    best_act = acts[0]
    for i in range(n):
        for w in range(N_DEAL_WORDS):
            child[w] = st[w]
        apply_action(r, child, acts[i])
        v = _ab(r, work, d + 1, alpha, beta, seat)
        best, best_act, alpha, beta = ab_child(maxing, v, acts[i], best, best_act, alpha, beta)
        if alpha >= beta:
            break
    if not use_tt:
        return best
    if best <= alpha0:
        flag = UPPER
    elif best >= beta0:
        flag = LOWER
    else:
        flag = EXACT
    if seat != 0 and flag != EXACT:
        flag = LOWER + UPPER - flag
    size = popcount(np.uint64(st[S_HAND] | st[S_HAND + 1])) + st[S_TALON_LEFT]
    packed = (size << 16) | ((best_act + 1) << 8) | ((sign * best + 4) << 2) | flag
    if tt[col] == key or size >= (tt[col + 1] >> 16):
        tt[col] = key
        tt[col + 1] = packed
    else:
        tt[col + 2] = key
        tt[col + 3] = packed
    return best


@njit(cache=True, inline="always")
def _load_root(st, work):
    """Copy the deal words of ``st`` into the search stack's first row."""
    row = work[0]
    for w in range(N_DEAL_WORDS):
        row[w] = st[w]


@njit(cache=True, _nrt=False)
def solve(r, st, seat, work):
    """Value of the deal in ``st`` for ``seat`` with all cards open (game points, signed)."""
    work[2 * WORK_ROWS, NO_MCLAIM_COL] = 0
    return solve_from(r, st, seat, work, np.int64(0))   # typed: a literal 0 compiles twice


@njit(cache=True, _nrt=False)
def solve_from(r, st, seat, work, guess):
    """``solve`` starting its null-window tests at ``guess`` (a good guess saves tests)."""
    _load_root(st, work)
    # MTD(f) on the integer values: null-window tests from the guess (0: win or loss first)
    lo = -3
    hi = 3
    g = guess
    while lo < hi:
        b = g if g > lo + 1 else lo + 1
        g = _ab(r, work, 0, b - 1, b, seat)
        if g < b:
            hi = g
        else:
            lo = g
    return lo


@njit(_SIG_MM, cache=True, _nrt=False)
def _mm(r, work, d, seat):
    st = work[d]
    if st[S_PHASE] == OVER:
        return _value(st, seat)
    acts = work[WORK_ROWS + d]
    n = legal_actions(r, st, acts) - 1
    maxing = to_move(st) == seat
    child = work[d + 1]
    best = -4 if maxing else 4
    for i in range(n):
        for w in range(N_DEAL_WORDS):
            child[w] = st[w]
        apply_action(r, child, acts[i])
        v = _mm(r, work, d + 1, seat)
        if (maxing and v > best) or (not maxing and v < best):
            best = v
    return best


@njit(cache=True, _nrt=False)
def minimax(r, st, seat, work):
    """The same value as ``solve`` by plain minimax (every action, no pruning)."""
    _load_root(st, work)
    return _mm(r, work, 0, seat)


@njit(cache=True, _nrt=False)
def solve_actions(r, st, work, acts, values):
    """Value of each legal action but resign of the seat to move (for that seat), into
    ``values``; the actions into ``acts``; returns how many."""
    seat = to_move(st)
    n = legal_actions(r, st, acts) - 1
    top = work[WORK_ROWS - 1]
    for i in range(n):
        for w in range(N_DEAL_WORDS):
            top[w] = st[w]
        apply_action(r, top, acts[i])
        values[i] = solve(r, top, seat, work)
    return n


# ===== worlds consistent with a seat's observation ==============================================
@njit(cache=True, inline="always")
def decision_stream(st):
    """A random stream for this decision, derived from the game's stream and the decision
    (cards played, both hands' sizes, the seat's hand, the step): the game's stream itself is
    not advanced."""
    p = to_move(st)
    z = np.uint64(st[S_RNG])
    z = mix64(z ^ np.uint64(st[S_PLAYED]) * np.uint64(0x9E3779B97F4A7C15))
    z = mix64(z ^ np.uint64(st[S_HAND + p]) ^ (np.uint64(st[S_STEP] * 4 + st[S_PHASE]) << 40)
              ^ (np.uint64(st[S_TALON_LEFT]) << 48) ^ (np.uint64(p) << 60))
    return z


@njit(cache=True, inline="always")
def sample_world(st, seat, rng, world, cards):
    """Write into ``world`` a copy of ``st`` whose cards hidden from ``seat`` (the
    opponent's unknown cards, the face-down talon) are re-dealt uniformly among the deals
    consistent with what ``seat`` sees; returns the advanced stream."""
    for w in range(N_DEAL_WORDS):
        world[w] = st[w]
    o = 1 - seat
    played = st[S_PLAYED]
    known = st[S_SHOWN + o] & ~played
    left = st[S_TALON_LEFT]
    open_card = np.int64(0)
    if left > 0:
        open_card = np.int64(1) << st[S_TRUMP_CARD]
    unknown = _DECK & ~st[S_HAND + seat] & ~played & ~known & ~open_card
    opp_n = popcount(np.uint64(st[S_HAND + o]))
    need = opp_n - popcount(np.uint64(known))
    allowed = unknown & ~st[S_VOID + o]
    # the opponent's unknown cards: `need` of the allowed ones, uniformly
    rng, got = draw_from_mask(rng, allowed, need, cards)
    hand = known | np.int64(got)
    world[S_HAND + o] = hand
    # the talon: the rest in a uniform order (next drawn lowest)
    rest = unknown & ~hand
    nr = 0
    m = rest
    while m != 0:
        cards[nr] = lowest_bit(m)
        nr += 1
        m &= m - 1
    i = nr - 1
    while i > 0:
        rng, x = next_u64(rng)
        j = np.int64(((x >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        c = cards[j]
        cards[j] = cards[i]
        cards[i] = c
        i -= 1
    talon = np.int64(0)
    for k in range(nr):
        talon |= cards[k] << (5 * k)
    world[S_TALON] = talon
    return rng


@njit(cache=True, inline="always")
def _pimc_best(acts, n, total, won, active, worst_close, k, deal):
    """The index of the best action among the ``active`` ones after ``k`` worlds (a close
    at its worst world; ``deal``: most worlds won first; the first in engine order on ties)."""
    best = -1
    bt = 0
    bw = 0
    for i in range(n):
        if active[i] == 0:
            continue
        t = total[i]
        w = won[i]
        if acts[i] == A_CLOSE:
            t = worst_close * k
            w = k if worst_close > 0 else 0
        if best < 0:
            best, bt, bw = i, t, w
        elif deal and w != bw:
            if w > bw:
                best, bt, bw = i, t, w
        elif t > bt:
            best, bt, bw = i, t, w
    return best


@njit(cache=True, _nrt=False)
def pimc_choose(r, st, worlds, work, deal=False, marriage_claim=True, stop=0):
    """The action of the ``pimc`` player with ``worlds`` sampled deals (see the module);
    ``deal``: rank actions by the worlds won first, by game points only among equals;
    ``marriage_claim`` False: never claim right after a marriage, in its choice and in
    its searches (as where a marriage's points count from the next trick won);
    ``stop`` > 0: from the ``stop``-th world on, an action that did no better than the
    best so far in every world sampled and worse in one of them is dropped (no more
    solves), from world ``2 * stop`` on also one only ever level with it, and sampling
    ends when one action is left (0: every action in every world)."""
    seat = to_move(st)
    acts = work[2 * WORK_ROWS + 1]
    n = legal_actions(r, st, acts) - 1
    work[2 * WORK_ROWS, NO_MCLAIM_COL] = 0 if marriage_claim else 1
    if not marriage_claim:
        n = drop_marriage_claim(st, acts, n)
    if n == 1:
        return acts[0]
    if st[S_PHASE] == AFTER_LAST or st[S_TALON_LEFT] == 0:
        # claim or pass, or the talon is gone: the seat knows every card (its hand, the
        # cards played, the rest the opponent's hand), so every world is this one
        worlds = 1
    total = work[2 * WORK_ROWS + 2]
    last = total[MAX_LEGAL:]        # each action's value in the last world: the next guess
    won = total[2 * MAX_LEGAL:]     # worlds each action wins (goal=deal)
    active = total[3 * MAX_LEGAL:]  # 1 while the action is still solved
    vals = total[4 * MAX_LEGAL:]    # each action's value in this world
    for i in range(n):
        total[i] = 0
        last[i] = 0
        won[i] = 0
        active[i] = 1
    # least difference (value of j minus value of i) over the worlds, pair (i, j)
    for i in range(n * MAX_LEGAL):
        work[DIFF_BASE + i // W_COLS, i % W_COLS] = 6
        work[DIFF_MAX + i // W_COLS, i % W_COLS] = -6
    world = work[2 * WORK_ROWS + 3]
    cards = work[2 * WORK_ROWS]     # reused: the keys row is free between solves
    top = work[WORK_ROWS - 1]
    rng = decision_stream(st)
    worst_close = 4
    k = 0
    while k < worlds:
        rng = sample_world(st, seat, rng, world, cards)
        k += 1
        for i in range(n):
            if active[i] == 0:
                continue
            for w in range(N_DEAL_WORDS):
                top[w] = world[w]
            apply_action(r, top, acts[i])
            v = solve_from(r, top, seat, work, last[i])
            vals[i] = v
            last[i] = v
            total[i] += v
            if v > 0:
                won[i] += 1
            if acts[i] == A_CLOSE and v < worst_close:
                worst_close = v
        if stop <= 0:
            if not deal and k < worlds:
                # exact: an action whose total, even at +3 in every world left, stays below
                # the best non-close total at -3 in every world left can no longer be
                # chosen; the choice is the full search's
                rem = 3 * (worlds - k)
                bound = -(1 << 30)
                for i in range(n):
                    if active[i] != 0 and acts[i] != A_CLOSE and total[i] - rem > bound:
                        bound = total[i] - rem
                left = 0
                for i in range(n):
                    if active[i] == 0:
                        continue
                    top_i = total[i] + rem
                    if acts[i] == A_CLOSE:
                        top_i = worst_close * worlds
                    if top_i < bound:
                        active[i] = 0
                    else:
                        left += 1
                if left == 1:
                    k = worlds
                    break
            continue
        left = 0
        for i in range(n):
            if active[i] == 0:
                continue
            for j in range(n):
                if active[j] != 0 and j != i:
                    c = i * MAX_LEGAL + j
                    d = vals[j] - vals[i]
                    if d < work[DIFF_BASE + c // W_COLS, c % W_COLS]:
                        work[DIFF_BASE + c // W_COLS, c % W_COLS] = d
                    if d > work[DIFF_MAX + c // W_COLS, c % W_COLS]:
                        work[DIFF_MAX + c // W_COLS, c % W_COLS] = d
            left += 1
        if k < stop:
            continue
        best = _pimc_best(acts, n, total, won, active, worst_close, k, deal)
        for i in range(n):
            if active[i] == 0 or i == best:
                continue
            c = i * MAX_LEGAL + best
            drop = work[DIFF_BASE + c // W_COLS, c % W_COLS] >= 0 and (
                work[DIFF_MAX + c // W_COLS, c % W_COLS] > 0 or k >= 2 * stop)
            if acts[i] == A_CLOSE:   # a close counts at its worst world, which only falls
                drop = drop or worst_close * k <= total[best]
            if drop:
                active[i] = 0
                left -= 1
        if left == 1:
            break
    # closing is judged by its worst world: each world's solve plays the closed deal
    # knowing every card (strategy fusion), which makes closes look far better than
    # they are; only a close that wins in every sampled world is taken
    return acts[_pimc_best(acts, n, total, won, active, worst_close, k, deal)]
