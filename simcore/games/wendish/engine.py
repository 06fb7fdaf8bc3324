"""The Wendish Schafkopf rules, written once: a whole game's state in one small
int64 array and the step kernels that deal, list legal actions, apply them, score
and observe.  The batch loop (play.py), the records' replay (records.py), the
policies (policies.py) and the Python API (api.py) all call these kernels and
nothing else about the rules.

State (``STATE_SIZE`` int64 words; card masks have bit ``card id`` set, cards as in
cards.py; seats are 0..n-1; -1 means "none"):

====================  =======================================================
game header
``ST_N``              players (2, 3 or 4)
``ST_NDEALS``         deals in the game
``ST_VARIANT``        0 four, 1 three, 2 three_sharp, 3 officers
``ST_RNG``            the game's splitmix64 stream word (uint64 bits): dealing
                      and the ``random`` policy draw from it
``ST_DEAL``           index of the current deal
``ST_DEALER``         its dealer
``ST_SCORE`` +p       cumulative score of seat p (the current deal counts once over)
the deal
``ST_DECK`` +0..3     the deal's card order, byte k of word ``ST_DECK + k // 8`` is
                      the card at position k (hands, then skat; Officers: seat p's
                      face-up cards at 16p..16p+7, the card under each at +8); the
                      next deal shuffles this order, as the old loop did
``ST_PHASE``          ``P_PICKUP`` ``P_DISCARD`` ``P_LUST`` ``P_OLD_ONES`` ``P_PLAY`` ``P_DONE``
``ST_TO_MOVE``        the seat to act (-1 once the deal is over)
``ST_FOREHAND``       the seat after the dealer; leads the first trick
``ST_HAND`` +p        seat p's hand (Officers: its face-up cards)
``ST_SKAT``           the skat as dealt
``ST_TAKER``          who takes the skat (-1 without a skat)
``ST_DISCARDS``       the taker's discards so far
``ST_LUST_N``         Lust Solo decisions made so far
``ST_OLD_ONES``       the seat holding both black queens after the skat, else -1
``ST_CONTRACT``       ``NORMAL`` ``WEDDING`` ``QUIET_SOLO`` ``SOLO``
``ST_DECLARER``       soloist or the Old Ones' holder (-1 in a normal game)
``ST_TRUMP``          trump suit (3, diamonds, unless a Lust Solo names another)
``ST_CALLED``         the card a wedding calls (-1 none)
``ST_FIRST_TRICK``    1 for a ``wedding first_trick``
``ST_TEAM0``          seat mask of the first team (the declaring side)
``ST_TEAMS_PUBLIC``   1 once everybody knows the sides (solo, Officers, a wedding
                      partner shown or the first_trick deadline passed)
``ST_CBIT``           mask of the called card (0 none)
``ST_TMASK``          the trump mask
``ST_PLAYED``         every card played so far, the current trick's included
``ST_QC_BY``/``ST_QS_BY``/``ST_CALLED_BY``  who played QC / QS / the called card
``ST_LEADER``         leader of the current trick
``ST_TRICK_N``        cards in the current trick
``ST_TRICK`` +i       its cards in play order
``ST_FMASK``          cards that follow its lead (all ones while it is empty)
``ST_ELIG``           cards that can win it (lead suit and trumps)
``ST_WIN_SEAT``/``ST_WIN_POW``/``ST_WIN_CARD``  who holds it so far, with what
``ST_TRICK_PTS``      its card points so far
``ST_TRICKS_DONE``    tricks completed
``ST_NTRICKS``        tricks in the deal (the hand size)
``ST_PTS`` +p         card points seat p has won in tricks
``ST_NTR`` +p         tricks seat p has won
``ST_UNDER`` +0..3    Officers: byte c of the words (card c) is 1 + the face-down card
                      under face-up card c, 0 for none
the deal's result (valid in ``P_DONE``)
``ST_CP0``            card points of the first team (its discards included)
``ST_TRICKS0``        tricks of the first team
``ST_WINNER``         0 or 1 (index into the teams), -1 a drawn Officers' game
``ST_SCHNEIDER``/``ST_SCHWARZ``  whether the losers were
``ST_DELTA`` +p       seat p's score change
public knowledge
``ST_PLAYED_BY`` +p   the cards seat p has played this deal
``ST_VOID`` +p        cards seat p is known not to hold: every card of a led suit
                      (trumps one suit) it did not follow (not kept in Officers,
                      where a face-down card can turn up later)
====================  =======================================================

Actions: one int each, decoded only here (``encode``/``decode`` tables below);
the seat is always the player to move.

=========  ===========  ===================================================
code       record verb  meaning
=========  ===========  ===================================================
0..31      play C       play card C
32..63     discard C    put card C = code-32 away after the pickup
64         pickup       take the skat
65         pass         no Lust Solo
66..69     solo S       Lust Solo with trump suit S = code-66 (C S H D)
70         quiet_solo   the Old Ones play alone, unannounced
71         wedding      ``wedding first_trick``
72..103    wedding C    call card C = code-72
=========  ===========  ===================================================

Within every phase the legal actions listed in code order are also the order
in which the ``random`` player counts them.

Observation (``observe``; ``OBS_SIZE`` int64 words), what one seat may know:

=================  ==========================================================
``O_SEAT``         the observing seat
``O_N``            players; ``O_VARIANT``, ``O_DEAL``, ``O_DEALER`` as in the state
``O_PHASE``        the phase; while the Old Ones' holder chooses (unannounced,
                   if it is a quiet solo) the other seats see ``P_PLAY`` with
                   nobody to move yet
``O_TO_MOVE``      the seat to act as this seat sees it (-1 unknown or over)
``O_HAND``         own hand (Officers: own face-up cards)
``O_SKAT``         the skat, for its taker once picked up; else 0
``O_TAKER``        who took (or takes) the skat, -1 without one
``O_DISCARDS``     the discards, for the taker only; else 0
``O_NDISCARDS``    how many cards were put away
``O_LUST_N``       Lust Solo decisions made so far (all passes but a solo)
``O_CONTRACT``     the contract as this seat knows it: a quiet solo is
                   ``NORMAL`` to everybody but its declarer
``O_DECLARER``     the declarer as known to this seat, else -1
``O_TRUMP``        trump suit; ``O_CALLED``, ``O_FIRST_TRICK`` the wedding
``O_TEAMS_KNOWN``  1 when this seat knows the sides exactly (a solo, Officers,
                   its own quiet solo, a wedding's partner shown)
``O_TEAM0``        the first team's seat mask when known, else 0
``O_CALLED_BY``    ``O_QC_BY``, ``O_QS_BY``: who played those cards (-1 not yet)
``O_PLAYED``       every card played, the current trick included
``O_LEADER``       ``O_TRICK_N``, ``O_TRICK`` +i: the current trick
``O_WIN_SEAT``     ``O_WIN_CARD``, ``O_TRICK_PTS``: who holds it, with what, worth
``O_TRICKS_DONE``  tricks completed
``O_COUNT`` +p     cards in seat p's hand (Officers: face-up and face-down)
``O_UP`` +p        Officers: seat p's face-up cards (public); else 0
``O_COVERED``      Officers: the face-up cards that lie on a face-down card
``O_POINTS`` +p    card points seat p has taken in tricks
``O_TRICKS`` +p    tricks seat p has taken
``O_SCORES`` +p    cumulative scores
=================  ==========================================================
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, game_stream, lowest_bit, mask_ids, popcount, \
    shuffle_inplace
from .cards import CARD_POINTS, FOLLOW_MASK, POWER, QC, QS, TRUMP_MASK, V_OFFICERS, \
    VARIANT_DECK, VARIANT_HAND, VARIANT_SKAT, BLACK_QUEENS
from .rules import (R_BASE, R_DEADLINE, R_DEALS, R_LUST, R_PLAYERS, R_SCHNEIDER,
                    R_SCHNEIDER_BELOW, R_SCHWARZ, R_SOLO_BASE, R_SOLO_SUITS, R_VARIANT)

# ----- contracts and phases
NORMAL, WEDDING, QUIET_SOLO, SOLO = 0, 1, 2, 3
CONTRACTS = ("normal", "wedding", "quiet_solo", "solo")
P_PICKUP, P_DISCARD, P_LUST, P_OLD_ONES, P_PLAY, P_DONE = range(6)
PHASES = ("pickup", "discard", "lust", "old_ones", "play", "done")

# ----- actions
A_PLAY = 0
A_DISCARD = 32
A_PICKUP = 64
A_PASS = 65
A_SOLO = 66
A_QUIET = 70
A_FIRST_TRICK = 71
A_WEDDING = 72
N_ACTIONS = 104
VERBS = ("play", "discard", "pickup", "pass", "solo", "quiet_solo", "wedding")
MAX_LEGAL = 34          # the longest legal list: a wedding call (2 + up to 32 cards)

# ----- state layout
(ST_N, ST_NDEALS, ST_VARIANT, ST_RNG, ST_DEAL, ST_DEALER) = range(6)
ST_SCORE = 6
ST_DECK = 10
(ST_PHASE, ST_TO_MOVE, ST_FOREHAND) = range(14, 17)
ST_HAND = 17
(ST_SKAT, ST_TAKER, ST_DISCARDS, ST_LUST_N, ST_OLD_ONES, ST_CONTRACT, ST_DECLARER,
 ST_TRUMP, ST_CALLED, ST_FIRST_TRICK, ST_TEAM0, ST_TEAMS_PUBLIC, ST_CBIT, ST_TMASK,
 ST_PLAYED, ST_QC_BY, ST_QS_BY, ST_CALLED_BY, ST_LEADER, ST_TRICK_N) = range(21, 41)
ST_TRICK = 41
(ST_FMASK, ST_ELIG, ST_WIN_SEAT, ST_WIN_POW, ST_WIN_CARD, ST_TRICK_PTS, ST_TRICKS_DONE,
 ST_NTRICKS) = range(45, 53)
ST_PTS = 53
ST_NTR = 57
ST_UNDER = 61
(ST_CP0, ST_TRICKS0, ST_WINNER, ST_SCHNEIDER, ST_SCHWARZ) = range(65, 70)
ST_DELTA = 70
ST_PLAYED_BY = 74
ST_VOID = 78
STATE_SIZE = 82

# ----- observation layout
(O_SEAT, O_N, O_VARIANT, O_DEAL, O_DEALER, O_PHASE, O_TO_MOVE, O_HAND, O_SKAT, O_TAKER,
 O_DISCARDS, O_NDISCARDS, O_LUST_N, O_CONTRACT, O_DECLARER, O_TRUMP, O_CALLED,
 O_FIRST_TRICK, O_TEAMS_KNOWN, O_TEAM0, O_CALLED_BY, O_QC_BY, O_QS_BY, O_PLAYED,
 O_LEADER, O_TRICK_N) = range(26)
O_TRICK = 26
(O_WIN_SEAT, O_WIN_CARD, O_TRICK_PTS, O_TRICKS_DONE) = range(30, 34)
O_COUNT = 34
O_UP = 38
O_COVERED = 40
O_POINTS = 41
O_TRICKS = 45
O_SCORES = 49
O_PLAYED_BY = 53
O_VOID = 57
OBS_SIZE = 61

_VDECK = np.array(VARIANT_DECK, dtype=np.uint64)
_VHAND = np.array(VARIANT_HAND, dtype=np.int64)
_VSKAT = np.array(VARIANT_SKAT, dtype=np.int64)
_BQ = np.uint64(BLACK_QUEENS)
_UQC = np.uint64(1 << QC)
_UQS = np.uint64(1 << QS)
_ALL = np.uint64(0xFFFFFFFF)
_B8 = np.uint64(0xFF)


# ----- small helpers ------------------------------------------------------------
@njit(cache=True, inline="always")
def _bit(c):
    return U1 << np.uint64(c)


@njit(cache=True, inline="always")
def _holder(st, n, bit):
    for p in range(n):
        if (np.uint64(st[ST_HAND + p]) & bit) != U0:
            return p
    return -1


@njit(cache=True, inline="always")
def deck_card(st, k):
    """The card at position ``k`` of the deal's card order."""
    w = np.uint64(st[ST_DECK + (k >> 3)])
    return np.int64((w >> np.uint64((k & 7) * 8)) & _B8)


