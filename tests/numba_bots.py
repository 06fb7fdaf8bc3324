"""Numba players for tests/test_numba_player*.py (one module, so that a test session
compiles each player's batch loop once per game: numba cannot cache it)."""
from numba import njit

from simcore.bits import bounded


@njit
def rand_legal(obs, mask, rng):
    """A uniformly random legal action, from the seat's stream."""
    k = 0
    for a in range(mask.shape[0]):
        k += mask[a]
    rng[0], j = bounded(rng[0], k)
    for a in range(mask.shape[0]):
        if mask[a]:
            if j == 0:
                return a
            j -= 1
    return -1


@njit
def past_the_end(obs, mask, rng):
    """Always one past the last action code: never legal."""
    return mask.shape[0]


@njit
def returns_float(obs, mask, rng):
    """An action as a float: refused before the run."""
    return 0.5


@njit
def two_arguments(obs, mask):
    """The wrong signature: refused before the run."""
    return 0


def not_jitted(obs, mask, rng):
    """A numba player's shape without @njit: refused in one line."""
    return 0
