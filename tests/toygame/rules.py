"""Toy's rule options and presets, and its steps' rule array (imports nothing heavy:
``tricksim rules toygame``).

Each option the steps read declares its slot in the rule array (``slot=``); the rule
book generates the array (``rules_array``) and the slot numbers from them."""
from simcore.options import Option, RuleBook

OPTIONS = (
    Option("players", "int", 3, "number of players (each holds 12 / players cards)",
           lo=2, hi=3, slot="R_PLAYERS"),
    Option("last_bonus", "bool", False, "the last trick is worth 2 points instead of 1",
           slot="R_LAST_BONUS"),
)

PRESETS = {
    "standard": {},
    "duel": {"players": 2, "last_bonus": True},
}

RULEBOOK = RuleBook("toygame", OPTIONS, PRESETS)

# The steps' rule array, generated from the slots the options declare
rules_array = RULEBOOK.rules_array
R_PLAYERS = RULEBOOK.slot("R_PLAYERS")
R_LAST_BONUS = RULEBOOK.slot("R_LAST_BONUS")
