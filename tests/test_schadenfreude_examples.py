"""Every worked example of the Schadenfreude rule texts, as a test.

The examples come from the rulebook, its German summary and the project's rules
page (carried over here; the tests never read those files).  Where the rulebook's
prose slips, the test follows the rules, and says so.  Each example runs through
the engine's card-level kernels (legal_mask, winning_rank, collect, pile_points,
game_winner), a round on the engine (start, apply, next_deal: what the batch,
replay and the API run), and the naive reference, so a disagreement shows which
layer is wrong.
"""
from __future__ import annotations

import numpy as np
import pytest

import naive_schadenfreude as naive
from simcore.games.schadenfreude.cards import (ALL_VALUES, CARD_RANK, CARD_VALUE, N_CARDS,
                                               WILD0, WILD10, card_name, deck_mask,
                                               mask_cards, mask_of, parse_card)
from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.engine import (S_LEADER, S_PILE, S_POINTS, S_RNG, S_ROUND,
                                                S_SCORE, S_TRICK_LEADER, collect,
                                                collect_card, follows, game_winner,
                                                lead_mask_of, legal_cards, legal_mask,
                                                next_deal, pile_points, winning_rank)
from simcore.games.schadenfreude.records import replay_record
from simcore.games.schadenfreude.rules import RULEBOOK
from simcore.errors import ReplayError

A, B, C, D, E = range(5)


def m(*names) -> np.uint64:
    """Card mask of card names."""
    return np.uint64(mask_of(parse_card(x) for x in names))


def names(mask) -> set[str]:
    return {card_name(c) for c in mask_cards(int(mask))}


def rank_mask(*names_) -> np.uint64:
    r = 0
    for x in names_:
        r |= 1 << int(CARD_RANK[parse_card(x)])
    return np.uint64(r)


def rank_of(name) -> int:
    return int(CARD_RANK[parse_card(name)])


def lead(name) -> np.uint64:
    return np.uint64(lead_mask_of(parse_card(name)))


def kernel_trick(plays):
    """Resolve one trick with the kernels: plays [(seat, name)] -> (winner, pile names)."""
    lm = np.uint64(0)
    for _, x in plays:
        if lm == 0:
            lm = lead(x)
    followers = [(s, x) for s, x in plays if follows(parse_card(x), lm)]
    win_rank = int(winning_rank(rank_mask(*[x for _, x in followers])))
    winner = [s for s, x in followers if rank_of(x) == win_rank]
    assert len(winner) == 1
    winner = winner[0]
    pile = np.uint64(0)
    for s, x in plays:
        if s == winner or not follows(parse_card(x), lm):
            pile = np.uint64(collect_card(np.uint64(pile), parse_card(x), True))
    return winner, names(pile)


class Round:
    """A round on the engine from given hands (equal sizes, any cards of the full deck)."""

    def __init__(self, hands_by_seat, leader, cancel=True):
        n, k = len(hands_by_seat), len(hands_by_seat[0])
        self.n = n
        self.eng = GAME.engine(RULEBOOK.build(overrides={
            "players": n, "hand_size": k, "values": ",".join(map(str, ALL_VALUES)),
            "pairs": "cancel" if cancel else "keep"}))
        self.st = self.eng.new(0, 0)
        self.eng.start(self.st, hands_by_seat, leader)

    def play(self, name):
        """Play a card for the seat to move; the reason if it is illegal, else None."""
        try:
            self.eng.apply(self.st, parse_card(name))
        except ValueError as exc:
            return str(exc)
        return None

    def legal(self):
        return int(legal_cards(self.st))

    @property
    def trick_leader(self):
        return int(self.st[S_TRICK_LEADER])

    @property
    def piles(self):
        return [int(x) for x in self.st[S_PILE:S_PILE + self.n]]

    def points(self):
        return [int(x) for x in self.st[S_POINTS:S_POINTS + self.n]]

    def done(self):
        return self.eng.deal_over(self.st)


def round_state(hands_by_seat, leader, cards, cancel=True):
    """Play ``cards`` on the engine from the given hands; returns the Round."""
    st = Round(hands_by_seat, leader, cancel)
    for x in cards:
        reason = st.play(x)
        assert reason is None, reason
    return st


# ----- cards ------------------------------------------------------------------------

