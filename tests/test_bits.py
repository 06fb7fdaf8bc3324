"""The shared bit and stream kernels of ``simcore.bits`` that the games' samplers use."""
import numpy as np
from numba import njit

from simcore.bits import U0, draw_from_mask


@njit(cache=True)
def _draws(seed, pool, k, times):
    """``times`` draws of ``k`` ids from ``pool``, one stream: (masks, ids rows)."""
    masks = np.empty(times, np.uint64)
    rows = np.empty((times, 64), np.int64)
    state = np.uint64(seed)
    for t in range(times):
        state, got = draw_from_mask(state, pool, k, rows[t])
        masks[t] = got
    return masks, rows


def test_draw_from_mask_takes_k_distinct_ids_of_the_pool_uniformly():
    pool = np.uint64(0b1011_0110_1101)          # 8 ids
    ids = [i for i in range(64) if int(pool) >> i & 1]
    k, times = 3, 40_000
    masks, rows = _draws(7, pool, k, times)
    counts = np.zeros(64, np.int64)
    for t in range(times):
        got = int(masks[t])
        assert bin(got).count("1") == k and got & ~int(pool) == 0
        # the ids array holds the pool's ids, the draws first
        assert sorted(rows[t, :len(ids)].tolist()) == ids
        assert sum(1 << int(c) for c in rows[t, :k]) == got
        for c in rows[t, :k]:
            counts[c] += 1
    # each id is drawn k / 8 of the time: a chi-square over the 8 ids (7 degrees of
    # freedom; 24.3 is its 0.1% point, so a right sampler fails one run in a thousand)
    expect = times * k / len(ids)
    chi2 = sum((counts[i] - expect) ** 2 / expect for i in ids)
    assert chi2 < 24.3, chi2


def test_draw_from_mask_of_none_or_all():
    pool = np.uint64(0b111)
    masks, _ = _draws(1, pool, 0, 5)
    assert all(m == U0 for m in masks)
    masks, _ = _draws(1, pool, 3, 5)
    assert all(int(m) == 0b111 for m in masks)
