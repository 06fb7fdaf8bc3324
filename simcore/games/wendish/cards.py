"""Wendish Schafkopf cards: ids, bit masks, trump tables, parsing and formatting.

Card id ``suit * 8 + rank`` with suits C S H D (0..3) and ranks A T K Q J 9 8 7
(0..7).  A hand is a uint64 with bit ``id`` set per card (32 bits used).

Trick power tables are indexed ``[trump_suit, card]``: trumps 16..29 (QC highest,
then QS QH QD JC JS JH JD and the trump suit's A T K 9 8 7), plain cards 0..5 by
rank inside their suit (A 5 .. 7 0).  A card that neither follows the led suit
nor is a trump cannot win.
"""
import numpy as np

from ...errors import TricksimError
from ...cards import mask_cards, mask_of  # noqa: F401  (re-exported)

SUITS = "CSHD"
RANKS = "ATKQJ987"
N_CARDS = 32
C, S, H, D = 0, 1, 2, 3
A, T, K, Q, J, N9, N8, N7 = range(8)
RANK_POINTS = (11, 10, 4, 3, 2, 0, 0, 0)


def card_id(rank: int, suit: int) -> int:
    """Card id of (rank index, suit index)."""
    return suit * 8 + rank


QC, QS, QH, QD = (card_id(Q, s) for s in range(4))
JC, JS, JH, JD = (card_id(J, s) for s in range(4))
BLACK_QUEENS = (1 << QC) | (1 << QS)

CARD_POINTS = np.array([RANK_POINTS[c % 8] for c in range(N_CARDS)], dtype=np.int64)
CARD_SUIT = np.array([c // 8 for c in range(N_CARDS)], dtype=np.int64)

_QJ = 0
for _s in range(4):
    _QJ |= (1 << card_id(Q, _s)) | (1 << card_id(J, _s))
SUIT_BITS = [0xFF << (8 * s) for s in range(4)]

#: trump mask per trump suit
TRUMP_MASK = np.array([_QJ | SUIT_BITS[t] for t in range(4)], dtype=np.uint64)
#: cards a follower must play when ``card`` is led, per trump suit [t, card]
FOLLOW_MASK = np.zeros((4, N_CARDS), dtype=np.uint64)
#: trick power [t, card] (see module doc)
POWER = np.zeros((4, N_CARDS), dtype=np.int64)
_TOP = [QC, QS, QH, QD, JC, JS, JH, JD]
_PLAIN_ORDER = (A, T, K, N9, N8, N7)  # high to low
for _t in range(4):
    order = _TOP + [card_id(r, _t) for r in _PLAIN_ORDER]  # high to low, 14 trumps
    for _i, _c in enumerate(order):
        POWER[_t, _c] = 29 - _i
    for _c in range(N_CARDS):
        tm = int(TRUMP_MASK[_t])
        if tm >> _c & 1:
            FOLLOW_MASK[_t, _c] = np.uint64(tm)
        else:
            FOLLOW_MASK[_t, _c] = np.uint64(SUIT_BITS[_c // 8] & ~tm)
            POWER[_t, _c] = 5 - _PLAIN_ORDER.index(_c % 8)

#: the deck per variant (0 four, 1 three, 2 three_sharp, 3 officers)
FULL_DECK = (1 << 32) - 1
SHARP_DECK = 0
for _s in range(4):
    for _r in (A, T, K, Q, J):
        SHARP_DECK |= 1 << card_id(_r, _s)
VARIANTS = ("four", "three", "three_sharp", "officers")
V_FOUR, V_THREE, V_SHARP, V_OFFICERS = range(4)
#: per variant: players, hand size (officers: face-up + face-down), skat size, deck mask
VARIANT_PLAYERS = (4, 3, 3, 2)
VARIANT_HAND = (8, 10, 6, 16)
VARIANT_SKAT = (0, 2, 2, 0)
VARIANT_DECK = (FULL_DECK, FULL_DECK, SHARP_DECK, FULL_DECK)


def card_name(c: int) -> str:
    """Record name of a card: rank then suit, e.g. ``QC``, ``TH``, ``7D``."""
    return RANKS[c % 8] + SUITS[c // 8]


_BY_NAME = {card_name(c): c for c in range(N_CARDS)}


def parse_card(name) -> int:
    """Card id of a record name; TricksimError for anything else."""
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    raise TricksimError(f"'{name}' is not a Wendish Schafkopf card (rank A T K Q J 9 8 7 "
                        "then suit C S H D, e.g. QC or 7D)")


def trump_order(trump: int) -> list[int]:
    """The trumps of a trump suit, highest first (for tests and docs)."""
    tm = int(TRUMP_MASK[trump])
    return sorted((c for c in range(N_CARDS) if tm >> c & 1), key=lambda c: -POWER[trump, c])
