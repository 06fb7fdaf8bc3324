"""Schnapsen records: built from a logged kernel match, and replayed step by step.

One stepwise engine (``DealState``) serves both directions.  It uses the same
kernel functions as the batch play (follow_mask, follower_wins, score_claim,
score_run_out ...), and building a record cross-checks every deal's outcome
against the kernel's own deal row.
"""
from __future__ import annotations

import numpy as np

from ...errors import TricksimError
from ...records import check_common, fail, require
from .cards import CARD_POINTS, DECK_MASK, SUITS, card_name, mask_of, names, parse_card, \
    parse_suit
from .kernels import (REASONS, RESIGN, V_MARRIAGE, V_PLAY, VERBS, counted_points, follow_mask, follower_wins,
                      marriage_suits, score_claim, score_run_out)
from .play import (D_CP0, D_DEALER, D_GP, D_REASON, D_TR0, D_WINNER, LOG_ACTIONS, LOG_COUNT,
                   LOG_DECK, LOG_WIDTH, N_DEAL_COLUMNS, play_logged)
from .rules import RULEBOOK, max_deals, rules_array

LEAD, FOLLOW, AFTER_LAST, OVER = range(4)
# steps of a turn to lead, in their required order
T_START, T_EXCHANGED, T_CLOSED, T_MARRIED = range(4)


def _bit(card):
    return 1 << card


