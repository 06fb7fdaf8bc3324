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

It is a fail-soft alpha-beta search on a compact search state made once from the
engine state at the root (``_load_search_root``: a 20-word row a depth - the
hands, the trick so far, who leads and holds it, the sides, the points each seat
has won, Officers' face-down cards still hidden - and a row of the deal's
constants: trump, the called card, the discards' points and taker, Officers'
face-down card under each face-up card).  Its masks are in a search numbering of
the cards, one per trump suit (``CLASS_ORDER``, ``SEARCH_INDEX``): the trumps on the
lowest bits, then each plain suit as a run of bits, each strongest first, so that a
hand's cards come out of ``lowest_bit`` in power order and of the cards that may win
a trick the lower bit is the stronger.  The engine's card tables are re-indexed into
it once at import (``S_FOLLOW``, ``S_POWER``, ``S_POINTS``), not written again.  ``_legal`` and ``_play`` are the card
play of ``engine.legal_cards``/``engine._play`` on those words, by the engine's own
kernels: ``follow_rule`` (the follow rule, the called card), ``trick_card`` (a card
into a trick: its lead, who holds it, with what power), ``sides_after_trick`` (a
first-trick wedding's partner found by the trick it wins) and ``next_seat``; Officers'
turning over comes from the same ``under_card`` table; the engine stays the one place
of the rules for play,
and the tests run the engine's own kernels (``minimax``) against this search on
every variant.  A move copies the row and plays one card.  With

* move ordering: the transposition table's best card first; on lead, a card that
  wins the trick whatever the other side plays, then high trumps and aces;
  following, onto a trick its side holds beyond any foe still to play its most
  points, a card that takes a foe's trick for sure, a card that takes it for now,
  points onto a partner's trick, else the cheapest card;
* equivalent cards merged: of cards of one hand that follow alike (trumps, or
  one plain suit), carry the same card points and have no card of another
  hand or of the current trick between them in trick power, only the highest
  is searched (the called card and, in Officers, a card lying on a face-down
  card are never merged: they change more than the trick);
* bounds at a trick's start: the first team ends between the points it has and
  all the points still out, narrowed by sure points (a run of the strongest trumps
  out held by one side falls into tricks that side wins, whenever played; an Officers'
  face-down card counts for the seat whose face-up card covers it, which plays it later);
* the last trick played out (every card is forced), and inside a trick a seat
  with a single legal card plays it without a node of its own (node counts leave
  such cards out);
* a transposition table at the start of each trick (two entries a slot, the first
  keeping the larger subtree) holding a lower and an upper bound on the card points
  still to come, with the best card; not used while a first-trick wedding's partner
  is open (the sides are still changing).  Its key (``_rank_key``) is the position
  up to the cards' relative ranks: for the cards still in play, in power order, who
  holds each, its card points and which is the called card, how many each suit
  holds, who leads and the sides (``pext`` of the hands onto the cards in play).
  Positions that differ only in which cards earlier tricks took play alike card
  for card, so they share an entry (15% fewer nodes on whole four-player deals),
  and the best card is stored as its place among the cards in play.  Officers keys
  on the hands themselves (``_key``: face-down cards break the abstraction).  The
  key comes first and its slot is prefetched while the bounds are worked out (the
  table is megabytes away: 7-9% of the time);
* the exact value by null-window searches, the first at the value of a playout
  of the search's first-ordered cards, then bisecting what is still open (each
  fail-soft result narrows it; the table keeps what each search learnt),
  ``reaches`` being one such search;
* the search kernels compiled without reference counting (``_nrt=False``: they
  allocate nothing; the increfs of the rows they slice cost half the time).

The table (and the constants row) persists between searches on the same ``work``:
its keys hold everything that decides the points still to come once the sides are
fixed, so pimc's many ``reaches`` over worlds and candidate cards share it.

