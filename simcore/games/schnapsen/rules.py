"""Schnapsen rule options, presets, validation, and the kernels' rule array."""
import numpy as np

from ...options import SPEC_UNBOUNDED, Option, RuleBook

OPTIONS = (
    Option("match_points", "int", 7, "each player starts here and subtracts the game points "
           "won; reaching 0 wins the match", lo=1, hi=21, spec_hi=SPEC_UNBOUNDED),
    Option("target", "int", 66, "card points needed for a correct claim", lo=1, hi=120,
           spec_hi=SPEC_UNBOUNDED),
    Option("exchange_min_talon", "int", 2, "the trump jack may be exchanged while the open "
           "talon holds at least this many cards, the trump card included", lo=2, hi=10),
    Option("close_min_talon", "int", 2, "the talon may be closed while it holds at least this "
           "many cards, the trump card included", lo=2, hi=10),
    Option("marriage_after_close", "bool", True, "marriages may be shown after the talon is "
           "closed or used up"),
    Option("closed_scoring", "choice", "at_close", "a successful closer scores by the "
           "opponent's points and tricks at the close (at_close) or at the end (at_end)",
           choices=("at_close", "at_end")),
    Option("schneider_below", "int", 33, "a correct claim scores 2 when the opponent has "
           "fewer card points than this (and a trick)", lo=1, hi=120,
           spec_hi=SPEC_UNBOUNDED),
)

PRESETS = {
    "austrian": {},
    "tournament": {"exchange_min_talon": 4, "close_min_talon": 4},
}

RULEBOOK = RuleBook("schnapsen", OPTIONS, PRESETS)

# Layout of the kernels' rule array (int64).
R_MATCH, R_TARGET, R_EXCH_MIN, R_CLOSE_MIN, R_MARR_CLOSED, R_AT_CLOSE, R_SCHNEIDER = range(7)
RULE_FIELDS = 7


def rules_array(rules) -> np.ndarray:
    """The rule set as the small int64 array the kernels read."""
    a = np.zeros(RULE_FIELDS, dtype=np.int64)
    a[R_MATCH] = rules["match_points"]
    a[R_TARGET] = rules["target"]
    a[R_EXCH_MIN] = rules["exchange_min_talon"]
    a[R_CLOSE_MIN] = rules["close_min_talon"]
    a[R_MARR_CLOSED] = rules["marriage_after_close"]
    a[R_AT_CLOSE] = rules["closed_scoring"] == "at_close"
    a[R_SCHNEIDER] = rules["schneider_below"]
    return a


def max_deals(rules) -> int:
    """Most deals a match can take: every deal brings at least one game point."""
    return 2 * rules["match_points"] - 1
