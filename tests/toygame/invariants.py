"""Toy's record invariants, written from the rules (not from the engine): every card
dealt once, cards played by their holder, suit followed, each trick to the highest card
of the suit led, a point a trick (two for the last with ``last_bonus``)."""
from __future__ import annotations

RANKS, SUITS = "JQKA", "CSH"


def check_record(rec) -> list[str]:
    """The problems of one toy record (empty when it holds)."""
    n = rec["rules"]["players"]
    deal = rec["deals"][0]
    hands = [set(h) for h in deal["start"]["hands"]]
    problems = []
    if sorted(c for h in hands for c in h) != sorted(r + s for r in RANKS for s in SUITS):
        problems.append("the hands are not the deck, each card once")
    points = [0] * n
    leader = deal["start"]["leader"]
    actions = deal["actions"]
    for t in range(0, len(actions), n):
        trick = actions[t:t + n]
        suit = trick[0][2][1]
        for k, (seat, verb, card) in enumerate(trick):
            if seat != (leader + k) % n or verb != "play" or card not in hands[seat]:
                problems.append(f"action {t + k}: seat {seat} cannot play {card}")
            elif card[1] != suit and any(c[1] == suit for c in hands[seat]):
                problems.append(f"action {t + k}: seat {seat} does not follow {suit}")
            hands[seat].discard(card)
        best = max((RANKS.index(c[0]), s) for s, _, c in trick if c[1] == suit)[1]
        points[best] += 2 if rec["rules"]["last_bonus"] and t + n == len(actions) else 1
        leader = best
    if any(hands):
        problems.append("cards left in hand at the end")
    if deal["end"]["points"] != points or rec["result"]["points"] != points:
        problems.append(f"points {rec['result']['points']}, the tricks give {points}")
    return problems
