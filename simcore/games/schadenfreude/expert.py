"""Schadenfreude's ``expert`` player: the heuristic, and ``pimc``'s flat Monte Carlo over
sampled worlds for the last cards of a round.

With at most ``EXPERT_CARDS`` cards left in its hand a round's playout is short, so a
world costs little: there the expert plays ``pimc.pimc_choose`` with the worlds and
stopping rule of its table's row for the cards in hand (``expert_table``: one table per
player count, ``EXPERT_SEARCH[players - 3]``), no max-n search and heuristic playouts
(each legal card played in each world, the heuristic plays the round out for every
seat, the best mean value taken), also in the last two tricks, where ``pimc`` searches
exactly (``depth = EXPERT_DEPTH``): against heuristic seats the playout is their own
play in that world, and it costs less than the exact search. Earlier in the round it
plays as ``heuristic`` (policies.py). The dispatch is ``pimc.choose_search``. It reads
only what its seat sees (the worlds are pimc's, consistent with the seat's observation).

The tables differ by player count because a playout's cost does (five plies a trick
with five players, three with three) and so does what the budget of about 5 us a decision
of the seat buys (docs/schadenfreude.md; ``benchmarks/bench_expert.py --games
schadenfreude-tables --players N`` compares tables).
"""
import numpy as np
from numba import njit

from ...bits import popcount
from .engine import S_HAND, S_TO_MOVE
from .rules import R_PLAYERS

#: the kernel id of ``expert`` (``pid & 7`` is not pimc's)
EXPERT = 3
#: by player count (3, 4, 5), then by cards left in hand (row): the worlds sampled per
#: decision (0: the heuristic's card) and pimc's stopping rule (tenths of a standard
#: error, 0: off; from pimc's STOP_MIN_WORLDS worlds on); rows past a hand's cards are
#: never read
EXPERT_SEARCH = np.array([
    [[0, 0], [0, 0], [32, 10], [32, 10], [16, 10]],     # 3 players
    [[0, 0], [0, 0], [32, 10], [16, 10], [8, 10]],      # 4 players
    [[0, 0], [0, 0], [32, 10], [16, 10], [4, 0]],       # 5 players
], dtype=np.int64)
#: the fewest players (the first table)
EXPERT_MIN_PLAYERS = 3
#: the most cards with which the expert searches
EXPERT_CARDS = EXPERT_SEARCH.shape[1] - 1
#: pimc's depth for the expert: -1, the card then the heuristic playout, to the end
EXPERT_DEPTH = -1


@njit(cache=True, inline="always")
def expert_row(st, table):
    """Row of ``table`` (worlds, stop) for this decision: by cards in the hand of the seat
    to move, -1 past the table's end (the heuristic's card)."""
    h = np.int64(popcount(np.uint64(st[S_HAND + st[S_TO_MOVE]])))
    return h if h < len(table) else np.int64(-1)


@njit(cache=True, inline="always")
def expert_table(r):
    """The expert's search table (rows: worlds, stop by cards in hand) for the player
    count of the rules ``r``."""
    return EXPERT_SEARCH[r[R_PLAYERS] - EXPERT_MIN_PLAYERS]
