"""Wendish Schafkopf's batch-environment kernels (``simcore.envs.vector``), every variant:
many games stepped at once, one state row each, by the engine's own kernels (engine.py);
an environment that finishes its game starts game ``games[i] + stride`` of the run at
once.

The buffers arrive as a ``VecBuffers`` NamedTuple and are taken out of it before the
parallel loop: numba 0.68 drops writes made through a tuple's arrays inside ``prange``."""
from numba import njit, prange

from ...vector_kernels import encode, first_illegal, put_mask, settle
from .engine import (MAX_LEGAL, OBS_SIZE, ST_N, ST_SCORE, STATE_SIZE, apply_action, deal_over,
                     game_over, init_game, legal_actions, next_deal, observe, to_move)
from .policies import choose

#: what the environment allocates per row: state words, ``observe`` words, legal list
SIZES = (STATE_SIZE, OBS_SIZE, MAX_LEGAL)


@njit(cache=True, inline="always")
def _emit(r, st, table, n_cards, words, obs, acts, mask, legal):
    """One row's outputs from state ``st``: the tensor and mask of the seat to act."""
    observe(r, st, to_move(st), words)
    encode(words, table, n_cards, obs)
    k = legal_actions(r, st, acts)     # (as an argument of put_mask, under parallel=True,
    #                                    the list lost its last entry: count first)
    put_mask(acts, k, mask, legal)


@njit(cache=True, inline="always")
def _advance(r, seed, stride, st, i, games, stand, rewards):
    """After an action in row ``i``: the next deal after a scored one; a finished game
    pays its rewards (each seat's score minus the mean) and starts game
    ``games[i] + stride``.  Whether one ended."""
    seats = st[ST_N]
    fin = False
    while deal_over(st):
        if game_over(st):
            for p in range(seats):
                stand[p] = st[ST_SCORE + p]
            fin = True
            games[i] += stride
            init_game(r, st, seed, games[i])
        else:
            next_deal(r, st)
    settle(fin, stand, seats, rewards)
    return fin


@njit(cache=True, parallel=True)
def step_batch(r, seed, stride, states, games, actions, reset, table, n_cards, b):
    """Apply ``actions[i]`` in every row (``_advance`` then moves it on) and write the next
    decisions; with ``reset`` true, start game ``games[i]`` in every row instead (the
    actions unread).  Returns -1, or the first row whose action is illegal (then nothing
    has moved)."""
    obs, mask, rewards, done, to_play = b.obs, b.mask, b.rewards, b.done, b.to_play
    legal, words, acts, stand = b.legal, b.words, b.actions, b.stand
    if not reset:
        bad = first_illegal(actions, legal)
        if bad >= 0:
            return bad
    for i in prange(states.shape[0]):
        st = states[i]
        if reset:
            init_game(r, st, seed, games[i])
        else:
            apply_action(r, st, actions[i])
        done[i] = _advance(r, seed, stride, st, i, games, stand[i], rewards[i])
        # (the seat comes from the state: a value returned by the inlined _emit was lost)
        to_play[i] = to_move(st)
        _emit(r, st, table, n_cards, words[i], obs[i], acts[i], mask[i], legal[i])
    return -1


@njit(cache=True, parallel=True)
def policy_batch(r, states, pid, words, out):
    """The action built-in policy ``pid`` (random 0 or heuristic 1) takes in every row, into
    ``out``; advances each row's stream as the batch run's player does (``words`` unused)."""
    for i in prange(states.shape[0]):
        out[i] = choose(r, states[i], pid)
