"""A slow, obvious Schadenfreude reference, written from the rules, not from the kernels.

Plain lists, dicts and card names (``"7H"``, ``"-3C"``, ``"0W"``, ``"10W"``); no numba,
no bit masks.  The tests feed it the cards the engine played and compare every
pile, point, score, leader and winner exactly.

The rules it implements (carried over from the project's rules page so the tests
never need to read it):

* Deck: four suits C S H D of the rule set's ``values`` plus two suitless wild
  cards, 0 and 10.
* The leader plays any card.  A player holding a card of the lead suit must play
  that suit or a wild card; a player with none plays anything.  While only wild
  cards have been played there is no lead suit: the first non-wild card sets it.
* Wild cards always follow.  Among the followers (lead suit and wilds) the
  second-highest value wins; a lone follower wins.
* The winner collects, in play order (leader first), their own card and every
  card that did not follow; the rest are discarded.  The winner leads next.
* ``pairs = cancel``: a collected card whose value is already in the pile goes
  out together with the card already there (so of three the last one collected
  stays); ``keep``: nothing cancels.
* Round points are the sum of the pile; the cumulative score adds them, then is
  raised to ``floor`` if below it (``"none"``: no floor).
* After a round in which someone is over ``limit`` the game ends.  Bust players
  cannot win; among the others the highest score wins, but a score shared by
  several wins for none of them and the next lower score is tried.  If everyone
  is bust: nobody wins (``all_bust = none``) or the same cascade runs over all
  (``highest``).  A game still running after ``max_rounds`` rounds is unfinished,
  without winners.
* Later rounds are led by the lowest cumulative score; among tied seats
  ``tie_lead = random`` allows any of them, ``after_last`` takes the first tied
  seat in play order after the previous round's leader, that leader last.
  The first round: any seat (``first_leader = random``) or seat 0.
"""
from __future__ import annotations

ALL_VALUES = [-3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9]
SUITS = ["C", "S", "H", "D"]
WILDS = ["0W", "10W"]


class IllegalPlay(Exception):
    """A card the rules do not allow at that point."""


