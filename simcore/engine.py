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
