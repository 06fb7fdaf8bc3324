"""Toy's rules as steps on a small int64 state, and its per-decision ``Engine``.

State words (three seats' room whatever the player count):

==============  =====================================================================
``S_HAND + p``  seat p's hand, a mask of card ids (bit c: card c)
``S_TRICK + k`` the trick's k-th card (-1: none yet)
``S_LEADER``    the seat that leads the trick
``S_COUNT``     cards in the trick so far
``S_POINTS+p``  seat p's points
``S_DONE``      tricks finished
``S_FIRST``     the seat that led the first trick
``S_RNG``       the game's random word (the random player's draws hash it)
``S_DEALT + p`` seat p's hand as dealt (what a record's deal start holds)
==============  =====================================================================

A card id is ``suit * 4 + rank`` (suits C S H, ranks J Q K A); an action is the id of
the card played.  Plain Python: a real game writes these steps as ``@njit`` kernels.
"""
from __future__ import annotations

import numpy as np

from simcore.engine import EngineBase
from simcore.errors import TricksimError
from simcore.observation import ObservationSpec, ObsField
from simcore.records import check_common, fail, require, require_same
from simcore.state_check import Field, StateSpec, mask_field

from .rules import R_LAST_BONUS, R_PLAYERS, RULEBOOK, rules_array

SUITS, RANKS = "CSH", "JQKA"
N_CARDS = 12
DECK = (1 << N_CARDS) - 1
POLICIES = ("random", "heuristic")

S_HAND, S_TRICK, S_LEADER, S_COUNT, S_POINTS, S_DONE, S_FIRST, S_RNG, S_DEALT = \
    0, 3, 6, 7, 8, 11, 12, 13, 14
STATE_SIZE = 17
_M64 = (1 << 64) - 1


