"""Hand and position analysis (``tricksim hand``, ``tricksim analyse``), the generic part.

A game's ``hand.py`` knows its deal: it turns what the user fixed (a hand, cards known
elsewhere, the dealer, ...) into a :class:`HandSetup` - a *template* of the deal's card
slots (a card id where fixed, -1 where it is dealt at random), the cards left to deal,
the owner's start choices as :class:`Choice` plans - and plays deals from it in a numba
kernel (``play_hands``).  This module completes, summarises, prints and plots.

Deal ``i`` of a run with seed ``s`` completes the template from ``game_stream(s, i)``,
so a deal is reproducible by (seed, deal index) and every choice is played on the same
deals (paired).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numba import njit

from ..bits import game_stream, shuffle_inplace
from ..errors import TricksimError
from ..pimc_names import split_policy_text
from ..players import is_user_policy
from ..statistics.stats import wilson  # noqa: F401  (analysis.wilson: callers import it here)
from ..text import counted

_Z = 1.959963984540054


@dataclass
class Choice:
    """One start choice of the hand's owner: its label and the game's plan codes."""

    label: str
    plan: np.ndarray


@dataclass
class HandSetup:
    """A partial deal fixed by the user, as a game's ``hand.setup`` builds it."""

    game: str
    seat: int
    seats: int
    #: the deal's card slots in the game's order: a card id, or -1 (dealt at random)
    template: np.ndarray
    #: the cards dealt at random into the free slots
    free: np.ndarray
    choices: list[Choice]
    #: what "win" means for this game (one line)
    win_means: str
    #: the unit of the score (one line)
    score_unit: str
    #: lines describing the fixed deal
    lines: list[str] = field(default_factory=list)
    #: a note printed under the table (why there is no choice, ...)
    notes: list[str] = field(default_factory=list)
    #: game-specific settings (the dealer, ...)
    extra: dict = field(default_factory=dict)


def parse_cards(text: str, parse_card, what: str, deck=None, pack: str = "") -> list[int]:
    """Card ids of a comma- or space-separated list in the rule texts' notation; one
    TricksimError naming the first unknown card, a card given twice or, with ``deck``
    (the ids the rules deal), a card the rules leave out (``pack`` names what it is not
    in, e.g. "the deck with 3 players")."""
    names = [t for t in text.replace(",", " ").split() if t]
    if not names:
        raise TricksimError(f"{what}: no cards given")
    out = []
    for n in names:
        c = parse_card(n)
        if c in out:
            raise TricksimError(f"{what}: {n} is given twice")
        if deck is not None and c not in deck:
            raise TricksimError(f"{what}: {n} is not in {pack}")
        out.append(c)
    return out


def parse_known(items, seats: int) -> list[tuple[int, str]]:
    """``SEAT:CARDS`` items (``--known``) as (seat, cards text)."""
    out = []
    for item in items:
        seat, sep, cards = item.partition(":")
        if not sep or not seat.strip().isdigit() or not 0 <= int(seat) < seats:
            raise TricksimError(f"--known '{item}': give SEAT:CARDS with SEAT from 0 to "
                                f"{seats - 1}")
        out.append((int(seat), cards))
    return out


def place(template: np.ndarray, slots, cards, used: set, card_name, what: str) -> None:
    """Put ``cards`` into the free ``slots`` of ``template`` (in order); one
    TricksimError if a card is already placed elsewhere or there are too many."""
    slots = [s for s in slots if template[s] < 0]
    if len(cards) > len(slots):
        raise TricksimError(f"{what}: {counted(len(cards), 'card')} given, only {len(slots)} "
                            "fit")
    for s, c in zip(slots, cards):
        if c in used:
            raise TricksimError(f"{what}: {card_name(c)} is already placed elsewhere")
        used.add(c)
        template[s] = c


def free_cards(template: np.ndarray, deck: list[int]) -> np.ndarray:
    """The deck's cards not in the template, in id order."""
    used = set(int(c) for c in template if c >= 0)
    return np.array([c for c in deck if c not in used], dtype=np.int64)


