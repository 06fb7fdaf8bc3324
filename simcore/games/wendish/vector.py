"""Wendish Schafkopf's batch-environment kernels (``simcore.envs.vector``), every variant:
many games stepped at once, one state row each, by the engine's own kernels (engine.py)
through the shared step (``simcore.vector_kernels.step_rows``); an environment that
finishes its game starts game ``games[i] + stride`` of the run at once."""
from numba import njit, prange

from ...vector_kernels import STEP_BLOCK, encode, put_mask, step_block_rows, step_rows
from .engine import (MAX_LEGAL, OBS_SIZE, ST_N, ST_SCORE, STATE_SIZE, apply_action, deal_over,
                     game_over, init_game, legal_actions, next_deal, observe, to_move)
from .policies import choose

#: what the environment allocates per row: state words, ``observe`` words, legal list
SIZES = (STATE_SIZE, OBS_SIZE, MAX_LEGAL)


@njit(cache=True, inline="always")
def _standings(r, st, stand):
    """A finished game's standings: each seat's score."""
    for p in range(st[ST_N]):
        stand[p] = st[ST_SCORE + p]


@njit(cache=True, inline="always")
def _emit(r, st, table, n_cards, words, seen, full, obs, acts, mask, legal):
    """One row's outputs from state ``st``: the tensor (over the one of the words ``seen``,
    or whole when ``full``) and mask of the seat to act."""
    observe(r, st, to_move(st), words)
    encode(words, table, n_cards, obs, seen, full)
    k = legal_actions(r, st, acts)     # (as an argument of put_mask, under parallel=True,
    #                                    the list lost its last entry: count first)
    put_mask(acts, k, mask, legal)


@njit(cache=True)
def _step_block(r, seed, stride, states, games, actions, reset, table, n_cards, obs, mask,
                rewards, done, to_play, legal, seen, acts, stand, lo, hi):
    """Rows ``lo .. hi-1`` of ``step_batch`` (``simcore.vector_kernels.step_block_rows``
    with this game's kernels), serial: the game's code compiled once, outside the
    parallel loop."""
    step_block_rows(r, seed, stride, states, games, actions, reset, table, n_cards, obs,
                    mask, rewards, done, to_play, legal, seen, acts, stand, lo, hi,
                    init_game, apply_action, deal_over, game_over, next_deal, to_move,
                    _standings, _emit)


@njit(cache=True, parallel=True)
def step_batch(r, seed, stride, states, games, actions, reset, table, n_cards, b):
    """``simcore.vector_kernels.step_rows`` with this game's kernels: apply
    ``actions[i]`` in every row (or with ``reset`` start game ``games[i]``) and write the
    next decisions into the buffers ``b``; -1, or the first row with an illegal action."""
    return step_rows(r, seed, stride, states, games, actions, reset, table, n_cards, b,
                     _step_block)


@njit(cache=True)
def _policy_block(r, states, pid, words, out, lo, hi):
    """Rows ``lo .. hi-1`` of ``policy_batch``, serial: the policy's code compiled once,
    outside the parallel loop (inlined there, numba's parallel passes took minutes)."""
    for i in range(lo, hi):
        out[i] = choose(r, states[i], pid)


@njit(cache=True, parallel=True)
def policy_batch(r, states, pid, words, out):
    """The action built-in policy ``pid`` (random 0 or heuristic 1) takes in every row, into
    ``out``; advances each row's stream as the batch run's player does (``words`` unused)."""
    n = states.shape[0]
    for k in prange((n + STEP_BLOCK - 1) // STEP_BLOCK):
        _policy_block(r, states, pid, words, out, k * STEP_BLOCK,
                      min(n, (k + 1) * STEP_BLOCK))