``minimax(r, st, work)`` is the same value by plain minimax over every legal
card in engine order (tests compare the two).
"""
import numpy as np
from numba import njit

from ...bits import (U0, U1, ab_child, compress_bits, kth_bit, lowest_bit, mix64, popcount,
                    prefetch, sort_by_key_desc)
from .cards import CARD_POINTS, FOLLOW_MASK, POWER, V_OFFICERS
from .engine import (P_DONE, P_PLAY, STATE_SIZE, ST_CBIT, ST_CP0, ST_DECLARER, ST_DISCARDS,
                     ST_ELIG, ST_FIRST_TRICK, ST_FMASK, ST_HAND, ST_N, ST_NTRICKS, ST_PHASE,
                     ST_PTS, ST_TAKER, ST_TEAM0, ST_TEAMS_PUBLIC, ST_TMASK, ST_TO_MOVE,
                     ST_TRICK, ST_TRICK_N, ST_TRICK_PTS, ST_TRICKS_DONE, ST_TRUMP, ST_UNDER,
                     ST_VARIANT, ST_WIN_POW, ST_WIN_SEAT, apply_action, follow_rule,
                     legal_cards, next_seat, sides_after_trick, trick_card_into,
                     under_card)
from .rules import R_DEADLINE

MAX_DEPTH = 33          # cards in a deal (32) and the root
W_COLS = 128
# work rows: 0..MAX_DEPTH search states (engine states for ``minimax``), then
# MAX_DEPTH+1 rows of move lists, scratch rows (SCRATCH: ordering keys; +1: the node
# count in column 0; +2, +3: free for the caller, pimc's world and candidate), the
# root's constants, then the transposition table (64 entries a row: key, bounds)
MOVES = MAX_DEPTH + 1
SCRATCH = 2 * MAX_DEPTH + 2
CONST = SCRATCH + 4
TT_BASE = SCRATCH + 5
TT_ROWS = 4096
TT_MASK = TT_ROWS * 64 - 1
INF = 1000

# ----- the search state (node words, N_; R_ is a rule slot): one short row per depth
# (copied, then one card applied)
N_HAND = 0              # +p: seat p's hand (Officers: its face-up cards)
N_TO_MOVE = 4
N_TRICK_N = 5           # cards in the current trick
N_FMASK = 6             # cards that follow its lead (all ones while it is empty)
N_ELIG = 7              # cards that can win it
N_WIN_SEAT = 8
N_WIN_POW = 9
# trick_card_into reads and writes the four trick words side by side
assert (N_ELIG, N_WIN_SEAT, N_WIN_POW) == (N_FMASK + 1, N_FMASK + 2, N_FMASK + 3)
N_TRICK_PTS = 10
N_TEAM0 = 11            # the first team's seats
N_FIXED = 12            # 1 once the sides cannot change (0: a first-trick wedding open)
N_DONE = 13             # tricks completed
N_PTS = 14              # +p: card points seat p has won
N_TCARDS = 18           # the current trick's cards
N_DOWN = 19             # Officers: face-down cards not turned over yet
N_WORDS = 20
# ----- the root's constants (row CONST)
K_N, K_TRUMP, K_TMASK, K_CBIT, K_OFFICERS, K_DECLARER, K_DEADLINE, K_NTRICKS, K_TAKER, \
    K_DISC_PTS, K_UHASH = range(11)
K_DOWN_OF = 11          # +p: Officers: the face-down cards under seat p's face-up cards
K_UNDER = 16            # +c: Officers: the face-down card under face-up card c, else -1
_ALL = np.uint64(0xFFFFFFFF)


def new_work():
    """A solver's scratch space (state stack, move lists, transposition table)."""
    return np.zeros((TT_BASE + TT_ROWS, W_COLS), dtype=np.int64)


@njit(cache=True, inline="always")
def new_work_rows(search):
    """Rows of a solver's scratch space (1 when no player searches)."""
    return TT_BASE + TT_ROWS if search else 1


@njit(cache=True, inline="always")
def _team_points(row, k):
    """Card points the first team of search state ``row`` has now."""
    team0 = row[N_TEAM0]
    v = 0
    for p in range(k[K_N]):
        if (team0 >> p) & 1:
            v += row[N_PTS + p]
    taker = k[K_TAKER]
    if taker >= 0 and (team0 >> taker) & 1:
        v += k[K_DISC_PTS]
    return v


