"""The games as OpenSpiel Python games (``pip install tricksim[rl]``; OpenSpiel is Apache-2.0).

Importing this module registers one OpenSpiel game per tricksim game, ``tricksim_<game>``
(``tricksim_schnapsen``, ``tricksim_schadenfreude``, ``tricksim_wendish``), so OpenSpiel's
algorithms and tests run on them::

    >>> import pyspiel, simcore.envs.openspiel
    >>> game = pyspiel.load_game("tricksim_wendish", {"variant": "officers"})
    >>> state = game.new_initial_state()       # a chance node: the first dealer
    >>> pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)

Parameters: ``rules`` (``NAME=VALUE`` rule options separated by ``;``, as ``--set`` takes
them), ``preset``, ``players`` (Schadenfreude, 3-5), ``variant`` (Wendish), ``seed`` (the
game's own random stream: a tied Schadenfreude leader is drawn from it, and tricksim's
players read it; default 0) and ``single_deal`` (end after the first deal; returns are
then each seat's ``deal_scores``: Schnapsen game points, Wendish score changes,
Schadenfreude's mean round points minus the seat's own).

One episode is one whole game, as in the PettingZoo environment (``simcore.envs.aec``):
its returns are each seat's standing minus the mean standing. The deal is chance nodes:
first the first dealer (Schadenfreude: leader) where more than one seat may, then the
cards one position of the game's card order at a time (``Engine.deal_order``; the last
card follows), each outcome a card id with equal chance among the cards left. Later
deals are dealt the same way; who deals them follows the rules (a tied Schadenfreude
leader from the stream). Player actions are the engine's action codes, the observation
tensor is the game's (``docs/players-api.md``, the same encoding as the PettingZoo
environment), all zero before the first deal is dealt. An information state string is
the seat plus a digest of everything it observed, step by step (its raw observation
after every deal and every action, and its own actions): perfect recall.

``resample_from_infostate`` (IS-MCTS needs it) re-deals the cards hidden from the seat
with the game's own world sampler (``hand.sample_world``, the ``pimc`` player's), renames
them in the deal's card order (``Engine.renamed``: a permutation of the hidden cards,
holding by holding) and in the actions that name a hidden card (``Engine.renamed_action``:
a Wendish discard), and replays the history. A replay that breaks what the seat saw
(its information state differs, or an action is not legal in the new world) is drawn
again, up to 100 times.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pyspiel

from ..engine import engine as make_engine
from ..registry import game_names, get_game, get_hand

#: the games' seat options: which parameter sets the table, and its values
_TABLE = {"schadenfreude": "players", "wendish": "variant"}
#: actions a deal may have besides one per card (marriages, exchange, close, claim,
#: pass, resign; pickup, discards, Lust Solo, Old Ones), a generous bound
_EXTRA_ACTIONS = 16

_CONTEXTS: dict = {}


def short_name(game: str) -> str:
    """The OpenSpiel name of a tricksim game."""
    return f"tricksim_{game}"


def _rules(game: str, params: dict):
    book = get_game(game)
    sets = [a for a in str(params.get("rules", "")).split(";") if a.strip()]
    table = _TABLE.get(game)
    if table is not None and params.get(table) not in (None, ""):
        sets.append(f"{table}={params[table]}")
    return book.build_rules(params.get("preset") or None, None, sets)


class _Context:
    """What every state of one configured game shares (kept out of the states, which
    OpenSpiel deep-copies)."""

    def __init__(self, game: str, params: dict):
        self.game = game
        self.rules = _rules(game, params)
        self.eng = make_engine(game, self.rules)
        self.eng._trusted = True            # every state stepped here is made by the kernels
        self.seed = int(params.get("seed", 0)) % 2**64
        self.single = bool(params.get("single_deal", False))
        self.spec = self.eng.observation_spec
        self.deck = sorted(self.eng.deal_order(self.eng.new(0, 0)))
        self.dealing = self.eng.dealing()
        self.n = self.eng.seats


def _table_seats(game: str) -> tuple[int, int]:
    book = get_game(game).rulebook
    opt = _TABLE.get(game)
    if opt is None:
        return (make_engine(game).seats,) * 2
    o = book.option(opt)
    values = o.choices if o.kind == "choice" else range(o.lo, o.hi + 1)
    seats = [make_engine(game, **{opt: v}).seats for v in values]
    return min(seats), max(seats)


def _game_type(game: str) -> pyspiel.GameType:
    lo, hi = _table_seats(game)
    params = {"rules": "", "preset": "", "seed": 0, "single_deal": False}
    if game in _TABLE:
        o = get_game(game).rulebook.option(_TABLE[game])
        params[_TABLE[game]] = o.default if not callable(o.default) else ""
    return pyspiel.GameType(
        short_name=short_name(game), long_name=f"tricksim {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi, min_num_players=lo,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


class TricksimGame(pyspiel.Game):
    """A tricksim game under one rule set as an OpenSpiel game (see the module text)."""

    game = ""

    def __init__(self, params=None):
        params = dict(params or {})
        key = (self.game, tuple(sorted((k, str(v)) for k, v in params.items())))
        ctx = _CONTEXTS.get(key)
        if ctx is None:
            ctx = _CONTEXTS[key] = _Context(self.game, params)
        self.ctx, self._key = ctx, key
        d = ctx.dealing
        deals = 1 if ctx.single else d.max_deals
        if ctx.single:
            bound = d.score_bound
        elif ctx.spec.standing_name == "win":
            bound = 1.0
        else:
            bound = d.max_deals * d.score_bound
        info = pyspiel.GameInfo(
            num_distinct_actions=ctx.eng.n_actions,
            max_chance_outcomes=max(max(ctx.deck) + 1, ctx.n),
            num_players=ctx.n, min_utility=-bound, max_utility=bound, utility_sum=0.0,
            max_game_length=deals * (2 * len(ctx.deck) + _EXTRA_ACTIONS + ctx.n) + 1)
        super().__init__(_TYPES[self.game], info, params)

    def new_initial_state(self):
        """The state before the first deal (a chance node)."""
        return TricksimState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation tensor (the game's encoding) or, for perfect recall, the
        information state string."""
        return TricksimObserver(self.ctx, iig_obs_type, params)


