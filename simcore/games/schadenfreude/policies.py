"""Schadenfreude players: ``random`` and ``heuristic``, dispatched by integer id.

The heuristic scores each legal card and plays the best; it never sees other
hands, only the cards played, the piles and everyone's scores.  A card's
score adds up:
- the chance it wins the trick (second-highest follower wins), estimated from
  the cards still unseen, times what winning would do to its total: points
  are welcome up to a safety margin below the limit (a wider one unless
  another player is about to go bust, which would end the game), unwelcome
  inside it, and a value already in the pile cancels;
- otherwise, what the trick gives the player who takes it: pushing someone
  over the limit is good, feeding the strongest rival bad;
- near the limit, a bonus for shedding, while it is safe, a card that would
  likely win a later trick (top cards of a suit and the wild 10 are kept as
  escapes).

``pimc[:worlds=N,depth=D,playout=P]``: samples N worlds of the unseen cards
consistent with what it saw, values each card in each world with all cards open
(max-n search D tricks deep, or with ``playout=1`` the heuristic playing the round
out for every seat) and plays the best mean (solver.py, pimc.py).

All are functions of what their seat can see: ``random`` reads the seat's
legal cards (its own hand and the lead suit) and draws from the game's
stream; ``heuristic`` reads only the seat's observation (engine.observe).
"""
import numpy as np
from numba import njit

from ...bits import MASK32, S32, U0, U1, kth_bit, lowest_bit, next_u64, popcount
from .cards import CARD_RANK, CARD_SUIT, RANK_CARDS, SUIT_MASK, WILD_MASK
from .engine import (O_FOLLOW, O_HAND, O_LEAD, O_OFFSUIT, O_PILE, O_PLAYED, O_POINTS,
                     O_RANK_POS, O_SCORE, O_SEAT, O_TRICK, O_TRICK_LEADER, O_TRICK_NUM,
                     O_TRICK_POS, OBS_SIZE, S_FOLLOW, S_HAND, S_LEAD, S_OFFSUIT, S_PILE,
                     S_PLAYED, S_POINTS, S_RANK_POS, S_RNG, S_SCORE, S_SPARE, S_SPARE_LEFT,
                     S_TO_MOVE, S_TRICK, S_TRICK_LEADER, S_TRICK_NUM, S_TRICK_POS, collect,
                     legal_cards, legal_mask, observe, winning_rank)
from .pimc_params import (PIMC_CARDS, PIMC_DEPTH, PIMC_MAX_CARDS,  # noqa: F401
                          PIMC_MAX_DEPTH, PIMC_MAX_STOP, PIMC_MAX_WORLDS, PIMC_PLAYOUT,
                          PIMC_STOP, PIMC_WORLDS)
from .rules import R_ALL_BUST_HIGHEST, R_CANCEL, R_DECK, R_HAND, R_LIMIT, R_PLAYERS

POLICIES = ("random", "heuristic", "expert")   # ids 0, 1, 3; pimc is parsed (parse_policy)
RANDOM, HEURISTIC, PIMC, EXPERT = 0, 1, 2, 3   # expert: expert.py, pimc.choose_search
# a pimc id carries its parameters: PIMC + 8 * worlds + 2**16 * depth + 2**24 * playout
# + 2**25 * cards + 2**29 * stop (the other ids are below 8)
PIMC_SHIFT = 3
PIMC_DEPTH_SHIFT = 16
PIMC_PLAYOUT_SHIFT = 24
PIMC_CARDS_SHIFT = 25
PIMC_STOP_SHIFT = 29
PIMC_KEYS = ("worlds", "depth", "playout", "cards", "stop")

_WILD_MASK = WILD_MASK


# cards ranking above each rank (RANKS_ABOVE[r]: every card of rank r+1..13)
RANKS_ABOVE = np.zeros(14, dtype=np.uint64)
for _r in range(14):
    for _q in range(_r + 1, 14):
        RANKS_ABOVE[_r] |= RANK_CARDS[_q]


@njit(cache=True, inline="always")
def _cards_above(unseen, lead_mask, rank):
    """Unseen cards that would follow and rank above ``rank``."""
    return popcount(unseen & RANKS_ABOVE[rank] & (lead_mask | _WILD_MASK))


