"""Schnapsen players, dispatched by integer id inside the kernels.

``random``: a uniform choice among the legal cards, a fair coin for each
optional exchange, close and marriage (then a uniform marriage suit and a
uniform choice of its king or queen), and a claim exactly when its counted
card points reach ``target``.

``heuristic``: remembers every card played and the face-up trump card, and
  - claims as soon as its counted card points reach ``target``;
  - always exchanges the trump jack and always shows a marriage (trumps first),
    leading the queen so as to keep the king;
  - closes when its points so far plus what its master cards should bring
    (top trumps for certain, side-suit masters at 60%) reach ``target``;
  - with the talon open leads cheap plain cards, keeping trumps, tens and
    marriage halves; follows by taking a ten or ace led with the ace (or a
    cheap trump), taking low leads with a ten or ace of the suit, otherwise
    throwing its cheapest card;
  - once the talon is closed or empty draws trumps with master trumps, cashes
    masters, and otherwise wins with the lowest card that wins or sheds its
    cheapest card.

``sloppy``: the heuristic with a miscounting player's claims: each time it
considers claiming, with probability ``SLOPPY_ERROR`` (10%) its count is off
by a uniform amount from -10 to +10 (never 0), so it may claim wrongly or
miss a claim.  It studies what counting errors cost.

``expert`` (expert.py): the heuristic while cards are still drawn, but it closes only
when the closed deal wins in every one of a few sampled hands of the opponent (each
solved with both hands open); once nothing more is drawn it plays by exact search:
perfectly once the talon is used up (every card is known), by the best mean over a
few sampled hands of the opponent in a closed deal.

Every player is a function of what its seat can see: ``choose`` reads the state
only where ``engine.observe`` would show the seat to move the same thing (its own
hand, the cards played, the face-up trump card, the talon, the step of the turn,
its own points) plus the game's random stream; tests/test_schnapsen_engine.py
re-deals the hidden cards and checks that no choice changes.
"""
import numpy as np
from numba import njit

from ...bits import U0, U1, bounded, highest_bit, kth_bit, lowest_bit, popcount, uniform01
from .cards import CARD_POINTS, SUIT_MASK
from .engine import (A_CLAIM, A_CLOSE, A_EXCHANGE, A_MARRIAGE, A_PASS, FOLLOW,
                     LEAD, S_CLOSER, S_HAND, S_LEAD_CARD, S_LEADER, S_MARR, S_MARRIED,
                     S_PHASE, S_PLAYED, S_POINTS, S_RNG, S_STEP, S_TALON_LEFT, S_TRICKS,
                     S_TRUMP, S_TRUMP_CARD, T_CLOSED, T_EXCHANGED, T_MARRIED, T_START,
                     counted_points, follow_mask, marriage_suits)
from .expert import EXPERT_CLOSE_WORLDS, EXPERT_WORLDS, expert_choose, expert_close
from .pimc_params import PIMC_GOAL, PIMC_GOALS, PIMC_MAX_STOP, PIMC_STOP, PIMC_TALON, PIMC_TALONS
from .solver import PIMC_MAX_WORLDS, PIMC_WORLDS, pimc_choose
from .rules import R_CLOSE_MIN, R_EXCH_MIN, R_MARR_CLOSED, R_TARGET

POLICIES = ("random", "heuristic", "sloppy", "expert")   # ids 0..3; pimc is parsed
RANDOM, HEURISTIC, SLOPPY, EXPERT, PIMC = 0, 1, 2, 3, 4   # expert: see expert.py
# a pimc id carries its parameters: PIMC + 8 * worlds (worlds < 2**11), plus PIMC_DEAL
# for goal=deal (the other ids are below 8)
PIMC_SHIFT = 3
PIMC_WORLDS_MASK = (1 << 11) - 1
PIMC_DEAL = 1 << 14
PIMC_NO_MCLAIM = 1 << 15   # marriage_claim=0
PIMC_STOP_SHIFT = 16       # stop=K in 4 bits
PIMC_TALON_SHIFT = 20      # talon=T as 10 - T in 4 bits (0: search at every decision)
TALON_FULL = 10            # cards in the talon after the deal
SLOPPY_ERROR = 0.10
SLOPPY_SPREAD = 10