@njit(cache=True, inline="always")
def complete(template, free, rng, out, scratch):
    """Fill ``out`` with ``template`` and a uniform shuffle of ``free`` in its -1 slots;
    returns the advanced stream."""
    nf = free.shape[0]
    for k in range(nf):
        scratch[k] = free[k]
    rng = shuffle_inplace(rng, scratch, nf)
    j = 0
    for k in range(template.shape[0]):
        if template[k] < 0:
            out[k] = scratch[j]
            j += 1
        else:
            out[k] = template[k]
    return rng


@njit(cache=True, inline="always")
def deal_stream(seed, i):
    """The random stream of deal ``i`` of a hand run with ``seed``."""
    return game_stream(seed, i)


# ----- who plays: an explicit --policy, or the strongest that fits a budget ------------------
def split_policies(g, text: str) -> list[str]:
    """A ``--policy`` text as a list of names, a pimc name's parameters kept on it
    (``pimc:worlds=4,tricks=16,heuristic`` -> ``["pimc:worlds=4,tricks=16", "heuristic"]``)."""
    return split_policy_text(text, g.policy_parameter_keys)


def who_plays(names) -> str:
    """``pimc in every seat`` / ``seat 0 pimc, seat 1 heuristic``."""
    return (f"{names[0]} in every seat" if len(set(names)) == 1
            else ", ".join(f"seat {i} {n}" for i, n in enumerate(names)))


def candidates(g, rules) -> tuple[list[str], tuple[str, ...]]:
    """The players a budgeted answer tries, strongest first (``simcore.analysis.budget.ladder``:
    the contract's ``search_ladder``, or ``strongest_policy`` where it declares none,
    then ``expert`` where the game has it, ``analysis_policy``), and the searching
    ones (``search_ladder``, which need fewer samples: ``simcore.analysis.budget.minimums``)."""
    from .budget import ladder
    c = g.contract(rules)
    search = tuple(c.search_ladder)
    return ladder(search or (c.strongest_policy,), c.analysis_policy, g.policies), search


@dataclass
class Answer:
    """Who played the samples of an answer and what they gave."""

    #: canonical player names, one per seat
    names: list
    #: the sample arrays (a game's ``play`` result, sample on the last axis)
    result: tuple
    samples: int
    seconds: float
    #: the lines naming the players (first) and comparing cheaper ones (after)
    lines: list


@dataclass(frozen=True)
class Question:
    """What a budgeted answer is about, as its lines say it: a sample is a ``noun``
    ("deal", "world") of ``subject`` ("this hand"); ``figure(result)`` is the 0/1
    per-sample figure the cheaper players are compared on, ``what`` names it."""

    noun: str
    subject: str
    figure: Callable
    what: str


def budgeted(g, rules, play, policy: str | None, limits, question: Question) -> Answer:
    """An answer to ``question`` over samples ``0 .. n-1``: with ``policy`` given,
    ``limits.cap`` samples played by it; else the strongest candidate that fits the
    budget (``limits``, a ``simcore.analysis.budget.Limits``), then the cheaper
    candidates on the same samples, each compared on ``question.figure(result)`` in one
    line worded as evidence."""
    from . import budget as b
    cap, threads, clock, noun = limits.cap, limits.threads, limits.clock, question.noun
    if policy is not None:
        t0 = clock()
        res = b.play_all(play, policy, cap, threads)
        listed = split_policies(g, policy)
        names = (g.policy_names(listed, rules) if any(is_user_policy(p) for p in listed)
                 else g.policy_ids(listed, rules)[0])
        took = clock() - t0
        return Answer(names, res, cap, took,
                      [f"players: {who_plays(names)}; {counted(cap, noun)} (--policy)"])
    cands, search = candidates(g, rules)
    row_play = getattr(play, "first_row", None)
    pk, res, n, took = b.run(cands, play, limits, b.minimums(cands, search, cap),
                             row_play=row_play, search=search)
    names = g.policy_ids(pk.policy.split(","), rules)[0]
    cheap, after = [], pk.policy
    if pk.table is not None:        # the searching player played the first row alone
        after = pk.table.policy
        cheap.append((after, pk.table_result))
        lines = b.players_line(who_plays(names), n, noun, took, limits.seconds, pk,
                               who_plays(g.policy_ids(after.split(","), rules)[0]),
                               play.row)
    else:
        lines = b.players_line(who_plays(names), n, noun, took, limits.seconds, pk)
    for q in cands[cands.index(after) + 1:]:
        if q not in search:         # the fast ones only: a cheaper search costs minutes
            cheap.append((q, b.play_all(play, q, n, threads)))
    figure = question.figure
    lines += b.sensitivity(pk.policy, figure(res), [(q, figure(r)) for q, r in cheap],
                           question.what, noun, question.subject)
    return Answer(names, res, n, took, lines)