@njit(cache=True, inline="always")
def _out_points(row, k):
    """Card points out of play in ``row``: every trick taken, and the discards."""
    v = k[K_DISC_PTS]
    for p in range(k[K_N]):
        v += row[N_PTS + p]
    return v


@njit(cache=True, _nrt=False)
def _load_search_root(r, st, work):
    """The search state of engine state ``st`` (phase ``P_PLAY``) into row 0, the
    constants of its deal into row CONST."""
    k = work[CONST]
    row = work[0]
    n = st[ST_N]
    t = st[ST_TRUMP]
    sidx = SEARCH_INDEX[t]
    k[K_N] = n
    k[K_TRUMP] = t
    k[K_TMASK] = np.int64(_to_search(sidx, np.uint64(st[ST_TMASK])))
    k[K_CBIT] = np.int64(_to_search(sidx, np.uint64(st[ST_CBIT])))
    officers = st[ST_VARIANT] == V_OFFICERS
    k[K_OFFICERS] = 1 if officers else 0
    k[K_DECLARER] = st[ST_DECLARER]
    k[K_DEADLINE] = r[R_DEADLINE]
    k[K_NTRICKS] = st[ST_NTRICKS]
    k[K_TAKER] = st[ST_TAKER]
    dp = 0
    m = np.uint64(st[ST_DISCARDS])
    while m != U0:
        dp += CARD_POINTS[lowest_bit(m)]
        m &= m - U1
    k[K_DISC_PTS] = dp
    h = np.uint64(0)
    down = U0
    for c in range(32):
        k[K_UNDER + c] = -1
    for p in range(4):
        k[K_DOWN_OF + p] = 0
    if officers:
        for w in range(4):
            h = mix64(h ^ np.uint64(st[ST_UNDER + w]))
        up = U0
        for p in range(n):
            up |= np.uint64(st[ST_HAND + p])
        for c in range(32):
            u = under_card(st, c)
            if u >= 0:
                k[K_UNDER + sidx[c]] = sidx[u]
                if ((up >> np.uint64(c)) & U1) != U0:
                    down |= U1 << np.uint64(sidx[u])
                    for p in range(n):
                        if ((np.uint64(st[ST_HAND + p]) >> np.uint64(c)) & U1) != U0:
                            k[K_DOWN_OF + p] |= np.int64(1) << sidx[u]
    k[K_UHASH] = np.int64(h)
    for p in range(4):
        row[N_HAND + p] = np.int64(_to_search(sidx, np.uint64(st[ST_HAND + p]))) if p < n else 0
        row[N_PTS + p] = st[ST_PTS + p] if p < n else 0
    row[N_TO_MOVE] = st[ST_TO_MOVE]
    tn = st[ST_TRICK_N]
    row[N_TRICK_N] = tn
    row[N_FMASK] = np.int64(_to_search(sidx, np.uint64(st[ST_FMASK])))
    row[N_ELIG] = np.int64(_to_search(sidx, np.uint64(st[ST_ELIG])))
    row[N_WIN_SEAT] = st[ST_WIN_SEAT]
    row[N_WIN_POW] = st[ST_WIN_POW]
    row[N_TRICK_PTS] = st[ST_TRICK_PTS]
    row[N_TEAM0] = st[ST_TEAM0]
    row[N_FIXED] = 1 if (st[ST_FIRST_TRICK] == 0 or st[ST_TEAMS_PUBLIC] != 0) else 0
    row[N_DONE] = st[ST_TRICKS_DONE]
    tc = U0
    for i in range(tn):
        tc |= U1 << np.uint64(sidx[st[ST_TRICK + i]])
    row[N_TCARDS] = np.int64(tc)
    row[N_DOWN] = np.int64(down)


@njit(cache=True, inline="always")
def _legal(row, k):
    """The engine's follow rule on a search state (``engine.legal_cards``)."""
    return follow_rule(np.uint64(row[N_HAND + row[N_TO_MOVE]]), np.uint64(row[N_FMASK]),
                       np.uint64(k[K_CBIT]))


