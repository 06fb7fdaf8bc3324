"""Schadenfreude's side of a numba player in the batch runs (``simcore.numba_players``):
cached kernels the players' loop calls, built from the engine's own kernels, the
searching players' chooser (pimc.py) and the batch environment's observation writer
(vector.py).  The games table comes from each game's final state, as for the batch loop."""
import numpy as np
from numba import njit

from ...numba_kernels import NumbaKernels
from .engine import (OBS_SIZE, apply_action, deal_over, game_over, init_game, next_deal,
                     to_move)
from .pimc import choose_search
from .play import _scratch
from .vector import _emit


@njit(cache=True)
def start(r, st, seed, index):
    """Game ``index`` of run ``seed`` into ``st``."""
    init_game(r, st, seed, index)


@njit(cache=True)
def advance(r, policies, user, st, rows, nd, work):
    """The built-in seats play (as ``play._search_game`` does; ``nd`` counts the scored
    rounds, ``rows`` is unused: the table is per game) until a seat with ``user[seat]``
    is to act: ``(nd, seat)``, or the game is over: ``(nd, -1)``."""
    wk, fw, obs = work
    while True:
        if deal_over(st):
            nd += 1
            if game_over(st):
                return nd, -1
            next_deal(r, st)
        p = to_move(st)
        if user[p]:
            return nd, p
        apply_action(r, st, choose_search(r, st, policies[p], obs, wk, fw))


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
    """The searching players' scratch space and the policies' observation words."""
    wk, fw = _scratch(policies)
    return wk, fw, np.empty(OBS_SIZE, dtype=np.int64)


def kernels(rules, final_tables) -> NumbaKernels:
    """The kernels and the chunk builder of a numba player's Schadenfreude run
    (``final_tables(start, finals)``: the games table from the games' final states)."""
    return NumbaKernels(start, advance, view, apply, scratch, (1, 1, np.int64),
                        lambda start_, rows, nd, finals: final_tables(start_, finals),
                        rules["max_rounds"] * rules["hand_size"])
