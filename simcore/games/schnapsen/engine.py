"""Schnapsen engine: the rules written once, as step kernels over one small state array.

Batch play (play.py), the policies (policies.py), record writing and replay
(records.py) and the Python per-decision API (api.py) all run these kernels and
nothing else about the rules.

State
-----
One int64 array of ``N_STATE`` words holds a whole match: the deal in play,
the match around it, the game's random stream and the last shuffled deck.
Card masks use bit ``id`` per card (cards.py: ``suit * 5 + rank``, J Q K T A);
the random stream word holds the splitmix64 state's 64 bits as an int64. A
search copies the array (``st.copy()`` or a row of a preallocated stack) as its
undo; every kernel below only reads and writes these words.

====================  ==============================================================
word                  meaning
====================  ==============================================================
``S_HAND + s``        mask of seat ``s``'s hand (s = 0, 1)
``S_TALON``           the face-down talon, packed 5 bits a card, next card drawn in
                      the low bits (9 cards at the deal; 0 once used up)
``S_TALON_LEFT``      cards in the talon, the face-up trump card included (10 .. 0)
``S_TRUMP_CARD``      the card lying face up under the talon (after an exchange the
                      trump jack); once the talon is used up, the card its last
                      draw handed out
``S_TRUMP``           the trump suit (0..3: C S H D)
``S_LEADER``          the seat that leads the trick in play (after the last trick:
                      its winner)
``S_PHASE``           ``LEAD``, ``FOLLOW``, ``AFTER_LAST`` (the last trick's winner
                      may claim) or ``OVER`` (the deal is scored)
``S_STEP``            how far the turn to lead has come: ``T_START``,
                      ``T_EXCHANGED``, ``T_CLOSED``, ``T_MARRIED``
``S_MARRIED``         the suit of the marriage just shown (the lead must be its king
                      or queen), else -1
``S_LEAD_CARD``       the card led to the trick in play, else -1
``S_POINTS + s``      card points of the tricks seat ``s`` took
``S_MARR + s``        marriage points seat ``s`` showed (20 or 40 each; they count
                      once ``s`` has a trick)
``S_TRICKS + s``      tricks seat ``s`` took
``S_CLOSER``          the seat that closed the talon, else -1
``S_SNAP_POINTS``     the closer's opponent's counted points at the close
``S_SNAP_TRICKS``     the closer's opponent's tricks at the close
``S_PLAYED``          mask of every card played this deal (the trick in play included)
``S_SHOWN + s``       mask of cards seat ``s`` was seen to take into its hand: the
                      king and queen of a marriage, the trump card taken by an
                      exchange or by the last draw (those still held are known to
                      the opponent)
``S_VOID + s``        mask of cards seat ``s`` is known not to hold: what the follow
                      rule would have made it play once the talon was closed or gone
``S_MSUITS + s``      bit per suit of the marriages seat ``s`` showed this deal
``S_EXCHANGER``       the seat that exchanged the trump jack this deal, else -1
``S_CLAIMER``         the seat that claimed, else -1
``S_WINNER``          the deal's winner (once ``OVER``), else -1
``S_GAME_POINTS``     the game points it scored
``S_REASON``          how it ended (``CLAIM`` ... ``RESIGN``)
``S_RNG``             the game's random stream (``bits.game_stream(seed, index)``
                      advanced by every draw of the deal and of the random players)
``S_DEALER``          the dealer of the deal in play (the other seat leads first)
``S_FIRST_DEALER``    the match's first dealer
``S_MATCH + s``       match points seat ``s`` still needs (falls below 0 as it falls)
``S_DEAL``            number of the deal in play, from 0
``S_DECK .. +19``     the deck as last shuffled (the next deal reshuffles it)
====================  ==============================================================

Actions
-------
One int per action; the seat is always the one to move (``to_move``).

========  ============  =========================================================
code      record        meaning
========  ============  =========================================================
0..19     ``play`` c    play card ``c`` (lead or answer)
20..23    ``marriage``  show king and queen of suit ``code - 20`` (C S H D)
24        ``exchange``  take the trump card for the trump jack
25        ``close``     close the talon
26        ``claim``     claim to have reached ``target``
27        (none)        ``pass``: the last trick's winner does not claim; a record
                        leaves it implicit (its deal's actions stop there)
28        ``resign``    resign the match
========  ============  =========================================================

A turn to lead lists its optional steps in the rules' order; playing a card
skips whatever optional step was not taken. ``legal_actions`` writes, in this
order: the cards that may be played (lowest id first), marriages, exchange,
close, claim, pass, resign.
"""
import numpy as np
from numba import njit