@njit(cache=True, inline="always")
def _ipow(x, k):
    """x ** k for a small non-negative integer k, by multiplication (no libm pow)."""
    r = 1.0
    for _ in range(k):
        r *= x
    return r


@njit(cache=True, inline="always")
def _lead_stats(unseen, lm, n_unseen, hand_left):
    """For a trick led in ``lm`` (a suit mask, or every suit): how many unseen cards
    would follow it (its suit and the wilds), and the chance that a player still to play
    holds none of the suit (``hand_left`` cards drawn from ``n_unseen``)."""
    n_follow = np.int64(popcount(unseen & (lm | _WILD_MASK)))
    n_lead = np.int64(popcount(unseen & lm))
    return n_follow, _ipow(1.0 - min(1.0, n_lead / n_unseen), hand_left)


@njit(cache=True, inline="always")
def _win_chance_in(rank, lm, follow_ranks, others, unseen, n_follow, p_has):
    """``win_chance`` of a card of ``rank`` with the trick's lead mask ``lm`` resolved and
    its ``_lead_stats`` (``n_follow``, ``p_has`` = 1 - the chance of none) given."""
    above = np.int64(popcount(follow_ranks >> np.uint64(rank + 1)))
    below = follow_ranks & ((U1 << np.uint64(rank)) - U1)
    if above >= 2:
        return 0.0
    if others == 0:
        if above == 1 or below == U0:
            return 1.0
        return 0.0
    q = 0.0
    if n_follow > 0:
        q = p_has * _cards_above(unseen, lm, rank) / n_follow
    if above == 1:
        return _ipow(1.0 - q, others)
    p = others * q * _ipow(1.0 - q, others - 1)
    if below == U0:
        p += _ipow(1.0 - p_has, others)
    return min(1.0, p)


