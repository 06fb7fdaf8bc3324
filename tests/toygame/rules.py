"""Toy's rule options and presets (imports nothing heavy: ``tricksim rules toygame``)."""
from simcore.options import Option, RuleBook

OPTIONS = (
    Option("players", "int", 3, "number of players (each holds 12 / players cards)",
           lo=2, hi=3),
    Option("last_bonus", "bool", False, "the last trick is worth 2 points instead of 1"),
)

PRESETS = {
    "standard": {},
    "duel": {"players": 2, "last_bonus": True},
}

RULEBOOK = RuleBook("toygame", OPTIONS, PRESETS)
