import numpy as np
from numba import njit
from simcore.bits import bounded

@njit
def rand_legal(obs, mask, rng):
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
def first_legal(obs, mask, rng):
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1
