"""The Schadenfreude heuristic's kernel against a plain Python statement of its scoring.

policies.py computes the heuristic's per-card scores with shared work (the lead suit's
odds once per suit, the trick's off-suit cards collected once, the gift to the trick's
winner once per winning rank, the mean value by rank bit planes); here every card is
scored from scratch, term by term as the module doc describes (its utilities,
``total_value`` and ``gift_utility``, taken as they are), and the kernel must pick the
same card on every position (3, 4, 5 players and rule sets that change the scoring).
"""
import numpy as np
import pytest

from simcore import get_game
from simcore.games.schadenfreude import policies as P
from simcore.games.schadenfreude.cards import CARD_RANK, CARD_VALUE, RANK_CARDS, SUIT_MASK
from simcore.games.schadenfreude.engine import (S_FOLLOW, S_HAND, S_LEAD, S_OFFSUIT, S_PILE,
                                                S_PLAYED, S_POINTS, S_RANK_POS, S_SCORE,
                                                S_TO_MOVE, S_TRICK, S_TRICK_LEADER,
                                                S_TRICK_NUM, S_TRICK_POS)
from simcore.games.schadenfreude.rules import rules_array

M64 = (1 << 64) - 1
WILD = (1 << 48) | (1 << 49)
ALL_SUITS = M64 ^ WILD


def bits(m):
    """The card ids of a mask, lowest first."""
    return [c for c in range(64) if m >> c & 1]


def pc(m):
    return bin(m & M64).count("1")


def ipow(x, k):
    r = 1.0
    for _ in range(k):
        r *= x
    return r


def collect(pile, points, card, cancel):
    same = pile & int(RANK_CARDS[CARD_RANK[card]]) if cancel else 0
    if same:
        return pile & ~same, points - int(CARD_VALUE[card])
    return pile | 1 << card, points + int(CARD_VALUE[card])


def trick_gain(cards, pile, cancel):
    pts = 0
    for c in bits(cards):
        pile, pts = collect(pile, pts, c, cancel)
    return pts


def winning_rank(ranks):
    hi = ranks.bit_length() - 1
    rest = ranks ^ (1 << hi)
    return hi if rest == 0 else rest.bit_length() - 1


