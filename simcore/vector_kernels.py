"""What every game's batch-environment kernels share (``simcore.envs.vector``).

A game's ``vector.py`` steps many games at once over a 2-d array of states, one row per
environment; these inline helpers are the parts that do not depend on the game:

- ``encode``: a seat's raw ``observe`` words into the game's float32 tensor, written in
  place, from the field table ``encoding_table(spec)`` built out of the game's
  ``ObservationSpec`` (the same encoding as ``ObservationSpec.encode``: a test checks);
  with ``seen`` (the words the tensor encodes now) it writes only the columns of the
  words that changed: a step rewrites a few of a row's 700 columns, not all of them;
- ``put_mask``: a legal-action list into the bool mask row and a private bit copy that the
  next step checks actions against (the caller may scribble on the mask it was given);
  ``put_mask_bits`` the same from a mask of action bits;
- ``first_illegal``: the first environment whose action is not legal, before any moves;
- ``settle``: a row's rewards after a step: zero, or for a finished game each seat's
  standing minus the mean over the seats (as the PettingZoo environment pays them);
- ``sample_actions``: a uniformly random legal action per row of a mask, from per-row
  counter-based streams (for benchmarks and random opponents);
- ``step_rows``: the whole step over every row, in parallel blocks of rows each stepped
  by the game's serial block kernel, whose body is ``step_block_rows`` with the game's
  engine kernels passed in (inlined, so compiled per game).

The buffers a step writes travel together as ``VecBuffers`` (a NamedTuple of arrays, which
numba caches), so a kernel takes a handful of arguments, not twenty.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .bits import U1, bounded, ctz, next_u64

#: field kinds, as ``simcore.observation.KINDS`` orders them
_VALUE, _CARDS, _CARD = 0, 1, 2
#: legal-action bits are kept in words of 64; 2 words hold every game's actions (<= 128)
MASK_WORDS = 2


class VecBuffers(NamedTuple):
    """The arrays one batch step writes, row ``i`` for environment ``i``."""

    obs: np.ndarray         # float32 [n, obs_size]: the seat to act's observation tensor
    mask: np.ndarray        # bool [n, n_actions]: its legal actions
    rewards: np.ndarray     # float64 [n, seats]: each seat's reward for this step
    done: np.ndarray        # bool [n]: a game ended at this step (the row is a new game)
    to_play: np.ndarray     # int64 [n]: the seat to act
    legal: np.ndarray       # uint64 [n, MASK_WORDS]: private copy of the mask, as bits
    words: np.ndarray       # int64 [n, observe words]: scratch for the policies
    seen: np.ndarray        # int64 [n, observe words]: the words ``obs[i]`` encodes
    actions: np.ndarray     # int64 [n, max legal]: scratch for ``legal_actions``
    stand: np.ndarray       # float64 [n, seats]: scratch for the standings


def encoding_table(spec) -> np.ndarray:
    """The field table ``encode`` reads: one row ``(word, kind, count)`` per field of the
    game's ``ObservationSpec`` ``spec``, in column order."""
    from .observation import KINDS
    return np.array([(f.word, KINDS.index(f.kind), f.count) for f in spec.fields],
                    dtype=np.int64).reshape(-1, 3)


def new_buffers(n: int, obs_size: int, n_actions: int, seats: int, n_words: int,
                max_legal: int) -> VecBuffers:
    """Zeroed buffers for ``n`` environments."""
    return VecBuffers(np.zeros((n, obs_size), np.float32), np.zeros((n, n_actions), np.bool_),
                      np.zeros((n, seats), np.float64), np.zeros(n, np.bool_),
                      np.zeros(n, np.int64), np.zeros((n, MASK_WORDS), np.uint64),
                      np.zeros((n, n_words), np.int64), np.zeros((n, n_words), np.int64),
                      np.zeros((n, max_legal), np.int64), np.zeros((n, seats), np.float64))


@njit(cache=True, inline="always")
def encode(words, table, n_cards, out, seen, full):
    """Write the tensor of the raw observation ``words`` into ``out`` (float32), field by
    field of ``table`` (``encoding_table``): a value as it is, a card mask as one 0/1
    column per card, a card id as a one-hot (all 0 for -1).  ``out`` holds the tensor of
    ``seen`` (the words it encodes), unless ``full``: only the columns of the words that
    differ from ``seen`` are written (the same tensor), then ``seen`` takes ``words``."""
    col = 0
    low = (U1 << np.uint64(n_cards)) - U1
    for f in range(table.shape[0]):
        w0 = table[f, 0]
        kind = table[f, 1]
        for c in range(table[f, 2]):
            v = words[w0 + c]
            old = seen[w0 + c]
            seen[w0 + c] = v
            if kind == _VALUE:
                if full or v != old:
                    out[col] = v
                col += 1
            elif kind == _CARDS:
                if full:
                    for b in range(n_cards):
                        out[col + b] = (v >> b) & 1
                else:
                    d = np.uint64(v ^ old) & low
                    while d:
                        b = np.int64(ctz(d))
                        out[col + b] = (v >> b) & 1
                        d &= d - U1
                col += n_cards
            else:
                if full:
                    for b in range(n_cards):
                        out[col + b] = v == b
                elif v != old:
                    if 0 <= old < n_cards:
                        out[col + old] = 0
                    if 0 <= v < n_cards:
                        out[col + v] = 1
                col += n_cards


@njit(cache=True, inline="always")
def put_mask(acts, k, mask_row, legal_row):
    """Set the mask row (and its bit copy) to the ``k`` legal actions in ``acts``."""
    mask_row[:] = False
    for w in range(legal_row.shape[0]):
        legal_row[w] = 0
    for j in range(k):
        a = acts[j]
        mask_row[a] = True
        legal_row[a >> 6] |= U1 << np.uint64(a & 63)


