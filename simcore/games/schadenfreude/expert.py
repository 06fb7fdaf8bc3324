"""Schadenfreude's ``expert`` player: a learned card scorer (four players; the heuristic
with three and five) early in a round, and ``pimc``'s flat Monte Carlo over sampled
worlds for the last cards of a round.

With at most ``EXPERT_CARDS`` cards left in its hand a round's playout is short, so a
world costs little: there the expert plays ``pimc.pimc_choose`` with the worlds and
stopping rule of its table's row for the cards in hand (``expert_table``: one table per
player count, ``EXPERT_SEARCH[players - 3]``), no max-n search and heuristic playouts
(each legal card played in each world, the heuristic plays the round out for every
seat, the best mean value taken), also in the last two tricks, where ``pimc`` searches
exactly (``depth = EXPERT_DEPTH``): against heuristic seats the playout is their own
play in that world, and it costs less than the exact search. Earlier in the round it
plays the legal card with the best score of a bilinear model fitted to pimc's values of
every legal card (``card_features``, ``model_card``, the weights ``MODEL`` from
``expert_schadenfreude_<n>p.npy``; see below) where the player count has a model
(``MODEL_ON``: four players), else as ``heuristic`` (policies.py). The dispatch is
``pimc.choose_search``. It reads only what its seat sees (the worlds are pimc's,
consistent with the seat's observation; the features its observation's).

The tables differ by player count because a playout's cost does (five plies a trick
with five players, three with three) and so does what the budget of about 5 us a decision
of the seat buys (docs/schadenfreude.md; ``benchmarks/bench_expert.py --games
schadenfreude-tables --players N`` compares tables).
"""
from pathlib import Path

import numpy as np
from numba import njit

from ...bits import U0, U1, lowest_bit, popcount
from .cards import CARD_RANK, CARD_SUIT, CARD_VALUE, RANK_CARDS, SUIT_MASK, WILD_MASK
from .engine import (S_FOLLOW, S_HAND, S_LEAD, S_OFFSUIT, S_PILE, S_PLAYED, S_POINTS,
                     S_RANK_POS, S_SCORE, S_TO_MOVE, S_TRICK, S_TRICK_LEADER, S_TRICK_NUM,
                     S_TRICK_POS, collect, legal_mask, winning_rank)
from .policies import (CLOSE_ROOM, ENDING_ROOM, RANKS_ABOVE, _cards_above, _collect_all,
                       _card_takes, _lead_stats, _win_chance_in, _win_lead,
                       heuristic_on_state, trick_taker_gain)
from .rules import R_CANCEL, R_DECK, R_HAND, R_LIMIT, R_PLAYERS

#: the kernel id of ``expert`` (``pid & 7`` is not pimc's)
EXPERT = 3
#: by player count (3, 4, 5), then by cards left in hand (row): the worlds sampled per
#: decision (0: the heuristic's card) and pimc's stopping rule (tenths of a standard
#: error, 0: off; from pimc's STOP_MIN_WORLDS worlds on); rows past a hand's cards are
#: never read
EXPERT_SEARCH = np.array([
    [[0, 0], [0, 0], [32, 10], [32, 10], [16, 10]],     # 3 players
    [[0, 0], [0, 0], [32, 10], [16, 10], [4, 0]],       # 4 players (8s10 at 4 cards
                                                        # before the learned scorer)
    [[0, 0], [0, 0], [32, 10], [16, 10], [3, 0]],       # 5 players (4 worlds at 4
                                                        # cards: 4.6-5.1 us, over budget
                                                        # end to end; 3: -0.2, -0.4 pp)
], dtype=np.int64)
#: the fewest players (the first table)
EXPERT_MIN_PLAYERS = 3
#: the most cards with which the expert searches
EXPERT_CARDS = EXPERT_SEARCH.shape[1] - 1
#: pimc's depth for the expert: -1, the card then the heuristic playout, to the end
EXPERT_DEPTH = -1


