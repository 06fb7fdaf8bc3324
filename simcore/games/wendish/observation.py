"""Wendish Schafkopf's observation tensor and action mask, field by field
(``simcore.observation``).

Read from the ``observe`` kernel's words (engine.py documents the ``O_*`` layout);
cards are ids 0-31 (``cards.py``). Per-seat fields have 4 slots; seats beyond the
table's are 0.
"""
from ...observation import ObsField, ObservationSpec
from .cards import N_CARDS
from .engine import (N_ACTIONS, O_CALLED, O_CALLED_BY, O_CONTRACT, O_COUNT, O_COVERED,
                     O_DEAL, O_DEALER, O_DECLARER, O_DISCARDS, O_FIRST_TRICK, O_HAND,
                     O_LEADER, O_LUST_N, O_N, O_NDISCARDS, O_PHASE, O_PLAYED, O_PLAYED_BY,
                     O_POINTS, O_QC_BY, O_QS_BY, O_SCORES, O_SEAT, O_SKAT, O_TAKER,
                     O_TEAM0, O_TEAMS_KNOWN, O_TO_MOVE, O_TRICK, O_TRICK_N, O_TRICK_PTS,
                     O_TRICKS, O_TRICKS_DONE, O_TRUMP, O_UP, O_VARIANT, O_VOID, O_WIN_CARD,
                     O_WIN_SEAT, OBS_SIZE)

FIELDS = (
    ObsField("seat", O_SEAT, "value", "the observing seat"),
    ObsField("players", O_N, "value", "players at the table"),
    ObsField("variant", O_VARIANT, "value", "the variant: its index in cards.VARIANTS"),
    ObsField("deal", O_DEAL, "value", "number of the deal in play, from 0"),
    ObsField("dealer", O_DEALER, "value", "the deal's dealer"),
    ObsField("phase", O_PHASE, "value", "0 pickup, 1 discard, 2 lust, 3 old ones, 4 play, "
             "5 done, as this seat sees it"),
    ObsField("to_move", O_TO_MOVE, "value", "the seat to act as this seat sees it (-1 unknown "
             "or over)"),
    ObsField("hand", O_HAND, "cards", "own hand (Officers: own face-up cards)"),
    ObsField("skat", O_SKAT, "cards", "the skat, for its taker once picked up"),
    ObsField("taker", O_TAKER, "value", "who took (or takes) the skat, -1 without one"),
    ObsField("discards", O_DISCARDS, "cards", "the discards, for the taker only"),
    ObsField("n_discards", O_NDISCARDS, "value", "how many cards were put away"),
    ObsField("lust_n", O_LUST_N, "value", "Lust Solo decisions made so far"),
    ObsField("contract", O_CONTRACT, "value", "0 normal, 1 wedding, 2 quiet solo, 3 solo, as "
             "this seat knows it"),
    ObsField("declarer", O_DECLARER, "value", "the declarer as known to this seat, else -1"),
    ObsField("trump", O_TRUMP, "value", "the trump suit"),
    ObsField("called", O_CALLED, "card", "the card a wedding calls (none: 0)"),
    ObsField("first_trick", O_FIRST_TRICK, "value", "1 for a wedding decided by the first trick"),
    ObsField("teams_known", O_TEAMS_KNOWN, "value", "1 when this seat knows the sides"),
    ObsField("team0", O_TEAM0, "value", "the first team's seat mask when known, else 0"),
    ObsField("called_by", O_CALLED_BY, "value", "who played the called card (-1 not yet)"),
    ObsField("qc_by", O_QC_BY, "value", "who played the queen of clubs (-1 not yet)"),
    ObsField("qs_by", O_QS_BY, "value", "who played the queen of spades (-1 not yet)"),
    ObsField("played", O_PLAYED, "cards", "every card played, the current trick included"),
    ObsField("leader", O_LEADER, "value", "the current trick's leader"),
    ObsField("trick_n", O_TRICK_N, "value", "cards in the current trick"),
    ObsField("trick", O_TRICK, "card", "per trick position: its card (none yet: 0)", 4),
    ObsField("win_seat", O_WIN_SEAT, "value", "who holds the trick so far, -1 none"),
    ObsField("win_card", O_WIN_CARD, "card", "the card holding the trick"),
    ObsField("trick_points", O_TRICK_PTS, "value", "card points in the trick"),
    ObsField("tricks_done", O_TRICKS_DONE, "value", "tricks completed"),
    ObsField("count", O_COUNT, "value", "per seat: cards in its hand", 4),
    ObsField("up", O_UP, "cards", "Officers: per seat its face-up cards; else 0", 2),
    ObsField("covered", O_COVERED, "cards", "Officers: face-up cards lying on a face-down "
             "card"),
    ObsField("points", O_POINTS, "value", "per seat: card points taken in tricks", 4),
    ObsField("tricks", O_TRICKS, "value", "per seat: tricks taken", 4),
    ObsField("scores", O_SCORES, "value", "per seat: running score", 4),
    ObsField("played_by", O_PLAYED_BY, "cards", "per seat: the cards it played this deal", 4),
    ObsField("void", O_VOID, "cards", "per seat: cards it is known not to hold", 4),
)


def standing(result) -> list[int]:
    """Each seat's standing in a finished game: its score (zero-sum, higher is better)."""
    return [int(x) for x in result["scores"]]


def spec(rules=None) -> ObservationSpec:
    """Wendish Schafkopf's observation (the same size in every variant)."""
    return ObservationSpec("wendish", N_CARDS, OBS_SIZE, N_ACTIONS, FIELDS, standing, "score")
