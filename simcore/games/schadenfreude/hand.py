"""Schadenfreude hands: one round from a partly fixed start (``tricksim hand
schadenfreude``).

Deal slots are ``engine.start_deal``'s card order: the hands seat after seat
(``hand_size`` each), then the cards set aside.  The round is played from scores 0 (the
first round of a game); the owner has no choice at the start, so there is one plan.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...analysis.positions import Choice, HandSetup, complete, deal_stream, free_cards, parse_cards, place
from ...errors import TricksimError
from .cards import card_name, mask_cards, parse_card
from .engine import (S_FIRST_LEADER, S_POINTS, S_RNG, S_WINNER, STATE_SIZE, apply_action,
                     deal_over, start_deal, to_move)
from .pimc import choose_search
from .play import _scratch
from .policies import OBS_SIZE
from .rules import R_DECK, R_HAND, R_LIMIT, R_PLAYERS, rules_array
from .solver import sample_world as solver_sample_world

WIN_MEANS = ("win = the owner ends the round with the highest round points alone and not "
             "over the limit (the game's winner were it to end after this first round)")
SCORE_UNIT = "score = the owner's round points"

#: the ``HandSetup.extra`` entry ``start_from_slots`` takes (positions.user_hand_play)
START_SEAT = "leader"


@njit(cache=True, inline="always")
def start_from_slots(r, st, slots, leader, rng):
    """Start a game's first round from the card slots (see the module)."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[S_WINNER] = -1
    st[S_RNG] = np.int64(rng)
    st[S_FIRST_LEADER] = leader
    start_deal(r, st, slots, leader)


@njit(cache=True, nogil=True)
def play_hands(r, template, free, seed, first, n, pids, owner, leader, scores, wins):
    """Rounds ``first .. first + n - 1``, each completed from ``template`` and played by
    ``pids``; the owner's round points and wins into ``scores[0, i]``, ``wins[0, i]``."""
    ns = template.shape[0]
    slots = np.empty(ns, np.int64)
    scratch = np.empty(ns, np.int64)
    st = np.empty(STATE_SIZE, np.int64)
    obs = np.empty(OBS_SIZE, np.int64)
    work, fw = _scratch(pids)                # search space only when a player searches
    np_ = r[R_PLAYERS]
    for i in range(n):
        rng = complete(template, free, deal_stream(seed, first + i), slots, scratch)
        start_from_slots(r, st, slots, leader, rng)
        while not deal_over(st):
            apply_action(r, st, choose_search(r, st, pids[to_move(st)], obs, work, fw))
        mine = st[S_POINTS + owner]
        best = True
        for p in range(np_):
            if p != owner and st[S_POINTS + p] >= mine:
                best = False
        wins[0, i] = 1 if best and mine <= r[R_LIMIT] else 0
        scores[0, i] = mine


def setup(rules, seat, dealer, hand, known, trump_card=None, takes_skat=None) -> HandSetup:
    """The partial deal the user fixed: ``hand`` (the owner's cards), ``known`` ((seat,
    cards text) pairs), ``dealer`` (the seat after it leads; None: the owner leads)."""
    if trump_card is not None:
        raise TricksimError("--trump-card applies to Schnapsen only")
    if takes_skat is not None:
        raise TricksimError("--takes-skat/--leaves-skat apply to Wendish's skat variants only")
    r = rules_array(rules)
    n, hs = int(r[R_PLAYERS]), int(r[R_HAND])
    if not 0 <= seat < n:
        raise TricksimError(f"--seat {seat} is not a seat here (0 to {n - 1})")
    if dealer is not None and not 0 <= dealer < n:
        raise TricksimError(f"--dealer {dealer} is not a seat here (0 to {n - 1})")
    leader = seat if dealer is None else (dealer + 1) % n
    deck = mask_cards(int(r[R_DECK]))
    t = np.full(len(deck), -1, np.int64)
    used: set = set()

    def cards_of(text, what):
        return parse_cards(text, parse_card, what, deck, f"the deck with {n} players")

    own = cards_of(hand, "--hand")
    place(t, range(hs * seat, hs * seat + hs), own, used, card_name, "--hand")
    for s, text in known:
        if s == seat:
            raise TricksimError(f"--known {s}: that is the hand's own seat; use --hand")
        place(t, range(hs * s, hs * s + hs), cards_of(text, f"--known {s}"), used, card_name,
              f"--known {s}")
    lines = [f"seat {seat} of {n} holds {' '.join(card_name(c) for c in own)}"
             + ("" if len(own) == hs else " (the rest at random)") + f"; seat {leader} leads"]
    return HandSetup("schadenfreude", seat, n, t, free_cards(t, deck),
                     [Choice("policy plays", np.zeros(1, np.int64))], WIN_MEANS, SCORE_UNIT,
                     lines, ["Schadenfreude has no choice at the start"],
                     extra={"leader": leader})


def play(rules, setup_: HandSetup, pids, seed: int, first: int, n: int):
    """Scores and wins (1 x ``n``) of rounds ``first .. first + n - 1`` played by
    ``pids``."""
    scores = np.zeros((1, n), np.int64)
    wins = np.zeros((1, n), np.int64)
    play_hands(rules_array(rules), setup_.template, setup_.free, np.uint64(seed), first, n,
               np.asarray(pids, np.int64), setup_.seat, setup_.extra["leader"], scores, wins)
    return scores, wins


def labels(setup_: HandSetup, result) -> list[str]:
    """The choices' labels."""
    return [c.label for c in setup_.choices]


# ----- positions (tricksim analyse) ----------------------------------------------------------
def position_info(eng, record, deal, at, st):
    """Nothing beyond the state: its voids (``S_VOID``) hold the suits each seat did not
    follow."""
    return None


def sample_world(eng, st, seat, rng, info):
    """A copy of ``st`` whose other hands are re-dealt among the cards ``seat`` has not
    seen, keeping every hand's size and giving no seat a suit it did not follow: the
    ``pimc`` player's sampler (``solver.sample_world``), with a fresh random stream."""
    world = st.copy()
    cards = np.empty(64, np.int64)
    solver_sample_world(eng.r, st, seat, np.uint64(rng.integers(0, 2**63)), world, cards)
    world[S_RNG] = np.int64(rng.integers(0, 2**63))
    return world


def outcome(eng, st, seat):
    """(round points, win as in ``hand``) of the finished round for ``seat``."""
    r = eng.r
    mine = int(st[S_POINTS + seat])
    best = all(int(st[S_POINTS + p]) < mine for p in range(int(r[R_PLAYERS])) if p != seat)
    return mine, int(best and mine <= int(r[R_LIMIT]))
