"""Schadenfreude's observation tensor and action mask, field by field
(``simcore.observation``).

Read from the ``observe`` kernel's words (``engine.O_*``); cards are ids 0-49
(``cards.py``: suit * 12 + i, then 0W = 48 and 10W = 49). Per-seat fields have 5 slots
(the most players); seats beyond the table's are 0.
"""
from ...observation import ObsField, ObservationSpec
from .cards import N_CARDS
from .engine import (MAX_SEATS, N_ACTIONS, O_BUST, O_FOLLOW, O_HAND, O_HELD, O_LEAD, O_LEADER,
                     O_OFFSUIT, O_PILE, O_PLAYED, O_PLAYERS, O_POINTS, O_ROUND, O_SCORE, O_SEAT,
                     O_STATUS, O_TO_MOVE, O_TRICK, O_TRICK_LEADER, O_TRICK_NUM, O_TRICK_POS,
                     OBS_SIZE)

FIELDS = (
    ObsField("seat", O_SEAT, "value", "the observing seat"),
    ObsField("players", O_PLAYERS, "value", "players at the table (3-5)"),
    ObsField("round", O_ROUND, "value", "rounds scored before this one"),
    ObsField("status", O_STATUS, "value", "0 playing, 1 round over, 2 game over"),
    ObsField("to_move", O_TO_MOVE, "value", "the seat to play, -1 once the round is over"),
    ObsField("leader", O_LEADER, "value", "the round's leader"),
    ObsField("trick_leader", O_TRICK_LEADER, "value", "the current trick's leader"),
    ObsField("trick_pos", O_TRICK_POS, "value", "cards played to the current trick"),
    ObsField("trick_num", O_TRICK_NUM, "value", "tricks finished this round"),
    ObsField("hand", O_HAND, "cards", "the observer's hand"),
    ObsField("played", O_PLAYED, "cards", "every card played this round (the trick too)"),
    ObsField("lead_suit", O_LEAD, "cards", "the cards of the trick's lead suit (none yet: 0)"),
    ObsField("follow_ranks", O_FOLLOW, "value", "rank mask of the trick's followers "
             "(bit value + 3)"),
    ObsField("offsuit", O_OFFSUIT, "cards", "the trick's cards that did not follow"),
    ObsField("bust", O_BUST, "value", "bit per seat over the limit (once the round is "
             "scored)"),
    ObsField("trick", O_TRICK, "card", "per trick position: the card played there "
             "(none yet: 0)", MAX_SEATS),
    ObsField("held", O_HELD, "value", "per seat: cards left in its hand", MAX_SEATS),
    ObsField("pile", O_PILE, "cards", "per seat: its score pile (face up)", MAX_SEATS),
    ObsField("points", O_POINTS, "value", "per seat: its round points", MAX_SEATS),
    ObsField("score", O_SCORE, "value", "per seat: its running total", MAX_SEATS),
)


def standing(result) -> list[int]:
    """Each seat's standing in a finished game: 1 for the winner, else 0 (a game may
    end with no winner: then every seat stands level)."""
    return [int(p in result["winners"]) for p in range(len(result["scores"]))]


def spec(rules=None) -> ObservationSpec:
    """Schadenfreude's observation (the same size for 3, 4 and 5 players)."""
    return ObservationSpec("schadenfreude", N_CARDS, OBS_SIZE, N_ACTIONS, FIELDS, standing, "win")
