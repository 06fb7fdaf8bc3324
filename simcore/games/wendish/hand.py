"""Wendish Schafkopf hands: one deal from a partly fixed start (``tricksim hand wendish``).

Deal slots are ``engine.start_deal``'s card order: the hands seat after seat, then the
skat; Officers': seat p's face-up cards at 16p..16p+7 and the face-down card under each
at 16p+8..16p+15.  A choice's plan is ``[kind, a, b]``: kind 0 lets the policy play the
whole deal; kind 1 fixes the owner's contract decisions (``a`` at its turn in the Lust
Solo round, ``b`` at the Old Ones' choice, -1 none); kind 2 fixes the owner's two discards
after the pickup (``a``, ``b``).  Everything else is the policy's.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
from numba import njit

from ...analysis.positions import Choice, HandSetup, complete, deal_stream, free_cards, parse_cards, place
from ...bits import popcount
from ...errors import TricksimError
from ...text import counted
from .cards import (BLACK_QUEENS, QC, QS, SUITS, V_OFFICERS, VARIANT_DECK, VARIANT_HAND,
                    VARIANT_SKAT, card_name, mask_cards, parse_card)
from .engine import (A_DISCARD, A_FIRST_TRICK, A_PASS, A_QUIET, A_SOLO, A_WEDDING, P_DISCARD,
                     P_LUST, P_OLD_ONES, STATE_SIZE, ST_DELTA, ST_N, ST_NDEALS, ST_PHASE, ST_RNG,
                     ST_TAKER, ST_TEAM0, ST_VARIANT, ST_WINNER, apply_action, deal_over,
                     is_legal, start_deal, to_move)
from .pimc import py_choose_w, searches
from .policies import choose
from .play import searching
from .solver import W_COLS, new_work_rows
from .rules import R_DEALS, R_LUST, R_PLAYERS, R_SOLO_SUITS, R_VARIANT, rules_array

WIN_MEANS = "win = the owner's side wins the deal (61+ card points; Officers' 60-60 is no win)"
SCORE_UNIT = "score = the owner's score change of the deal (tariff units)"
MAX_TRIES = 10_000

#: the ``HandSetup.extra`` entry ``start_from_slots`` takes (positions.user_hand_play)
START_SEAT = "dealer"


@njit(cache=True, inline="always")
def start_from_slots(r, st, slots, dealer, rng):
    """Start a game's first deal from the card slots (see the module)."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[ST_N] = r[R_PLAYERS]
    st[ST_NDEALS] = r[R_DEALS]
    st[ST_VARIANT] = r[R_VARIANT]
    st[ST_RNG] = np.int64(rng)
    start_deal(r, st, 0, dealer, slots)


@njit(cache=True, nogil=True)
def play_hands(r, template, free, seed, first, n, pids, owner, dealer, want_taker, plans,
               scores, wins):
    """Deals ``first .. first + n - 1``: each completed from ``template`` (with
    ``want_taker`` 1/0 redrawn until the owner does/does not take the skat; -1 any) and
    played once per plan by ``pids``; the owner's score change and wins into
    ``scores[plan, deal]``, ``wins[plan, deal]``.  Returns the deals no completion was
    found for (then their rows are 0)."""
    ns = template.shape[0]
    slots = np.empty(32, np.int64)
    scratch = np.empty(32, np.int64)
    st = np.empty(STATE_SIZE, np.int64)
    work = np.zeros((new_work_rows(searching(pids)), W_COLS), dtype=np.int64)
    failed = 0
    for i in range(n):
        rng = deal_stream(seed, first + i)
        ok = False
        for _ in range(MAX_TRIES):
            rng = complete(template, free, rng, slots, scratch)
            start_from_slots(r, st, slots[:ns], dealer, rng)
            if want_taker < 0 or (st[ST_TAKER] == owner) == (want_taker == 1):
                ok = True
                break
        if not ok:
            failed += 1
            continue
        for c in range(plans.shape[0]):
            start_from_slots(r, st, slots[:ns], dealer, rng)
            kind = plans[c, 0]
            k = 1
            while not deal_over(st):
                p = to_move(st)
                ph = st[ST_PHASE]
                a = -1
                if p == owner and kind == 1:
                    if ph == P_LUST:
                        a = plans[c, 1]
                    elif ph == P_OLD_ONES:
                        a = plans[c, 2]
                elif p == owner and kind == 2 and ph == P_DISCARD and k <= 2:
                    a = plans[c, k]
                    k += 1
                if a < 0 or not is_legal(r, st, a):
                    # the search a call, not inlined: half the compile (67 -> 31 s cold)
                    a = (py_choose_w(r, st, pids[p], work) if searches(pids[p])
                         else choose(r, st, pids[p]))
                apply_action(r, st, a)
            in0 = (st[ST_TEAM0] >> owner) & 1 == 1
            w = st[ST_WINNER]
            wins[c, i] = 1 if (w == 0 and in0) or (w == 1 and not in0) else 0
            scores[c, i] = st[ST_DELTA + owner]
    return failed