@njit(cache=True, inline="always")
def _play(row, k, c):
    """Card ``c`` played by the seat to move in search state ``row``: the card play of
    ``engine._play`` on the words the search keeps (the engine's kernels, no records)."""
    p = row[N_TO_MOVE]
    n = k[K_N]
    bit = U1 << np.uint64(c)
    hand = np.uint64(row[N_HAND + p]) ^ bit
    if k[K_OFFICERS] != 0:
        u = k[K_UNDER + c]
        if u >= 0:
            ub = U1 << np.uint64(u)
            hand |= ub
            row[N_DOWN] = np.int64(np.uint64(row[N_DOWN]) ^ ub)
    row[N_HAND + p] = np.int64(hand)
    i = row[N_TRICK_N]
    trump = k[K_TRUMP]
    row[N_TRICK_PTS] += S_POINTS[trump, c]
    trick_card_into(S_FOLLOW, S_POWER, trump, k[K_TMASK], c, p, i, row, N_FMASK)
    i += 1
    if i < n:
        row[N_TRICK_N] = i
        row[N_TCARDS] = np.int64(np.uint64(row[N_TCARDS]) | bit)
        row[N_TO_MOVE] = next_seat(p, n)
        return
    w = row[N_WIN_SEAT]
    row[N_PTS + w] += row[N_TRICK_PTS]
    t = row[N_DONE] + 1
    row[N_DONE] = t
    row[N_TRICK_N] = 0
    row[N_TRICK_PTS] = 0
    row[N_TCARDS] = 0
    row[N_FMASK] = np.int64(_ALL)
    row[N_TO_MOVE] = w
    if row[N_FIXED] == 0:
        # a first-trick wedding still open (the engine's rule)
        row[N_TEAM0], row[N_FIXED] = sides_after_trick(row[N_TEAM0], w, k[K_DECLARER], t,
                                                       k[K_DEADLINE])


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


#: see ``_class_order``; the search numbering: search card ``s`` of trump ``t`` is the
#: engine card ``CLASS_ORDER[t, s]``
CLASS_ORDER = _class_order()


def _search_tables():
    """The engine's card tables in the search numbering of each trump: the search index
    of each engine card, and per search card its follow mask (in search bits), trick
    power and card points.  Derived from ``cards``' tables, never written again."""
    index = np.zeros((4, 32), dtype=np.int64)
    follow = np.zeros((4, 32), dtype=np.uint64)
    power = np.zeros((4, 32), dtype=np.int64)
    points = np.zeros((4, 32), dtype=np.int64)
    for t in range(4):
        for s in range(32):
            index[t, CLASS_ORDER[t, s]] = s
        for s in range(32):
            c = int(CLASS_ORDER[t, s])
            fm = int(FOLLOW_MASK[t, c])
            follow[t, s] = sum(1 << int(index[t, x]) for x in range(32) if fm >> x & 1)
            power[t, s] = POWER[t, c]
            points[t, s] = CARD_POINTS[c]
    return index, follow, power, points


#: see ``_search_tables``
SEARCH_INDEX, S_FOLLOW, S_POWER, S_POINTS = _search_tables()
# In the search numbering the trumps are the lowest bits and each plain suit a run of
# bits after them, each strongest first: of the cards that may win a trick (its suit
# and the trumps) a lower bit is always the stronger card, a hand's cards come out of
# ``lowest_bit`` strongest first, and cards with no other card between them in power
# are neighbouring bits.
assert all(int(S_FOLLOW[t, 0]) == (1 << 14) - 1 for t in range(4))


@njit(cache=True, inline="always")
def _to_search(sidx, m):
    """Engine card mask ``m`` in the search numbering (``sidx``: ``SEARCH_INDEX[t]``)."""
    out = U0
    while m != U0:
        out |= U1 << np.uint64(sidx[lowest_bit(m)])
        m &= m - U1
    return out


@njit(cache=True, inline="always")
def _mask_points(t, m):
    """Card points of the search cards in ``m``."""
    v = 0
    while m != U0:
        v += S_POINTS[t, lowest_bit(m)]
        m &= m - U1
    return v


