"""A vectorised batch environment: ``n`` games stepped at once by the numba kernels.

    >>> import numpy as np
    >>> from simcore.envs.vector import VectorEnv, RandomActions
    >>> env = VectorEnv("schnapsen", 1024, seed=1)
    >>> obs, mask, to_play = env.reset()         # obs float32 [n, obs_size], mask bool [n, A]
    >>> pick = RandomActions(1024, seed=2)        # uniform legal actions, in numba
    >>> for _ in range(100):
    ...     obs, mask, rewards, done, to_play = env.step(pick(mask))

Each row is one whole game (a Schnapsen match, a Schadenfreude game, a Wendish game of
its deals), as in the PettingZoo environment (``simcore.envs.aec``): ``obs[i]`` is the
tensor of the seat to act, ``to_play[i]``, in the game's one observation encoding
(docs/players-api.md), and ``mask[i]`` its legal action codes; the deals in between
follow on their own. ``step(actions)`` applies ``actions[i]`` in row ``i``. When a game
ends, ``done[i]`` is True, ``rewards[i]`` holds each seat's standing minus the mean
standing (a win, or the score in Wendish; the same rewards as the PettingZoo
environment's, summing to 0; every other step pays 0), and the row has already started
its next game: ``obs[i]``, ``mask[i]`` and ``to_play[i]`` are that game's first decision
(auto-reset).

Row ``i`` plays games ``i, i + n, i + 2n, ...`` of the run ``seed``, each dealt exactly as
``engine(game).new(seed, index)`` and ``tricksim simulate --seed`` deal it, so the
same seed gives the same games on any number of threads. ``games[i]`` is the game row
``i`` plays now and ``state(i)`` a copy of its state for the per-decision API.

The returned arrays are the environment's own buffers, written in place by the next
``step`` (``copy=True`` returns fresh copies instead).  ``obs`` is returned read-only: a
step rewrites only the columns that changed in each row, so the buffer must hold what
the last step wrote (copy it to change it). An action that is not legal in its
row raises ``ApiError`` naming the row, the action and the legal ones, before any row
moves. Needs only numpy and numba (not the ``[rl]`` extra).
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from ..bits import seed_from_entropy
from ..engine import MAX_STATE_SEED, engine as make_engine, integer
from ..errors import ApiError
from ..numba_kernels import is_numba_player
from ..vector_kernels import encoding_table, new_buffers, sample_actions, seed_streams

def _threads(threads):
    if threads is None:
        return None
    top = numba.config.NUMBA_NUM_THREADS
    return integer(threads, "threads", 1, top, f"None (every core) or 1 to {top}")


class VectorEnv:
    """``n`` games of ``game`` under ``rules`` (or option overrides such as
    ``variant="three"``) stepped together; see the module text."""

    def __init__(self, game: str, n: int, rules=None, seed: int | None = None,
                 threads: int | None = None, copy: bool = False, **options):
        self.eng = make_engine(game, rules, **options)
        self.kernels = self.eng.vector_kernels()
        if self.kernels is None:
            raise ApiError(f"{game} has no batch-environment kernels (its vector.py)")
        self.game = game
        self.n = integer(n, "n", 1, 1 << 24, "a number of environments from 1 to 2**24")
        self.threads = _threads(threads)
        self.copy = bool(copy)
        spec = self.eng.observation_spec
        self.observation_spec = spec
        self.n_actions = self.eng.n_actions
        self.seats = self.eng.seats
        self._table = encoding_table(spec)
        self._n_cards = spec.n_cards
        state_size, n_words, max_legal = self.kernels.SIZES
        self._states = np.zeros((self.n, state_size), np.int64)
        self._b = new_buffers(self.n, spec.size, self.n_actions, self.seats, n_words, max_legal)
        self._obs = self._b.obs.view()        # what callers get: the step writes only the
        self._obs.flags.writeable = False     # changed columns, so they must not write
        self._games = np.zeros(self.n, np.int64)
        self._seed = None if seed is None else integer(seed, "seed", 0, MAX_STATE_SEED)
        self._ready = False

    @property
    def games(self) -> np.ndarray:
        """The game index of the run each row plays now (a copy)."""
        return self._games.copy()

    @property
    def seed(self) -> int | None:
        """The run seed the rows deal from (set by the constructor or ``reset``)."""
        return self._seed

    def state(self, i: int) -> np.ndarray:
        """A copy of row ``i``'s state, for the per-decision API (``self.eng``)."""
        i = integer(i, "row", 0, self.n - 1, f"a row from 0 to {self.n - 1}")
        return self._states[i].copy()

    def _out(self, *arrays):
        return tuple(a.copy() for a in arrays) if self.copy else arrays

    def _set_threads(self):
        if self.threads is not None:
            numba.set_num_threads(self.threads)

    def reset(self, seed: int | None = None):
        """Start games 0 .. n-1 of run ``seed`` (the constructor's seed when not given, a
        fresh one without either); returns ``(obs, mask, to_play)``."""
        if seed is not None:
            self._seed = integer(seed, "seed", 0, MAX_STATE_SEED)
        elif self._seed is None:
            self._seed = seed_from_entropy()
        self._games[:] = np.arange(self.n)
        self._set_threads()
        b = self._b
        self.kernels.step_batch(self.eng.r, np.uint64(self._seed), 0, self._states, self._games,
                                self._games, True, self._table, self._n_cards, b)
        self._ready = True
        return self._out(self._obs, b.mask, b.to_play)

    def step(self, actions):
        """Apply ``actions[i]`` (an integer array of ``n`` action codes) in every row;
        returns ``(obs, mask, rewards, done, to_play)`` (see the module text)."""
        if not self._ready:
            raise ApiError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.n,) or not np.issubdtype(acts.dtype, np.integer):
            raise ApiError(f"actions must be an integer array of shape ({self.n},), not "
                           f"{acts.dtype} of shape {acts.shape}")
        acts = acts.astype(np.int64, copy=False)
        self._set_threads()
        b = self._b
        bad = self.kernels.step_batch(self.eng.r, np.uint64(self._seed), self.n, self._states,
                                      self._games, acts, False, self._table, self._n_cards, b)
        if bad >= 0:
            raise ApiError(self._illegal(int(bad), int(acts[bad])))
        return self._out(self._obs, b.mask, b.rewards, b.done, b.to_play)

    def policy_actions(self, name: str) -> np.ndarray:
        """The action the built-in player ``name`` (``random`` or ``heuristic``) takes in
        every row now, computed in one parallel kernel over the states: an opponent for
        your player, or the yardstick of its cost.  Advances each row's stream as the batch
        run's player does.  A new int64 array of ``n`` actions."""
        if not self._ready:
            raise ApiError("call reset() before policy_actions()")
        if name not in ("random", "heuristic"):
            raise ApiError(f"policy_actions takes random or heuristic, not {name!r}")
        out = np.zeros(self.n, np.int64)
        self._set_threads()
        self.kernels.policy_batch(self.eng.r, self._states, ("random", "heuristic").index(name),
                                  self._b.words, out)
        return out

    def _illegal(self, i: int, a: int) -> str:
        bits = self._b.legal[i]
        legal = [c for c in range(self.n_actions) if int(bits[c >> 6]) >> (c & 63) & 1]
        what = f"{a} ({self.eng.describe(a)})" if 0 <= a < self.n_actions else f"{a}"
        return (f"env {i}: action {what} is not legal for seat {int(self._b.to_play[i])}; "
                "legal: " + ", ".join(f"{c} ({self.eng.describe(c)})" for c in legal)
                + " (no row has moved)")