@njit(cache=True, inline="always")
def _win_lead(card, lead_mask):
    """The lead mask ``win_chance`` reads for ``card``: the trick's, else the card's suit,
    else (a wild on an empty trick) every suit."""
    lm = lead_mask
    if lm == U0:
        lm = U0 if card >= 48 else SUIT_MASK[card // 12]
        if lm == U0:  # a wild on an empty trick: any suit may come
            lm = ~U0 ^ _WILD_MASK
    return lm


@njit(cache=True, inline="always")
def win_chance(card, lead_mask, follow_ranks, others, unseen, hand_left):
    """Estimated chance that ``card`` wins the trick, with ``others`` still to play.

    ``follow_ranks`` are the ranks of the followers so far. A card wins when
    exactly one follower ranks above it, or when it is the only follower; a player
    still to play follows with the chance that it holds the lead suit.
    """
    lm = _win_lead(card, lead_mask)
    n_follow, none = _lead_stats(unseen, lm, max(1, np.int64(popcount(unseen))), hand_left)
    return _win_chance_in(CARD_RANK[card], lm, follow_ranks, others, unseen, n_follow,
                          1.0 - none)


@njit(cache=True, inline="always")
def total_value(total, limit, margin, greed):
    """How much a player values ending the round at ``total``.

    Rising with points up to a safety margin below the limit (less steeply
    when already ahead), falling inside the margin, and a cliff above the limit.
    """
    peak = limit - margin
    if total <= peak:
        return greed * total
    if total <= limit:
        return greed * peak - 3.0 * (total - peak)
    return greed * peak - 3.0 * margin - 40.0 - 2.0 * (total - limit)


@njit(cache=True, inline="always")
def _win_terms(room, tricks_left, leading, ending):
    """``total_value``'s arguments for a player with ``room`` left under the limit:
    (total on a scale to 100, margin, greed); ``ending``: another player is about to go
    bust, so this round is likely the last and points up to the limit count."""
    if ending:
        margin = END_MARGIN_BASE + END_MARGIN_PER_TRICK * tricks_left
    else:
        margin = MARGIN_BASE + MARGIN_PER_TRICK * tricks_left
    greed = LEADING_GREED if leading else 1.0
    return 100.0 - room, margin, greed


@njit(cache=True, inline="always")
def gift_utility(gain, receiver_total, my_total, best_other, limit, all_bust_highest):
    """What it is worth to me that another player collects ``gain`` points.

    Pushing a player over the limit ends the game with them out (good while I
    am safe; when I am over the limit myself, good only with ``all_bust =
    highest`` and if I stay above them: everybody bust, the highest wins);
    feeding the strongest rival is bad; feeding a weak one is mild.
    """
    if receiver_total > limit:
        return 0.0
    if receiver_total + gain > limit:
        if my_total <= limit:
            return PUSH_BONUS
        if all_bust_highest and my_total > receiver_total + gain:
            return PUSH_BONUS
        return 0.0
    if receiver_total >= my_total or receiver_total >= best_other:
        return -FEED_RIVAL * gain
    return -FEED_OTHER * gain


MARGIN_BASE = 8.0
MARGIN_PER_TRICK = 0.0
LEADING_GREED = 0.5
PUSH_BONUS = 12.0
FEED_RIVAL = 0.2
FEED_OTHER = 0.05
END_MARGIN_BASE = 2.0
END_MARGIN_PER_TRICK = 0.5
ENDING_ROOM = 6
SHED_WEIGHT = 25.0
CLOSE_ROOM = 25.0
UNCERTAIN = 0.5  # weight of a guess about who takes a card when others are still to play


@njit(cache=True, inline="always")
def _collect_all(cards, pile, points, cancel):
    """A set of cards (mask) collected into a pile, lowest first: (pile, points)."""
    o = cards
    while o != U0:
        c = lowest_bit(o)
        o &= o - U1
        pile, points = collect(pile, points, c, True, cancel)
    return pile, points


@njit(cache=True, inline="always")
def _card_takes(card, bit, rank, own, lead_mask, lead_follow, lead_none, suit_follow,
                suit_none, follow_ranks, others, unseen):
    """For the seat to move playing ``card`` (``bit``, ``rank``, ``own``: its suit's
    follow mask): the suit the trick is decided in (the lead's, or the card's own on an
    empty trick), the chance that none of the seats still to play holds it, whether the
    card follows, and its chance to take the trick (``_win_chance_in``); the lead's and
    the card's suit statistics come from ``_lead_stats``.  One copy for the heuristic
    and the expert's features."""
    if lead_mask != U0:
        lm, n_follow, none = lead_mask, lead_follow, lead_none
    else:
        lm, n_follow, none = own, suit_follow, suit_none
    follows = card >= 48 or (bit & lm) != U0
    p_win = _win_chance_in(rank, lm, follow_ranks, others, unseen, n_follow, 1.0 - none)
    return lm, none, follows, p_win


@njit(cache=True, inline="always")
def trick_taker_gain(o, at_rank_pos, at_trick_leader, at_pile, at_trick, n, wr, taken,
                     cancel):
    """Who takes the trick when a card does not: the follower already in it with the
    winning rank ``wr`` (its position, seat and card from ``o``'s fields at the given
    indices, an observation's or a state's), and the points it gets, its pile collecting
    its own card and then ``taken`` (the trick's cards that did not follow): (seat,
    points).  One copy for the heuristic and the expert's features."""
    wpos = np.int64((np.uint64(o[at_rank_pos]) >> np.uint64(3 * wr)) & np.uint64(7))
    w = (o[at_trick_leader] + wpos) % n
    pile, points = collect(np.uint64(o[at_pile + w]), 0, o[at_trick + wpos], True, cancel)
    return w, _collect_all(taken, pile, points, cancel)[1]


# the cards whose rank (value + 3) has bit b set, b = 0..3
RANK_PLANES = np.zeros(4, dtype=np.uint64)
for _r in range(14):
    for _b in range(4):
        if _r >> _b & 1:
            RANK_PLANES[_b] |= RANK_CARDS[_r]


@njit(cache=True, inline="always")
def _mean_value(cards):
    """Mean value of a set of cards (0 for none): the ranks summed by bit planes."""
    count = np.int64(popcount(cards))
    if count == 0:
        return 0.0
    ranks = (np.int64(popcount(cards & RANK_PLANES[0]))
             + 2 * np.int64(popcount(cards & RANK_PLANES[1]))
             + 4 * np.int64(popcount(cards & RANK_PLANES[2]))
             + 8 * np.int64(popcount(cards & RANK_PLANES[3])))
    return (ranks - 3 * count) / count


#: where ``_heuristic`` finds what it reads: in an observation (O_*) and in a state (S_*):
#: lead, followers' ranks, off-suit cards, trick position, cards played, tricks done,
#: scores, round points, piles, follower positions, trick leader, trick cards
_OBS_AT = (O_LEAD, O_FOLLOW, O_OFFSUIT, O_TRICK_POS, O_PLAYED, O_TRICK_NUM, O_SCORE, O_POINTS,
           O_PILE, O_RANK_POS, O_TRICK_LEADER, O_TRICK)
_STATE_AT = (S_LEAD, S_FOLLOW, S_OFFSUIT, S_TRICK_POS, S_PLAYED, S_TRICK_NUM, S_SCORE, S_POINTS,
             S_PILE, S_RANK_POS, S_TRICK_LEADER, S_TRICK)


@njit(cache=True)
def heuristic_action(r, o):
    """The heuristic's card for the seat whose observation is ``o`` (engine O_*
    layout; that seat is to move); see the module doc."""
    return _heuristic(r, o, o[O_SEAT], np.uint64(o[O_HAND]), _OBS_AT)


@njit(cache=True)
def heuristic_on_state(r, st):
    """``heuristic_action`` of the seat to move read straight from the state (what it
    reads is what that seat observes: its hand and the public fields), without writing
    an observation first: the same card, for less (pimc's playouts)."""
    me = st[S_TO_MOVE]
    return _heuristic(r, st, me, np.uint64(st[S_HAND + me]), _STATE_AT)


@njit(cache=True, inline="always")
def _heuristic(r, o, me, hand, at):
    """The heuristic's card for seat ``me`` holding ``hand``, the public fields read from
    ``o`` at the indices ``at`` (``_OBS_AT`` or ``_STATE_AT``)."""
    (o_lead, o_follow, o_offsuit, o_trick_pos, o_played, o_trick_num, o_score, o_points,
     o_pile, o_rank_pos, o_trick_leader, o_trick) = at
    n = r[R_PLAYERS]
    lead_mask = np.uint64(o[o_lead])
    legal = legal_mask(hand, lead_mask)
    follow_ranks = np.uint64(o[o_follow])
    offsuit = np.uint64(o[o_offsuit])
    others = n - 1 - o[o_trick_pos]
    unseen = np.uint64(r[R_DECK]) & ~np.uint64(o[o_played]) & ~hand
    limit = r[R_LIMIT]
    tricks_left = r[R_HAND] - o[o_trick_num]
    cancel = r[R_CANCEL] != 0
    my_total = o[o_score + me] + o[o_points + me]
    room = limit - my_total
    # typed starting values: numba would otherwise also compile the utilities below for
    # the literal constants it sees first (-1000, False)
    best_other = np.int64(-1000)
    ending = bool(False)
    for p in range(n):
        t = o[o_score + p] + o[o_points + p]
        if p != me:
            if t <= limit and t > best_other:
                best_other = t
            if t > limit - ENDING_ROOM:
                ending = True
    leading = my_total > best_other
    hand_left = np.int64(popcount(hand))
    n_unseen = max(1, np.int64(popcount(unseen)))
    mean_unseen = _mean_value(unseen) if others > 0 else 0.0
    closeness = min(1.0, max(0.0, (CLOSE_ROOM - room) / CLOSE_ROOM))
    # the trick's cards that did not follow, collected into my pile (a pile's points
    # do not depend on the order its cards come in)
    my_pile, my_gain = _collect_all(offsuit, np.uint64(o[o_pile + me]), 0, cancel)
    all_bust_highest = r[R_ALL_BUST_HIGHEST] != 0
    # what collecting points is worth (total_value's difference), its constant half
    # computed once
    total, margin, greed = _win_terms(room, tricks_left - 1, leading, ending)
    value_now = total_value(total, 100.0, margin, greed)
    weight = 1.0 if others == 0 else UNCERTAIN
    # _lead_stats cached: the trick's lead suit, and the last suit asked for (the cards
    # come suit by suit)
    lead_follow = np.int64(0)
    lead_none = 0.0
    if lead_mask != U0:
        lead_follow, lead_none = _lead_stats(unseen, lead_mask, n_unseen, hand_left)
    suit = np.int64(-1)
    suit_follow = np.int64(0)
    suit_none = 0.0
    # the gift to the trick's winner when my card follows without winning, by winning rank
    gift_rank = np.int64(-1)
    gift = 0.0
    best_card = -1
    best = -1e300
    m = legal
    while m != U0:
        card = lowest_bit(m)
        m &= m - U1
        bit = U1 << np.uint64(card)
        rank = CARD_RANK[card]
        own = _win_lead(card, U0)               # the card's suit, every suit for a wild
        if CARD_SUIT[card] != suit and (lead_mask == U0 or own != lead_mask):
            suit = CARD_SUIT[card]
            suit_follow, suit_none = _lead_stats(unseen, own, n_unseen, hand_left)
        lm, none, follows, p_win = _card_takes(card, bit, rank, own, lead_mask, lead_follow,
                                               lead_none, suit_follow, suit_none,
                                               follow_ranks, others, unseen)
        # what winning would bring: this card, the cards that did not follow,
        # and what the players still to play are expected to throw off (none of the
        # lead suit: a wild on an empty trick leads none)
        gain = collect(my_pile, my_gain, card, True, cancel)[1]
        if others > 0:
            off = none if lm != ~U0 ^ _WILD_MASK else 0.0
            gain += others * off * mean_unseen
        score = p_win * (total_value(total + gain, 100.0, margin, greed) - value_now)
        # who takes the trick otherwise, and what they get from it
        ranks = follow_ranks
        if follows:
            ranks |= U1 << np.uint64(rank)
        if ranks != U0:
            wr = winning_rank(ranks)
            if not (follows and wr == rank):
                if not (follows and wr == gift_rank):
                    taken = offsuit if follows else offsuit | bit
                    w, g = trick_taker_gain(o, o_rank_pos, o_trick_leader, o_pile, o_trick,
                                            n, wr, taken, cancel)
                    gift = gift_utility(g, o[o_score + w] + o[o_points + w], my_total,
                                        best_other, limit, all_bust_highest)
                    gift_rank = wr if follows else np.int64(-1)
                score += (1.0 - p_win) * weight * gift
        # near the limit, get rid of cards that would likely win a later trick
        # while it is safe to; the top cards of a suit and the 10 are escapes
        if closeness > 0.0:
            if lead_mask != U0 and own == lead_mask:
                danger = _win_chance_in(rank, own, U0, n - 1, unseen, lead_follow,
                                        1.0 - lead_none)
            else:
                danger = _win_chance_in(rank, own, U0, n - 1, unseen, suit_follow,
                                        1.0 - suit_none)
            score += SHED_WEIGHT * closeness * danger
        if score > best:
            best = score
            best_card = card
    return best_card


@njit(cache=True, inline="always")
def random_action(st):
    """A uniform choice among the legal cards of the seat to move (its own hand
    and the lead suit: ``legal_cards``).  Two choices per 64-bit draw of the
    game's stream: the spare half first."""
    legal = legal_cards(st)
    if st[S_SPARE_LEFT]:
        half = np.uint64(st[S_SPARE])
        st[S_SPARE_LEFT] = 0
    else:
        rng, r64 = next_u64(np.uint64(st[S_RNG]))
        st[S_RNG] = np.int64(rng)
        half = r64 & MASK32
        st[S_SPARE] = np.int64(r64 >> S32)
        st[S_SPARE_LEFT] = 1
    return kth_bit(legal, np.int64((half * popcount(legal)) >> S32))


@njit(cache=True, inline="always")
def choose_into(r, st, pid, obs):
    """Policy ``pid``'s action for the seat to move; advances the stream in
    ``st`` as the policy draws; ``obs`` is scratch for the observation."""
    if pid == RANDOM:
        return random_action(st)
    observe(r, st, st[S_TO_MOVE], obs)
    return heuristic_action(r, obs)


@njit(cache=True)
def choose(r, st, pid):
    """``choose_into`` with its own scratch (for callers outside a loop)."""
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    return choose_into(r, st, pid, obs)


_PIMC_HELP = (f"allowed: pimc, or pimc:worlds=N,depth=D,playout=P,cards=C,stop=Z (any of "
              f"them; N from 1 to {PIMC_MAX_WORLDS}, default {PIMC_WORLDS}; D tricks "
              f"searched by max-n, 0 to {PIMC_MAX_DEPTH}, {PIMC_MAX_DEPTH} = to the round's "
              f"end, default {PIMC_DEPTH}; P 1 = the heuristic plays the round out after the "
              f"search, 0 = evaluate the totals there, default {PIMC_PLAYOUT}; C: search only "
              f"with at most C cards in hand, the heuristic's card before, 1 to "
              f"{PIMC_MAX_CARDS}, default {PIMC_CARDS}; Z: stop sampling a card once it is Z "
              f"tenths of a standard error behind the best, 0 (never) to {PIMC_MAX_STOP}, "
              f"default {PIMC_STOP})")
_PIMC_BOUNDS = {"worlds": (1, PIMC_MAX_WORLDS), "depth": (0, PIMC_MAX_DEPTH),
                "playout": (0, 1), "cards": (1, PIMC_MAX_CARDS), "stop": (0, PIMC_MAX_STOP)}
_PIMC_SHIFTS = {"worlds": PIMC_SHIFT, "depth": PIMC_DEPTH_SHIFT, "playout": PIMC_PLAYOUT_SHIFT,
                "cards": PIMC_CARDS_SHIFT, "stop": PIMC_STOP_SHIFT}
_PIMC_BITS = {"worlds": 0x1FFF, "depth": 0xFF, "playout": 1, "cards": 15, "stop": 0x3F}


def parse_policy(name: str) -> int:
    """The kernel id of a policy name: ``random``, ``heuristic``, ``expert``, ``pimc`` or
    ``pimc:worlds=N,depth=D,playout=P,cards=C,stop=Z`` (parameters separated by ``,`` or
    ``;``, any may be left out); ValueError naming what is allowed."""
    if name == "expert":
        return EXPERT
    if name in POLICIES:
        return POLICIES.index(name)
    if name == "pimc" or name.startswith("pimc:"):
        params = {"worlds": PIMC_WORLDS, "depth": PIMC_DEPTH, "playout": PIMC_PLAYOUT,
                  "cards": PIMC_CARDS, "stop": PIMC_STOP}
        for part in filter(None, name[5:].replace(";", ",").split(",")):
            key, _, val = part.partition("=")
            if key not in _PIMC_BOUNDS or not val.isdigit() \
                    or not _PIMC_BOUNDS[key][0] <= int(val) <= _PIMC_BOUNDS[key][1]:
                raise ValueError(f"bad pimc parameter '{part}'; {_PIMC_HELP}")
            params[key] = int(val)
        return PIMC + sum(params[key] << _PIMC_SHIFTS[key] for key in PIMC_KEYS)
    raise ValueError(f"unknown policy '{name}' for schadenfreude; policies: random, heuristic, expert, "
                     f"pimc[:worlds=N,depth=D,playout=P,cards=C,stop=Z] (default "
                     f"worlds={PIMC_WORLDS}, depth={PIMC_DEPTH}, playout={PIMC_PLAYOUT}, "
                     f"cards={PIMC_CARDS}, stop={PIMC_STOP})")


def policy_name(pid: int) -> str:
    """The canonical name of a kernel id (``pimc:worlds=N,depth=D,playout=P,cards=C,stop=Z``
    for pimc)."""
    pid = int(pid)
    if pid & 7 == PIMC:
        return "pimc:" + ",".join(f"{key}={(pid >> _PIMC_SHIFTS[key]) & _PIMC_BITS[key]}"
                                  for key in PIMC_KEYS)
    return "expert" if pid == EXPERT else POLICIES[pid]


def uses_search(pids) -> bool:
    """Whether any of the kernel ids searches (needs the solver's scratch space): pimc,
    expert."""
    return any(int(p) & 7 == PIMC or int(p) == EXPERT for p in pids)