@njit(cache=True, inline="always")
def _top_trumps(row, k):
    """The card points of the strongest trumps still out while one side holds them
    all (a run from the top): they fall into tricks that side wins.  Positive for the
    first team, negative for the other (0: nobody sure of any).  Officers' face-down
    cards count for the seat whose face-up card covers them: it plays them later, and
    a trump with every stronger one on its own side wins whatever trick it falls in."""
    team0 = row[N_TEAM0]
    down = np.uint64(row[N_DOWN])
    h0 = U0
    h1 = U0
    for p in range(k[K_N]):
        h = np.uint64(row[N_HAND + p]) | (down & np.uint64(k[K_DOWN_OF + p]))
        if (team0 >> p) & 1:
            h0 |= h
        else:
            h1 |= h
    tm = np.uint64(k[K_TMASK])
    x = (h0 | h1) & tm
    top = x & (U0 - x)                  # the strongest trump out (trumps: the low bits)
    sign = 1
    if (top & h1) != U0:
        h0, h1 = h1, h0
        sign = -1
    elif (top & h0) == U0:
        return 0                        # none out
    # the holder's trumps above the other side's strongest
    stop = h1 & tm
    run = h0 & tm if stop == U0 else h0 & ((stop & (U0 - stop)) - U1)
    return sign * _mask_points(k[K_TRUMP], run)


@njit(cache=True, inline="always")
def _key(row, k):
    """Hash of what decides the rest of the deal at a trick's start (never 0)."""
    h = np.uint64(row[N_TO_MOVE] + 8 * row[N_TEAM0] + 256 * k[K_TRUMP])
    h = mix64(h ^ (np.uint64(k[K_CBIT]) << np.uint64(16)) ^ np.uint64(k[K_UHASH]))
    for p in range(k[K_N]):
        h = mix64(h ^ np.uint64(row[N_HAND + p]) ^ (np.uint64(p) << np.uint64(58)))
    return np.int64(h | U1)


def _rank_tables():
    """Per trump, three masks of search cards spelling each card's points in three
    bits (0, 2, 3, 4, 10, 11 -> 0..5); and the four groups of cards that follow alike
    (the trumps, then each plain suit), the same bits under every trump."""
    code = {0: 0, 2: 1, 3: 2, 4: 3, 10: 4, 11: 5}
    pbits = np.zeros((4, 3), dtype=np.uint64)
    for t in range(4):
        for s in range(32):
            v = code[int(S_POINTS[t, s])]
            for b in range(3):
                if v >> b & 1:
                    pbits[t, b] |= np.uint64(1 << s)
    groups = np.array(sorted({int(S_FOLLOW[0, s]) for s in range(32)}), dtype=np.uint64)
    assert len(groups) == 4 and all(
        sorted({int(S_FOLLOW[t, s]) for s in range(32)}) == [int(g) for g in groups]
        for t in range(4))
    return pbits, groups


#: see ``_rank_tables``
S_POINT_BITS, S_GROUPS = _rank_tables()
_RANK_SALT = np.uint64(0x5851F42D4C957F2D)


@njit(cache=True, inline="always")
def hands_in_play(row):
    """The cards in the seats' hands of search state ``row`` (at a trick's start: every
    card still in play, Officers' face-down ones aside)."""
    return np.uint64(row[N_HAND]) | np.uint64(row[N_HAND + 1]) | \
        np.uint64(row[N_HAND + 2]) | np.uint64(row[N_HAND + 3])