@njit(cache=True, inline="always")
def put_mask_bits(legal, mask_row, legal_row):
    """Set the mask row (and its bit copy) to the actions whose bits ``legal`` (a uint64
    mask over action codes 0..63) has set: for games whose actions are card ids."""
    m = np.uint64(legal)
    for a in range(mask_row.shape[0]):
        mask_row[a] = (m >> np.uint64(a)) & U1
    legal_row[0] = m
    for w in range(1, legal_row.shape[0]):
        legal_row[w] = 0


@njit(cache=True)
def first_illegal(actions, legal):
    """The first row whose action is not among its legal ones (the bits ``put_mask`` kept),
    or -1 when every action is legal."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= 64 * legal.shape[1]:
            return i
        if (legal[i, a >> 6] >> np.uint64(a & 63)) & U1 == 0:
            return i
    return -1


@njit(cache=True, inline="always")
def settle(finished, stand_row, seats, rewards_row):
    """A row's rewards after a step: for a finished game each seat's standing minus the
    mean standing, otherwise zero."""
    mean = 0.0
    if finished:
        for p in range(seats):
            mean += stand_row[p]
        mean /= seats
    for p in range(seats):
        rewards_row[p] = stand_row[p] - mean if finished else 0.0


@njit(cache=True, parallel=True)
def sample_actions(mask, rng, out):
    """For every row of ``mask``, a uniformly random legal action into ``out``, drawn from
    the row's splitmix64 state ``rng[i]`` (advanced in place); -1 for a row with none."""
    for i in prange(mask.shape[0]):
        k = 0
        for a in range(mask.shape[1]):
            k += mask[i, a]
        if k == 0:
            out[i] = -1
            continue
        s, j = bounded(rng[i], k)
        rng[i] = s
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if j == 0:
                    out[i] = a
                    break
                j -= 1


@njit(cache=True)
def seed_streams(seed, n):
    """``n`` splitmix64 states for ``sample_actions``, drawn from ``seed``."""
    rng = np.empty(n, np.uint64)
    s = np.uint64(seed)
    for i in range(n):
        s, x = next_u64(s)
        rng[i] = x
    return rng


#: rows one task of ``step_rows``' parallel loop steps (one call of the game's block kernel)
STEP_BLOCK = 16


@njit(cache=True, inline="always")
def step_rows(r, seed, stride, states, games, actions, reset, table, n_cards, b, step_block):
    """Apply ``actions[i]`` in every row and write the next decisions; with ``reset``
    true, start game ``games[i]`` in every row instead (the actions unread).  Returns -1,
    or the first row whose action is illegal (then nothing has moved).

    Each game's ``step_batch`` (its ``vector.py``, parallel) is this loop over blocks of
    ``STEP_BLOCK`` rows, each stepped by ``step_block(r, seed, stride, states, games,
    actions, reset, table, n_cards, obs, mask, rewards, done, to_play, legal, seen,
    acts, stand, lo, hi)``: the game's serial kernel whose body is ``step_block_rows``.
    The game's code is compiled once, in that serial kernel: inlined into the parallel
    loop, numba's parallel passes over it took minutes on a cold cache (Schnapsen's
    step_batch alone 446 s on a loaded machine).  The buffers are taken out of the
    ``VecBuffers`` NamedTuple before the parallel loop: numba 0.68 drops writes made
    through a tuple's arrays inside ``prange``."""
    obs, mask, rewards, done, to_play = b.obs, b.mask, b.rewards, b.done, b.to_play
    legal, seen, acts, stand = b.legal, b.seen, b.actions, b.stand
    if not reset:
        bad = first_illegal(actions, legal)
        if bad >= 0:
            return bad
    n = states.shape[0]
    for k in prange((n + STEP_BLOCK - 1) // STEP_BLOCK):
        step_block(r, seed, stride, states, games, actions, reset, table, n_cards, obs, mask,
                   rewards, done, to_play, legal, seen, acts, stand, k * STEP_BLOCK,
                   min(n, (k + 1) * STEP_BLOCK))
    return -1


@njit(cache=True, inline="always")
def step_block_rows(r, seed, stride, states, games, actions, reset, table, n_cards, obs,
                    mask, rewards, done, to_play, legal, seen, acts, stand, lo, hi,
                    init_game, apply_action, deal_over, game_over, next_deal, to_move,
                    standings, emit):
    """``step_rows``' step of rows ``lo .. hi-1`` (the buffers' arrays as ``VecBuffers``
    names them; ``acts`` is its ``actions``).  After an action, a scored deal is followed
    by the next one; a finished game pays its rewards (``standings(r, st, stand_row)``
    writes each seat's standing) and the row starts game ``games[i] + stride``.
    ``emit(r, st, table, n_cards, words, seen, full, obs, acts, mask, legal)`` writes the
    tensor (over the one of ``seen``, or whole on a ``reset``; ``words`` is scratch) and
    legal actions of the seat to act.  The rest are the game engine's kernels."""
    seats = rewards.shape[1]
    words = np.empty(seen.shape[1], np.int64)
    for i in range(lo, hi):
        st = states[i]
        if reset:
            init_game(r, st, seed, games[i])
        else:
            apply_action(r, st, actions[i])
        fin = False
        while deal_over(st):
            if game_over(st):
                standings(r, st, stand[i])
                fin = True
                games[i] += stride
                init_game(r, st, seed, games[i])
            else:
                next_deal(r, st)
        settle(fin, stand[i], seats, rewards[i])
        done[i] = fin
        to_play[i] = to_move(st)
        emit(r, st, table, n_cards, words, seen[i], reset, obs[i], acts[i], mask[i], legal[i])