def hand_play(g, mod, rules, setup_: HandSetup, seed: int):
    """``play(policy, first, n)`` for :func:`budgeted`: deals ``first .. first + n - 1`` of
    the hand played by ``policy`` (the game's ``hand.play``), every choice a row.  With
    more than one choice, ``play.first_row`` plays the first choice alone (the same deals
    and players: what the player itself would do) and ``play.row`` names it."""
    ids = {}

    def player(policy):
        if policy not in ids:
            ids[policy] = g.policy_ids(policy.split(","), rules)[1]
        return ids[policy]

    def play(policy, first, n):
        return mod.play(rules, setup_, player(policy), seed, first, n)
    if len(setup_.choices) > 1:
        alone = dataclasses.replace(setup_, choices=setup_.choices[:1])

        def first_row(policy, first, n):
            return mod.play(rules, alone, player(policy), seed, first, n)
        play.first_row = first_row
        play.row = f"'{setup_.choices[0].label}'"
    return play


def _word(x) -> np.uint64:
    """A random stream's state as the kernels hold it (numba hands a uint64 back to
    Python as an int, negative when it was typed int64)."""
    return np.uint64(int(x) & 0xFFFF_FFFF_FFFF_FFFF)


def user_hand_play(g, mod, rules, setup_: HandSetup, seed: int, policy: str,
                   timeout: float | None = None):
    """``play(policy, first, n)`` for :func:`budgeted` when ``policy`` names Python players
    (``MODULE:ATTR``): deals ``first .. first + n - 1`` completed as ``hand_play``'s are
    (the game's ``start_from_slots`` from the same stream), each played once with the
    owner's start left to its player (the first choice, ``policy decides``), driven
    through the Engine API on this thread (``simcore.players.decider``: a Python player's
    randomness seeded by (seed, deal, seat), its failure one line naming it, the deal and
    the actions before).  Scores and wins are 1 x n, as the first row of ``hand_play``'s."""
    from ..players import DEFAULT_TIMEOUT, decider, resolve, watchdog
    eng = g.engine(rules)
    seats = resolve(eng, g, rules, split_policies(g, policy))
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    r = g.rulebook.rules_array(rules)
    size = len(eng.new(0, 0))
    accepts = getattr(mod, "accepts", lambda su, st: True)
    tries = getattr(mod, "MAX_TRIES", 1)

    def start(index):
        """Deal ``index``'s start, as the game's ``play_hands`` completes it."""
        slots = np.empty(len(setup_.template), np.int64)
        scratch = np.empty(max(1, len(setup_.free)), np.int64)
        st = np.empty(size, np.int64)
        rng = _word(deal_stream(np.uint64(seed), index))
        for _ in range(tries):
            rng = _word(complete(setup_.template, setup_.free, rng, slots, scratch))
            mod.start_from_slots(r, st, slots, setup_.extra[mod.START_SEAT], rng)
            if accepts(setup_, st):
                return st
        raise TricksimError(f"impossible: no completion of deal {index} fits this hand "
                            f"({tries:,} tried)")

    def position(index, deal, done):
        return (f"deal {index} of this hand (--seed {seed}) after {counted(done, 'action')} "
                "of its play")

    def play(text, first, n):
        scores = np.zeros((1, n), np.int64)
        wins = np.zeros((1, n), np.int64)
        with watchdog():
            for i in range(n):
                st = start(first + i)
                decide = decider(eng, seed, first + i, seats, timeout, position)
                done = 0
                while not eng.deal_over(st):
                    a = decide(st, eng.to_move(st), 0, done)
                    done += eng.action_to_record(st, a) is not None
                    eng.apply(st, a)
                scores[0, i], wins[0, i] = mod.outcome(eng, st, setup_.seat)
        return scores, wins, np.full((1, n), -1, np.int64)
    return play


