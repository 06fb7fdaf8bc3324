"""A single-agent Gymnasium environment per game (``pip install tricksim[rl]``): your agent
plays one seat, a built-in player (``random`` or ``heuristic``) the others.

    >>> from simcore.envs.gym import SeatEnv
    >>> env = SeatEnv("schnapsen", opponents="heuristic")
    >>> obs, info = env.reset(seed=1)
    >>> while True:
    ...     action = int(info["action_mask"].nonzero()[0][0])
    ...     obs, reward, terminated, truncated, info = env.step(action)
    ...     if terminated:
    ...         obs, info = env.reset()          # the next game of the run

Why one seat of a ``gymnasium.Env``: the RL libraries people train with (Stable-Baselines3
and its ``MaskablePPO``, CleanRL, RLlib's single-agent path) train one agent against an
environment, so the other seats have to be somebody; the PettingZoo environment
(``simcore.envs.aec``) is the multi-agent view, and ``VectorEnv`` the self-play batch.
Many copies run under Gymnasium's own ``SyncVectorEnv`` / ``AsyncVectorEnv`` (which
reset finished copies on their own). Each environment steps a one-row
``simcore.envs.vector.VectorEnv``: the same kernels, the same deals as
``tricksim simulate --seed``, the opponents' actions computed in numba from the state's
own stream (``VectorEnv.policy_actions``), so everything follows from the seed.

An episode is one whole game (a Schnapsen match, a Schadenfreude game, a Wendish game
of its deals); the opponents move in between your decisions, and deals follow on their
own. ``reset(seed=S)`` starts game 0 of run ``S``; a later ``reset()`` without a seed
starts the run's next game (1, 2, ...), the one the environment has already dealt
(auto-reset), so a seed fixes every game of the sequence. The agent's seat is ``seat``,
or with ``seat=None`` (the default) seat ``game % seats``, so a run plays every seat in
turn; ``info["seat"]`` says which, ``info["game"]`` the game's index.

- Observation: the game's float32 tensor for the agent's seat (docs/players-api.md,
  the one encoding); the space's bounds come from the observation spec (card columns 0-1,
  values unbounded).
- Actions: ``Discrete(n_actions)``, the engine's action codes; ``info["action_mask"]``
  (int8, 1 for legal) and ``action_masks()`` (bool, as ``MaskablePPO`` asks) give the legal
  ones. An illegal action raises ``ApiError`` naming it and the legal ones, or with
  ``illegal="random"`` is replaced by a random legal one (``info["illegal"]`` says so):
  for agents that do not read masks, and for ``gymnasium.utils.env_checker.check_env``,
  which steps with ``action_space.sample()``.
- ``gymnasium.make("tricksim/<game>-v0", ...)`` builds one (registered on import).
- Reward: 0 until the game ends, then the agent's standing minus the mean standing over
  the seats (a win, or the score in Wendish), as in the other environments.
- On the step that ends the game ``terminated`` is True and the observation is all
  zeros (nothing is left to decide; ``info["action_mask"]`` is all zeros too).
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine import integer
from ..errors import ApiError
from ..registry import game_names
from .vector import VectorEnv

#: the built-in players ``VectorEnv.policy_actions`` computes in numba
OPPONENTS = ("random", "heuristic")
#: what an illegal action does (``SeatEnv``'s ``illegal``)
ILLEGAL = ("raise", "random")


def observation_bounds(spec) -> tuple[np.ndarray, np.ndarray]:
    """Per-column low and high of ``spec``'s tensor: 0 and 1 for the card columns (masks
    and one-hots), unbounded for values."""
    low, high = [], []
    for f in spec.fields:
        w = f.width(spec.n_cards)
        card = f.kind != "value"
        low += [0.0 if card else -np.inf] * w
        high += [1.0 if card else np.inf] * w
    return np.array(low, np.float32), np.array(high, np.float32)


class SeatEnv(gymnasium.Env):
    """One seat of ``game`` under ``rules`` (or option overrides such as
    ``variant="three"``) as a Gymnasium environment, the other seats played by the
    built-in player ``opponents``; ``illegal`` says what an action that is not legal does
    (``raise``: an ApiError; ``random``: a uniformly random legal action is played
    instead, drawn from the game's own stream, and ``info["illegal"]`` is True). See the
    module text."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "schnapsen", opponents: str = "heuristic",
                 seat: int | None = None, illegal: str = "raise", rules=None,
                 render_mode: str | None = None, **options):
        if opponents not in OPPONENTS:
            raise ApiError(f"opponents must be one of {', '.join(OPPONENTS)}, not "
                           f"{opponents!r}")
        if illegal not in ILLEGAL:
            raise ApiError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ApiError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self._env = VectorEnv(game, 1, rules=rules, threads=1, copy=True, **options)
        self.eng = self._env.eng
        self.game = game
        self.opponents = opponents
        self.illegal = illegal
        seats = self._env.seats
        self.fixed_seat = None if seat is None else integer(
            seat, "seat", 0, seats - 1, f"None (every seat in turn) or 0 to {seats - 1}")
        self.render_mode = render_mode
        low, high = observation_bounds(self._env.observation_spec)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self._env.n_actions)
        self.seat = 0                   # the agent's seat in the game in play
        self._now = None                # (obs, mask, to_play) of the row; None: not started
        self._over = True               # the game in play has ended (or none has started)
        self._index = 0                 # the run's index of the game in play

    def _step_row(self, action: int) -> tuple[float, bool]:
        """Apply ``action`` in the row; the agent's reward and whether the game ended
        (the row then holds the next game: auto-reset)."""
        obs, mask, rewards, done, to_play = self._env.step(np.array([action], np.int64))
        self._now = (obs, mask, int(to_play[0]))
        return float(rewards[0, self.seat]), bool(done[0])

    def _opponents_move(self) -> tuple[float, bool]:
        """Step the opponents until the agent's seat is to act or the game ends."""
        while self._now[2] != self.seat:
            reward, done = self._step_row(int(self._env.policy_actions(self.opponents)[0]))
            if done:
                return reward, True
        return 0.0, False

    def _begin(self):
        """The row holds a newly dealt game: take the agent's seat in it and let the
        opponents move first where they lead."""
        while True:
            self._index = int(self._env.games[0])
            self.seat = self.fixed_seat if self.fixed_seat is not None \
                else self._index % self._env.seats
            self._over = False
            _, done = self._opponents_move()
            if not done:    # (a game in which the agent never decides is skipped)
                return self._now[0][0], self._info(False)

    def _info(self, illegal: bool) -> dict:
        mask = self._now[1][0].astype(np.int8)
        if self._over:
            mask[:] = 0
        return {"action_mask": mask, "seat": self.seat, "game": self._index,
                "illegal": illegal}

    def reset(self, seed: int | None = None, options=None):
        """Start game 0 of run ``seed`` (a fresh run without one, the first time), else the
        run's next game (a game left unfinished is played out by the opponents' player
        for every seat first); returns ``(observation, info)``."""
        super().reset(seed=seed)
        if seed is not None or self._now is None:
            obs, mask, to_play = self._env.reset(seed)
            self._now = (obs, mask, int(to_play[0]))
            return self._begin()
        while not self._over:
            _, self._over = self._step_row(int(self._env.policy_actions(self.opponents)[0]))
        return self._begin()

    def step(self, action):
        """Play ``action`` for the agent's seat, then the opponents until the agent is to
        act again or the game ends; returns ``(observation, reward, terminated,
        truncated, info)``."""
        if self._now is None or self._over:
            raise ApiError("call reset() before step(), and again after a game ends")
        action = int(action)
        legal = 0 <= action < self._env.n_actions and bool(self._now[1][0, action])
        if not legal and self.illegal == "random":
            action = int(self._env.policy_actions("random")[0])
        reward, done = self._step_row(action)
        if not done:
            reward, done = self._opponents_move()
        if done:
            self._over = True
            return (np.zeros(self.observation_space.shape, np.float32), reward, True, False,
                    self._info(not legal))
        return self._now[0][0], reward, False, False, self._info(not legal)

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions as a bool mask (what sb3-contrib's ``MaskablePPO``
        reads); all False once the game has ended."""
        if self._now is None or self._over:
            return np.zeros(self._env.n_actions, bool)
        return self._now[1][0].copy()

    def render(self):
        """The agent's view of the game in play, as text (``render_mode="ansi"``)."""
        if self.render_mode is None or self._now is None or self._over:
            return None
        return f"seat {self.seat}: {self.eng.view(self._env.state(0), self.seat)}"


def register() -> list[str]:
    """Register ``tricksim/<game>-v0`` with Gymnasium for every game (done on import), so
    ``gymnasium.make("tricksim/schnapsen-v0", opponents="random")`` builds a ``SeatEnv``;
    returns the ids."""
    ids = []
    for g in game_names():
        env_id = f"tricksim/{g}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=SeatEnv, kwargs={"game": g})
        ids.append(env_id)
    return ids


register()