@njit(cache=True, inline="always")
def expert_row(st, table):
    """Row of ``table`` (worlds, stop) for this decision: by cards in the hand of the seat
    to move, -1 past the table's end (the heuristic's card)."""
    h = np.int64(popcount(np.uint64(st[S_HAND + st[S_TO_MOVE]])))
    return h if h < len(table) else np.int64(-1)


@njit(cache=True, inline="always")
def expert_table(r):
    """The expert's search table (rows: worlds, stop by cards in hand) for the player
    count of the rules ``r``."""
    return EXPERT_SEARCH[r[R_PLAYERS] - EXPERT_MIN_PLAYERS]


# ---------------------------------------------------------------------------------------
# The learned card scorer for the decisions with more cards in hand than the table's rows
# (EXPERT_CARDS + 1 or more): a bilinear model, a card's score ``f @ W @ x``, ``f`` the
# card's features (N_CARD numbers) and ``x`` the decision's context (N_CONTEXT numbers),
# both from what the seat sees (``card_features``). One weight array per player count,
# ``expert_schadenfreude_<n>p.npy`` next to this file (rebuilt by
# ``benchmarks/train_expert_schadenfreude.py``); a count without a file plays the
# heuristic's card there (``MODEL_ON``). Weights with 1 on (the heuristic's card, the
# bias) and 0 elsewhere play the heuristic's card: the fit starts from them.

#: sizes of the card feature and context vectors (``card_features``)
N_CARD = 22
N_CONTEXT = 14
#: the weight array's shape (rows: card features, columns: context)
MODEL_SHAPE = (N_CARD, N_CONTEXT)
#: the most legal cards of a decision (a hand of 12)
MAX_CARDS = 12
#: the player counts the scorer may have a model for (EXPERT_MIN_PLAYERS ...)
MODEL_PLAYERS = (3, 4, 5)


def model_file(players):
    """Where the package keeps the learned weights for ``players`` (3, 4 or 5)."""
    if players not in MODEL_PLAYERS:
        raise ValueError(f"no expert model for {players} players; counts: 3, 4, 5")
    return Path(__file__).resolve().parent / f"expert_schadenfreude_{players}p.npy"


def heuristic_weights():
    """Weights that play the heuristic's card (1 on its feature times the bias)."""
    w = np.zeros(MODEL_SHAPE)
    w[0, 0] = 1.0
    return w


def load_model(path):
    """The weights in ``path`` as a MODEL_SHAPE float64 array; ValueError for any other
    shape, type, or a weight that is not finite."""
    w = np.load(path)
    if w.dtype != np.float64 or w.shape != MODEL_SHAPE or not np.isfinite(w).all():
        raise ValueError(f"{path}: expected finite float64 weights of shape {MODEL_SHAPE}, "
                         f"got {w.dtype} {w.shape}")
    return w


def _load_all():
    """(MODEL, MODEL_ON): every player count's weights (the heuristic's where the
    package has no file) and whether the expert uses them."""
    models = np.stack([heuristic_weights() for _ in MODEL_PLAYERS])
    on = np.zeros(len(MODEL_PLAYERS), dtype=np.int64)
    for i, n in enumerate(MODEL_PLAYERS):
        if model_file(n).exists():
            models[i] = load_model(model_file(n))
            on[i] = 1
    return models, on


#: the weights by player count (MODEL[players - 3]) and whether the expert plays them
#: (1) or the heuristic's card (0) with more cards than its table; read once at import,
#: a compiled kernel holds them as constants (the numba cache is keyed by the package's
#: sources and .npy files: simcore/_cache.py)
MODEL, MODEL_ON = _load_all()


