"""Wendish Schafkopf records: built from a logged kernel game, and replayed step by step.

One stepwise engine (``DealState``) serves both directions.  It reads the same
tables as the kernels (FOLLOW_MASK, POWER, TRUMP_MASK) and scores with the
kernels' own ``deal_value`` and ``seat_scores``; building a record walks the
kernel's logged actions through it and cross-checks every deal's end against
the kernel's result row.
"""
from __future__ import annotations

import numpy as np

from ...errors import TricksimError
from ...records import check_common, fail, require, parse_cards
from .cards import (BLACK_QUEENS, CARD_POINTS, FOLLOW_MASK, POWER, QC, QS, SUITS, TRUMP_MASK,
                    V_OFFICERS, VARIANT_DECK, VARIANT_HAND, VARIANT_SKAT, VARIANTS, card_name,
                    mask_cards, mask_of, parse_card)
from .play import (CONTRACTS, D_FIELDS, D_SCORE, MAX_ACTIONS, S_DEALER, S_DOWN, S_FIELDS,
                   S_HANDS, S_NACT, S_SKAT, S_UP, SOLO, QUIET_SOLO, VERBS, WEDDING, NORMAL,
                   deal_value, play_logged, seat_scores)
from .rules import RULEBOOK, rules_array, seats_of


class Illegal(Exception):
    """An action the rules do not allow here (message says why)."""


def _names(mask):
    return [card_name(c) for c in mask_cards(mask)]


