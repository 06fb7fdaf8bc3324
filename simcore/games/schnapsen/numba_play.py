"""Schnapsen's side of a numba player in the batch runs (``simcore.numba_players``):
cached kernels the players' loop calls, built from the engine's own kernels, the batch
loop's row writer (play.py) and the batch environment's observation writer (vector.py)."""
import numpy as np
from numba import njit

from ...numba_kernels import NumbaKernels
from .engine import apply_action, deal_over, game_over, init_game, next_deal, to_move
from .play import MAX_DEAL_ACTIONS, N_DEAL_COLUMNS, _match_out, match_columns, write_row
from .policies import PIMC, choose_w
from .rules import max_deals
from .solver import W_COLS, new_work_rows
from .vector import _emit


@njit(cache=True)
def start(r, st, seed, index):
    """Match ``index`` of run ``seed`` into ``st``."""
    init_game(r, st, seed, index)


@njit(cache=True)
def advance(r, policies, user, st, rows, nd, work):
    """The built-in seats play (as ``play.play_match`` does; each scored deal's row into
    ``rows[nd]``) until a seat with ``user[seat]`` is to act: ``(nd, seat)``, or the
    match is decided: ``(nd, -1)``."""
    while True:
        if deal_over(st):
            write_row(st, rows[nd])
            nd += 1
            if game_over(st):
                return nd, -1
            next_deal(r, st)
        p = to_move(st)
        if user[p]:
            return nd, p
        apply_action(r, st, choose_w(r, st, policies[p], work))


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
    """The solver's scratch space (one row when no seat searches)."""
    search = False
    for p in range(len(policies)):
        search |= policies[p] & 7 == PIMC
    return np.zeros((new_work_rows(search), W_COLS), dtype=np.int64)


@njit(cache=True)
def _outs(finals, nd, deals, winner, first_dealer, left):
    for g in range(finals.shape[0]):
        _match_out(finals[g], g, nd[g], deals, winner, first_dealer, left)


def kernels(rules, chunk) -> NumbaKernels:
    """The kernels and the chunk builder of a numba player's Schnapsen run (``chunk``:
    game.py's, the tables from the deal rows and the matches' figures)."""

    def tables(start, rows, nd, finals):
        deals, winner, first_dealer, left = match_columns(len(nd))
        _outs(finals, nd, deals, winner, first_dealer, left)
        flat = rows[np.arange(rows.shape[1])[None, :] < nd[:, None]]
        return chunk(start, flat, deals, winner, first_dealer, left)

    return NumbaKernels(start, advance, view, apply, scratch,
                        (max_deals(rules), N_DEAL_COLUMNS, np.int16), tables,
                        max_deals(rules) * MAX_DEAL_ACTIONS)
