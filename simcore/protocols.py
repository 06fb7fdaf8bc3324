"""The game contract in code: what a game hands to generic code, and how it is registered.

A game is one package registered by one call, ``simcore.registry.register_game(entry)``,
where ``entry`` is a :class:`GameEntry`: the game's name and a loader per plug-in point,
each an entry point naming the package's module literally (the games tricksim ships
are declared in ``simcore/registry.py``, the tests' toy game in its own
``tests/toygame/__init__.py``).  Generic code asks the registry for the plug-ins and
never finds a module by a formatted name.  Each plug-in point is a Protocol
here, checked for every registered game by ``tests/test_conformance.py`` (``isinstance``
with ``runtime_checkable`` and the methods' parameters):

- :class:`GameProtocol`: the batch side (``Game``: rules, policies, chunks, aggregates,
  summaries, records, replay, the contract with generic code, the engine);
- :class:`EngineProtocol`: the per-decision Python API (``simcore.engine``);
- :class:`PlayersProtocol`: the players ``--policy`` takes, their help and the pimc
  player's defaults, without importing kernels (``tricksim --help`` stays fast);
- :class:`NarratorProtocol`: the game in words (``replay --show``, ``play``, ``analyse``);
- :class:`HandProtocol`: ``tricksim hand`` (a partly fixed deal played many times) and
  ``tricksim analyse`` (worlds consistent with a seat's view of a recorded position).

This module imports nothing heavy (no numba, pandas or game), so the registry can load
it in ``tricksim --help``.  See docs/adding-a-game.md for a walk-through.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable


@runtime_checkable
class EngineProtocol(Protocol):
    """A game's per-decision engine (``simcore.engine.EngineBase`` gives ``play``,
    ``observation``, ``action_mask``, the argument checks and ``policy_list``).

    A state is a small numpy array; ``apply`` changes it in place.  Actions are ints
    ``0 .. n_actions - 1``; records hold them as ``action_to_record`` writes them."""

    game: str
    rules: Any
    seats: int
    policies: tuple
    n_actions: int

    def new(self, seed: int, index: int): ...
    def from_record(self, record: dict, deal: int = 0, upto: int | None = None): ...
    def legal(self, st) -> list: ...
    def apply(self, st, action: int) -> None: ...
    def to_move(self, st) -> int: ...
    def deal_over(self, st) -> bool: ...
    def game_over(self, st) -> bool: ...
    def next_deal(self, st) -> None: ...
    def view(self, st, seat: int) -> dict: ...
    def observe(self, st, seat: int): ...
    def observation(self, state, seat: int): ...
    def action_mask(self, state): ...
    def choose(self, policy_name: str, st) -> int: ...
    def action_to_record(self, st, action: int): ...
    def action_from_record(self, st, item) -> int: ...
    def describe(self, action: int) -> str: ...
    def deal_start(self, st) -> dict: ...
    def deal_end(self, st) -> dict: ...
    def result(self, st) -> dict: ...
    def play(self, seed: int, index: int, policies) -> dict: ...


@runtime_checkable
class GameProtocol(Protocol):
    """A game's batch side (``simcore.games.base.Game`` documents each method and gives
    the policy parsing, ``build_rules`` and ``game_metrics``)."""

    name: str
    rulebook: Any
    policies: tuple
    description: str
    search_policies: tuple
    policy_parameter_keys: tuple

    def build_rules(self, preset=None, rules_file=None, assignments=(), players=None): ...
    def seats(self, rules) -> int: ...
    def parse_policy(self, name: str) -> int: ...
    def policy_name(self, pid: int) -> str: ...
    def policy_ids(self, names, rules): ...
    def policy_names(self, names, rules) -> list: ...
    def policy_help(self) -> list: ...
    def run_chunk(self, rules, policy_ids, seed: int, start: int, count: int,
                  summary_only: bool = False) -> dict: ...
    def aggregate(self, chunk: dict, rules) -> dict: ...
    def summarize(self, agg: dict, rules, policies: list) -> dict: ...
    def game_metrics(self, summary: dict, rules): ...
    def contract(self, rules): ...
    def engine(self, rules): ...
    def records(self, rules, policies, policy_ids, seed: int, start: int,
                count: int) -> list: ...
    def records_jsonl(self, rules, policies, policy_ids, seed: int, start: int,
                      count: int) -> bytes: ...
    def frames(self, chunk: dict, rules, policies: list) -> dict: ...
    def record(self, rules, policies, policy_ids, seed: int, index: int) -> dict: ...
    def replay(self, record: dict) -> None: ...


@runtime_checkable
class PlayersProtocol(Protocol):
    """A game's players as the CLI's help and the runner's chunk plan need them, with
    no kernel imported (usually the game's ``players.py`` module)."""

    #: the players ``--policy`` takes
    PLAYERS: tuple
    #: the pimc player's parameters with their defaults ({} without a pimc player)
    PIMC_DEFAULTS: dict
    #: a designer's run's players when none are given: one name, or one per seat
    DESIGN_PLAYERS: str
    #: why random players mislead in this game (None: they do not)
    RANDOM_DISTORTS: str | None

    def policy_help(self) -> list: ...
    def search_seconds(self, names, rules) -> float: ...


@runtime_checkable
class NarratorProtocol(Protocol):
    """A game in words, made as ``Narrator(engine, viewer=None)`` (``viewer``: the seat
    whose view is narrated, None for an onlooker); ``simcore.analysis.show.NarratorBase`` gives
    ``who``, ``sees``, ``label``, ``card_key``, ``sorted_cards``, ``card_of`` and
    ``menu_order``."""

    deal_word: str
    legend: str

    def deal_start(self, st) -> list: ...
    def action(self, before, a, after) -> list: ...
    def deal_end(self, st) -> list: ...
    def result(self, st) -> list: ...
    def view(self, st, seat: int) -> list: ...
    def label(self, state, action: int) -> str: ...
    def sorted_cards(self, state, names) -> list: ...
    def card_of(self, action: int) -> str | None: ...
    def menu_order(self, state, legal) -> list: ...


@runtime_checkable
class HandProtocol(Protocol):
    """``tricksim hand`` and ``tricksim analyse`` for one game (usually its ``hand.py``
    module; ``simcore.analysis.positions`` does the generic part)."""

    def setup(self, rules, seat: int, dealer, hand: str, known, trump_card=None,
              takes_skat=None): ...
    def play(self, rules, setup_, pids, seed: int, first: int, n: int): ...
    def labels(self, setup_, result) -> list: ...
    def position_info(self, eng, record: dict, deal: int, at: int, st): ...
    def sample_world(self, eng, st, seat: int, rng, info): ...
    def outcome(self, eng, st, seat: int): ...


@dataclass(frozen=True)
class GameEntry:
    """One game as the registry holds it: its name and a loader for each plug-in point.

    Each loader is called on first use, so that listing the games, their rules and
    players (``tricksim --help``, ``tricksim rules``) does not import a game's kernels:
    ``rulebook`` and ``players`` must load without numba or pandas.  ``record_checker``
    (optional): a function returning the problems of a record, written from the rules
    rather than the engine (the conformance test's invariants; a game may keep its
    checker in ``tests/invariants.py`` instead)."""

    name: str
    rulebook: Callable[[], Any]
    game: Callable[[], GameProtocol]
    players: Callable[[], PlayersProtocol]
    narrator: Callable[[], type]
    hand: Callable[[], HandProtocol]
    record_checker: Callable[[], Callable[[dict], list]] | None = None


def entry_point(spec: str) -> Callable[[], Any]:
    """A loader of ``"package.module:attribute"`` (as packaging's entry points write
    them; ``"package.module"`` alone: the module itself): it imports the module on its
    first call only.  A game's ``GameEntry`` names its plug-ins this way, literally, so
    nothing is imported before it is needed."""
    module, sep, attribute = spec.partition(":")
    if not module or sep and not attribute:
        raise ValueError(f"entry point {spec!r}: write 'package.module:attribute' or "
                         "'package.module'")

    def load():
        from importlib import import_module
        value = import_module(module)
        for part in attribute.split(".") if attribute else ():
            value = getattr(value, part)
        return value
    load.__qualname__ = load.__name__ = f"load {spec}"
    return load


def missing_members(obj, protocol) -> list[str]:
    """The members of ``protocol`` that ``obj`` lacks, and the methods whose parameters
    do not take the protocol's (by name, in order; extra parameters with defaults are
    fine): empty when ``obj`` follows the protocol."""
    problems = []
    for name in _members(protocol):
        if not hasattr(obj, name):
            problems.append(f"{name}: missing")
            continue
        want = getattr(protocol, name, None)
        if not inspect.isfunction(want):
            continue
        got = getattr(obj, name)
        if not callable(got):
            problems.append(f"{name}: not callable")
            continue
        fn = inspect.unwrap(got)
        try:
            have = _parameters(fn, bound=inspect.ismethod(got) or _is_bound(obj, name))
        except (TypeError, ValueError):
            continue                     # a builtin without a signature
        need = _parameters(want, bound=True)
        if not _accepts(have, need):
            problems.append(f"{name}: takes ({', '.join(p.name for p in have)}), the "
                            f"contract passes ({', '.join(p.name for p in need)})")
    return problems


def _members(protocol) -> list[str]:
    names = set()
    for base in protocol.__mro__:
        if base in (Protocol, object) or base.__module__ == "typing":
            continue
        names |= {n for n in vars(base) if not n.startswith("_")}
        names |= set(getattr(base, "__annotations__", {}))
    return sorted(names)


def _is_bound(obj, name) -> bool:
    """Whether ``obj.name`` is called without a self argument of its own: a method of an
    instance (or a class's method looked up on an instance), not a module's function."""
    return not inspect.ismodule(obj) and not inspect.isclass(obj) and \
        not isinstance(inspect.getattr_static(obj, name, None), staticmethod)


def _parameters(fn, bound: bool) -> list:
    params = list(inspect.signature(fn).parameters.values())
    if bound and params and params[0].name in ("self", "cls"):
        params = params[1:]
    return params


def _accepts(have, need) -> bool:
    """Whether a function with parameters ``have`` takes every call the contract makes
    with parameters ``need`` (positionally; ``*args``/``**kwargs`` take anything)."""
    if any(p.kind is p.VAR_POSITIONAL for p in have):
        return True
    positional = [p for p in have if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < len(need):
        return False
    extra = positional[len(need):]
    return all(p.default is not p.empty for p in extra)