@njit(cache=True, inline="always")
def _rank_key(row, k, alive):
    """Hash of a trick start up to the cards' relative ranks (never 0): of the cards
    still in play (``alive``), in power order, who holds each, its card points, which
    is the called card, and how many of them each group holds; with who leads and
    the sides.  Positions alike in all of it play alike card for card (who wins a
    trick depends on the cards' order among those still in play, the follow rule on
    the groups and the called card) and have the same points to come, whichever cards
    earlier tricks took, so they share one entry of the table.  Not for Officers
    (face-down cards) nor while a first-trick wedding's partner is open."""
    t = k[K_TRUMP]
    h1 = np.uint64(row[N_HAND + 1])
    h2 = np.uint64(row[N_HAND + 2])
    h3 = np.uint64(row[N_HAND + 3])
    own = compress_bits(h1 | h3, alive) | (compress_bits(h2 | h3, alive) << np.uint64(32))
    pts = compress_bits(S_POINT_BITS[t, 0], alive) | \
        (compress_bits(S_POINT_BITS[t, 1], alive) << np.uint64(32))
    more = compress_bits(S_POINT_BITS[t, 2], alive) | \
        (compress_bits(np.uint64(k[K_CBIT]), alive) << np.uint64(32))
    sizes = popcount(alive & S_GROUPS[0]) | (popcount(alive & S_GROUPS[1]) << np.uint64(5)) | \
        (popcount(alive & S_GROUPS[2]) << np.uint64(10)) | \
        (popcount(alive & S_GROUPS[3]) << np.uint64(15))
    h = np.uint64(row[N_TO_MOVE] + 4 * row[N_TEAM0] + 64 * k[K_N]) | (sizes << np.uint64(12))
    h = mix64(h ^ _RANK_SALT)
    h = mix64(h ^ own)
    h = mix64(h ^ pts)
    h = mix64(h ^ more)
    return np.int64(h | U1)


@njit(cache=True, inline="always")
def _may_follow(row, q, fm):
    """The cards seat ``q`` of search state ``row`` may put on a trick led in ``fm``
    (a follow mask): those that follow it, or its whole hand when none does.  The called
    card's rule is left out, so this is a superset of its legal cards: enough for the
    bounds it is used for."""
    h = np.uint64(row[N_HAND + q])
    lq = h & fm
    if lq == U0:
        lq = h
    return lq


@njit(cache=True, inline="always")
def _secure_lead(row, k, c, mine):
    """Whether search card ``c``, led by a seat of side ``mine``, wins the trick
    whatever the other side plays (no card of a foe that may win it is stronger: with
    the search numbering, no such card on a lower bit)."""
    fm = S_FOLLOW[k[K_TRUMP], c]
    beats = (fm | np.uint64(k[K_TMASK])) & ((U1 << np.uint64(c)) - U1)
    team0 = row[N_TEAM0]
    for q in range(k[K_N]):
        if ((team0 >> q) & 1) == mine:
            continue
        if (_may_follow(row, q, fm) & beats) != U0:
            return False
    return True


@njit(cache=True, inline="always")
def _moves(row, k, out, keys):
    """The cards to search for the seat to move into ``out`` (equivalent ones merged:
    of a run of cards of this hand that follow alike, with equal card points and no
    card still in play between them, only the strongest; the called card and, in
    Officers, a card lying on a face-down card are never merged), best guess first;
    returns how many."""
    p = row[N_TO_MOVE]
    t = k[K_TRUMP]
    officers = k[K_OFFICERS] != 0
    cbit = np.uint64(k[K_CBIT])
    legal = _legal(row, k)
    alive = hands_in_play(row) | np.uint64(row[N_TCARDS]) | np.uint64(row[N_DOWN])
    # cards in play that are not this hand's to play now: a run of equivalent cards
    # ends at one of them
    others = alive & ~legal
    tn = row[N_TRICK_N]
    team0 = row[N_TEAM0]
    mine = (team0 >> p) & 1
    friend = False
    if tn > 0:
        friend = ((team0 >> row[N_WIN_SEAT]) & 1) == mine
    win_pow = row[N_WIN_POW]
    elig = np.uint64(row[N_ELIG])
    tpts = row[N_TRICK_PTS]
    foe_max = -1         # the strongest card a foe still to play could win with
    if tn > 0:
        n_seats = k[K_N]
        fm = np.uint64(row[N_FMASK])
        q = p
        for _ in range(n_seats - 1 - tn):
            q += 1
            if q >= n_seats:
                q = 0
            if ((team0 >> q) & 1) == mine:
                continue
            lq = _may_follow(row, q, fm) & elig
            if lq != U0:
                pw = S_POWER[t, lowest_bit(lq)]
                if pw > foe_max:
                    foe_max = pw
    n = 0
    prev = -1            # the last card kept, if it is a mergeable one
    rest = legal
    while rest != U0:
        c = lowest_bit(rest)
        bit = U1 << np.uint64(c)
        rest ^= bit
        ok = bit != cbit and not (officers and k[K_UNDER + c] >= 0)
        pts = S_POINTS[t, c]
        if prev >= 0 and ok and S_POINTS[t, prev] == pts and \
                (S_FOLLOW[t, prev] & bit) != U0 and \
                (others & (bit - (U1 << np.uint64(prev)))) == U0:
            continue
        prev = c if ok else -1
        pc = S_POWER[t, c]
        if tn == 0:
            kk = pc * 4 + pts
            if _secure_lead(row, k, c, mine):
                kk += 1000
        else:
            beats = (bit & elig) != U0 and pc > win_pow
            if friend and win_pow > foe_max:
                # the trick is ours whatever comes: the most points onto it
                kk = 2000 + pts * 4 - pc
            elif beats and not friend and pc > foe_max:
                # take it for sure, as cheaply as possible
                kk = 1500 + pts * 4 - pc * 8
            elif beats and not friend:
                kk = 1000 + tpts * 4 - pc
            elif friend:
                kk = 500 + pts * 4 - pc
            else:
                kk = 100 - pts * 4 - pc
        out[n] = c
        keys[n] = kk
        n += 1
    sort_by_key_desc(out, keys, n)
    return n


