"""Wendish Schafkopf one decision at a time, from Python: ``Engine(rules)``.

Every method is a thin wrapper over the engine's kernels (engine.py) and the
policies (policies.py); a state is the engine's int64 array (``state.copy()``
saves a position to come back to).  A call costs a few microseconds.

    eng = get_game("wendish").engine(rules)
    s = eng.new(seed=1, index=0)
    while not eng.game_over(s):
        if eng.deal_over(s):
            eng.next_deal(s)
            continue
        a = eng.choose("heuristic", s)      # or any of eng.legal(s)
        eng.apply(s, a)
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...bits import game_stream
from ...engine import Dealing, EngineBase, renamed_pairs
from ...options import RuleSet
from .cards import SUITS, V_OFFICERS, VARIANT_DECK, mask_cards
from .engine import (A_DISCARD, CONTRACTS, MAX_LEGAL, N_ACTIONS, OBS_SIZE, O_CALLED, O_CALLED_BY, O_CONTRACT,
                     O_COUNT, O_COVERED, O_DEAL, O_DEALER, O_DECLARER, O_DISCARDS,
                     O_FIRST_TRICK, O_HAND, O_LEADER, O_LUST_N, O_NDISCARDS, O_PHASE, O_PLAYED,
                     O_PLAYED_BY, O_POINTS, O_QC_BY, O_QS_BY, O_SCORES, O_SKAT, O_TAKER,
                     O_TEAM0, O_TEAMS_KNOWN, O_TO_MOVE, O_TRICK, O_TRICK_N, O_TRICK_PTS,
                     O_TRICKS, O_TRICKS_DONE, O_TRUMP, O_UP, O_VOID, O_WIN_CARD, O_WIN_SEAT,
                     P_DONE, P_PLAY, PHASES, ST_TEAM0,
                     STATE_SIZE, ST_DEAL, ST_DEALER, ST_DECK, ST_DELTA, ST_NDEALS, ST_PHASE,
                     ST_DISCARDS, ST_HAND, ST_RNG, ST_SKAT, ST_UNDER,
                     ST_SCORE, ST_TO_MOVE, py_apply, py_init_game, py_legal_actions,
                     py_next_deal, py_observe, py_start_deal)
from .pimc import parse_policy, policy_searches, py_choose_w
from .policies import POLICIES, py_choose
from .solver import new_work, solve_cards
from .records import (CARD_NAMES, action_code, action_json, check_start, deck_start, describe,
                      explain, new_state, replay_record, state_end)
from .rules import RULEBOOK, rules_array, seats_of, variant_index
from . import vector
from .layout import state_spec
from .observation import spec as observation_spec


def _seat(x):
    return None if x < 0 else int(x)


def _names(mask):
    return [CARD_NAMES[c] for c in mask_cards(int(mask))]


class Engine(EngineBase):
    """Wendish Schafkopf under one rule set, one decision at a time."""

    game = "wendish"
    policies = POLICIES
    n_actions = N_ACTIONS

    state_spec_of = staticmethod(state_spec)
    observation_spec_of = staticmethod(observation_spec)
    vector = vector

    def __init__(self, rules=None):
        if rules is None:
            rules = RULEBOOK.build()
        elif isinstance(rules, Mapping) and not isinstance(rules, RuleSet):
            rules = RULEBOOK.from_dict(rules)
        self.rules = rules
        self.r = rules_array(rules)
        self.n = seats_of(rules)
        self.seats = self.n
        self.variant = variant_index(rules)
        self.ncards = bin(VARIANT_DECK[self.variant]).count("1")
        self._buf = np.zeros(MAX_LEGAL, dtype=np.int64)

    # ----- starting positions
    def new(self, seed: int, index: int) -> np.ndarray:
        """Game ``index`` of run ``seed`` as the batch run starts it."""
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        py_init_game(self.r, st, int(seed), int(index))
        return st

    def from_record(self, record: dict, deal: int = 0, upto: int | None = None) -> np.ndarray:
        """The position after the first ``upto`` actions of deal ``deal`` of a record
        (None: all of them).  The record is checked as ``replay`` does.  For a record
        this engine wrote (its seed, index and policies reproduce every deal and
        action) the state is the batch run's own, stream included; otherwise the
        stream is a fresh one from (seed, index) and later deals are new ones."""
        replay_record(record)
        rules = RULEBOOK.from_dict(record["rules"])
        if rules.canonical() != self.rules.canonical():
            raise ValueError("the record's rules are not this engine's: "
                             f"{rules.canonical()} against {self.rules.canonical()}")
        deals = record["deals"]
        if not 0 <= deal < len(deals):
            raise ValueError(f"deal {deal} is not in the record (it has {len(deals)})")
        nact = len(deals[deal]["actions"])
        if upto is None:
            upto = nact
        if not 0 <= upto <= nact:
            raise ValueError(f"upto {upto} is not between 0 and {nact}, the deal's actions")
        st = self._reproduce(record, deal, upto)
        if st is not None:
            return st
        st = new_state(self.r)
        st[ST_RNG] = np.int64(np.uint64(game_stream(np.uint64(record["seed"]),
                                                    record["index"])).view(np.int64))
        first = deals[0]["start"]["dealer"]
        for d in range(deal):
            for p, x in enumerate(deals[d]["end"]["scores"]):
                st[ST_SCORE + p] += x
        dealer, deck = check_start(self.rules, deals[deal], deal, first)
        py_start_deal(self.r, st, deal, dealer, deck)
        for item in deals[deal]["actions"][:upto]:
            self.apply(st, self.action_from_record(st, item))
        return st

    def _reproduce(self, record, deal, upto):
        pols = record["policies"]
        if any(p not in POLICIES for p in pols):
            return None
        st = self.new(record["seed"], record["index"])
        for d in range(deal + 1):
            if self._start(st) != record["deals"][d]["start"]:
                return None
            acts = record["deals"][d]["actions"]
            for item in (acts if d < deal else acts[:upto]):
                a = self.choose(pols[int(st[ST_TO_MOVE])], st)
                if self.action_to_record(st, a) != item:
                    return None
                self.apply(st, a)
            if d < deal:
                self.next_deal(st)
        return st

    # ----- the turn
    def legal(self, state) -> list[int]:
        """The legal actions of the seat to move (codes, ascending)."""
        k = py_legal_actions(self.r, state, self._buf)
        return self._buf[:k].tolist()

    def apply(self, state, action: int) -> None:
        """Apply ``action`` for the seat to move (in place); ValueError if illegal."""
        a = int(action)
        if not py_apply(self.r, state, a):
            seat = int(state[ST_TO_MOVE])
            try:
                item = action_json(seat, a)
                why = explain(self.rules, self.r, state, item[0], item[1],
                              item[2] if len(item) == 3 else None)
                what = describe(a)
            except ValueError as exc:
                why, what = str(exc), repr(action)
            legal = ", ".join(f"{x} ({describe(x)})" for x in self.legal(state))
            raise ValueError(f"{what} (action {a}) is not legal for seat {seat}: {why}; "
                             f"legal: {legal or 'none'}")

    def to_move(self, state) -> int:
        """The seat to act, -1 once the deal is over."""
        return int(state[ST_TO_MOVE])

    def deal_over(self, state) -> bool:
        return int(state[ST_PHASE]) == P_DONE

    def game_over(self, state) -> bool:
        return int(state[ST_PHASE]) == P_DONE and int(state[ST_DEAL]) + 1 >= int(
            state[ST_NDEALS])

    def next_deal(self, state) -> None:
        """Deal the next deal from the state's stream (after a deal is over)."""
        if not self.deal_over(state) or self.game_over(state):
            raise ValueError("next_deal: the deal is not over" if not self.deal_over(state)
                             else "next_deal: the game is over")
        py_next_deal(self.r, state)

    def check_policy(self, name: str) -> None:
        """ValueError unless ``name`` is a policy (``pimc`` with its parameters too)."""
        parse_policy(name)

    def choose(self, policy_name: str, state) -> int:
        """The action policy ``policy_name`` (``random``, ``heuristic``,
        ``pimc[:worlds=N]``) takes for the seat to move; advances the state's stream
        as the policy draws (``pimc`` draws from a stream of its own)."""
        pid = parse_policy(policy_name)
        if self.deal_over(state):
            raise ValueError("choose: the deal is over")
        if policy_searches(pid):
            return int(py_choose_w(self.r, state, pid, self._solver_work()))
        return int(py_choose(self.r, state, pid))

    def _solver_work(self):
        if getattr(self, "_work", None) is None:
            self._work = new_work()
        return self._work

    def open_values(self, state) -> dict[int, float]:
        """For the seat to move in card play: each legal card's exact open-card value
        (every hand as in the state, the sides as the state has them, best play by
        both sides after it), in card points of that seat's side at the end of the
        deal (0 to 120, the discards counted for their taker's side).  ValueError
        outside card play (contract decisions have no open-card value here)."""
        if int(state[ST_PHASE]) != P_PLAY:
            raise ValueError(f"open_values: the deal is in its {PHASES[int(state[ST_PHASE])]} "
                             "phase; open-card values exist for card play only")
        acts = np.zeros(32, dtype=np.int64)
        vals = np.zeros(32, dtype=np.int64)
        k = solve_cards(self.r, state, self._solver_work(), acts, vals)
        seat = int(state[ST_TO_MOVE])
        mine = (int(state[ST_TEAM0]) >> seat) & 1
        return {int(acts[i]): float(vals[i] if mine else 120 - vals[i]) for i in range(k)}

    # ----- conversions
    def action_to_record(self, state, action: int) -> list:
        """The record item of ``action`` by the seat to move."""
        return action_json(int(state[ST_TO_MOVE]), int(action))

    def action_from_record(self, state, item) -> int:
        """The code of a record item ``[seat, verb]`` / ``[seat, verb, argument]`` for
        the seat to move; ValueError (with the rule) if it names no legal action."""
        if not (isinstance(item, (list, tuple)) and len(item) in (2, 3)
                and isinstance(item[0], int) and isinstance(item[1], str)):
            raise ValueError(f"{item!r} is not [seat, verb] or [seat, verb, argument]")
        arg = item[2] if len(item) == 3 else None
        code = action_code(item[1], arg)
        if code is None or item[0] != int(state[ST_TO_MOVE]) or code not in self.legal(state):
            raise ValueError(f"{item!r}: " + explain(self.rules, self.r, state, item[0],
                                                     item[1], arg))
        return code

    @staticmethod
    def describe(action: int) -> str:
        """An action in words, e.g. ``play QC``."""
        return describe(int(action))

    # ----- what a seat sees, results
    def observe(self, state, seat: int) -> np.ndarray:
        """The raw observation array of ``seat`` (layout in engine.py)."""
        out = np.zeros(OBS_SIZE, dtype=np.int64)
        py_observe(self.r, state, int(seat), out)
        return out

    def view(self, state, seat: int) -> dict:
        """What ``seat`` may know, decoded (cards as in records)."""
        o = self.observe(state, seat)
        n = self.n
        known = bool(o[O_TEAMS_KNOWN])
        t0 = int(o[O_TEAM0])
        tn = int(o[O_TRICK_N])
        leader = int(o[O_LEADER])
        called = int(o[O_CALLED])
        v = {
            "seat": int(seat), "players": n, "deal": int(o[O_DEAL]),
            "dealer": int(o[O_DEALER]), "phase": PHASES[int(o[O_PHASE])],
            "to_move": _seat(o[O_TO_MOVE]), "hand": _names(o[O_HAND]),
            "skat": _names(o[O_SKAT]), "taker": _seat(o[O_TAKER]),
            "discards": _names(o[O_DISCARDS]), "discarded": int(o[O_NDISCARDS]),
            "lust_decisions": int(o[O_LUST_N]),
            "contract": CONTRACTS[int(o[O_CONTRACT])], "declarer": _seat(o[O_DECLARER]),
            "trump": SUITS[int(o[O_TRUMP])],
            "called": "first_trick" if o[O_FIRST_TRICK] else (
                CARD_NAMES[called] if called >= 0 else None),
            "teams": ([[p for p in range(n) if t0 >> p & 1],
                       [p for p in range(n) if not t0 >> p & 1]] if known else None),
            "called_by": _seat(o[O_CALLED_BY]), "qc_by": _seat(o[O_QC_BY]),
            "qs_by": _seat(o[O_QS_BY]), "played": _names(o[O_PLAYED]),
            "trick": [[(leader + i) % n, CARD_NAMES[int(o[O_TRICK + i])]] for i in range(tn)],
            "winning": ([int(o[O_WIN_SEAT]), CARD_NAMES[int(o[O_WIN_CARD])]] if tn else None),
            "trick_points": int(o[O_TRICK_PTS]), "tricks_done": int(o[O_TRICKS_DONE]),
            "hand_sizes": [int(x) for x in o[O_COUNT:O_COUNT + n]],
            "points": [int(x) for x in o[O_POINTS:O_POINTS + n]],
            "tricks": [int(x) for x in o[O_TRICKS:O_TRICKS + n]],
            "scores": [int(x) for x in o[O_SCORES:O_SCORES + n]],
            "played_by": [_names(o[O_PLAYED_BY + p]) for p in range(n)],
            "known_void": [_names(o[O_VOID + p]) for p in range(n)],
        }
        if self.variant == V_OFFICERS:
            v["face_up"] = [_names(o[O_UP + p]) for p in range(2)]
            v["covered"] = _names(o[O_COVERED])
        return v

    def _start(self, state) -> dict:
        words = [int(x) for x in state[ST_DECK:ST_DECK + 4]]
        deck = [(words[k >> 3] >> (8 * (k & 7))) & 0xFF for k in range(self.ncards)]
        return deck_start(self.variant, self.n, int(state[ST_DEALER]), deck)

    # ----- dealing card by card (simcore.envs.openspiel)
    def deal_order(self, state) -> list[int]:
        """The card order the deal in play was dealt from, as the engine's ``start_deal``
        takes it: seat 0's hand, seat 1's, ..., then the skat; Officers: seat p's face-up cards at 16p..16p+7, the
        face-down card under each at 16p+8..16p+15."""
        words = [int(x) for x in state[ST_DECK:ST_DECK + 4]]
        return [(words[k >> 3] >> (8 * (k & 7))) & 0xFF for k in range(self.ncards)]

    def redeal(self, state, order, dealer: int | None = None) -> None:
        """Restart the deal in play from the card order ``order`` (``deal_order``'s
        positions) dealt by ``dealer`` (None: the deal's dealer); the game stays."""
        arr = self._check_order(order, mask_cards(VARIANT_DECK[self.variant]))
        d = int(state[ST_DEALER]) if dealer is None else int(dealer)
        if not 0 <= d < self.n:
            raise ValueError(f"dealer {dealer!r} is not a seat (0 to {self.n - 1})")
        py_start_deal(self.r, state, int(state[ST_DEAL]), d, arr)

    def renamed(self, state, world) -> dict[int, int]:
        """For a ``world`` sampled from ``state`` (``hand.sample_world``), the card
        ``world`` holds in place of each card of ``state`` it moved (``EngineBase.renamed``):
        every hand, the discards and the skat paired holding by holding; Officers' the
        face-down card under each face-up card still covering one."""
        swap = {}
        if self.variant == V_OFFICERS:
            up = int(state[ST_HAND]) | int(state[ST_HAND + 1])
            for c in range(32):
                x = int(state[ST_UNDER + (c >> 3)]) >> 8 * (c & 7) & 0xFF
                y = int(world[ST_UNDER + (c >> 3)]) >> 8 * (c & 7) & 0xFF
                if up >> c & 1 and x and y and x != y:
                    swap[x - 1] = y - 1
            return swap
        for w in [ST_HAND + p for p in range(self.n)] + [ST_DISCARDS, ST_SKAT]:
            swap.update(renamed_pairs(int(state[w]), int(world[w])))
        return swap

    def renamed_action(self, action: int, swap: dict[int, int]) -> int:
        """A discard renamed by ``swap`` (the taker's discards are hidden from the other
        seats); every other action names a card everybody sees, or none."""
        action = int(action)
        if A_DISCARD <= action < A_DISCARD + 32:
            return A_DISCARD + swap.get(action - A_DISCARD, action - A_DISCARD)
        return action

    def deal_scores(self, state) -> list[float]:
        """The scored deal's score change per seat (zero-sum)."""
        if not self.deal_over(state):
            raise ValueError("the deal is not over")
        return [float(x) for x in state[ST_DELTA:ST_DELTA + self.n]]

    def dealing(self) -> Dealing:
        """Any seat may deal first; ``deals`` deals; a seat's deal score is at most
        (players - 1) times the largest contract value with schneider and schwarz."""
        r = self.rules
        top = max(int(r["base"]), int(r["solo_base"])) + int(r["schneider"]) + int(r["schwarz"])
        return Dealing(tuple(range(self.n)), int(r["deals"]), float((self.n - 1) * top))

    def deal_start(self, state) -> dict:
        """The current deal's ``start`` (records contract)."""
        return self._start(state)

    def deal_end(self, state) -> dict:
        """The finished deal's ``end`` (records contract)."""
        if not self.deal_over(state):
            raise ValueError("deal_end: the deal is not over")
        return state_end(state)

    def result(self, state) -> dict:
        """The game's ``result`` (records contract): the scores so far, final once
        ``game_over``."""
        return {"scores": [int(x) for x in state[ST_SCORE:ST_SCORE + self.n]]}

    # ----- a whole game

