"""Schnapsen hands: one deal from a partly fixed start (``tricksim hand schnapsen``).

Deal slots: 0-4 seat 0's hand, 5-9 seat 1's hand, 10 the face-up trump card, 11-19 the
talon (slot 11 drawn first).  A choice's plan is ``[decide, exchange, close, marriage]``:
``decide = 0`` lets the policy play the whole deal; ``decide = 1`` fixes the owner's
first turn to lead: exchange the trump jack (1) or not (0), close (1) or not (0), show the
marriage in suit ``marriage`` (-1: none); the card led after them is the policy's, as it
would lead having made those steps (a step the plan declines is hidden from it).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...analysis.positions import Choice, HandSetup, complete, deal_stream, free_cards, parse_cards, place
from ...errors import TricksimError
from .cards import SUITS, card_name, parse_card
from .engine import (A_CLAIM, A_CLOSE, A_RESIGN, A_EXCHANGE, A_MARRIAGE, LEAD, MAX_LEGAL, N_STATE,
                     S_DEAL, S_FIRST_DEALER, S_GAME_POINTS, S_LEADER, S_MATCH, S_PHASE, S_RNG,
                     S_STEP, S_TRICKS, S_WINNER, T_CLOSED, T_MARRIED, T_START, apply_action,
                     deal_over, is_legal, legal_actions, marriage_suits, start_deal, to_move)
from .policies import choose_w
from .rules import R_CLOSE_MIN, R_EXCH_MIN, R_MARR_CLOSED, R_MATCH, rules_array
from .solver import new_work

N_SLOTS = 20
WIN_MEANS = "win = the hand's owner wins the deal (not the match)"
SCORE_UNIT = ("score = game points of the deal, + won / - lost (-3 .. +3; a resignation "
              "counts the match points the winner still needed)")
#: the first-lead choice with no exchange, close or marriage (its label gets the card led:
#: ``plain lead QH``)
PLAIN = "plain lead"
#: actions ``tricksim analyse`` leaves out: resigning gives up the match, not the deal
NOT_ANALYSED = (A_RESIGN,)

#: the ``HandSetup.extra`` entry ``start_from_slots`` takes (positions.user_hand_play)
START_SEAT = "dealer"


@njit(cache=True, inline="always")
def start_from_slots(r, st, slots, dealer, rng):
    """Start a match's first deal from the 20 card slots (see the module)."""
    for i in range(N_STATE):
        st[i] = 0
    h0 = np.int64(0)
    h1 = np.int64(0)
    for k in range(5):
        h0 |= np.int64(1) << slots[k]
        h1 |= np.int64(1) << slots[5 + k]
    talon = np.int64(0)
    for k in range(9):
        talon |= slots[11 + k] << (5 * k)
    st[S_MATCH] = r[R_MATCH]
    st[S_MATCH + 1] = r[R_MATCH]
    st[S_DEAL] = 0
    st[S_FIRST_DEALER] = dealer
    st[S_RNG] = np.int64(rng)
    start_deal(r, st, dealer, h0, h1, slots[10], talon)


