"""A game played in the browser: the terminal ``play``'s loop cut at the human's turns.

Every rule lives in the game's engine (``simcore.engine``): the legal actions,
whether a clicked card may be played (``Engine.apply`` refuses with the rule's
reason), the bots' choices; every sentence comes from the game's narrator
(``simcore/games/<game>/show.py``, as ``tricksim play`` prints it), spoken to the
human's seat so nothing hidden is shown.  The finished game is the record that
``tricksim play --save`` writes.
"""
from __future__ import annotations

import secrets
import threading
import time

from simcore.errors import ApiError, TricksimError

#: verbs whose argument is a card of the mover's hand (clicking that card takes them)
CARD_VERBS = ("play", "discard")


class IllegalAction(TricksimError):
    """A clicked card or action the rules do not allow now (the message is the rule's
    reason, from the engine)."""


def split_action(text: str) -> tuple[str, str]:
    """``("play", "QH")`` from an action's description ``play QH``."""
    verb, _, arg = text.partition(" ")
    return verb, arg


class PlaySession:
    """One game against the bots: the state, the record so far, the narration the
    human's seat may see, the bots' move times."""

    def __init__(self, game: str, preset: str | None = None, players: int | None = None,
                 seat: int = 0, policy: str | None = None, seed: int | None = None,
                 index: int = 0):
        from cli.play import bot_policies
        from simcore.games import get_game
        from simcore.running.runner import MAX_SEED
        from simcore.analysis.show import narrator_class

        g = get_game(game)
        self.game = game
        self.rules = g.build_rules(preset, None, (), players)
        self.eng = eng = g.engine(self.rules)
        if not 0 <= seat < eng.seats:
            raise TricksimError(f"seat {seat} is not a seat of this game; allowed: 0 to "
                                f"{eng.seats - 1}")
        self.seat = seat
        self.names = bot_policies(eng, policy, seat, g.contract(self.rules).strongest_policy)
        self.seed = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
        if not 0 <= self.seed <= MAX_SEED or not 0 <= index <= MAX_SEED:
            raise TricksimError(f"seed and index must be from 0 to {MAX_SEED}")
        self.index = index
        self.narr = narrator_class(game)(eng, viewer=seat)
        self.lock = threading.Lock()
        self.id = secrets.token_urlsafe(9)
        self.st = eng.new(self.seed, index)
        self.deals: list[dict] = []
        self.start = eng.deal_start(self.st)
        self.actions: list = []
        self.log: list[str] = list(self.narr.deal_start(self.st))
        self.table: list[tuple[int, str]] = []
        self.last_trick: list[tuple[int, str]] = []
        self.bot_seconds: list[float] = []
        self.record: dict | None = None
        self.saved_as: str | None = None
        self.hints: dict = {}
        self._cards = {}
        for a in range(eng.n_actions):
            verb, arg = split_action(eng.describe(a))
            if verb in CARD_VERBS:
                self._cards.setdefault(arg, []).append(a)
        self.advance()

    # ----- the game ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game is finished (its record is ready)."""
        return self.record is not None

    def legal(self) -> list[int]:
        """The human's legal actions, in the menu's order (the hand's cards first)."""
        if self.over or self.eng.to_move(self.st) != self.seat:
            return []
        return self.narr.menu_order(self.st, self.eng.legal(self.st))

    def card_action(self, name: str) -> int:
        """The action of clicking card ``name``: the legal one that plays or discards it,
        else its play action (which the engine will refuse with the reason)."""
        codes = self._cards.get(name)
        if not codes:
            raise IllegalAction(f"'{name}' is not a card of {self.game}")
        legal = set(self.legal())
        return next((a for a in codes if a in legal), codes[0])

    def act(self, action: int) -> None:
        """The human's action, then the bots' until the human is to act again or the
        game ends.  IllegalAction with the engine's reason if the rules refuse it."""
        if self.over:
            raise IllegalAction("the game is over; start a new one or save this one")
        if not 0 <= action < self.eng.n_actions:
            raise IllegalAction(f"{action} is not an action of {self.game} (0 to "
                                f"{self.eng.n_actions - 1})")
        if action not in self.legal():
            trial = self.st.copy()
            try:
                self.eng.apply(trial, action)
            except (ApiError, ValueError) as exc:
                raise IllegalAction(str(exc)) from None
            raise IllegalAction(f"{self.eng.describe(action)} is not yours to play now")
        self._apply(action)
        self.advance()

    def _apply(self, a: int) -> None:
        eng, st = self.eng, self.st
        seat = eng.to_move(st)
        item = eng.action_to_record(st, a)
        if item is not None:                  # None: an action a record leaves implicit
            self.actions.append(item)
        before = st.copy()
        eng.apply(st, a)
        verb, arg = split_action(eng.describe(a))
        self.log.extend(self.narr.action(before, a, st))
        if verb == "play":
            self.table.append((seat, arg))
            if not self._trick_open():
                self.last_trick, self.table = self.table, []
        self.hints.clear()

    def _trick_open(self) -> bool:
        v = self.eng.view(self.st, self.seat)
        if "trick" in v:
            return bool(v["trick"])
        return v.get("lead_card") is not None

    def advance(self) -> None:
        """Let the bots act (timed, each move) and close finished deals, until the human
        is to act or the game is over."""
        eng, st = self.eng, self.st
        while True:
            if eng.deal_over(st):
                self.deals.append({"start": self.start, "actions": self.actions,
                                   "end": eng.deal_end(st)})
                self.log.extend(self.narr.deal_end(st))
                if eng.game_over(st):
                    self.log.extend(self.narr.result(st))
                    self.record = {"game": self.game, "rules": self.rules.to_dict(),
                                   "seed": int(self.seed), "index": int(self.index),
                                   "policies": self.names, "deals": self.deals,
                                   "result": eng.result(st)}
                    return
                eng.next_deal(st)
                self.start = eng.deal_start(st)
                self.actions = []
                self.table, self.last_trick = [], []
                self.log.append("")
                self.log.extend(self.narr.deal_start(st))
                continue
            p = eng.to_move(st)
            if p == self.seat:
                return
            t0 = time.perf_counter()
            a = eng.choose(self.names[p], st)
            self.bot_seconds.append(time.perf_counter() - t0)
            self._apply(a)

    # ----- what the page shows ------------------------------------------------------------
    def hand(self) -> list[str]:
        """The human's cards, sorted as the narrator shows a hand."""
        return self.narr.sorted_cards(self.st, self.eng.view(self.st, self.seat)["hand"])

    def status(self) -> list[str]:
        """What the human's seat sees (the narrator's view: trumps, points, scores)."""
        if self.over:
            return self.narr.result(self.st)
        return self.narr.view(self.st, self.seat)

    def label(self, a: int) -> str:
        """The short code of an action (a card's name, ``close``, ``solo C``)."""
        return self.narr.label(self.st, a)

    def is_card(self, a: int) -> bool:
        """Whether action ``a`` is a card of the hand clicked (play or discard)."""
        return split_action(self.eng.describe(a))[0] in CARD_VERBS

    # ----- hint -------------------------------------------------------------------------------
    def position(self) -> tuple[dict, int, int]:
        """(a whole record, deal, at) whose position ``deal``/``at`` is the present one:
        the game so far, played on to its end by the heuristic player for every seat
        (that part is never shown; ``analyse`` only looks at the position and what came
        before it, so the numbers equal ``tricksim analyse`` on the saved record)."""
        eng = self.eng
        # the engine's own whole-game loop, from a copy of the present state
        tail = eng._play(self.st.copy(), self.seed, self.index, ["heuristic"] * eng.seats)
        now = tail["deals"][0]
        deals = list(self.deals) + [{"start": self.start,
                                     "actions": list(self.actions) + now["actions"],
                                     "end": now["end"]}] + tail["deals"][1:]
        rec = {"game": self.game, "rules": self.rules.to_dict(), "seed": int(self.seed),
               "index": int(self.index), "policies": self.names, "deals": deals,
               "result": tail["result"]}
        deal, at = len(self.deals), len(self.actions)
        return rec, deal, at


