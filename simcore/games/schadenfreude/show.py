"""Schadenfreude in words: the narration of ``tricksim replay --show`` and
``tricksim play``.

Every fact comes from the engine (``api.Engine``: ``view``, ``deal_start``,
``deal_end``, ``result``); this module only words it.
"""
from __future__ import annotations

from ...analysis.show import NarratorBase, cards, says as _s
from ...text import counted

_SUIT_WORDS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}



class Narrator(NarratorBase):
    """Schadenfreude's rounds, tricks, piles and totals as lines of text."""

    deal_word = "round"
    legend = ("cards: value then suit (C clubs, S spades, H hearts, D diamonds): -3C, 7H; "
              "the wild cards 0W and 10W")

    def deal_start(self, st) -> list[str]:
        """The round as dealt: leader, totals, the hands (as far as the viewer may
        see them) and the cards set aside."""
        start = self.eng.deal_start(st)
        v = self.eng.view(st, 0)
        totals = " ".join(str(x) for x in start["scores"])
        out = [f"round {v['round']}: {_s(self.who(start['leader']), 'lead')}; totals {totals} "
               f"(limit {self.eng.rules['limit']})"]
        for p, hand in enumerate(start["hands"]):
            if self.sees(p):
                out.append(f"  {self.who(p)}: {cards(hand)}")
        if self.viewer is None:
            out.append(f"  set aside: {cards(start['aside'])}")
        return out

    def action(self, before, a, after) -> list[str]:
        """One card in words; a trick's last card adds who takes it and their pile."""
        eng = self.eng
        seat = eng.to_move(before)
        vb = eng.view(before, seat)
        card = eng.describe(a).split()[1]
        me = self.who(seat)
        if not vb["trick"]:
            return [f"{_s(me, 'lead')} {card}"]
        out = [f"{_s(me, 'play')} {card}"]
        if len(vb["trick"]) + 1 < len(vb["held"]):
            return out
        va = eng.view(after, seat)
        w = va["trick_leader"]
        trick = vb["trick"] + [[seat, card]]
        wcard = next(c for p, c in trick if p == w)
        lost = [c for c in vb["piles"][w] if c not in va["piles"][w]]
        line = (f"  trick {vb['tricks_done'] + 1} to {self.who(w)} with {wcard}; pile now "
                f"{cards(va['piles'][w])} ({counted(va['points'][w], 'point')})")
        if lost:
            line += f"; knocked out of it: {cards(lost)}"
        return out + [line]

    def deal_end(self, st) -> list[str]:
        """The round's points, the totals and who is over the limit."""
        e = self.eng.deal_end(st)
        v = self.eng.view(st, 0)
        pts = " ".join(str(x) for x in e["points"])
        totals = " ".join(str(x) for x in e["scores"])
        bust = ", ".join(self.who(p) for p in v["bust"])
        return [f"round {v['round'] - 1} ends: points {pts}; totals {totals}"
                + (f"; over the limit: {bust}" if bust else "")]

    def result(self, st) -> list[str]:
        """The winner (or why there is none) and the final totals."""
        r = self.eng.result(st)
        totals = ", ".join(f"{self.who(p)} {x}" for p, x in enumerate(r["scores"]))
        if r["unfinished"]:
            how = (f"stopped unfinished after {counted(self.eng.rules['max_rounds'], 'round')}, "
                   "no winner")
        elif r["winners"]:
            how = "winner " + ", ".join(self.who(p) for p in r["winners"])
        else:
            how = "no winner (the highest totals under the limit are tied, or all are over)"
        bust = ", ".join(self.who(p) for p in r["bust"])
        return [f"game over: {how}; over the limit: {bust or 'nobody'}; totals {totals}"]

    def view(self, st, seat: int) -> list[str]:
        """What ``seat`` sees before it plays."""
        v = self.eng.view(st, seat)
        out = [f"your hand: {cards(v['hand'])}"]
        if v["trick"]:
            on = ", ".join(f"{self.who(p)} {c}" for p, c in v["trick"])
            lead = (f"suit led {_SUIT_WORDS[v['lead_suit']]}" if v["lead_suit"]
                    else "no suit yet (a wild card led)")
            out.append(f"on the table: {on}; {lead}")
        for p, pile in enumerate(v["piles"]):
            out.append(f"  {self.who(p)}: pile {cards(pile)} ({counted(v['points'][p], 'point')}), "
                       f"total before this round {v['scores'][p]}, "
                       f"{counted(v['held'][p], 'card')} in hand")
        return out

    def label(self, state, action: int) -> str:
        """The card's name (``-3C``, ``7H``, ``0W``)."""
        return self.eng.describe(action).split()[1]
