"""The PettingZoo AEC environment (simcore/envs/aec.py, the optional [rl] extra) passes
PettingZoo's own api_test; skipped where pettingzoo is not installed."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from simcore.envs.aec import env  # noqa: E402


@pytest.mark.parametrize("game,options", [("schnapsen", {}), ("schadenfreude", {}),
                                          ("wendish", {"variant": "three"})])
def test_api_test_passes(game, options):
    api_test(env(game, **options), num_cycles=300)


def test_a_random_game_to_the_end_is_zero_sum_and_reproducible():
    def play(seed):
        e = env("schnapsen")
        e.reset(seed=seed)
        rng = np.random.default_rng(0)
        total, steps = {a: 0.0 for a in e.possible_agents}, 0
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            steps += 1
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return total, steps
    a, b = play(4), play(4)
    assert a == b and sum(a[0].values()) == 0 and sorted(a[0].values()) == [-0.5, 0.5]
    assert a[1] > 0          # (random play may resign early)


def test_the_core_does_not_import_the_environments():
    import subprocess
    import sys
    code = ("import sys, simcore, simcore.players, simcore.experiments.tournament, cli.main; "
            "print(any(m.startswith(('pettingzoo', 'gymnasium', 'simcore.envs')) "
            "for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_an_illegal_action_raises_one_clear_error():
    from simcore.errors import ApiError
    e = env("schnapsen")
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ApiError, match="is not legal here"):
        e.step(bad)
