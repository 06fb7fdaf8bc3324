"""Card-player analysis: one hand's or one position's chances, and reading records.

Holds ``positions`` (``tricksim hand`` and ``tricksim analyse``: the generic part a
game's ``hand.py`` plugs into), ``budget`` (the strongest players whose sample fits a
time budget) and ``show`` (a record or a game narrated as text; ``tricksim show`` and
``play``).

May import: the core modules and ``simcore.statistics``; never ``running``,
``experiments``, a game by name, or the command line (checked by import-linter).
"""
