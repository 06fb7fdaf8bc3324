"""Schnapsen in words: the narration of ``tricksim replay --show`` and ``tricksim play``.

Every fact comes from the engine (``api.Engine``: ``view``, ``deal_start``,
``deal_end``); this module only words it.
"""
from __future__ import annotations

from ...analysis.show import NarratorBase, cards, says
from ...text import counted
from .cards import RANKS, SUITS
from .engine import A_CLAIM, A_CLOSE, A_EXCHANGE, A_MARRIAGE, A_PASS, A_RESIGN

_SUIT_WORDS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_REASONS = {"claim": "a correct claim", "wrong_claim": "the other's wrong claim",
            "failed_close": "the other's failed close", "last_trick": "the last trick",
            "resign": "the other's resignation"}


class Narrator(NarratorBase):
    """Schnapsen's deals, actions and results as lines of text."""

    legend = ("cards: rank then suit (A ace, T ten, K king, Q queen, J jack; C clubs, "
              "S spades, H hearts, D diamonds): TH is the ten of hearts")

    def _pair(self, values) -> str:
        return ", ".join(f"{self.who(p)} {x}" for p, x in enumerate(values))

    def deal_start(self, st) -> list[str]:
        """The deal as dealt: dealer, trumps, hands and talon (as far as the viewer
        may see them)."""
        start = self.eng.deal_start(st)
        v = self.eng.view(st, 0)
        dealer = start["dealer"]
        out = [f"deal {v['deal']}: dealer {self.who(dealer)}, "
               f"{says(self.who(1 - dealer), 'lead')}; "
               f"trumps {_SUIT_WORDS[v['trump']]} (trump card {start['trump_card']}); "
               f"match points to go {self._pair(v['match'])}"]
        for p in (0, 1):
            if self.sees(p):
                out.append(f"  {self.who(p)}: {cards(self.sorted_cards(st, start['hands'][p]))}")
        if self.viewer is None:
            out.append(f"  talon: {cards(start['talon'])} (drawn in this order)")
        return out

    def action(self, before, a, after) -> list[str]:
        """One action in words; a trick's last card adds its winner, the points and
        the cards drawn."""
        eng = self.eng
        seat = eng.to_move(before)
        vb = eng.view(before, seat)
        va = eng.view(after, seat)
        me = self.who(seat)
        if a < A_MARRIAGE:
            card = eng.describe(a).split()[1]
            if vb["phase"] == "lead":
                return [f"{says(me, 'lead')} {card}"]
            return [f"{says(me, 'play')} {card}"] + self._trick(before, after, vb, va)
        if a < A_EXCHANGE:
            suit = "CSHD"[a - A_MARRIAGE]
            worth = 40 if suit == vb["trump"] else 20
            return [f"{says(me, 'show')} the marriage in {_SUIT_WORDS[suit]} ({worth})"]
        if a == A_EXCHANGE:
            return [f"{says(me, 'exchange')} the trump jack for the trump card {vb['trump_card']}"]
        if a == A_CLOSE:
            return [f"{says(me, 'close')} the talon"]
        if a == A_CLAIM:
            return [f"{says(me, 'claim')} to have {self.eng.rules['target']}"]
        if a == A_PASS:
            return [f"{me} do{'' if me == 'you' else 'es'} not claim"]
        if a == A_RESIGN:
            return [f"{says(me, 'resign')} the match"]
        return [f"{me}: {eng.describe(a)}"]                  # pragma: no cover

    def _trick(self, before, after, vb, va) -> list[str]:
        eng = self.eng
        tb, ta = vb["tricks"], va["tricks"]
        winner = 0 if ta[0] > tb[0] else 1
        pts = va["points"][winner] - vb["points"][winner]
        line = (f"  trick {sum(ta)} to {self.who(winner)} (+{pts}); card points "
                f"{va['points'][0]}-{va['points'][1]}")
        if va["marriage_points"][winner] and not tb[winner]:
            line += (f"; {self.who(winner)} took a first trick: "
                     f"{va['marriage_points'][winner]} marriage points now count")
        out = [line]
        if vb["talon"] > 0 and va["talon"] < vb["talon"]:
            drawn = []
            for p in (winner, 1 - winner):
                if self.sees(p):
                    new = [c for c in eng.view(after, p)["hand"]
                           if c not in eng.view(before, p)["hand"]]
                    drawn.append(f"{self.who(p)} {cards(self.sorted_cards(after, new))}")
            text = "; ".join(drawn)
            out.append(f"  drawn{': ' + text if text else ''}; talon {va['talon']} left")
        return out

    def deal_end(self, st) -> list[str]:
        """How the deal ended and the match points still needed."""
        e = self.eng.deal_end(st)
        v = self.eng.view(st, 0)
        w = e["winner"]
        return [f"deal {v['deal']} ends: {says(self.who(w), 'win')} "
                f"{counted(e['game_points'], 'game point')} by "
                f"{_REASONS[e['reason']]}; card points {e['card_points'][0]}-"
                f"{e['card_points'][1]} (marriages that count included), tricks "
                f"{e['tricks'][0]}-{e['tricks'][1]}; match points to go "
                f"{self._pair(v['match'])}"]

    def result(self, st) -> list[str]:
        """The match's winner and the match points left."""
        r = self.eng.result(st)
        return [f"match over: {says(self.who(r['winner']), 'win')}; match points to go "
                f"{self._pair(r['match_points'])}"]

    def view(self, st, seat: int) -> list[str]:
        """What ``seat`` sees before it acts."""
        v = self.eng.view(st, seat)
        opp = 1 - seat
        if v["talon"] == 0:
            talon = "the talon is used up"
        elif v["closer"] >= 0:
            talon = f"the talon ({counted(v['talon'], 'card')}) was closed by {self.who(v['closer'])}"
        else:
            talon = f"talon {counted(v['talon'], 'card')}, trump card {v['trump_card']}"
        out = [f"your hand: {cards(self.sorted_cards(st, v['hand']))}",
               f"trumps {_SUIT_WORDS[v['trump']]}; {talon}"]
        if v["phase"] == "follow":
            out.append(f"on the table: {self.who(opp)} led {v['lead_card']}")
        mp = v["marriage_points"]
        out.append(f"card points: you {v['points'][seat]}"
                   + (f" (+{mp[seat]} in marriages)" if mp[seat] else "")
                   + f", {self.who(opp)} {v['points'][opp]}"
                   + (f" (+{mp[opp]} in marriages)" if mp[opp] else "")
                   + f"; tricks {v['tricks'][seat]}-{v['tricks'][opp]}; match points to go "
                     f"you {v['match'][seat]}, {self.who(opp)} {v['match'][opp]}")
        if v["opp_known"]:
            out.append(f"{self.who(opp)} is known to hold: "
                       f"{cards(self.sorted_cards(st, v['opp_known']))}")
        return out

    def card_key(self, state, name: str):
        """By suit (clubs, spades, hearts, diamonds), then rank, highest first (A T K Q J)."""
        return SUITS.index(name[1]), -RANKS.index(name[0])

    def card_of(self, action: int) -> str | None:
        """The card a play action plays."""
        return self.eng.describe(action).split()[1] if action < A_MARRIAGE else None

    def label(self, state, action: int) -> str:
        """A card's name (``QH``), ``marriage H``, ``exchange``, ``close``, ``claim``,
        ``pass`` (no claim after the last trick) or ``resign``."""
        if action < A_MARRIAGE:
            return self.eng.describe(action).split()[1]
        if action == A_PASS:
            return "pass"
        return self.eng.describe(action)
