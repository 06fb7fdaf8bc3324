"""Schnapsen rule options, presets, validation, and the kernels' rule array."""
from ...options import SPEC_UNBOUNDED, Option, RuleBook, equals

OPTIONS = (
    Option("match_points", "int", 7, "each player starts here and subtracts the game points "
           "won; reaching 0 wins the match", lo=1, hi=21, spec_hi=SPEC_UNBOUNDED,
           slot="R_MATCH"),
    Option("target", "int", 66, "card points needed for a correct claim", lo=1, hi=120,
           spec_hi=SPEC_UNBOUNDED, slot="R_TARGET"),
    Option("exchange_min_talon", "int", 2, "the trump jack may be exchanged while the open "
           "talon holds at least this many cards, the trump card included", lo=2, hi=10,
           slot="R_EXCH_MIN"),
    Option("close_min_talon", "int", 2, "the talon may be closed while it holds at least this "
           "many cards, the trump card included", lo=2, hi=10, slot="R_CLOSE_MIN"),
    Option("marriage_after_close", "bool", True, "marriages may be shown after the talon is "
           "closed or used up", slot="R_MARR_CLOSED"),
    Option("closed_scoring", "choice", "at_close", "a successful closer scores by the "
           "opponent's points and tricks at the close (at_close) or at the end (at_end)",
           choices=("at_close", "at_end"), slot="R_AT_CLOSE", encode=equals("at_close")),
    Option("schneider_below", "int", 33, "a correct claim scores 2 when the opponent has "
           "fewer card points than this (and a trick)", lo=1, hi=120,
           spec_hi=SPEC_UNBOUNDED, slot="R_SCHNEIDER"),
)

PRESETS = {
    "austrian": {},
    "tournament": {"exchange_min_talon": 4, "close_min_talon": 4},
}

RULEBOOK = RuleBook("schnapsen", OPTIONS, PRESETS)

# The kernels' rule array, generated from the slots the options declare
rules_array = RULEBOOK.rules_array
RULE_FIELDS = len(RULEBOOK.slots)
R_MATCH = RULEBOOK.slot("R_MATCH")
R_TARGET = RULEBOOK.slot("R_TARGET")
R_EXCH_MIN = RULEBOOK.slot("R_EXCH_MIN")
R_CLOSE_MIN = RULEBOOK.slot("R_CLOSE_MIN")
R_MARR_CLOSED = RULEBOOK.slot("R_MARR_CLOSED")
R_AT_CLOSE = RULEBOOK.slot("R_AT_CLOSE")
R_SCHNEIDER = RULEBOOK.slot("R_SCHNEIDER")


def max_deals(rules) -> int:
    """Most deals a match can take: every deal brings at least one game point."""
    return 2 * rules["match_points"] - 1
