"""The vectorised batch environment (simcore/envs/vector.py): every row, stepped with
random legal actions, is the same game as the per-decision engine plays from the same
(seed, index) with the same actions, step by step (observation, mask, seat to act) and
at the end (rewards from the final scores, as the PettingZoo environment pays them);
auto-reset, illegal actions, reproducibility and bad arguments."""
import numpy as np
import pytest

from simcore.envs.vector import RandomActions, VectorEnv
from simcore.errors import ApiError

CASES = [("schnapsen", {}), ("schadenfreude", {}), ("schadenfreude", {"players": 3}),
         ("wendish", {}), ("wendish", {"variant": "three"}),
         ("wendish", {"variant": "three_sharp"}), ("wendish", {"variant": "officers"})]


def _reference_rewards(eng, st):
    stand = np.array(eng.observation_spec.standing(eng.result(st)), float)
    return stand - stand.mean()


def _lockstep(env, seed, pick, games_each=1, max_steps=20000):
    """Step ``env`` and a per-decision engine state per row side by side, checking every
    output; returns the finished games' rewards by game index and their action lists."""
    eng, n = env.eng, env.n
    obs, mask, to_play = env.reset(seed=seed)
    ref = [eng.new(seed, i) for i in range(n)]
    acts = [[] for _ in range(n)]
    finished, moves = {}, {}
    for _ in range(max_steps):
        for i in range(n):
            seat = eng.to_move(ref[i])
            assert to_play[i] == seat
            assert np.array_equal(obs[i], eng.observation(ref[i], seat))
            assert np.array_equal(mask[i], eng.action_mask(ref[i]))
        a = pick(mask).copy()
        obs, mask, rewards, done, to_play = env.step(a)
        for i in range(n):
            eng.apply(ref[i], int(a[i]))
            acts[i].append(int(a[i]))
            while eng.deal_over(ref[i]) and not eng.game_over(ref[i]):
                eng.next_deal(ref[i])
            assert bool(done[i]) == eng.game_over(ref[i])
            if done[i]:
                game = int(env.games[i]) - n
                expected = _reference_rewards(eng, ref[i])
                assert np.allclose(rewards[i], expected) and abs(rewards[i].sum()) < 1e-9
                finished[game], moves[game] = rewards[i].copy(), acts[i]
                acts[i] = []
                ref[i] = eng.new(seed, int(env.games[i]))
            else:
                assert not rewards[i].any()
        if len(finished) >= games_each * n:
            return finished, moves
    raise AssertionError("the games did not finish")


@pytest.mark.parametrize("game,options", CASES)
def test_rows_play_the_engines_games_and_reset_to_the_next(game, options):
    env = VectorEnv(game, 3, seed=5, **options)
    finished, _ = _lockstep(env, 5, RandomActions(3, seed=1))
    assert len(finished) >= 3
    assert all(g % 3 == i for i, g in enumerate(env.games))      # row i plays i, i+3, ...


def test_a_row_equals_the_pettingzoo_environment():
    pytest.importorskip("pettingzoo")
    from simcore.envs.aec import env as aec_env
    env = VectorEnv("schnapsen", 2, seed=9)
    finished, moves = _lockstep(env, 9, RandomActions(2, seed=3))
    e = aec_env("schnapsen")
    e.reset(seed=9)                       # game 0 of run 9, as row 0's first game
    todo = list(moves[0])
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else todo.pop(0))
    assert not todo
    assert [total[a] for a in e.possible_agents] == finished[0].tolist()


def test_the_same_seed_gives_the_same_games_on_one_and_two_threads():
    def run(threads):
        env = VectorEnv("wendish", 8, seed=3, threads=threads, copy=True)
        pick = RandomActions(8, seed=4)
        obs, mask, _ = env.reset()
        out = []
        for _ in range(150):
            obs, mask, rewards, done, to_play = env.step(pick(mask))
            out.append((obs, rewards, done, to_play))
        return out, env.games
    a, ga = run(1)
    b, gb = run(2)
    assert np.array_equal(ga, gb) and ga.max() >= 8           # some rows reset
    for x, y in zip(a, b):
        assert all(np.array_equal(u, v) for u, v in zip(x, y))