def test_deck_has_48_number_cards_and_two_wilds():
    assert ALL_VALUES == (-3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    assert N_CARDS == 50
    assert card_name(WILD0) == "0W" and card_name(WILD10) == "10W"
    assert CARD_VALUE[WILD0] == 0 and CARD_VALUE[WILD10] == 10
    assert sorted(card_name(c) for c in range(50)) == sorted(naive.make_deck(ALL_VALUES))
    for c in range(50):
        assert parse_card(card_name(c)) == c
        assert CARD_VALUE[c] == naive.value(card_name(c))


def test_three_player_deck_is_38_cards_without_minus2_minus1_and_9():
    rules = RULEBOOK.build(overrides={"players": 3})
    assert list(rules["values"]) == [-3, 1, 2, 3, 4, 5, 6, 7, 8]
    assert bin(deck_mask(rules["values"])).count("1") == 38
    assert rules["hand_size"] == 12            # 36 dealt, 2 set aside
    assert RULEBOOK.build(overrides={"players": 4})["hand_size"] == 12   # 48 dealt, 2 aside
    assert RULEBOOK.build(overrides={"players": 5})["hand_size"] == 10   # all 50 dealt
    assert len(RULEBOOK.build(overrides={"players": 5})["values"]) == 12


def test_record_card_names():
    for bad in ("0H", "10H", "11S", "7X", "W0", "", None, 7):
        with pytest.raises(Exception, match="not a Schadenfreude card"):
            parse_card(bad)


# ----- the rulebook's trick example ------------------------------------------------

def test_trick_example_second_highest_of_lead_suit_wins():
    # A 4H (lead), B 7H, C 9H, D 3S: the suit to follow is hearts; D has none.
    assert int(lead("4H")) != 0
    followers = rank_mask("4H", "7H", "9H")
    assert winning_rank(followers) == rank_of("7H")          # not the 9: that is the highest
    assert not follows(parse_card("3S"), lead("4H"))


def test_trick_example_winner_collects_own_card_and_the_non_follower():
    plays = [(A, "4H"), (B, "7H"), (C, "9H"), (D, "3S")]
    winner, pile = kernel_trick(plays)
    assert winner == B
    # The rulebook's prose says B collects "7H and 7S"; its own table (and the rule)
    # says 7H and 3S: B's card plus the card that did not follow.
    assert pile == {"7H", "3S"}
    assert "7S" not in pile
    assert naive.trick_winner(plays) == (B, ["7H", "3S"])

    st = round_state([["4H"], ["7H"], ["9H"], ["3S"]], A, ["4H", "7H", "9H", "3S"])
    assert st.trick_leader == B                       # the winner leads the next trick
    assert names(st.piles[B]) == {"7H", "3S"}
    assert st.points() == [0, 10, 0, 0]
    assert st.done()


def test_trick_example_d_could_not_have_discarded_while_holding_hearts():
    # D plays 3S only because D has no hearts; with a heart in hand it is illegal.
    assert legal_mask(m("3S", "5C"), lead("4H")) == m("3S", "5C")
    assert legal_mask(m("3S", "2H"), lead("4H")) == m("2H")
    st = Round([["4H", "1C"], ["7H", "2C"], ["9H", "3C"], ["3S", "2H"]], A)
    for x in ("4H", "7H", "9H"):
        assert st.play(x) is None
    reason = st.play("3S")
    assert reason is not None and "must follow" in reason and "3S" in reason


def test_any_card_of_the_lead_suit_may_be_played():
    # "If you have more than one card of a suit, you can choose any of them."
    assert legal_mask(m("2H", "8H", "5C"), lead("4H")) == m("2H", "8H")
    assert naive.legal_cards(["2H", "8H", "5C"], ["4H"]) == ["2H", "8H"]


def test_leader_may_play_anything():
    hand = m("2H", "8S", "-3C", "0W", "10W")
    assert legal_mask(hand, np.uint64(0)) == hand


# ----- the rulebook's pile example --------------------------------------------------

def test_pile_example_pairs_cancel_score_13_not_16():
    # Previously collected 7H 3S; collected 7S 1H 9D.  The 7s cancel: 3S 1H 9D.
    pile = m("7H", "3S")
    for x in ("7S", "1H", "9D"):
        pile = np.uint64(collect_card(np.uint64(pile), parse_card(x), True))
    assert names(pile) == {"3S", "1H", "9D"}
    # The rulebook says "a current score of 16"; 3 + 1 + 9 is 13.
    assert pile_points(pile) == 13

    pile, pts = m("7H", "3S"), 10
    for x in ("7S", "1H", "9D"):
        pile, pts = collect(np.uint64(pile), pts, parse_card(x), True, True)
    assert names(pile) == {"3S", "1H", "9D"} and pts == 13

    pile_n = ["7H", "3S"]
    for x in ("7S", "1H", "9D"):
        naive.add_to_pile(pile_n, x, "cancel")
    assert sorted(pile_n) == sorted(["3S", "1H", "9D"]) and naive.pile_points(pile_n) == 13


def test_pile_example_played_out_as_a_round():
    # Trick 1 is the rulebook's trick (B takes 7H 3S); in trick 2 B leads 7S, C must
    # follow with 8S, D (9D) and A (1H) have no spades: 7S is second-highest, B takes
    # 7S 9D 1H and the 7s cancel.
    hands = [["4H", "1H"], ["7H", "7S"], ["9H", "8S"], ["3S", "9D"]]
    cards = ["4H", "7H", "9H", "3S", "7S", "8S", "9D", "1H"]
    st = round_state(hands, A, cards)
    assert names(st.piles[B]) == {"3S", "9D", "1H"}
    assert st.points() == [0, 13, 0, 0]
    res = naive.play_round(hands, A, cards, "cancel")
    assert res["points"] == [0, 13, 0, 0] and res["trick_winners"] == [B, B]


def test_pairs_keep_does_not_cancel():
    pile = m("7H", "3S")
    for x in ("7S", "1H", "9D"):
        pile = np.uint64(collect_card(np.uint64(pile), parse_card(x), False))
    assert pile_points(pile) == 27
    pile, pts = collect(m("7H", "3S"), 10, parse_card("7S"), True, False)
    assert pts == 17 and names(pile) == {"7H", "3S", "7S"}


# ----- three of a value: one stays, the last collected ---------------------------------

def test_third_card_of_a_value_stays():
    pile = np.uint64(0)
    for x in ("7H", "7S", "7C"):
        pile = np.uint64(collect_card(np.uint64(pile), parse_card(x), True))
    assert names(pile) == {"7C"}            # two discarded, the last one collected stays
    pile = np.uint64(collect_card(np.uint64(pile), parse_card("7D"), True))
    assert names(pile) == set()              # a fourth cancels the third

    pile, pts = np.uint64(0), 0
    for x in ("7H", "7S", "7C"):
        pile, pts = collect(np.uint64(pile), pts, parse_card(x), True, True)
    assert names(pile) == {"7C"} and pts == 7


def test_three_sevens_in_one_trick_collected_in_play_order():
    # A leads 7H, B follows 9H, C (7S) and D (7C) have no hearts.  Followers 7H 9H:
    # A's 7H wins; A collects 7H, 7S, 7C in play order: 7H and 7S cancel, 7C stays.
    hands = [["7H"], ["9H"], ["7S"], ["7C"]]
    cards = ["7H", "9H", "7S", "7C"]
    st = round_state(hands, A, cards)
    assert names(st.piles[A]) == {"7C"} and st.points() == [7, 0, 0, 0]
    res = naive.play_round(hands, A, cards, "cancel")
    assert res["piles"][A] == ["7C"]
    # With pairs = keep all three count.
    assert round_state(hands, A, cards, cancel=False).points() == [21, 0, 0, 0]


def test_no_two_cards_of_one_value_in_a_cancelling_pile():
    # "Niemand darf zwei Karten gleichen Werts vor sich haben."
    rng = np.random.default_rng(3)
    for _ in range(200):
        pile = np.uint64(0)
        for c in rng.integers(0, 50, size=12):
            pile = np.uint64(collect_card(np.uint64(pile), int(c), True))
        vals = [int(CARD_VALUE[c]) for c in mask_cards(int(pile))]
        assert len(vals) == len(set(vals))


# ----- a lone follower wins ------------------------------------------------------------

def test_lone_follower_wins_and_collects_everything():
    # A leads 5H; nobody else has hearts or a wild.
    plays = [(A, "5H"), (B, "3S"), (C, "2D"), (D, "9C")]
    assert winning_rank(rank_mask("5H")) == rank_of("5H")
    winner, pile = kernel_trick(plays)
    assert winner == A and pile == {"5H", "3S", "2D", "9C"}
    st = round_state([["5H"], ["3S"], ["2D"], ["9C"]], A, ["5H", "3S", "2D", "9C"])
    assert st.points() == [19, 0, 0, 0]


# ----- wild cards ------------------------------------------------------------------------

def test_a_wild_lead_sets_no_suit_the_first_number_card_does():
    assert lead_mask_of(WILD0) == 0 and lead_mask_of(WILD10) == 0
    # After a wild lead anything may be played ...
    hand_b = m("4H", "2S")
    assert legal_mask(hand_b, np.uint64(0)) == hand_b
    # ... and B's 4H makes hearts the suit to follow for C.
    st = Round([["0W", "1C"], ["4H", "2S"], ["2H", "3S"], ["5C", "6C"]], A)
    assert st.play("0W") is None
    assert st.play("4H") is None
    assert st.legal() == int(m("2H"))          # C to move
    reason = st.play("3S")
    assert reason is not None and "must follow" in reason
    assert naive.legal_cards(["2H", "3S"], ["0W", "4H"]) == ["2H"]
    assert naive.legal_cards(["2H", "3S"], ["0W", "10W"]) == ["2H", "3S"]


def test_wild_cards_always_follow_and_may_be_played_instead_of_the_suit():
    hand = m("2H", "8S", "0W", "10W")
    assert legal_mask(hand, lead("4H")) == m("2H", "0W", "10W")
    assert follows(WILD0, lead("4H")) and follows(WILD10, lead("4S"))


def test_a_wild_card_is_not_compulsory_without_the_lead_suit():
    hand = m("8S", "-3C", "0W")
    assert legal_mask(hand, lead("4H")) == hand


def test_wild_10_never_wins():
    # The 10 is the highest follower whenever it follows with anything else.
    assert winning_rank(rank_mask("10W", "9H")) == rank_of("9H")   # the 9 is made to win
    assert winning_rank(rank_mask("10W", "0W", "-3H")) == rank_of("0W")
    for v in ALL_VALUES:
        assert winning_rank(rank_mask("10W", f"{v}D")) == rank_of(f"{v}D")


def test_wild_10_lead_then_9_takes_the_trick():
    plays = [(A, "10W"), (B, "9H"), (C, "3S"), (D, "5C")]
    winner, pile = kernel_trick(plays)
    # Hearts set by B; C and D have none.  Followers 10W 9H: the 9 is second-highest.
    assert winner == B and pile == {"9H", "3S", "5C"}
    assert naive.trick_winner(plays)[0] == B


def test_wild_0_wins_as_second_highest_when_one_positive_suit_card_follows():
    # "A 0 can win the trick if following the lead and no other lead suit cards are played."
    plays = [(A, "5H"), (B, "0W"), (C, "3S"), (D, "2D")]
    winner, pile = kernel_trick(plays)
    assert winner == B and pile == {"0W", "3S", "2D"}
    st = round_state([["5H"], ["0W"], ["3S"], ["2D"]], A, ["5H", "0W", "3S", "2D"])
    assert st.points() == [0, 5, 0, 0]
    assert naive.trick_winner(plays) == (B, ["0W", "3S", "2D"])


def test_wild_0_above_a_negative_suit_card_is_highest_and_loses():
    # The 0 is a value like any other: above -2 it is the highest follower.
    plays = [(A, "-2H"), (B, "0W"), (C, "3S"), (D, "2D")]
    winner, pile = kernel_trick(plays)
    assert winner == A and pile == {"-2H", "3S", "2D"}


def test_both_wilds_lead_and_the_first_number_card_sets_the_suit():
    # A 0W, B 10W (no suit yet), C 3S sets spades, D 8S.  Followers 10 8 3 0: 8S wins.
    plays = [(A, "0W"), (B, "10W"), (C, "3S"), (D, "8S")]
    winner, pile = kernel_trick(plays)
    assert winner == D and pile == {"8S"}
    st = round_state([["0W"], ["10W"], ["3S"], ["8S"]], A, ["0W", "10W", "3S", "8S"])
    assert st.trick_leader == D and st.points() == [0, 0, 0, 8]


# ----- scoring: floor and limit ------------------------------------------------------------

def one_round_record(overrides, hands, leader, cards, claimed_scores=None):
    """A one-round record (max_rounds = 1 unless someone busts), ends from the naive."""
    rules = RULEBOOK.build(overrides={"max_rounds": 1, **overrides})
    r = rules.to_dict()
    game = naive.play_game(r, [(leader, cards)], partial=True)
    rd = game["rounds"][0]
    assert rd["hands"] == [list(h) for h in hands]
    scores = claimed_scores or rd["scores"]
    n = r["players"]
    return {
        "game": "schadenfreude", "rules": r, "seed": 0, "index": 0,
        "policies": ["random"] * n,
        "deals": [{"start": {"hands": hands, "aside": rd["aside"], "leader": leader,
                             "scores": [0] * n},
                   "actions": [[s, "play", x] for s, x in zip(rd["seats"], cards)],
                   "end": {"piles": rd["piles"], "points": rd["points"], "scores": scores}}],
        "result": {"scores": scores, "winners": game["winners"], "bust": game["bust"],
                   "unfinished": game["unfinished"]},
    }


# 3 players, deck -3 -2 -1 in four suits plus the wilds (14 cards), one card each:
# A -3H, B -2H, C -1S (no hearts).  Followers -3H -2H: -3H is second-highest, so A wins
# and collects -3H and -1S: -4 points.
NEG = dict(players=3, values="-3,-2,-1", hand_size=1)
NEG_HANDS = [["-3H"], ["-2H"], ["-1S"]]
NEG_CARDS = ["-3H", "-2H", "-1S"]


@pytest.mark.parametrize("floor, expected", [
    (0, [0, 0, 0]),          # the rulebook: never below 0
    (-2, [-2, 0, 0]),        # a custom floor
    (-4, [-4, 0, 0]),        # exactly the floor
    ("none", [-4, 0, 0]),    # no floor
])
def test_floor_clamps_the_cumulative_score(floor, expected):
    rec = one_round_record({**NEG, "floor": floor}, NEG_HANDS, A, NEG_CARDS)
    assert rec["deals"][0]["end"]["points"] == [-4, 0, 0]
    assert rec["deals"][0]["end"]["scores"] == expected
    assert rec["result"]["unfinished"] is True and rec["result"]["winners"] == []
    replay_record(rec)


def test_floor_is_enforced_by_replay():
    rec = one_round_record({**NEG, "floor": 0}, NEG_HANDS, A, NEG_CARDS,
                           claimed_scores=[-4, 0, 0])
    with pytest.raises(ReplayError, match=r"end\.scores\[0\] is -4; the rules give 0"):
        replay_record(rec)


def test_a_floor_above_zero_lifts_everyone_after_the_first_round():
    # The score starts at 0 and the floor applies after adding a round's points.
    rec = one_round_record({**NEG, "floor": 3, "limit": 10}, NEG_HANDS, A, NEG_CARDS)
    assert rec["deals"][0]["end"]["scores"] == [3, 3, 3]
    replay_record(rec)


# 3 players, deck 1 2 3 (14 cards), one card each: A 1H, B 3S, C 2D.  A is the lone
# follower and takes all three: 6 points.
POS = dict(players=3, values="1,2,3", hand_size=1)
POS_HANDS = [["1H"], ["3S"], ["2D"]]
POS_CARDS = ["1H", "3S", "2D"]


def test_exactly_the_limit_is_not_bust():
    rec = one_round_record({**POS, "limit": 6, "max_rounds": 5}, POS_HANDS, A, POS_CARDS)
    assert rec["deals"][0]["end"]["scores"] == [6, 0, 0]
    # nobody is over 6, so the game cannot end after this round
    with pytest.raises(ReplayError, match="ends while nobody is over the limit"):
        replay_record(rec)
    rec = one_round_record({**POS, "limit": 6}, POS_HANDS, A, POS_CARDS)
    assert rec["result"] == {"scores": [6, 0, 0], "winners": [], "bust": [],
                             "unfinished": True}
    replay_record(rec)


def test_one_over_the_limit_is_bust_and_ends_the_game():
    rec = one_round_record({**POS, "limit": 5, "max_rounds": 5}, POS_HANDS, A, POS_CARDS)
    # A is bust; B and C share 0, so neither wins and there is no lower score: no winner.
    assert rec["result"] == {"scores": [6, 0, 0], "winners": [], "bust": [0],
                             "unfinished": False}
    replay_record(rec)


def test_bust_in_the_last_allowed_round_is_a_normal_end():
    rec = one_round_record({**POS, "limit": 5, "max_rounds": 1}, POS_HANDS, A, POS_CARDS)
    assert rec["result"]["unfinished"] is False and rec["result"]["bust"] == [0]
    replay_record(rec)


# ----- the winner cascade ------------------------------------------------------------------

def kernel_winner(scores, limit=40, all_bust="none"):
    w = int(game_winner(np.array(scores, dtype=np.int64), 0, len(scores), limit,
                        all_bust == "highest"))
    assert (None if w < 0 else w) == naive.game_winner(scores, limit, all_bust)
    return w


@pytest.mark.parametrize("scores, limit, all_bust, winner", [
    ([30, 35, 20, 41], 40, "none", 1),      # bust players cannot win; highest of the rest
    ([40, 39, 12, 41], 40, "none", 0),      # exactly the limit wins
    ([30, 35, 35, 41], 40, "none", 0),      # tie at the top: next lower unique score
    ([20, 35, 35, 41], 40, "none", 0),
    ([20, 35, 35, 20, 41], 40, "none", -1),  # 35 shared, 20 shared: nobody
    ([41, 10, 10], 40, "none", -1),
    ([30, 30, 20, 20, 10], 40, "none", 4),   # the cascade goes as low as it must
    ([41, 41, 12, 30], 40, "none", 3),       # equal bust scores do not matter
    ([41, 41, 30, 30], 40, "none", -1),
    ([45, 42, 50], 40, "none", -1),         # everybody bust: nobody wins (rulebook)
    ([45, 42, 50], 40, "highest", 2),       # ... or the highest (German summary)
    ([50, 50, 42], 40, "highest", 2),       # ... by the same cascade
    ([50, 50, 42, 42], 40, "highest", -1),
    ([45, 42, 50, 12], 40, "highest", 3),   # not everybody bust: 'highest' changes nothing
    ([12, 12, 50], 40, "highest", -1),
    ([6, 5, 7], 6, "none", 0),              # another limit
    ([-5, -7, 41], 40, "none", 0),          # negative scores (floor none)
])
def test_winner_cascade(scores, limit, all_bust, winner):
    assert kernel_winner(scores, limit, all_bust) == winner


# ----- who leads the next round ------------------------------------------------------------

def kernel_next_leader(cum, prev, after_last, state=12345):
    """The leader ``next_deal`` picks after a round that ``prev`` led, with scores ``cum``
    (its length is the player count) and stream word ``state``."""
    n = len(cum)
    eng = GAME.engine(RULEBOOK.build(overrides={
        "players": n, "tie_lead": "after_last" if after_last else "random"}))
    st = eng.new(0, 0)
    st[S_ROUND], st[S_LEADER] = 1, prev
    st[S_SCORE:S_SCORE + n] = cum
    st[S_RNG] = np.uint64(state).view(np.int64)
    next_deal(eng.r, st)
    return int(st[S_LEADER])


@pytest.mark.parametrize("cum, prev, leader", [
    ([5, 3, 9, 7], 0, 1),         # the lowest score leads
    ([5, 0, 0, 0], 1, 2),         # tied: the first tied seat after the previous leader
    ([5, 0, 0, 0], 3, 1),
    ([0, 5, 5, 0], 3, 0),
    ([5, 5, 5, 0], 3, 3),         # the previous leader itself comes last ...
    ([0, 5, 0, 0], 2, 3),
    ([0, 0, 0, 0], 2, 3),
    ([0, 0, 0, 0], 3, 0),
    ([2, 0, 9, 0], 1, 3),         # ... and only when no other tied seat follows it
    ([2, 0, 9, 4], 1, 1),
])
def test_tie_lead_after_last(cum, prev, leader):
    assert kernel_next_leader(cum, prev, True) == leader
    assert naive.allowed_leaders(1, cum, prev, {"players": len(cum),
                                                "tie_lead": "after_last"}) == [leader]


def test_tie_lead_after_last_with_three_and_five_players():
    for cum, prev, leader in [([1, 1, 1], 0, 1), ([1, 1, 1], 2, 0), ([4, 1, 1], 2, 1),
                              ([3, 3, 3, 3, 3], 4, 0), ([3, 3, 9, 9, 3], 1, 4),
                              ([9, 3, 9, 9, 3], 4, 1)]:
        assert kernel_next_leader(cum, prev, True) == leader


def test_tie_lead_random_picks_among_the_tied_only():
    seen = set()
    for state in range(200):
        p = kernel_next_leader([4, 1, 9, 1], 0, False, state * 7919 + 1)
        assert p in (1, 3)
        seen.add(p)
    assert seen == {1, 3}
    # a unique lowest score leads whatever the random state
    assert {kernel_next_leader([4, 2, 9, 3], 1, False, s) for s in range(20)} == {1}