class DealState:
    """One deal played action by action, with every rule's check.

    ``hands``: card masks per seat (Officers: the face-up cards); ``up_order`` and
    ``face_down`` (Officers only): per seat, the face-up cards in slot order and the
    card under each."""

    def __init__(self, rules, dealer, hands, skat=0, up_order=None, face_down=None):
        self.rules = rules
        self.variant = VARIANTS.index(rules["variant"])
        self.officers = self.variant == V_OFFICERS
        self.n = seats_of(rules)
        self.ntricks = VARIANT_HAND[self.variant]
        self.deck = VARIANT_DECK[self.variant]
        self.dealer = dealer
        self.forehand = (dealer + 1) % self.n
        self.hands = [int(h) for h in hands]
        self.skat = int(skat)
        self.under = {}
        if self.officers:
            for p in range(2):
                for up, down in zip(up_order[p], face_down[p]):
                    self.under[up] = down
        self.discards = 0
        self.taker = -1
        self.contract = NORMAL
        self.declarer = -1
        self.trump = 3
        self.called = -1
        self.first_trick = False
        self.team0 = 0
        self.old_ones = -1
        for p in range(self.n):
            if self.hands[p] & BLACK_QUEENS == BLACK_QUEENS:
                self.old_ones = p
        self.old_ones_dealt = self.old_ones >= 0
        self.solo_suits = [SUITS.index(s) for s in rules["solo_suits"]]
        # phases: pickup, discard, lust, old_ones, play, done
        self.lust_next = 0
        self.discarded = 0
        self.trick = []
        self.leader = self.forehand
        self.tricks_done = 0
        self.tpts = [0] * self.n
        self.ntr = [0] * self.n
        self.teams_public = False
        if VARIANT_SKAT[self.variant]:
            self.phase = "pickup"
            self.taker = self._holder(1 << QC)
            if self.taker < 0:
                self.taker = self._holder(1 << QS)
            if self.taker < 0:
                self.taker = self.forehand
        else:
            self._after_skat()

    def _holder(self, bit):
        for p in range(self.n):
            if self.hands[p] & bit:
                return p
        return -1

    def _after_skat(self):
        if self.officers:
            self.team0 = 1 << self.forehand
            self.phase = "play"
            return
        self.old_ones = -1
        for p in range(self.n):
            if self.hands[p] & BLACK_QUEENS == BLACK_QUEENS:
                self.old_ones = p
        if self.variant != 0:
            self.old_ones_dealt = self.old_ones >= 0
        self.phase = "lust" if self.rules["lust_solo"] else "old_ones"
        if self.phase == "old_ones":
            self._start_old_ones()

    def _start_old_ones(self):
        if self.old_ones >= 0:
            self.phase = "old_ones"
        else:
            self.team0 = (1 << self._holder(1 << QC)) | (1 << self._holder(1 << QS))
            self.phase = "play"

    # ----- whose turn and what is legal
    def to_act(self) -> int:
        """The seat that acts next (-1 when the deal is over)."""
        ph = self.phase
        if ph in ("pickup", "discard"):
            return self.taker
        if ph == "lust":
            return (self.forehand + self.lust_next) % self.n
        if ph == "old_ones":
            return self.old_ones
        if ph == "play":
            return (self.leader + len(self.trick)) % self.n
        return -1

    def callable_mask(self) -> int:
        """Cards the Old Ones may call (held by another player)."""
        return self.deck & ~self.hands[self.old_ones] & ~self.discards

    def legal_cards(self, seat) -> int:
        """Mask of the cards ``seat`` may play now."""
        hand = self.hands[seat]
        if self.trick:
            f = hand & int(FOLLOW_MASK[self.trump, self.trick[0][1]])
            legal = f if f else hand
        else:
            legal = hand
        if self.called >= 0 and legal >> self.called & 1:
            legal = 1 << self.called
        return legal

    def act(self, seat, verb, arg=None):
        """Apply one action; raises Illegal naming the rule broken."""
        who = self.to_act()
        if self.phase == "done":
            raise Illegal("an action after the last trick")
        if seat != who:
            raise Illegal(f"it is seat {who}'s turn ({self.phase}), not seat {seat}'s")
        getattr(self, "_" + self.phase)(seat, verb, arg)

    def _need(self, verb, want, arg, with_arg):
        if verb != want:
            raise Illegal(f"expected '{want}' in phase {self.phase}, got '{verb}'")
        if with_arg and arg is None:
            raise Illegal(f"'{verb}' needs an argument")
        if not with_arg and arg is not None:
            raise Illegal(f"'{verb}' takes no argument")

    def _card(self, arg):
        try:
            return parse_card(arg)
        except TricksimError as exc:
            raise Illegal(str(exc)) from None

    def _pickup(self, seat, verb, arg):
        self._need(verb, "pickup", arg, False)
        self.hands[seat] |= self.skat
        self.phase = "discard"

    def _discard(self, seat, verb, arg):
        self._need(verb, "discard", arg, True)
        c = self._card(arg)
        if not self.hands[seat] >> c & 1:
            raise Illegal(f"seat {seat} does not hold {arg}")
        if (1 << c) & BLACK_QUEENS:
            raise Illegal("a black queen may not be discarded")
        self.hands[seat] &= ~(1 << c)
        self.discards |= 1 << c
        self.discarded += 1
        if self.discarded == 2:
            self._after_skat()

    def _lust(self, seat, verb, arg):
        if verb == "pass":
            self._need(verb, "pass", arg, False)
            self.lust_next += 1
            if self.lust_next == self.n:
                self._start_old_ones()
            return
        if verb != "solo":
            raise Illegal(f"expected 'pass' or 'solo' in the Lust Solo round, got '{verb}'")
        if arg not in self.rules["solo_suits"]:
            raise Illegal(f"solo {arg!r}: the suit must be one of solo_suits "
                          + ",".join(self.rules["solo_suits"]))
        self.contract = SOLO
        self.declarer = seat
        self.trump = SUITS.index(arg)
        self.team0 = 1 << seat
        self.teams_public = True
        self.phase = "play"

    def _old_ones(self, seat, verb, arg):
        self.declarer = seat
        self.team0 = 1 << seat
        if verb == "quiet_solo":
            self._need(verb, "quiet_solo", arg, False)
            self.contract = QUIET_SOLO
        elif verb == "wedding":
            self._need(verb, "wedding", arg, True)
            self.contract = WEDDING
            if arg == "first_trick":
                self.first_trick = True
            else:
                c = self._card(arg)
                if not self.callable_mask() >> c & 1:
                    raise Illegal(f"wedding {arg}: the called card must be in another "
                                  "player's hand (not held nor discarded by the caller)")
                self.called = c
                self.team0 |= 1 << self._holder(1 << c)
        else:
            raise Illegal(f"the holder of both black queens must choose 'quiet_solo' or "
                          f"'wedding', not '{verb}'")
        self.phase = "play"

    def _play(self, seat, verb, arg):
        self._need(verb, "play", arg, True)
        c = self._card(arg)
        if not self.hands[seat] >> c & 1:
            raise Illegal(f"seat {seat} does not hold {arg}"
                          + (" face up" if self.officers else ""))
        if not self.legal_cards(seat) >> c & 1:
            if self.called >= 0 and self.hands[seat] >> self.called & 1:
                raise Illegal(f"seat {seat} must play the called card "
                              f"{card_name(self.called)} at the first trick where it is legal")
            raise Illegal(f"seat {seat} must follow the suit led "
                          f"({card_name(self.trick[0][1])}; trumps are one suit) "
                          f"and may not play {arg}")
        self.hands[seat] &= ~(1 << c)
        if self.officers and c in self.under:
            self.hands[seat] |= 1 << self.under.pop(c)
        self.trick.append((seat, c))
        if len(self.trick) == self.n:
            self._resolve()

    def _resolve(self):
        t = self.trump
        lead = self.trick[0][1]
        elig = int(FOLLOW_MASK[t, lead]) | int(TRUMP_MASK[t])
        win_seat, win_pow = self.trick[0][0], POWER[t, lead]
        for seat, c in self.trick[1:]:
            if elig >> c & 1 and POWER[t, c] > win_pow:
                win_seat, win_pow = seat, POWER[t, c]
        self.tpts[win_seat] += sum(int(CARD_POINTS[c]) for _, c in self.trick)
        self.ntr[win_seat] += 1
        self.tricks_done += 1
        if self.first_trick and not self.teams_public:
            if win_seat != self.declarer:
                self.team0 |= 1 << win_seat
                self.teams_public = True
            elif self.tricks_done >= self.rules["wedding_deadline"]:
                self.teams_public = True
        self.trick = []
        self.leader = win_seat
        if self.tricks_done == self.ntricks:
            self.phase = "done"

    def done(self) -> bool:
        """Whether the deal is over."""
        return self.phase == "done"

    def end(self) -> dict:
        """The deal's ``end`` object (records contract)."""
        n = self.n
        team0 = self.team0
        cp0 = sum(self.tpts[p] for p in range(n) if team0 >> p & 1)
        tricks0 = sum(self.ntr[p] for p in range(n) if team0 >> p & 1)
        if self.taker >= 0 and team0 >> self.taker & 1:
            cp0 += sum(int(CARD_POINTS[c]) for c in mask_cards(self.discards))
        winner, schneider, schwarz, value = deal_value(
            rules_array(self.rules), self.contract, n, team0, cp0, tricks0, self.ntricks,
            self.officers)
        scores = np.zeros(4, dtype=np.int64)
        seat_scores(n, team0, winner, value, scores)
        return {
            "contract": CONTRACTS[self.contract],
            "declarer": None if self.declarer < 0 else self.declarer,
            "trump": SUITS[self.trump],
            "teams": [[p for p in range(n) if team0 >> p & 1],
                      [p for p in range(n) if not team0 >> p & 1]],
            "card_points": [cp0, 120 - cp0],
            "winner": None if winner < 0 else int(winner),
            "schneider": bool(schneider), "schwarz": bool(schwarz),
            "scores": [int(x) for x in scores[:n]],
        }


