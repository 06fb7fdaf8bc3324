"""What each word of a Schnapsen state may hold (engine.py documents the words), and
the facts across words that the kernels rely on; ``Engine`` checks a state against
both before a kernel sees it (``simcore.state_check``)."""
from __future__ import annotations

from ...text import counted
from ...state_check import Field, StateSpec, mask_field, popcount
from .engine import (AFTER_LAST, FOLLOW, LEAD, N_STATE, OVER, S_CLAIMER, S_CLOSER, S_DEAL,
                     S_DEALER, S_DECK, S_EXCHANGER, S_FIRST_DEALER, S_GAME_POINTS, S_HAND,
                     S_LEAD_CARD, S_LEADER, S_MARR, S_MARRIED, S_MATCH, S_MSUITS, S_PHASE,
                     S_PLAYED, S_POINTS, S_REASON, S_RNG, S_SHOWN, S_SNAP_POINTS,
                     S_SNAP_TRICKS, S_STEP, S_TALON, S_TALON_LEFT, S_TRICKS, S_TRUMP,
                     S_TRUMP_CARD, S_VOID, S_WINNER, T_MARRIED)

DECK = (1 << 20) - 1
SEAT = dict(lo=0, hi=1, what="a seat, 0 or 1")
SEAT_OR_NONE = dict(lo=-1, hi=1, what="a seat (0 or 1), or -1 for none")
MAX_HAND = 5


def fields(rules) -> list[Field]:
    """The state's words under ``rules``, each with what it may hold."""
    return [
        mask_field("hand", S_HAND, DECK, 2, "a card mask within the 20-card deck"),
        Field("talon", S_TALON, 1, 0, (1 << 45) - 1, what="9 packed 5-bit cards, 0 to 2**45 - 1"),
        Field("talon_left", S_TALON_LEFT, 1, 0, 10),
        Field("trump_card", S_TRUMP_CARD, 1, 0, 19, what="a card, 0 to 19"),
        Field("trump", S_TRUMP, 1, 0, 3, what="a suit, 0 to 3"),
        Field("leader", S_LEADER, **SEAT),
        Field("phase", S_PHASE, 1, 0, 3, what="LEAD, FOLLOW, AFTER_LAST or OVER (0 to 3)"),
        Field("step", S_STEP, 1, 0, 3, what="T_START to T_MARRIED (0 to 3)"),
        Field("married", S_MARRIED, 1, -1, 3, what="a suit (0 to 3), or -1"),
        Field("lead_card", S_LEAD_CARD, 1, -1, 19, what="a card (0 to 19), or -1"),
        Field("points", S_POINTS, 2, 0, 120, what="card points, 0 to 120"),
        Field("marriage_points", S_MARR, 2, 0, 100, what="marriage points, 0 to 100"),
        Field("tricks", S_TRICKS, 2, 0, 10),
        Field("closer", S_CLOSER, **SEAT_OR_NONE),
        Field("snap_points", S_SNAP_POINTS, 1, 0, 220),
        Field("snap_tricks", S_SNAP_TRICKS, 1, 0, 10),
        mask_field("played", S_PLAYED, DECK, 1, "a card mask within the 20-card deck"),
        mask_field("shown", S_SHOWN, DECK, 2, "a card mask within the 20-card deck"),
        mask_field("void", S_VOID, DECK, 2, "a card mask within the 20-card deck"),
        Field("marriage_suits", S_MSUITS, 2, 0, 15, what="a suit mask, 0 to 15"),
        Field("exchanger", S_EXCHANGER, **SEAT_OR_NONE),
        Field("claimer", S_CLAIMER, **SEAT_OR_NONE),
        Field("winner", S_WINNER, **SEAT_OR_NONE),
        Field("game_points", S_GAME_POINTS, 1, 0, 2**31),
        Field("reason", S_REASON, 1, -1, 4, what="how the deal ended (0 to 4), or -1"),
        Field("rng", S_RNG),
        Field("dealer", S_DEALER, **SEAT),
        Field("first_dealer", S_FIRST_DEALER, **SEAT),
        Field("match", S_MATCH, 2, -3, int(rules["match_points"]),
              what=f"match points still needed, -3 to {rules['match_points']}"),
        Field("deal", S_DEAL, 1, 0, 2**40),
        Field("deck", S_DECK, 20, 0, 19, what="a card, 0 to 19"),
    ]


def consistency(w: list[int]) -> str | None:
    """What is inconsistent in the state words ``w`` (already in range), or None."""
    left = w[S_TALON_LEFT]
    if left % 2 or left == 1:
        return f"field talon_left is {left}; a talon holds 10, 8, 6, 4, 2 or 0 cards"
    down = left - 1 if left else 0
    packed = w[S_TALON]
    if packed >> (5 * down):
        return f"field talon holds cards beyond the {down} that talon_left counts"
    talon = 0
    for k in range(down):
        c = packed >> (5 * k) & 31
        if c >= 20 or talon >> c & 1:
            return f"field talon holds card {c} twice or a card that is not in the deck"
        talon |= 1 << c
    h0, h1, played = w[S_HAND], w[S_HAND + 1], w[S_PLAYED]
    trump = 1 << w[S_TRUMP_CARD] if left else 0
    places = (h0, h1, talon, trump, played)
    total = 0
    for m in places:
        if total & m:
            return ("a card is in two places (the hands, the talon, the trump card and the "
                    "played cards must not share one)")
        total |= m
    # (what a position built by hand may leave open -- a card nowhere, hand sizes,
    # the phase against the counts -- is the rules' business, not the kernels': they
    # index by the talon and the cards, which are checked above)
    n = (popcount(h0), popcount(h1))
    if max(n) > MAX_HAND:
        return f"field hand holds {counted(max(n), 'card')}; a hand holds at most {MAX_HAND}"
    return None


def state_spec(rules) -> StateSpec:
    """The Schnapsen ``StateSpec`` under ``rules``."""
    return StateSpec("schnapsen", N_STATE, fields(rules), consistency)
