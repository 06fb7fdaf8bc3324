"""``tricksim hand toygame`` and ``tricksim analyse`` of toy records.

Deal slots are the hands seat after seat (12 / players cards each); the seat after
``--dealer`` leads (default: the hand's owner).  The owner has no choice before play,
so there is one plan; analyse samples the other hands, keeping every seat's size and
the suits it showed it lacks.
"""
from __future__ import annotations

import numpy as np

from simcore.analysis.positions import Choice, HandSetup, free_cards, parse_cards, place
from simcore.errors import TricksimError

from .engine import (N_CARDS, POLICIES, S_HAND, S_POINTS, S_RNG, STATE_SIZE, SUITS, Engine,
                     card_name, cards_of, parse_card, start, stream, winner)

WIN_MEANS = "win = the owner has the most points alone"
SCORE_UNIT = "score = the owner's points"


def setup(rules, seat, dealer, hand, known, trump_card=None, takes_skat=None) -> HandSetup:
    """The partial deal the user fixed: the owner's ``hand``, ``known`` (seat, cards
    text) pairs, ``dealer`` (None: the owner leads)."""
    if trump_card is not None or takes_skat is not None:
        raise TricksimError("--trump-card and --takes-skat do not apply to toygame")
    n = rules["players"]
    h = N_CARDS // n
    for what, value in (("--seat", seat), ("--dealer", dealer)):
        if value is not None and not 0 <= value < n:
            raise TricksimError(f"{what} {value} is not a seat here (0 to {n - 1})")
    t = np.full(N_CARDS, -1, np.int64)
    used: set = set()
    own = parse_cards(hand, parse_card, "--hand")
    place(t, range(h * seat, h * seat + h), own, used, card_name, "--hand")
    for s, text in known:
        place(t, range(h * s, h * s + h), parse_cards(text, parse_card, f"--known {s}"), used,
              card_name, f"--known {s}")
    leader = seat if dealer is None else (dealer + 1) % n
    return HandSetup("toygame", seat, n, t, free_cards(t, list(range(N_CARDS))),
                     [Choice("policy plays", np.zeros(1, np.int64))], WIN_MEANS, SCORE_UNIT,
                     [f"seat {seat} of {n} holds {' '.join(card_name(c) for c in own)}; "
                      f"seat {leader} leads"], ["toygame has no choice at the start"],
                     extra={"leader": leader})


def play(rules, setup_: HandSetup, pids, seed: int, first: int, n: int):
    """Owner's points and wins (1 x ``n``) of deals ``first .. first + n - 1``, each
    completed from the template by the deal's own stream and played by ``pids``."""
    eng = Engine(rules)
    seats, h = setup_.seats, N_CARDS // setup_.seats
    names = [POLICIES[int(p)] for p in pids]
    scores = np.zeros((1, n), np.int64)
    wins = np.zeros((1, n), np.int64)
    st = np.zeros(STATE_SIZE, np.int64)
    for i in range(n):
        rng = np.random.default_rng([seed, first + i])
        slots = setup_.template.copy()
        slots[slots < 0] = rng.permutation(setup_.free)
        start(st, [sorted(slots[p * h:(p + 1) * h]) for p in range(seats)],
              setup_.extra["leader"], stream(seed, first + i))
        while not eng.deal_over(st):
            eng.apply(st, eng.choose(names[eng.to_move(st)], st))
        scores[0, i], wins[0, i] = outcome(eng, st, setup_.seat)
    return scores, wins


def labels(setup_: HandSetup, result) -> list[str]:
    """The choices' labels."""
    return [c.label for c in setup_.choices]


def position_info(eng, record, deal, at, st):
    """Per seat the suits (as card masks) it showed it lacks by not following."""
    x = eng.from_record(record, deal, 0)
    voids = [0] * eng.seats
    for item in record["deals"][deal]["actions"][:at]:
        seat, card = eng.to_move(x), eng.action_from_record(x, item)
        trick = eng.view(x, seat)["trick"]
        if trick and trick[0][1][1] != card_name(card)[1]:
            voids[seat] |= 0xF << 4 * SUITS.index(trick[0][1][1])
        eng.apply(x, card)
    return voids


def sample_world(eng, st, seat, rng, info):
    """A copy of ``st`` with the other hands re-dealt uniformly, sizes kept; None when a
    seat gets a card of a suit it showed it lacks."""
    others = [p for p in range(eng.seats) if p != seat]
    pool = [c for p in others for c in cards_of(int(st[S_HAND + p]))]
    perm = [int(c) for c in rng.permutation(pool)]
    w = st.copy()
    k = 0
    for p in others:
        size = bin(int(st[S_HAND + p])).count("1")
        mask = sum(1 << c for c in perm[k:k + size])
        if mask & info[p]:
            return None
        w[S_HAND + p] = mask
        k += size
    w[S_RNG] = np.int64(rng.integers(0, 2**63))
    return w


def outcome(eng, st, seat):
    """(points, win) of the finished deal for ``seat``."""
    points = [int(st[S_POINTS + p]) for p in range(eng.seats)]
    return points[seat], int(winner(points) == seat)
