"""The single-agent Gymnasium environment (simcore/envs/gym.py, the optional [rl] extra):
Gymnasium's own check_env, the same tensors and masks as the engine, reproducible games
from a seed in the run's order, the agent's seat, and illegal actions.

Skipped where Gymnasium is not installed, unless TRICKSIM_REQUIRE_RL=1 (as CI sets it)."""
import os
import re
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("TRICKSIM_REQUIRE_RL") == "1":
    import gymnasium
else:
    gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from simcore import engine  # noqa: E402
from simcore.envs.gym import SeatEnv  # noqa: E402
from simcore.errors import ApiError  # noqa: E402

TABLES = [("schnapsen", {}), ("schadenfreude", {"players": 4}), ("wendish", {"variant": "three"})]


@pytest.mark.filterwarnings("ignore:.*(infinity|render fps)")
@pytest.mark.parametrize("game,options", TABLES)
def test_gymnasiums_check_env_passes(game, options):
    # check_env steps with action_space.sample(): most codes are not legal, so the
    # environment plays a random legal action for them (illegal="random")
    check_env(gymnasium.make(f"tricksim/{game}-v0", opponents="random", illegal="random",
                             **options).unwrapped)


def _episode(env, pick, first_seed=None):
    obs, info = env.reset(seed=first_seed) if first_seed is not None else env.reset()
    steps = [(obs.copy(), info["seat"], info["game"])]
    while True:
        obs, reward, terminated, truncated, info = env.step(pick(info))
        assert not truncated
        steps.append((obs.copy(), reward, info["game"]))
        if terminated:
            return steps, reward, info


def _first_legal(info):
    return int(np.flatnonzero(info["action_mask"])[0])


@pytest.mark.parametrize("game,options", TABLES)
def test_observations_and_masks_are_the_engines_for_the_agents_seat(game, options):
    env = SeatEnv(game, opponents="heuristic", **options)
    eng = engine(game, **options)
    obs, info = env.reset(seed=5)
    for _ in range(40):
        st = env._env.state(0)
        assert eng.to_move(st) == info["seat"] == env.seat
        assert np.array_equal(obs, eng.observation(st, env.seat))
        assert np.array_equal(info["action_mask"].astype(bool), eng.action_mask(st))
        assert np.array_equal(env.action_masks(), eng.action_mask(st))
        assert env.observation_space.contains(obs)
        obs, reward, terminated, _, info = env.step(_first_legal(info))
        if terminated:
            assert not obs.any() and not info["action_mask"].any()
            obs, info = env.reset()


def test_a_seed_fixes_every_game_and_the_seats_take_turns():
    def run():
        env = SeatEnv("schadenfreude", opponents="heuristic", players=3)
        out = [_episode(env, _first_legal, first_seed=11)]
        out += [_episode(env, _first_legal) for _ in range(3)]
        return out
    a, b = run(), run()
    assert [s[0][0][1:] for s in a] == [(0, 0), (1, 1), (2, 2), (0, 3)]  # seat = game % 3
    for (sa, ra, _), (sb, rb, _) in zip(a, b):
        assert ra == rb and len(sa) == len(sb)
        assert all(np.array_equal(x[0], y[0]) for x, y in zip(sa, sb))
    assert all(r != 0 for _, r, _ in a)            # the game's result is paid at its end


def test_the_final_reward_is_the_seats_standing_minus_the_mean():
    """A game the agent plays with the heuristic is the game the batch plays when every
    seat is the heuristic: the same deal (game 0 of the run) and the same result."""
    env = SeatEnv("schnapsen", opponents="heuristic", seat=1)
    obs, info = env.reset(seed=3)
    eng = engine("schnapsen")
    while True:
        st = env._env.state(0)
        obs, reward, terminated, _, info = env.step(eng.choose("heuristic", st))
        if terminated:
            break
    st = eng.new(3, 0)
    while not eng.game_over(st):
        eng.next_deal(st) if eng.deal_over(st) else eng.apply(st, eng.choose("heuristic", st))
    stand = np.array(eng.observation_spec.standing(eng.result(st)), float)
    assert reward == stand[1] - stand.mean() and info["seat"] == 1 and info["game"] == 0


def test_illegal_actions_raise_or_are_replaced_and_flagged():
    env = SeatEnv("wendish", opponents="random", variant="four")
    obs, info = env.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ApiError, match=rf"action {bad} .*is not legal.*legal: "):
        env.step(bad)
    env = SeatEnv("wendish", opponents="random", illegal="random", variant="four")
    obs, info = env.reset(seed=2)
    _, _, _, _, info = env.step(bad)
    assert info["illegal"] is True
    _, _, _, _, info = env.step(_first_legal(info))
    assert info["illegal"] is False


@pytest.mark.parametrize("kwargs,says", [
    ({"opponents": "pimc"}, "opponents must be one of random, heuristic"),
    ({"illegal": "skip"}, "illegal must be one of raise, random"),
    ({"seat": 2}, "seat 2 is not allowed; allowed: None .every seat in turn. or 0 to 1"),
])
def test_bad_arguments_name_what_is_allowed(kwargs, says):
    with pytest.raises(ApiError, match=says):
        SeatEnv("schnapsen", **kwargs)


def test_step_before_reset_and_after_the_end_says_to_reset():
    env = SeatEnv("schnapsen", opponents="random")
    with pytest.raises(ApiError, match="call reset"):
        env.step(0)
    _episode(env, _first_legal, first_seed=1)
    with pytest.raises(ApiError, match="call reset"):
        env.step(0)


def test_the_docs_example_runs(capsys):
    doc = (Path(__file__).parent.parent / "docs" / "players-api.md").read_text()
    m = re.search(r"<!-- example:gym_agent.py -->\n```python\n(.*?)```", doc, re.S)
    assert m, "docs/players-api.md lost its Gymnasium example"
    exec(compile(m.group(1), "players-api.md", "exec"), {"__name__": "__main__"})
    assert re.search(r"mean reward over 200 games: [+-]0\.\d{3}", capsys.readouterr().out)
