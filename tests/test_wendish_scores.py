"""Wendish deal scores from an independent reference: tests/naive_wendish.py scores a
deal from the rules (tariff, Schneider, Schwarz, solos, weddings, Officers' draw)
with no code of simcore.games.wendish. Every golden record and records under a
tariff of distinct values must carry the reference's ``end`` and ``result``; two
golden deals are traced by hand below, card by card."""
import pytest

from naive_wendish import as_compared, naive_deal, naive_result
from simcore import get_game
from simcore.games.wendish.rules import RULEBOOK

VARIANTS = ("four", "three", "three_sharp", "officers")
SEATS = {"four": 4, "three": 3, "three_sharp": 3, "officers": 2}
GAME = get_game("wendish")


def kind(deal):
    """The contract, a wedding told apart by how it was called."""
    calls = [a[2] for a in deal["actions"] if a[1] == "wedding"]
    return deal["end"]["contract"] + ("_first_trick" if calls == ["first_trick"] else "")


def check_against_reference(rec):
    ends, result = naive_result(rec)
    for d, (deal, end) in enumerate(zip(rec["deals"], ends)):
        assert as_compared(deal["end"]) == end, (rec["index"], d)
    assert rec["result"] == result, rec["index"]


@pytest.fixture(scope="module")
def golden(golden_dir, jsonl):
    return {v: jsonl.read(golden_dir / f"wendish_{v}.jsonl") for v in VARIANTS}


def test_every_golden_record_scores_as_the_reference(golden):
    seen = set()
    for variant, recs in golden.items():
        assert recs, variant
        for rec in recs:
            assert rec["rules"]["variant"] == variant
            check_against_reference(rec)
            seen |= {(variant, kind(d)) for d in rec["deals"]}
            seen |= {(key, d["end"][key]) for d in rec["deals"] for key in ("schneider",
                                                                          "schwarz")}
    # the golden files between them hold every contract the variants have
    for variant in ("four", "three"):
        assert {(variant, k) for k in ("normal", "solo", "wedding", "wedding_first_trick")} \
            <= seen | {("three", "solo")}, variant
    assert {("four", "quiet_solo"), ("three_sharp", "quiet_solo"), ("officers", "normal"),
            ("schneider", True), ("schneider", False), ("schwarz", True)} <= seen


def test_the_reference_rejects_every_corrupted_golden_record(golden_dir, jsonl):
    """The reference is not a yes-machine: each broken copy disagrees with it or breaks
    one of its own checks (a card twice, the wrong leader)."""
    for rec in jsonl.read(golden_dir / "wendish_corrupted.jsonl"):
        try:
            ends, result = naive_result(rec)
        except (AssertionError, StopIteration):
            continue
        assert [as_compared(d["end"]) for d in rec["deals"]] != ends or \
            rec["result"] != result, rec["index"]


