"""What a user's numba player needs inside the batch loop, below the runner and the
players (``simcore.numba_players`` builds runs on it; each game's ``numba_play.py``
fills a ``NumbaKernels``): the loop over games that calls the player, its argument
types, and the seats' random streams."""
from __future__ import annotations

from typing import Callable, NamedTuple

import numba
import numpy as np
from numba import njit, prange, types

from .bits import U1, game_stream, mix64
from .vector_kernels import MASK_WORDS

#: what ``numba.extending.is_jitted`` accepts: a numba player is an @njit function
_JITTED = numba.core.registry.CPUDispatcher
#: the argument types the batch loop calls a numba player with
ARG_TYPES = (types.float32[::1], types.boolean[::1], types.uint64[::1])
SIGNATURE = "choose(obs: float32[:], mask: bool[:], rng: uint64[1]) -> int"
#: games per parallel task when no built-in player searches (one each when one does)
BLOCK = 64


class NumbaKernels(NamedTuple):
    """A game's side of a numba player's run (``Game.numba_kernels(rules)``)."""

    #: ``start(r, st, seed, index)``: game ``index`` of run ``seed`` into ``st``
    start: object
    #: ``advance(r, policies, user, st, rows, nd, work) -> (nd, seat)``: the built-in
    #: seats play (each scored deal's row into ``rows[nd]``, ``nd`` counting them) until
    #: ``user[seat]`` is to act, or the game is over (seat -1)
    advance: object
    #: ``view(r, st, table, n_cards, words, obs, acts, mask, legal)``: the tensor, mask
    #: and legal bits of the seat to act (the batch environment's writer)
    view: object
    #: ``apply(r, st, action)``: a legal action
    apply: object
    #: ``scratch(policies)``: the built-in players' scratch space, passed to ``advance``
    scratch: object
    #: rows per game, columns and dtype of ``advance``'s deal rows
    rows: tuple
    #: ``tables(start, rows, deals, finals)``: the chunk ``Game.run_chunk`` returns, from
    #: the deal rows, the deals per game and each game's final state
    tables: Callable
    #: most decisions one seat takes in a game (the width of a seat's logged actions,
    #: which ``Game.records_jsonl`` replays to write a numba player's records)
    actions: int


def is_numba_player(obj) -> bool:
    """Whether ``obj`` is a numba player (an ``@njit`` function)."""
    return isinstance(obj, _JITTED)


def unjitted_choose(obj) -> bool:
    """Whether ``obj`` is a plain function shaped like a numba player (three required
    positional parameters) that is not ``@njit``-compiled."""
    import inspect
    if not inspect.isfunction(obj):
        return False
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return False
    required = [p for p in params if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(required) == 3


@njit(cache=True, inline="always")
def seat_stream(seed, index, seat):
    """The initial splitmix64 state of seat ``seat``'s numba player in game ``index`` of
    run ``seed`` (independent of the game's own stream, which the built-in players use)."""
    return mix64(game_stream(seed, index) ^ mix64(np.uint64(seat + 1)))


@njit(cache=True)
def seat_stream_py(seed, index, seat):
    """``seat_stream`` as one call from Python."""
    return seat_stream(np.uint64(seed), np.int64(index), np.int64(seat))


@njit(parallel=True)
def play_chunk(choose, start_game, advance, view, apply, scratch, r, policies, user, seed,
                start, count, block, dims, table, n_cards, rows, deals, finals, bad, script):
    """Games ``start .. start+count-1`` of run ``seed``, ``block`` a task: the seats with
    ``user[p]`` played by ``choose``, the others by ``policies[p]`` (the game's kernels
    ``start_game`` .. ``scratch``, see NumbaKernels).  Writes each game's deal rows, deal
    count and final state; ``bad[g]`` = (1, seat, action) where game ``g`` stopped at an
    action that is not legal; ``script[g]``: game ``g``'s actions of ``choose`` in turn
    (as many as fit: none when it has no columns), what the game's logging kernels
    replay for its records.  Not cached: it takes the user's function."""
    seats = user.shape[0]
    for b in prange((count + block - 1) // block):
        st = np.zeros(dims[0], np.int64)
        obs = np.zeros(dims[1], np.float32)
        mask = np.zeros(dims[2], np.bool_)
        words = np.zeros(dims[3], np.int64)
        acts = np.zeros(dims[4], np.int64)
        legal = np.zeros(MASK_WORDS, np.uint64)
        rng = np.zeros((seats, 1), np.uint64)
        work = scratch(policies)
        for g in range(b * block, min(count, (b + 1) * block)):
            index = start + g
            start_game(r, st, seed, index)
            for p in range(seats):
                rng[p, 0] = seat_stream(seed, index, p)
            nd = np.int64(0)        # typed: advance compiles once, not for a literal 0 too
            k = 0
            while True:
                nd, who = advance(r, policies, user, st, rows[g], nd, work)
                if who < 0:
                    break
                view(r, st, table, n_cards, words, obs, acts, mask, legal)
                a = np.int64(choose(obs, mask, rng[who]))
                if a < 0 or a >= 64 * MASK_WORDS \
                        or (legal[a >> 6] >> np.uint64(a & 63)) & U1 == 0:
                    bad[g, 0] = 1
                    bad[g, 1] = who
                    bad[g, 2] = a
                    break
                if k < script.shape[1]:
                    script[g, k] = a
                    k += 1
                apply(r, st, a)
            deals[g] = nd
            finals[g, :] = st
