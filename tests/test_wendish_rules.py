"""Wendish Schafkopf rules through the engine's kernels (one deal at a time, via
the Python API): trump order, following, every contract path, the called card, the
wedding deadline, the tariff, the skat pickup, Officers' face-down cards."""
import numpy as np
import pytest

from simcore.errors import RulesError
from simcore.games.wendish import engine as E
from simcore.games.wendish.api import Engine
from simcore.games.wendish.cards import (CARD_POINTS, VARIANTS, card_name, mask_cards,
                                         mask_of, parse_card, trump_order)
from simcore.games.wendish.engine import NORMAL, QUIET_SOLO, SOLO, WEDDING
from simcore.games.wendish.records import new_state, start_deck
from simcore.games.wendish.rules import RULEBOOK, rules_array

Illegal = ValueError


class DealState:
    """A deal on the engine, with the attribute names these tests read."""

    def __init__(self, rules, dealer, hands, skat=0, up_order=None, face_down=None):
        self.eng = Engine(rules)
        variant = VARIANTS.index(rules["variant"])
        self.st = new_state(self.eng.r)
        if up_order is not None:
            deck = start_deck(variant, 2, up_order, [], face_down)
        else:
            deck = start_deck(variant, len(hands), [mask_cards(h) for h in hands],
                              mask_cards(skat))
        E.py_start_deal(self.eng.r, self.st, 0, dealer, deck)

    def act(self, seat, verb, arg=None):
        item = [seat, verb] + ([arg] if arg is not None else [])
        self.eng.apply(self.st, self.eng.action_from_record(self.st, item))

    def legal_cards(self, seat):
        assert seat == self.to_act()
        return mask_of(a - E.A_PLAY for a in self.eng.legal(self.st))

    def to_act(self):
        return self.eng.to_move(self.st)

    def done(self):
        return self.eng.deal_over(self.st)

    def end(self):
        return self.eng.deal_end(self.st)

    def _word(self, i):
        return int(self.st[i])

    hands = property(lambda s: [s._word(E.ST_HAND + p) for p in range(s.eng.n)])
    tpts = property(lambda s: [s._word(E.ST_PTS + p) for p in range(s.eng.n)])
    phase = property(lambda s: E.PHASES[s._word(E.ST_PHASE)])
    leader = property(lambda s: s._word(E.ST_LEADER))
    team0 = property(lambda s: s._word(E.ST_TEAM0))
    contract = property(lambda s: s._word(E.ST_CONTRACT))
    declarer = property(lambda s: s._word(E.ST_DECLARER))
    trump = property(lambda s: s._word(E.ST_TRUMP))
    taker = property(lambda s: s._word(E.ST_TAKER))
    ntricks = property(lambda s: s._word(E.ST_NTRICKS))


def rules(**kw):
    return RULEBOOK.build(assignments=[f"{k}={v}" for k, v in kw.items()])


def m(names):
    return mask_of(parse_card(x) for x in names.split())


def names(mask):
    return sorted(card_name(c) for c in mask_cards(mask))


# Four hands covering the 32 cards: seat 0 holds both black queens and all clubs.
H0 = "QC QS AC TC KC 9C 8C 7C"
H1 = "QH QD JC JS AS TS KS 9S"
H2 = "AH TH KH 9H 8H 7H JH JD"
H3 = "8S 7S AD TD KD 9D 8D 7D"


def deal4(hands=(H0, H1, H2, H3), dealer=3, **kw):
    return DealState(rules(**kw), dealer, [m(h) for h in hands])


@pytest.mark.parametrize("trump,expected", [
    (3, "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"),
    (0, "QC QS QH QD JC JS JH JD AC TC KC 9C 8C 7C"),
    (1, "QC QS QH QD JC JS JH JD AS TS KS 9S 8S 7S"),
    (2, "QC QS QH QD JC JS JH JD AH TH KH 9H 8H 7H"),
])
def test_trump_order(trump, expected):
    assert [card_name(c) for c in trump_order(trump)] == expected.split()


def test_card_points_total():
    assert int(CARD_POINTS.sum()) == 120
    assert sum(int(CARD_POINTS[parse_card(c)]) for c in "AC TC KC QC JC 9C 8C 7C".split()) == 30


def test_options_validation():
    assert rules()["deals"] == 4
    assert rules(variant="three")["deals"] == 3
    assert rules(variant="officers")["deals"] == 2
    assert RULEBOOK.build("dreiwendsch")["variant"] == "three"
    for bad in ("variant=five", "solo_suits=X", "solo_suits=D,D", "base=0",
                "wedding_deadline=0", "nonsense=1"):
        with pytest.raises(RulesError):
            RULEBOOK.build(assignments=[bad])
    with pytest.raises(RulesError, match="solo_suits"):
        RULEBOOK.build(assignments=["solo_suits="])


