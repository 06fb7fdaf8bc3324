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

from simcore.experiments.check_options import CheckOptions
from simcore.running.settings import FIELDS as RUN_FIELDS

#: the run options of sweep (all but --summary-only: a sweep keeps summaries only)
SWEEP_RUN_FIELDS = tuple(f for f in RUN_FIELDS if f != "summary_only")
#: the run options of compare (played here, on threads)
COMPARE_RUN_FIELDS = ("games", "seed", "threads", "chunk_size", "player_timeout")

__all__ = ["CheckOptions", "CompareSides", "HandPlay", "OwnerHand", "RecordPosition",
           "RuleChoice", "RUN_FIELDS", "SWEEP_RUN_FIELDS", "COMPARE_RUN_FIELDS", "gather"]


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


@dataclass(frozen=True)
class CompareSides:
    """compare's two rule sets as given (``--a``, ``--b``) and ``--players`` for both."""

    spec_a: str
    spec_b: str
    players: int | None


@dataclass(frozen=True)
class OwnerHand:
    """What ``hand`` is told about the deal: the owner's cards (``--hand``) and seat,
    the dealer, Schnapsen's trump card, whether a Dreiwendsch owner takes the skat,
    and cards known in other seats (``--known SEAT:CARDS``)."""

    hand: str
    seat: int
    dealer: int | None
    trump_card: str | None
    takes_skat: bool | None
    known: tuple[str, ...]


@dataclass(frozen=True)
class HandPlay:
    """How ``hand`` plays its deals: the players (``--policy``, or the strongest that
    fits ``--budget`` seconds), how many deals, threads, the seed of the random
    completion and a Python player's seconds per decision."""

    policy: str | None
    deals: int
    budget: float
    threads: int | None
    seed: int
    player_timeout: float


@dataclass(frozen=True)
class RecordPosition:
    """Which position ``analyse`` values: record ``index`` of the file, its deal
    ``deal``, after ``at`` actions of that deal."""

    index: int
    deal: int
    at: int


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