from ...bits import bounded, game_stream, lowest_bit, next_u64
from .cards import CARD_POINTS
from .rules import (R_AT_CLOSE, R_CLOSE_MIN, R_EXCH_MIN, R_MARR_CLOSED, R_MATCH,
                    R_SCHNEIDER, R_TARGET)

# ----- how a deal ended --------------------------------------------------------------
CLAIM, WRONG_CLAIM, FAILED_CLOSE, LAST_TRICK, RESIGN = range(5)
REASONS = ("claim", "wrong_claim", "failed_close", "last_trick", "resign")

# ----- actions ----------------------------------------------------------------------
A_PLAY = 0          # + card
A_MARRIAGE = 20     # + suit
A_EXCHANGE = 24
A_CLOSE = 25
A_CLAIM = 26
A_PASS = 27
A_RESIGN = 28
N_ACTIONS = 29
MAX_LEGAL = 12      # at most 5 cards + 2 marriages + exchange, close, claim, resign
VERBS = ("play", "marriage", "exchange", "close", "claim", "resign")

# ----- phases and steps of a turn to lead -----------------------------------------------
LEAD, FOLLOW, AFTER_LAST, OVER = range(4)
T_START, T_EXCHANGED, T_CLOSED, T_MARRIED = range(4)

# ----- state layout -------------------------------------------------------------------
S_HAND = 0
S_TALON = 2
S_TALON_LEFT = 3
S_TRUMP_CARD = 4
S_TRUMP = 5
S_LEADER = 6
S_PHASE = 7
S_STEP = 8
S_MARRIED = 9
S_LEAD_CARD = 10
S_POINTS = 11
S_MARR = 13
S_TRICKS = 15
S_CLOSER = 17
S_SNAP_POINTS = 18
S_SNAP_TRICKS = 19
S_PLAYED = 20
S_SHOWN = 21
S_VOID = 23
S_MSUITS = 25
S_EXCHANGER = 27
S_CLAIMER = 28
S_WINNER = 29
S_GAME_POINTS = 30
S_REASON = 31
S_RNG = 32
S_DEALER = 33
S_FIRST_DEALER = 34
S_MATCH = 35
S_DEAL = 37
S_DECK = 38
N_STATE = 58

# ----- observation layout (observe) -----------------------------------------------------
OBS_FIELDS = (
    ("seat", "the observing seat"),
    ("to_move", "the seat to act (-1 once the deal is scored)"),
    ("phase", "LEAD, FOLLOW, AFTER_LAST or OVER"),
    ("step", "how far the turn to lead has come (T_START .. T_MARRIED)"),
    ("married", "suit of the marriage just shown, else -1"),
    ("lead_card", "the card led to the trick in play, else -1"),
    ("leader", "the seat leading the trick in play"),
    ("dealer", "the deal's dealer"),
    ("hand", "mask of the observer's hand"),
    ("trump", "the trump suit"),
    ("trump_card", "the card under the talon (face up), -1 once the talon is used up"),
    ("talon", "cards in the talon, the trump card included"),
    ("closer", "the seat that closed the talon, else -1"),
    ("played", "mask of the cards played this deal (the trick in play included)"),
    ("opp_known", "mask of cards the opponent is known to hold (shown in a marriage, "
                  "taken by an exchange or by the last draw, not played since)"),
    ("opp_void", "mask of cards the opponent cannot hold (the follow rule)"),
    ("marriages_0", "bit per suit of the marriages seat 0 showed this deal"),
    ("marriages_1", "the same for seat 1"),
    ("exchanger", "the seat that exchanged the trump jack this deal, else -1"),
    ("points_0", "card points of seat 0's tricks"),
    ("points_1", "card points of seat 1's tricks"),
    ("marriage_points_0", "marriage points seat 0 showed"),
    ("marriage_points_1", "marriage points seat 1 showed"),
    ("tricks_0", "tricks seat 0 took"),
    ("tricks_1", "tricks seat 1 took"),
    ("snap_points", "the closer's opponent's counted points at the close"),
    ("snap_tricks", "the closer's opponent's tricks at the close"),
    ("match_0", "match points seat 0 still needs"),
    ("match_1", "match points seat 1 still needs"),
    ("deal", "number of the deal in play, from 0"),
    ("winner", "the deal's winner once scored, else -1"),
    ("game_points", "game points the deal scored"),
    ("reason", "how the deal ended, else -1"),
)
(O_SEAT, O_TO_MOVE, O_PHASE, O_STEP, O_MARRIED, O_LEAD_CARD, O_LEADER, O_DEALER, O_HAND,
 O_TRUMP, O_TRUMP_CARD, O_TALON, O_CLOSER, O_PLAYED, O_OPP_KNOWN, O_OPP_VOID, O_MSUITS,
 _O_MSUITS1, O_EXCHANGER, O_POINTS, _O_POINTS1, O_MARR, _O_MARR1, O_TRICKS, _O_TRICKS1,
 O_SNAP_POINTS, O_SNAP_TRICKS, O_MATCH, _O_MATCH1, O_DEAL, O_WINNER, O_GAME_POINTS,
 O_REASON) = range(len(OBS_FIELDS))
