"""The per-decision Python API: one game at a time, one action at a time.

``engine(name, rules)`` returns the game's ``Engine`` (``simcore/games/<game>/api.py``),
a thin wrapper over the same numba kernels that the batch loop, replay and the
players run. A state is a small numpy array; ``apply`` and ``choose`` change it
in place, ``state.copy()`` branches it::

    >>> from simcore import engine
    >>> eng = engine("schnapsen")
    >>> s = eng.new(seed=1, index=0)           # game 0 of run 1, as the batch plays it
    >>> while not eng.game_over(s):
    ...     if eng.deal_over(s):
    ...         eng.next_deal(s)
    ...     else:
    ...         eng.apply(s, eng.choose("heuristic", s))
    >>> eng.result(s)                           # doctest: +SKIP

Every engine has ``new``, ``from_record``, ``legal``, ``apply``, ``to_move``,
``deal_over``, ``game_over``, ``next_deal``, ``view``, ``observe``, ``observation``,
``action_mask``, ``choose``,
``action_to_record``, ``action_from_record``, ``describe``, ``deal_end``,
``result`` and ``play``; see each game's ``docs/<game>.md`` for its state
layout and action codes.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .errors import ApiError, TricksimError
from .registry import get_game
from .options import RuleSet
from .text import counted

#: the largest seed a state's stream takes (64 bits) and the largest game index
MAX_STATE_SEED = 2**64 - 1
MAX_INDEX = 2**63 - 1

#: the Engine methods that take a state: the position of the state among the
#: arguments after ``self``; every call checks it (``state_spec``) before a kernel sees it
STATE_ARGUMENT = {
    "legal": 0, "apply": 0, "to_move": 0, "deal_over": 0, "game_over": 0, "next_deal": 0,
    "view": 0, "observe": 0, "choose": 1, "open_values": 0, "action_to_record": 0,
    "action_from_record": 0, "deal_start": 0, "deal_end": 0, "result": 0, "start": 0,
    "deal_order": 0, "redeal": 0, "deal_scores": 0, "renamed": 0,
}


def integer(value, name: str, lo: int, hi: int, what: str = "") -> int:
    """``value`` as an int if it is an integer (not a bool) from ``lo`` to ``hi``; else an
    ApiError naming ``name`` and what is allowed."""
    allowed = what or f"an integer from {lo} to {hi}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ApiError(f"{name} must be an integer, not {value!r} ({type(value).__name__}); "
                       f"allowed: {allowed}")
    value = int(value)
    if not lo <= value <= hi:
        raise ApiError(f"{name} {value} is not allowed; allowed: {allowed}")
    return value


def _argument(args, kwargs, pos, name):
    if len(args) > pos:
        return args[pos]
    return kwargs.get(name, _MISSING)


_MISSING = object()


def _checked(fn, name, pos):
    """``fn`` with its state (argument ``pos``) and its other arguments checked first,
    and a ValueError it raises made an ApiError (a TricksimError)."""

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if not self._trusted:
            self._check_arguments(name, args, kwargs, pos)
        try:
            return fn(self, *args, **kwargs)
        except ValueError as exc:
            if isinstance(exc, TricksimError):
                raise
            raise ApiError(str(exc)) from None
    return method


def renamed_pairs(held: int, sampled: int) -> list[tuple[int, int]]:
    """One holding's renaming (``EngineBase.renamed``): the cards of the card mask
    ``held`` that ``sampled`` lacks, each paired in id order with a card ``sampled`` has
    and ``held`` lacks (the holdings keep their sizes, so the pairs match up)."""
    gone = [c for c in range(64) if (held & ~sampled) >> c & 1]
    came = [c for c in range(64) if (sampled & ~held) >> c & 1]
    if len(gone) != len(came):
        raise ValueError(f"a sampled holding has {len(came)} new cards for {len(gone)} gone")
    return list(zip(gone, came))


@dataclass(frozen=True)
class Dealing:
    """How a game deals, for environments that deal card by card (``simcore.envs.openspiel``):
    ``first_dealers`` the seats that may deal the first deal (Schadenfreude: lead its first
    round), ``max_deals`` a bound on one game's deals, ``score_bound`` a bound on the size of
    any seat's ``deal_scores`` entry."""

    first_dealers: tuple[int, ...]
    max_deals: int
    score_bound: float


