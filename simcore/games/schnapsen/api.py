"""Schnapsen, one decision at a time from Python: ``Engine`` over the engine's kernels.

    >>> from simcore.games.schnapsen import GAME
    >>> eng = GAME.engine(GAME.build_rules())
    >>> s = eng.new(seed=1, index=0)              # match 0 of run 1, as the batch plays it
    >>> a = eng.choose("heuristic", s)            # what the heuristic would do here
    >>> eng.describe(a), eng.action_to_record(s, a)
    >>> eng.apply(s, a)                           # in place; ValueError if illegal

A state is the engine's int64 array (engine.py documents its words); copy it
with ``s.copy()`` to explore. Every method calls the jitted kernels, a few
microseconds a call.
"""
from __future__ import annotations

import numpy as np

from ...text import counted as count_words
from ...engine import Dealing, EngineBase, renamed_pairs
from ...errors import ReplayError, TricksimError
from .cards import SUITS
from .engine import (A_PASS, AFTER_LAST, MAX_LEGAL, N_ACTIONS, N_OBS, N_STATE, OBS_FIELDS,
                     REASONS, S_DEAL, S_DEALER, S_DECK, S_FIRST_DEALER, S_GAME_POINTS, S_HAND,
                     S_MATCH, S_PHASE, S_TALON, S_TALON_LEFT, S_WINNER, _deal_deck, apply_action,
                     deal_over as k_deal_over, game_over as k_game_over, init_game,
                     legal_actions, next_deal as k_next_deal, observe, start_deal,
                     to_move as k_to_move, try_apply)
from .policies import POLICIES, choose_w, parse_policy
from .solver import new_work, solve_actions
from .records import (CARD_NAMES, action_item, deal_end_of, deal_start_of,  # noqa: F401
                      describe as describe_code, finish_deal, hand_names, parse_item,
                      parse_start, replay_record, why_illegal)
from .rules import rules_array
from . import vector
from .layout import state_spec
from .observation import spec as observation_spec

_START_KEYS = ("dealer", "hands", "trump_card", "talon")
_OBS_NAMES = [name for name, _ in OBS_FIELDS]
_PAIRS = ("marriages", "points", "marriage_points", "tricks", "match")
_SUIT_SETS = [[SUITS[s] for s in range(4) if m >> s & 1] for m in range(16)]
PHASES = ("lead", "follow", "after_last", "over")
STEPS = ("start", "exchanged", "closed", "married")