def accepts(setup_: HandSetup, st) -> bool:
    """Whether a completed deal's start fits ``--takes-skat``/``--leaves-skat`` (the
    completions ``play_hands`` redraws until one does)."""
    want = setup_.extra["want_taker"]
    return want < 0 or (int(st[ST_TAKER]) == setup_.seat) == (want == 1)


def setup(rules, seat, dealer, hand, known, trump_card=None, takes_skat=None) -> HandSetup:
    """The partial deal the user fixed: ``hand`` (the owner's cards; Officers': its
    face-up cards), ``known`` ((seat, cards text) pairs; Officers': face-up cards),
    ``dealer`` (None: the seat before the owner, so the owner is forehand),
    ``takes_skat`` (skat variants: whether the owner takes the skat)."""
    if trump_card is not None:
        raise TricksimError("--trump-card applies to Schnapsen only")
    r = rules_array(rules)
    v, n = int(r[R_VARIANT]), int(r[R_PLAYERS])
    if not 0 <= seat < n:
        raise TricksimError(f"--seat {seat} is not a seat here (0 to {n - 1})")
    if dealer is None:
        dealer = (seat - 1) % n
    if not 0 <= dealer < n:
        raise TricksimError(f"--dealer {dealer} is not a seat here (0 to {n - 1})")
    skat = VARIANT_SKAT[v]
    if takes_skat is not None and skat == 0:
        raise TricksimError("--takes-skat/--leaves-skat apply to the skat variants "
                            "(three, three_sharp) only")
    deck = mask_cards(VARIANT_DECK[v])
    officers = v == V_OFFICERS
    hs = 8 if officers else VARIANT_HAND[v]
    base = (lambda s: 16 * s) if officers else (lambda s: hs * s)
    t = np.full(len(deck), -1, np.int64)
    used: set = set()

    def cards_of(text, what):
        return parse_cards(text, parse_card, what, deck, "this variant's pack")

    own = cards_of(hand, "--hand")
    place(t, range(base(seat), base(seat) + hs), own, used, card_name, "--hand")
    for s, text in known:
        if s == seat:
            raise TricksimError(f"--known {s}: that is the hand's own seat; use --hand")
        place(t, range(base(s), base(s) + hs), cards_of(text, f"--known {s}"), used, card_name,
              f"--known {s}")
    full = len(own) == hs
    want = -1 if takes_skat is None else int(takes_skat)
    if skat and want == 0 and QC in own:
        raise TricksimError("impossible: the holder of QC takes the skat, and --hand holds QC")
    if skat and want == 1 and any(QC in cards_of(x, "--known") for _, x in known):
        raise TricksimError("impossible: another seat holds QC and takes the skat")
    choices = [Choice("policy decides", np.array([0, -1, -1], np.int64))]
    notes = []
    takes = skat and (QC in own or want == 1)
    if officers:
        notes.append("Officers' has no choice at the start")
    elif skat:
        if not full or not takes:
            notes.append("the discards are compared when the owner takes the skat (holds QC, "
                         "or --takes-skat) and the whole hand is given")
        else:
            choices += _discard_choices(own)
            notes.append("discards are compared among the hand's own cards; 'policy decides' "
                         "may also put away cards from the skat")
    elif not full:
        notes.append("the contracts are compared only with the whole hand given")
    else:
        choices += _contract_choices(r, own, deck)
        if dealer != (seat - 1) % n:
            notes.append("the owner is not forehand: a Lust Solo announced before its turn "
                         "overrides its choice on those deals")
    what = "face-up cards" if officers else "hand"
    lines = [f"seat {seat} {what}: {' '.join(card_name(c) for c in own)}"
             + ("" if full else " (the rest at random)") + f"; seat {dealer} deals"
             + ("" if want < 0 else ("; the owner takes the skat" if want else
                                     "; the owner does not take the skat"))]
    return HandSetup("wendish", seat, n, t, free_cards(t, deck), choices, WIN_MEANS, SCORE_UNIT,
                     lines, notes, extra={"dealer": dealer, "want_taker": want})


def _discard_choices(own) -> list[Choice]:
    """The skat taker's discards to compare: every pair of its own cards but the black
    queens (which it keeps)."""
    return [Choice(f"discard {card_name(a)} {card_name(b)}",
                   np.array([2, A_DISCARD + a, A_DISCARD + b], np.int64))
            for a, b in combinations([c for c in own if c not in (QC, QS)], 2)]


