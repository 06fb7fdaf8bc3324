"""A PettingZoo AEC environment per game and rule set (``pip install tricksim[rl]``).

One episode is one whole game (a Schnapsen match, a Schadenfreude game, a Wendish
game of its deals); deals in between follow on their own. Agents are ``player_0`` ..
``player_{n-1}`` (the seats). Each observation is a dict, as RLCard's games have it in
PettingZoo: ``observation`` is the game's float32 tensor for that seat
(docs/players-api.md) and ``action_mask`` an int8 mask over the action codes, set only
for the agent to act. Rewards come at the end: each seat's standing (a win, or the
score in Wendish) minus the mean standing over the seats, so they sum to 0.

    >>> from simcore.envs.aec import env
    >>> e = env("schnapsen")
    >>> e.reset(seed=1)
    >>> for agent in e.agent_iter():
    ...     obs, reward, term, trunc, info = e.last()
    ...     mask = obs["action_mask"]
    ...     e.step(None if term or trunc else int(mask.nonzero()[0][0]))

``reset(seed=S)`` plays game 0 of run S (then games 1, 2, ... on later resets without
a seed), dealt as ``tricksim simulate --seed S`` deals them.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..bits import seed_from_entropy
from ..engine import engine as make_engine


class TricksimAEC(AECEnv):
    """A tricksim game as a PettingZoo AEC environment (see the module text)."""

    metadata = {"render_modes": ["ansi"], "name": "tricksim_v0", "is_parallelizable": False}

    def __init__(self, game: str = "schnapsen", rules=None, render_mode: str | None = None,
                 **options):
        super().__init__()
        self.eng = make_engine(game, rules, **options)
        # every state this environment steps is its own, made and changed by the kernels:
        # the per-call state checks are skipped (an illegal action still raises)
        self.eng._trusted = True
        self.game = game
        self.metadata = {**self.metadata, "name": f"tricksim_{game}_v0"}
        self.render_mode = render_mode
        spec = self.eng.observation_spec
        self.possible_agents = [f"player_{p}" for p in range(self.eng.seats)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (spec.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.eng.n_actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.eng.n_actions)
                              for a in self.possible_agents}
        self._run_seed = None
        self._index = 0
        self.state_array = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Start the next game (game 0 of run ``seed`` when a seed is given)."""
        if seed is not None:
            self._run_seed, self._index = int(seed) % 2**63, 0
        elif self._run_seed is None:
            self._run_seed, self._index = seed_from_entropy(), 0
        else:
            self._index += 1
        self.state_array = self.eng.new(self._run_seed, self._index)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.eng.to_move(self.state_array)]

    def observe(self, agent):
        seat = self._seat[agent]
        st = self.state_array
        mask = np.zeros(self.eng.n_actions, np.int8)
        if not self.eng.deal_over(st) and self.eng.to_move(st) == seat:
            mask[self.eng.legal(st)] = 1
        return {"observation": self.eng.observation(st, seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_array
        self._cumulative_rewards[agent] = 0.0
        self.eng.apply(st, int(action))
        while self.eng.deal_over(st) and not self.eng.game_over(st):
            self.eng.next_deal(st)
        self.rewards = {a: 0.0 for a in self.agents}
        if self.eng.game_over(st):
            stand = np.array(self.eng.observation_spec.standing(self.eng.result(st)), float)
            for a in self.agents:
                self.rewards[a] = float(stand[self._seat[a]] - stand.mean())
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.eng.to_move(st)]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self):
        """The acting seat's view, as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        seat = self._seat[self.agent_selection]
        return f"{self.agent_selection}: {self.eng.view(self.state_array, seat)}"

    def close(self):
        pass


def env(game: str = "schnapsen", rules=None, render_mode=None, **options):
    """The environment of ``game`` under ``rules`` (or option overrides, e.g.
    ``variant="three"``), wrapped as PettingZoo recommends (an illegal action raises)."""
    e = TricksimAEC(game, rules, render_mode=render_mode, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
