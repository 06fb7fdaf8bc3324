"""Wendish Schafkopf rule options, presets, validation, and the kernels' rule array."""
from ...errors import RulesError
from ...options import INT64_MAX, SPEC_UNBOUNDED, Derived, Option, RuleBook
from .cards import SUITS, VARIANT_PLAYERS, VARIANTS

SUIT_CHOICES = ("D", "C", "S", "H")

#: bound on each tariff option (base, schneider, schwarz, solo_base)
TARIFF_MAX = 10**12
#: bound on the largest score a game can bring a seat (see ``max_game_score``): far
#: inside int64, which the kernels add scores in, and inside the integers float64
#: (the summaries' sums) holds exactly
GAME_SCORE_MAX = 10**15


def variant_index(rules) -> int:
    """The index of a rule set's variant in ``VARIANTS`` (the kernels' variant number,
    which indexes the ``VARIANT_*`` tables of cards.py)."""
    return VARIANTS.index(rules["variant"])


def is_officers(rules) -> bool:
    """Whether a rule set plays the two-player Officers' game (face-up cards)."""
    return rules["variant"] == "officers"


def seats_of(rules) -> int:
    """Number of players of a rule set."""
    return VARIANT_PLAYERS[variant_index(rules)]


def _solo_suits_mask(suits) -> int:
    """``solo_suits`` in its slot: a 4-bit mask over the suit indices C S H D."""
    m = 0
    for s in suits:
        m |= 1 << SUITS.index(s)
    return m


def _default_deals(v):
    return VARIANT_PLAYERS[VARIANTS.index(v.get("variant", "four"))]


OPTIONS = (
    Option("variant", "choice", "four",
           "four (4 players, 8 cards each), three (Dreiwendsch, 10 each and a skat of 2), "
           "three_sharp (20 cards A T K Q J, 6 each and a skat of 2), officers (2 players, "
           "8 face-up cards on 8 face-down each)", choices=VARIANTS, slot="R_VARIANT"),
    Option("deals", "int", _default_deals, "deals in one game (default: the number of "
           "players, so every seat deals once)", lo=1, hi=1000, spec_hi=SPEC_UNBOUNDED,
           slot="R_DEALS"),
    Option("lust_solo", "bool", True, "a Lust Solo may be announced before the Old Ones' "
           "choice", slot="R_LUST"),
    Option("solo_suits", "choice_list", SUIT_CHOICES, "trump suits a Lust Solo may name",
           choices=SUIT_CHOICES, slot="R_SOLO_SUITS", encode=_solo_suits_mask),
    Option("wedding_deadline", "int", 3, "wedding first_trick: the first other player to win "
           "one of this many first tricks is the partner, else the caller plays alone",
           lo=1, hi=16, spec_hi=SPEC_UNBOUNDED, slot="R_DEADLINE"),
    Option("schneider_below", "int", 30, "a side with fewer card points than this is "
           "Schneider", lo=1, hi=120, spec_hi=SPEC_UNBOUNDED,
           slot="R_SCHNEIDER_BELOW"),
    Option("base", "int", 1, "value of a normal game or wedding", lo=1, hi=TARIFF_MAX,
           spec_hi=SPEC_UNBOUNDED, slot="R_BASE"),
    Option("schneider", "int", 1, "added when the losers are Schneider", lo=0, hi=TARIFF_MAX,
           spec_hi=SPEC_UNBOUNDED, slot="R_SCHNEIDER"),
    Option("schwarz", "int", 1, "added when the losers took no trick", lo=0, hi=TARIFF_MAX,
           spec_hi=SPEC_UNBOUNDED, slot="R_SCHWARZ"),
    Option("solo_base", "int", 2, "value of a solo (Lust Solo or quiet solo)", lo=1,
           hi=TARIFF_MAX, spec_hi=SPEC_UNBOUNDED, slot="R_SOLO_BASE"),
)

PRESETS = {
    "standard": {},
    "dreiwendsch": {"variant": "three"},
    "sharp": {"variant": "three_sharp"},
    "officers": {"variant": "officers"},
}


def max_game_score(v) -> int:
    """The largest score one seat can win or lose in a game under the values ``v``:
    every deal at the highest tariff, paid by a lone player to all the others."""
    seats = seats_of(v)
    value = max(v["base"], v["solo_base"]) + v["schneider"] + v["schwarz"]
    return v["deals"] * (seats - 1) * value


def _check(v, spec: bool = False):
    """Tricksim's own runs keep every game score within GAME_SCORE_MAX (exact in the
    summaries' float64 sums); replay (``spec``) takes any tariff the rule spec allows
    whose scores the kernels' int64 arithmetic holds."""
    top = max_game_score(v)
    bound = INT64_MAX if spec else GAME_SCORE_MAX
    if top > bound:
        raise RulesError(
            f"options deals, base, solo_base, schneider and schwarz allow a game score of "
            f"{top:,} = deals {v['deals']} x {seats_of(v) - 1} opponents x "
            f"(max(base, solo_base) + schneider + schwarz); allowed: at most "
            f"{bound:,}" + (" (the 64-bit limit of the kernels' scores)" if spec else ""))


#: each variant's name selects its preset too (``--preset three_sharp`` is ``sharp``)
PRESET_ALIASES = {"four": "standard", "three": "dreiwendsch", "three_sharp": "sharp"}

#: the kernels' rule array: the options' slots and the seats, in the kernels' order
DERIVED = (Derived("R_PLAYERS", seats_of, "number of players (from the variant)"),)
LAYOUT = ("R_VARIANT", "R_PLAYERS", "R_DEALS", "R_LUST", "R_SOLO_SUITS", "R_DEADLINE",
          "R_SCHNEIDER_BELOW", "R_BASE", "R_SCHNEIDER", "R_SCHWARZ", "R_SOLO_BASE")

RULEBOOK = RuleBook("wendish", OPTIONS, PRESETS, _check, aliases=PRESET_ALIASES,
                    derived=DERIVED, layout=LAYOUT)

# The kernels' rule array, generated from the declared slots
rules_array = RULEBOOK.rules_array
RULE_FIELDS = len(RULEBOOK.slots)
R_VARIANT = RULEBOOK.slot("R_VARIANT")
R_PLAYERS = RULEBOOK.slot("R_PLAYERS")
R_DEALS = RULEBOOK.slot("R_DEALS")
R_LUST = RULEBOOK.slot("R_LUST")
R_SOLO_SUITS = RULEBOOK.slot("R_SOLO_SUITS")
R_DEADLINE = RULEBOOK.slot("R_DEADLINE")
R_SCHNEIDER_BELOW = RULEBOOK.slot("R_SCHNEIDER_BELOW")
R_BASE = RULEBOOK.slot("R_BASE")
R_SCHNEIDER = RULEBOOK.slot("R_SCHNEIDER")
R_SCHWARZ = RULEBOOK.slot("R_SCHWARZ")
R_SOLO_BASE = RULEBOOK.slot("R_SOLO_BASE")
