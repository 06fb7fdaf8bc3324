"""Experiments: runs that compare rule sets or players.

Holds ``sweep`` (a grid of rule variants, and ``compare``), ``rotation`` (seats rotated so
deal luck cancels), ``check`` (verdicts re-checked with stronger players; the skill a
rule set rewards), ``batch`` (a plan of many runs) and ``tournament`` (ratings of many
players on the same deals).

May import: the core modules, ``simcore.running`` and ``simcore.statistics``; never
``analysis``, a game by name, or the command line (checked by import-linter).
"""
