"""Toy in words: ``replay --show``, ``play`` and ``analyse``'s view of a position."""
from __future__ import annotations

from simcore.analysis.show import NarratorBase, cards, says
from simcore.text import counted

from .engine import RANKS, SUITS, card_name


class Narrator(NarratorBase):
    """Toy's deal, tricks and points as lines of text."""

    legend = "cards: rank then suit (J Q K A; C clubs, S spades, H hearts): KH"

    def deal_start(self, st) -> list[str]:
        start = self.eng.deal_start(st)
        return [f"{says(self.who(start['leader']), 'lead')} the first trick"] + [
            f"  {self.who(p)}: {cards(self.sorted_cards(st, hand))}"
            for p, hand in enumerate(start["hands"]) if self.sees(p)]

    def action(self, before, a, after) -> list[str]:
        seat = self.eng.to_move(before)
        out = [f"{says(self.who(seat), 'play')} {card_name(a)}"]
        if self.eng.view(after, seat)["trick"] == []:
            w = self.eng.to_move(after)
            out.append(f"  the trick to {self.who(w)}")
        return out

    def deal_end(self, st) -> list[str]:
        return ["points " + " ".join(map(str, self.eng.deal_end(st)["points"]))]

    def result(self, st) -> list[str]:
        r = self.eng.result(st)
        who = "nobody (a tie)" if r["winner"] < 0 else self.who(r["winner"])
        return [f"game over: winner {who}; points {' '.join(map(str, r['points']))}"]

    def view(self, st, seat: int) -> list[str]:
        v = self.eng.view(st, seat)
        out = [f"your hand: {cards(self.sorted_cards(st, v['hand']))}"]
        if v["trick"]:
            out.append("on the table: " + ", ".join(f"{self.who(p)} {c}" for p, c in v["trick"]))
        return out + [f"  {self.who(p)}: {counted(x, 'point')}" for p, x in enumerate(v["points"])]

    def label(self, state, action: int) -> str:
        return card_name(action)

    def card_of(self, action: int) -> str:
        return card_name(action)

    def card_key(self, state, name: str):
        return SUITS.index(name[1]), RANKS.index(name[0])
