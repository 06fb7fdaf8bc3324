"""Wendish Schafkopf's side of a numba player in the batch runs
(``simcore.numba_players``): cached kernels the players' loop calls, built from the
engine's own kernels, the batch loop's row writer (play.py) and the batch environment's
observation writer (vector.py)."""
import numpy as np
from numba import njit

from ...numba_kernels import NumbaKernels
from .engine import (ST_TO_MOVE, apply_action, deal_over, game_over, init_game,
                     next_deal_into)
from .pimc import choose_w
from .play import D_FIELDS, MAX_ACTIONS, searching, write_row
from .solver import W_COLS, new_work_rows
from .vector import _emit


@njit(cache=True)
def start(r, st, seed, index):
    """Game ``index`` of run ``seed`` into ``st``."""
    init_game(r, st, seed, index)


@njit(cache=True)
def advance(r, policies, user, st, rows, nd, work):
    """The built-in seats play (as ``play.play_game`` does; each finished deal's row into
    ``rows[nd]``) until a seat with ``user[seat]`` is to act: ``(nd, seat)``, or the game
    is over: ``(nd, -1)``."""
    wk, deck = work
    while True:
        if deal_over(st):
            write_row(st, rows[nd])
            nd += 1
            if game_over(st):
                return nd, -1
            next_deal_into(r, st, deck)
        p = st[ST_TO_MOVE]
        if user[p]:
            return nd, p
        apply_action(r, st, choose_w(r, st, policies[p], wk))


@njit(cache=True)
def view(r, st, table, n_cards, words, obs, acts, mask, legal):
    """The observation tensor, mask and legal bits of the seat to act."""
    _emit(r, st, table, n_cards, words, words, True, obs, acts, mask, legal)


@njit(cache=True)
def apply(r, st, a):
    """Apply the legal action ``a``."""
    apply_action(r, st, a)


@njit(cache=True)
def scratch(policies):
    """The solver's scratch space (one row when nobody searches) and a deck."""
    return (np.zeros((new_work_rows(searching(policies)), W_COLS), dtype=np.int64),
            np.empty(32, dtype=np.int64))


def kernels(rules, chunk) -> NumbaKernels:
    """The kernels and the chunk builder of a numba player's Wendish run (``chunk``:
    game.py's ``_chunk``, the tables from the deal rows)."""

    def tables(start_, rows, nd, finals):
        count = len(nd)
        return chunk(rules, start_, count, rows.reshape(count * rows.shape[1], D_FIELDS),
                     np.zeros(count, np.int64))

    return NumbaKernels(start, advance, view, apply, scratch, (rules["deals"], D_FIELDS,
                                                                np.int64), tables,
                        rules["deals"] * MAX_ACTIONS)