N_OBS = len(OBS_FIELDS)

# ----- card constants (int64 masks) ----------------------------------------------------
_SUIT = np.array([0x1F << (5 * s) for s in range(4)], dtype=np.int64)
_KQ = np.int64(0b110)          # king and queen of suit 0
_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


# ===== the rules on cards and counters ==================================================
@njit(cache=True, inline="always")
def follower_wins(lead, follow, trump):
    """Whether the follower's card beats the led card, ``trump`` the trump suit."""
    ls = lead // 5
    fs = follow // 5
    if fs == ls:
        return follow > lead
    return fs == trump


@njit(cache=True, inline="always")
def follow_mask(hand, lead, trump, strict):
    """Cards of ``hand`` that may answer ``lead``.

    With the talon open (``strict`` false) any card; once it is closed or
    empty: a higher card of the led suit if held, else any card of that suit,
    else a trump, else anything.
    """
    if not strict:
        return hand
    same = hand & _SUIT[lead // 5]
    if same != 0:
        higher = same & -(np.int64(2) << lead)
        if higher != 0:
            return higher
        return same
    trumps = hand & _SUIT[trump]
    if trumps != 0:
        return trumps
    return hand


@njit(cache=True, inline="always")
def marriage_suits(hand):
    """Bit s set for every suit s whose king and queen are both in ``hand``."""
    h = np.int64(hand)
    both = h & (h >> 1) & np.int64(0x10842)  # queen bits (5s + 1) whose king is held
    return ((both >> 1) & 1) | ((both >> 5) & 2) | ((both >> 9) & 4) | ((both >> 13) & 8)


@njit(cache=True, inline="always")
def counted_points(trick_points, marriage_points, tricks):
    """Card points that count: tricks, plus marriages once their owner has a trick."""
    if tricks > 0:
        return trick_points + marriage_points
    return trick_points


@njit(cache=True, inline="always")
def score_claim(claimant, points, target, closer, at_close, opp_points, opp_tricks,
                snap_points, snap_tricks, schneider_below):
    """Score a claim by ``claimant`` holding ``points`` counted card points.

    ``opp_points``/``opp_tricks``: the opponent's now; ``snap_*``: the closer's
    opponent's at the close (used when ``closer`` >= 0).  Returns
    (winner, game points, reason).
    """
    opp = 1 - claimant
    if points < target:
        return opp, 3 if opp_tricks == 0 else 2, WRONG_CLAIM
    if closer == opp:  # the opponent closed and the claimant got there first
        return claimant, 3 if snap_tricks == 0 else 2, FAILED_CLOSE
    if closer == claimant and at_close:
        opp_points = snap_points
        opp_tricks = snap_tricks
    if opp_tricks == 0:
        return claimant, 3, CLAIM
    if opp_points < schneider_below:
        return claimant, 2, CLAIM
    return claimant, 1, CLAIM


@njit(cache=True, inline="always")
def score_run_out(last_winner, closer, snap_tricks):
    """Score a deal whose cards ran out unclaimed: (winner, game points, reason)."""
    if closer >= 0:
        return 1 - closer, 3 if snap_tricks == 0 else 2, FAILED_CLOSE
    return last_winner, 1, LAST_TRICK


# ===== reading the state ================================================================
@njit(cache=True, inline="always")
def to_move(st):
    """The seat to act (the leader, or the follower while a trick is open)."""
    return st[S_LEADER] ^ np.int64(st[S_PHASE] == FOLLOW)


@njit(cache=True, inline="always")
def deal_over(st):
    """Whether the deal is scored."""
    return st[S_PHASE] == OVER


@njit(cache=True, inline="always")
def game_over(st):
    """Whether the match is decided (a seat's match points reached 0)."""
    return st[S_PHASE] == OVER and (st[S_MATCH] <= 0 or st[S_MATCH + 1] <= 0)


@njit(cache=True, inline="always")
def is_strict(st):
    """Whether the talon is closed or used up (the follow rule applies)."""
    return st[S_CLOSER] >= 0 or st[S_TALON_LEFT] == 0


@njit(cache=True, inline="always")
def counted(st, seat):
    """Card points of ``seat`` that count now (marriages once it has a trick)."""
    return counted_points(st[S_POINTS + seat], st[S_MARR + seat], st[S_TRICKS + seat])


@njit(cache=True, inline="always")
def match_winner(st):
    """The seat that won the match (valid once ``game_over``)."""
    return 0 if st[S_MATCH] <= 0 else 1


# ===== starting deals ====================================================================
@njit(cache=True, inline="always")
def start_deal(r, st, dealer, hand0, hand1, trump_card, talon):
    """Start a deal from given cards: hands as masks, ``talon`` packed (5 bits a card,
    the next drawn lowest).  Match fields (match points, deal number, stream, deck)
    are left as they are."""
    st[S_HAND] = hand0
    st[S_HAND + 1] = hand1
    st[S_TALON] = talon
    st[S_TALON_LEFT] = 10
    st[S_TRUMP_CARD] = trump_card
    st[S_TRUMP] = trump_card // 5
    st[S_LEADER] = 1 - dealer
    st[S_PHASE] = LEAD
    st[S_STEP] = T_START
    st[S_MARRIED] = -1
    st[S_LEAD_CARD] = -1
    for i in range(S_POINTS, S_CLOSER):
        st[i] = 0
    st[S_CLOSER] = -1
    for i in range(S_SNAP_POINTS, S_EXCHANGER):
        st[i] = 0
    st[S_EXCHANGER] = -1
    st[S_CLAIMER] = -1
    st[S_WINNER] = -1
    st[S_GAME_POINTS] = 0
    st[S_REASON] = -1
    st[S_DEALER] = dealer


@njit(cache=True, inline="always")
def _shuffle_deck(st):
    """Reshuffle the deck words in place, exactly as ``bits.shuffle_inplace`` (two swaps
    per 64-bit draw)."""
    rng = np.uint64(st[S_RNG])
    i = 19
    while i > 0:
        rng, x = next_u64(rng)
        j = np.int64(((x & _M32) * np.uint64(i + 1)) >> _S32)
        t = st[S_DECK + i]
        st[S_DECK + i] = st[S_DECK + j]
        st[S_DECK + j] = t
        i -= 1
        if i > 0:
            j = np.int64(((x >> _S32) * np.uint64(i + 1)) >> _S32)
            t = st[S_DECK + i]
            st[S_DECK + i] = st[S_DECK + j]
            st[S_DECK + j] = t
            i -= 1
    st[S_RNG] = np.int64(rng)


@njit(cache=True, inline="always")
def _deal_deck(r, st, dealer):
    """Deal 3-2 from the deck words: cards 0-2 and 7-8 to the non-dealer, 3-5 and 9-10 to
    the dealer, card 6 the trump card, 11-19 the talon (drawn in that order)."""
    d = S_DECK
    h = ((np.int64(1) << st[d]) | (np.int64(1) << st[d + 1]) | (np.int64(1) << st[d + 2])
         | (np.int64(1) << st[d + 7]) | (np.int64(1) << st[d + 8]))
    g = ((np.int64(1) << st[d + 3]) | (np.int64(1) << st[d + 4]) | (np.int64(1) << st[d + 5])
         | (np.int64(1) << st[d + 9]) | (np.int64(1) << st[d + 10]))
    talon = np.int64(0)
    for i in range(9):
        talon |= st[d + 11 + i] << (5 * i)
    if dealer == 0:
        start_deal(r, st, dealer, g, h, st[d + 6], talon)
    else:
        start_deal(r, st, dealer, h, g, st[d + 6], talon)


@njit(cache=True, inline="always")
def init_game(r, st, seed, index):
    """Start match ``index`` of run ``seed``: its stream, the first dealer (one draw), the
    first deal (a shuffle of the ordered deck)."""
    rng, dealer = bounded(game_stream(seed, index), 2)
    st[S_RNG] = np.int64(rng)
    for i in range(20):
        st[S_DECK + i] = i
    st[S_FIRST_DEALER] = dealer
    st[S_MATCH] = r[R_MATCH]
    st[S_MATCH + 1] = r[R_MATCH]
    st[S_DEAL] = 0
    _shuffle_deck(st)
    _deal_deck(r, st, dealer)


@njit(cache=True, inline="always")
def next_deal(r, st):
    """The next deal of the match: the other seat deals a reshuffle of the last deck."""
    _shuffle_deck(st)
    st[S_DEAL] += 1
    _deal_deck(r, st, 1 - st[S_DEALER])


# ===== legal actions ======================================================================
@njit(cache=True, inline="always")
def _cards_into(mask, out, n):
    m = mask
    while m != 0:
        out[n] = lowest_bit(m)
        n += 1
        m &= m - 1
    return n


@njit(cache=True, inline="always")
def may_exchange(r, st, hand):
    """Whether the player on lead (holding ``hand``) may exchange at this step."""
    return (st[S_STEP] == T_START and st[S_CLOSER] < 0
            and st[S_TALON_LEFT] >= r[R_EXCH_MIN]
            and (hand >> (st[S_TRUMP] * 5)) & 1 == 1)


@njit(cache=True, inline="always")
def may_close(r, st):
    """Whether the player on lead may close at this step."""
    return (st[S_STEP] <= T_EXCHANGED and st[S_CLOSER] < 0
            and st[S_TALON_LEFT] >= r[R_CLOSE_MIN])


@njit(cache=True, inline="always")
def marriage_options(r, st, hand):
    """Suit bits of the marriages the player on lead may show at this step."""
    if st[S_STEP] > T_CLOSED:
        return 0
    if is_strict(st) and r[R_MARR_CLOSED] == 0:
        return 0
    return marriage_suits(hand)


@njit(cache=True, inline="always")
def may_claim(st):
    """Whether the seat to act may claim: right after winning a trick (before any other
    step), right after a marriage, or after the last trick."""
    ph = st[S_PHASE]
    if ph == AFTER_LAST:
        return True
    if ph != LEAD:
        return False
    step = st[S_STEP]
    return (step == T_START and st[S_TRICKS] + st[S_TRICKS + 1] > 0) or step == T_MARRIED


@njit(cache=True, inline="always")
def lead_mask(st, hand):
    """The cards the player on lead may play (the marriage's king or queen after one)."""
    if st[S_STEP] == T_MARRIED:
        return hand & (_KQ << (5 * st[S_MARRIED]))
    return hand


@njit(cache=True, inline="always")
def legal_actions(r, st, out):
    """Write the legal actions of the seat to move into ``out`` (``MAX_LEGAL`` long); the
    count (0 once the deal is scored)."""
    ph = st[S_PHASE]
    if ph == OVER:
        return 0
    if ph == AFTER_LAST:
        out[0] = A_CLAIM
        out[1] = A_PASS
        out[2] = A_RESIGN
        return 3
    p = to_move(st)
    hand = st[S_HAND + p]
    if ph == FOLLOW:
        n = _cards_into(follow_mask(hand, st[S_LEAD_CARD], st[S_TRUMP], is_strict(st)), out, 0)
    else:
        n = _cards_into(lead_mask(st, hand), out, 0)
        suits = marriage_options(r, st, hand)
        for s in range(4):
            if (suits >> s) & 1:
                out[n] = A_MARRIAGE + s
                n += 1
        if may_exchange(r, st, hand):
            out[n] = A_EXCHANGE
            n += 1
        if may_close(r, st):
            out[n] = A_CLOSE
            n += 1
        if may_claim(st):
            out[n] = A_CLAIM
            n += 1
    out[n] = A_RESIGN
    return n + 1


@njit(cache=True, inline="always")
def is_legal(r, st, a):
    """Whether action ``a`` is legal for the seat to move."""
    ph = st[S_PHASE]
    if ph == OVER or a < 0 or a >= N_ACTIONS:
        return False
    if a == A_RESIGN:
        return True
    if ph == AFTER_LAST:
        return a == A_CLAIM or a == A_PASS
    p = to_move(st)
    hand = st[S_HAND + p]
    if a < A_MARRIAGE:
        if ph == FOLLOW:
            m = follow_mask(hand, st[S_LEAD_CARD], st[S_TRUMP], is_strict(st))
        else:
            m = lead_mask(st, hand)
        return (m >> a) & 1 == 1
    if ph != LEAD:
        return False
    if a < A_EXCHANGE:
        return (marriage_options(r, st, hand) >> (a - A_MARRIAGE)) & 1 == 1
    if a == A_EXCHANGE:
        return may_exchange(r, st, hand)
    if a == A_CLOSE:
        return may_close(r, st)
    if a == A_CLAIM:
        return may_claim(st)
    return False


# ===== applying actions =====================================================================
@njit(cache=True, inline="always")
def _finish(st, winner, game_points, reason):
    st[S_WINNER] = winner
    st[S_GAME_POINTS] = game_points
    st[S_REASON] = reason
    st[S_PHASE] = OVER
    st[S_MATCH + winner] -= game_points


@njit(cache=True, inline="always")
def _play(st, card):
    p = to_move(st)
    bit = np.int64(1) << card
    st[S_HAND + p] ^= bit
    st[S_PLAYED] |= bit
    if st[S_PHASE] == LEAD:
        st[S_LEAD_CARD] = card
        st[S_PHASE] = FOLLOW
        return
    lead = st[S_LEAD_CARD]
    trump = st[S_TRUMP]
    leader = st[S_LEADER]
    talon_left = st[S_TALON_LEFT]
    closed = st[S_CLOSER] >= 0
    if closed or talon_left == 0:
        # what the follow rule tells the opponent about this seat's hand
        ls = lead // 5
        if card // 5 == ls:
            if card < lead:
                st[S_VOID + p] |= _SUIT[ls] & -(np.int64(2) << lead)
        else:
            st[S_VOID + p] |= _SUIT[ls]
            if card // 5 != trump:
                st[S_VOID + p] |= _SUIT[trump]
    w = p if follower_wins(lead, card, trump) else leader
    st[S_POINTS + w] += CARD_POINTS[lead] + CARD_POINTS[card]
    st[S_TRICKS + w] += 1
    if not closed and talon_left > 0:
        # the winner draws first; the loser of the last draw takes the trump card
        t = st[S_TALON]
        st[S_HAND + w] |= np.int64(1) << (t & 31)
        if talon_left == 2:
            tb = np.int64(1) << st[S_TRUMP_CARD]
            st[S_HAND + 1 - w] |= tb
            st[S_SHOWN + 1 - w] |= tb
        else:
            st[S_HAND + 1 - w] |= np.int64(1) << ((t >> 5) & 31)
        st[S_TALON] = t >> 10
        st[S_TALON_LEFT] = talon_left - 2
    st[S_LEADER] = w
    st[S_MARRIED] = -1
    st[S_STEP] = T_START
    st[S_LEAD_CARD] = -1
    st[S_PHASE] = AFTER_LAST if st[S_HAND + w] == 0 else LEAD


@njit(cache=True, inline="always")
def apply_action(r, st, a):
    """Apply legal action ``a`` of the seat to move; a deal that ends is scored (winner,
    game points, reason, match points).  No legality check: see ``is_legal``."""
    if a < A_MARRIAGE:
        _play(st, a)
        return
    p = to_move(st)
    o = 1 - p
    if a < A_EXCHANGE:
        s = a - A_MARRIAGE
        st[S_MARR + p] += 40 if s == st[S_TRUMP] else 20
        st[S_MSUITS + p] |= np.int64(1) << s
        st[S_SHOWN + p] |= _KQ << (5 * s)
        st[S_MARRIED] = s
        st[S_STEP] = T_MARRIED
    elif a == A_EXCHANGE:
        jack = st[S_TRUMP] * 5
        old = np.int64(1) << st[S_TRUMP_CARD]
        st[S_HAND + p] ^= (np.int64(1) << jack) | old
        st[S_SHOWN + p] |= old
        st[S_TRUMP_CARD] = jack
        st[S_EXCHANGER] = p
        st[S_STEP] = T_EXCHANGED
    elif a == A_CLOSE:
        st[S_CLOSER] = p
        st[S_SNAP_POINTS] = counted(st, o)
        st[S_SNAP_TRICKS] = st[S_TRICKS + o]
        st[S_STEP] = T_CLOSED
    elif a == A_CLAIM:
        st[S_CLAIMER] = p
        w, gp, reason = score_claim(p, counted(st, p), r[R_TARGET], st[S_CLOSER],
                                    r[R_AT_CLOSE] != 0, counted(st, o), st[S_TRICKS + o],
                                    st[S_SNAP_POINTS], st[S_SNAP_TRICKS], r[R_SCHNEIDER])
        _finish(st, w, gp, reason)
    elif a == A_PASS:
        w, gp, reason = score_run_out(st[S_LEADER], st[S_CLOSER], st[S_SNAP_TRICKS])
        _finish(st, w, gp, reason)
    else:  # A_RESIGN: the other seat wins the match at once
        _finish(st, o, st[S_MATCH + o], RESIGN)


# ===== what one seat sees ====================================================================
@njit(cache=True, inline="always")
def observe(r, st, seat, out):
    """Write what ``seat`` can see into ``out`` (``N_OBS`` words, layout ``OBS_FIELDS``)."""
    o = 1 - seat
    ph = st[S_PHASE]
    out[O_SEAT] = seat
    out[O_TO_MOVE] = -1 if ph == OVER else to_move(st)
    out[O_PHASE] = ph
    out[O_STEP] = st[S_STEP]
    out[O_MARRIED] = st[S_MARRIED]
    out[O_LEAD_CARD] = st[S_LEAD_CARD]
    out[O_LEADER] = st[S_LEADER]
    out[O_DEALER] = st[S_DEALER]
    out[O_HAND] = st[S_HAND + seat]
    out[O_TRUMP] = st[S_TRUMP]
    out[O_TRUMP_CARD] = st[S_TRUMP_CARD] if st[S_TALON_LEFT] > 0 else -1
    out[O_TALON] = st[S_TALON_LEFT]
    out[O_CLOSER] = st[S_CLOSER]
    out[O_PLAYED] = st[S_PLAYED]
    out[O_OPP_KNOWN] = st[S_SHOWN + o] & ~st[S_PLAYED]
    out[O_OPP_VOID] = st[S_VOID + o]
    out[O_EXCHANGER] = st[S_EXCHANGER]
    for s in range(2):
        out[O_MSUITS + s] = st[S_MSUITS + s]
        out[O_POINTS + s] = st[S_POINTS + s]
        out[O_MARR + s] = st[S_MARR + s]
        out[O_TRICKS + s] = st[S_TRICKS + s]
        out[O_MATCH + s] = st[S_MATCH + s]
    out[O_SNAP_POINTS] = st[S_SNAP_POINTS]
    out[O_SNAP_TRICKS] = st[S_SNAP_TRICKS]
    out[O_DEAL] = st[S_DEAL]
    out[O_WINNER] = st[S_WINNER]
    out[O_GAME_POINTS] = st[S_GAME_POINTS]
    out[O_REASON] = st[S_REASON]


# ===== whole calls for replay and the Python API ===============================================
@njit(cache=True, _nrt=False)
def apply_sequence(r, st, seats, codes, n):
    """Apply ``codes[:n]`` (each by ``seats[i]``) while each is legal for its seat; returns
    how many were applied (``n`` if all), leaving ``st`` just before the first fault."""
    for i in range(n):
        a = codes[i]
        if st[S_PHASE] == OVER or seats[i] != to_move(st) or not is_legal(r, st, a):
            return i
        apply_action(r, st, a)
    return n


@njit(cache=True, _nrt=False)
def try_apply(r, st, a):
    """Apply ``a`` if it is legal for the seat to move; whether it was."""
    if not is_legal(r, st, a):
        return False
    apply_action(r, st, a)
    return True
