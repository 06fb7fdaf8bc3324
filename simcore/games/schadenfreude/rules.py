"""Schadenfreude rule options, presets, validation, and the kernels' rule array."""
import numpy as np

from ...errors import RulesError
from ...options import SPEC_UNBOUNDED, SPEC_UNBOUNDED_LOW, Option, RuleBook
from .cards import ALL_VALUES, deck_mask

THREE_PLAYER_VALUES = (-3, 1, 2, 3, 4, 5, 6, 7, 8)

#: bound on ``limit`` and ``floor`` in tricksim's own runs: a round moves a score by at
#: most 190 points and a game lasts at most 100,000 rounds, so no reachable score comes
#: near it (larger values would play the same games).  Replay takes the rule spec's
#: range (any integer the kernels' int64 holds): the kernels only compare scores with
#: them, and a record's scores stay far inside int64
SCORE_BOUND = 10**9


def _default_values(v):
    return THREE_PLAYER_VALUES if v.get("players", 4) == 3 else ALL_VALUES


def _default_hand_size(v):
    return 10 if v.get("players", 4) == 5 else 12


OPTIONS = (
    Option("players", "int", 4, "number of players", lo=3, hi=5),
    Option("values", "int_list", _default_values,
           "number values in the deck (4-5 players: all twelve; 3 players: -3 1..8)",
           choices=ALL_VALUES),
    Option("hand_size", "int", _default_hand_size,
           "cards per hand (5 players 10, else 12); cards left over are set aside unseen",
           lo=1, hi=50),
    Option("limit", "int", 40, "a cumulative score above this is bust; exactly it is allowed",
           lo=1, hi=SCORE_BOUND, spec_hi=SPEC_UNBOUNDED),
    Option("pairs", "choice", "cancel",
           "cancel: a collected value already in the pile discards both; keep: no cancelling",
           choices=("cancel", "keep")),
    Option("floor", "int_or", 0,
           "cumulative score never drops below this (an integer below limit), or none",
           choices=("none",), lo=-SCORE_BOUND, hi=SCORE_BOUND, spec_lo=SPEC_UNBOUNDED_LOW,
           spec_hi=SPEC_UNBOUNDED),
    Option("first_leader", "choice", "random", "leader of the first round",
           choices=("random", "seat0")),
    Option("tie_lead", "choice", "random",
           "later rounds the lowest score leads; among tied: random, or after_last (first "
           "tied seat after the previous round's leader, that leader last)",
           choices=("random", "after_last")),
    Option("all_bust", "choice", "none",
           "everybody bust: none (no winner) or highest (the highest unique score wins)",
           choices=("none", "highest")),
    Option("max_rounds", "int", 200, "a game still running after this many rounds ends "
           "unfinished", lo=1, hi=100000, spec_hi=SPEC_UNBOUNDED),
)

PRESETS = {
    "standard": {},
    "summary-de": {"all_bust": "highest", "tie_lead": "after_last"},
}


def _check(v):
    deck = len(v["values"]) * 4 + 2
    if v["players"] * v["hand_size"] > deck:
        raise RulesError(
            f"players × hand_size = {v['players']} × {v['hand_size']} = "
            f"{v['players'] * v['hand_size']} exceeds the deck of {deck} cards; allowed: "
            f"hand_size at most {deck // v['players']}")
    if v["floor"] != "none" and v["floor"] >= v["limit"]:
        raise RulesError(f"option 'floor': {v['floor']} is not allowed; allowed: an integer "
                         f"below limit ({v['limit']}) or none")


RULEBOOK = RuleBook("schadenfreude", OPTIONS, PRESETS, _check)

# Layout of the kernels' rule array (int64).
R_PLAYERS, R_HAND, R_LIMIT, R_CANCEL, R_FLOOR_ON, R_FLOOR, R_SEAT0_FIRST, \
    R_AFTER_LAST, R_ALL_BUST_HIGHEST, R_MAX_ROUNDS, R_DECK = range(11)
RULE_FIELDS = 11


def rules_array(rules) -> np.ndarray:
    """The rule set as the small int64 array the kernels read."""
    a = np.zeros(RULE_FIELDS, dtype=np.int64)
    a[R_PLAYERS] = rules["players"]
    a[R_HAND] = rules["hand_size"]
    a[R_LIMIT] = rules["limit"]
    a[R_CANCEL] = rules["pairs"] == "cancel"
    a[R_FLOOR_ON] = rules["floor"] != "none"
    a[R_FLOOR] = 0 if rules["floor"] == "none" else rules["floor"]
    a[R_SEAT0_FIRST] = rules["first_leader"] == "seat0"
    a[R_AFTER_LAST] = rules["tie_lead"] == "after_last"
    a[R_ALL_BUST_HIGHEST] = rules["all_bust"] == "highest"
    a[R_MAX_ROUNDS] = rules["max_rounds"]
    a[R_DECK] = np.int64(deck_mask(rules["values"]))
    return a
