"""Schnapsen rules as worked examples: scoring, follow rules, limits, the turn to lead.

Each example runs through the engine's kernels (engine.py: ``start_deal``,
``legal_actions``, ``apply_action``) via ``Deal`` below, which applies record items
and, for a refused one, gives the reason replay would print (api.why_illegal).
Where an example needs a position deep in a deal, the test sets the state's
counters (points, tricks) and says so.  The scoring kernels are also checked directly.
"""
from __future__ import annotations

import numpy as np
import pytest

from simcore.errors import RulesError
from simcore.games.schnapsen.api import Engine, why_illegal
from simcore.games.schnapsen.cards import card_name, mask_cards, mask_of, parse_card
from simcore.games.schnapsen.engine import (
    AFTER_LAST, CLAIM, FAILED_CLOSE, LAST_TRICK, LEAD, N_STATE, RESIGN, S_HAND, S_LEADER,
    S_MARR, S_MARRIED, S_MATCH, S_PHASE, S_POINTS, S_SNAP_POINTS, S_SNAP_TRICKS, S_STEP,
    S_TALON_LEFT, S_TRICKS, S_TRUMP_CARD, S_WINNER, S_GAME_POINTS, S_REASON, T_START,
    WRONG_CLAIM, apply_sequence, follow_mask, follower_wins, marriage_suits, score_claim,
    score_run_out, start_deal, to_move)
from simcore.games.schnapsen.records import finish_deal, pack_talon, parse_item
from simcore.games.schnapsen.rules import RULEBOOK

AUSTRIAN = RULEBOOK.build()
H = 2  # hearts, the trump suit of the deal below


def m(*names) -> int:
    return mask_of(parse_card(x) for x in names)


def cards(mask) -> set[str]:
    return {card_name(c) for c in mask_cards(int(mask))}


class Deal:
    """A deal in the engine, driven by record items (names, not codes)."""

    def __init__(self, rules, dealer, hands, trump_card, talon, needed):
        self.eng = Engine(rules)
        self.rules = rules
        self.st = np.zeros(N_STATE, np.int64)
        self.st[S_MATCH], self.st[S_MATCH + 1] = needed
        start_deal(self.eng.r, self.st, dealer, m(*hands[0]), m(*hands[1]),
                   parse_card(trump_card), pack_talon(parse_card(c) for c in talon.split()))

    def apply(self, seat, verb, arg=None):
        """None if legal (then applied), else the rule it breaks."""
        item = [seat, verb] + ([arg] if arg is not None else [])
        seat, verb, a, code = parse_item(item)
        if apply_sequence(self.eng.r, self.st, np.array([seat]), np.array([code]), 1) == 1:
            return None
        return why_illegal(self.rules, self.st, seat, verb, a)

    def finish(self):
        return finish_deal(self.eng.r, self.st)

    def __getattr__(self, name):
        st = self.__dict__["st"]
        two = {"points": S_POINTS, "tricks": S_TRICKS, "marriages": S_MARR, "hands": S_HAND}
        if name in two:
            return [int(st[two[name]]), int(st[two[name] + 1])]
        one = {"phase": S_PHASE, "leader": S_LEADER, "snap_points": S_SNAP_POINTS,
               "snap_tricks": S_SNAP_TRICKS, "trump_card": S_TRUMP_CARD}
        if name in one:
            return int(st[one[name]])
        raise AttributeError(name)

    @property
    def result(self):
        st = self.st
        return (int(st[S_WINNER]), int(st[S_GAME_POINTS]), int(st[S_REASON]))

    def counted(self, seat):
        return self.points[seat] + (self.marriages[seat] if self.tricks[seat] else 0)

    def end(self):
        return self.eng.deal_end(self.st)

    def to_act(self):
        return int(to_move(self.st))

    def legal_cards(self):
        return {card_name(a) for a in self.eng.legal(self.st) if a < 20}


def deal(rules=AUSTRIAN, needed=(7, 7)) -> Deal:
    """Seat 1 deals, so seat 0 leads; hearts are trumps (AH face up).

    seat 0: AC TC KC QC JS (the club marriage)   seat 1: AS TS KS QS JD
    talon, drawn from the front: TH KH QH JH AD TD KD QD JC
    """
    return Deal(rules, 1, [("AC", "TC", "KC", "QC", "JS"), ("AS", "TS", "KS", "QS", "JD")],
                "AH", "TH KH QH JH AD TD KD QD JC", needed)


def act(st, seat, verb, arg=None):
    reason = st.apply(seat, verb, arg)
    assert reason is None, reason