class TricksimState(pyspiel.State):
    """One position of a tricksim game in OpenSpiel: chance while dealing, then the
    engine's state (``st``) stepped by its action codes."""

    def __init__(self, game):
        super().__init__(game)
        self._key = game._key
        self.st = None                 # the engine's state (None before the first deal)
        self.deal = 0
        self.dealer = None
        self.order: list[int] = []
        self.over = False
        self.seen = [[] for _ in range(game.ctx.n)]
        d = game.ctx.dealing
        if len(d.first_dealers) == 1:
            self.dealer = d.first_dealers[0]

    @property
    def ctx(self) -> _Context:
        return _CONTEXTS[self._key]

    def _dealing(self) -> bool:
        return self.dealer is None or len(self.order) < len(self.ctx.deck)

    def current_player(self):
        """The seat to act, chance while dealing, terminal once over."""
        if self.over:
            return pyspiel.PlayerId.TERMINAL
        if self._dealing():
            return pyspiel.PlayerId.CHANCE
        return self.ctx.eng.to_move(self.st)

    def _legal_actions(self, player):
        return sorted(self.ctx.eng.legal(self.st))

    def chance_outcomes(self):
        """The first dealer's seats, or the cards not dealt yet, all equally likely."""
        if self.dealer is None:
            seats = self.ctx.dealing.first_dealers
            return [(s, 1.0 / len(seats)) for s in seats]
        left = sorted(set(self.ctx.deck) - set(self.order))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action):
        ctx, action = self.ctx, int(action)
        if self.dealer is None:
            self.dealer = action
            return
        if self._dealing():
            self.order.append(action)
            left = sorted(set(ctx.deck) - set(self.order))
            if len(left) == 1:
                self.order.append(left[0])
                self._start_deal()
            return
        seat = ctx.eng.to_move(self.st)
        ctx.eng.apply(self.st, action)
        self._observe(seat, action)
        if ctx.eng.deal_over(self.st):
            if ctx.single or ctx.eng.game_over(self.st):
                self.over = True
            else:
                self.deal += 1
                self.order = []

    def _start_deal(self):
        ctx = self.ctx
        if self.st is None:
            self.st = ctx.eng.new(ctx.seed, 0)
            ctx.eng.redeal(self.st, self.order, self.dealer)
        else:
            ctx.eng.next_deal(self.st)       # the deal number and who deals, by the rules
            ctx.eng.redeal(self.st, self.order)
        self._observe(-1, -1)

    def _observe(self, actor, action):
        """Add one step to every seat's record of what it saw."""
        for p in range(self.ctx.n):
            words = self.ctx.eng.observe(self.st, p)
            mine = np.array([action if p == actor else -1], np.int64)
            self.seen[p].append(words.tobytes() + mine.tobytes())

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"first dealer {action}"
            return f"deal card {action} to position {len(self.order)}"
        return self.ctx.eng.describe(int(action))

    def is_terminal(self):
        return self.over

    def returns(self):
        """Zeros until the end; then each seat's standing minus the mean standing (or,
        with ``single_deal``, its ``deal_scores``)."""
        ctx = self.ctx
        if not self.over:
            return [0.0] * ctx.n
        if ctx.single:
            return [float(x) for x in ctx.eng.deal_scores(self.st)]
        stand = np.array(ctx.spec.standing(ctx.eng.result(self.st)), float)
        return (stand - stand.mean()).tolist()

    def information_key(self, player) -> str:
        """The seat and a digest of its observation history (perfect recall)."""
        h = hashlib.blake2b(b"".join(self.seen[player]), digest_size=16).hexdigest()
        return f"p{player} deal {self.deal} steps {len(self.seen[player])} {h}"

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one, its hidden cards re-dealt by
        the game's world sampler (see the module text)."""
        return resample(self, int(player_id), np.random.default_rng(
            int(probability_sampler() * 2**53)))

    def __str__(self):
        if self.st is None:
            return "dealing the first deal"
        return f"deal {self.deal}: " + "; ".join(
            f"{p}: {self.ctx.eng.view(self.st, p)}" for p in range(self.ctx.n))


