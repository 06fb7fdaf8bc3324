"""Schadenfreude's rules, written once: a whole game in one small int64 array.

Everything that plays, checks or looks at a game goes through these kernels:
the batch loop (play.py), replay (records.py), the policies (policies.py) and
the Python API (api.py).  A *game* is rounds ("deals") until someone's
cumulative score passes the limit, or ``max_rounds``.

State: ``STATE_SIZE`` int64 words, one field per ``S_*`` constant below (each
with its comment): the stream word (``game_stream(seed, index)``, advanced by the
shuffles, the leader draws and the random policy), the round and trick in
progress, per seat the hand, score pile, round points and cumulative score, and
the deck order of the last shuffle (the next round shuffles it again, as the
original loop did).  Masks are uint64 card bit masks stored as int64 (card ids
as in cards.py); seats count from 0.  Copying the array is a complete undo.

Actions (one int each; the seat is the player to move):

======  ===========  ==========================================================
action  record verb  meaning
======  ===========  ==========================================================
0..49   play card    play card id ``a``: ``suit * 12 + i`` (suits C S H D, ``i``
                     indexing -3 -2 -1 1..9), ``0W`` = 48, ``10W`` = 49 (cards.py)
======  ===========  ==========================================================

Observation (``observe``, ``OBS_SIZE`` int64 words): what one seat sees at
the table: its own hand, every card played this round, the current trick in
order, every score pile (they lie face up), round points and cumulative
scores; see the ``O_*`` constants.  The cards set aside and the other hands
are hidden.
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, game_stream, highest_bit, kth_bit, lowest_bit, \
    mask_ids, popcount, shuffle_inplace
from .cards import CARD_RANK, CARD_VALUE, RANK_CARDS, SUIT_MASK, WILD_MASK
from .rules import (R_AFTER_LAST, R_ALL_BUST_HIGHEST, R_CANCEL, R_DECK, R_FLOOR, R_FLOOR_ON,
                    R_HAND, R_LIMIT, R_MAX_ROUNDS, R_PLAYERS, R_SEAT0_FIRST)

MAX_SEATS = 5
N_ACTIONS = 50

# ----- state layout -----------------------------------------------------------------
S_RNG = 0            # the game's splitmix64 stream word (uint64 bits)
S_SPARE = 1          # unused high half of the random policy's last 64-bit draw
S_SPARE_LEFT = 2     # 1 while S_SPARE is unused
S_FIRST_LEADER = 3   # leader of the first round
S_ROUND = 4          # rounds scored so far
S_STATUS = 5         # PLAYING / ROUND_OVER / GAME_OVER
S_BUST = 6           # seats over the limit (bit per seat), once a round is scored
S_WINNER = 7         # the game's winner, -1 for none (valid once GAME_OVER)
S_UNFINISHED = 8     # 1 if stopped by max_rounds
S_LEADER = 9         # leader of the current round
S_TRICK_LEADER = 10  # leader of the current trick
S_TO_MOVE = 11       # seat to play, -1 once the round is over
S_TRICK_POS = 12     # cards played in the current trick
S_TRICK_NUM = 13     # tricks finished in the current round
S_LEAD = 14          # lead suit of the trick (card mask; 0: none yet)
S_FOLLOW = 15        # rank mask (bit value + 3) of the trick's followers
S_RANK_POS = 16      # trick position of each follower rank (3 bits at 3 * rank)
S_OFFSUIT = 17       # the trick's cards that did not follow (card mask)
S_PLAYED = 18        # every card played this round (card mask)
S_TRICK = 19                      # + i: card at trick position i (i < S_TRICK_POS)
S_HAND = S_TRICK + MAX_SEATS      # + p: seat p's hand (card mask)
S_PILE = S_HAND + MAX_SEATS       # + p: seat p's score pile (card mask, after cancelling)
S_POINTS = S_PILE + MAX_SEATS     # + p: seat p's round points
S_SCORE = S_POINTS + MAX_SEATS    # + p: cumulative score (before the round until scored)
S_DECK = S_SCORE + MAX_SEATS      # + k: the round's deck order (hands, then set aside)
S_VOID = S_DECK + 50              # + p: suits seat p showed it lacks this round (card mask
#                                   of those suits: it did not follow a numbered lead)
STATE_SIZE = S_VOID + MAX_SEATS

PLAYING, ROUND_OVER, GAME_OVER = 0, 1, 2

# ----- observation layout --------------------------------------------------------------
O_SEAT = 0          # the observing seat
O_PLAYERS = 1       # players at the table
O_ROUND = 2         # rounds scored before this one
O_STATUS = 3        # PLAYING / ROUND_OVER / GAME_OVER
O_TO_MOVE = 4       # seat to play, -1 once the round is over
O_LEADER = 5        # the round's leader
O_TRICK_LEADER = 6  # the trick's leader
O_TRICK_POS = 7     # cards played in the current trick
O_TRICK_NUM = 8     # tricks finished this round
O_HAND = 9          # own hand (card mask)
O_PLAYED = 10       # every card played this round (card mask)
O_LEAD = 11         # lead suit of the trick (card mask, 0: none yet)
O_FOLLOW = 12       # rank mask of the trick's followers
O_RANK_POS = 13     # trick position of each follower rank (3 bits at 3 * rank)
O_OFFSUIT = 14      # the trick's cards that did not follow (card mask)
O_BUST = 15         # seats over the limit (once the round is scored)
O_TRICK = 16        # + i: card at trick position i, -1 not yet played
O_HELD = O_TRICK + MAX_SEATS    # + p: cards left in seat p's hand
O_PILE = O_HELD + MAX_SEATS     # + p: seat p's score pile (card mask, face up)
O_POINTS = O_PILE + MAX_SEATS   # + p: seat p's round points
O_SCORE = O_POINTS + MAX_SEATS  # + p: cumulative score (see S_SCORE)
OBS_SIZE = O_SCORE + MAX_SEATS

_S3 = np.uint64(3)
_SEVEN = np.uint64(7)
_WILD_MASK = WILD_MASK


# ----- card-level rules ----------------------------------------------------------------

@njit(cache=True, inline="always")
def lead_mask_of(card):
    """Suit mask a card sets as the lead suit (0 for a wild card: no suit yet)."""
    if card >= 48:
        return U0
    return SUIT_MASK[card // 12]


@njit(cache=True, inline="always")
def legal_mask(hand, lead_mask):
    """Cards of ``hand`` that may be played when the lead suit is ``lead_mask``.

    With no lead suit yet (0) anything goes; a player holding the lead suit
    plays that suit or a wild card; one without it plays anything.
    """
    follow = hand & lead_mask
    # branch-free: all ones when the hand holds the lead suit
    must = U0 - np.uint64(follow != U0)
    return (hand & ~must) | ((follow | (hand & _WILD_MASK)) & must)


@njit(cache=True, inline="always")
def follows(card, lead_mask):
    """Whether ``card`` follows a trick whose lead suit is ``lead_mask`` (wilds always do)."""
    return card >= 48 or ((U1 << np.uint64(card)) & lead_mask) != U0


@njit(cache=True, inline="always")
def winning_rank(follow_ranks):
    """Rank that wins a trick: second-highest of the followers, or the lone follower."""
    hi = highest_bit(follow_ranks)
    rest = np.uint64(follow_ranks) ^ (U1 << np.uint64(hi))
    if rest == U0:
        return hi
    return highest_bit(rest)


@njit(cache=True, inline="always")
def collect(pile, points, card, take, cancel):
    """Add ``card`` to a score pile (card mask) if ``take``; returns (pile, points).

    With cancelling, a card whose value is already in the pile discards both
    (so of three the last one collected stays); branch-free.
    """
    pile = np.uint64(pile)
    t = np.uint64(take != 0)
    bit = t << np.uint64(card)
    same = pile & RANK_CARDS[CARD_RANK[card]] & (U0 - t) & (U0 - np.uint64(cancel != 0))
    had = np.int64(same != U0)
    keep = U0 - np.uint64(1 - had)            # all ones unless a pair cancels
    return (pile & ~same) | (bit & keep), points + CARD_VALUE[card] * np.int64(t) * (1 - 2 * had)


@njit(cache=True, inline="always")
def collect_card(pile, card, cancel):
    """``pile`` with ``card`` collected (see ``collect``)."""
    return collect(pile, 0, card, True, cancel)[0]


@njit(cache=True)
def pile_points(pile):
    """Sum of the values of the cards in a pile (card mask)."""
    total = 0
    m = np.uint64(pile)
    while m != U0:
        total += CARD_VALUE[lowest_bit(m)]
        m &= m - U1
    return total


@njit(cache=True)
def game_winner(scores, off, n, limit, all_bust_highest):
    """The winning seat, or -1: the highest score held by exactly one candidate.

    ``scores[off + p]`` is seat p's final score.  Candidates are the players
    not bust; if all are bust, nobody wins unless ``all_bust_highest``, when the
    same cascade runs over everybody.
    """
    any_ok = False
    for p in range(n):
        if scores[off + p] <= limit:
            any_ok = True
    if not any_ok and not all_bust_highest:
        return -1
    best = -1
    for p in range(n):
        sp = scores[off + p]
        if any_ok and sp > limit:
            continue
        shared = False
        for q in range(n):
            sq = scores[off + q]
            if q != p and sq == sp and (sq <= limit or not any_ok):
                shared = True
        if not shared and (best < 0 or sp > scores[off + best]):
            best = p
    return best


# ----- accessors -------------------------------------------------------------------------

@njit(cache=True, inline="always")
def to_move(st):
    """Seat to play, or -1 when the round is over."""
    return st[S_TO_MOVE]


@njit(cache=True, inline="always")
def deal_over(st):
    """Whether the round has been played out and scored."""
    return st[S_STATUS] != PLAYING


@njit(cache=True, inline="always")
def game_over(st):
    """Whether the game has ended (someone bust, or ``max_rounds``)."""
    return st[S_STATUS] == GAME_OVER


@njit(cache=True, inline="always")
def hand_of(st, seat):
    """Seat's hand as a card mask."""
    return np.uint64(st[S_HAND + seat])