@njit(cache=True)
def card_features(r, st, acts, feats, ctx):
    """The scorer's inputs for the seat to move, from what it sees (its hand and the
    public fields: trick, cards played, piles, points, scores): its legal cards
    (ascending ids) into ``acts``, their features into ``feats[i, :N_CARD]`` and the
    decision's context into ``ctx[:N_CONTEXT]``; returns the number of legal cards.
    The estimates (chance to take the trick, what it brings, the danger of a card
    later) are the heuristic's own (policies.py); values are scaled to about [-1, 1]."""
    n = r[R_PLAYERS]
    me = st[S_TO_MOVE]
    hand = np.uint64(st[S_HAND + me])
    lead_mask = np.uint64(st[S_LEAD])
    legal = legal_mask(hand, lead_mask)
    follow_ranks = np.uint64(st[S_FOLLOW])
    offsuit = np.uint64(st[S_OFFSUIT])
    pos = st[S_TRICK_POS]
    others = n - 1 - pos
    unseen = np.uint64(r[R_DECK]) & ~np.uint64(st[S_PLAYED]) & ~hand
    limit = r[R_LIMIT]
    lim = float(max(1, limit))
    tricks_left = r[R_HAND] - st[S_TRICK_NUM]
    cancel = r[R_CANCEL] != 0
    my_total = st[S_SCORE + me] + st[S_POINTS + me]
    room = limit - my_total
    best_other = np.int64(-1000)
    min_room = lim
    ending = False
    for p in range(n):
        if p != me:
            t = st[S_SCORE + p] + st[S_POINTS + p]
            if t <= limit:
                best_other = max(best_other, t)
                min_room = min(min_room, float(limit - t))
            if t > limit - ENDING_ROOM:
                ending = True
    hand_left = np.int64(popcount(hand))
    n_unseen = max(1, np.int64(popcount(unseen)))
    my_pile = np.uint64(st[S_PILE + me])
    # the trick's cards that did not follow, as taking the trick would collect them
    got_pile, got = _collect_all(offsuit, my_pile, 0, cancel)
    h = heuristic_on_state(r, st)
    # the context
    ctx[0] = 1.0
    ctx[1] = 1.0 if pos == 0 else 0.0
    ctx[2] = 1.0 if others == 0 else 0.0
    ctx[3] = others / (n - 1)
    ctx[4] = min(1.5, max(-1.0, room / lim))
    ctx[5] = min(1.0, max(0.0, (CLOSE_ROOM - room) / CLOSE_ROOM))
    ctx[6] = 1.0 if ending else 0.0
    ctx[7] = 1.0 if my_total > best_other else 0.0
    ctx[8] = tricks_left / max(1, r[R_HAND])
    ctx[9] = st[S_POINTS + me] / 20.0
    ctx[10] = min(1.0, max(-1.0, (best_other - my_total) / lim)) if best_other > -1000 \
        else -1.0
    ctx[11] = min(1.0, min_room / lim)
    ctx[12] = got / 10.0
    ctx[13] = 1.0 if room < 0 else 0.0
    # per-suit and per-winning-rank values computed once a decision (the cards come
    # suit by suit), as the heuristic does: the same numbers for less
    lead_follow = np.int64(0)
    lead_none = 0.0
    if lead_mask != U0:
        lead_follow, lead_none = _lead_stats(unseen, lead_mask, n_unseen, hand_left)
    suit = np.int64(-1)
    suit_follow = np.int64(0)
    suit_none = 0.0
    gift_rank = np.int64(-1)
    gift_g = np.int64(0)
    gift_push = 0.0
    k = 0
    m = legal
    while m != U0:
        card = lowest_bit(m)
        m &= m - U1
        bit = U1 << np.uint64(card)
        rank = CARD_RANK[card]
        own = _win_lead(card, U0)               # the card's suit, every suit for a wild
        if CARD_SUIT[card] != suit:
            suit = CARD_SUIT[card]
            suit_follow, suit_none = _lead_stats(unseen, own, n_unseen, hand_left)
        _, _, follows, p_win = _card_takes(card, bit, rank, own, lead_mask, lead_follow,
                                           lead_none, suit_follow, suit_none, follow_ranks,
                                           others, unseen)
        gain = collect(got_pile, got, card, True, cancel)[1]
        danger = _win_chance_in(rank, own, U0, n - 1, unseen, suit_follow, 1.0 - suit_none)
        sm = SUIT_MASK[suit] if suit < 4 else WILD_MASK
        mine = hand & sm
        # the gift: what the trick's taker among the cards already played gets from it
        # if my card does not take it (only when the trick has a follower); a follower's
        # by winning rank once
        gift = 0.0
        push = 0.0
        ranks = follow_ranks
        if follows:
            ranks |= U1 << np.uint64(rank)
        if pos > 0 and ranks != U0:
            wr = winning_rank(ranks)
            if not (follows and wr == rank):
                if not (follows and wr == gift_rank):
                    taken = offsuit if follows else offsuit | bit
                    w, gift_g = trick_taker_gain(st, S_RANK_POS, S_TRICK_LEADER, S_PILE,
                                                 S_TRICK, n, wr, taken, cancel)
                    rt = st[S_SCORE + w] + st[S_POINTS + w]
                    gift_push = 1.0 if rt <= limit < rt + gift_g else 0.0
                    gift_rank = wr if follows else np.int64(-1)
                gift = gift_g / 10.0
                push = gift_push
        f = feats[k]
        f[0] = 1.0 if card == h else 0.0                    # the heuristic's card
        f[1] = p_win
        f[2] = gain / 10.0                                  # what taking the trick brings
        f[3] = p_win * gain / 10.0
        f[4] = CARD_VALUE[card] / 10.0
        f[5] = 1.0 if card >= 48 else 0.0
        f[6] = 1.0 if follows else 0.0
        f[7] = 1.0 if my_total + gain > limit else 0.0      # taking it busts me now
        f[8] = p_win * f[7]
        f[9] = danger                                       # takes a later trick it leads
        f[10] = popcount(mine) / 12.0
        f[11] = popcount(unseen & sm) / 12.0
        f[12] = 1.0 if (mine & RANKS_ABOVE[rank]) == U0 else 0.0       # my top of the suit
        f[13] = 1.0 if (mine & ~RANKS_ABOVE[rank] & ~bit) == U0 else 0.0   # my lowest
        f[14] = 1.0 if (my_pile & RANK_CARDS[rank]) != U0 else 0.0  # its value is in my pile
        f[15] = _cards_above(unseen, own, rank) / 12.0
        f[16] = 1.0 if p_win >= 1.0 else 0.0
        f[17] = 1.0 if p_win <= 0.0 else 0.0
        f[18] = (1.0 - p_win) * gift
        f[19] = (1.0 - p_win) * push                        # pushes the taker over
        f[20] = 1.0 if popcount(mine) == 1 and suit < 4 else 0.0   # leaves me void
        f[21] = CARD_VALUE[card] / 10.0 * p_win
        acts[k] = card
        k += 1
    return k