def card_name(c: int) -> str:
    """``KH`` for card id 10."""
    return RANKS[c % 4] + SUITS[c // 4]


def parse_card(name) -> int:
    """The id of a card name (``KH``); TricksimError naming the allowed cards."""
    if isinstance(name, str) and len(name) == 2 and name[0] in RANKS and name[1] in SUITS:
        return SUITS.index(name[1]) * 4 + RANKS.index(name[0])
    raise TricksimError(f"{name!r} is not a card; cards: J Q K A of C S H (e.g. KH)")


def cards_of(mask: int) -> list[int]:
    """The card ids of a mask, lowest first."""
    return [c for c in range(N_CARDS) if mask >> c & 1]


def mix(x: int) -> int:
    """splitmix64's output function: a well-spread 64-bit word of ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def stream(seed: int, index: int) -> int:
    """The random word of game ``index`` of run ``seed`` (from those two alone)."""
    return mix(mix(seed & _M64) ^ index)


def deal(seed: int, index: int, n: int) -> tuple[list[list[int]], int]:
    """The hands (seat after seat, 12 / n cards each) and first leader of game
    ``index`` of run ``seed``."""
    rng = np.random.default_rng([seed & _M64, index])
    order = [int(c) for c in rng.permutation(N_CARDS)]
    h = N_CARDS // n
    return [sorted(order[p * h:(p + 1) * h]) for p in range(n)], int(rng.integers(n))


def start(st, hands, leader: int, word: int) -> None:
    """Fill ``st`` with a deal: ``hands`` (card ids per seat), ``leader`` to lead."""
    st[:] = 0
    st[S_TRICK:S_TRICK + 3] = -1
    for p, hand in enumerate(hands):
        st[S_HAND + p] = st[S_DEALT + p] = sum(1 << c for c in hand)
    st[S_LEADER] = st[S_FIRST] = leader
    st[S_RNG] = word - (1 << 64) if word >= 1 << 63 else word


def to_move(st, n: int) -> int:
    return int(st[S_LEADER] + st[S_COUNT]) % n


def over(st, n: int) -> bool:
    return int(st[S_DONE]) == N_CARDS // n


def legal(st, n: int) -> list[int]:
    """The cards the seat to move may play: of the suit led if it holds one."""
    if over(st, n):
        return []
    hand = int(st[S_HAND + to_move(st, n)])
    if st[S_COUNT]:
        suit = int(st[S_TRICK]) // 4
        follow = hand & (0xF << 4 * suit)
        hand = follow or hand
    return cards_of(hand)


def trick_winner(st, n: int) -> int:
    """The seat whose card is the highest of the suit led in the (full) trick."""
    lead = int(st[S_TRICK])
    best = max(range(n), key=lambda k: int(st[S_TRICK + k]) if int(st[S_TRICK + k]) // 4
               == lead // 4 else -1)
    return (int(st[S_LEADER]) + best) % n


def apply(st, card: int, n: int, last_bonus: bool) -> None:
    """Play ``card`` for the seat to move (a legal card); a full trick is scored."""
    seat = to_move(st, n)
    st[S_HAND + seat] &= ~(1 << card)
    st[S_TRICK + int(st[S_COUNT])] = card
    st[S_COUNT] += 1
    if st[S_COUNT] == n:
        w = trick_winner(st, n)
        st[S_DONE] += 1
        st[S_POINTS + w] += 2 if last_bonus and over(st, n) else 1
        st[S_LEADER] = w
        st[S_COUNT] = 0
        st[S_TRICK:S_TRICK + 3] = -1


def choose(st, pid: int, n: int) -> int:
    """The card player ``pid`` plays (0 random, 1 heuristic)."""
    moves = legal(st, n)
    if pid == 0:
        played = N_CARDS - sum(bin(int(st[S_HAND + p])).count("1") for p in range(n))
        return moves[mix((int(st[S_RNG]) & _M64) ^ played) % len(moves)]
    if not st[S_COUNT]:
        return max(moves, key=lambda c: (c % 4, c))
    lead = int(st[S_TRICK]) // 4
    high = max((int(st[S_TRICK + k]) for k in range(int(st[S_COUNT]))
                if int(st[S_TRICK + k]) // 4 == lead), default=-1)
    winning = [c for c in moves if c // 4 == lead and c > high]
    return min(winning) if winning else min(moves, key=lambda c: (c % 4, c))


def winner(points) -> int:
    """The seat with the most points alone, or -1 for a tie."""
    top = max(points)
    return points.index(top) if points.count(top) == 1 else -1


class Engine(EngineBase):
    """Toy under one rule set, one card at a time."""

    game = "toygame"
    policies = POLICIES
    n_actions = N_CARDS

    def __init__(self, rules):
        self.rules = rules
        self.r = rules_array(rules)             # what a real game's kernels take
        self.seats = int(self.r[R_PLAYERS])
        self.bonus = bool(self.r[R_LAST_BONUS])

    def make_state_spec(self):
        n = self.seats
        return StateSpec("toygame", STATE_SIZE, [
            mask_field("hand", S_HAND, DECK, 3), Field("trick", S_TRICK, 3, -1, N_CARDS - 1),
            Field("leader", S_LEADER, 1, 0, n - 1), Field("count", S_COUNT, 1, 0, n - 1),
            Field("points", S_POINTS, 3, 0, N_CARDS + 1),
            Field("done", S_DONE, 1, 0, N_CARDS // n), Field("first", S_FIRST, 1, 0, n - 1),
            Field("rng", S_RNG), mask_field("dealt", S_DEALT, DECK, 3)], self._consistent)

    def _consistent(self, words) -> str | None:
        n = self.seats
        held = [bin(words[S_HAND + p]).count("1") for p in range(n)]
        left = N_CARDS // n - words[S_DONE]
        if any(h != left - (1 if (p - words[S_LEADER]) % n < words[S_COUNT] else 0)
               for p, h in enumerate(held)):
            return "the hands' sizes do not fit the tricks played"
        if any(words[S_HAND + p] & words[S_HAND + q] for p in range(n) for q in range(p)):
            return "a card is in two hands"
        return None

    def make_observation_spec(self):
        return ObservationSpec("toygame", N_CARDS, 9, N_CARDS, (
            ObsField("seat", 0, "value", "the observing seat"),
            ObsField("hand", 1, "cards", "the seat's hand"),
            ObsField("trick", 2, "card", "the trick's cards in play order", count=3),
            ObsField("leader", 5, "value", "the seat leading the trick"),
            ObsField("points", 6, "value", "each seat's points", count=3)),
            standing=lambda result: [int(p == result["winner"])
                                     for p in range(len(result["points"]))],
            standing_name="win")

    # ----- positions ------------------------------------------------------------------
    def new(self, seed: int, index: int):
        """Game ``index`` of run ``seed``, dealt."""
        st = np.zeros(STATE_SIZE, np.int64)
        hands, leader = deal(seed, index, self.seats)
        start(st, hands, leader, stream(seed, index))
        return st

    def from_record(self, record: dict, deal: int = 0, upto: int | None = None):
        """The position after the first ``upto`` actions (None: all) of the record's
        deal (toy games have one); the record is checked first as ``replay`` does."""
        replay(record)
        if deal != 0:
            raise ValueError("a toy game has one deal: deal 0")
        acts = record["deals"][0]["actions"]
        upto = len(acts) if upto is None else upto
        if not 0 <= upto <= len(acts):
            raise ValueError(f"upto {upto!r} is not in 0..{len(acts)}")
        st = _started(record, self.seats)
        for item in acts[:upto]:
            self.apply(st, self.action_from_record(st, item))
        return st

    def legal(self, st) -> list[int]:
        return legal(st, self.seats)

    def apply(self, st, action: int) -> None:
        if action not in legal(st, self.seats):
            raise ValueError(f"{card_name(action)} is not a legal card here")
        apply(st, int(action), self.seats, self.bonus)

    def to_move(self, st) -> int:
        return to_move(st, self.seats)

    def deal_over(self, st) -> bool:
        return over(st, self.seats)

    def game_over(self, st) -> bool:
        return over(st, self.seats)

    def next_deal(self, st) -> None:
        raise ValueError("a toy game has one deal; it is over")

    def observe(self, st, seat: int):
        n = self.seats
        return np.array([seat, st[S_HAND + seat], *st[S_TRICK:S_TRICK + 3], st[S_LEADER],
                         *[st[S_POINTS + p] if p < n else 0 for p in range(3)]], np.int64)

    def view(self, st, seat: int) -> dict:
        n = self.seats
        return {"seat": seat, "hand": [card_name(c) for c in cards_of(int(st[S_HAND + seat]))],
                "trick": [[(int(st[S_LEADER]) + k) % n, card_name(int(st[S_TRICK + k]))]
                          for k in range(int(st[S_COUNT]))],
                "points": [int(st[S_POINTS + p]) for p in range(n)],
                "tricks_done": int(st[S_DONE])}

    def choose(self, policy_name: str, st) -> int:
        self.check_policy(policy_name)
        if over(st, self.seats):
            raise ValueError("the deal is over: nobody is to move")
        return choose(st, POLICIES.index(policy_name), self.seats)

    # ----- records --------------------------------------------------------------------
    def action_to_record(self, st, action: int) -> list:
        return [self.to_move(st), "play", card_name(action)]

    def action_from_record(self, st, item) -> int:
        if not (isinstance(item, list) and len(item) == 3 and item[1] == "play"):
            raise ValueError(f"an action is [seat, \"play\", card], not {item!r}")
        if item[0] != self.to_move(st):
            raise ValueError(f"it is seat {self.to_move(st)}'s turn, not seat {item[0]!r}'s")
        return parse_card(item[2])

    def describe(self, action: int) -> str:
        return f"play {card_name(action)}"

    def deal_start(self, st) -> dict:
        """The deal as dealt: the hands and the first trick's leader."""
        return {"hands": [[card_name(c) for c in cards_of(int(st[S_DEALT + p]))]
                          for p in range(self.seats)], "leader": int(st[S_FIRST])}

    def deal_end(self, st) -> dict:
        return {"points": [int(st[S_POINTS + p]) for p in range(self.seats)]}

    def result(self, st) -> dict:
        points = [int(st[S_POINTS + p]) for p in range(self.seats)]
        return {"points": points, "winner": winner(points)}


# ----- records ----------------------------------------------------------------------------
def _started(record, n: int):
    """The state at the start of a record's deal (checked), its random word the run's."""
    start_ = record["deals"][0].get("start")
    require(isinstance(start_, dict) and isinstance(start_.get("hands"), list)
            and len(start_["hands"]) == n, f"the deal's start must hold {n} hands", 0)
    hands = []
    for p, hand in enumerate(start_["hands"]):
        require(isinstance(hand, list) and len(hand) == N_CARDS // n,
                f"hand {p} must hold {N_CARDS // n} cards", 0)
        try:
            hands.append([parse_card(c) for c in hand])
        except TricksimError as exc:
            fail(f"hand {p}: {exc}", 0)
    require(sorted(c for h in hands for c in h) == list(range(N_CARDS)),
            "the hands must hold every card of the deck once", 0)
    leader = start_.get("leader")
    require(type(leader) is int and 0 <= leader < n, f"leader must be a seat (0 to {n - 1})", 0)
    st = np.zeros(STATE_SIZE, np.int64)
    start(st, hands, leader, stream(record["seed"], record["index"]))
    return st


def replay(record) -> None:
    """Check a toy record action by action; ReplayError at the first fault."""
    check_common(record)
    rules = RULEBOOK.from_dict(record["rules"])
    n = rules["players"]
    check_common(record, n)
    require(len(record["deals"]) == 1, "a toy game has one deal")
    eng = Engine(rules)
    st = _started(record, n)
    for k, item in enumerate(record["deals"][0].get("actions", [])):
        try:
            eng.apply(st, eng.action_from_record(st, item))
        except (ValueError, TricksimError) as exc:
            fail(str(exc), 0, k)
    require(over(st, n), "the deal's actions end before its last trick", 0)
    require_same(record["deals"][0].get("end"), eng.deal_end(st), "end", 0)
    require_same(record["result"], eng.result(st), "result")