@njit(cache=True, inline="always")
def under_card(st, c):
    """Officers: the face-down card under face-up card ``c``, -1 for none."""
    w = np.uint64(st[ST_UNDER + (c >> 3)])
    return np.int64((w >> np.uint64((c & 7) * 8)) & _B8) - 1


# ----- deals --------------------------------------------------------------------
@njit(cache=True, inline="always")
def _start_play(st):
    st[ST_PHASE] = P_PLAY
    fh = st[ST_FOREHAND]
    st[ST_LEADER] = fh
    st[ST_TO_MOVE] = fh
    st[ST_TMASK] = np.int64(TRUMP_MASK[st[ST_TRUMP]])
    if st[ST_CONTRACT] == SOLO or st[ST_VARIANT] == V_OFFICERS:
        st[ST_TEAMS_PUBLIC] = 1


@njit(cache=True, inline="always")
def _start_old_ones(st):
    oo = st[ST_OLD_ONES]
    if oo >= 0:
        st[ST_PHASE] = P_OLD_ONES
        st[ST_TO_MOVE] = oo
    else:
        n = st[ST_N]
        st[ST_TEAM0] = (1 << _holder(st, n, _UQC)) | (1 << _holder(st, n, _UQS))
        _start_play(st)


@njit(cache=True, inline="always")
def _after_skat(r, st):
    n = st[ST_N]
    if st[ST_VARIANT] == V_OFFICERS:
        st[ST_TEAM0] = 1 << st[ST_FOREHAND]
        _start_play(st)
        return
    oo = -1
    for p in range(n):
        if (np.uint64(st[ST_HAND + p]) & _BQ) == _BQ:
            oo = p
    st[ST_OLD_ONES] = oo
    if r[R_LUST] != 0:
        st[ST_PHASE] = P_LUST
        st[ST_TO_MOVE] = st[ST_FOREHAND]
    else:
        _start_old_ones(st)