def refused(st, seat, verb, arg=None) -> str:
    reason = st.apply(seat, verb, arg)
    assert reason is not None, f"{verb} should be refused"
    return reason


def at_lead(st, seat, points, tricks, marriages=(0, 0)):
    """Put ``seat`` on lead right after winning a trick, with these counters (set directly)."""
    s = st.st
    s[S_LEADER], s[S_PHASE], s[S_STEP], s[S_MARRIED] = seat, LEAD, T_START, -1
    s[S_POINTS:S_POINTS + 2] = points
    s[S_TRICKS:S_TRICKS + 2] = tricks
    s[S_MARR:S_MARR + 2] = marriages


# ----- claims -----------------------------------------------------------------
@pytest.mark.parametrize("opp_points, opp_tricks, game_points", [
    (40, 2, 1),   # opponent has 33 or more: 1
    (33, 1, 1),   # exactly schneider_below is not Schneider
    (32, 1, 2),   # fewer than 33 with a trick: 2
    (0, 0, 3),    # no trick at all: 3
])
def test_correct_claim_scores_1_2_3(opp_points, opp_tricks, game_points):
    st = deal()
    at_lead(st, 0, (66, opp_points), (3, opp_tricks))
    act(st, 0, "claim")
    assert st.result == (0, game_points, CLAIM)
    assert score_claim(0, 66, 66, -1, True, opp_points, opp_tricks, 0, 0, 33) == \
        (0, game_points, CLAIM)


def test_claim_three_when_opponent_has_only_a_marriage_without_trick():
    st = deal()
    at_lead(st, 0, (70, 0), (4, 0), marriages=(0, 40))
    assert st.counted(1) == 0  # the 40 is pending: no trick
    act(st, 0, "claim")
    assert st.result == (0, 3, CLAIM)
    assert st.end()["card_points"] == [70, 0]


def test_wrong_claim_gives_two_or_three():
    st = deal()
    at_lead(st, 0, (60, 30), (3, 2))
    act(st, 0, "claim")
    assert st.result == (1, 2, WRONG_CLAIM)
    st = deal()
    at_lead(st, 0, (65, 0), (5, 0))  # opponent without a trick: 3
    act(st, 0, "claim")
    assert st.result == (1, 3, WRONG_CLAIM)


def test_marriage_points_wait_for_a_trick():
    # seat 0 shows the club marriage at the first lead and claims at once: 20 pending,
    # 0 counted -> wrong claim; seat 1 has no trick -> 3
    st = deal()
    act(st, 0, "marriage", "C")
    assert st.counted(0) == 0
    act(st, 0, "claim")
    assert st.result == (1, 3, WRONG_CLAIM)
    # the same marriage counts once seat 0 takes a trick: QC beats JD (no duty yet)
    st = deal()
    act(st, 0, "marriage", "C")
    act(st, 0, "play", "QC")
    act(st, 1, "play", "JD")
    assert st.tricks == [1, 0] and st.points == [5, 0]
    assert st.counted(0) == 25
    # the winner drew TH first, the loser KH
    assert "TH" in cards(st.hands[0]) and "KH" in cards(st.hands[1])


def test_marriage_in_trumps_is_forty():
    st = Deal(AUSTRIAN, 1, [("KH", "QH", "AC", "TC", "JS"), ("AS", "TS", "KS", "QS", "JD")],
              "AH", "TH JH KC QC AD TD KD QD JC", (7, 7))
    act(st, 0, "marriage", "H")
    assert st.marriages == [40, 0]


# ----- closing ------------------------------------------------------------------
def test_failed_close_by_running_out_gives_three_when_opponent_had_no_trick():
    # seat 0 closes before the first trick; nobody holds a trump; seat 0 takes four tricks
    # (13 + 13 + 8 + 13 = 47 points) but never 66, and seat 1 takes the last (13).
    st = deal()
    act(st, 0, "close")
    for lead, answer in [("AC", "JD"), ("TC", "QS"), ("KC", "KS"), ("QC", "TS")]:
        act(st, 0, "play", lead)
        act(st, 1, "play", answer)
    act(st, 0, "play", "JS")
    assert st.apply(1, "play", "AS") is None
    assert st.phase == AFTER_LAST and st.points == [47, 13]
    assert st.finish() is None
    assert st.result == (1, 3, FAILED_CLOSE)
    assert score_run_out(1, 0, 0) == (1, 3, FAILED_CLOSE)
    assert score_run_out(1, 0, 2) == (1, 2, FAILED_CLOSE)


