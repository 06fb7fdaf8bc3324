"""Schadenfreude cards: ids, bit masks, parsing and formatting.

Card id ``suit * 12 + i`` for the number cards, where ``i`` indexes
ALL_VALUES (-3 -2 -1 1..9) and suits are C S H D; 48 is the wild 0 and
49 the wild 10.  A hand or pile is a uint64 with bit ``id`` set per card.
For trick resolution a card's *rank* is its value + 3 (0..13), unique
among the cards that follow a trick.
"""
import numpy as np

from ...errors import TricksimError
from ...cards import mask_cards, mask_of  # noqa: F401  (re-exported)

ALL_VALUES = (-3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9)
SUITS = "CSHD"
WILD0, WILD10 = 48, 49
N_CARDS = 50

CARD_VALUE = np.array([ALL_VALUES[c % 12] for c in range(48)] + [0, 10], dtype=np.int64)
CARD_RANK = CARD_VALUE + 3
SUIT_MASK = np.array([((1 << 12) - 1) << (12 * s) for s in range(4)], dtype=np.uint64)
WILD_MASK = np.uint64((1 << WILD0) | (1 << WILD10))
# all cards of one rank (the four suits of a number value, or the one wild card)
RANK_CARDS = np.zeros(14, dtype=np.uint64)
for _c in range(N_CARDS):
    RANK_CARDS[CARD_RANK[_c]] |= np.uint64(1 << _c)
# card suit index 0..3, or 4 for wilds
CARD_SUIT = np.array([c // 12 for c in range(48)] + [4, 4], dtype=np.int64)


def deck_mask(values) -> int:
    """Bit mask of the deck holding ``values`` in four suits plus both wilds."""
    m = (1 << WILD0) | (1 << WILD10)
    for v in values:
        i = ALL_VALUES.index(v)
        for s in range(4):
            m |= 1 << (s * 12 + i)
    return m


def card_name(c: int) -> str:
    """Record name of a card: ``-3C``, ``7H``, ``0W``, ``10W``."""
    if c == WILD0:
        return "0W"
    if c == WILD10:
        return "10W"
    return f"{ALL_VALUES[c % 12]}{SUITS[c // 12]}"


_BY_NAME = {card_name(c): c for c in range(N_CARDS)}


def parse_card(name) -> int:
    """Card id of a record name; TricksimError for anything else."""
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    raise TricksimError(f"'{name}' is not a Schadenfreude card (value -3..9 then C/S/H/D, "
                        "or 0W / 10W)")