def _contract_choices(r, own, deck) -> list[Choice]:
    """The contracts a whole hand may choose at the start (rules array ``r``): with both
    black queens a quiet solo or a wedding (first trick, or each card it may call), else
    passing; and a Lust Solo in each suit the rules allow."""
    choices = []
    if sum(1 << c for c in own) & BLACK_QUEENS == BLACK_QUEENS:
        choices.append(Choice("quiet solo", np.array([1, A_PASS, A_QUIET], np.int64)))
        choices.append(Choice("wedding first_trick",
                              np.array([1, A_PASS, A_FIRST_TRICK], np.int64)))
        for c in deck:
            if c not in own:
                choices.append(Choice(f"wedding {card_name(c)}",
                                      np.array([1, A_PASS, A_WEDDING + c], np.int64)))
    else:
        choices.append(Choice("normal (pass)", np.array([1, A_PASS, -1], np.int64)))
    suits = [s for s in range(4) if r[R_SOLO_SUITS] >> s & 1] if r[R_LUST] else []
    for s in suits:
        choices.append(Choice(f"lust solo {SUITS[s]}", np.array([1, A_SOLO + s, -1], np.int64)))
    return choices


def play(rules, setup_: HandSetup, pids, seed: int, first: int, n: int):
    """Scores and wins (choices x ``n``) of deals ``first .. first + n - 1`` played by
    ``pids``."""
    plans = np.stack([c.plan for c in setup_.choices])
    scores = np.zeros((len(plans), n), np.int64)
    wins = np.zeros((len(plans), n), np.int64)
    failed = play_hands(rules_array(rules), setup_.template, setup_.free, np.uint64(seed),
                        first, n, np.asarray(pids, np.int64), setup_.seat,
                        setup_.extra["dealer"], setup_.extra["want_taker"], plans, scores,
                        wins)
    if failed:
        raise TricksimError(f"impossible: no deal completes this hand so that the owner "
                            f"{'takes' if setup_.extra['want_taker'] else 'leaves'} the skat "
                            f"({failed} of {counted(n, 'deal')} tried {MAX_TRIES:,} times)")
    return scores, wins


def labels(setup_: HandSetup, result) -> list[str]:
    """The choices' labels."""
    return [c.label for c in setup_.choices]


# ----- positions (tricksim analyse) ----------------------------------------------------------
def position_info(eng, record, deal, at, st):
    """Nothing beyond the state: every phase is sampled from it (the skat taker's
    pickup and discards included)."""
    return None


def _taker_of(w, n) -> int:
    """Who takes the skat in the deal ``w`` as dealt: the holder of QC, else of QS, else
    forehand (the engine's rule; the skat itself holds no seat)."""
    from .engine import ST_FOREHAND, ST_HAND
    for q in (QC, QS):
        for p in range(n):
            if int(w[ST_HAND + p]) >> q & 1:
                return p
    return int(w[ST_FOREHAND])


def _same_view(eng, st, w, seat) -> bool:
    """Whether ``seat`` observes the same in ``st`` and the world ``w``: the engine's
    observation of each, ``OBS_SIZE`` words (the kernel writes that many and no more)."""
    from .engine import OBS_SIZE, py_observe
    o1 = np.zeros(OBS_SIZE, np.int64)
    o2 = np.zeros(OBS_SIZE, np.int64)
    py_observe(eng.r, st, seat, o1)
    py_observe(eng.r, w, seat, o2)
    return bool(np.array_equal(o1, o2))


def sample_world(eng, st, seat, rng, info):
    """A copy of ``st`` whose cards hidden from ``seat`` are re-dealt by the ``pimc``
    player's sampler (one rule, written once in pimc.py: ``sample_world`` in card play,
    with the contract words of ``st`` and the world's Old Ones in a contract phase), with
    a fresh random stream: the other hands, the discards unless ``seat`` took the skat,
    the skat itself before its taker picks it up (holding the black queens the taker's
    own hand lacks, as the taker rule says), keeping every holding's size; Officers' the
    face-down cards still covered, both seats'.  None when the draw breaks what ``seat``
    knows (a guard: after its dead ends the sampler drops the voids; a pickup world seen
    by another seat than the taker may make another seat the taker; the observation)."""
    from .engine import P_PICKUP, P_PLAY, ST_HAND, ST_VOID
    from .pimc import contract_sides, sample_world as pimc_sample_world
    w = np.empty_like(st)
    pimc_sample_world(st, seat, np.uint64(rng.integers(0, 2**63)), w)
    phase = int(st[ST_PHASE])
    if phase < P_PLAY:
        contract_sides(st, w)
    for p in range(int(st[ST_N])):
        if p != seat and int(w[ST_HAND + p]) & int(st[ST_VOID + p]):
            return None
    if phase == P_PICKUP and _taker_of(w, int(st[ST_N])) != int(st[ST_TAKER]):
        return None
    if not _same_view(eng, st, w, seat):
        return None
    w[ST_RNG] = np.int64(rng.integers(0, 2**63))
    return w


def outcome(eng, st, seat):
    """(score change, win) of the finished deal for ``seat``."""
    in0 = (int(st[ST_TEAM0]) >> seat) & 1 == 1
    wn = int(st[ST_WINNER])
    return int(st[ST_DELTA + seat]), int((wn == 0 and in0) or (wn == 1 and not in0))