def value(card: str) -> int:
    return int(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def is_wild(card: str) -> bool:
    return suit(card) == "W"


def make_deck(values) -> list[str]:
    deck = []
    for s in SUITS:
        for v in values:
            deck.append(f"{v}{s}")
    return deck + list(WILDS)


def lead_suit(cards_so_far):
    """The suit to follow: that of the first non-wild card played, or None."""
    for c in cards_so_far:
        if not is_wild(c):
            return suit(c)
    return None


def follows(card, the_lead_suit) -> bool:
    return is_wild(card) or suit(card) == the_lead_suit


def legal_cards(hand, cards_so_far) -> list[str]:
    """The cards of ``hand`` that may be played after ``cards_so_far`` in this trick."""
    ls = lead_suit(cards_so_far)
    if ls is None:
        return list(hand)
    has_suit = False
    for c in hand:
        if not is_wild(c) and suit(c) == ls:
            has_suit = True
    if not has_suit:
        return list(hand)
    return [c for c in hand if is_wild(c) or suit(c) == ls]


def trick_winner(plays):
    """``plays``: [(seat, card)] in play order.  Returns (winning seat, cards collected
    in play order)."""
    ls = lead_suit([c for _, c in plays])
    followers = [(value(c), seat) for seat, c in plays if follows(c, ls)]
    followers.sort(reverse=True)
    if len(followers) == 1:
        winner = followers[0][1]
    else:
        winner = followers[1][1]
    collected = []
    for seat, c in plays:
        if seat == winner or not follows(c, ls):
            collected.append(c)
    return winner, collected


def add_to_pile(pile, card, pairs) -> None:
    """Put one collected card on ``pile`` (a list), cancelling pairs if the rules say so."""
    if pairs == "cancel":
        same = [c for c in pile if value(c) == value(card)]
        if same:
            for c in same:
                pile.remove(c)
            return
    pile.append(card)


def pile_points(pile) -> int:
    total = 0
    for c in pile:
        total += value(c)
    return total


def seats_of(leader, cards, n):
    """Who played each card of a round, from the leader and the trick winners."""
    seats = []
    trick_leader = leader
    for t in range(0, len(cards), n):
        plays = []
        for i in range(n):
            plays.append(((trick_leader + i) % n, cards[t + i]))
        seats += [s for s, _ in plays]
        trick_leader, _ = trick_winner(plays)
    return seats


def hands_of(leader, cards, n):
    """Each seat's hand at the start of a round, from the cards played in order."""
    hands = [[] for _ in range(n)]
    for seat, c in zip(seats_of(leader, cards, n), cards):
        hands[seat].append(c)
    return hands


def play_round(hands, leader, cards, pairs):
    """Play a round card by card from ``hands``; raise IllegalPlay on a bad card.

    Returns {"seats": who played each card, "piles", "points", "trick_winners",
    "legal": the legal cards at each step}.
    """
    n = len(hands)
    hands = [list(h) for h in hands]
    piles = [[] for _ in range(n)]
    seats, trick_winners, legal_log = [], [], []
    trick_leader = leader
    pos = 0
    while any(hands):
        plays = []
        for i in range(n):
            seat = (trick_leader + i) % n
            if pos >= len(cards):
                raise IllegalPlay(f"the round stops after {pos} cards")
            card = cards[pos]
            pos += 1
            legal = legal_cards(hands[seat], [c for _, c in plays])
            legal_log.append(legal)
            if card not in hands[seat]:
                raise IllegalPlay(f"seat {seat} does not hold {card}")
            if card not in legal:
                raise IllegalPlay(f"seat {seat} must follow suit, not play {card}")
            hands[seat].remove(card)
            plays.append((seat, card))
            seats.append(seat)
        winner, collected = trick_winner(plays)
        for c in collected:
            add_to_pile(piles[winner], c, pairs)
        trick_winners.append(winner)
        trick_leader = winner
    if pos != len(cards):
        raise IllegalPlay("cards left over after every hand is empty")
    return {"seats": seats, "piles": piles, "points": [pile_points(p) for p in piles],
            "trick_winners": trick_winners, "legal": legal_log}


def new_scores(scores, points, floor):
    out = []
    for s, p in zip(scores, points):
        t = s + p
        if floor != "none" and t < floor:
            t = floor
        out.append(t)
    return out


def allowed_leaders(round_no, scores, prev_leader, rules):
    """The seats that may lead round ``round_no`` (from 0)."""
    n = rules["players"]
    if round_no == 0:
        if rules["first_leader"] == "seat0":
            return [0]
        return list(range(n))
    low = min(scores)
    if rules["tie_lead"] == "after_last":
        for i in range(1, n + 1):
            seat = (prev_leader + i) % n
            if scores[seat] == low:
                return [seat]
    return [p for p in range(n) if scores[p] == low]


def game_winner(scores, limit, all_bust):
    """The winning seat or None."""
    n = len(scores)
    candidates = [p for p in range(n) if scores[p] <= limit]
    if not candidates:
        if all_bust != "highest":
            return None
        candidates = list(range(n))
    for s in sorted({scores[p] for p in candidates}, reverse=True):
        holders = [p for p in candidates if scores[p] == s]
        if len(holders) == 1:
            return holders[0]
    return None


def play_game(rules, rounds, partial=False, check_leaders=True):
    """Play a whole game from ``rounds``: [(leader, cards in play order)] per round.

    Checks each leader is allowed and each round's cards are a legal deal
    (``hand_size`` cards each, nothing twice, all from the deck); returns
    {"rounds": [per round: leader, hands, aside, piles, points, scores_before,
    scores], "scores", "winners", "bust", "unfinished"}.  ``partial``: the rounds
    may stop before the game is over (its result is then that of a stopped game).
    ``check_leaders=False`` takes each round's leader as given (for diagnostics).
    """
    n = rules["players"]
    h = rules["hand_size"]
    deck = make_deck(rules["values"])
    scores = [0] * n
    prev_leader = None
    out_rounds = []
    ended = False
    for r, (leader, cards) in enumerate(rounds):
        if ended:
            raise IllegalPlay(f"round {r} is played after the game ended")
        if check_leaders and leader not in allowed_leaders(r, scores, prev_leader, rules):
            raise IllegalPlay(f"round {r}: seat {leader} may not lead")
        if len(cards) != n * h or len(set(cards)) != len(cards):
            raise IllegalPlay(f"round {r}: not {n} hands of {h} distinct cards")
        for c in cards:
            if c not in deck:
                raise IllegalPlay(f"round {r}: {c} is not in the deck")
        hands = hands_of(leader, cards, n)
        res = play_round(hands, leader, cards, rules["pairs"])
        new = new_scores(scores, res["points"], rules["floor"])
        out_rounds.append({"leader": leader, "hands": hands,
                           "aside": [c for c in deck if c not in cards],
                           "piles": res["piles"], "points": res["points"],
                           "scores_before": scores, "scores": new,
                           "trick_winners": res["trick_winners"], "seats": res["seats"]})
        scores = new
        prev_leader = leader
        if any(s > rules["limit"] for s in scores):
            ended = True
        elif r + 1 == rules["max_rounds"]:
            ended = True
    if not ended and not partial:
        raise IllegalPlay("the game stops while nobody is over the limit")
    bust = [p for p in range(n) if scores[p] > rules["limit"]]
    unfinished = not bust
    winner = None if unfinished else game_winner(scores, rules["limit"], rules["all_bust"])
    return {"rounds": out_rounds, "scores": scores,
            "winners": [] if winner is None else [winner], "bust": bust,
            "unfinished": unfinished}
