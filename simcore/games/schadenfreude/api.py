"""Schadenfreude one decision at a time, from Python: ``Engine(rules)``.

A state is the engine's int64 array (engine.py documents its layout); every
method is a thin wrapper over the engine's kernels, so a game stepped here is
the game the batch run plays::

    eng = GAME.engine(rules)              # or simcore.engine("schadenfreude", rules)
    s = eng.new(seed=7, index=0)          # game 0 of run 7, as the batch starts it
    while not eng.game_over(s):
        while not eng.deal_over(s):
            eng.apply(s, eng.choose("heuristic", s))
        if not eng.game_over(s):
            eng.next_deal(s)
    eng.result(s)

Actions are card ids (``play`` that card; see engine.py), seats count from 0.
"""
from __future__ import annotations

import numpy as np

from ...text import counted
from ...engine import Dealing, EngineBase, renamed_pairs
from ...errors import RulesError
from .cards import CARD_VALUE, SUITS, card_name, deck_mask, mask_cards, mask_of, parse_card
from .engine import (O_BUST, O_FOLLOW, O_HAND, O_HELD, O_LEAD, O_LEADER, O_OFFSUIT, O_PILE,
                     O_PLAYED, O_PLAYERS, O_POINTS, O_ROUND, O_SCORE, O_SEAT, O_STATUS,
                     O_TO_MOVE, O_TRICK, O_TRICK_LEADER, O_TRICK_NUM, O_TRICK_POS, OBS_SIZE,
                     S_DECK, S_HAND, S_LEADER, S_PLAYED, S_POINTS, S_SCORE, S_STATUS, S_TO_MOVE, STATE_SIZE, GAME_OVER,
                     PLAYING, apply_checked, init_game, legal_actions, next_deal, observe,
                     start_deal)
from .pimc import choose_search

#: the most tricks left (the mover's cards) an exact open-card search is run from: 5
#: left takes seconds (bench_solver_schadenfreude.py: 48 full solves/s at 4 left)
OPEN_MAX_TRICKS = 5
from .policies import PIMC_MAX_DEPTH, POLICIES, choose, parse_policy
from .solver import new_work, solve_actions
from .records import (action_to_item, check_start, describe, illegal_reason,
                      item_to_action, replay_record, result_of)
from .rules import R_DECK, RULEBOOK, rules_array
from . import vector
from .layout import state_spec
from .observation import spec as observation_spec

_STATUS = ("playing", "round_over", "game_over")