def win_chance(card, lead, follow_ranks, others, unseen, hand_left):
    rank = int(CARD_RANK[card])
    lm = lead or (0 if card >= 48 else int(SUIT_MASK[card // 12])) or ALL_SUITS
    above = pc(follow_ranks >> (rank + 1))
    below = follow_ranks & ((1 << rank) - 1)
    if above >= 2:
        return 0.0
    if others == 0:
        return 1.0 if above == 1 or below == 0 else 0.0
    n_unseen = max(1, pc(unseen))
    n_follow = pc(unseen & (lm | WILD))
    p_has = 1.0 - ipow(1.0 - min(1.0, pc(unseen & lm) / n_unseen), hand_left)
    q = 0.0
    if n_follow > 0:
        above_cards = sum(int(RANK_CARDS[r]) for r in range(rank + 1, 14))
        q = p_has * pc(unseen & above_cards & (lm | WILD)) / n_follow
    if above == 1:
        return ipow(1.0 - q, others)
    p = others * q * ipow(1.0 - q, others - 1)
    if below == 0:
        p += ipow(1.0 - p_has, others)
    return min(1.0, p)


def reference_card(r, st):
    """The heuristic's card for the seat to move of ``st``, every term from scratch."""
    u = [int(x) & M64 for x in st]
    n, hand_size, limit = int(r[P.R_PLAYERS]), int(r[P.R_HAND]), int(r[P.R_LIMIT])
    cancel = r[P.R_CANCEL] != 0
    me = int(st[S_TO_MOVE])
    hand, lead = u[S_HAND + me], u[S_LEAD]
    follow = hand & lead
    legal = (follow | hand & WILD) if follow else hand
    follow_ranks, offsuit = u[S_FOLLOW], u[S_OFFSUIT]
    others = n - 1 - int(st[S_TRICK_POS])
    unseen = (int(r[P.R_DECK]) & M64) & ~u[S_PLAYED] & ~hand
    tricks_left = hand_size - int(st[S_TRICK_NUM])
    tot = [int(st[S_SCORE + p]) + int(st[S_POINTS + p]) for p in range(n)]
    my_total = tot[me]
    room = limit - my_total
    best_other = max([t for p, t in enumerate(tot) if p != me and t <= limit], default=-1000)
    leading = my_total > best_other
    ending = any(t > limit - P.ENDING_ROOM for p, t in enumerate(tot) if p != me)
    hand_left = pc(hand)
    vals = [int(CARD_VALUE[c]) for c in bits(unseen)]
    mean_unseen = sum(vals) / len(vals) if vals else 0.0
    closeness = min(1.0, max(0.0, (P.CLOSE_ROOM - room) / P.CLOSE_ROOM))
    if ending:
        margin = P.END_MARGIN_BASE + P.END_MARGIN_PER_TRICK * (tricks_left - 1)
    else:
        margin = P.MARGIN_BASE + P.MARGIN_PER_TRICK * (tricks_left - 1)
    greed = P.LEADING_GREED if leading else 1.0
    best_card, best = -1, -1e300
    for card in bits(legal):
        bit = 1 << card
        lm = lead or (0 if card >= 48 else int(SUIT_MASK[card // 12]))
        follows = card >= 48 or bit & lm != 0
        p_win = win_chance(card, lead, follow_ranks, others, unseen, hand_left)
        gain = trick_gain(bit | offsuit, u[S_PILE + me], cancel)
        if others > 0:
            off = 0.0
            if lm not in (0, ALL_SUITS):
                off = ipow(1.0 - min(1.0, pc(unseen & lm) / max(1, pc(unseen))), hand_left)
            gain += others * off * mean_unseen
        total = 100.0 - room
        score = p_win * (P.total_value.py_func(total + gain, 100.0, margin, greed)
                         - P.total_value.py_func(total, 100.0, margin, greed))
        ranks = follow_ranks | (1 << int(CARD_RANK[card]) if follows else 0)
        if ranks:
            wr = winning_rank(ranks)
            if not (follows and wr == CARD_RANK[card]):
                wpos = (u[S_RANK_POS] >> (3 * wr)) & 7
                w = (int(st[S_TRICK_LEADER]) + wpos) % n
                taken = offsuit if follows else offsuit | bit
                pr, g = collect(u[S_PILE + w], 0, int(st[S_TRICK + wpos]), cancel)
                g += trick_gain(taken, pr, cancel)
                weight = 1.0 if others == 0 else P.UNCERTAIN
                score += (1.0 - p_win) * weight * P.gift_utility.py_func(
                    g, tot[w], my_total, best_other, limit, r[P.R_ALL_BUST_HIGHEST] != 0)
        if closeness > 0.0:
            score += P.SHED_WEIGHT * closeness * win_chance(card, 0, 0, n - 1, unseen,
                                                            hand_left)
        if score > best:
            best_card, best = card, score
    return best_card


@pytest.mark.parametrize("players,assign", [(3, []), (4, []), (5, []), (4, ["pairs=keep"]),
                                            (4, ["all_bust=highest", "limit=30"]),
                                            (5, ["floor=-10"])])
def test_heuristic_kernel_is_the_plain_scoring(players, assign):
    g = get_game("schadenfreude")
    rules = g.build_rules(players=players, assignments=assign)
    eng = g.engine(rules)
    r = rules_array(rules)
    checked = 0
    for index in range(6):
        st = eng.new(40 + players, index)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
                continue
            got = int(P.heuristic_on_state(r, st))
            if pc(int(st[S_HAND + int(st[S_TO_MOVE])]) & M64) > 1:
                assert got == reference_card(r, st), (index, st.tolist())
                checked += 1
            eng.apply(st, got)
    assert checked >= 300