@njit(cache=True, inline="always")
def start_deal(r, st, deal, dealer, deck):
    """Start deal ``deal`` dealt by ``dealer`` from the card order ``deck`` (an int
    array: the hands one after the other, then the skat; Officers: seat p's face-up
    cards at 16p..16p+7 and the face-down card under each at 16p+8..16p+15).  The
    game header (players, deals, stream, scores) is kept."""
    variant = st[ST_VARIANT]
    n = st[ST_N]
    hs = _VHAND[variant]
    skat_n = _VSKAT[variant]
    ncards = np.int64(popcount(_VDECK[variant]))
    for i in range(ST_DECK, STATE_SIZE):
        st[i] = 0
    st[ST_DEAL] = deal
    st[ST_DEALER] = dealer
    for w in range(4):
        x = U0
        for j in range(8):
            k = 8 * w + j
            if k < ncards:
                x |= np.uint64(deck[k]) << np.uint64(8 * j)
        st[ST_DECK + w] = np.int64(x)
    fh = dealer + 1
    if fh >= n:
        fh -= n
    st[ST_FOREHAND] = fh
    st[ST_LEADER] = fh
    st[ST_TAKER] = -1
    st[ST_OLD_ONES] = -1
    st[ST_DECLARER] = -1
    st[ST_TRUMP] = 3
    st[ST_CALLED] = -1
    st[ST_QC_BY] = -1
    st[ST_QS_BY] = -1
    st[ST_CALLED_BY] = -1
    st[ST_FMASK] = np.int64(_ALL)
    st[ST_NTRICKS] = hs
    st[ST_WINNER] = -1
    if variant == V_OFFICERS:
        for p in range(2):
            up = U0
            for i in range(8):
                c = deck[16 * p + i]
                u = deck[16 * p + 8 + i]
                up |= _bit(c)
                w = ST_UNDER + (c >> 3)
                st[w] = np.int64(np.uint64(st[w]) | (np.uint64(u + 1) << np.uint64((c & 7) * 8)))
            st[ST_HAND + p] = np.int64(up)
    else:
        for p in range(n):
            hm = U0
            for i in range(hs):
                hm |= _bit(deck[p * hs + i])
            st[ST_HAND + p] = np.int64(hm)
        sk = U0
        for i in range(skat_n):
            sk |= _bit(deck[n * hs + i])
        st[ST_SKAT] = np.int64(sk)
    if skat_n > 0:
        taker = _holder(st, n, _UQC)
        if taker < 0:
            taker = _holder(st, n, _UQS)
        if taker < 0:
            taker = fh
        st[ST_TAKER] = taker
        st[ST_PHASE] = P_PICKUP
        st[ST_TO_MOVE] = taker
    else:
        _after_skat(r, st)