class DealState:
    """One deal played action by action, with the rules' checks.

    ``apply`` returns None for a legal action, else the rule it breaks.
    ``needed``: the match points each seat still needs (for a resignation).
    """

    def __init__(self, rules, dealer, hands, trump_card, talon, needed):
        self.rules = rules
        self.dealer = dealer
        self.hands = [int(h) for h in hands]
        self.trump_card = trump_card
        self.trump = trump_card // 5
        self.talon = list(talon)
        self.talon_left = 10  # the trump card included
        self.closed = False
        self.closer = -1
        self.snap_points = 0
        self.snap_tricks = 0
        self.points = [0, 0]
        self.marriages = [0, 0]
        self.tricks = [0, 0]
        self.needed = list(needed)
        self.leader = 1 - dealer
        self.first = True
        self.phase = LEAD
        self.step = T_START
        self.married = -1
        self.lead_card = -1
        self.result = None  # (winner, game points, reason)

    # ----- state --------------------------------------------------------
    def strict(self) -> bool:
        """Whether the follow-suit-and-beat rules apply (talon closed or empty)."""
        return self.closed or self.talon_left == 0

    def to_act(self) -> int:
        """The seat whose turn it is."""
        if self.phase == FOLLOW:
            return 1 - self.leader
        return self.leader

    def counted(self, seat) -> int:
        """Card points of ``seat`` that count now (marriages once it has a trick)."""
        return int(counted_points(self.points[seat], self.marriages[seat], self.tricks[seat]))

    def may_claim(self) -> bool:
        """Whether the seat to act may claim now."""
        if self.phase == AFTER_LAST:
            return True
        if self.phase != LEAD:
            return False
        return (self.step == T_START and not self.first) or self.step == T_MARRIED

    # ----- actions -------------------------------------------------------
    def apply(self, seat, verb, arg=None) -> str | None:
        """Apply one action; the reason it is illegal, or None."""
        if self.phase == OVER:
            return "an action after the deal has ended"
        if seat != self.to_act():
            return f"it is seat {self.to_act()}'s turn, not seat {seat}'s"
        if verb == "resign":
            self.result = (1 - seat, self.needed[1 - seat], RESIGN)
            self.phase = OVER
            return None
        if verb == "claim":
            if not self.may_claim():
                return ("a claim is allowed only right after winning a trick (before "
                        "exchanging, closing or showing a marriage), right after a marriage, "
                        "or after the last trick")
            o = 1 - seat
            r = self.rules
            self.result = tuple(int(x) for x in score_claim(
                seat, self.counted(seat), r["target"], self.closer,
                r["closed_scoring"] == "at_close", self.counted(o), self.tricks[o],
                self.snap_points, self.snap_tricks, r["schneider_below"]))
            self.phase = OVER
            return None
        if self.phase == AFTER_LAST:
            return f"after the last trick only its winner's claim may follow, not '{verb}'"
        if verb == "play":
            return self._play(seat, arg)
        if self.phase != LEAD:
            return f"seat {seat} must answer the lead with a card, not '{verb}'"
        if self.step == T_MARRIED:
            return f"after a marriage seat {seat} must lead its king or queen (or claim)"
        hand = self.hands[seat]
        if verb == "exchange":
            if self.step > T_START:
                return "the exchange comes before closing and showing a marriage"
            if self.strict():
                return "the trump jack may be exchanged only while the talon is open"
            if self.talon_left < self.rules["exchange_min_talon"]:
                return (f"the talon holds {self.talon_left} cards; exchanging needs at least "
                        f"{self.rules['exchange_min_talon']}")
            jack = self.trump * 5
            if not hand & _bit(jack):
                return f"seat {seat} does not hold the trump jack {card_name(jack)}"
            self.hands[seat] ^= _bit(jack) | _bit(self.trump_card)
            self.trump_card = jack
            self.step = T_EXCHANGED
            return None
        if verb == "close":
            if self.step > T_EXCHANGED:
                return "closing comes before showing a marriage"
            if self.strict():
                return "the talon is already closed or used up"
            if self.talon_left < self.rules["close_min_talon"]:
                return (f"the talon holds {self.talon_left} cards; closing needs at least "
                        f"{self.rules['close_min_talon']}")
            self.closed = True
            self.closer = seat
            self.snap_points = self.counted(1 - seat)
            self.snap_tricks = self.tricks[1 - seat]
            self.step = T_CLOSED
            return None
        if verb == "marriage":
            if self.strict() and not self.rules["marriage_after_close"]:
                return ("marriages may not be shown once the talon is closed or used up "
                        "(marriage_after_close = false)")
            if not marriage_suits(np.uint64(hand)) >> arg & 1:
                return f"seat {seat} does not hold king and queen of {SUITS[arg]}"
            self.marriages[seat] += 40 if arg == self.trump else 20
            self.married = arg
            self.step = T_MARRIED
            return None
        return f"unknown verb '{verb}'"

    def _play(self, seat, card) -> str | None:
        hand = self.hands[seat]
        if not hand & _bit(card):
            return f"seat {seat} does not hold {card_name(card)}"
        if self.phase == LEAD:
            if self.married >= 0 and card not in (self.married * 5 + 1, self.married * 5 + 2):
                return (f"after the marriage in {SUITS[self.married]} seat {seat} must lead "
                        f"its king or queen, not {card_name(card)}")
            self.hands[seat] ^= _bit(card)
            self.lead_card = card
            self.phase = FOLLOW
            return None
        lead = self.lead_card
        legal = int(follow_mask(np.uint64(hand), lead, self.trump, self.strict()))
        if not legal & _bit(card):
            return (f"the talon is closed or used up: seat {seat} must follow suit and beat "
                    f"{card_name(lead)} if able, else trump if able; {card_name(card)} is not "
                    f"allowed (allowed: {' '.join(names(legal))})")
        self.hands[seat] ^= _bit(card)
        w = 1 - seat if not follower_wins(lead, card, self.trump) else seat
        self.points[w] += int(CARD_POINTS[lead] + CARD_POINTS[card])
        self.tricks[w] += 1
        if not self.closed and self.talon_left > 0:
            self.hands[w] |= _bit(self.talon.pop(0))
            if self.talon_left == 2:
                self.hands[1 - w] |= _bit(self.trump_card)
            else:
                self.hands[1 - w] |= _bit(self.talon.pop(0))
            self.talon_left -= 2
        self.leader = w
        self.first = False
        self.married = -1
        self.step = T_START
        self.phase = AFTER_LAST if self.hands[w] == 0 else LEAD
        return None

    def finish(self) -> str | None:
        """Close the deal after its last action; a reason if it cannot end here."""
        if self.phase == AFTER_LAST:
            self.result = tuple(int(x) for x in score_run_out(self.leader, self.closer,
                                                              self.snap_tricks))
            self.phase = OVER
        if self.phase != OVER:
            return "the deal's actions end before the deal is over"
        return None

    def end(self) -> dict:
        """The deal's ``end`` object."""
        w, gp, reason = self.result
        return {"winner": w, "game_points": gp, "reason": REASONS[reason],
                "card_points": [self.counted(0), self.counted(1)], "tricks": list(self.tricks)}


