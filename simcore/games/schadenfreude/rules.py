"""Schadenfreude rule options, presets, validation, and the kernels' rule array."""
from ...errors import RulesError
from ...options import SPEC_UNBOUNDED, SPEC_UNBOUNDED_LOW, Derived, Option, RuleBook, equals
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


def _floor_value(floor) -> int:
    """``floor`` in its slot: the integer, 0 for none (R_FLOOR_ON tells them apart)."""
    return 0 if floor == "none" else floor


OPTIONS = (
    Option("players", "int", 4, "number of players", lo=3, hi=5, slot="R_PLAYERS"),
    Option("values", "int_list", _default_values,
           "number values in the deck (4-5 players: all twelve; 3 players: -3 1..8)",
           choices=ALL_VALUES, slot="R_DECK", encode=deck_mask),
    Option("hand_size", "int", _default_hand_size,
           "cards per hand (5 players 10, else 12); cards left over are set aside unseen",
           lo=1, hi=50, slot="R_HAND"),
    Option("limit", "int", 40, "a cumulative score above this is bust; exactly it is allowed",
           lo=1, hi=SCORE_BOUND, spec_hi=SPEC_UNBOUNDED, slot="R_LIMIT"),
    Option("pairs", "choice", "cancel",
           "cancel: a collected value already in the pile discards both; keep: no cancelling",
           choices=("cancel", "keep"), slot="R_CANCEL", encode=equals("cancel")),
    Option("floor", "int_or", 0,
           "cumulative score never drops below this (an integer below limit), or none",
           choices=("none",), lo=-SCORE_BOUND, hi=SCORE_BOUND, spec_lo=SPEC_UNBOUNDED_LOW,
           spec_hi=SPEC_UNBOUNDED, slot="R_FLOOR", encode=_floor_value),
    Option("first_leader", "choice", "random", "leader of the first round",
           choices=("random", "seat0"), slot="R_SEAT0_FIRST", encode=equals("seat0")),
    Option("tie_lead", "choice", "random",
           "later rounds the lowest score leads; among tied: random, or after_last (first "
           "tied seat after the previous round's leader, that leader last)",
           choices=("random", "after_last"), slot="R_AFTER_LAST",
           encode=equals("after_last")),
    Option("all_bust", "choice", "none",
           "everybody bust: none (no winner) or highest (the highest unique score wins)",
           choices=("none", "highest"), slot="R_ALL_BUST_HIGHEST",
           encode=equals("highest")),
    Option("max_rounds", "int", 200, "a game still running after this many rounds ends "
           "unfinished", lo=1, hi=100000, spec_hi=SPEC_UNBOUNDED,
           slot="R_MAX_ROUNDS"),
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


#: the kernels' rule array: the options' slots, one derived slot, in the kernels' order
DERIVED = (Derived("R_FLOOR_ON", lambda v: v["floor"] != "none", "1 when floor is not none"),)
LAYOUT = ("R_PLAYERS", "R_HAND", "R_LIMIT", "R_CANCEL", "R_FLOOR_ON", "R_FLOOR",
          "R_SEAT0_FIRST", "R_AFTER_LAST", "R_ALL_BUST_HIGHEST", "R_MAX_ROUNDS", "R_DECK")

RULEBOOK = RuleBook("schadenfreude", OPTIONS, PRESETS, _check, derived=DERIVED,
                    layout=LAYOUT)

# The kernels' rule array, generated from the declared slots
rules_array = RULEBOOK.rules_array
RULE_FIELDS = len(RULEBOOK.slots)
R_PLAYERS = RULEBOOK.slot("R_PLAYERS")
R_HAND = RULEBOOK.slot("R_HAND")
R_LIMIT = RULEBOOK.slot("R_LIMIT")
R_CANCEL = RULEBOOK.slot("R_CANCEL")
R_FLOOR_ON = RULEBOOK.slot("R_FLOOR_ON")
R_FLOOR = RULEBOOK.slot("R_FLOOR")
R_SEAT0_FIRST = RULEBOOK.slot("R_SEAT0_FIRST")
R_AFTER_LAST = RULEBOOK.slot("R_AFTER_LAST")
R_ALL_BUST_HIGHEST = RULEBOOK.slot("R_ALL_BUST_HIGHEST")
R_MAX_ROUNDS = RULEBOOK.slot("R_MAX_ROUNDS")
R_DECK = RULEBOOK.slot("R_DECK")
