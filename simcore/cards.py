"""Card-set helpers shared by every game: a set of card ids as a bit mask and back."""


def mask_cards(mask: int) -> list[int]:
    """Card ids of a mask, lowest first."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards) -> int:
    """Mask of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m
