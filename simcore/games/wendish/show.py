"""Wendish Schafkopf in words: the narration of ``tricksim replay --show`` and
``tricksim play`` (every variant).

Every fact comes from the engine (``api.Engine``: ``view``, ``deal_start``,
``deal_end``, ``result``); this module only words it, and leaves out what the
viewing seat may not know (the skat and discards of another taker, another
seat's quiet solo).
"""
from __future__ import annotations

from ...analysis.show import NarratorBase, cards, says as _s
from ...text import counted
from .cards import POWER, SUITS, TRUMP_MASK, parse_card
from .engine import (A_DISCARD, A_FIRST_TRICK, A_PASS, A_PICKUP, A_QUIET, A_SOLO,
                     A_WEDDING)

_SUIT_WORDS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_CONTRACT_WORDS = {"normal": "normal game", "wedding": "wedding", "quiet_solo": "quiet solo",
                   "solo": "Lust Solo"}



class Narrator(NarratorBase):
    """Wendish Schafkopf's deals, contracts, tricks and scores as lines of text."""

    legend = ("cards: rank then suit (A ace, T ten, K king, Q queen, J jack, 9 8 7; "
              "C clubs, S spades, H hearts, D diamonds): QC is the queen of clubs")

    def _seats(self, seats) -> str:
        return " + ".join(self.who(p) for p in seats) or "nobody"

    def deal_start(self, st) -> list[str]:
        """The deal as dealt (the viewer's own cards only, when narrating for a seat)."""
        eng = self.eng
        start = eng.deal_start(st)
        v = eng.view(st, 0)
        n = v["players"]
        dealer = start["dealer"]
        out = [f"deal {v['deal']}: dealer {self.who(dealer)}, "
               f"{_s(self.who((dealer + 1) % n), 'lead')}"]
        officers = "face_down" in start
        for p in range(n):
            if officers:
                up = start["hands"][p]
                down = start["face_down"][p]
                if self.viewer is None:
                    out.append(f"  {self.who(p)}: face up {cards(self.sorted_cards(st, up))}; "
                               f"under them {cards(self.sorted_cards(st, down))}")
                else:
                    out.append(f"  {self.who(p)}: face up {cards(self.sorted_cards(st, up))}")
            elif self.sees(p):
                out.append(f"  {self.who(p)}: {cards(self.sorted_cards(st, start['hands'][p]))}")
        if start["skat"] and self.viewer is None:
            out.append(f"  skat: {cards(self.sorted_cards(st, start['skat']))}")
        elif start["skat"]:
            out.append(f"  skat: {counted(len(start['skat']), 'card')} face down")
        return out

    def action(self, before, a, after) -> list[str]:
        """One action in words (nothing for a quiet solo the viewer may not know of);
        a trick's last card adds its winner and points."""
        eng = self.eng
        seat = eng.to_move(before)
        me = self.who(seat)
        if a < A_DISCARD:
            vb = eng.view(before, seat)
            card = eng.describe(a).split()[1]
            if not vb["trick"]:
                out = [f"{_s(me, 'lead')} {card}"]
            else:
                out = [f"{_s(me, 'play')} {card}"]
            return out + self._trick(before, after, vb)
        if a < A_PICKUP:
            if self.sees(seat):
                return [f"{_s(me, 'put')} {eng.describe(a).split()[1]} away"]
            return [f"{_s(me, 'put')} a card away"]
        if a == A_PICKUP:
            skat = eng.view(after, seat)["skat"]
            return [f"{_s(me, 'take')} the skat" + (f": {cards(self.sorted_cards(after, skat))}"
                                                     if self.sees(seat)
                                                     else "")]
        if a == A_PASS:
            return [f"{_s(me, 'pass')} (no Lust Solo)"]
        if a < A_QUIET:
            suit = _SUIT_WORDS[eng.describe(a).split()[1]]
            return [f"{_s(me, 'announce')} a Lust Solo, trumps {suit}"]
        if a == A_QUIET:
            if not self.sees(seat):
                return []
            return [f"{_s(me, 'play')} a quiet solo (unannounced: the others take it for "
                    "a normal game)"]
        deadline = self.eng.rules["wedding_deadline"]
        if a == A_FIRST_TRICK:
            within = ("the first trick" if deadline == 1 else
                      f"one of the first {counted(deadline, 'trick')}")
            return [f"{_s(me, 'announce')} a wedding: the first other player to win "
                    f"{within} is the partner"]
        return [f"{_s(me, 'announce')} a wedding, calling {eng.describe(a).split()[1]}: "
                "its holder is the partner"]

    def _trick(self, before, after, vb) -> list[str]:
        eng = self.eng
        va = eng.view(after, vb["seat"])
        out = []
        if "face_up" in va:
            for p, (old, new) in enumerate(zip(vb["face_up"], va["face_up"])):
                turned = [c for c in new if c not in old]
                if turned:
                    out.append(f"  {_s(self.who(p), 'turn')} up "
                               f"{cards(self.sorted_cards(after, turned))}")
        if va["tricks_done"] == vb["tricks_done"]:
            return out
        winner = next(p for p in range(va["players"]) if va["tricks"][p] > vb["tricks"][p])
        pts = va["points"][winner] - vb["points"][winner]
        taken = ", ".join(f"{self.who(p)} {x}" for p, x in enumerate(va["points"]))
        return [f"  trick {va['tricks_done']} to {self.who(winner)} (+{pts}); card points "
                f"taken: {taken}"] + out

    def deal_end(self, st) -> list[str]:
        """The contract, the sides' card points, who won and the scores."""
        e = self.eng.deal_end(st)
        v = self.eng.view(st, 0)
        contract = _CONTRACT_WORDS[e["contract"]]
        if e["declarer"] is not None:
            contract += f" of {self.who(e['declarer'])}"
        if e["contract"] != "normal" or e["trump"] != "D":
            contract += f", trumps {_SUIT_WORDS[e['trump']]}"
        t0, t1 = e["teams"]
        sides = (f"{self._seats(t0)} {e['card_points'][0]}, {self._seats(t1)} "
                 f"{e['card_points'][1]}")
        if e["winner"] is None:
            outcome = "a draw"
        else:
            won = e["teams"][e["winner"]]
            outcome = f"{self._seats(won)} win" + (" (Schwarz)" if e["schwarz"] else
                                                   " (Schneider)" if e["schneider"] else "")
        scores = " ".join(f"{x:+d}" for x in e["scores"])
        totals = " ".join(str(x) for x in self.eng.result(st)["scores"])
        return [f"deal {v['deal']} ends: {contract}; card points {sides}: {outcome}; "
                f"scores {scores} (totals {totals})"]

    def _contract_phase(self, v, seat: int) -> list[str]:
        """Before play: what ``seat``, to move, decides and what was announced so far."""
        phase, n = v["phase"], v["players"]
        if v["to_move"] != seat:
            return []
        if phase == "pickup":
            return ["you take the skat (the black queens' holder, else forehand, does)"]
        if phase == "discard":
            return [f"you put away {counted(2 - v['discarded'], 'more card')} (not a black "
                    "queen); then the contract is made"]
        if phase == "lust":
            k = v["lust_decisions"]
            passed = [(seat - k + i) % n for i in range(k)]
            return ["Lust Solo: " + (f"{self._seats(passed)} passed; " if passed else
                                     "you decide first; ") + "you pass or announce one"]
        if phase == "old_ones":
            return ["nobody announced a Lust Solo and you hold both Old Ones (QC QS): "
                    "a quiet solo or a wedding"]
        return []

    def result(self, st) -> list[str]:
        """The game's final scores."""
        scores = self.eng.result(st)["scores"]
        return ["game over: scores " + ", ".join(f"{self.who(p)} {x:+d}"
                                                 for p, x in enumerate(scores))]

    def view(self, st, seat: int) -> list[str]:
        """What ``seat`` sees before it acts."""
        v = self.eng.view(st, seat)
        n = v["players"]
        out = []
        if "face_up" in v:
            for p in range(n):
                marked = [c + ("*" if c in v["covered"] else "")
                          for c in self.sorted_cards(st, v["face_up"][p])]
                whose = "your" if p == seat else self.who(p) + "'s"
                out.append(f"{whose} face-up cards: {cards(marked)}")
            out.append("(* lies on a face-down card)")
        else:
            out.append(f"your hand: {cards(self.sorted_cards(st, v['hand']))}")
        if v["taker"] == seat and v["skat"]:
            out.append(f"the skat you took: {cards(self.sorted_cards(st, v['skat']))}"
                       + (f"; put away: {cards(self.sorted_cards(st, v['discards']))}"
                          if v["discards"] else ""))
        out.extend(self._contract_phase(v, seat))
        if v["phase"] == "play":
            known = _CONTRACT_WORDS[v["contract"]]
            if v["declarer"] is not None:
                known += f" of {self.who(v['declarer'])}"
            known += f", trumps {_SUIT_WORDS[v['trump']]}"
            if v["called"] == "first_trick":
                known += "; the first other trick winner is the partner"
            elif v["called"]:
                known += f"; called card {v['called']}"
            if v["teams"]:
                known += f"; sides {self._seats(v['teams'][0])} against " \
                         f"{self._seats(v['teams'][1])}"
            out.append(f"contract (as you know it): {known}")
            if v["trick"]:
                on = ", ".join(f"{self.who(p)} {c}" for p, c in v["trick"])
                w = v["winning"]
                out.append(f"on the table: {on} (winning: {self.who(w[0])} {w[1]})")
            taken = ", ".join(f"{self.who(p)} {x}" for p, x in enumerate(v["points"]))
            out.append(f"tricks done {v['tricks_done']}; card points taken: {taken}")
        out.append("scores: " + ", ".join(f"{self.who(p)} {x:+d}"
                                          for p, x in enumerate(v["scores"])))
        return out

    def _trump(self, state) -> int:
        """The trump suit as the viewer knows it (an onlooker: as seat 0 does); diamonds,
        the normal game's, until a contract names another."""
        seat = 0 if self.viewer is None else self.viewer
        return SUITS.index(self.eng.view(state, seat)["trump"])

    @staticmethod
    def _key(trump: int, name: str):
        c = parse_card(name)
        if int(TRUMP_MASK[trump]) >> c & 1:
            return 0, -int(POWER[trump, c])
        return 1 + c // 8, c % 8

    def card_key(self, state, name: str):
        """Trumps first, highest first (QC QS QH QD JC JS JH JD, then the trump suit's
        A T K 9 8 7: the trumps of the contract the viewer knows, diamonds before one
        is made), then the other suits (clubs, spades, hearts, diamonds), each highest
        first, as a Schafkopf player holds them."""
        return self._key(self._trump(state), name)

    def sorted_cards(self, state, names) -> list[str]:
        """``NarratorBase.sorted_cards`` with the trump suit looked up once."""
        trump = self._trump(state)
        return sorted(names, key=lambda c: self._key(trump, c))

    def menu_order(self, state, legal) -> list[int]:
        """Cards to play or put away in the hand's order, then the other actions."""
        trump = self._trump(state)
        cards_ = [a for a in legal if self.card_of(a) is not None]
        rest = [a for a in legal if self.card_of(a) is None]
        return sorted(cards_, key=lambda a: self._key(trump, self.card_of(a))) + rest

    def card_of(self, action: int) -> str | None:
        """The card a play or discard action names."""
        return self.eng.describe(action).split()[1] if action < A_PICKUP else None

    def label(self, state, action: int) -> str:
        """A card's name for playing or putting away (``QC``); otherwise the record's
        words: ``pickup``, ``pass``, ``solo C``, ``quiet_solo``, ``wedding QH``,
        ``wedding first_trick``."""
        text = self.eng.describe(action)
        if action < A_PICKUP:
            return text.split()[1]
        return text