class RandomActions:
    """A uniformly random legal action per row of a mask, drawn in numba from per-row
    streams seeded by ``seed``: ``pick(mask) -> int64 [n]`` (the same array, rewritten)."""

    def __init__(self, n: int, seed: int = 0):
        self.n = integer(n, "n", 1, 1 << 24, "a number of rows from 1 to 2**24")
        self.rng = seed_streams(np.uint64(integer(seed, "seed", 0, MAX_STATE_SEED)), self.n)
        self.out = np.zeros(self.n, np.int64)

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        sample_actions(mask, self.rng, self.out)
        return self.out


@njit(parallel=True)
def _run_player(choose, obs, mask, rng, out):
    """``choose(obs[i], mask[i], rng[i:i+1])`` for every row, in parallel (not cached: it
    compiles for each user function, once per process)."""
    for i in prange(obs.shape[0]):
        out[i] = choose(obs[i], mask[i], rng[i:i + 1])


class NumbaPlayer:
    """A user's numba player for every row of a ``VectorEnv``: ``choose`` is an ``@njit``
    function ``choose(obs, mask, rng) -> action`` over one row (``obs`` the float32 tensor,
    ``mask`` the bool legal mask, ``rng`` a 1-element uint64 array holding the row's
    splitmix64 state, e.g. ``rng[0], k = simcore.bits.bounded(rng[0], count)``).
    ``player(obs, mask) -> int64 [n]`` runs it for all rows in one jitted, parallel loop
    (the same array, rewritten); an action that is not legal is caught by ``step``, which
    names the row."""

    def __init__(self, choose, n: int, seed: int = 0):
        if not is_numba_player(choose):
            raise ApiError(f"a numba player must be an @njit function choose(obs, mask, rng) "
                           f"-> action, not {type(choose).__name__}")
        self.choose = choose
        self.n = integer(n, "n", 1, 1 << 24, "a number of rows from 1 to 2**24")
        self.rng = seed_streams(np.uint64(integer(seed, "seed", 0, MAX_STATE_SEED)), self.n)
        self.out = np.zeros(self.n, np.int64)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        try:
            _run_player(self.choose, obs, mask, self.rng, self.out)
        except numba.core.errors.TypingError as exc:
            first = str(exc).strip().splitlines()[0]
            raise ApiError(f"numba player {getattr(self.choose, '__name__', '?')} does not "
                           f"compile as choose(float32[:], bool[:], uint64[:]) -> int: "
                           f"{first}") from None
        return self.out
