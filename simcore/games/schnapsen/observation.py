"""Schnapsen's observation tensor and action mask, field by field (``simcore.observation``).

Read from the ``observe`` kernel's words (``engine.OBS_FIELDS``); cards are ids 0-19
(``cards.py``: suit * 5 + rank, ranks J Q K 10 A).
"""
from ...observation import ObsField, ObservationSpec
from .cards import N_CARDS
from .engine import (N_ACTIONS, N_OBS, O_CLOSER, O_DEAL, O_DEALER, O_EXCHANGER,
                     O_GAME_POINTS, O_HAND, O_LEAD_CARD, O_LEADER, O_MARR, O_MARRIED, O_MATCH,
                     O_MSUITS, O_OPP_KNOWN, O_OPP_VOID, O_PHASE, O_PLAYED, O_POINTS, O_REASON,
                     O_SEAT, O_SNAP_POINTS, O_SNAP_TRICKS, O_STEP, O_TALON, O_TO_MOVE, O_TRICKS,
                     O_TRUMP, O_TRUMP_CARD, O_WINNER, OBS_FIELDS)

_DOC = dict(OBS_FIELDS)

FIELDS = (
    ObsField("seat", O_SEAT, "value", _DOC["seat"]),
    ObsField("to_move", O_TO_MOVE, "value", _DOC["to_move"]),
    ObsField("phase", O_PHASE, "value", "0 lead, 1 follow, 2 after the last trick, 3 over"),
    ObsField("step", O_STEP, "value", "0 start of the turn to lead, 1 exchanged, 2 closed, "
             "3 married"),
    ObsField("married", O_MARRIED, "value", "suit (0-3) of the marriage just shown, else -1"),
    ObsField("lead_card", O_LEAD_CARD, "card", "the card led to the trick in play (none: 0)"),
    ObsField("leader", O_LEADER, "value", _DOC["leader"]),
    ObsField("dealer", O_DEALER, "value", _DOC["dealer"]),
    ObsField("hand", O_HAND, "cards", "the observer's hand"),
    ObsField("trump", O_TRUMP, "value", "the trump suit, 0-3"),
    ObsField("trump_card", O_TRUMP_CARD, "card", "the card under the talon (face up); 0 once "
             "the talon is used up"),
    ObsField("talon", O_TALON, "value", _DOC["talon"]),
    ObsField("closer", O_CLOSER, "value", _DOC["closer"]),
    ObsField("played", O_PLAYED, "cards", _DOC["played"]),
    ObsField("opp_known", O_OPP_KNOWN, "cards", _DOC["opp_known"]),
    ObsField("opp_void", O_OPP_VOID, "cards", _DOC["opp_void"]),
    ObsField("marriages", O_MSUITS, "value", "per seat: bit per suit of the marriages it "
             "showed this deal", 2),
    ObsField("exchanger", O_EXCHANGER, "value", _DOC["exchanger"]),
    ObsField("points", O_POINTS, "value", "per seat: card points of its tricks", 2),
    ObsField("marriage_points", O_MARR, "value", "per seat: marriage points it showed", 2),
    ObsField("tricks", O_TRICKS, "value", "per seat: tricks it took", 2),
    ObsField("snap_points", O_SNAP_POINTS, "value", _DOC["snap_points"]),
    ObsField("snap_tricks", O_SNAP_TRICKS, "value", _DOC["snap_tricks"]),
    ObsField("match", O_MATCH, "value", "per seat: match points it still needs", 2),
    ObsField("deal", O_DEAL, "value", _DOC["deal"]),
    ObsField("winner", O_WINNER, "value", _DOC["winner"]),
    ObsField("game_points", O_GAME_POINTS, "value", _DOC["game_points"]),
    ObsField("reason", O_REASON, "value", "how the deal ended (0-4, engine.REASONS), else -1"),
)


def standing(result) -> list[int]:
    """Each seat's standing in a decided match: 1 for the winner, 0 for the loser."""
    return [int(result["winner"] == p) for p in range(2)]


def spec(rules=None) -> ObservationSpec:
    """Schnapsen's observation (the same under every rule set)."""
    return ObservationSpec("schnapsen", N_CARDS, N_OBS, N_ACTIONS, FIELDS, standing, "win")