class EngineBase:
    """What every game's ``Engine`` shares: playing a whole game through its own
    per-decision calls (``new``, ``choose``, ``apply``, ...) into a record.

    A subclass sets ``game`` (its registry name), ``rules``, ``seats`` and
    ``policies`` (the policy names ``choose`` knows) and provides the calls.
    """

    game: str = ""
    seats: int = 0
    policies: tuple[str, ...] = ()
    #: action codes are 0 .. n_actions - 1
    n_actions: int = 0
    #: set while ``play`` steps a state it made itself (no checks needed)
    _trusted: bool = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, pos in STATE_ARGUMENT.items():
            if name in cls.__dict__:
                setattr(cls, name, _checked(cls.__dict__[name], name, pos))
        for name in ("new", "from_record", "describe"):
            fn = cls.__dict__.get(name)
            if isinstance(fn, staticmethod):
                fn = (lambda f: lambda self, *a, **k: f(*a, **k))(fn.__func__)
            if fn is not None:
                setattr(cls, name, _checked(fn, name, None))

    def _made(self, key: str, make):
        """``make()``, made once per engine and kept under ``key``."""
        value = self.__dict__.get(key)
        if value is None:
            value = self.__dict__[key] = make()
        return value

    @property
    def state_spec(self):
        """What this engine's states may hold (``simcore.state_check.StateSpec``)."""
        return self._made("_state_spec", self.make_state_spec)

    #: what a game declares (or it overrides the three methods below): its ``StateSpec``
    #: and ``ObservationSpec`` as functions of the rules (its ``layout.state_spec`` and
    #: ``observation.spec``, each as a staticmethod) and its batch-environment kernels
    #: (its ``vector.py`` module)
    state_spec_of = None
    observation_spec_of = None
    vector = None

    def make_state_spec(self):
        """The game's ``StateSpec`` under this engine's rules."""
        if self.state_spec_of is None:
            raise NotImplementedError
        return self.state_spec_of(self.rules)

    @property
    def observation_spec(self):
        """This game's observation tensor, field by field (``simcore.observation``)."""
        return self._made("_observation_spec", self.make_observation_spec)

    def make_observation_spec(self):
        """The game's ``ObservationSpec`` (its ``observation.py``)."""
        if self.observation_spec_of is None:
            raise NotImplementedError
        return self.observation_spec_of(self.rules)

    def vector_kernels(self):
        """The game's batch-environment kernels (its ``vector.py`` module, which
        ``simcore.envs.vector.VectorEnv`` drives), or None for a game without them."""
        return self.vector

    def observation(self, state, seat: int) -> np.ndarray:
        """What ``seat`` may know, as the game's fixed-size float32 tensor
        (``observation_spec`` names its columns; docs/players-api.md lists them)."""
        return self.observation_spec.encode(self.observe(state, seat))

    def action_mask(self, state) -> np.ndarray:
        """A bool array over every action code, True for the legal actions of the seat
        to move (all False once the deal is scored)."""
        from .observation import action_mask
        return action_mask(self.n_actions, self.legal(state))

    # ----- dealing card by card (each game: deal_order, redeal, deal_scores, dealing) ------
    def deal_order(self, state) -> list[int]:
        """The card order the deal in play was dealt from (every card of the deck once, in
        the positions the game deals them; docs of each game's ``deal_order``)."""
        raise NotImplementedError

    def redeal(self, state, order, dealer: int | None = None) -> None:
        """Restart the deal in play of ``state`` (in place) from the card order ``order``
        (``deal_order``'s positions), dealt by ``dealer`` (Schadenfreude: led by; None: the
        deal's own); the game around the deal (scores, deal number, stream) stays."""
        raise NotImplementedError

    def deal_scores(self, state) -> list[float]:
        """Each seat's score of the scored deal in play, higher is better, summing to 0."""
        raise NotImplementedError

    def dealing(self) -> Dealing:
        """How this game deals under this engine's rules (``Dealing``)."""
        raise NotImplementedError

    def renamed(self, state, world) -> dict[int, int]:
        """For a ``world`` sampled from ``state`` by the game's world sampler
        (``hand.sample_world``: the cards hidden from one seat re-dealt), the card
        ``world`` holds in place of each card of ``state`` it moved, holding by holding
        (``renamed_pairs``): a permutation of the hidden cards. The deal in play's card
        order renamed by it, with the actions renamed by ``renamed_action``, replays to
        ``world``'s cards (the OpenSpiel ``resample_from_infostate``)."""
        raise NotImplementedError

    def renamed_action(self, action: int, swap: dict[int, int]) -> int:
        """``action`` with a card it names that others may not see (Wendish: a discard)
        renamed by ``swap`` (``renamed``); an action naming a card everybody sees, or none,
        stays as it is (this default: every action)."""
        return int(action)

    def _check_order(self, order, deck) -> np.ndarray:
        """``order`` as an int64 array if it holds every card of ``deck`` (ids) once; else
        an ApiError naming what is wrong."""
        arr = np.asarray(order, dtype=np.int64).ravel()
        if sorted(arr.tolist()) != sorted(int(c) for c in deck):
            raise ApiError(f"a card order must hold each of the deck's {len(deck)} cards once "
                           f"(card ids {sorted(int(c) for c in deck)}); got {arr.tolist()}")
        return arr

    def check_state(self, state) -> None:
        """StateError (a TricksimError) unless ``state`` is a whole, undamaged state of
        this engine's game and rules, one its kernels can take."""
        self.state_spec.check(state)

    def _check_arguments(self, name, args, kwargs, pos) -> None:
        if pos is not None:
            state = _argument(args, kwargs, pos, "state")
            if state is _MISSING:
                state = _argument(args, kwargs, pos, "st")
            if state is not _MISSING:
                self.check_state(state)
        top = self.n_actions - 1
        if name in ("apply", "action_to_record"):
            action = _argument(args, kwargs, 1, "action")
            if action is not _MISSING:
                integer(action, "action", 0, top, f"an action code from 0 to {top}")
        elif name == "describe":
            action = _argument(args, kwargs, 0, "action")
            if action is not _MISSING:
                integer(action, "action", 0, top, f"an action code from 0 to {top}")
        elif name in ("view", "observe"):
            seat = _argument(args, kwargs, 1, "seat")
            if seat is not _MISSING:
                integer(seat, "seat", 0, self.seats - 1, f"a seat from 0 to {self.seats - 1}")
        elif name == "choose":
            policy = _argument(args, kwargs, 0, "policy_name")
            if not isinstance(policy, str):
                raise ApiError(f"policy must be a policy name (a string), not {policy!r}; "
                               "policies: " + ", ".join(self.policies))
        elif name == "new":
            seed = _argument(args, kwargs, 0, "seed")
            index = _argument(args, kwargs, 1, "index")
            if seed is not _MISSING:
                integer(seed, "seed", 0, MAX_STATE_SEED, f"0 to 2**64 - 1 = {MAX_STATE_SEED}")
            if index is not _MISSING:
                integer(index, "index", 0, MAX_INDEX, f"a game index from 0 to {MAX_INDEX}")
        elif name == "from_record":
            self._check_record(_argument(args, kwargs, 0, "record"))
            deal = _argument(args, kwargs, 1, "deal")
            if deal is not _MISSING:
                integer(deal, "deal", 0, MAX_INDEX, "a deal number of the record, from 0")
            upto = _argument(args, kwargs, 2, "upto")
            if upto is not _MISSING and upto is not None:
                integer(upto, "upto", 0, MAX_INDEX,
                        "None (every action) or a number of the deal's actions, from 0")

    def _check_record(self, record) -> None:
        if record is _MISSING:
            return
        if not isinstance(record, Mapping):
            raise ApiError(f"record must be a record (a dict, as records hold), not "
                           f"{type(record).__name__}")
        game = record.get("game")
        if game != self.game:
            from .registry import REGISTRY
            if isinstance(game, str) and game in REGISTRY:
                raise ApiError(f"this is a {game} record; this engine plays {self.game} "
                               f"(read it with engine('{game}', ...))")
            raise ApiError(f"record's game is {game!r}; this engine reads {self.game} records")
        if not isinstance(record.get("deals"), list) or not isinstance(
                record.get("policies"), list):
            raise ApiError("record must hold 'deals' and 'policies' lists (records contract)")

    def policy_list(self, policies) -> list[str]:
        """One policy name per seat (one name means every seat); ValueError names
        what is wrong."""
        if isinstance(policies, str):
            names = [policies]
        elif isinstance(policies, (list, tuple)):
            names = list(policies)
        else:
            raise ApiError(f"policies must be a policy name or a list of them (one for every "
                           f"seat or one per seat), not {type(policies).__name__}")
        if len(names) == 1:
            names = names * self.seats
        if len(names) != self.seats:
            raise ApiError(f"{counted(len(names), 'policy')} for {self.seats} seats; give one name "
                           f"or {self.seats}")
        for p in names:
            if not isinstance(p, str):
                raise ApiError(f"a policy is a name (a string), not {p!r}; policies: "
                               + ", ".join(self.policies))
            try:
                self.check_policy(p)
            except ValueError as exc:
                if isinstance(exc, TricksimError):
                    raise
                raise ApiError(str(exc)) from None
        return names

    def check_policy(self, name: str) -> None:
        """ValueError unless ``choose`` knows the policy ``name``."""
        if name not in self.policies:
            raise ValueError(f"unknown policy '{name}'; policies: " + ", ".join(self.policies))

    def play(self, seed: int, index: int, policies) -> dict:
        """Game ``index`` of run ``seed`` played through these calls, as a record
        (the records contract); equal to the batch run's record of that game."""
        names = self.policy_list(policies)
        st = self.new(seed, index)
        self._trusted = True            # the state is this call's own, made by the kernels
        try:
            return self._play(st, seed, index, names)
        finally:
            self._trusted = False

    def _play(self, st, seed, index, names, decide=None, scored=None) -> dict:
        """The record of playing ``st`` out; ``decide(st, seat, deal, done)`` picks each
        action (``done``: the deal's recorded actions so far) where given, else
        ``choose`` with the seat's policy name; ``scored(st)`` is called with each deal's
        scored state (before the next deal is dealt; the last is the game's end)."""
        deals = []
        while True:
            start = self.deal_start(st)
            actions = []
            while not self.deal_over(st):
                seat = self.to_move(st)
                a = (decide(st, seat, len(deals), len(actions)) if decide is not None
                     else self.choose(names[seat], st))
                item = self.action_to_record(st, a)
                if item is not None:          # an action a record leaves implicit
                    actions.append(item)
                self.apply(st, a)
            deals.append({"start": start, "actions": actions, "end": self.deal_end(st)})
            if scored is not None:
                scored(st)
            if self.game_over(st):
                break
            self.next_deal(st)
        return {"game": self.game, "rules": self.rules.to_dict(), "seed": int(seed),
                "index": int(index), "policies": names, "deals": deals,
                "result": self.result(st)}


