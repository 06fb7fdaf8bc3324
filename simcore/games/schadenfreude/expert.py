"""Schadenfreude's ``expert`` player: the heuristic, and ``pimc``'s flat Monte Carlo over
a few sampled worlds for the last cards of a round.

With at most ``EXPERT_CARDS`` cards left in its hand a round's playout is short, so a
world costs little: there (``expert_searches``) the expert plays ``pimc.pimc_choose``
with ``EXPERT_WORLDS`` worlds, no max-n search and heuristic playouts (each legal card
played in each world, the heuristic plays the round out for every seat, the best mean
value taken). Earlier in the round it plays as ``heuristic`` (policies.py). The
dispatch is ``pimc.choose_search``. It reads only what its seat sees (the worlds are
pimc's, consistent with the seat's observation).
"""
import numpy as np
from numba import njit

from ...bits import popcount
from .engine import S_HAND, S_TO_MOVE

#: the kernel id of ``expert`` (``pid & 7`` is not pimc's)
EXPERT = 3
#: cards left in hand from which the expert searches, and its worlds per decision
EXPERT_CARDS = 4
EXPERT_WORLDS = 4


@njit(cache=True, inline="always")
def expert_searches(st):
    """Whether the expert searches this decision (few cards left in its hand)."""
    return popcount(np.uint64(st[S_HAND + st[S_TO_MOVE]])) <= EXPERT_CARDS
