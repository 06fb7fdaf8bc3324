"""Schadenfreude records: built from a logged kernel game, and replayed step by step.

One stepwise engine (``RoundState``) serves both directions; it uses the same
kernel functions as the batch play (legal_mask, winning_rank, collect_card),
and building a record cross-checks its outcome against the batch kernel's.
"""
from __future__ import annotations

import numpy as np

from ...records import check_common, parse_cards, require
from .cards import CARD_RANK, WILD0, card_name, deck_mask, mask_cards, mask_of, \
    parse_card
from .kernels import collect_card, game_winner, legal_mask, lead_mask_of, pile_points, \
    winning_rank
from .play import play_logged
from .rules import RULEBOOK, rules_array


class RoundState:
    """One round played card by card, with the rules' checks."""

    def __init__(self, hands, leader, cancel):
        self.n = len(hands)
        self.hands = [int(h) for h in hands]
        self.piles = [0] * self.n
        self.cancel = cancel
        self.trick_leader = leader
        self.trick = []  # (seat, card) in play order
        self.lead = 0

    def to_act(self) -> int:
        """The seat whose turn it is."""
        return (self.trick_leader + len(self.trick)) % self.n

    def legal(self, seat) -> int:
        """Mask of the cards ``seat`` may play now."""
        return int(legal_mask(np.uint64(self.hands[seat]), np.uint64(self.lead)))

    def play(self, card, strict=True) -> str | None:
        """Play ``card`` for the seat to act; returns a reason if it is illegal.

        ``strict=False`` skips the checks (used to find who played which card
        of a logged round before the hands are known)."""
        seat = self.to_act()
        if not strict:
            pass
        elif not self.hands[seat] >> card & 1:
            return f"seat {seat} does not hold {card_name(card)}"
        elif not self.legal(seat) >> card & 1:
            return (f"seat {seat} must follow the lead suit (or play a wild card) and may not "
                    f"play {card_name(card)}")
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        if self.lead == 0 and card < WILD0:
            self.lead = int(lead_mask_of(card))
        if len(self.trick) == self.n:
            self._resolve()
        return None

    def _resolve(self):
        ranks = 0
        seat_of = {}
        for seat, card in self.trick:
            if card >= WILD0 or (1 << card) & self.lead:
                ranks |= 1 << int(CARD_RANK[card])
                seat_of[int(CARD_RANK[card])] = seat
        winner = seat_of[int(winning_rank(np.uint64(ranks)))]
        pile = np.uint64(self.piles[winner])
        for seat, card in self.trick:
            if seat == winner or not (card >= WILD0 or (1 << card) & self.lead):
                pile = np.uint64(collect_card(pile, card, self.cancel))
        self.piles[winner] = int(pile)
        self.trick = []
        self.lead = 0
        self.trick_leader = winner

    def done(self) -> bool:
        """Whether every card has been played."""
        return all(h == 0 for h in self.hands)

    def points(self) -> list[int]:
        """Round points per seat (sum of each score pile)."""
        return [int(pile_points(np.uint64(p))) for p in self.piles]


def _new_scores(cum, points, rules):
    out = []
    for c, p in zip(cum, points):
        s = c + p
        if rules["floor"] != "none" and s < rules["floor"]:
            s = rules["floor"]
        out.append(s)
    return out


def _names(mask):
    return [card_name(c) for c in mask_cards(mask)]


def build_record(rules, policies, policy_ids, seed, index) -> dict:
    """The record of game ``index`` of run ``seed``, from the logging kernel."""
    n, h = rules["players"], rules["hand_size"]
    log = np.full((rules["max_rounds"], 1 + n * h), -1, dtype=np.int16)
    scores_out = np.zeros(n, dtype=np.int64)
    rounds, winner, bust, unfinished, _ = play_logged(
        rules_array(rules), policy_ids, np.uint64(seed), index, scores_out, log)
    deck = deck_mask(rules["values"])
    cancel = rules["pairs"] == "cancel"
    cum = [0] * n
    deals = []
    for r in range(rounds):
        leader = int(log[r, 0])
        cards = [int(c) for c in log[r, 1:1 + n * h]]
        # who played what follows from the leader and the trick winners
        probe = RoundState([0] * n, leader, cancel)
        seats = []
        hands = [0] * n
        for card in cards:
            seats.append(probe.to_act())
            hands[seats[-1]] |= 1 << card
            probe.play(card, strict=False)
        state = RoundState(hands, leader, cancel)
        actions = []
        for seat, card in zip(seats, cards):
            reason = state.play(card)
            if reason:
                raise AssertionError(f"engine disagreement in game {index}: {reason}")
            actions.append([seat, "play", card_name(card)])
        points = state.points()
        new = _new_scores(cum, points, rules)
        deals.append({
            "start": {"hands": [_names(hm) for hm in hands],
                      "aside": _names(deck & ~mask_of(cards)),
                      "leader": leader, "scores": list(cum)},
            "actions": actions,
            "end": {"piles": [_names(p) for p in state.piles], "points": points,
                    "scores": new},
        })
        cum = new
    if cum != [int(x) for x in scores_out]:
        raise AssertionError(f"engine disagreement in game {index}: scores {cum} against "
                             f"{list(scores_out)}")
    return {
        "game": "schadenfreude", "rules": rules.to_dict(), "seed": int(seed),
        "index": int(index), "policies": list(policies), "deals": deals,
        "result": {"scores": cum, "winners": [] if winner < 0 else [int(winner)],
                   "bust": [p for p in range(n) if bust >> p & 1],
                   "unfinished": bool(unfinished)},
    }


