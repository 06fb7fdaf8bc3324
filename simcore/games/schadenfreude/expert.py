"""Schadenfreude's ``expert`` player: the heuristic, and ``pimc``'s flat Monte Carlo over
sampled worlds for the last cards of a round.

With at most ``EXPERT_CARDS`` cards left in its hand a round's playout is short, so a
world costs little: there the expert plays ``pimc.pimc_choose`` with the worlds and
stopping rule of ``EXPERT_SEARCH[cards in hand]``, no max-n search and heuristic playouts
(each legal card played in each world, the heuristic plays the round out for every
seat, the best mean value taken), also in the last two tricks, where ``pimc`` searches
exactly (``depth = EXPERT_DEPTH``): against heuristic seats the playout is their own
play in that world, and it costs less than the exact search. Earlier in the round it
plays as ``heuristic`` (policies.py). The dispatch is ``pimc.choose_search``. It reads
only what its seat sees (the worlds are pimc's, consistent with the seat's observation).
"""
import numpy as np
from numba import njit

from ...bits import popcount
from .engine import S_HAND, S_TO_MOVE

#: the kernel id of ``expert`` (``pid & 7`` is not pimc's)
EXPERT = 3
#: by cards left in hand (row): the worlds sampled per decision (0: the heuristic's card)
#: and pimc's stopping rule (tenths of a standard error, 0: off; from pimc's
#: STOP_MIN_WORLDS worlds on); the most cards with which the expert searches
EXPERT_SEARCH = np.array([[0, 0], [0, 0], [32, 10], [16, 10], [8, 10]], dtype=np.int64)
EXPERT_CARDS = len(EXPERT_SEARCH) - 1
#: pimc's depth for the expert: -1, the card then the heuristic playout, to the end
EXPERT_DEPTH = -1


@njit(cache=True, inline="always")
def expert_row(st, table):
    """Row of ``table`` (worlds, stop) for this decision: by cards in the hand of the seat
    to move, -1 past the table's end (the heuristic's card)."""
    h = np.int64(popcount(np.uint64(st[S_HAND + st[S_TO_MOVE]])))
    return h if h < len(table) else np.int64(-1)