def _decode(code):
    code = int(code)
    seat, rest = divmod(code, 1024)
    verb, arg = divmod(rest, 32)
    return seat, verb, arg


def _action_json(seat, verb, arg):
    if verb == V_PLAY:
        return [seat, "play", card_name(arg)]
    if verb == V_MARRIAGE:
        return [seat, "marriage", SUITS[arg]]
    return [seat, VERBS[verb]]


def build_record(rules, policies, policy_ids, seed, index) -> dict:
    """The record of match ``index`` of run ``seed``, from the logging kernel."""
    md = max_deals(rules)
    rows = np.zeros((md, N_DEAL_COLUMNS), dtype=np.int16)
    log = np.zeros((md, LOG_WIDTH), dtype=np.int16)
    nd, winner, _, left0, left1 = play_logged(rules_array(rules), policy_ids, np.uint64(seed),
                                              index, rows, log)
    left = [rules["match_points"]] * 2
    deals = []
    for d in range(nd):
        deck = [int(c) for c in log[d, LOG_DECK:LOG_DECK + 20]]
        dealer = int(rows[d, D_DEALER])
        hands = [0, 0]
        hands[1 - dealer] = mask_of(deck[0:3] + deck[7:9])
        hands[dealer] = mask_of(deck[3:6] + deck[9:11])
        state = DealState(rules, dealer, hands, deck[6], deck[11:20], left)
        actions = []
        for code in log[d, LOG_ACTIONS:LOG_ACTIONS + int(log[d, LOG_COUNT])]:
            seat, verb, arg = _decode(code)
            reason = state.apply(seat, VERBS[verb], arg if verb in (V_PLAY, V_MARRIAGE)
                                 else None)
            if reason:
                raise AssertionError(f"engine disagreement in match {index}, deal {d}: {reason}")
            actions.append(_action_json(seat, verb, arg))
        reason = state.finish()
        end = state.end()
        kernel = (int(rows[d, D_WINNER]), int(rows[d, D_GP]), REASONS[int(rows[d, D_REASON])],
                  [int(rows[d, D_CP0]), int(rows[d, D_CP0 + 1])],
                  [int(rows[d, D_TR0]), int(rows[d, D_TR0 + 1])])
        mine = (end["winner"], end["game_points"], end["reason"], end["card_points"],
                end["tricks"])
        if reason or kernel != mine:
            raise AssertionError(f"engine disagreement in match {index}, deal {d}: kernel "
                                 f"{kernel}, replay {mine} {reason or ''}")
        left[end["winner"]] -= end["game_points"]
        deals.append({
            "start": {"dealer": dealer, "hands": [names(h) for h in hands],
                      "trump_card": card_name(deck[6]),
                      "talon": [card_name(c) for c in deck[11:20]]},
            "actions": actions, "end": end})
    if left != [int(left0), int(left1)]:
        raise AssertionError(f"engine disagreement in match {index}: match points {left} "
                             f"against {[int(left0), int(left1)]}")
    return {"game": "schnapsen", "rules": rules.to_dict(), "seed": int(seed),
            "index": int(index), "policies": list(policies), "deals": deals,
            "result": {"winner": int(winner), "match_points": left}}


def _card(value, what, deal, action=None):
    try:
        return parse_card(value)
    except TricksimError as exc:
        fail(f"{what}: {exc}", deal, action)


def _cards(value, what, n, deal):
    require(isinstance(value, list) and len(value) == n, f"{what} must be a list of {n} cards",
            deal)
    return [_card(c, what, deal) for c in value]


