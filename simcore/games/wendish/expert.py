"""Wendish Schafkopf's ``expert`` player: the heuristic's contracts, discards and early
card play, and ``pimc``'s search over a few sampled worlds for the last tricks.

Over the last ``EXPERT_TRICKS`` tricks of a deal few cards are left, so the open-card
solver answers a world in microseconds: there (``expert_searches``) the expert plays
``pimc.pimc_choose`` with ``EXPERT_WORLDS`` worlds (worlds consistent with what its
seat saw: voids, the discards it took, Officers' face-down cards unseen; see pimc.py).
Before that, and for every contract decision (the pickup, the discards, the Lust Solo
round, the Old Ones' choice), it plays as ``heuristic`` (policies.py). The dispatch is
``pimc.choose_w``. It reads only what its seat sees.
"""
from numba import njit

from .engine import P_PLAY, ST_NTRICKS, ST_PHASE, ST_TRICKS_DONE

#: the kernel id of ``expert`` (``pid & 7`` is not pimc's)
EXPERT = 3
#: the last tricks of a deal searched, and the worlds sampled per decision there
EXPERT_TRICKS = 3
EXPERT_WORLDS = 4


@njit(cache=True, inline="always")
def expert_searches(st):
    """Whether the expert searches this decision (card play in the last tricks)."""
    return st[ST_PHASE] == P_PLAY and st[ST_NTRICKS] - st[ST_TRICKS_DONE] <= EXPERT_TRICKS