@njit(cache=True, inline="always")
def legal_cards(st):
    """Mask of the cards the seat to move may play (0 once the round is over).

    Reads only what that seat sees: its own hand and the trick's lead suit."""
    p = st[S_TO_MOVE]
    if p < 0:
        return U0
    return legal_mask(np.uint64(st[S_HAND + p]), np.uint64(st[S_LEAD]))


@njit(cache=True)
def legal_actions(r, st, out):
    """Write the legal actions (card ids, lowest first) to ``out``; returns how many."""
    return mask_ids(legal_cards(st), out)


@njit(cache=True, inline="always")
def winner(st):
    """The game's winner, or -1 (no winner, unfinished, or not over)."""
    return st[S_WINNER]


@njit(cache=True, inline="always")
def unfinished(st):
    """Whether the game was stopped by ``max_rounds``."""
    return st[S_UNFINISHED] != 0


@njit(cache=True, inline="always")
def rounds(st):
    """Rounds scored so far."""
    return st[S_ROUND]


# ----- starting rounds ----------------------------------------------------------------

@njit(cache=True, inline="always")
def _open_trick(st, leader):
    """An empty trick for ``leader`` to lead: no lead suit, followers or off-suit cards
    yet (at a round's start and after each trick)."""
    st[S_TRICK_LEADER] = leader
    st[S_TO_MOVE] = leader
    st[S_TRICK_POS] = 0
    st[S_LEAD] = 0
    st[S_FOLLOW] = 0
    st[S_RANK_POS] = 0
    st[S_OFFSUIT] = 0