def engine(game: str, rules: RuleSet | None = None, **options):
    """The per-decision engine of ``game`` under ``rules`` (default: the game's
    default preset; ``options`` as ``NAME=VALUE`` overrides of it, e.g.
    ``engine("wendish", variant="three")``)."""
    if not isinstance(game, str):
        raise ApiError(f"game must be a game's name (a string), not {game!r}")
    g = get_game(game)
    if rules is None:
        rules = g.build_rules(assignments=[f"{k}={_text(v)}" for k, v in options.items()])
    elif options:
        raise ApiError("give either a rule set or option overrides, not both")
    return g.engine(check_rules(game, rules))


def check_rules(game: str, rules, name: str = "rules"):
    """``rules`` if it is a RuleSet of ``game`` (None: None); else an ApiError naming
    what was given and how to build one."""
    if rules is None or (isinstance(rules, RuleSet) and rules.game == game):
        return rules
    how = (f"build one with get_game('{game}').build_rules(preset, rules_file, "
           f"assignments) or, from a record's rules dict, "
           f"get_game('{game}').rulebook.from_dict(d)")
    if isinstance(rules, RuleSet):
        raise ApiError(f"{name} are {rules.game} rules; {game} needs a {game} rule set: {how}")
    raise ApiError(f"{name} must be a {game} RuleSet, not {type(rules).__name__}: {how}")


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)