def test_failed_close_when_opponent_claims_first():
    st = deal()
    at_lead(st, 0, (40, 20), (2, 1))
    act(st, 0, "close")
    at_lead(st, 1, (40, 70), (2, 3))  # seat 1 has since won tricks and reached 66
    act(st, 1, "claim")
    assert st.result == (1, 2, FAILED_CLOSE)  # seat 1 had a trick at the close: 2
    st = deal()
    act(st, 0, "close")  # before any trick: seat 1 had none
    at_lead(st, 1, (20, 70), (1, 4))
    act(st, 1, "claim")
    assert st.result == (1, 3, FAILED_CLOSE)


@pytest.mark.parametrize("closed_scoring, game_points", [("at_close", 2), ("at_end", 1)])
def test_successful_closer_scores_by_the_opponent_at_the_close(closed_scoring, game_points):
    rules = RULEBOOK.build(assignments=[f"closed_scoring={closed_scoring}"])
    st = deal(rules)
    at_lead(st, 0, (50, 20), (3, 1))
    act(st, 0, "close")
    assert (st.snap_points, st.snap_tricks) == (20, 1)
    at_lead(st, 0, (70, 40), (4, 2))  # the opponent got to 40 after the close
    act(st, 0, "claim")
    assert st.result == (0, game_points, CLAIM)


def test_closer_scores_three_when_opponent_had_no_trick_at_the_close():
    st = deal()
    act(st, 0, "close")
    at_lead(st, 0, (70, 10), (4, 1))
    act(st, 0, "claim")
    assert st.result == (0, 3, CLAIM)


def test_wrong_claim_after_own_close_is_a_wrong_claim():
    st = deal()
    at_lead(st, 0, (40, 20), (2, 1))
    act(st, 0, "close")
    at_lead(st, 0, (60, 20), (3, 1))
    act(st, 0, "claim")
    assert st.result == (1, 2, WRONG_CLAIM)


# ----- the last trick -------------------------------------------------------------
def play_out(st, claim=False):
    """Play the lowest legal card every time, never claiming, until the last trick."""
    while st.phase != AFTER_LAST:
        seat = st.to_act()
        card = min(st.legal_cards(), key=parse_card)
        assert st.apply(seat, "play", card) is None
    if claim:
        return st.apply(st.leader, "claim")
    return st.finish()


def test_last_trick_scores_one_and_all_120_points_are_taken():
    st = deal()
    assert play_out(st) is None
    assert st.result[1:] == (1, LAST_TRICK)
    assert st.result[0] == st.leader  # the winner of the last trick
    assert sum(st.points) == 120 and sum(st.tricks) == 10


def test_last_trick_winner_may_claim():
    st = deal()
    assert play_out(st, claim=True) is None
    w = st.leader
    assert st.result[2] in (CLAIM, WRONG_CLAIM)
    assert (st.result[0] == w) == (st.points[w] >= 66)


def test_resign_gives_what_the_opponent_still_needs():
    st = deal(needed=(7, 3))
    act(st, 0, "resign")
    assert st.result == (1, 3, RESIGN)


# ----- follow rules ---------------------------------------------------------------
@pytest.mark.parametrize("hand, lead, strict, allowed", [
    (("AC", "QC", "AH", "JS"), "KC", True, {"AC"}),        # must beat in suit
    (("QC", "JC", "AH"), "KC", True, {"QC", "JC"}),        # cannot beat: follow suit
    (("AH", "JH", "JS"), "KC", True, {"AH", "JH"}),        # void: must trump
    (("JS", "AD"), "KC", True, {"JS", "AD"}),              # neither: anything
    (("AC", "QC", "AH", "JS"), "KC", False, {"AC", "QC", "AH", "JS"}),  # talon open
    (("AH", "JH", "TC"), "KH", True, {"AH"}),              # trump led: beat it
])
def test_follow_suit_beat_else_trump_once_closed(hand, lead, strict, allowed):
    got = follow_mask(np.int64(m(*hand)), parse_card(lead), H, strict)
    assert cards(got) == allowed


def test_trick_winner():
    assert follower_wins(parse_card("TC"), parse_card("AC"), H)
    assert not follower_wins(parse_card("TC"), parse_card("KC"), H)  # the ten beats the king
    assert follower_wins(parse_card("AC"), parse_card("JH"), H)      # trump
    assert not follower_wins(parse_card("JC"), parse_card("AS"), H)  # neither suit