# ----- statistics ------------------------------------------------------------------------
@dataclass
class ChoiceResult:
    """One choice's outcome over the deals."""

    label: str
    deals: int
    win: float
    win_low: float
    win_high: float
    mean: float
    mean_low: float
    mean_high: float
    #: paired difference of the mean score to the best choice, with its 95% interval
    diff: float = 0.0
    diff_low: float = 0.0
    diff_high: float = 0.0


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean with its 95% normal interval (NaN bounds for fewer than 2 values)."""
    n = len(x)
    m = float(np.mean(x)) if n else math.nan
    if n < 2:
        return m, math.nan, math.nan
    h = _Z * float(np.std(x, ddof=1)) / math.sqrt(n)
    return m, m - h, m + h


def summarise(labels, scores: np.ndarray, wins: np.ndarray) -> tuple[list[ChoiceResult], int]:
    """Per choice (rows of ``scores``/``wins``, one column per deal) the win rate and
    mean score with intervals, and the paired difference to the best mean; returns the
    results and the index of the best."""
    res = []
    for i, lab in enumerate(labels):
        w = wilson(int(wins[i].sum()), wins.shape[1])
        m = mean_interval(scores[i].astype(np.float64))
        res.append(ChoiceResult(lab, scores.shape[1], *w, *m))
    best = max(range(len(res)), key=lambda i: (res[i].mean, res[i].win, -i))
    for i, r in enumerate(res):
        d = mean_interval((scores[i] - scores[best]).astype(np.float64))
        r.diff, r.diff_low, r.diff_high = d
    return res, best


def _pct(x) -> str:
    return "n/a" if x != x else f"{100 * x:.1f}%"


def _num(x) -> str:
    return "n/a" if x != x else f"{x:+.3f}"


def choice_table(results: list[ChoiceResult], best: int, paired: bool) -> str:
    """The side-by-side table of the choices, the best marked with ``*``."""
    head = ["choice", "P(win)", "95% CI", "mean score", "95% CI"]
    if paired:
        head += ["vs best (paired)", "95% CI"]
    rows = []
    for i, r in enumerate(results):
        row = [("* " if i == best and paired else "  ") + r.label, _pct(r.win),
               f"[{_pct(r.win_low)}, {_pct(r.win_high)}]", _num(r.mean),
               f"[{_num(r.mean_low)}, {_num(r.mean_high)}]"]
        if paired:
            row += (["best", ""] if i == best else
                    [_num(r.diff), f"[{_num(r.diff_low)}, {_num(r.diff_high)}]"])
        rows.append(row)
    return grid(head, rows)


def grid(head, rows) -> str:
    """A plain text table."""
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda r: "  ".join(str(x).ljust(w[i]) for i, x in enumerate(r)).rstrip()  # noqa
    return "\n".join([line(head), line(["-" * k for k in w])] + [line(r) for r in rows])


def distribution(scores: np.ndarray) -> list[tuple[int, int, float]]:
    """(score, count, share) of each distinct score, lowest first."""
    vals, counts = np.unique(scores, return_counts=True)
    n = len(scores)
    return [(int(v), int(c), c / n) for v, c in zip(vals, counts)]


def distribution_table(scores: np.ndarray, label: str, max_rows: int = 30) -> str:
    """The outcome distribution of one choice as a small table (equal-width ranges of
    scores when there are more than ``max_rows`` distinct values)."""
    dist = distribution(scores)
    if len(dist) > max_rows:        # equal-width ranges of whole scores
        lo, hi = int(scores.min()), int(scores.max())
        width = -(-(hi - lo + 1) // max_rows)
        rows = []
        for a in range(lo - lo % width, hi + 1, width):
            b = min(a + width - 1, hi)
            m = (scores >= a) & (scores <= b)
            if m.any():
                rows.append([f"{a} .. {b}" if b > a else f"{a}", int(m.sum()),
                             f"{100 * m.mean():.1f}%"])
    else:
        rows = [[str(v), c, f"{100 * s:.1f}%"] for v, c, s in dist]
    return f"outcomes of '{label}':\n" + grid(["score", "deals", "share"], rows)


def plot_outcomes(labels, scores: np.ndarray, best: int, path, title: str) -> None:
    """A PNG (written whole or not at all) of the score distribution per choice."""
    from ..statistics.plots import _save, plt
    fig, ax = plt.subplots(figsize=(7, 4))
    vals = np.unique(scores)
    show = [best] + [i for i in range(len(labels)) if i != best][:5]
    width = 0.8 / len(show)
    for k, i in enumerate(show):
        share = [(scores[i] == v).mean() for v in vals]
        ax.bar(np.arange(len(vals)) + k * width, share, width,
               label=labels[i] + (" (best)" if i == best and len(labels) > 1 else ""))
    ax.set_xticks(np.arange(len(vals)) + 0.4 - width / 2)
    ax.set_xticklabels([str(int(v)) for v in vals], rotation=90 if len(vals) > 20 else 0)
    ax.set_xlabel("score")
    ax.set_ylabel("share of deals")
    ax.set_title(title)
    ax.legend(fontsize=8)
    _save(fig, path)


# ----- positions ---------------------------------------------------------------------------
def read_record(path, index: int) -> dict:
    """Record ``index`` (from 0, blank lines skipped) of a JSON Lines file, replay-validated;
    one TricksimError naming what is wrong."""
    from ..records import ReplayError, parse_line, replay_one
    if index < 0:
        raise TricksimError(f"--index must be 0 or more, not {index}")
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise TricksimError(f"cannot read '{path}': {exc.strerror or exc}") from None
    k = -1
    with fh:
        for raw in fh:
            if raw.strip():
                k += 1
                if k == index:
                    break
        else:
            raise TricksimError(f"'{path}' holds {counted(k + 1, 'record')}; --index {index} is not "
                                f"among them (0 to {k})")
    try:
        rec = parse_line(raw)
        replay_one(rec)
    except ReplayError as exc:
        raise TricksimError(f"record {index} of '{path}' does not replay: {exc}") from None
    return rec


@dataclass
class Position:
    """A recorded position and what every legal action of the seat to move is worth."""

    seat: int
    actions: list[int]
    labels: list[str]
    #: the action the record took here (its label), or None where the deal ends
    actual: str | None
    results: list[ChoiceResult]
    best: int
    worlds: int
    tries: int
    exact: bool
    #: who played the worlds out (``pimc in every seat``; "" for exact)
    players: str = ""
    #: the lines naming the players and comparing cheaper ones (see ``budgeted``)
    lines: list = field(default_factory=list)


def analyse_position(record: dict, deal: int, at: int, policy: str | None, worlds: int,
                     exact: bool, seed: int, budget: float | None = None) -> Position:
    """The position after action ``at`` of deal ``deal`` of ``record``, seen by the seat to
    move: each legal action's open-card value (``exact``), or its mean score and win rate
    over ``worlds`` sampled worlds consistent with the seat's observation, each played out
    to the deal's end by ``policy``; with ``policy`` None, by the strongest player whose
    worlds within ``budget`` seconds give a useful interval (at most ``worlds``; see
    ``simcore.analysis.budget``), the lines naming it and comparing cheaper players in
    ``Position.lines``."""
    from ..registry import get_game, get_hand
    game = record["game"]
    g = get_game(game)
    rules = g.rulebook.from_dict(record["rules"])
    eng = g.engine(rules)
    st, user = _position_state(eng, g, record, deal, at, policy)
    seat = eng.to_move(st)
    from .show import narrator_class
    # the rows in the order the mover's hand is shown (as ``play`` lists its choices)
    acts = narrator_class(game)(eng, viewer=seat).menu_order(st, list(eng.legal(st)))
    actual = None
    if at < len(record["deals"][deal]["actions"]):
        actual = eng.describe(eng.action_from_record(st, record["deals"][deal]["actions"][at]))
    if exact:
        return _open_card_position(game, eng, st, seat, acts, actual)
    mod = get_hand(game)
    acts = [a for a in acts if a not in getattr(mod, "NOT_ANALYSED", ())]
    labels = [eng.describe(a) for a in acts]
    sampler = _Worlds(mod, eng, st, seat, np.random.default_rng(seed),
                      mod.position_info(eng, record, deal, at, st))
    where = f"the position after action {at} of deal {deal}"
    if user:
        play = _user_playout(g, rules, policy, sampler, acts, seed, where)
    else:
        play = _playout(eng, g, sampler, acts, seat, mod.outcome)

    def best_wins(r):
        return r[1][summarise(labels, r[0], r[1])[1]]

    from .budget import Limits
    ans = budgeted(g, rules, play, policy, Limits(budget or 0.0, 1, worlds),
                   Question("world", "this position", best_wins, "P(win) of the best action"))
    got = ans.samples
    if got == 0:
        raise TricksimError(f"no world consistent with seat {seat}'s view was found in "
                            f"{sampler.tries:,} draws")
    res, best = summarise(labels, ans.result[0], ans.result[1])
    return Position(seat, acts, labels, actual, res, best, got, sampler.tries, False,
                    who_plays(ans.names), ans.lines)


def _position_state(eng, g, record: dict, deal: int, at: int, policy: str | None):
    """(the state after action ``at`` of deal ``deal`` of ``record``, whether ``policy``
    names Python players), once the deal, the action and the built-in players of
    ``policy`` are checked (Python players are checked where they are loaded);
    one-line TricksimErrors naming what is wrong."""
    deals = record["deals"]
    if not 0 <= deal < len(deals):
        raise TricksimError(f"--deal {deal}: the record has {counted(len(deals), 'deal')} "
                            f"(0 to {len(deals) - 1})")
    n_act = len(deals[deal]["actions"])
    if not 0 <= at <= n_act:
        raise TricksimError(f"--at {at}: deal {deal} has {counted(n_act, 'action')}; give 0 to "
                            f"{n_act} "
                            "(the position after that many actions)")
    user = policy is not None and any(is_user_policy(p) for p in split_policies(g, policy))
    if policy is not None and not user:
        try:
            eng.policy_list(split_policies(g, policy))
        except ValueError as exc:
            raise TricksimError(f"--policy: {exc}") from None
    st = eng.from_record(record, deal, at)
    if eng.deal_over(st):
        raise TricksimError(f"--at {at}: the deal is over there; nobody is to act")
    return st, user


def _open_card_position(game: str, eng, st, seat: int, acts: list, actual) -> Position:
    """Each action's exact open-card value at ``st`` (the game's solver, all cards known)."""
    if not hasattr(eng, "open_values"):
        raise TricksimError(f"--open: {game} has no open-card solver yet; analyse it "
                            "with sampled worlds (without --open)")
    try:
        vals = eng.open_values(st)
    except ValueError as exc:
        raise TricksimError(f"--open: {exc}") from None
    acts = [a for a in acts if a in vals]
    labels = [eng.describe(a) for a in acts]
    res = [ChoiceResult(lab, 1, math.nan, math.nan, math.nan, vals[a], math.nan, math.nan)
           for a, lab in zip(acts, labels)]
    best = max(range(len(res)), key=lambda i: res[i].mean)
    for r in res:
        r.diff = r.mean - res[best].mean
        r.diff_low = r.diff_high = math.nan
    return Position(seat, acts, labels, actual, res, best, 0, 0, True)


def _playout(eng, g, sampler, acts, seat: int, outcome):
    """``play(policy, first, n)`` for :func:`budgeted`: worlds ``first .. first + n - 1``
    played out after each action by the built-in players ``policy``; (scores, wins) of
    ``seat``, one row per action."""
    def play(text, first, n):
        names = eng.policy_list(split_policies(g, text))
        if n == 0:      # budget.warm: one decision each loads the players' kernels
            for name in dict.fromkeys(names):
                eng.choose(name, sampler.st.copy())
            return np.zeros((len(acts), 0), np.int64), np.zeros((len(acts), 0), np.int64)
        have = max(sampler.upto(first + n), first)
        scores = np.zeros((len(acts), have - first), np.int64)
        wins = np.zeros((len(acts), have - first), np.int64)
        for i, w in enumerate(sampler.worlds[first:have]):
            for j, a in enumerate(acts):
                x = w.copy()
                eng.apply(x, a)
                while not eng.deal_over(x):
                    eng.apply(x, eng.choose(names[eng.to_move(x)], x))
                scores[j, i], wins[j, i] = outcome(eng, x, seat)
        return scores, wins
    return play


class _Worlds:
    """Worlds consistent with the seat's view, drawn in order as they are asked for
    (world ``i`` is the same whoever plays it out)."""

    def __init__(self, mod, eng, st, seat, rng, info):
        self.mod, self.eng, self.st, self.seat, self.rng, self.info = (mod, eng, st, seat, rng,
                                                                        info)
        self.worlds: list = []
        self.tries = 0

    def upto(self, n: int) -> int:
        """Draw until there are ``n`` worlds (or 1,000 draws per world found failed);
        returns how many there are."""
        while len(self.worlds) < n and self.tries < 1000 * n:
            self.tries += 1
            w = self.mod.sample_world(self.eng, self.st, self.seat, self.rng, self.info)
            if w is not None:
                self.worlds.append(w)
        return min(len(self.worlds), n)


def _user_playout(g, rules, policy: str, sampler: "_Worlds", acts, seed: int, where: str):
    """``play(policy, first, n)`` for :func:`budgeted` when ``policy`` names Python
    players (``MODULE:ATTR``): each of ``sampler``'s worlds played out from each of
    ``acts`` through the Engine API, valued for the seat to move by the game's hand
    ``outcome``; a Python player's randomness seeded by (seed, world, seat), its failures
    one line naming the player, the world and the position (``where``)."""
    from ..players import DEFAULT_TIMEOUT, decider, resolve, watchdog
    eng, seat, outcome = sampler.eng, sampler.seat, sampler.mod.outcome
    seats = resolve(eng, g, rules, split_policies(g, policy))

    def after(a):
        """The position text of a failure in a world played on from action ``a``."""
        return lambda index, deal, done: (f"world {index} of {where}, after "
                                          f"{eng.describe(a)} and {done - 1} more action"
                                          f"{'s' if done != 2 else ''}")

    def play(text, first, n):
        have = max(sampler.upto(first + n), first)
        scores = np.zeros((len(acts), have - first), np.int64)
        wins = np.zeros((len(acts), have - first), np.int64)
        with watchdog():
            for i, w in enumerate(sampler.worlds[first:have]):
                for j, a in enumerate(acts):
                    x = w.copy()
                    eng.apply(x, a)
                    decide = decider(eng, seed, first + i, seats, DEFAULT_TIMEOUT, after(a))
                    done = 1
                    while not eng.deal_over(x):
                        eng.apply(x, decide(x, eng.to_move(x), 0, done))
                        done += 1
                    scores[j, i], wins[j, i] = outcome(eng, x, seat)
        return scores, wins
    return play


def position_lines(record: dict, deal: int, at: int) -> list[str]:
    """The position ``analyse`` values, as the seat to move sees it (the game's
    narrator, as ``tricksim play`` shows it to that seat): its hand, what is public
    (the trick so far, Schnapsen's trump card and talon, Officers' face-up cards, the
    contract and what was announced), the scores; "you" is the seat to move."""
    from .show import engine_for, narrator_class
    eng = engine_for(record)
    st = eng.from_record(record, deal, at)
    seat = eng.to_move(st)
    narr = narrator_class(record["game"])(eng, viewer=seat)
    return [f"the position, as seat {seat} sees it (\"you\"):"] + \
        ["  " + line for line in narr.view(st, seat)]


def position_table(pos: Position) -> str:
    """Every legal action with its value, the best marked ``*``, the record's own ``<``."""
    rows = []
    for i, r in enumerate(pos.results):
        mark = ("*" if i == pos.best else " ") + ("<" if r.label == pos.actual else " ")
        if pos.exact:
            rows.append([mark, r.label, f"{r.mean:+.0f}",
                         "best" if i == pos.best else f"{r.diff:+.0f}"])
        else:
            rows.append([mark, r.label, _num(r.mean), f"[{_num(r.mean_low)}, {_num(r.mean_high)}]",
                         _pct(r.win), "best" if i == pos.best else _num(r.diff),
                         "" if i == pos.best else f"[{_num(r.diff_low)}, {_num(r.diff_high)}]"])
    head = (["", "action", "open-card value", "vs best"] if pos.exact else
            ["", "action", "mean score", "95% CI", "P(win)", "vs best (paired)", "95% CI"])
    return grid(head, rows)
