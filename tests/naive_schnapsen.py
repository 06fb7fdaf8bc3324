"""A slow, obvious reference for Schnapsen deals, written from shared/spec/rules.md only
(no engine imports): cards by record name, hands as sets, every rule spelled out.

``NaiveDeal.legal()`` lists the legal record items of the seat to act (plus
``(seat, "pass")`` for not claiming after the last trick); ``apply(item)`` plays one;
``end()`` is the deal's ``end`` object once it is over.
"""
from __future__ import annotations

RANKS = "JQKTA"          # weakest to strongest within a suit
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
SUITS = "CSHD"


def beats(follow: str, lead: str, trump: str) -> bool:
    """Whether the answer ``follow`` takes the trick led with ``lead``."""
    if follow[1] == lead[1]:
        return RANKS.index(follow[0]) > RANKS.index(lead[0])
    return follow[1] == trump


class NaiveDeal:
    """One deal from a record's ``start``; ``needed``: match points each seat still needs."""

    def __init__(self, rules, start, needed):
        self.rules = rules
        self.hands = [set(h) for h in start["hands"]]
        self.talon = list(start["talon"])
        self.trump_card = start["trump_card"]
        self.trump = self.trump_card[1]
        self._under = True                    # the trump card still lies under the talon
        self.closer = None
        self.snap = (0, 0)                    # closer's opponent's (points, tricks) at close
        self.points = [0, 0]
        self.marriages = [0, 0]
        self.tricks = [0, 0]
        self.needed = list(needed)
        self.leader = 1 - start["dealer"]
        self.phase = "lead"                   # lead, follow, after_last, over
        self.step = 0                         # 0 start, 1 exchanged, 2 closed, 3 married
        self.married = None
        self.lead_card = None
        self.result = None

    def strict(self):
        return self.closer is not None or not self._under

    def to_act(self):
        return 1 - self.leader if self.phase == "follow" else self.leader

    def counted(self, seat):
        return self.points[seat] + (self.marriages[seat] if self.tricks[seat] else 0)

    # ----- legality ---------------------------------------------------------------
    def follow_options(self, seat):
        hand = self.hands[seat]
        if not self.strict():
            return set(hand)
        lead = self.lead_card
        same = {c for c in hand if c[1] == lead[1]}
        higher = {c for c in same if beats(c, lead, self.trump)}
        if higher:
            return higher
        if same:
            return same
        trumps = {c for c in hand if c[1] == self.trump}
        return trumps or set(hand)

    def legal(self) -> set[tuple]:
        if self.phase == "over":
            return set()
        p = self.to_act()
        out = {(p, "resign")}
        if self.phase == "after_last":
            return out | {(p, "claim"), (p, "pass")}
        if self.phase == "follow":
            return out | {(p, "play", c) for c in self.follow_options(p)}
        hand = self.hands[p]
        if self.step == 3:
            out |= {(p, "play", c) for c in hand if c[1] == self.married and c[0] in "KQ"}
            return out | {(p, "claim")}
        out |= {(p, "play", c) for c in hand}
        if self.step == 0 and sum(self.tricks) > 0:
            out.add((p, "claim"))
        size = len(self.talon) + 1 if self._under else 0
        if (self.step == 0 and not self.strict() and size >= self.rules["exchange_min_talon"]
                and "J" + self.trump in hand):
            out.add((p, "exchange"))
        if self.step <= 1 and not self.strict() and size >= self.rules["close_min_talon"]:
            out.add((p, "close"))
        if not self.strict() or self.rules["marriage_after_close"]:
            out |= {(p, "marriage", s) for s in SUITS if {"K" + s, "Q" + s} <= hand}
        return out

    # ----- playing -------------------------------------------------------------------
    def apply(self, item) -> None:
        item = tuple(item)
        assert item in self.legal(), (item, sorted(self.legal()))
        p, verb, *arg = item
        o = 1 - p
        if verb == "resign":
            self._end(o, self.needed[o], "resign")
        elif verb == "claim":
            self._claim(p)
        elif verb == "pass":
            if self.closer is not None:
                self._end(1 - self.closer, 3 if self.snap[1] == 0 else 2, "failed_close")
            else:
                self._end(p, 1, "last_trick")
        elif verb == "exchange":
            jack = "J" + self.trump
            self.hands[p] = self.hands[p] - {jack} | {self.trump_card}
            self.trump_card = jack
            self.step = 1
        elif verb == "close":
            self.closer = p
            self.snap = (self.counted(o), self.tricks[o])
            self.step = 2
        elif verb == "marriage":
            self.marriages[p] += 40 if arg[0] == self.trump else 20
            self.married = arg[0]
            self.step = 3
        elif self.phase == "lead":
            self.hands[p].remove(arg[0])
            self.lead_card = arg[0]
            self.phase = "follow"
        else:
            card = arg[0]
            self.hands[p].remove(card)
            lead = self.lead_card
            w = p if beats(card, lead, self.trump) else o
            self.points[w] += POINTS[lead[0]] + POINTS[card[0]]
            self.tricks[w] += 1
            if self.closer is None and self._under:
                self.hands[w].add(self.talon.pop(0))
                if self.talon:
                    self.hands[1 - w].add(self.talon.pop(0))
                else:
                    self.hands[1 - w].add(self.trump_card)
                    self._under = False
            self.leader = w
            self.step = 0
            self.married = None
            self.lead_card = None
            self.phase = "after_last" if not self.hands[w] else "lead"

    def _claim(self, p):
        o = 1 - p
        target = self.rules["target"]
        if self.counted(p) < target:
            return self._end(o, 3 if self.tricks[o] == 0 else 2, "wrong_claim")
        if self.closer == o:
            return self._end(p, 3 if self.snap[1] == 0 else 2, "failed_close")
        opp_points, opp_tricks = self.counted(o), self.tricks[o]
        if self.closer == p and self.rules["closed_scoring"] == "at_close":
            opp_points, opp_tricks = self.snap
        if opp_tricks == 0:
            gp = 3
        elif opp_points < self.rules["schneider_below"]:
            gp = 2
        else:
            gp = 1
        self._end(p, gp, "claim")

    def _end(self, winner, gp, reason):
        self.result = (winner, gp, reason)
        self.phase = "over"

    def end(self) -> dict:
        w, gp, reason = self.result
        return {"winner": w, "game_points": gp, "reason": reason,
                "card_points": [self.counted(0), self.counted(1)], "tricks": list(self.tricks)}

    def cards_in_play(self):
        """Every card not yet played: both hands, the talon, the trump card if under it."""
        return (self.hands[0] | self.hands[1] | set(self.talon)
                | ({self.trump_card} if self._under else set()))