@njit(cache=True, inline="always")
def _deal_from_stream(r, st, deal, dealer, deck):
    """Shuffle the previous card order (the initial one: the deck's cards in id
    order) with the game's stream and start the deal from it (``deck``: scratch of
    32 ints)."""
    variant = st[ST_VARIANT]
    if deal == 0:
        ncards = mask_ids(_VDECK[variant], deck)
    else:
        ncards = np.int64(popcount(_VDECK[variant]))
        for k in range(ncards):
            deck[k] = deck_card(st, k)
    st[ST_RNG] = np.int64(shuffle_inplace(np.uint64(st[ST_RNG]), deck, ncards))
    start_deal(r, st, deal, dealer, deck)


@njit(cache=True, inline="always")
def init_game(r, st, seed, index):
    """Game ``index`` of run ``seed``: the stream, the first dealer drawn from it, the
    first deal dealt (exactly as the batch loop always did)."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[ST_N] = r[R_PLAYERS]
    st[ST_NDEALS] = r[R_DEALS]
    st[ST_VARIANT] = r[R_VARIANT]
    rng = game_stream(seed, index)
    rng, dealer = bounded(rng, r[R_PLAYERS])
    st[ST_RNG] = np.int64(rng)
    _deal_from_stream(r, st, 0, dealer, np.empty(32, dtype=np.int64))


@njit(cache=True, inline="always")
def next_deal_into(r, st, deck):
    """``next_deal`` with a scratch array of 32 ints for the card order."""
    dealer = st[ST_DEALER] + 1
    if dealer >= st[ST_N]:
        dealer = 0
    _deal_from_stream(r, st, st[ST_DEAL] + 1, dealer, deck)


@njit(cache=True, inline="always")
def next_deal(r, st):
    """The next deal from the stream, dealt by the next seat."""
    next_deal_into(r, st, np.empty(32, dtype=np.int64))


# ----- whose turn, what is legal ------------------------------------------------
@njit(cache=True, inline="always")
def to_move(st):
    """The seat to act, -1 once the deal is over."""
    return st[ST_TO_MOVE]


@njit(cache=True, inline="always")
def deal_over(st):
    return st[ST_PHASE] == P_DONE


@njit(cache=True, inline="always")
def game_over(st):
    return st[ST_PHASE] == P_DONE and st[ST_DEAL] + 1 >= st[ST_NDEALS]


@njit(cache=True, inline="always")
def follow_rule(hand, fmask, cbit):
    """The follow rule on masks: of ``hand``, the cards of the led suit (``fmask``, all
    ones on lead; trumps are one suit) if it holds any, else all; and the called card
    (``cbit``) alone wherever it is among them.  The engine and the solver's search
    state both play by it."""
    legal = hand & fmask
    if legal == U0:
        legal = hand
    if (legal & cbit) != U0:
        legal = cbit
    return legal


@njit(cache=True, inline="always")
def trick_card(follow, power, trump, tmask, c, p, i, trick):
    """Card ``c`` played by seat ``p`` as card ``i`` of a trick: the trick's words
    ``trick`` = (follow mask, cards that may win it, winning seat, winning power)
    after it.  A lead sets the follow mask (its suit; trumps are one suit) and the
    cards that may win (that suit and the trumps ``tmask``); a later card takes the
    trick if it may win and its power is higher.  ``follow``/``power``:
    ``FOLLOW_MASK``/``POWER`` in the numbering of ``c`` and the masks (the solver
    passes its search numbering's copies).  The engine and the solver's search state
    both play a card into a trick by it."""
    fm, elig, win_seat, win_pow = trick
    pw = power[trump, c]
    if i == 0:
        fm = follow[trump, c]
        return fm, fm | np.uint64(tmask), p, pw
    if ((U1 << np.uint64(c)) & elig) != U0 and pw > win_pow:
        return fm, elig, p, pw
    return fm, elig, win_seat, win_pow


@njit(cache=True, inline="always")
def trick_card_into(follow, power, trump, tmask, c, p, i, words, at):
    """:func:`trick_card` on the trick's four words kept in ``words[at:at + 4]`` (follow
    mask, cards that may win, winning seat, winning power: the engine's state and the
    solver's search rows both keep them side by side), written back in place; returns
    the seat holding the trick."""
    fm, elig, ws, wp = trick_card(
        follow, power, trump, tmask, c, p, i,
        (np.uint64(words[at]), np.uint64(words[at + 1]), words[at + 2], words[at + 3]))
    words[at] = np.int64(fm)
    words[at + 1] = np.int64(elig)
    words[at + 2] = ws
    words[at + 3] = wp
    return ws


@njit(cache=True, inline="always")
def sides_after_trick(team0, w, declarer, done, deadline):
    """A first-trick wedding whose partner is still open, after trick ``done`` (tricks
    completed) won by seat ``w``: the first team's seats and whether the sides are
    settled now.  The first seat other than the declarer to win a trick is the
    partner; once ``deadline`` tricks are done without one the declarer plays alone."""
    if w != declarer:
        return team0 | (1 << w), 1
    return team0, 1 if done >= deadline else 0


@njit(cache=True, inline="always")
def next_seat(p, n):
    """The seat after ``p`` of ``n`` (clockwise)."""
    p += 1
    return 0 if p >= n else p


@njit(cache=True, inline="always")
def legal_cards(st):
    """Mask of the cards the seat to move may play (phase ``P_PLAY``): ``follow_rule``."""
    return follow_rule(np.uint64(st[ST_HAND + st[ST_TO_MOVE]]), np.uint64(st[ST_FMASK]),
                       np.uint64(st[ST_CBIT]))


@njit(cache=True, inline="always")
def callable_cards(st):
    """Cards the Old Ones may call: any card of the deck they neither hold nor put away."""
    return _VDECK[st[ST_VARIANT]] & ~np.uint64(st[ST_HAND + st[ST_OLD_ONES]]) & \
        ~np.uint64(st[ST_DISCARDS])


@njit(cache=True, inline="always")
def _list_mask(m, base, out, n):
    while m != U0:
        out[n] = base + lowest_bit(m)
        n += 1
        m &= m - U1
    return n


@njit(cache=True, inline="always")
def legal_actions(r, st, out):
    """The legal actions (codes, ascending) of the seat to move into ``out``
    (at least ``MAX_LEGAL`` long); returns how many (0 once the deal is over)."""
    ph = st[ST_PHASE]
    if ph == P_PLAY:
        return _list_mask(legal_cards(st), A_PLAY, out, 0)
    if ph == P_DISCARD:
        hand = np.uint64(st[ST_HAND + st[ST_TAKER]])
        return _list_mask(hand & ~_BQ, A_DISCARD, out, 0)
    if ph == P_PICKUP:
        out[0] = A_PICKUP
        return 1
    if ph == P_LUST:
        out[0] = A_PASS
        return _list_mask(np.uint64(r[R_SOLO_SUITS]), A_SOLO, out, 1)
    if ph == P_OLD_ONES:
        out[0] = A_QUIET
        out[1] = A_FIRST_TRICK
        return _list_mask(callable_cards(st), A_WEDDING, out, 2)
    return 0


@njit(cache=True, inline="always")
def is_legal(r, st, a):
    """Whether action ``a`` is legal for the seat to move."""
    ph = st[ST_PHASE]
    if a < 0 or a >= N_ACTIONS:
        return False
    if ph == P_PLAY:
        return a < A_DISCARD and (legal_cards(st) & _bit(a)) != U0
    if ph == P_DISCARD:
        return A_DISCARD <= a < A_PICKUP and \
            (np.uint64(st[ST_HAND + st[ST_TAKER]]) & ~_BQ & _bit(a - A_DISCARD)) != U0
    if ph == P_PICKUP:
        return a == A_PICKUP
    if ph == P_LUST:
        if a == A_PASS:
            return True
        return A_SOLO <= a < A_QUIET and ((r[R_SOLO_SUITS] >> (a - A_SOLO)) & 1) != 0
    if ph == P_OLD_ONES:
        if a == A_QUIET or a == A_FIRST_TRICK:
            return True
        return a >= A_WEDDING and (callable_cards(st) & _bit(a - A_WEDDING)) != U0
    return False


# ----- applying actions ---------------------------------------------------------
@njit(cache=True, inline="always")
def _score_deal(r, st):
    """Score the finished deal: the result fields, the score changes, the totals."""
    n = st[ST_N]
    team0 = st[ST_TEAM0]
    cp0 = 0
    tricks0 = 0
    for p in range(n):
        if (team0 >> p) & 1:
            cp0 += st[ST_PTS + p]
            tricks0 += st[ST_NTR + p]
    taker = st[ST_TAKER]
    if taker >= 0 and (team0 >> taker) & 1:
        m = np.uint64(st[ST_DISCARDS])
        while m != U0:
            cp0 += CARD_POINTS[lowest_bit(m)]
            m &= m - U1
    st[ST_CP0] = cp0
    st[ST_TRICKS0] = tricks0
    contract = st[ST_CONTRACT]
    if st[ST_VARIANT] == V_OFFICERS and cp0 == 60:
        st[ST_WINNER] = -1
        for p in range(n):
            st[ST_DELTA + p] = 0
    else:
        win0 = cp0 >= 61
        ntricks = st[ST_NTRICKS]
        lose_pts = 120 - cp0 if win0 else cp0
        lose_tricks = ntricks - tricks0 if win0 else tricks0
        schneider = lose_pts < r[R_SCHNEIDER_BELOW]
        schwarz = lose_tricks == 0
        v = r[R_SOLO_BASE] if (contract == SOLO or contract == QUIET_SOLO) else r[R_BASE]
        if schneider:
            v += r[R_SCHNEIDER]
        if schwarz:
            v += r[R_SCHWARZ]
        winner = 0 if win0 else 1
        st[ST_WINNER] = winner
        st[ST_SCHNEIDER] = schneider
        st[ST_SCHWARZ] = schwarz
        size0 = popcount(np.uint64(team0))
        size0 = np.int64(size0)
        size1 = n - size0
        for p in range(n):
            in0 = (team0 >> p) & 1
            sign = 1 if (in0 == 1) == (winner == 0) else -1
            own = size0 if in0 == 1 else size1
            other = size1 if in0 == 1 else size0
            mult = other if (own == 1 and other > 1) else 1
            st[ST_DELTA + p] = sign * mult * v
    for p in range(n):
        st[ST_SCORE + p] += st[ST_DELTA + p]
    st[ST_PHASE] = P_DONE
    st[ST_TO_MOVE] = -1


@njit(cache=True, inline="always")
def _play(r, st, c):
    p = st[ST_TO_MOVE]
    n = st[ST_N]
    bit = _bit(c)
    st[ST_HAND + p] = np.int64(np.uint64(st[ST_HAND + p]) ^ bit)
    st[ST_PLAYED] = np.int64(np.uint64(st[ST_PLAYED]) | bit)
    st[ST_PLAYED_BY + p] = np.int64(np.uint64(st[ST_PLAYED_BY + p]) | bit)
    if st[ST_VARIANT] == V_OFFICERS:
        u = under_card(st, c)
        if u >= 0:
            st[ST_HAND + p] = np.int64(np.uint64(st[ST_HAND + p]) | _bit(u))
    else:
        # not following the led suit shows a void in it (branch-free: the follow
        # mask is all ones while leading, so a lead never counts)
        fm = np.uint64(st[ST_FMASK])
        shown = fm & (U0 - np.uint64((bit & fm) == U0))
        st[ST_VOID + p] = np.int64(np.uint64(st[ST_VOID + p]) | shown)
    i = st[ST_TRICK_N]
    st[ST_TRICK + i] = c
    st[ST_TRICK_PTS] += CARD_POINTS[c]
    trump = st[ST_TRUMP]
    ws = trick_card_into(FOLLOW_MASK, POWER, trump, st[ST_TMASK], c, p, i, st, ST_FMASK)
    if ws == p:
        # each seat plays once a trick: holding it now, its card is the winning one
        st[ST_WIN_CARD] = c
    if c == QC:
        st[ST_QC_BY] = p
    elif c == QS:
        st[ST_QS_BY] = p
    if c == st[ST_CALLED]:
        st[ST_CALLED_BY] = p
    i += 1
    if i < n:
        st[ST_TRICK_N] = i
        st[ST_TO_MOVE] = next_seat(p, n)
        return
    # the trick is complete
    w = st[ST_WIN_SEAT]
    st[ST_PTS + w] += st[ST_TRICK_PTS]
    st[ST_NTR + w] += 1
    t = st[ST_TRICKS_DONE] + 1
    st[ST_TRICKS_DONE] = t
    st[ST_TRICK_N] = 0
    st[ST_TRICK_PTS] = 0
    st[ST_FMASK] = np.int64(_ALL)
    st[ST_LEADER] = w
    st[ST_TO_MOVE] = w
    if st[ST_TEAMS_PUBLIC] == 0:
        if st[ST_FIRST_TRICK] != 0:
            st[ST_TEAM0], st[ST_TEAMS_PUBLIC] = sides_after_trick(
                st[ST_TEAM0], w, st[ST_DECLARER], t, r[R_DEADLINE])
        elif st[ST_CONTRACT] == WEDDING and st[ST_CALLED_BY] >= 0:
            st[ST_TEAMS_PUBLIC] = 1
    if t == st[ST_NTRICKS]:
        _score_deal(r, st)


@njit(cache=True, inline="always")
def apply_action(r, st, a):
    """Apply action ``a`` (assumed legal: see ``is_legal``) for the seat to move;
    the last card of a deal scores it."""
    if a < A_DISCARD:
        _play(r, st, a)
        return
    p = st[ST_TO_MOVE]
    if a < A_PICKUP:
        bit = _bit(a - A_DISCARD)
        st[ST_HAND + p] = np.int64(np.uint64(st[ST_HAND + p]) ^ bit)
        d = np.uint64(st[ST_DISCARDS]) | bit
        st[ST_DISCARDS] = np.int64(d)
        if popcount(d) == 2:
            _after_skat(r, st)
    elif a == A_PICKUP:
        st[ST_HAND + p] = st[ST_HAND + p] | st[ST_SKAT]
        st[ST_PHASE] = P_DISCARD
    elif a == A_PASS:
        k = st[ST_LUST_N] + 1
        st[ST_LUST_N] = k
        if k == st[ST_N]:
            _start_old_ones(st)
        else:
            p += 1
            if p >= st[ST_N]:
                p = 0
            st[ST_TO_MOVE] = p
    elif a < A_QUIET:
        st[ST_LUST_N] += 1
        st[ST_CONTRACT] = SOLO
        st[ST_DECLARER] = p
        st[ST_TRUMP] = a - A_SOLO
        st[ST_TEAM0] = 1 << p
        _start_play(st)
    else:
        st[ST_DECLARER] = p
        st[ST_TEAM0] = 1 << p
        if a == A_QUIET:
            st[ST_CONTRACT] = QUIET_SOLO
        else:
            st[ST_CONTRACT] = WEDDING
            if a == A_FIRST_TRICK:
                st[ST_FIRST_TRICK] = 1
            else:
                c = a - A_WEDDING
                st[ST_CALLED] = c
                st[ST_CBIT] = np.int64(_bit(c))
                st[ST_TEAM0] |= 1 << _holder(st, st[ST_N], _bit(c))
        _start_play(st)


# ----- results ------------------------------------------------------------------
@njit(cache=True, inline="always")
def called_column(st):
    """The deals table's ``called`` value: the called card, -2 for first_trick, else -1."""
    return -2 if st[ST_FIRST_TRICK] != 0 else st[ST_CALLED]


# ----- what one seat sees -------------------------------------------------------
# Public words (everybody sees them as they are): ST_N ST_NDEALS ST_VARIANT ST_DEAL
# ST_DEALER ST_FOREHAND ST_TAKER ST_LUST_N ST_TRUMP ST_CALLED ST_FIRST_TRICK
# ST_TEAMS_PUBLIC ST_CBIT ST_TMASK ST_PLAYED ST_QC_BY ST_QS_BY ST_CALLED_BY ST_LEADER
# ST_TRICK_N ST_TRICK ST_FMASK ST_ELIG ST_WIN_SEAT ST_WIN_POW ST_WIN_CARD
# ST_TRICK_PTS ST_TRICKS_DONE ST_NTRICKS ST_PTS ST_NTR ST_SCORE ST_PLAYED_BY ST_VOID,
# and the hand sizes.
# Everything else is read for one seat through the accessors below, which give
# that seat's view; ``observe`` writes them all and the policies call them.
@njit(cache=True, inline="always")
def own_hand(st, seat):
    """The seat's own hand (Officers: its face-up cards)."""
    return np.uint64(st[ST_HAND + seat])


@njit(cache=True, inline="always")
def seen_phase(st, seat):
    """The phase as ``seat`` sees it: the Old Ones' silent choice looks like the
    start of play to the others."""
    ph = st[ST_PHASE]
    if ph == P_OLD_ONES and seat != st[ST_OLD_ONES]:
        return P_PLAY
    return ph


@njit(cache=True, inline="always")
def seen_to_move(st, seat):
    if st[ST_PHASE] == P_OLD_ONES and seat != st[ST_OLD_ONES]:
        return -1
    return st[ST_TO_MOVE]


@njit(cache=True, inline="always")
def seen_skat(st, seat):
    """The skat, for its taker once picked up."""
    if st[ST_TAKER] == seat and st[ST_PHASE] != P_PICKUP:
        return np.uint64(st[ST_SKAT])
    return U0


@njit(cache=True, inline="always")
def seen_discards(st, seat):
    """The discards, for the taker who made them."""
    return np.uint64(st[ST_DISCARDS]) if st[ST_TAKER] == seat else U0


@njit(cache=True, inline="always")
def seen_contract(st, seat):
    """The contract as ``seat`` knows it (a quiet solo is a normal game to the others)."""
    c = st[ST_CONTRACT]
    if c == QUIET_SOLO and seat != st[ST_DECLARER]:
        return NORMAL
    return c


@njit(cache=True, inline="always")
def seen_declarer(st, seat):
    if st[ST_CONTRACT] == QUIET_SOLO and seat != st[ST_DECLARER]:
        return -1
    return st[ST_DECLARER]


@njit(cache=True, inline="always")
def teams_known(st, seat):
    """Whether ``seat`` knows the sides exactly: public ones, a solo, its own quiet solo."""
    c = st[ST_CONTRACT]
    return st[ST_TEAMS_PUBLIC] != 0 or c == SOLO or (c == QUIET_SOLO and
                                                     seat == st[ST_DECLARER])


@njit(cache=True, inline="always")
def seen_team0(st, seat):
    """The first team's seat mask when ``seat`` knows it, else 0."""
    return st[ST_TEAM0] if teams_known(st, seat) else 0


@njit(cache=True, inline="always")
def covered_cards(st):
    """Officers: the face-up cards that lie on a face-down card (public)."""
    covered = U0
    for w in range(4):
        x = np.uint64(st[ST_UNDER + w])
        for j in range(8):
            if ((x >> np.uint64(8 * j)) & _B8) != U0:
                covered |= _bit(8 * w + j)
    return covered & (np.uint64(st[ST_HAND]) | np.uint64(st[ST_HAND + 1]))


@njit(cache=True, inline="always")
def observe(r, st, seat, out):
    """Write what ``seat`` may know into ``out`` (``OBS_SIZE`` words; layout above)."""
    n = st[ST_N]
    variant = st[ST_VARIANT]
    out[O_SEAT] = seat
    out[O_N] = n
    out[O_VARIANT] = variant
    out[O_DEAL] = st[ST_DEAL]
    out[O_DEALER] = st[ST_DEALER]
    out[O_PHASE] = seen_phase(st, seat)
    out[O_TO_MOVE] = seen_to_move(st, seat)
    out[O_HAND] = np.int64(own_hand(st, seat))
    out[O_SKAT] = np.int64(seen_skat(st, seat))
    out[O_TAKER] = st[ST_TAKER]
    out[O_DISCARDS] = np.int64(seen_discards(st, seat))
    out[O_NDISCARDS] = popcount(np.uint64(st[ST_DISCARDS]))
    out[O_LUST_N] = st[ST_LUST_N]
    out[O_CONTRACT] = seen_contract(st, seat)
    out[O_DECLARER] = seen_declarer(st, seat)
    out[O_TRUMP] = st[ST_TRUMP]
    out[O_CALLED] = st[ST_CALLED]
    out[O_FIRST_TRICK] = st[ST_FIRST_TRICK]
    out[O_TEAMS_KNOWN] = teams_known(st, seat)
    out[O_TEAM0] = seen_team0(st, seat)
    out[O_CALLED_BY] = st[ST_CALLED_BY]
    out[O_QC_BY] = st[ST_QC_BY]
    out[O_QS_BY] = st[ST_QS_BY]
    out[O_PLAYED] = st[ST_PLAYED]
    out[O_LEADER] = st[ST_LEADER]
    tn = st[ST_TRICK_N]
    out[O_TRICK_N] = tn
    for i in range(4):
        out[O_TRICK + i] = st[ST_TRICK + i] if i < tn else -1
    out[O_WIN_SEAT] = st[ST_WIN_SEAT] if tn > 0 else -1
    out[O_WIN_CARD] = st[ST_WIN_CARD] if tn > 0 else -1
    out[O_TRICK_PTS] = st[ST_TRICK_PTS]
    out[O_TRICKS_DONE] = st[ST_TRICKS_DONE]
    covered = covered_cards(st) if variant == V_OFFICERS else U0
    out[O_COVERED] = np.int64(covered)
    for p in range(4):
        if p < n:
            h = np.uint64(st[ST_HAND + p])
            out[O_COUNT + p] = popcount(h) + popcount(h & covered)
            out[O_POINTS + p] = st[ST_PTS + p]
            out[O_TRICKS + p] = st[ST_NTR + p]
            out[O_SCORES + p] = st[ST_SCORE + p]
            out[O_PLAYED_BY + p] = st[ST_PLAYED_BY + p]
            out[O_VOID + p] = st[ST_VOID + p]
        else:
            out[O_PLAYED_BY + p] = 0
            out[O_VOID + p] = 0
            out[O_COUNT + p] = 0
            out[O_POINTS + p] = 0
            out[O_TRICKS + p] = 0
            out[O_SCORES + p] = 0
    for p in range(2):
        out[O_UP + p] = st[ST_HAND + p] if variant == V_OFFICERS else 0


# ----- entry points for Python callers (api.py, records.py): one numba call each ------
@njit(cache=True)
def py_init_game(r, st, seed, index):
    init_game(r, st, np.uint64(seed), index)


@njit(cache=True)
def py_start_deal(r, st, deal, dealer, deck):
    start_deal(r, st, deal, dealer, deck)


@njit(cache=True)
def py_next_deal(r, st):
    next_deal(r, st)


@njit(cache=True)
def py_legal_actions(r, st, out):
    return legal_actions(r, st, out)


@njit(cache=True)
def py_is_legal(r, st, a):
    return is_legal(r, st, a)


@njit(cache=True)
def py_apply(r, st, a):
    """Apply ``a`` if it is legal (True), else leave the state alone (False)."""
    if not is_legal(r, st, a):
        return False
    apply_action(r, st, a)
    return True


@njit(cache=True)
def py_observe(r, st, seat, out):
    observe(r, st, seat, out)


@njit(cache=True)
def run_actions(r, st, seats, codes, m):
    """Apply ``codes[:m]`` (each by ``seats[k]``) while each is legal for its seat;
    returns how many were applied (``m`` when all were)."""
    for k in range(m):
        if st[ST_TO_MOVE] != seats[k] or not is_legal(r, st, codes[k]):
            return k
        apply_action(r, st, codes[k])
    return m


@njit(cache=True)
def py_score_deal(r, st):
    """Score the deal held by ``st`` as if its last trick had just been taken."""
    _score_deal(r, st)
