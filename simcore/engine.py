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
``deal_over``, ``game_over``, ``next_deal``, ``view``, ``choose``,
``action_to_record``, ``action_from_record``, ``describe``, ``deal_end``,
``result`` and ``play``; see each game's ``docs/<game>.md`` for its state
layout and action codes.
"""
from __future__ import annotations

from .games import get_game
from .options import RuleSet


class EngineBase:
    """What every game's ``Engine`` shares: playing a whole game through its own
    per-decision calls (``new``, ``choose``, ``apply``, ...) into a record.

    A subclass sets ``game`` (its registry name), ``rules``, ``seats`` and
    ``policies`` (the policy names ``choose`` knows) and provides the calls.
    """

    game: str = ""
    seats: int = 0
    policies: tuple[str, ...] = ()

    def policy_list(self, policies) -> list[str]:
        """One policy name per seat (one name means every seat); ValueError names
        what is wrong."""
        names = [policies] if isinstance(policies, str) else list(policies)
        if len(names) == 1:
            names = names * self.seats
        if len(names) != self.seats:
            raise ValueError(f"{len(names)} policies for {self.seats} seats; give one name "
                             f"or {self.seats}")
        for p in names:
            self.check_policy(p)
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
        deals = []
        while True:
            start = self.deal_start(st)
            actions = []
            while not self.deal_over(st):
                a = self.choose(names[self.to_move(st)], st)
                item = self.action_to_record(st, a)
                if item is not None:          # an action a record leaves implicit
                    actions.append(item)
                self.apply(st, a)
            deals.append({"start": start, "actions": actions, "end": self.deal_end(st)})
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
    g = get_game(game)
    if rules is None:
        rules = g.build_rules(assignments=[f"{k}={_text(v)}" for k, v in options.items()])
    elif options:
        raise TypeError("give either a rule set or option overrides, not both")
    return g.engine(rules)


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)