def test_follow_rules_trumps_are_one_suit():
    st = deal4(lust_solo="false")
    st.act(0, "wedding", "AS")          # AS is with seat 1
    # seat 0 leads QC (a trump): seat 1 must play a trump (queens and jacks count)
    st.act(0, "play", "QC")
    assert names(st.legal_cards(1)) == ["JC", "JS", "QD", "QH"]
    st.act(1, "play", "JC")
    # seat 2 has JH JD only as trumps; hearts do not follow a trump lead
    assert names(st.legal_cards(2)) == ["JD", "JH"]
    with pytest.raises(Illegal, match="follow"):
        st.act(2, "play", "AH")
    st.act(2, "play", "JH")
    assert names(st.legal_cards(3)) == names(m("AD TD KD 9D 8D 7D"))
    st.act(3, "play", "7D")
    assert st.leader == 0 and st.tpts[0] == 3 + 2 + 2


def test_plain_suit_lead_queens_do_not_follow():
    st = deal4(lust_solo="false")
    st.act(0, "wedding", "AD")
    st.act(0, "play", "AC")
    # seat 1 holds JC, a trump, not a club: free choice (no duty to trump)
    assert st.legal_cards(1) == st.hands[1]
    st.act(1, "play", "9S")
    st.act(2, "play", "7H")
    # seat 3 holds AD, the called card, and cannot follow clubs: it must play AD now
    assert names(st.legal_cards(3)) == ["AD"]
    st.act(3, "play", "AD")             # a diamond is a trump: seat 3 wins
    assert st.leader == 3 and st.team0 == 0b1001


def test_called_card_when_its_suit_is_led():
    hands = ("QC QS 7H AC TC KC 9C 8C", H1, "AH TH KH 9H 8H 7C JH JD", H3)
    st = deal4(hands, lust_solo="false")
    st.act(0, "wedding", "AH")
    st.act(0, "play", "7H")
    st.act(1, "play", "AS")
    assert names(st.legal_cards(2)) == ["AH"]
    with pytest.raises(Illegal, match="called card"):
        st.act(2, "play", "TH")
    st.act(2, "play", "AH")


def test_called_card_when_leading():
    st = deal4(dealer=1, lust_solo="false")   # forehand is seat 2, holding AH
    st.act(0, "wedding", "AH")
    assert st.to_act() == 2 and names(st.legal_cards(2)) == ["AH"]


def test_called_card_must_be_elsewhere():
    st = deal4(lust_solo="false")
    with pytest.raises(Illegal, match="another player's hand"):
        st.act(0, "wedding", "AC")


def test_lust_solo_round():
    st = deal4()
    st.act(0, "pass")
    with pytest.raises(Illegal, match="turn"):
        st.act(2, "pass")
    st.act(1, "solo", "H")
    assert st.contract == SOLO and st.declarer == 1 and st.trump == 2 and st.phase == "play"
    assert st.to_act() == 0                  # forehand leads


def test_lust_solo_limited_suits_and_all_pass_then_old_ones():
    st = deal4(solo_suits="D,C")
    with pytest.raises(Illegal, match="solo_suits"):
        st.act(0, "solo", "H")
    for p in range(4):
        st.act(p, "pass")
    assert st.phase == "old_ones" and st.to_act() == 0
    st.act(0, "quiet_solo")
    assert st.contract == QUIET_SOLO and st.team0 == 1


def test_normal_game_partnership():
    hands = ("QC AS QD AC TC KC 9C 8C", "QS QH JC JS TS KS 9S 7C", H2, H3)
    st = deal4(hands, lust_solo="false")
    assert st.phase == "play" and st.contract == NORMAL and st.team0 == 0b0011
    st4 = deal4(hands)
    for p in range(4):
        st4.act(p, "pass")
    assert st4.phase == "play" and st4.team0 == 0b0011


def play_lowest(st):
    """Play the deal out, each seat its lowest-id legal card."""
    while not st.done():
        p = st.to_act()
        st.act(p, "play", card_name(mask_cards(st.legal_cards(p))[0]))


def test_wedding_first_trick_partner():
    st = deal4(lust_solo="false")
    st.act(0, "wedding", "first_trick")
    st.act(0, "play", "AC")
    st.act(1, "play", "QH")                 # seat 1 trumps and wins the first trick
    st.act(2, "play", "7H")
    st.act(3, "play", "7S")
    assert st.team0 == 0b0011
    play_lowest(st)
    end = st.end()
    assert end["contract"] == "wedding" and end["declarer"] == 0 and end["teams"] == [[0, 1],
                                                                                      [2, 3]]