@njit(cache=True, inline="always")
def _reset_round(r, st, leader):
    """Empty piles, points and trick; ``leader`` to lead; hands from the deck order."""
    n = r[R_PLAYERS]
    h = r[R_HAND]
    for p in range(n):
        hm = U0
        for i in range(h):
            hm |= U1 << np.uint64(st[S_DECK + p * h + i])
        st[S_HAND + p] = np.int64(hm)
        st[S_PILE + p] = 0
        st[S_POINTS + p] = 0
        st[S_TRICK + p] = -1
        st[S_VOID + p] = 0
    st[S_LEADER] = leader
    _open_trick(st, leader)
    st[S_TRICK_NUM] = 0
    st[S_PLAYED] = 0
    st[S_STATUS] = PLAYING


@njit(cache=True)
def _shuffle_deal(r, st, leader):
    """Shuffle the deck order again from the stream and deal; ``leader`` leads."""
    nd = np.int64(popcount(np.uint64(r[R_DECK])))
    rng = shuffle_inplace(np.uint64(st[S_RNG]), st[S_DECK:S_DECK + nd], nd)
    st[S_RNG] = np.int64(rng)
    _reset_round(r, st, leader)


@njit(cache=True)
def init_game(r, st, seed, index):
    """Start game ``index`` of run ``seed``: its stream, first leader and first round."""
    st[:] = 0
    st[S_WINNER] = -1
    rng = game_stream(seed, index)
    if r[R_SEAT0_FIRST]:
        leader = 0
    else:
        rng, leader = bounded(rng, r[R_PLAYERS])
    st[S_RNG] = np.int64(rng)
    st[S_FIRST_LEADER] = leader
    mask_ids(np.uint64(r[R_DECK]), st[S_DECK:])
    _shuffle_deal(r, st, leader)