# how unwilling the heuristic is to lead each rank with the talon open: J Q K T A
_LEAD_COST = np.array([2, 3, 4, 12, 9], dtype=np.int64)
_DECK = np.uint64((1 << 20) - 1)
_KQ = np.uint64(0b110)


@njit(cache=True, inline="always")
def card_bit(card):
    """The one-card mask of ``card`` (uint64)."""
    return U1 << np.uint64(card)


@njit(cache=True, inline="always")
def wants_claim(policy, rng, points, target):
    """Whether a player with ``points`` counted card points claims; (rng, yes)."""
    if policy == SLOPPY:
        rng, u = uniform01(rng)
        if u < SLOPPY_ERROR:
            rng, d = bounded(rng, 2 * SLOPPY_SPREAD)
            d -= SLOPPY_SPREAD
            if d >= 0:
                d += 1
            return rng, points + d >= target
    return rng, points >= target


@njit(cache=True, inline="always")
def cheapest(mask):
    """The card of ``mask`` worth the fewest points (lowest id on ties)."""
    best = -1
    best_v = 100
    m = mask
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        v = CARD_POINTS[c]
        if v < best_v:
            best_v = v
            best = c
    return best


@njit(cache=True, inline="always")
def is_master(card, unknown):
    """Whether no card outside our knowledge beats ``card`` within its suit."""
    above = SUIT_MASK[card // 5] & ~((U1 << np.uint64(card + 1)) - U1)
    return (above & unknown) == U0


@njit(cache=True, inline="always")
def _marriage_halves(hand):
    """King and queen cards of ``hand`` whose partner is also held."""
    out = U0
    for s in range(4):
        kq = _KQ << np.uint64(5 * s)
        if hand & kq == kq:
            out |= kq
    return out


@njit(cache=True, inline="always")
def heuristic_marriage(suits, trump):
    """Which marriage to show among the suit bits ``suits``: trumps first."""
    if suits >> trump & 1:
        return trump
    for s in range(4):
        if suits >> s & 1:
            return s
    return -1


@njit(cache=True, inline="always")
def heuristic_close(hand, trump, known, points, marriages, tricks, target, marriage_ok):
    """Whether to close: points so far plus what the hand's masters should bring."""
    unknown = _DECK & ~known & ~hand
    est = 0.0 + points
    sure = 0
    m = hand
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if is_master(c, unknown):
            if c // 5 == trump:
                est += CARD_POINTS[c] + 4.0
                sure += 1
            else:
                est += 0.6 * (CARD_POINTS[c] + 4.0)
    if tricks == 0 and sure == 0:
        return False  # no trick in sight: closing would stake 2-3 game points on nothing
    est += marriages
    if marriage_ok:
        halves = _marriage_halves(hand)
        for s in range(4):
            kq = _KQ << np.uint64(5 * s)
            if halves & kq == kq:
                est += 40.0 if s == trump else 20.0
    return est >= target + 4


@njit(cache=True, inline="always")
def heuristic_lead(allowed, hand, trump, known, strict, married):
    """The card to lead from ``allowed`` (the king or queen after a marriage)."""
    if married >= 0:
        return married * 5 + 1  # the queen; the king stays
    unknown = _DECK & ~known & ~hand
    trumps = allowed & SUIT_MASK[trump]
    if strict:
        # draw trumps while the opponent may hold some, with a master trump
        if trumps != U0 and (unknown & SUIT_MASK[trump]) != U0:
            top = highest_bit(trumps)
            if is_master(top, unknown):
                return top
        # cash the most valuable master of a plain suit
        best = -1
        best_v = -1
        m = allowed & ~SUIT_MASK[trump]
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            if is_master(c, unknown) and CARD_POINTS[c] > best_v:
                best_v = CARD_POINTS[c]
                best = c
        if best >= 0:
            return best
        plain = allowed & ~SUIT_MASK[trump]
        if plain != U0:
            return cheapest(plain)
        return cheapest(allowed)
    halves = _marriage_halves(hand)
    best = -1
    best_cost = 1 << 30
    m = allowed
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        cost = _LEAD_COST[c % 5]
        if c // 5 == trump:
            cost += 20
        if (halves >> np.uint64(c)) & U1:
            cost += 10
        if cost < best_cost:
            best_cost = cost
            best = c
    return best


@njit(cache=True, inline="always")
def heuristic_follow(legal, hand, lead, trump, known, strict, points, target):
    """The card to answer ``lead`` with, from ``legal``; ``points``: ours counted."""
    lead_suit = lead // 5
    lv = CARD_POINTS[lead]
    same_higher = legal & SUIT_MASK[lead_suit] & ~((U1 << np.uint64(lead + 1)) - U1)
    trumps = legal & SUIT_MASK[trump]
    if lead_suit == trump:
        trumps = U0
    if strict:
        winners = same_higher
        if winners == U0:
            winners = trumps
        if winners != U0:
            return lowest_bit(winners)
        return cheapest(legal)
    halves = _marriage_halves(hand)
    # winning the trick would reach the target: win as cheaply as possible
    if same_higher != U0 or trumps != U0:
        c = lowest_bit(same_higher) if same_higher != U0 else lowest_bit(trumps)
        if points + lv + CARD_POINTS[c] >= target:
            return c
    if lead_suit != trump and lv >= 10:
        if same_higher != U0:
            return lowest_bit(same_higher)
        if trumps != U0:
            spare = trumps & ~halves
            if spare != U0:
                return lowest_bit(spare)
            return lowest_bit(trumps)
    if lead_suit != trump:
        big = same_higher & ~((U1 << np.uint64(lead_suit * 5 + 3)) - U1)  # T or A
        if big != U0:
            return lowest_bit(big)
    elif same_higher != U0 and lv >= 10:
        return lowest_bit(same_higher)
    # throw a cheap plain card, keeping marriage halves, tens and aces
    plain = legal & ~SUIT_MASK[trump] & ~halves
    low = U0
    m = plain
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if c % 5 < 3:
            low |= card_bit(c)
    if low != U0:
        return cheapest(low)
    spare_trumps = legal & SUIT_MASK[trump] & ~halves
    if lead_suit != trump and spare_trumps != U0:
        c = lowest_bit(spare_trumps)
        if c % 5 < 3:
            return c
    if plain != U0:
        return cheapest(plain)
    return cheapest(legal)


@njit(cache=True, inline="always")
def _lead_turn(r, st, pid, rng):
    """The turn to lead from its current step: every optional step still open, in the
    rules' order (claim, exchange, close, marriage, claim), then the card; (rng, action).
    A step declined draws what it drew in the fused loop and moves on."""
    p = st[S_LEADER]
    hand = st[S_HAND + p]
    step = st[S_STEP]
    trump = st[S_TRUMP]
    target = r[R_TARGET]
    talon_left = st[S_TALON_LEFT]
    strict = st[S_CLOSER] >= 0 or talon_left == 0
    points = st[S_POINTS + p]
    marriages = st[S_MARR + p]
    tricks = st[S_TRICKS + p]
    if step == T_START:
        if st[S_TRICKS] + st[S_TRICKS + 1] > 0:  # a claim right after winning a trick
            rng, yes = wants_claim(pid, rng, counted_points(points, marriages, tricks), target)
            if yes:
                return rng, A_CLAIM
        if not strict and talon_left >= r[R_EXCH_MIN] and (hand >> (trump * 5)) & 1 == 1:
            yes = True
            if pid == RANDOM:
                rng, k = bounded(rng, 2)
                yes = k == 1
            if yes:
                return rng, A_EXCHANGE
    if step <= T_EXCHANGED and not strict and talon_left >= r[R_CLOSE_MIN]:
        if pid == RANDOM:
            rng, k = bounded(rng, 2)
            yes = k == 1
        elif pid == EXPERT:
            yes = expert_close(r, st, EXPERT_CLOSE_WORLDS)
        else:
            known = np.uint64(st[S_PLAYED]) | card_bit(st[S_TRUMP_CARD])
            yes = heuristic_close(np.uint64(hand), trump, known, points, marriages, tricks,
                                  target, r[R_MARR_CLOSED] != 0)
        if yes:
            return rng, A_CLOSE
    if step <= T_CLOSED and (not strict or r[R_MARR_CLOSED] != 0):
        suits = marriage_suits(hand)
        if suits != 0:
            married = -1
            if pid == RANDOM:
                rng, k = bounded(rng, 2)
                if k == 1:
                    rng, j = bounded(rng, popcount(np.uint64(suits)))
                    married = kth_bit(np.uint64(suits), j)
            else:
                married = heuristic_marriage(suits, trump)
            if married >= 0:
                return rng, A_MARRIAGE + married
    married = -1
    allowed = hand
    if step == T_MARRIED:
        married = st[S_MARRIED]
        rng, yes = wants_claim(pid, rng, counted_points(points, marriages, tricks), target)
        if yes:
            return rng, A_CLAIM
        allowed = hand & (np.int64(0b110) << (5 * married))
    if pid == RANDOM:
        rng, k = bounded(rng, popcount(allowed))
        return rng, kth_bit(allowed, k)
    known = np.uint64(st[S_PLAYED])
    if not strict:
        known |= card_bit(st[S_TRUMP_CARD])
    return rng, heuristic_lead(np.uint64(allowed), np.uint64(hand), trump, known, strict,
                               married)


@njit(cache=True, inline="always")
def choose(r, st, pid):
    """The action policy ``pid`` takes for the seat to move; advances the state's stream
    by exactly the draws the policy makes (none for the heuristic's card play)."""
    if pid == EXPERT:
        a = expert_choose(r, st, EXPERT_WORLDS)
        if a >= 0:
            return a
    rng = np.uint64(st[S_RNG])
    ph = st[S_PHASE]
    if ph == FOLLOW:
        p = 1 - st[S_LEADER]
        hand = st[S_HAND + p]
        lead = st[S_LEAD_CARD]
        trump = st[S_TRUMP]
        strict = st[S_CLOSER] >= 0 or st[S_TALON_LEFT] == 0
        legal = follow_mask(hand, lead, trump, strict)
        if pid == RANDOM:
            rng, k = bounded(rng, popcount(legal))
            a = kth_bit(legal, k)
        else:
            known = np.uint64(st[S_PLAYED])
            if not strict:
                known |= card_bit(st[S_TRUMP_CARD])
            a = heuristic_follow(np.uint64(legal), np.uint64(hand), lead, trump, known, strict,
                                 st[S_POINTS + p] + st[S_MARR + p], r[R_TARGET])
    elif ph == LEAD:
        rng, a = _lead_turn(r, st, pid, rng)
    else:  # AFTER_LAST: the last trick's winner claims or not
        p = st[S_LEADER]
        rng, yes = wants_claim(pid, rng, counted_points(st[S_POINTS + p], st[S_MARR + p],
                                                        st[S_TRICKS + p]), r[R_TARGET])
        a = A_CLAIM if yes else A_PASS
    st[S_RNG] = np.int64(rng)
    return a


@njit(cache=True)
def choose_w(r, st, pid, work):
    """``choose`` for every policy, ``pimc`` included (``work``: ``solver.new_work()``)."""
    if pid & 7 == PIMC:
        if st[S_TALON_LEFT] > TALON_FULL - ((pid >> PIMC_TALON_SHIFT) & 15):
            # talon=T: while more than T cards are left to draw the expert decides (the
            # search's cost falls about fivefold with each trick drawn: 160 ms a decision
            # with 10 cards left, 35 with 8, 8 with 6)
            return choose(r, st, EXPERT)
        return pimc_choose(r, st, (pid >> PIMC_SHIFT) & PIMC_WORLDS_MASK, work,
                           (pid & PIMC_DEAL) != 0, (pid & PIMC_NO_MCLAIM) == 0,
                           (pid >> PIMC_STOP_SHIFT) & 15)
    return choose(r, st, pid)


_PIMC_HELP = (f"allowed are worlds=N with N from 1 to {PIMC_MAX_WORLDS}, goal="
              f"{'|'.join(PIMC_GOALS)} and marriage_claim=1|0, and stop=K with K from 0 "
              f"to {PIMC_MAX_STOP}, and talon=T with T in {'|'.join(map(str, PIMC_TALONS))}, "
              "separated by ',' or ';' "
              "(e.g. pimc:worlds=32,goal=deal)")
PIMC_KEYS = ("worlds", "goal", "marriage_claim", "stop", "talon")


def parse_policy(name: str) -> int:
    """The kernel id of a policy name: ``random``, ``heuristic``, ``sloppy``, ``pimc`` or
    ``pimc:worlds=N,goal=G,marriage_claim=M`` (N from 1 to PIMC_MAX_WORLDS, G ``points``
    or ``deal``, M 1 or 0; any may be left out, ``;`` also separates); ValueError naming
    what is allowed."""
    if name in POLICIES:
        return POLICIES.index(name)
    if name == "pimc" or name.startswith("pimc:"):
        worlds, goal, mclaim, stop, talon = PIMC_WORLDS, PIMC_GOAL, 1, PIMC_STOP, PIMC_TALON
        for part in filter(None, name[5:].replace(";", ",").split(",")):
            key, _, val = part.partition("=")
            if key == "worlds" and val.isdigit() and 1 <= int(val) <= PIMC_MAX_WORLDS:
                worlds = int(val)
            elif key == "goal" and val in PIMC_GOALS:
                goal = val
            elif key == "marriage_claim" and val in ("0", "1"):
                mclaim = int(val)
            elif key == "stop" and val.isdigit() and int(val) <= PIMC_MAX_STOP:
                stop = int(val)
            elif key == "talon" and val.isdigit() and int(val) in PIMC_TALONS:
                talon = int(val)
            else:
                raise ValueError(f"bad pimc parameter '{part}': {_PIMC_HELP}")
        return (PIMC + (worlds << PIMC_SHIFT) + (PIMC_DEAL if goal == "deal" else 0)
                + (0 if mclaim else PIMC_NO_MCLAIM) + (stop << PIMC_STOP_SHIFT)
                + ((TALON_FULL - talon) << PIMC_TALON_SHIFT))
    raise ValueError(f"unknown policy '{name}'; policies: {', '.join(POLICIES)}, "
                     f"pimc[:worlds=N,goal=G,marriage_claim=M] (default {PIMC_WORLDS} worlds, "
                     f"goal {PIMC_GOAL}, marriage_claim 1)")


def policy_name(pid: int) -> str:
    """The canonical name of a kernel id (``pimc:worlds=N`` for pimc, with ``,goal=deal``
    when it plays for the deal and ``,marriage_claim=0`` when it never claims right after
    a marriage)."""
    pid = int(pid)
    if pid & 7 == PIMC:
        name = f"pimc:worlds={(pid >> PIMC_SHIFT) & PIMC_WORLDS_MASK}"
        name += ",goal=deal" if pid & PIMC_DEAL else ""
        name += ",marriage_claim=0" if pid & PIMC_NO_MCLAIM else ""
        stop = (pid >> PIMC_STOP_SHIFT) & 15
        name += f",stop={stop}" if stop != PIMC_STOP else ""
        talon = TALON_FULL - ((pid >> PIMC_TALON_SHIFT) & 15)
        return name + (f",talon={talon}" if talon != PIMC_TALON else "")
    return POLICIES[pid]


def uses_search(pids) -> bool:
    """Whether any of the kernel ids needs the solver's scratch space."""
    return any(int(p) & 7 == PIMC for p in pids)