def analyse_budget(record: dict, deal: int, at: int, budget: float = 2.0,
                   worlds: int | None = None, seed: int = 1):
    """``tricksim analyse``'s valuation of a position (``simcore.analysis.positions.analyse_position``,
    the game's analysis player, sampled worlds) with as many worlds as fit in about
    ``budget`` seconds (from 8 to analyse's default 200), or exactly ``worlds``.
    Returns (Position, worlds used, seconds)."""
    from simcore.analysis.positions import analyse_position
    policy = analysis_policy(record)
    t0 = time.perf_counter()
    if worlds is None:
        probe = 8
        pos = analyse_position(record, deal, at, policy, probe, False, seed)
        took = time.perf_counter() - t0
        worlds = max(probe, min(200, int(probe * (budget - took) / max(took, 1e-3))))
        if worlds == probe:
            return pos, probe, time.perf_counter() - t0
    pos = analyse_position(record, deal, at, policy, worlds, False, seed)
    return pos, worlds, time.perf_counter() - t0


def analysis_policy(record: dict) -> str:
    """The player a hint's worlds are played out by: the game's analysis player under the
    record's rules (fast enough for a couple of seconds; ``tricksim analyse --policy``
    with it gives the same numbers)."""
    from simcore.games import get_game
    g = get_game(record["game"])
    return g.contract(g.rulebook.from_dict(record["rules"])).analysis_policy