class Engine(EngineBase):
    """Schnapsen one decision at a time under ``rules`` (a RuleSet)."""

    game = "schnapsen"
    seats = 2
    policies = POLICIES
    n_actions = N_ACTIONS

    state_spec_of = staticmethod(state_spec)
    observation_spec_of = staticmethod(observation_spec)
    vector = vector

    def __init__(self, rules):
        self.rules = rules
        self.r = rules_array(rules)
        self._buf = np.zeros(MAX_LEGAL, np.int64)
        self._work = new_work()
        self._obs = np.zeros(N_OBS, np.int64)

    # ----- states ---------------------------------------------------------------------
    def new(self, seed: int, index: int) -> np.ndarray:
        """Match ``index`` of run ``seed``, dealt as the batch run deals it."""
        st = np.zeros(N_STATE, np.int64)
        init_game(self.r, st, np.uint64(seed), int(index))
        return st

    def from_record(self, record: dict, deal: int = 0, upto: int | None = None) -> np.ndarray:
        """The position after the first ``upto`` actions of deal ``deal`` of a record (None:
        all of them, the deal then scored).  The record is validated as replay does.  When
        the record is the run's own play of its (seed, index) by its policies, the state's
        stream is the batch run's too, so ``choose`` continues the game as it was played."""
        replay_record(record)
        deals = record["deals"]
        if not 0 <= deal < len(deals):
            raise TricksimError(f"deal {deal} is not in the record (it has {len(deals)})")
        n_act = len(deals[deal]["actions"])
        if upto is not None and not 0 <= upto <= n_act:
            raise TricksimError(f"upto {upto} is not allowed; deal {deal} has "
                                f"{count_words(n_act, 'action')}")
        r = self.r
        pids = None
        try:
            pids = [parse_policy(p) for p in record["policies"]]
        except (ValueError, TypeError, AttributeError):
            pids = None
        seed = record["seed"]
        st = self.new(seed if seed < 2**64 else 0, record["index"])
        in_sync = pids is not None and seed < 2**64
        for d in range(deal + 1):
            dj = deals[d]
            if d > 0 and in_sync:
                k_next_deal(r, st)
            if in_sync and deal_start_of(st) != {k: dj["start"][k] for k in _START_KEYS}:
                in_sync = False
            if not in_sync:
                dealer, h0, h1, tc, talon = parse_start(dj["start"], d, {0, 1})
                if d == 0:
                    st[S_FIRST_DEALER] = dealer
                st[S_DEAL] = d
                start_deal(r, st, dealer, h0, h1, tc, talon)
            last = d == deal and upto is not None
            for item in (dj["actions"][:upto] if last else dj["actions"]):
                code = parse_item(item)[3]
                if in_sync:
                    in_sync = int(choose_w(r, st, pids[int(k_to_move(st))], self._work)) == code
                apply_action(r, st, code)
            if not last:
                if in_sync and st[S_PHASE] == AFTER_LAST:
                    in_sync = int(choose_w(r, st, pids[int(k_to_move(st))], self._work)) == A_PASS
                finish_deal(r, st)
        return st

    # ----- rules --------------------------------------------------------------------------
    def legal(self, state) -> list[int]:
        """The legal actions of the seat to move (empty once the deal is scored)."""
        n = legal_actions(self.r, state, self._buf)
        return self._buf[:n].tolist()

    def apply(self, state, action: int) -> None:
        """Apply ``action`` of the seat to move, in place; ValueError if it is not legal."""
        action = int(action)
        if try_apply(self.r, state, action):
            return
        why = ""
        if 0 <= action < N_ACTIONS and not k_deal_over(state):
            item = action_item(int(k_to_move(state)), action)
            if item is not None:
                seat, verb, arg, _ = parse_item(item)
                why = f" ({why_illegal(self.rules, state, seat, verb, arg)})"
        legal = ", ".join(f"{a} ({self.describe(a)})" for a in self.legal(state))
        raise ValueError(f"action {action} ({self.describe(action)}) is not legal here{why}; "
                         f"legal: {legal or 'none, the deal is scored'}")

    def to_move(self, state) -> int:
        """The seat to act."""
        return int(k_to_move(state))

    def deal_over(self, state) -> bool:
        """Whether the deal is scored."""
        return bool(k_deal_over(state))

    def game_over(self, state) -> bool:
        """Whether the match is decided."""
        return bool(k_game_over(state))

    def next_deal(self, state) -> None:
        """Deal the match's next deal from its stream (in place)."""
        if not k_deal_over(state) or k_game_over(state):
            raise ValueError("the next deal comes once a deal is scored and the match is "
                             "not decided")
        k_next_deal(self.r, state)

    def observe(self, state, seat: int) -> np.ndarray:
        """The raw observation words of ``seat`` (engine.OBS_FIELDS layout), a new array."""
        out = np.zeros(N_OBS, np.int64)
        observe(self.r, state, int(seat), out)
        return out

    def view(self, state, seat: int) -> dict:
        """What ``seat`` can see (engine.OBS_FIELDS), decoded: cards by record name, seat
        pairs as lists (``points``, ``marriage_points``, ``tricks``, ``match``,
        ``marriages`` as suit letters)."""
        o = self._obs
        observe(self.r, state, int(seat), o)
        v = dict(zip(_OBS_NAMES, o.tolist()))
        for key in ("hand", "played", "opp_known", "opp_void"):
            v[key] = hand_names(v[key])
        for key in ("lead_card", "trump_card"):
            v[key] = CARD_NAMES[v[key]] if v[key] >= 0 else None
        v["phase"] = PHASES[v["phase"]]
        v["step"] = STEPS[v["step"]]
        v["trump"] = SUITS[v["trump"]]
        v["married"] = SUITS[v["married"]] if v["married"] >= 0 else None
        v["reason"] = REASONS[v["reason"]] if v["reason"] >= 0 else None
        for prefix in _PAIRS:
            v[prefix] = [v.pop(prefix + "_0"), v.pop(prefix + "_1")]
        v["marriages"] = [list(_SUIT_SETS[m]) for m in v["marriages"]]
        return v

    # ----- dealing card by card (simcore.envs.openspiel) ----------------------------------
    def deal_order(self, state) -> list[int]:
        """The 20 cards the deal in play was dealt from (``new``, ``next_deal``, ``redeal``):
        positions 0-2 and 7-8 to the non-dealer, 3-5 and 9-10 to the dealer, 6 the trump
        card, 11-19 the talon in drawing order."""
        return [int(c) for c in state[S_DECK:S_DECK + 20]]

    def redeal(self, state, order, dealer: int | None = None) -> None:
        """Restart the deal in play from the card order ``order`` (``deal_order``'s
        positions) dealt by ``dealer`` (None: the deal's dealer); the match stays."""
        arr = self._check_order(order, range(20))
        d = int(state[S_DEALER]) if dealer is None else int(dealer)
        if d not in (0, 1):
            raise ValueError(f"dealer {dealer!r} is not a seat (0 or 1)")
        state[S_DECK:S_DECK + 20] = arr
        if int(state[S_DEAL]) == 0:
            state[S_FIRST_DEALER] = d
        _deal_deck(self.r, state, d)

    def renamed(self, state, world) -> dict[int, int]:
        """For a ``world`` sampled from ``state`` (``hand.sample_world``: the hidden cards
        re-dealt), the card ``world`` holds in place of each card of ``state`` it changed:
        the hands' changed cards paired in id order, the talon position by position. A
        deal order renamed by it deals ``world``'s hidden cards (the OpenSpiel
        ``resample_from_infostate``)."""
        swap = {}
        for p in (0, 1):
            swap.update(renamed_pairs(int(state[S_HAND + p]), int(world[S_HAND + p])))
        down = max(int(state[S_TALON_LEFT]) - 1, 0)
        for k in range(down):
            x, y = int(state[S_TALON]) >> 5 * k & 31, int(world[S_TALON]) >> 5 * k & 31
            if x != y:
                swap[x] = y
        return swap

    def deal_scores(self, state) -> list[float]:
        """The scored deal's game points: + for its winner, - for the loser."""
        if not k_deal_over(state):
            raise ValueError("the deal is not over")
        gp = float(state[S_GAME_POINTS])
        return [gp, -gp] if int(state[S_WINNER]) == 0 else [-gp, gp]

    def dealing(self) -> Dealing:
        """Either seat may deal first; a match ends within 2 * match_points - 1 deals (each
        scores at least 1 game point); a deal scores at most 3, or a resignation the
        match points."""
        mp = int(self.rules["match_points"])
        return Dealing((0, 1), 2 * mp - 1, float(max(3, mp)))

    # ----- players ---------------------------------------------------------------------------
    def check_policy(self, name: str) -> None:
        """ValueError unless ``name`` is a policy (``pimc`` with its parameters too)."""
        parse_policy(name)

    def choose(self, policy_name: str, state) -> int:
        """The action ``policy_name`` takes for the seat to move (advances the stream)."""
        pid = parse_policy(policy_name)
        if k_deal_over(state):
            raise ValueError("the deal is scored: no one is to act")
        return int(choose_w(self.r, state, pid, self._work))

    def open_values(self, state) -> dict[int, float]:
        """For the seat to move, every legal action's exact open-card value (all cards
        known, as in the state): the deal's game points from that seat's view, -3 .. +3
        (the solver's ``solve_actions``; resign, which leaves the deal, is left out)."""
        if k_deal_over(state):
            raise ValueError("the deal is scored: no one is to act")
        acts = np.zeros(MAX_LEGAL, np.int64)
        values = np.zeros(MAX_LEGAL, np.int64)
        n = solve_actions(self.r, state, self._work, acts, values)
        return {int(acts[i]): float(values[i]) for i in range(n)}

    # ----- records ------------------------------------------------------------------------------
    def action_to_record(self, state, action: int) -> list | None:
        """The record item ``[seat, verb]`` or ``[seat, verb, arg]`` of ``action`` by the seat
        to move; None for ``pass``, which a record leaves implicit."""
        if not 0 <= action < N_ACTIONS:
            raise ValueError(f"{action} is not an action code (0 to {N_ACTIONS - 1})")
        return action_item(int(k_to_move(state)), int(action))

    def action_from_record(self, state, item) -> int:
        """The action code of a record item; ValueError if malformed or not the seat to
        move's."""
        try:
            seat, _, _, code = parse_item(item)
        except ReplayError as exc:
            raise ValueError(str(exc)) from None
        if seat != k_to_move(state):
            raise ValueError(f"it is seat {int(k_to_move(state))}'s turn, not seat {seat}'s")
        return code

    def describe(self, action: int) -> str:
        """An action in words, e.g. ``play QH``."""
        return describe_code(int(action))

    def deal_start(self, state) -> dict:
        """The current deal's ``start`` as in records."""
        return deal_start_of(state)

    def deal_end(self, state) -> dict:
        """The scored deal's ``end`` object."""
        if not k_deal_over(state):
            raise ValueError("the deal is not over")
        return deal_end_of(state)

    def result(self, state) -> dict:
        """The decided match's ``result`` object."""
        if not k_game_over(state):
            raise ValueError("the match is not over")
        left = [int(state[S_MATCH]), int(state[S_MATCH + 1])]
        return {"winner": 0 if left[0] <= 0 else 1, "match_points": left}