class TricksimObserver:
    """OpenSpiel's observer of a tricksim game: ``tensor`` is the game's observation
    encoding (``simcore.observation``); with perfect recall only the string."""

    def __init__(self, ctx, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.ctx = ctx
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        size = 0 if self.recall else ctx.spec.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        """Fill ``tensor`` with ``player``'s view of ``state`` (zero before a deal)."""
        if self.recall:
            return
        if state.st is None:
            self.tensor.fill(0)
        else:
            self.ctx.spec.encode(self.ctx.eng.observe(state.st, player), self.tensor)

    def string_from(self, state, player):
        """The information state (perfect recall) or the seat's current view, as text."""
        if self.recall:
            return state.information_key(player)
        if state.st is None:
            return f"p{player} dealing"
        return f"p{player} {self.ctx.eng.view(state.st, player)}"


def resample(state: TricksimState, seat: int, rng) -> TricksimState:
    """A new state with ``state``'s history in which the cards ``seat`` has not seen are
    re-dealt by the game's world sampler: the deal in play's card order, and the actions
    naming a hidden card, with each hidden card replaced by the sampled world's card in
    the same place (``Engine.renamed``), then every action replayed; drawn again while
    the replay breaks what ``seat`` saw."""
    ctx = state.ctx
    if state.st is None or state._dealing():
        return state.clone()
    hand = get_hand(ctx.game)
    for _ in range(100):
        world = hand.sample_world(ctx.eng, state.st, seat, rng, None)
        if world is None:
            continue
        new = _replay(state, ctx.eng.renamed(state.st, world), ctx.eng.renamed_action)
        if new is not None and new.information_key(seat) == state.information_key(seat):
            return new
    raise pyspiel.SpielError(f"no world consistent with seat {seat}'s view in 100 draws")


def _replay(state: TricksimState, swap: dict[int, int], rename_action):
    """``state``'s history with the deal in play's cards renamed by ``swap``: its chance
    outcomes and, through ``rename_action``, its actions; None if an action is not legal
    there."""
    game = state.get_game()
    new = game.new_initial_state()
    for a in state.history():
        if new.deal == state.deal and new.dealer is not None:
            a = swap.get(a, a) if new.is_chance_node() else rename_action(a, swap)
        try:
            new.apply_action(a)
        except (pyspiel.SpielError, ValueError):
            return None
    return new


_TYPES = {g: _game_type(g) for g in game_names()}
for _g in game_names():
    _cls = type(f"Tricksim{_g.title()}Game", (TricksimGame,), {"game": _g})
    pyspiel.register_game(_TYPES[_g], _cls)