def test_follow_rule_enforced_after_close():
    st = deal()
    act(st, 0, "close")
    act(st, 0, "play", "JS")
    reason = refused(st, 1, "play", "JD")
    assert "must follow suit and beat JS" in reason
    act(st, 1, "play", "QS")


# ----- exchange and close limits ----------------------------------------------------
def holding_trump_jack(rules, talon_left):
    st = Deal(rules, 1, [("JH", "TC", "KC", "QC", "JS"), ("AS", "TS", "KS", "QS", "JD")],
              "AH", "TH KH QH AC AD TD KD QD JC", (7, 7))
    st.st[S_TALON_LEFT] = talon_left  # set directly: as if tricks had been played
    if talon_left < 10:
        st.st[S_TRICKS] = 1
    return st


def test_exchange_swaps_the_trump_jack_for_the_trump_card():
    st = holding_trump_jack(AUSTRIAN, 10)
    act(st, 0, "exchange")
    assert "AH" in cards(st.hands[0]) and "JH" not in cards(st.hands[0])
    assert card_name(st.trump_card) == "JH"


@pytest.mark.parametrize("preset, talon_left, ok", [
    ("austrian", 2, True), ("tournament", 4, True), ("tournament", 2, False)])
def test_exchange_and_close_limits(preset, talon_left, ok):
    rules = RULEBOOK.build(preset)
    for verb in ("exchange", "close"):
        st = holding_trump_jack(rules, talon_left)
        reason = st.apply(0, verb)
        assert (reason is None) == ok, reason
        if not ok:
            assert "needs at least 4" in reason


def test_no_exchange_or_close_once_the_talon_is_gone():
    st = holding_trump_jack(AUSTRIAN, 0)
    assert "talon is open" in refused(st, 0, "exchange")
    assert "closed or used up" in refused(st, 0, "close")
    st = holding_trump_jack(AUSTRIAN, 10)
    act(st, 0, "close")
    at_lead(st, 0, (10, 0), (1, 0))  # seat 0 on lead again, the talon closed
    assert "talon is open" in refused(st, 0, "exchange")


def test_marriage_after_close_option():
    rules = RULEBOOK.build(assignments=["marriage_after_close=false"])
    st = deal(rules)
    act(st, 0, "close")
    assert "marriage_after_close" in refused(st, 0, "marriage", "C")
    st = deal()
    act(st, 0, "close")
    act(st, 0, "marriage", "C")


# ----- the turn to lead ------------------------------------------------------------
def test_turn_to_lead_order():
    st = holding_trump_jack(AUSTRIAN, 10)
    assert "right after winning a trick" in refused(st, 0, "claim")  # first lead: no trick yet
    assert "seat 0's turn" in refused(st, 1, "play", "AS")            # non-dealer leads
    act(st, 0, "exchange")
    assert "right after winning" in refused(st, 0, "claim")        # no claim after an exchange
    act(st, 0, "close")
    assert "before closing" in refused(st, 0, "exchange")
    act(st, 0, "marriage", "C")
    assert "king or queen" in refused(st, 0, "play", "TC")          # lead the marriage
    assert "must lead its king or queen" in refused(st, 0, "marriage", "C")
    act(st, 0, "play", "KC")
    assert "claim is allowed only" in refused(st, 1, "claim")


def test_claim_allowed_after_a_marriage_and_after_winning():
    st = deal()
    at_lead(st, 0, (50, 40), (2, 2))
    act(st, 0, "marriage", "C")
    act(st, 0, "claim")
    assert st.result == (0, 1, CLAIM)


def test_follower_cannot_claim():
    st = deal()
    act(st, 0, "play", "JS")
    assert "claim is allowed only" in refused(st, 1, "claim")


def test_marriage_suits():
    assert marriage_suits(np.uint64(m("KC", "QC", "KH", "QH", "KS"))) == 0b0101


def test_options_are_checked():
    with pytest.raises(RulesError, match="close_min_talon"):
        RULEBOOK.build(assignments=["close_min_talon=11"])
    with pytest.raises(RulesError, match="closed_scoring"):
        RULEBOOK.build(assignments=["closed_scoring=never"])
    assert list(RULEBOOK.presets) == ["austrian", "tournament"]
    t = RULEBOOK.build("tournament")
    assert (t["exchange_min_talon"], t["close_min_talon"]) == (4, 4)
    assert AUSTRIAN.to_dict() == {"match_points": 7, "target": 66, "exchange_min_talon": 2,
                                  "close_min_talon": 2, "marriage_after_close": True,
                                  "closed_scoring": "at_close", "schneider_below": 33}