@njit(cache=True, nogil=True)
def play_hands(r, template, free, seed, first, n, pids, owner, dealer, plans, scores, wins,
               led, work):
    """Deals ``first .. first + n - 1``: each completed from ``template`` and played once
    per plan (rows of ``plans``) by ``pids`` (``work``: the solver's scratch); the owner's
    signed game points and wins into ``scores[plan, deal]``, ``wins[plan, deal]``, and the
    card the owner led to the first trick into ``led[plan, deal]`` (-1 where the owner
    did not lead it)."""
    slots = np.empty(N_SLOTS, np.int64)
    scratch = np.empty(N_SLOTS, np.int64)
    st = np.empty(N_STATE, np.int64)
    tmp = np.empty(N_STATE, np.int64)
    buf = np.empty(MAX_LEGAL, np.int64)
    for i in range(n):
        rng = complete(template, free, deal_stream(seed, first + i), slots, scratch)
        for c in range(plans.shape[0]):
            start_from_slots(r, st, slots, dealer, rng)
            fixed = plans[c, 0] == 1
            while not deal_over(st):
                p = to_move(st)
                if (fixed and p == owner and st[S_PHASE] == LEAD and st[S_LEADER] == owner
                        and st[S_TRICKS] + st[S_TRICKS + 1] == 0):
                    step = st[S_STEP]
                    if step == T_START and plans[c, 1] == 1:
                        apply_action(r, st, A_EXCHANGE)
                        continue
                    if step < T_CLOSED and plans[c, 2] == 1:
                        apply_action(r, st, A_CLOSE)
                        continue
                    if step <= T_CLOSED and plans[c, 3] >= 0:
                        apply_action(r, st, A_MARRIAGE + plans[c, 3])
                        continue
                    if step != T_MARRIED:
                        # the card: the policy's lead with the declined steps hidden
                        for w in range(N_STATE):
                            tmp[w] = st[w]
                        tmp[S_STEP] = T_CLOSED
                        a = choose_w(r, tmp, pids[p], work)
                        if a >= A_MARRIAGE and a < A_EXCHANGE:   # a declined marriage
                            apply_action(r, tmp, a)
                            a = choose_w(r, tmp, pids[p], work)
                        st[S_RNG] = tmp[S_RNG]
                        if a == A_CLAIM or not is_legal(r, st, a):
                            legal_actions(r, st, buf)
                            a = buf[0]
                        if a < A_MARRIAGE:
                            led[c, i] = a
                        apply_action(r, st, a)
                        fixed = False
                        continue
                    fixed = False
                a = choose_w(r, st, pids[p], work)
                if (p == owner and a < A_MARRIAGE and led[c, i] < 0 and st[S_PHASE] == LEAD
                        and st[S_TRICKS] + st[S_TRICKS + 1] == 0):
                    led[c, i] = a
                apply_action(r, st, a)
            won = st[S_WINNER] == owner
            wins[c, i] = 1 if won else 0
            scores[c, i] = st[S_GAME_POINTS] if won else -st[S_GAME_POINTS]


def setup(rules, seat, dealer, hand, known, trump_card=None, takes_skat=None) -> HandSetup:
    """The partial deal the user fixed: ``hand`` (the owner's cards, text), ``known``
    ((seat, cards text) pairs), ``trump_card`` (text), ``dealer`` (None: the other seat,
    so the owner leads)."""
    if takes_skat is not None:
        raise TricksimError("--takes-skat/--leaves-skat apply to Wendish's skat variants only")
    if seat not in (0, 1):
        raise TricksimError(f"--seat {seat} is not a seat of schnapsen (0 or 1)")
    if dealer is None:
        dealer = 1 - seat
    if dealer not in (0, 1):
        raise TricksimError(f"--dealer {dealer} is not a seat of schnapsen (0 or 1)")
    t = np.full(N_SLOTS, -1, np.int64)
    used: set = set()
    if trump_card is not None:
        place(t, [10], parse_cards(trump_card, parse_card, "--trump-card"), used, card_name,
              "--trump-card")
    cards = parse_cards(hand, parse_card, "--hand")
    place(t, range(5 * seat, 5 * seat + 5), cards, used, card_name, "--hand")
    for s, text in known:
        if s == seat:
            raise TricksimError(f"--known {s}: that is the hand's own seat; use --hand")
        place(t, range(5 * s, 5 * s + 5), parse_cards(text, parse_card, f"--known {s}"), used,
              card_name, f"--known {s}")
    r = rules_array(rules)
    choices = [Choice("policy decides", np.array([0, 0, 0, -1], np.int64))]
    notes = []
    own = [int(c) for c in t[5 * seat:5 * seat + 5]]
    if dealer == seat:
        notes.append("the owner deals: the opponent leads first, so there is no choice "
                     "at the first lead to compare")
    elif -1 in own or t[10] < 0:
        notes.append("the first-lead choices are compared only with the whole hand "
                     "(5 cards) and the trump card fixed")
    else:
        tc = int(t[10])
        trump = tc // 5
        hm = sum(1 << c for c in own)
        can_ex = (hm >> (trump * 5)) & 1 == 1 and r[R_EXCH_MIN] <= 10
        can_close = r[R_CLOSE_MIN] <= 10
        for ex in ([0, 1] if can_ex else [0]):
            h = hm & ~(1 << (trump * 5)) | (1 << tc) if ex else hm
            suits = int(marriage_suits(np.int64(h)))
            for cl in ([0, 1] if can_close else [0]):
                marry = suits if (not cl or r[R_MARR_CLOSED]) else 0
                for m in [-1] + [s for s in range(4) if marry >> s & 1]:
                    parts = (["exchange"] if ex else []) + (["close"] if cl else []) \
                        + ([f"marriage {SUITS[m]}"] if m >= 0 else [])
                    choices.append(Choice(" + ".join(parts) if parts else PLAIN,
                                          np.array([1, ex, cl, m], np.int64)))
    lines = [f"seat {seat} holds {' '.join(card_name(c) if c >= 0 else '?' for c in own)}; "
             f"trump card {card_name(int(t[10])) if t[10] >= 0 else 'random'}; "
             f"seat {dealer} deals"]
    return HandSetup("schnapsen", seat, 2, t, free_cards(t, range(20)), choices, WIN_MEANS,
                     SCORE_UNIT, lines, notes, extra={"dealer": dealer})