@njit(cache=True, inline="always")
def model_card(r, st, w, work, fw):
    """The legal card with the highest score ``f @ w @ x`` (``card_features``; the lowest
    card on a tie) for the seat to move, weights ``w`` (MODEL_SHAPE). ``work, fw``
    (solver.new_work(), free while no search runs) hold the scratch arrays: allocating
    them each call cost about as much as the features."""
    acts = work[0]
    feats = fw[:MAX_CARDS]
    ctx = fw[MAX_CARDS]
    v = fw[MAX_CARDS + 1]
    k = card_features(r, st, acts, feats, ctx)
    if k == 1:
        return acts[0]
    # w @ x once for the decision over the context's numbers that are not 0 (about
    # half are 0), then the cards' scores; the loops run across the independent sums
    # (the features of w, the cards) innermost, so no sum waits on its previous add
    sc = fw[MAX_CARDS + 2]
    for a in range(N_CARD):
        v[a] = 0.0
    for b in range(N_CONTEXT):
        xb = ctx[b]
        if xb != 0.0:
            for a in range(N_CARD):
                v[a] += w[a, b] * xb
    for i in range(k):
        sc[i] = 0.0
    for a in range(N_CARD):
        va = v[a]
        if va != 0.0:
            for i in range(k):
                sc[i] += feats[i, a] * va
    best = 0
    for i in range(1, k):
        if sc[i] > sc[best]:
            best = i
    return acts[best]