class Engine(EngineBase):
    """Schadenfreude under one rule set, stepped one action at a time."""

    game = "schadenfreude"
    policies = POLICIES
    n_actions = 50

    state_spec_of = staticmethod(state_spec)
    observation_spec_of = staticmethod(observation_spec)
    vector = vector

    def __init__(self, rules):
        self.rules = rules
        self.r = rules_array(rules)
        self.players = rules["players"]
        self.seats = self.players
        self.hand_size = rules["hand_size"]
        self.policies = POLICIES
        self._acts = np.empty(50, dtype=np.int64)
        self._obs = np.empty(OBS_SIZE, dtype=np.int64)
        self._work, self._fw = new_work()

    # ----- positions --------------------------------------------------------------
    def new(self, seed: int, index: int) -> np.ndarray:
        """Game ``index`` of run ``seed``, as the batch run starts it (first round dealt)."""
        st = np.empty(STATE_SIZE, dtype=np.int64)
        init_game(self.r, st, np.uint64(seed), int(index))
        return st

    def from_record(self, record: dict, deal: int = 0, upto: int | None = None) -> np.ndarray:
        """The position after the first ``upto`` actions of deal ``deal`` of a record
        (``None``: all of them).  The record is first checked as ``replay`` does.

        When the record's rounds are those its (seed, index) deals and its policies
        are known, the stream is advanced as the batch run's was (each action is
        first chosen by the seat's policy, then the record's action is played), so
        ``choose`` from the returned state makes the run's next choice."""
        replay_record(record)
        rules = RULEBOOK.from_dict(record["rules"])
        if rules.canonical() != self.rules.canonical():
            raise ValueError(f"the record is for {rules.canonical()}, this engine plays "
                             f"{self.rules.canonical()}")
        deals = record["deals"]
        if not (isinstance(deal, int) and 0 <= deal < len(deals)):
            raise ValueError(f"deal {deal!r} is not in the record (0..{len(deals) - 1})")
        acts = deals[deal]["actions"]
        upto = len(acts) if upto is None else upto
        if not (isinstance(upto, int) and 0 <= upto <= len(acts)):
            raise ValueError(f"upto {upto!r} is not in 0..{len(acts)}")
        pids = [parse_policy(p) if p in POLICIES else -1 for p in record["policies"]]
        st = self.new(record["seed"] % 2**64, record["index"] % 2**63)
        for d in range(deal + 1):
            if d:
                next_deal(self.r, st)
            order, leader = check_start(deals[d]["start"], d, rules)
            if not self._dealt(st, order, leader):
                start_deal(self.r, st, order, leader)
            for item in deals[d]["actions"][:upto if d == deal else None]:
                p = int(st[S_TO_MOVE])
                if pids[p] >= 0:
                    choose(self.r, st, pids[p])      # the draws the run made here
                apply_checked(self.r, st, item_to_action(item, d))
        return st

    def start(self, st, hands, leader: int) -> None:
        """Start the current round of ``st`` from given hands (per seat ``hand_size``
        card names or ids; the rest of the deck is set aside) with ``leader`` to lead;
        the scores stay.  For analysing a deal or setting up an example."""
        n, h = self.players, self.hand_size
        ids = [[parse_card(c) if isinstance(c, str) else int(c) for c in hd] for hd in hands]
        flat = [c for hd in ids for c in hd]
        deck = deck_mask(self.rules["values"])
        if len(ids) != n or any(len(hd) != h for hd in ids):
            raise ValueError(f"give {n} hands of {counted(h, 'card')}")
        if len(set(flat)) != len(flat) or mask_of(flat) & ~deck:
            raise ValueError("a card is given twice or is not in the deck of these rules")
        if not (isinstance(leader, int) and 0 <= leader < n):
            raise ValueError(f"leader {leader!r} is not a seat")
        order = flat + mask_cards(deck & ~mask_of(flat))
        start_deal(self.r, st, np.array(order, dtype=np.int64), leader)

    def _dealt(self, st, order, leader) -> bool:
        """Whether ``st`` holds the round ``order`` / ``leader`` describes."""
        h, n = self.hand_size, self.players
        mine = st[S_DECK:S_DECK + len(order)]
        return int(st[S_LEADER]) == leader and all(
            set(mine[p * h:(p + 1) * h].tolist()) == set(order[p * h:(p + 1) * h].tolist())
            for p in range(n))

    # ----- the rules ----------------------------------------------------------------
    def legal(self, st) -> list[int]:
        """The legal actions of the seat to move (card ids, lowest first)."""
        k = legal_actions(self.r, st, self._acts)
        return self._acts[:k].tolist()

    def apply(self, st, action: int) -> None:
        """Play ``action`` for the seat to move (in place); ValueError if illegal."""
        code = apply_checked(self.r, st, int(action))
        if code:
            seat = int(st[S_TO_MOVE])
            what = describe(action) if 0 <= int(action) < 50 else repr(action)
            raise ValueError(f"{what} is not legal: {illegal_reason(code, seat, int(action))}"
                             f"; legal: {[describe(a) for a in self.legal(st)]}")

    def to_move(self, st) -> int:
        """Seat to play, -1 once the round is over."""
        return int(st[S_TO_MOVE])

    def deal_over(self, st) -> bool:
        """Whether the round is played out and scored."""
        return int(st[S_STATUS]) != PLAYING

    def game_over(self, st) -> bool:
        """Whether the game has ended."""
        return int(st[S_STATUS]) == GAME_OVER

    def next_deal(self, st) -> None:
        """Start the next round from the game's stream, as the batch run does."""
        if int(st[S_STATUS]) == PLAYING:
            raise ValueError("the round is still being played")
        if int(st[S_STATUS]) == GAME_OVER:
            raise ValueError("the game is over")
        next_deal(self.r, st)

    # ----- what a seat sees and the players --------------------------------------------
    def observe(self, st, seat: int) -> np.ndarray:
        """The raw observation array of ``seat`` (engine O_* layout)."""
        out = np.empty(OBS_SIZE, dtype=np.int64)
        observe(self.r, st, int(seat), out)
        return out

    def view(self, st, seat: int) -> dict:
        """What ``seat`` sees, decoded (cards as in records)."""
        o = self.observe(st, seat)
        n = int(o[O_PLAYERS])
        lead = int(o[O_LEAD])
        tl = int(o[O_TRICK_LEADER])
        return {
            "seat": int(o[O_SEAT]), "round": int(o[O_ROUND]), "status": _STATUS[int(o[O_STATUS])],
            "to_move": int(o[O_TO_MOVE]), "leader": int(o[O_LEADER]), "trick_leader": tl,
            "hand": _names(o[O_HAND]),
            "trick": [[(tl + i) % n, card_name(int(o[O_TRICK + i]))]
                      for i in range(int(o[O_TRICK_POS]))],
            "lead_suit": None if lead == 0 else SUITS[((lead & -lead).bit_length() - 1) // 12],
            "followers": [v - 3 for v in range(14) if int(o[O_FOLLOW]) >> v & 1],
            "off_suit": _names(o[O_OFFSUIT]),
            "tricks_done": int(o[O_TRICK_NUM]),
            "played": _names(o[O_PLAYED]),
            "held": [int(x) for x in o[O_HELD:O_HELD + n]],
            "piles": [_names(x) for x in o[O_PILE:O_PILE + n]],
            "points": [int(x) for x in o[O_POINTS:O_POINTS + n]],
            "scores": [int(x) for x in o[O_SCORE:O_SCORE + n]],
            "bust": [p for p in range(n) if int(o[O_BUST]) >> p & 1],
        }

    def check_policy(self, name: str) -> None:
        """ValueError unless ``name`` is a policy (``pimc`` with its parameters too)."""
        parse_policy(name)

    def choose(self, policy_name: str, st) -> int:
        """The action policy ``policy_name`` takes for the seat to move (``random``,
        ``heuristic``, ``pimc[:worlds=N,depth=D]``); advances the state's stream as that
        policy draws (``pimc`` draws from its own stream)."""
        try:
            pid = parse_policy(policy_name)
        except ValueError as e:
            raise RulesError(str(e)) from None
        if int(st[S_STATUS]) != PLAYING:
            raise ValueError("the round is over: nobody is to move")
        return int(choose_search(self.r, st, pid, self._obs, self._work, self._fw))

    def open_values(self, st, depth: int = PIMC_MAX_DEPTH,
                    playout: bool = False) -> dict[int, float]:
        """For the seat to move, each legal card's open-card value for that seat: the
        max-n search of solver.py with every card as in ``st``, in its unit (the seat's
        utility, 0 to 1: 1 = it wins the game, otherwise its estimated share of the win
        from the totals; docs/schadenfreude.md).  By default exact: searched to the
        round's end (``depth`` 12), which is fast from about five tricks left and slow
        before; a smaller ``depth`` searches that many tricks (the current one counts),
        then evaluates the totals or, with ``playout``, lets the heuristic play the round
        out first (as ``pimc:depth=D,playout=1`` values a world)."""
        if int(st[S_STATUS]) != PLAYING:
            raise ValueError("the round is over: nobody is to move")
        if not (isinstance(depth, int) and 0 <= depth <= PIMC_MAX_DEPTH):
            raise ValueError(f"depth {depth!r} is not allowed; allowed: 0 to "
                             f"{counted(PIMC_MAX_DEPTH, 'trick')} ({PIMC_MAX_DEPTH}: to the round's end)")
        left = bin(int(st[S_HAND + int(st[S_TO_MOVE])]) & ((1 << 64) - 1)).count("1")
        if depth >= left and left > OPEN_MAX_TRICKS:
            raise ValueError(f"an exact open-card value is searched from {OPEN_MAX_TRICKS} "
                             f"tricks left (here {left}: max-n over every card of every "
                             "seat would take hours); ask for it later in the round, or use "
                             "sampled worlds")
        acts = np.empty(50, dtype=np.int64)
        vals = np.empty(50, dtype=np.float64)
        k = solve_actions(self.r, st, depth, int(bool(playout)), self._work, self._fw, acts,
                          vals)
        return {int(acts[i]): float(vals[i]) for i in range(k)}

    # ----- records ------------------------------------------------------------------------
    def action_to_record(self, st, action: int) -> list:
        """``[seat, "play", card]`` for ``action`` by the seat to move."""
        return action_to_item(int(st[S_TO_MOVE]), action)

    def action_from_record(self, st, item) -> int:
        """The action of a record item; ValueError unless its seat is the one to move."""
        a = item_to_action(item)
        if type(item[0]) is not int or item[0] != int(st[S_TO_MOVE]):
            raise ValueError(f"it is seat {int(st[S_TO_MOVE])}'s turn, not seat {item[0]!r}'s")
        return a

    def describe(self, action: int) -> str:
        """``play 7H``."""
        return describe(action)

    # ----- dealing card by card (simcore.envs.openspiel) ----------------------------------
    def deal_order(self, st) -> list[int]:
        """The card order the round in play was dealt from: seat 0's ``hand_size`` cards,
        seat 1's, ..., then the cards set aside."""
        nd = bin(int(self.r[R_DECK])).count("1")
        return [int(c) for c in st[S_DECK:S_DECK + nd]]

    def redeal(self, st, order, dealer: int | None = None) -> None:
        """Restart the round in play from the card order ``order`` (``deal_order``'s
        positions) led by ``dealer`` (None: the round's leader); the scores stay."""
        arr = self._check_order(order, mask_cards(int(self.r[R_DECK])))
        lead = int(st[S_LEADER]) if dealer is None else int(dealer)
        if not 0 <= lead < self.players:
            raise ValueError(f"leader {dealer!r} is not a seat (0 to {self.players - 1})")
        start_deal(self.r, st, arr, lead)

    def renamed(self, st, world) -> dict[int, int]:
        """For a ``world`` sampled from ``st`` (``hand.sample_world``), the card ``world``
        holds in place of each card of ``st`` it moved (``EngineBase.renamed``): every
        hand and the cards set aside (the deck's cards neither played nor in a hand)
        paired holding by holding."""
        n = self.players

        def aside(s) -> int:
            held = int(s[S_PLAYED])
            for p in range(n):
                held |= int(s[S_HAND + p])
            return int(self.r[R_DECK]) & ~held

        swap = dict(renamed_pairs(aside(st), aside(world)))
        for p in range(n):
            swap.update(renamed_pairs(int(st[S_HAND + p]), int(world[S_HAND + p])))
        return swap

    def deal_scores(self, st) -> list[float]:
        """The scored round's points against the table: the mean round points minus the
        seat's own (points are bad in Schadenfreude)."""
        if int(st[S_STATUS]) == PLAYING:
            raise ValueError("the round is still being played")
        pts = [float(x) for x in st[S_POINTS:S_POINTS + self.players]]
        mean = sum(pts) / len(pts)
        return [mean - x for x in pts]

    def dealing(self) -> Dealing:
        """The first leader: seat 0 (``first_leader=seat0``) or any; at most
        ``max_rounds`` rounds; round points are at most the deck's absolute card values."""
        n = self.players
        first = (0,) if self.rules["first_leader"] == "seat0" else tuple(range(n))
        cards = mask_cards(int(self.r[R_DECK]))
        bound = float(sum(abs(int(CARD_VALUE[c])) for c in cards))
        return Dealing(first, int(self.rules["max_rounds"]), 2.0 * bound)

    def deal_start(self, st) -> dict:
        """The current round's ``start`` as in records (while it is played)."""
        h, n = self.hand_size, self.players
        nd = bin(int(self.r[R_DECK])).count("1")
        order = [int(c) for c in st[S_DECK:S_DECK + nd]]
        return {"hands": [[card_name(c) for c in sorted(order[p * h:(p + 1) * h])]
                          for p in range(n)],
                "aside": [card_name(c) for c in sorted(order[n * h:])],
                "leader": int(st[S_LEADER]),
                "scores": [int(x) for x in st[S_SCORE:S_SCORE + n]]}

    def deal_end(self, st) -> dict:
        """The finished round's ``end`` as in records."""
        o = self.observe(st, 0)
        n = self.players
        return {"piles": [_names(x) for x in o[O_PILE:O_PILE + n]],
                "points": [int(x) for x in o[O_POINTS:O_POINTS + n]],
                "scores": [int(x) for x in o[O_SCORE:O_SCORE + n]]}

    def result(self, st) -> dict:
        """The finished game's ``result`` as in records."""
        return result_of(st, self.players)


def _names(mask) -> list[str]:
    return [card_name(c) for c in mask_cards(int(mask))]
