"""The batch environment writes only the observation columns a step changes
(``simcore.vector_kernels.encode`` over the words each row's tensor encodes): after
every step of many random games, in every game and variant, each row's tensor and mask
equal the full encoding of its state (the per-decision engine's ``observation`` and
``action_mask``), across deals and auto-resets; the returned tensor is read-only."""
import numpy as np
import pytest

from simcore.envs.vector import RandomActions, VectorEnv

CASES = [("schnapsen", {}), ("schadenfreude", {}), ("schadenfreude", {"players": 3}),
         ("schadenfreude", {"players": 5}), ("wendish", {}), ("wendish", {"variant": "three"}),
         ("wendish", {"variant": "three_sharp"}), ("wendish", {"variant": "officers"})]


@pytest.mark.parametrize("game,options", CASES)
def test_every_step_equals_the_full_encoding(game, options):
    n = 16
    env = VectorEnv(game, n, seed=11, **options)
    eng = env.eng
    obs, mask, to_play = env.reset()
    pick = RandomActions(n, seed=12)
    resets = 0
    for _ in range(400):
        for i in range(n):
            st = env.state(i)
            assert np.array_equal(obs[i], eng.observation(st, int(to_play[i])))
            assert np.array_equal(mask[i], eng.action_mask(st))
        obs, mask, _, done, to_play = env.step(pick(mask))
        resets += int(done.sum())
    assert resets > 0                       # rows went on into new games


def test_the_returned_tensor_is_read_only_and_copies_are_not():
    env = VectorEnv("wendish", 4, seed=2)
    obs, mask, _ = env.reset()
    with pytest.raises(ValueError):
        obs[0, 0] = 1.0
    mask[0, :] = True                       # the mask may be scribbled on
    own = VectorEnv("wendish", 4, seed=2, copy=True).reset()[0]
    own[0, 0] = 1.0
    assert np.array_equal(obs, VectorEnv("wendish", 4, seed=2).reset()[0])