_SIG_AB = "int64(int64[:, ::1], int64, int64, int64)"
_SIG_MM = "int64(int64[::1], int64[:, ::1], int64)"


@njit(_SIG_AB, cache=True, _nrt=False)
def _ab(work, d, alpha, beta):
    """Fail-soft alpha-beta on search state ``work[d]``: the first team's final card
    points, exact when strictly inside (alpha, beta), else a bound on the right side."""
    row = work[d]
    k = work[CONST]
    work[SCRATCH + 1, 0] += 1
    left = k[K_NTRICKS] - row[N_DONE]
    if left <= 1:
        if left == 1:
            # the last trick: every card is forced
            child = work[d + 1]
            for w in range(N_WORDS):
                child[w] = row[w]
            for _ in range(k[K_N] - row[N_TRICK_N]):
                _play(child, k, lowest_bit(np.uint64(child[N_HAND + child[N_TO_MOVE]])))
            return _team_points(child, k)
        return _team_points(row, k)
    use_tt = row[N_TRICK_N] == 0 and row[N_FIXED] != 0
    ranked = k[K_OFFICERS] == 0
    alive = U0
    base = 0
    lo = 0
    hi = 0
    key = np.int64(0)
    col = 0
    ttrow = work[0]
    bm = -1
    if use_tt:
        if ranked:
            alive = hands_in_play(row)
            key = _rank_key(row, k, alive)
        else:
            key = _key(row, k)
        slot = key & TT_MASK
        ttrow = work[TT_BASE + (slot >> 6)]
        col = (slot & 62) * 2
        # the table's slot is far in memory: ask for it while the bounds are worked out
        prefetch(ttrow.ctypes.data + col * 8)
        # the first team ends between what it has and all the points still out,
        # narrowed by what the table knows of this trick start
        base = _team_points(row, k)
        lo = base
        hi = 120 - (_out_points(row, k) - base)
        # sure points: a trump with every stronger trump still out on its own side
        # goes to that side, whenever it is played
        sure = _top_trumps(row, k)
        if sure > 0:
            lo += sure
        else:
            hi += sure
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if ttrow[col + 2] == key:
            col += 2
        if ttrow[col] == key:
            packed = ttrow[col + 1]
            lo = max(lo, base + (packed & 255))
            hi = min(hi, base + ((packed >> 8) & 255))
            bm = ((packed >> 16) & 255) - 1
            if ranked and bm >= 0:
                # stored as its place among the cards in play
                bm = kth_bit(alive, bm)
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    acts = work[MOVES + d]
    keys = work[SCRATCH]
    n = _moves(row, k, acts, keys)
    if bm >= 0:
        # the stored best card first
        for i in range(n):
            if acts[i] == bm:
                for j in range(i, 0, -1):
                    acts[j] = acts[j - 1]
                acts[0] = bm
                break
    alpha0 = alpha
    beta0 = beta
    maxing = (row[N_TEAM0] >> row[N_TO_MOVE]) & 1 == 1
    child = work[d + 1]
    best = -INF if maxing else INF
    bm = acts[0]
    for i in range(n):
        for w in range(N_WORDS):
            child[w] = row[w]
        _play(child, k, acts[i])
        # a seat with one legal card inside a trick plays it here, not a node deeper
        while child[N_TRICK_N] != 0:
            lg = _legal(child, k)
            if (lg & (lg - U1)) != U0:
                break
            _play(child, k, lowest_bit(lg))
        v = _ab(work, d + 1, alpha, beta)
        best, bm, alpha, beta = ab_child(maxing, v, acts[i], best, bm, alpha, beta)
        if alpha >= beta:
            break
    if use_tt:
        if best <= alpha0:
            if best < hi:
                hi = best
        elif best >= beta0:
            if best > lo:
                lo = best
        else:
            lo = best
            hi = best
        # two entries a slot: the first keeps the larger subtree, the second the latest
        if ttrow[col] != key:
            col = (slot & 62) * 2
            if (ttrow[col + 1] >> 24) > left:
                col += 2
            elif ttrow[col] != 0:
                ttrow[col + 2] = ttrow[col]
                ttrow[col + 3] = ttrow[col + 1]
        if ranked:
            bm = np.int64(popcount(alive & ((U1 << np.uint64(bm)) - U1)))
        ttrow[col] = key
        ttrow[col + 1] = (lo - base) | ((hi - base) << 8) | ((bm + 1) << 16) | (left << 24)
    return best


