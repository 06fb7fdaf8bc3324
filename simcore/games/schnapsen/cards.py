"""Schnapsen cards: ids, bit masks, parsing and formatting.

Card id ``suit * 5 + r`` with suits C S H D (0..3) and ``r`` the strength
within the suit: 0 J, 1 Q, 2 K, 3 T, 4 A.  A higher id within a suit beats
a lower one.  A hand is a uint64 with bit ``id`` set per card (20 cards).
"""
import numpy as np

from ...errors import TricksimError
from ...cards import mask_cards, mask_of  # noqa: F401  (re-exported)

SUITS = "CSHD"
RANKS = "JQKTA"
N_CARDS = 20
JACK, QUEEN, KING, TEN, ACE = range(5)
RANK_POINTS = (2, 3, 4, 10, 11)

CARD_POINTS = np.array([RANK_POINTS[c % 5] for c in range(N_CARDS)], dtype=np.int64)
SUIT_MASK = np.array([0x1F << (5 * s) for s in range(4)], dtype=np.uint64)
DECK_MASK = (1 << N_CARDS) - 1


def card_name(c: int) -> str:
    """Record name of a card: rank then suit, e.g. ``TH``."""
    return RANKS[c % 5] + SUITS[c // 5]


_BY_NAME = {card_name(c): c for c in range(N_CARDS)}


def parse_card(name) -> int:
    """Card id of a record name; TricksimError for anything else."""
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    raise TricksimError(f"'{name}' is not a Schnapsen card (rank A T K Q J then suit "
                        "C S H D, e.g. TH)")


def parse_suit(name) -> int:
    """Suit index of a record suit letter; TricksimError for anything else."""
    if isinstance(name, str) and len(name) == 1 and name in SUITS:
        return SUITS.index(name)
    raise TricksimError(f"'{name}' is not a suit (one of C S H D)")


def names(mask) -> list[str]:
    """Record names of the cards of a mask."""
    return [card_name(c) for c in mask_cards(mask)]