# A tariff where every term is a different number, so that a term counted twice, left
# out or swapped for another shows in the scores; wedding_deadline=1 so that a
# first-trick wedding often goes alone.
ODD_TARIFF = ["base=3", "schneider=5", "schwarz=11", "solo_base=7", "schneider_below=45",
              "wedding_deadline=1", "deals=2"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_records_under_an_odd_tariff_score_as_the_reference(variant, game_records):
    n = SEATS[variant]
    recs = []
    for extra, policies in ((["lust_solo=false"], ["random"] * n),
                            ([], ["heuristic"] + ["random"] * (n - 1)),
                            (["lust_solo=false"], ["heuristic"] * n)):
        rules = RULEBOOK.build(assignments=[f"variant={variant}", *ODD_TARIFF, *extra])
        recs += game_records("wendish", rules, policies, 8, range(8))
    seen = set()
    for rec in recs:
        check_against_reference(rec)
        for d in rec["deals"]:
            e = d["end"]
            seen |= {kind(d), ("schneider", e["schneider"]), ("schwarz", e["schwarz"]),
                     ("alone", len(e["teams"][0]) == 1 and n > 2), ("winner", e["winner"])}
    # what the tariff terms need to show
    assert {("schneider", True), ("schneider", False), ("winner", 0), ("winner", 1)} <= seen
    if variant != "officers":
        assert {"normal", "solo", "wedding", ("alone", True), ("alone", False)} <= seen, seen
    if variant in ("four", "three_sharp"):
        assert ("schwarz", True) in seen


# ----- two golden deals traced by hand ---------------------------------------------------

def golden_deal(golden, variant, line, deal=0):
    return golden[variant][line - 1]["deals"][deal]


def test_hand_traced_four_wedding_first_trick(golden):
    """wendish_four.jsonl record 4: a first-trick wedding, 2 against 2, Schneider."""
    deal = golden_deal(golden, "four", 4)
    assert golden["four"][3]["rules"]["lust_solo"] is False
    assert deal["start"] == {"dealer": 2, "skat": [], "hands": [
        ["AC", "8C", "AS", "8S", "AH", "TH", "9H", "8H"],
        ["TC", "9C", "7C", "JS", "QH", "TD", "KD", "QD"],
        ["QC", "JC", "TS", "QS", "7S", "7H", "JD", "7D"],     # both black queens
        ["KC", "KS", "9S", "KH", "JH", "AD", "9D", "8D"]]}
    # No Lust Solo round (lust_solo=false); s2 holds QC and QS and calls a wedding with
    # the first other player to win one of the first 3 tricks. Diamonds are trumps.
    # Dealer s2, so forehand s3 leads.
    tricks = [
        # T1 clubs led; s2 has no plain club (QC, JC are trumps) and trumps with 7D:
        #    s2 wins 4 (KC). The caller's own trick finds no partner.
        (3, ["KC", "8C", "7C", "7D"]),
        # T2 spades; s1's only spade is JS, a trump: it is void and trumps with TD:
        #    s1 wins 10 + 10 = 20, the first other winner within 3 tricks: s1 is the
        #    partner, sides {1, 2} and {0, 3}.
        (2, ["TS", "9S", "8S", "TD"]),
        # T3 trumps; JC beats KD and 8D (jacks over the diamond suit), s0 has no trump
        #    and throws 8H: s2 wins 4 + 2 = 6.
        (1, ["KD", "JC", "8D", "8H"]),
        # T4 hearts; s1 is void (QH is a trump) and trumps with JS: s1 wins 4 + 2 = 6.
        (2, ["7H", "KH", "9H", "JS"]),
        # T5 trumps; QC is the top trump, s0 throws TH: s2 wins 3 + 3 + 10 = 16.
        (1, ["QD", "QC", "9D", "TH"]),
        # T6 trumps; JH beats JD, QH beats both, s0 throws AH: s1 wins
        #    2 + 2 + 11 + 3 = 18.
        (2, ["JD", "JH", "AH", "QH"]),
        # T7 clubs; s2 and s3 are void (s3's KC went in T1), s3 trumps with AD: s3 wins
        #    11 + 11 = 22, the only trick of the side {0, 3}.
        (1, ["9C", "7S", "AD", "AC"]),
        # T8 spades; s1 throws TC, s2 trumps with QS: s2 wins 4 + 11 + 10 + 3 = 28.
        (3, ["KS", "AS", "TC", "QS"]),
    ]
    assert deal["actions"][0] == [2, "wedding", "first_trick"]
    assert deal["actions"][1:] == [[(lead + k) % 4, "play", c] for lead, cards in tricks
                                   for k, c in enumerate(cards)]
    # {1, 2}: s1 20 + 6 + 18 = 44, s2 4 + 6 + 16 + 28 = 54, together 98: 61 or more, the
    # wedding pair wins. {0, 3}: 22, below 30: Schneider; but s3 took T7: no Schwarz.
    # Worth base 1 + schneider 1 = 2; 2 against 2: each winner +2, each loser -2.
    want = {"contract": "wedding", "declarer": 2, "trump": "D", "teams": [[1, 2], [0, 3]],
            "card_points": [98, 22], "winner": 0, "schneider": True, "schwarz": False,
            "scores": [-2, 2, 2, -2]}
    assert as_compared(deal["end"]) == want
    assert naive_deal(golden["four"][3]["rules"], deal) == want
    assert golden["four"][3]["result"] == {"scores": [-2, 2, 2, -2]}


def test_hand_traced_three_lust_solo_schneider_not_schwarz(golden):
    """wendish_three.jsonl record 2: Dreiwendsch, the skat's discards to the defenders,
    a Lust Solo in spades lost with 0 points but one trick: Schneider, not Schwarz."""
    deal = golden_deal(golden, "three", 2)
    assert deal["start"] == {"dealer": 1, "skat": ["9S", "AH"], "hands": [
        ["KC", "QC", "QS", "JS", "TH", "QH", "TD", "KD", "QD", "8D"],
        ["AC", "TC", "9C", "8C", "7C", "AS", "KS", "7S", "8H", "7D"],
        ["JC", "TS", "8S", "KH", "JH", "9H", "7H", "AD", "JD", "9D"]]}
    # s0 holds QC: takes the skat (9S AH) and puts away AH and TH, 11 + 10 = 21 points
    # for s0's side. Lust Solo round from forehand s2 (dealer s1): s2 passes, s0 passes,
    # s1 announces a solo with spades as trumps: the trumps are the queens, the jacks,
    # then AS TS KS 9S 8S 7S; diamonds are now a plain suit. s1 alone against {0, 2},
    # and the discards count for {0, 2} (s0 is a defender).
    assert deal["actions"][:6] == [[0, "pickup"], [0, "discard", "AH"], [0, "discard", "TH"],
                                   [2, "pass"], [0, "pass"], [1, "solo", "S"]]
    tricks = [
        # T1 hearts; s0 is void (TH away, QH a trump) and throws 8D; 8H beats 7H:
        #    s1 wins the soloist's only trick, 0 points.
        (2, ["7H", "8D", "8H"]),
        # T2 clubs; s2 void, trumps with JC over s0's KC: s2 wins 2 + 4 = 6.
        (1, ["7C", "JC", "KC"]),
        # T3 trumps; JD beats 9S and AS (jacks over the spade suit): s2 wins 2 + 11 = 13.
        (2, ["JD", "9S", "AS"]),
        # T4 diamonds, plain now; KD beats 9D and 7D: s0 wins 4.
        (2, ["9D", "KD", "7D"]),
        # T5 diamonds; s1 void (7D gone) throws TC; AD beats TD: s2 wins 10 + 10 + 11 = 31.
        (0, ["TD", "TC", "AD"]),
        # T6 hearts; s0 trumps with JS, s1 void throws AC: s0 wins 4 + 2 + 11 = 17.
        (2, ["KH", "JS", "AC"]),
        # T7 trumps; QD over 7S and JH: s0 wins 3 + 2 = 5.
        (0, ["QD", "7S", "JH"]),
        # T8 trumps; QH over KS and 8S: s0 wins 3 + 4 = 7.
        (0, ["QH", "KS", "8S"]),
        # T9 trumps; s1 has none left (AS, 7S, KS gone) and throws 9C; QS over TS:
        #    s0 wins 3 + 10 = 13.
        (0, ["QS", "9C", "TS"]),
        # T10 trumps; QC: s0 wins 3.
        (0, ["QC", "8C", "9H"]),
    ]
    assert deal["actions"][6:] == [[(lead + k) % 3, "play", c] for lead, cards in tricks
                                   for k, c in enumerate(cards)]
    # s1: 0 points (T1 was 8H 8D 7H). {0, 2}: s0 4 + 17 + 5 + 7 + 13 + 3 = 49, s2
    # 6 + 13 + 31 = 50, the discards 21: 120. The soloist has fewer than 61 and loses;
    # 0 is below 30: Schneider; but s1 took a trick: no Schwarz (counted in tricks).
    # Worth solo_base 2 + schneider 1 = 3; alone against 2: s1 -2 x 3 = -6, s0 and s2 +3.
    want = {"contract": "solo", "declarer": 1, "trump": "S", "teams": [[1], [0, 2]],
            "card_points": [0, 120], "winner": 1, "schneider": True, "schwarz": False,
            "scores": [3, -6, 3]}
    assert as_compared(deal["end"]) == want
    assert naive_deal(golden["three"][1]["rules"], deal) == want
    assert golden["three"][1]["result"] == {"scores": [3, -6, 3]}

