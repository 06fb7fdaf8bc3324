"""Training data for the Wendish ``expert``'s learned card scorer (expert.py): positions
of ``pimc`` play, each with the model's inputs and ``pimc``'s values of every legal card.

``imitation_rows`` plays one deal per index (rules with ``deals=1``) with the seat
``index % players`` played by ``pimc`` (``worlds`` worlds; its last ``tricks`` tricks by
the expert's search, EXPERT_WORLDS worlds) and the heuristic everywhere else. At each
card decision of that seat before those last tricks with two or more legal cards it
writes a row: the
position, pimc's summed deal score of every legal card over its worlds
(``pimc.pimc_scores``) and the index of the card pimc plays (``pimc.pimc_pick``); the
model's inputs come from the positions (``rows_features``). Everything is drawn from the game's and the decisions' own streams,
so the rows are a function of (rules, seed, indices, worlds). Used by
``benchmarks/train_expert_wendish.py``.
"""
import numpy as np
from numba import njit

from .engine import (P_DONE, P_PLAY, STATE_SIZE, ST_DELTA, ST_N, ST_NTRICKS, ST_PHASE,
                     ST_TO_MOVE, ST_TRICKS_DONE, py_apply, py_init_game)
from .expert import EXPERT_WORLDS, MAX_CARDS, N_CARD, card_features, model_card
from .pimc import pimc_choose, pimc_pick, pimc_scores
from .policies import HEURISTIC, py_choose
from .rules import R_PLAYERS

#: rows a deal can write at most (the pimc seat's card decisions)
ROWS_PER_DEAL = 16

# The two loops below call the engine's and the heuristic's one-call kernels (py_*),
# compiled once for the whole package, instead of inlining the game's code again:
# their time goes to pimc's searches, and inlined they cost a minute of compiling
# each on a cold cache for the tests and the training script alone.


def new_rows(deals):
    """Empty output arrays for ``deals`` deals: (states, score, nleg, target, deal)
    (``imitation_rows``)."""
    n = deals * ROWS_PER_DEAL
    return (np.zeros((n, STATE_SIZE), dtype=np.int64), np.zeros((n, MAX_CARDS)),
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64))


@njit(cache=True)
def imitation_rows(r, seed, start, count, worlds, tricks, work, states, score, nleg, target,
                   deal):
    """Play deals ``start .. start+count-1`` of run ``seed`` (module doc; the pimc seat
    searches its last ``tricks`` tricks as the expert does, the shipped expert's window
    being EXPERT_TRICKS, and writes rows before them) and write their
    rows from row 0 of the output arrays (``new_rows``: the position, pimc's summed
    score per legal card in ascending card order, the number of legal cards, the index
    of pimc's card, the deal's index); returns the rows written. The model's inputs of
    a row are ``rows_features``' (a feature set can change without searching again)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    acts = np.empty(MAX_CARDS, dtype=np.int64)
    pts = np.empty(MAX_CARDS, dtype=np.float64)
    row = 0
    for g in range(start, start + count):
        py_init_game(r, st, seed, g)
        seat = g % st[ST_N]
        while st[ST_PHASE] != P_DONE:
            p = st[ST_TO_MOVE]
            if p != seat or st[ST_PHASE] != P_PLAY:
                a = py_choose(r, st, np.int64(HEURISTIC))
            elif st[ST_NTRICKS] - st[ST_TRICKS_DONE] <= tricks:
                a = pimc_choose(r, st, np.int64(EXPERT_WORLDS), work)  # typed: one compile
            else:
                k = pimc_scores(r, st, worlds, work, acts, score[row], pts)
                a = pimc_pick(r, st, acts, score[row], pts, k)
                if k > 1:
                    for w in range(STATE_SIZE):
                        states[row, w] = st[w]
                    nleg[row] = k
                    deal[row] = g
                    for i in range(k):
                        if acts[i] == a:
                            target[row] = i
                    row += 1
            py_apply(r, st, a)
    return row


@njit(cache=True)
def rows_features(r, states, feats, ctx):
    """The model's inputs (``expert.card_features``) of every position in ``states``:
    ``feats[i, :k, :]`` for its k legal cards (ascending ids), ``ctx[i]``."""
    acts = np.empty(MAX_CARDS, dtype=np.int64)
    f = np.empty((MAX_CARDS, N_CARD), dtype=np.float64)
    m = feats.shape[1]
    for i in range(len(states)):
        k = card_features(r, states[i], acts, f, ctx[i])
        for j in range(min(k, m)):
            for a in range(N_CARD):
                feats[i, j, a] = f[j, a]


@njit(cache=True)
def model_deal_scores(r, seed, start, count, models, tricks, worlds, work, out):
    """The expert with weights ``models`` (expert.MODEL's shape) in one seat and the heuristic elsewhere, each seat in
    turn on deals ``start .. start+count-1`` of run ``seed`` (``deals=1`` rules): ``out[g,
    s]`` is seat s's score of deal ``start+g`` when the expert sits in s. The expert
    searches the last ``tricks`` tricks (pimc over ``worlds`` worlds; the shipped
    expert: EXPERT_TRICKS, EXPERT_WORLDS) and plays the model's card before them: with
    ``models = MODEL`` this is the shipped ``expert``, so weights, search windows and
    worlds can be compared on paired deals without compiling a player for each."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    for g in range(count):
        for seat in range(r[R_PLAYERS]):
            py_init_game(r, st, seed, start + g)
            while st[ST_PHASE] != P_DONE:
                p = st[ST_TO_MOVE]
                if p != seat or st[ST_PHASE] != P_PLAY:
                    a = py_choose(r, st, np.int64(HEURISTIC))
                elif st[ST_NTRICKS] - st[ST_TRICKS_DONE] <= tricks:
                    a = pimc_choose(r, st, worlds, work)
                else:
                    a = model_card(r, st, models)
                py_apply(r, st, a)
            out[g, seat] = st[ST_DELTA + seat]
