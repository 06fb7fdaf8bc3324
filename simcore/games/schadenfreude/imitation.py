"""Training data and paired games for the Schadenfreude ``expert``'s learned card scorer
(expert.py: ``card_features``, ``model_card``), after Wendish's imitation.py.

``imitation_rows`` plays games with the seat ``index % players`` played by ``pimc`` with
more cards in hand than a search table of the expert's has rows (flat Monte Carlo over
``worlds`` worlds, heuristic playouts, no stopping rule: every legal card is valued in
every world) and by the expert with that table with fewer, the heuristic everywhere else. At
each of that seat's decisions with more cards than the table and two or more legal
cards it writes a row: the position, pimc's summed value of every legal card over the
worlds (``pimc.pimc_values``: the seat's utility, a share of the win) and the index of
the card pimc plays (the best sum, the lowest card on a tie). Everything is drawn from
the game's and the decisions' own streams, so the rows are a function of (rules, seed,
indices, worlds). ``rows_features`` gives the model's inputs of stored positions (a
feature set can change without searching again); ``model_game_wins`` plays the expert
with given weights in one seat on paired games. Used by
``benchmarks/train_expert_schadenfreude.py``.
"""
import numpy as np
from numba import njit

from ...bits import popcount
from .engine import (OBS_SIZE, PLAYING, S_HAND, S_STATUS, S_TO_MOVE, S_WINNER, STATE_SIZE,
                     apply_action, game_over, init_game, next_deal)
from .expert import MAX_CARDS, N_CARD, N_CONTEXT, card_features
from .pimc import expert_model_choose, pimc_values
from .policies import HEURISTIC, choose_into
from .rules import R_PLAYERS

#: rows a game writes on average are about 40 (four players); the buffers start at this
#: many a game and ``imitation_rows`` says when they are too small
ROWS_PER_GAME = 96


def new_rows(rows):
    """Empty output arrays for ``rows`` rows: (states, score, nleg, target, game)
    (``imitation_rows``)."""
    return (np.zeros((rows, STATE_SIZE), dtype=np.int64), np.zeros((rows, MAX_CARDS)),
            np.zeros(rows, dtype=np.int64), np.zeros(rows, dtype=np.int64),
            np.zeros(rows, dtype=np.int64))


@njit(cache=True)
def imitation_rows(r, seed, start, count, worlds, table, work, fw, states, score, nleg,
                   target, game):
    """Play games ``start .. start+count-1`` of run ``seed`` (module doc; the data seat
    plays the expert with search ``table``, ``expert_table(r)`` for the shipped one, with
    at most the table's rows of cards, pimc with more) and write their
    rows from row 0 of the output arrays (``new_rows``: the position, pimc's summed value
    per legal card in ascending card order, the number of legal cards, the index of
    pimc's card, the game's index); returns the rows written, or -1 if the arrays are
    too small (then nothing is complete: call again with larger ones)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    acts = np.empty(64, dtype=np.int64)
    totals = np.empty(64, dtype=np.float64)
    # the searched decisions only (no scorer): any weights of the model's shape
    table_weights = np.zeros((N_CARD, N_CONTEXT), dtype=np.float64)
    cards = len(table) - 1
    row = 0
    for g in range(start, start + count):
        init_game(r, st, seed, g)
        seat = g % r[R_PLAYERS]
        while True:
            while st[S_STATUS] == PLAYING:
                p = st[S_TO_MOVE]
                if p != seat:
                    a = choose_into(r, st, HEURISTIC, obs)
                elif popcount(np.uint64(st[S_HAND + p])) <= cards:
                    a = expert_model_choose(r, st, table, table_weights, np.int64(0), obs,
                                            work, fw)
                else:
                    # depth -1 with playouts: the card, then the heuristic to the end
                    k = pimc_values(r, st, worlds, np.int64(-1), np.int64(1), work, fw,
                                    acts, totals, np.int64(0))
                    best = 0
                    for i in range(1, k):
                        if totals[i] > totals[best]:
                            best = i
                    a = acts[best]
                    if k > 1:
                        if row >= len(nleg):
                            return -1
                        for w in range(STATE_SIZE):
                            states[row, w] = st[w]
                        for i in range(k):
                            score[row, i] = totals[i]
                        nleg[row] = k
                        target[row] = best
                        game[row] = g
                        row += 1
                apply_action(r, st, a)
            if game_over(st):
                break
            next_deal(r, st)
    return row


@njit(cache=True)
def rows_features(r, states, feats, ctx):
    """The model's inputs (``expert.card_features``) of every position in ``states``:
    ``feats[i, :k, :]`` for its k legal cards (ascending ids), ``ctx[i]``."""
    acts = np.empty(MAX_CARDS, dtype=np.int64)
    f = np.empty((MAX_CARDS, N_CARD), dtype=np.float64)
    c = np.empty(N_CONTEXT, dtype=np.float64)
    for i in range(len(states)):
        k = card_features(r, states[i], acts, f, c)
        for b in range(N_CONTEXT):
            ctx[i, b] = c[b]
        for j in range(k):
            for a in range(N_CARD):
                feats[i, j, a] = f[j, a]


@njit(cache=True)
def model_game_wins(r, table, weights, use_model, seat, seed, start, count, work, fw, win,
                    dec):
    """Games ``start .. start+count-1`` of run ``seed``: the expert with search ``table``
    and scorer ``weights`` (``pimc.expert_model_choose``; ``use_model`` 0: the
    heuristic's card where the scorer would play) in ``seat``, the heuristic elsewhere.
    ``win[g - start]``: whether the seat won; ``dec`` adds up the decisions (all, the
    seat's)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    obs = np.empty(OBS_SIZE, dtype=np.int64)
    for g in range(start, start + count):
        init_game(r, st, seed, g)
        while True:
            while st[S_STATUS] == PLAYING:
                dec[0] += 1
                if st[S_TO_MOVE] == seat:
                    dec[1] += 1
                    a = expert_model_choose(r, st, table, weights, use_model, obs, work, fw)
                else:
                    a = choose_into(r, st, HEURISTIC, obs)
                apply_action(r, st, a)
            if game_over(st):
                break
            next_deal(r, st)
        win[g - start] = st[S_WINNER] == seat