def play(rules, setup_: HandSetup, pids, seed: int, first: int, n: int):
    """Scores, wins and the card the owner led first (each choices x ``n``) of deals
    ``first .. first + n - 1`` played by ``pids``."""
    plans = np.stack([c.plan for c in setup_.choices])
    scores = np.zeros((len(plans), n), np.int64)
    wins = np.zeros((len(plans), n), np.int64)
    led = np.full((len(plans), n), -1, np.int64)
    play_hands(rules_array(rules), setup_.template, setup_.free, np.uint64(seed), first, n,
               np.asarray(pids, np.int64), setup_.seat, setup_.extra["dealer"], plans,
               scores, wins, led, new_work())
    return scores, wins, led


def labels(setup_: HandSetup, result) -> list[str]:
    """The choices' labels naming the card each led (``result``: :func:`play`'s)."""
    out = []
    for choice, cards in zip(setup_.choices, result[2]):
        words = lead_words(cards)
        out.append(choice.label + (words.replace(", leads", "", 1) if choice.label == PLAIN
                                   else words))
    return out


def lead_words(cards: np.ndarray) -> str:
    """What a choice's label adds to name the card the owner led to the first trick:
    ``, leads AH``, or the commonest two with their shares (``, leads AH 70% / TH 30%``)
    where the player's lead varied between deals; nothing where the owner never led."""
    cards = cards[cards >= 0]
    if len(cards) == 0:
        return ""
    ids, counts = np.unique(cards, return_counts=True)
    order = np.argsort(-counts, kind="stable")
    if len(ids) == 1:
        return f", leads {card_name(int(ids[0]))}"
    top = [f"{card_name(int(ids[k]))} {100 * counts[k] / len(cards):.0f}%" for k in order[:2]]
    return ", leads " + " / ".join(top) + (" / ..." if len(ids) > 2 else "")


# ----- positions (tricksim analyse) ----------------------------------------------------------
def position_info(eng, record, deal, at, st):
    """Nothing beyond the state: its void and shown-card words hold what the seat knows."""
    return None


def sample_world(eng, st, seat, rng, info):
    """A copy of ``st`` with the cards hidden from ``seat`` (the opponent's unknown cards,
    the talon) re-dealt uniformly among the deals consistent with what it sees (the
    solver's ``sample_world``), with a fresh random stream."""
    from .engine import S_RNG as _RNG
    from .solver import sample_world as k_sample
    world = st.copy()
    cards = np.empty(32, np.int64)
    k_sample(st, seat, np.uint64(rng.integers(0, 2**63)), world, cards)
    world[_RNG] = np.int64(rng.integers(0, 2**63))
    return world


def outcome(eng, st, seat):
    """(signed game points, win) of the scored deal for ``seat``."""
    won = int(st[S_WINNER]) == seat
    gp = int(st[S_GAME_POINTS])
    return (gp if won else -gp), int(won)
