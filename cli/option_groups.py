"""Options that belong together, handed to a command as one object.

A command declares its options one by one (click), then ``gather`` hands a group of
them to the function as one argument: the rule options as a ``RuleChoice``, the run
options as the fields of a ``RunSettings`` (``RUN_FIELDS``).  Nothing is checked when
the group is made: the command checks each group where it uses it, so a command's
errors come in the same order whatever the grouping.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from simcore.running.settings import FIELDS as RUN_FIELDS


@dataclass(frozen=True)
class RuleChoice:
    """The rule options as given (``--players``, ``--preset``, ``--rules``, ``--set``)."""

    players: int | None
    preset: str | None
    rules_file: str | None
    assignments: tuple[str, ...]

    def build(self, game: str):
        """The rule set of ``game`` these options choose (checked: a one-line error if not)."""
        from simcore.games import get_game
        return get_game(game).build_rules(self.preset, self.rules_file, self.assignments,
                                          self.players)


def gather(name: str, group):
    """Decorate a command so the options of ``group`` reach it as one argument ``name``.

    group: a dataclass (the argument is an instance built from its fields' options)
    or a tuple of option names (the argument is a dict of them, as given).
    """
    fields = (tuple(f.name for f in dataclasses.fields(group))
              if dataclasses.is_dataclass(group) else tuple(group))

    def decorate(fn):
        @functools.wraps(fn)
        def command(*args, **kwargs):
            values = {f: kwargs.pop(f) for f in fields}
            kwargs[name] = group(**values) if dataclasses.is_dataclass(group) else values
            return fn(*args, **kwargs)
        return command
    return decorate