@pytest.mark.parametrize("deadline,alone", [(3, True), (4, False)])
def test_wedding_deadline(deadline, alone):
    st = deal4(lust_solo="false", wedding_deadline=deadline)
    st.act(0, "wedding", "first_trick")
    for lead, a, b, c in (("QC", "JC", "JH", "7D"), ("QS", "JS", "JD", "8D"),
                          ("AC", "AS", "7H", "8S")):
        st.act(0, "play", lead)
        st.act(1, "play", a)
        st.act(2, "play", b)
        st.act(3, "play", c)
        assert st.leader == 0
    # trick 4: seat 1 trumps with QH and wins it
    st.act(0, "play", "TC")
    st.act(1, "play", "QH")
    st.act(2, "play", "8H")
    st.act(3, "play", "9D")
    assert st.leader == 1
    assert st.team0 == (0b0001 if alone else 0b0011)
    play_lowest(st)
    end = st.end()
    assert sum(end["card_points"]) == 120
    if alone:
        assert end["teams"] == [[0], [1, 2, 3]]
        v = 1 + end["schneider"] + end["schwarz"]      # base, paid as a lone player
        sign = 1 if end["winner"] == 0 else -1
        assert end["scores"] == [3 * sign * v, -sign * v, -sign * v, -sign * v]


def tariff(contract, n, team0, cp0, tricks0, ntricks=8, officers=False, **kw):
    """Score a deal whose first team took ``cp0`` points in ``tricks0`` tricks."""
    if officers:
        kw["variant"] = "officers"
    elif n == 3:
        kw["variant"] = "three"
    ra = rules_array(rules(**kw))
    st = new_state(ra)
    st[E.ST_CONTRACT] = contract
    st[E.ST_TEAM0] = team0
    st[E.ST_NTRICKS] = ntricks
    st[E.ST_TAKER] = -1
    first = next(p for p in range(n) if team0 >> p & 1)
    other = next(p for p in range(n) if not team0 >> p & 1)
    st[E.ST_PTS + first], st[E.ST_PTS + other] = cp0, 120 - cp0
    st[E.ST_NTR + first], st[E.ST_NTR + other] = tricks0, ntricks - tricks0
    E.py_score_deal(ra, st)
    return (int(st[E.ST_WINNER]), bool(st[E.ST_SCHNEIDER]), bool(st[E.ST_SCHWARZ]),
            _value(st, n), [int(x) for x in st[E.ST_DELTA:E.ST_DELTA + n]])


def _value(st, n):
    """The deal's value: the smallest score change in size (0 for a draw)."""
    return int(np.abs(st[E.ST_DELTA:E.ST_DELTA + n]).min())


def test_tariff_two_against_two():
    assert tariff(NORMAL, 4, 0b0101, 61, 3) == (0, False, False, 1, [1, -1, 1, -1])
    assert tariff(NORMAL, 4, 0b0101, 60, 3) == (1, False, False, 1, [-1, 1, -1, 1])
    assert tariff(NORMAL, 4, 0b0101, 91, 6) == (0, True, False, 2, [2, -2, 2, -2])
    assert tariff(NORMAL, 4, 0b0101, 29, 2) == (1, True, False, 2, [-2, 2, -2, 2])
    assert tariff(WEDDING, 4, 0b0011, 120, 8) == (0, True, True, 3, [3, 3, -3, -3])
    assert tariff(NORMAL, 4, 0b0101, 90, 6, schneider_below=31) == (0, True, False, 2,
                                                                   [2, -2, 2, -2])


def test_tariff_one_against_three():
    assert tariff(SOLO, 4, 0b0100, 70, 5) == (0, False, False, 2, [-2, -2, 6, -2])
    assert tariff(QUIET_SOLO, 4, 0b0001, 20, 1) == (1, True, False, 3, [-9, 3, 3, 3])
    assert tariff(SOLO, 4, 0b0001, 0, 0, solo_base=5, schwarz=2) == (1, True, True, 8,
                                                                    [-24, 8, 8, 8])
    assert tariff(WEDDING, 4, 0b0001, 61, 4) == (0, False, False, 1, [3, -1, -1, -1])


def test_tariff_one_against_two():
    # a normal Dreiwendsch game: the black queens' pair against the third
    assert tariff(NORMAL, 3, 0b011, 50, 4, 10) == (1, False, False, 1, [-1, -1, 2])
    assert tariff(SOLO, 3, 0b010, 95, 8, 10) == (0, True, False, 3, [-3, 6, -3])