def test_an_illegal_action_names_the_row_and_moves_nothing():
    env = VectorEnv("schnapsen", 4, seed=2)
    obs, mask, _ = env.reset()
    acts = RandomActions(4, seed=0)(mask).copy()
    before = [env.state(i) for i in range(4)]
    acts[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(ApiError, match=r"^env 2: action \d+ \(.*\) is not legal for seat \d; "
                       r"legal: .*no row has moved"):
        env.step(acts)
    assert all(np.array_equal(before[i], env.state(i)) for i in range(4))
    mask[2] = True                         # scribbling on the returned mask changes nothing
    with pytest.raises(ApiError, match="env 2"):
        env.step(acts)
    acts[2] = 99
    with pytest.raises(ApiError, match=r"env 2: action 99 is not legal"):
        env.step(acts)


@pytest.mark.parametrize("call,message", [
    (lambda: VectorEnv("schnapsen", 0), "n 0 is not allowed"),
    (lambda: VectorEnv("schnapsen", 2, seed=-1), "seed -1 is not allowed"),
    (lambda: VectorEnv("schnapsen", 2, threads=0), "threads 0 is not allowed"),
    (lambda: VectorEnv("nogame", 2), "unknown game"),
    (lambda: VectorEnv("schnapsen", 2).step(np.zeros(2, int)), r"call reset\(\) before step"),
])
def test_bad_arguments_are_one_clear_error(call, message):
    from simcore.errors import TricksimError
    with pytest.raises(TricksimError, match=message):
        call()


def test_actions_must_be_n_integers():
    env = VectorEnv("schadenfreude", 3, seed=1)
    env.reset()
    for bad in (np.zeros(2, int), np.zeros(3, float), [[0, 0, 0]]):
        with pytest.raises(ApiError, match=r"actions must be an integer array of shape \(3,\)"):
            env.step(bad)


def test_random_actions_are_legal_uniform_and_seeded():
    mask = np.zeros((2000, 10), bool)
    mask[:, [1, 4, 7]] = True
    a = RandomActions(2000, seed=6)(mask)
    assert set(np.unique(a)) == {1, 4, 7}
    assert np.all(np.abs(np.bincount(a, minlength=10)[[1, 4, 7]] / 2000 - 1 / 3) < 0.05)
    assert np.array_equal(a, RandomActions(2000, seed=6)(mask))
    assert not np.array_equal(a, RandomActions(2000, seed=7)(mask))


def test_a_numba_player_plays_every_row_inside_one_jitted_call():
    from numba import njit
    from simcore.bits import bounded
    from simcore.envs.vector import NumbaPlayer

    env = VectorEnv("schnapsen", 16, seed=2)
    lo, hi = env.observation_spec.offsets["hand"]

    @njit
    def lowest_card_else_random(obs, mask, rng):
        for a in range(20):                  # the lowest legal card played from the hand
            if mask[a] and obs[lo + a] == 1.0:
                return a
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

    player = NumbaPlayer(lowest_card_else_random, 16, seed=1)
    obs, mask, _ = env.reset()
    for _ in range(300):
        a = player(obs, mask)
        cards = mask[:, :20]
        has = cards.any(axis=1)
        assert np.array_equal(a[has], cards[has].argmax(axis=1))
        obs, mask, rewards, done, _ = env.step(a)
    assert (env.games >= 16).any()

    @njit
    def illegal(obs, mask, rng):
        return 28 if not mask[28] else 0
    with pytest.raises(ApiError, match=r"^env \d+: action"):
        for _ in range(50):
            obs, mask, *_ = env.step(NumbaPlayer(illegal, 16)(obs, mask))
    with pytest.raises(ApiError, match="must be an @njit function"):
        NumbaPlayer(lambda obs, mask, rng: 0, 16)


@pytest.mark.parametrize("game", ["schnapsen", "schadenfreude", "wendish"])
def test_built_in_players_choose_as_the_engine_does(game):
    env = VectorEnv(game, 6, seed=8)
    obs, mask, _ = env.reset()
    pick = RandomActions(6, seed=2)
    for step in range(40):
        before = [env.state(i) for i in range(6)]
        name = ("heuristic", "random")[step % 2]
        a = env.policy_actions(name)
        for i in range(6):
            assert a[i] == env.eng.choose(name, before[i])
            assert np.array_equal(env.state(i), before[i])    # the same stream advance
        obs, mask, *_ = env.step(a if step % 3 else pick(mask))


def test_the_docs_numba_player_example_runs(capsys):
    import re
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "players-api.md").read_text()
    code = re.search(r"<!-- example:numba_bot.py -->\n```python\n(.*?)```", doc, re.S).group(1)
    code = code.replace("N = 4096", "N = 64").replace("range(2000)", "range(400)")
    exec(compile(code, "numba_bot.py", "exec"), {"__name__": "numba_bot"})
    out = capsys.readouterr().out
    assert re.fullmatch(r"\d+ matches; the numba player's mean reward [+-]\d\.\d{3}\n", out)
