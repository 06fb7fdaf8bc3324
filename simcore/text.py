"""Words for counts: ``1 card``, ``2 cards``, ``1 match``, ``3 matches``.

The one place that knows how a count's noun takes its plural, so no output prints
"1 cards" or "1 worlds"; every message, report and table title that puts a count
before a noun uses ``counted`` (or ``plural`` for the noun alone).
"""
from __future__ import annotations

#: plurals that do not just add -s / -es
_IRREGULAR = {"was": "were", "is": "are", "has": "have"}


def plural(noun: str) -> str:
    """The plural of ``noun`` (its last word): ``match`` -> ``matches``, ``card`` ->
    ``cards``, ``policy`` -> ``policies``, ``game point`` -> ``game points``."""
    head, _, last = noun.rpartition(" ")
    if last in _IRREGULAR:
        word = _IRREGULAR[last]
    elif last.endswith(("ch", "sh", "s", "x")):
        word = last + "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "o", "u", ""):
        word = last[:-1] + "ies"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def noun_for(n, noun: str) -> str:
    """``noun`` as it goes after the count ``n``: singular for exactly 1."""
    return noun if n == 1 else plural(noun)


def counted(n, noun: str, sep: bool = True) -> str:
    """``n`` and its noun: ``1 card``, ``12 cards``, ``1,000 games`` (``sep``: thousands
    separators)."""
    return f"{n:,} {noun_for(n, noun)}" if sep else f"{n} {noun_for(n, noun)}"