def test_tariff_officers_draw_and_win():
    assert tariff(NORMAL, 2, 0b01, 60, 8, 16, True) == (-1, False, False, 0, [0, 0])
    assert tariff(NORMAL, 2, 0b10, 61, 8, 16, True) == (0, False, False, 1, [-1, 1])
    assert tariff(NORMAL, 2, 0b10, 100, 16, 16, True) == (0, True, True, 3, [-3, 3])


# ----- the skat variants
T0 = "QC AC TC KC 9C 8C 7C AS TS KS"
T1 = "QS JC JS 9S 8S 7S AH TH KH 9H"
T2 = "QH QD JH JD 8H 7H AD TD KD 9D"
SK = "8D 7D"


def deal3(hands, skat, dealer=2, **kw):
    return DealState(rules(variant="three", **kw), dealer, [m(h) for h in hands], m(skat))


def swap(h, a, b):
    return h.replace(a, b)


def test_pickup_by_clubs_queen_holder_and_discards_count():
    st = deal3((T0, T1, T2), SK, lust_solo="false")
    assert st.to_act() == 0 and st.phase == "pickup"
    with pytest.raises(Illegal):
        st.act(0, "discard", "AC")
    st.act(0, "pickup")
    with pytest.raises(Illegal, match="black queen"):
        st.act(0, "discard", "QC")
    st.act(0, "discard", "AS")
    st.act(0, "discard", "TS")
    # QC with seat 0, QS with seat 1: they play together against seat 2
    assert st.phase == "play" and st.team0 == 0b011 and st.to_act() == 0
    play_lowest(st)
    end = st.end()
    assert sum(end["card_points"]) == 120
    assert sum(st.tpts) == 99                # 21 points lie in the discards, for team 0
    assert end["card_points"][0] == st.tpts[0] + st.tpts[1] + 21


def test_pickup_qc_in_skat_goes_to_qs_holder():
    st = deal3((swap(T0, "QC", "8D"), T1, T2), "QC 7D", lust_solo="false")
    assert st.taker == 1
    st.act(1, "pickup")
    st.act(1, "discard", "AH")
    st.act(1, "discard", "7D")
    assert st.phase == "old_ones" and st.to_act() == 1   # now holds both black queens


def test_pickup_both_black_queens_in_skat_goes_to_forehand():
    st = deal3((swap(T0, "QC", "8D"), swap(T1, "QS", "7D"), T2), "QC QS", dealer=0)
    assert st.taker == 1
    st.act(1, "pickup")
    st.act(1, "discard", "8S")
    st.act(1, "discard", "7S")
    assert st.phase == "lust" and st.to_act() == 1
    st.act(1, "pass")
    st.act(2, "pass")
    st.act(0, "pass")
    st.act(1, "wedding", "QH")
    assert st.team0 == 0b110


def test_sharp_deck_and_hands():
    r = rules(variant="three_sharp")
    st = DealState(r, 0, [m("QC QS AC TC KC JC"), m("QH QD AS TS KS JS"),
                          m("AH TH KH JH AD TD")], m("KD JD"))
    assert st.taker == 0 and st.ntricks == 6


# ----- Officers' Schafkopf
def test_officers_face_down_cards_turn():
    up = [[parse_card(c) for c in "AC TC KC QC JC 9C 8C 7C".split()],
          [parse_card(c) for c in "AS TS KS QS JS 9S 8S 7S".split()]]
    down = [[parse_card(c) for c in "AH TH KH QH JH 9H 8H 7H".split()],
            [parse_card(c) for c in "AD TD KD QD JD 9D 8D 7D".split()]]
    st = DealState(rules(variant="officers"), 1, [mask_of(u) for u in up], 0, up, down)
    assert st.to_act() == 0 and st.team0 == 0b01          # the non-dealer leads
    with pytest.raises(Illegal, match="face up"):
        st.act(0, "play", "AH")                            # still face down
    st.act(0, "play", "AC")
    assert st.hands[0] >> parse_card("AH") & 1             # turned over
    # seat 1 has no club face up (QS, JS are trumps): free choice
    assert st.legal_cards(1) == st.hands[1]
    st.act(1, "play", "7S")
    assert st.hands[1] >> parse_card("7D") & 1
    assert st.leader == 0
    play_lowest(st)
    end = st.end()
    assert end["contract"] == "normal" and end["declarer"] is None
    assert end["teams"] == [[0], [1]] and sum(end["card_points"]) == 120
