"""The options of a check and a skill measure as given, kept light (no numpy, pandas):
the command line gathers them before it imports ``simcore.experiments.check``."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CheckOptions:
    """The check and skill options as given (``--check-with``, ``--check-games``,
    ``--skill``; a batch run's ``check_with``, ``check_games``, ``skill``), unchecked:
    ``simcore.experiments.check.plan_checks`` checks them against the rule sets."""

    check_with: str | None = None
    check_games: int | None = None
    skill_spec: str | None = None