@njit(cache=True, inline="always")
def _load_root(st, work):
    """``minimax``'s root: the engine state into row 0, the game header (words a step
    never changes) into every row of the stack."""
    row = work[0]
    for w in range(STATE_SIZE):
        row[w] = st[w]
    for d in range(1, MAX_DEPTH + 1):
        row = work[d]
        for w in range(14):
            row[w] = st[w]
        for w in range(ST_UNDER, STATE_SIZE):
            row[w] = st[w]


@njit(cache=True, _nrt=False)
def _playout(work):
    """The first team's points when every seat plays the search's first-ordered card
    from the state in row 0 (a guess of its value)."""
    k = work[CONST]
    row = work[1]
    for w in range(N_WORDS):
        row[w] = work[0, w]
    acts = work[MOVES]
    keys = work[SCRATCH]
    while row[N_DONE] < k[K_NTRICKS]:
        _moves(row, k, acts, keys)
        _play(row, k, acts[0])
    return max(1, _team_points(row, k))


@njit(cache=True, _nrt=False)
def _mtd(work, guess):
    """The exact value of the search state in row 0 by null-window searches, the
    first at ``guess``, then bisecting what is still open (each fail-soft result
    narrows it; the table keeps what each search learnt)."""
    lo = 0
    hi = 120
    beta = guess
    while lo < hi:
        v = _ab(work, 0, beta - 1, beta)
        if v < beta:
            hi = v
        else:
            lo = v
        beta = (lo + hi + 1) // 2
    return lo


@njit(cache=True, _nrt=False)
def solve(r, st, work):
    """Final card points of the first team (``ST_TEAM0``) with all cards open, best
    play by both sides, from the state ``st`` (phase ``P_PLAY`` or over)."""
    if st[ST_PHASE] == P_DONE:
        return st[ST_CP0]
    _load_search_root(r, st, work)
    return _mtd(work, _playout(work))


@njit(cache=True, _nrt=False)
def reaches(r, st, work, target):
    """Whether the first team ends with at least ``target`` card points under best play
    with all cards open (one null-window search: far cheaper than ``solve``)."""
    if st[ST_PHASE] == P_DONE:
        return st[ST_CP0] >= target
    _load_search_root(r, st, work)
    return _ab(work, 0, target - 1, target) >= target


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
        for w in range(14, STATE_SIZE):
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
    top = np.empty(STATE_SIZE, dtype=np.int64)
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