@njit(cache=True)
def lead_candidates(r, st):
    """Seats allowed to lead the next round (bit mask), from the scores so far.

    The first round: seat 0 (``first_leader = seat0``) or anyone.  Later the
    lowest cumulative score leads; among tied seats ``after_last`` allows only
    the first one in play order after the previous round's leader (that leader
    last), ``random`` any of them.
    """
    n = r[R_PLAYERS]
    if st[S_ROUND] == 0:
        return 1 if r[R_SEAT0_FIRST] else (1 << n) - 1
    low = st[S_SCORE]
    for p in range(1, n):
        low = min(low, st[S_SCORE + p])
    if r[R_AFTER_LAST]:
        prev = st[S_LEADER]
        for i in range(1, n + 1):
            p = (prev + i) % n
            if st[S_SCORE + p] == low:
                return 1 << p
    m = 0
    for p in range(n):
        if st[S_SCORE + p] == low:
            m |= 1 << p
    return m


@njit(cache=True)
def next_deal(r, st):
    """The next round from the stream: its leader (a draw only among tied seats
    with ``tie_lead = random``), then a fresh shuffle of the deck."""
    cand = np.uint64(lead_candidates(r, st))
    k = np.int64(popcount(cand))
    if k == 1:
        leader = lowest_bit(cand)
    else:
        rng, j = bounded(np.uint64(st[S_RNG]), k)
        st[S_RNG] = np.int64(rng)
        leader = kth_bit(cand, j)
    _shuffle_deal(r, st, leader)


@njit(cache=True)
def start_deal(r, st, cards, leader):
    """Start a round from given cards: ``cards`` holds the hands seat by seat
    (``hand_size`` each), then the cards set aside (the whole deck, each once);
    ``leader`` leads.  Scores and the stream stay as they are (``init_game``
    or the previous round); replay and ``from_record`` use this."""
    for k in range(len(cards)):
        st[S_DECK + k] = cards[k]
    if st[S_ROUND] == 0:
        st[S_FIRST_LEADER] = leader
    _reset_round(r, st, leader)


# ----- playing ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _score_round(r, st):
    """Add the round points to the scores (then the floor); end the game if
    someone is over the limit or the rounds run out."""
    n = r[R_PLAYERS]
    limit = r[R_LIMIT]
    floor_on = r[R_FLOOR_ON] != 0
    floor = r[R_FLOOR]
    bust = 0
    for p in range(n):
        c = st[S_SCORE + p] + st[S_POINTS + p]
        if floor_on and c < floor:
            c = floor
        st[S_SCORE + p] = c
        if c > limit:
            bust |= 1 << p
    st[S_ROUND] += 1
    st[S_BUST] = bust
    st[S_TO_MOVE] = -1
    if bust != 0:
        st[S_STATUS] = GAME_OVER
        st[S_WINNER] = game_winner(st, S_SCORE, n, limit, r[R_ALL_BUST_HIGHEST] != 0)
    elif st[S_ROUND] >= r[R_MAX_ROUNDS]:
        st[S_STATUS] = GAME_OVER
        st[S_UNFINISHED] = 1
        st[S_WINNER] = -1
    else:
        st[S_STATUS] = ROUND_OVER