def _action_json(seat, verb, arg):
    v = VERBS[verb]
    if v in ("pickup", "pass", "quiet_solo"):
        return [seat, v]
    if v == "solo":
        return [seat, v, SUITS[arg]]
    if v == "wedding":
        return [seat, v, "first_trick" if arg < 0 else card_name(arg)]
    return [seat, v, card_name(arg)]


def build_record(rules, policies, policy_ids, seed, index) -> dict:
    """The record of game ``index`` of run ``seed``, from the logging kernel."""
    n = seats_of(rules)
    nd = rules["deals"]
    dout = np.zeros((nd, D_FIELDS), dtype=np.int64)
    slog = np.zeros((nd, S_FIELDS), dtype=np.int64)
    alog = np.zeros((nd, MAX_ACTIONS, 3), dtype=np.int16)
    play_logged(rules_array(rules), np.asarray(policy_ids, dtype=np.int64), np.uint64(seed),
                index, dout, slog, alog)
    officers = rules["variant"] == "officers"
    total = [0] * n
    deals = []
    for d in range(nd):
        s = slog[d]
        dealer = int(s[S_DEALER])
        if officers:
            up = [[int(c) for c in s[S_UP + 8 * p:S_UP + 8 * p + 8]] for p in range(2)]
            down = [[int(c) for c in s[S_DOWN + 8 * p:S_DOWN + 8 * p + 8]] for p in range(2)]
            start = {"dealer": dealer, "hands": [[card_name(c) for c in u] for u in up],
                     "skat": [], "face_down": [[card_name(c) for c in x] for x in down]}
            st = DealState(rules, dealer, [mask_of(u) for u in up], 0, up, down)
        else:
            hands = [int(s[S_HANDS + p]) for p in range(n)]
            start = {"dealer": dealer, "hands": [_names(h) for h in hands],
                     "skat": _names(int(s[S_SKAT]))}
            st = DealState(rules, dealer, hands, int(s[S_SKAT]))
        actions = []
        for k in range(int(s[S_NACT])):
            a = _action_json(int(alog[d, k, 0]), int(alog[d, k, 1]), int(alog[d, k, 2]))
            try:
                st.act(*a)
            except Illegal as exc:
                raise AssertionError(f"engine disagreement in game {index}, deal {d}, "
                                     f"action {k}: {exc}") from None
            actions.append(a)
        if not st.done():
            raise AssertionError(f"engine disagreement in game {index}, deal {d}: unfinished")
        end = st.end()
        if end["scores"] != [int(x) for x in dout[d, D_SCORE:D_SCORE + n]] or \
                end["card_points"][0] != int(dout[d, 5]):
            raise AssertionError(f"engine disagreement in game {index}, deal {d}: {end} "
                                 f"against {list(dout[d])}")
        total = [a + b for a, b in zip(total, end["scores"])]
        deals.append({"start": start, "actions": actions, "end": end})
    return {"game": "wendish", "rules": rules.to_dict(), "seed": int(seed), "index": int(index),
            "policies": list(policies), "deals": deals, "result": {"scores": total}}


