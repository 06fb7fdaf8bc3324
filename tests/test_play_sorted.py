"""`tricksim play` shows the human's hand sorted (issue 20, item 11): by suit, then rank
highest first, as card players hold them (Wendish: trumps first), in every game and
variant, also after cards are drawn from the Schnapsen talon; the choices menu lists the
playable cards in the hand's order."""
import re

import pytest

FIRST = "1\n" * 3000
SUITS = "CSHD"


def schnapsen_key(card, trump):
    return SUITS.index(card[1]), -"JQKTA".index(card[0])


def wendish_key(card, trump):
    """Trumps (every Q, every J, the trump suit) first: QC QS QH QD JC JS JH JD, then
    the trump suit's A T K 9 8 7; then the plain suits C S H D, each A T K 9 8 7."""
    rank, suit = card[0], card[1]
    if rank == "Q":
        return 0, SUITS.index(suit)
    if rank == "J":
        return 0, 4 + SUITS.index(suit)
    plain = "ATK987".index(rank)
    if suit == trump:
        return 0, 8 + plain
    return 1 + SUITS.index(suit), plain


def schadenfreude_key(card, trump):
    suit = card[-1]
    return ("CSHDW".index(suit), int(card[:-1]))


KEYS = {"schnapsen": schnapsen_key, "wendish": wendish_key,
        "schadenfreude": schadenfreude_key}
VARIANTS = [("schnapsen", []), ("wendish", []), ("wendish", ["--preset", "dreiwendsch"]),
            ("wendish", ["--preset", "officers"]), ("schadenfreude", ["--players", "3"])]


@pytest.mark.parametrize("game,args", VARIANTS, ids=[f"{g}{''.join(a)}" for g, a in VARIANTS])
def test_the_hand_and_the_menu_are_sorted(game, args, invoke):
    res = invoke("play", game, *args, "--seed", 3, "--policy", "random", "--no-save",
                 input=FIRST)
    assert res.exit_code == 0, res.output
    key = KEYS[game]
    trump = "D"
    hands = drawn = 0
    hand = None
    for line in res.stdout.splitlines():
        m = re.search(r"announces? a Lust Solo, trumps (clubs|spades|hearts|diamonds)", line)
        if m:                       # the solo's trumps from the announcement on
            trump = m.group(1)[0].upper()
        if line.startswith("deal ") and ": dealer" in line:
            trump = "D"
        shown = re.match(r"(?:your hand|your face-up cards): (.*)", line)
        if shown:
            hand = [c.rstrip("*") for c in shown.group(1).split() if c != "-"]
            assert hand == sorted(hand, key=lambda c: key(c, trump)), line
            hands += 1
        if line.lstrip().startswith("drawn: you"):
            drawn += 1
        if line.startswith("your choices:") and hand is not None:
            picks = [c for c in re.findall(r"\d+\) (\S+)", line) if c.rstrip("*") in hand]
            assert picks == [c for c in hand if c in picks], (hand, line)
    assert hands >= 5
    if game == "schnapsen":
        assert drawn >= 1          # the hand after a draw was checked too