def _check_start(start, d, dealer_allowed):
    require(isinstance(start, dict), "'start' must be an object", d)
    for key in ("dealer", "hands", "trump_card", "talon"):
        require(key in start, f"start is missing '{key}'", d)
    dealer = start["dealer"]
    require(isinstance(dealer, int) and not isinstance(dealer, bool)
            and dealer in dealer_allowed,
            f"dealer {dealer!r} is not allowed here; allowed: {sorted(dealer_allowed)} "
            "(the deal alternates)", d)
    require(isinstance(start["hands"], list) and len(start["hands"]) == 2,
            "start.hands must hold 2 hands", d)
    hands = [_cards(h, f"start.hands[{p}]", 5, d) for p, h in enumerate(start["hands"])]
    trump_card = _card(start["trump_card"], "start.trump_card", d)
    talon = _cards(start["talon"], "start.talon", 9, d)
    seen = hands[0] + hands[1] + [trump_card] + talon
    require(len(set(seen)) == len(seen), "a card is dealt twice", d)
    require(mask_of(seen) == DECK_MASK, "the deal is not exactly the 20 cards", d)
    return dealer, [mask_of(h) for h in hands], trump_card, talon


def _parse_action(act, d, a):
    require(isinstance(act, list) and len(act) in (2, 3) and isinstance(act[0], int)
            and not isinstance(act[0], bool) and act[0] in (0, 1)
            and isinstance(act[1], str), f"action {act!r} is not [seat, verb] or "
            "[seat, verb, argument] with seat 0 or 1", d, a)
    seat, verb = act[0], act[1]
    require(verb in VERBS, f"unknown verb {verb!r}; verbs: {', '.join(VERBS)}", d, a)
    needs_arg = verb in ("play", "marriage")
    require(len(act) == (3 if needs_arg else 2),
            f"'{verb}' takes {'one argument' if needs_arg else 'no argument'}", d, a)
    arg = None
    if verb == "play":
        arg = _card(act[2], "the card played", d, a)
    elif verb == "marriage":
        try:
            arg = parse_suit(act[2])
        except TricksimError as exc:
            fail(f"marriage: {exc}", d, a)
    return seat, verb, arg


def replay_record(record) -> None:
    """Check a Schnapsen record action by action (records contract)."""
    require(isinstance(record, dict), "a record must be a JSON object")
    rules = RULEBOOK.from_dict(record.get("rules"))
    check_common(record, 2)
    deals = record["deals"]
    require(len(deals) <= max_deals(rules), f"{len(deals)} deals; a match of "
            f"{rules['match_points']} points takes at most {max_deals(rules)}")
    left = [rules["match_points"]] * 2
    prev_dealer = None
    for d, deal in enumerate(deals):
        require(isinstance(deal, dict) and all(k in deal for k in ("start", "actions", "end")),
                "a deal needs 'start', 'actions' and 'end'", d)
        require(min(left) > 0, "the match was already won before this deal", d)
        allowed = {0, 1} if prev_dealer is None else {1 - prev_dealer}
        dealer, hands, trump_card, talon = _check_start(deal["start"], d, allowed)
        state = DealState(rules, dealer, hands, trump_card, talon, left)
        actions = deal["actions"]
        require(isinstance(actions, list), "'actions' must be a list", d)
        for a, act in enumerate(actions):
            seat, verb, arg = _parse_action(act, d, a)
            reason = state.apply(seat, verb, arg)
            require(reason is None, reason, d, a)
        reason = state.finish()
        require(reason is None, reason, d)
        end = state.end()
        got = deal["end"]
        require(isinstance(got, dict), "'end' must be an object", d)
        for key, value in end.items():
            require(got.get(key) == value, f"end.{key} is {got.get(key)!r}; the rules give "
                    f"{value!r}", d)
        left[end["winner"]] -= end["game_points"]
        prev_dealer = dealer
    require(min(left) <= 0, f"the match is not over: match points {left}")
    res = record["result"]
    winner = 0 if left[0] <= 0 else 1
    require(res.get("winner") == winner, f"result.winner is {res.get('winner')!r}; the rules "
            f"give {winner}")
    require(res.get("match_points") == left, f"result.match_points is "
            f"{res.get('match_points')!r}; the rules give {left}")