def _cards(value, what, deal, action=None):
    return parse_cards(value, parse_card, what, deal, action)


def _same_end(got, want):
    if not isinstance(got, dict):
        return False
    g = dict(got)
    if isinstance(g.get("teams"), list) and all(isinstance(t, list) for t in g["teams"]):
        try:
            g["teams"] = [sorted(t) for t in g["teams"]]
        except TypeError:
            return False
    for key, value in want.items():
        gv = g.get(key)
        if type(gv) is not type(value) and not (value is None and gv is None):
            return False
        if gv != value:
            return False
    return True


def replay_record(record) -> None:
    """Check a Wendish Schafkopf record action by action (records contract)."""
    require(isinstance(record, dict), "a record must be a JSON object")
    rules = RULEBOOK.from_dict(record.get("rules"))
    n = seats_of(rules)
    check_common(record, n)
    variant = VARIANTS.index(rules["variant"])
    officers = variant == V_OFFICERS
    hand_size = VARIANT_HAND[variant]
    deck = VARIANT_DECK[variant]
    deals = record["deals"]
    require(len(deals) == rules["deals"], f"the record has {len(deals)} deals; the rules "
            f"play {rules['deals']}")
    total = [0] * n
    first_dealer = None
    for d, deal in enumerate(deals):
        require(isinstance(deal, dict) and all(k in deal for k in ("start", "actions", "end")),
                "a deal needs 'start', 'actions' and 'end'", d)
        start = deal["start"]
        require(isinstance(start, dict), "'start' must be an object", d)
        for key in ("dealer", "hands", "skat"):
            require(key in start, f"start is missing '{key}'", d)
        dealer = start["dealer"]
        require(isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < n,
                f"start.dealer {dealer!r} is not a seat (0 to {n - 1})", d)
        if first_dealer is None:
            first_dealer = dealer
        want = (first_dealer + d) % n
        require(dealer == want, f"start.dealer is {dealer}; the dealer rotates, so deal {d} "
                f"is dealt by seat {want}", d)
        require(isinstance(start["hands"], list) and len(start["hands"]) == n,
                f"start.hands must hold {n} hands", d)
        hands = [_cards(h, f"start.hands[{p}]", d) for p, h in enumerate(start["hands"])]
        skat = _cards(start["skat"], "start.skat", d)
        down = []
        if officers:
            require(isinstance(start.get("face_down"), list) and len(start["face_down"]) == 2,
                    "start.face_down must hold 2 lists (Officers' Schafkopf)", d)
            down = [_cards(x, f"start.face_down[{p}]", d) for p, x in
                    enumerate(start["face_down"])]
            for p in range(2):
                require(len(hands[p]) == 8 and len(down[p]) == 8, f"seat {p} must have 8 "
                        "face-up cards each on one of 8 face-down cards", d)
        else:
            for p in range(n):
                require(len(hands[p]) == hand_size, f"seat {p} holds {len(hands[p])} cards; "
                        f"the rules deal {hand_size}", d)
        require(len(skat) == VARIANT_SKAT[variant], f"the skat holds {len(skat)} cards; the "
                f"rules put {VARIANT_SKAT[variant]} there", d)
        seen = [c for h in hands for c in h] + skat + [c for x in down for c in x]
        require(len(seen) == len(set(seen)), "a card is dealt twice", d)
        require(mask_of(seen) == deck, "the cards dealt are not exactly the deck of these "
                "rules", d)
        if officers:
            st = DealState(rules, dealer, [mask_of(h) for h in hands], 0, hands, down)
        else:
            st = DealState(rules, dealer, [mask_of(h) for h in hands], mask_of(skat))
        actions = deal["actions"]
        require(isinstance(actions, list), "'actions' must be a list", d)
        for a, act in enumerate(actions):
            require(isinstance(act, list) and len(act) in (2, 3) and isinstance(act[0], int)
                    and isinstance(act[1], str), f"action {act!r} is not [seat, verb] or "
                    "[seat, verb, argument]", d, a)
            try:
                st.act(act[0], act[1], act[2] if len(act) == 3 else None)
            except Illegal as exc:
                fail(str(exc), d, a)
        require(st.done(), f"the deal ends before it is over (next: seat {st.to_act()}, "
                f"{st.phase})", d)
        end = st.end()
        require(_same_end(deal["end"], end), f"end is {deal['end']!r}; the rules give {end!r}",
                d)
        total = [a + b for a, b in zip(total, end["scores"])]
    res = record["result"]
    require(res.get("scores") == total, f"result.scores is {res.get('scores')!r}; the deals "
            f"give {total}")