def _cards(value, what, deal, action=None):
    return parse_cards(value, parse_card, what, deal, action)


def _allowed_leaders(r, cum, prev_leader, rules, n):
    if r == 0:
        return {0} if rules["first_leader"] == "seat0" else set(range(n))
    low = min(cum)
    tied = [p for p in range(n) if cum[p] == low]
    if rules["tie_lead"] == "after_last":
        for i in range(1, n + 1):
            p = (prev_leader + i) % n
            if cum[p] == low:
                return {p}
    return set(tied)


def replay_record(record) -> None:
    """Check a Schadenfreude record action by action (records contract)."""
    require(isinstance(record, dict), "a record must be a JSON object")
    rules = RULEBOOK.from_dict(record.get("rules"))
    n, h = rules["players"], rules["hand_size"]
    check_common(record, n)
    deck = deck_mask(rules["values"])
    cancel = rules["pairs"] == "cancel"
    cum = [0] * n
    prev_leader = None
    deals = record["deals"]
    require(len(deals) <= rules["max_rounds"], f"{len(deals)} rounds exceed max_rounds "
            f"{rules['max_rounds']}")
    for d, deal in enumerate(deals):
        require(isinstance(deal, dict) and all(k in deal for k in ("start", "actions", "end")),
                "a deal needs 'start', 'actions' and 'end'", d)
        start = deal["start"]
        require(isinstance(start, dict), "'start' must be an object", d)
        for key in ("hands", "aside", "leader", "scores"):
            require(key in start, f"start is missing '{key}'", d)
        require(isinstance(start["hands"], list) and len(start["hands"]) == n,
                f"start.hands must hold {n} hands", d)
        hands = [_cards(hd, f"start.hands[{p}]", d) for p, hd in enumerate(start["hands"])]
        aside = _cards(start["aside"], "start.aside", d)
        seen = [c for hd in hands for c in hd] + aside
        require(len(seen) == len(set(seen)), "a card is dealt twice", d)
        for p, hd in enumerate(hands):
            require(len(hd) == h, f"seat {p} holds {len(hd)} cards; the rules deal {h}", d)
        require(mask_of(seen) == deck and len(seen) == bin(deck).count("1"),
                "the hands and the aside cards are not exactly the deck of these rules", d)
        require(start["scores"] == cum, f"start.scores {start['scores']} do not match the "
                f"scores after the previous round {cum}", d)
        leader = start["leader"]
        allowed = _allowed_leaders(d, cum, prev_leader, rules, n)
        require(type(leader) is int and leader in allowed,
                f"leader {leader!r} is not allowed here; allowed: {sorted(allowed)}", d)
        state = RoundState([mask_of(hd) for hd in hands], leader, cancel)
        actions = deal["actions"]
        require(isinstance(actions, list), "'actions' must be a list", d)
        for a, act in enumerate(actions):
            require(isinstance(act, list) and len(act) == 3 and act[1] == "play",
                    f"action {act!r} is not [seat, \"play\", card]", d, a)
            require(not state.done(), "an action after every card was played", d, a)
            seat = state.to_act()
            require(type(act[0]) is int and act[0] == seat,
                    f"it is seat {seat}'s turn, not seat {act[0]!r}'s", d, a)
            card = _cards([act[2]], "the card played", d, a)[0]
            reason = state.play(card)
            require(reason is None, reason, d, a)
        require(state.done(), "the round ends before every card was played", d)
        points = state.points()
        new = _new_scores(cum, points, rules)
        end = deal["end"]
        require(isinstance(end, dict), "'end' must be an object", d)
        piles = end.get("piles")
        require(isinstance(piles, list) and len(piles) == n, f"end.piles must hold {n} piles", d)
        for p in range(n):
            got = mask_of(_cards(piles[p], f"end.piles[{p}]", d))
            require(got == state.piles[p] and len(piles[p]) == bin(got).count("1"),
                    f"end.piles[{p}] is {piles[p]}; the rules give {_names(state.piles[p])}", d)
        require(end.get("points") == points, f"end.points is {end.get('points')}; the rules "
                f"give {points}", d)
        require(end.get("scores") == new, f"end.scores is {end.get('scores')}; the rules "
                f"give {new}", d)
        cum = new
        prev_leader = leader
        over = any(s > rules["limit"] for s in cum)
        last = d == len(deals) - 1
        if over:
            require(last, "the game should have ended after this round (someone is over "
                    "the limit)", d)
        elif d + 1 == rules["max_rounds"]:
            require(last, "the game should have ended (max_rounds)", d)
        else:
            require(not last, "the game ends while nobody is over the limit", d)
    res = record["result"]
    unfinished = not any(s > rules["limit"] for s in cum)
    winner = -1 if unfinished else int(game_winner(np.array(cum, dtype=np.int64), n,
                                                   rules["limit"],
                                                   rules["all_bust"] == "highest"))
    expect = {"scores": cum, "winners": [] if winner < 0 else [winner],
              "bust": [p for p in range(n) if cum[p] > rules["limit"]],
              "unfinished": unfinished}
    for key, value in expect.items():
        got = res.get(key)
        if key in ("winners", "bust") and isinstance(got, list):
            got = sorted(got)
        require(got == value, f"result.{key} is {res.get(key)!r}; the rules give {value!r}")