@njit(cache=True, inline="always")
def apply_action(r, st, a):
    """The seat to move plays card ``a`` (assumed legal: see ``legal_cards``).

    A full trick is resolved: the second-highest follower (or a lone one)
    takes its own card and the non-followers, collected in play order; the
    winner leads next.  After the last trick the round is scored."""
    n = r[R_PLAYERS]
    p = st[S_TO_MOVE]
    pos = st[S_TRICK_POS]
    bit = U1 << np.uint64(a)
    st[S_HAND + p] = np.int64(np.uint64(st[S_HAND + p]) ^ bit)
    st[S_PLAYED] = np.int64(np.uint64(st[S_PLAYED]) | bit)
    st[S_TRICK + pos] = a
    lead = np.uint64(st[S_LEAD])
    if a < 48 and lead == U0:
        lead = SUIT_MASK[a // 12]
        st[S_LEAD] = np.int64(lead)
    # branch-free: a follower's rank goes to the rank mask and its position to
    # the rank's 3-bit slot; a non-follower to the off-suit cards
    is_follow = np.uint64((a >= 48) | ((bit & lead) != U0))
    rk = np.uint64(CARD_RANK[a])
    follow = np.uint64(st[S_FOLLOW]) | (is_follow << rk)
    st[S_FOLLOW] = np.int64(follow)
    st[S_OFFSUIT] = np.int64(np.uint64(st[S_OFFSUIT]) | (bit & (is_follow - U1)))
    # not following a lead suit shows the seat has none of it (public knowledge)
    st[S_VOID + p] = np.int64(np.uint64(st[S_VOID + p]) | (lead & (is_follow - U1)))
    st[S_RANK_POS] = np.int64(np.uint64(st[S_RANK_POS])
                              | ((np.uint64(pos) << (_S3 * rk)) & (U0 - is_follow)))
    pos += 1
    if pos < n:
        st[S_TRICK_POS] = pos
        q = p + 1
        st[S_TO_MOVE] = q if q < n else 0
        return
    # the trick is complete
    wr = np.uint64(winning_rank(follow))
    wpos = np.int64((np.uint64(st[S_RANK_POS]) >> (_S3 * wr)) & _SEVEN)
    w = st[S_TRICK_LEADER] + wpos
    if w >= n:
        w -= n
    offsuit = np.uint64(st[S_OFFSUIT])
    cancel = r[R_CANCEL] != 0
    pile = np.uint64(st[S_PILE + w])
    pts = st[S_POINTS + w]
    if offsuit == U0:      # everyone followed: the winner takes only their own card
        pile, pts = collect(pile, pts, st[S_TRICK + wpos], True, cancel)
    else:                  # collected in play order (which card of a pair stays)
        taken = offsuit | (U1 << np.uint64(st[S_TRICK + wpos]))
        for i in range(n):
            c = st[S_TRICK + i]
            pile, pts = collect(pile, pts, c, (taken >> np.uint64(c)) & U1, cancel)
    st[S_PILE + w] = np.int64(pile)
    st[S_POINTS + w] = pts
    _open_trick(st, w)
    t = st[S_TRICK_NUM] + 1
    st[S_TRICK_NUM] = t
    if t == r[R_HAND]:
        _score_round(r, st)


@njit(cache=True)
def apply_checked(r, st, a):
    """``apply_action`` after checking: 0 if done, else why not (nothing changes):
    1 the round is over, 2 no such card, 3 the seat does not hold it, 4 it must
    follow the lead suit (or play a wild card)."""
    if st[S_STATUS] != PLAYING:
        return 1
    if a < 0 or a >= N_ACTIONS:
        return 2
    bit = U1 << np.uint64(a)
    if hand_of(st, st[S_TO_MOVE]) & bit == U0:
        return 3
    if legal_cards(st) & bit == U0:
        return 4
    apply_action(r, st, a)
    return 0


# ----- what a seat sees -------------------------------------------------------------------

@njit(cache=True, inline="always")
def observe(r, st, seat, out):
    """Write what ``seat`` sees (the O_* layout) to ``out``."""
    n = r[R_PLAYERS]
    out[O_SEAT] = seat
    out[O_PLAYERS] = n
    out[O_ROUND] = st[S_ROUND]
    out[O_STATUS] = st[S_STATUS]
    out[O_TO_MOVE] = st[S_TO_MOVE]
    out[O_LEADER] = st[S_LEADER]
    out[O_TRICK_LEADER] = st[S_TRICK_LEADER]
    out[O_TRICK_POS] = st[S_TRICK_POS]
    out[O_TRICK_NUM] = st[S_TRICK_NUM]
    out[O_HAND] = st[S_HAND + seat]
    out[O_PLAYED] = st[S_PLAYED]
    out[O_LEAD] = st[S_LEAD]
    out[O_FOLLOW] = st[S_FOLLOW]
    out[O_RANK_POS] = st[S_RANK_POS]
    out[O_OFFSUIT] = st[S_OFFSUIT]
    out[O_BUST] = st[S_BUST]
    pos = st[S_TRICK_POS]
    for p in range(MAX_SEATS):
        out[O_TRICK + p] = st[S_TRICK + p] if p < pos else -1
        if p < n:
            out[O_HELD + p] = popcount(np.uint64(st[S_HAND + p]))
            out[O_PILE + p] = st[S_PILE + p]
            out[O_POINTS + p] = st[S_POINTS + p]
            out[O_SCORE + p] = st[S_SCORE + p]
        else:
            out[O_HELD + p] = 0
            out[O_PILE + p] = 0
            out[O_POINTS + p] = 0
            out[O_SCORE + p] = 0
