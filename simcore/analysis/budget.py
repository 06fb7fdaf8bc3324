"""The strongest players whose sample fits a time budget (``tricksim hand``, ``analyse``).

An answer like "this hand wins 47% of deals" depends on who plays the deals out: the
same Schnapsen hand wins about a quarter of its deals between heuristic players and
far more between searching ones.  Without ``--policy`` these commands therefore take
the strongest player whose sample fits the budget:

1. the candidates, strongest first (:func:`ladder`): the searching players the game's
   contract declares (``search_ladder``: its ``pimc``, then cheaper ``pimc`` settings),
   then ``expert``, then the analysis player (``heuristic``);
2. a short *pilot* per candidate (:func:`pick`): a few samples on one thread, doubling
   until :data:`PILOT_SHARE` of the budget is spent, gives the seconds a sample costs;
3. the first candidate whose estimated sample in the remaining budget (on ``threads``
   threads) reaches its minimum (:func:`minimums`; the cap, if smaller) is taken; the
   pilot's samples are kept as its first ones;
4. the rest is played on ``threads`` threads in chunks until the cap or the deadline
   (:func:`play_until`): the answer is always over samples ``0 .. n-1``, so it is
   reproducible with ``--policy P --deals n`` (``--worlds n``) and the same seed.

**Why a searching candidate needs fewer samples.**  A searching player takes
:data:`MIN_SEARCH_SAMPLES` (200), the others :data:`MIN_SAMPLES` (300).  The answer
users want is the one strong play gives, and the fast players are not merely less
precise but biased against it: on the hand benchmark (``benchmarks/bench_hand_budget.py``)
``expert``'s 10,000-deal answers missed ``pimc``'s 1,000-deal reference by up to
6.8 percentage points with intervals of +-1 point, so falling back to them gives a
precise wrong answer.  A searching player's 200 samples give a 95% interval at most
about +-6.9 points wide (a rate near 50%; narrower elsewhere) that contains the strong
answer about 95% of the time, which is the better answer.  Below 200 the interval
widens fast (+-9.8 points at 100), and a cheaper search setting (fewer worlds, search
only near the end), which fits more samples, is then the better trade; the ladder's
cheaper ``pimc`` rungs exist for that.

The fast candidates after the one taken are then played on the same samples (they are
nearly free; the cheaper searching ones are not, and are left out) and
:func:`sensitivity` says, worded as evidence, whether their answer differs from the
strong one (a paired test on the same samples, Holm across the cheaper players).

Every candidate's kernels are loaded before the budget's clock starts (:func:`warm`: a
call that plays no sample), so a compile is not timed as the player's play.

**A table of many choices** (a hand's start choices, each a row played on every deal)
may fit no searching player whole although one fits its first row ("policy decides",
the headline answer).  :func:`run` then lets that one play the first row alone and the
fast player taken for the table play every row on the same samples (:func:`pick_row`);
a searching player's whole table is guessed from its first row's pilot and not piloted
where the guess cannot fit (:class:`RowPilots`).

A *sample* is a deal (``hand``) or a world (``analyse``); ``play(policy, first, n)``
plays samples ``first .. first + n - 1`` and returns a tuple of arrays whose last axis
is the sample.  This module times and joins; it knows nothing of games.
"""
from __future__ import annotations

import concurrent.futures
import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import TricksimError
from ..text import counted

#: the smallest sample worth a fast (not searching) player's answer: a 95% interval of a
#: rate is at most about +-5.7 percentage points wide with 300 samples
MIN_SAMPLES = 300
#: the smallest sample worth a searching player's answer (+-6.9 points at most): smaller
#: than MIN_SAMPLES because the fast players' answers are biased against the searching
#: ones (see the module's docstring)
MIN_SEARCH_SAMPLES = 200
#: the share of the budget one candidate's pilot may spend
PILOT_SHARE = 0.05
#: the share of the ideal ``threads`` x speed-up the estimate counts on (threads share
#: the machine with others)
EFFICIENCY = 0.8
#: the seconds one chunk of the threaded run aims at (the deadline is checked between
#: chunks, so a run ends at most about this long after it)
CHUNK_SECONDS = 0.5
#: the default budget in seconds
DEFAULT_BUDGET = 20.0
#: the largest budget a command takes (a day)
MAX_BUDGET = 86_400.0

Play = Callable[[str, int, int], tuple]


@dataclass
class Trial:
    """One candidate's pilot."""

    policy: str
    #: samples the pilot played, on one thread
    samples: int
    #: its wall-clock seconds
    seconds: float
    #: the samples estimated to fit the budget (pilot included)
    fit: int
    #: the smallest sample it had to reach
    need: int = 0

    @property
    def per_sample(self) -> float:
        """Seconds one sample costs on one thread."""
        return self.seconds / max(self.samples, 1)


@dataclass
class Pick:
    """The candidate taken and why."""

    policy: str
    trials: list[Trial]
    #: the chosen candidate's pilot result (its first ``trials[-1].samples`` samples)
    pilot: tuple
    #: the samples to aim at (the cap, or the estimate of what fits)
    target: int
    #: the smallest sample the taken candidate had to reach
    need: int
    #: whether the taken one reached ``need`` (False: the cheapest, taken anyway)
    fits: bool = True
    #: wall-clock time (``clock()``) at which the budget started
    started: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: set when this pick plays the first row alone (see :func:`run`): the pick of the
    #: player that plays the whole table on the same samples, and its result there
    table: "Pick | None" = None
    table_result: tuple | None = None


def check_budget(seconds: float) -> float:
    """``--budget``, checked: more than 0 and at most a day."""
    if not (isinstance(seconds, (int, float)) and 0 < seconds <= MAX_BUDGET) \
            or seconds != seconds:
        raise TricksimError(f"--budget {seconds} is not allowed; allowed: more than 0 and at "
                            f"most {MAX_BUDGET:,.0f} seconds")
    return float(seconds)


def check_threads(threads: int) -> int:
    """``--threads``, checked: 1 to 256."""
    if not 1 <= threads <= 256:
        raise TricksimError(f"--threads {threads} is not allowed; allowed: 1 to 256")
    return threads


def ladder(search, analysis: str, players) -> list[str]:
    """The candidates strongest first: the searching players ``search`` (strongest
    first), ``expert`` (where ``players`` has it), ``analysis``; each once."""
    out = []
    for p in (*search, "expert" if "expert" in players else None, analysis):
        if p and p not in out:
            out.append(p)
    return out


def minimums(candidates: list[str], search, cap: int, min_samples: int = MIN_SAMPLES,
             min_search: int = MIN_SEARCH_SAMPLES) -> list[int]:
    """The sample each candidate must reach to be taken: ``min_search`` for the
    searching ones (in ``search``), ``min_samples`` for the others, ``cap`` if smaller."""
    return [min(min_search if c in search else min_samples, cap) for c in candidates]


def join(parts: list[tuple]) -> tuple:
    """Chunk results (tuples of arrays, sample on the last axis) joined in order."""
    return tuple(np.concatenate([p[k] for p in parts], axis=-1) for k in range(len(parts[0])))


def estimate(per_sample: float, done: int, remaining: float, threads: int) -> int:
    """Samples that fit: ``done`` plus what ``threads`` threads play in ``remaining``
    seconds at ``per_sample`` seconds a sample on one thread."""
    if remaining <= 0:
        return done
    if per_sample <= 0:
        return 10**12
    speed = max(1.0, threads * EFFICIENCY) / per_sample
    return done + int(remaining * speed)


def _needs(candidates, min_samples, cap: int) -> list[int]:
    """The sample each candidate must reach (``min_samples``: one for all or one each),
    the cap if smaller."""
    needs = ([min(min_samples, cap)] * len(candidates) if isinstance(min_samples, int)
             else [min(m, cap) for m in min_samples])
    if len(needs) != len(candidates):
        raise ValueError("one minimum per candidate")
    return needs


def warm(play: Play, candidates) -> None:
    """Load (or compile) the kernels of every candidate: ``play(policy, 0, 0)``, a call
    that plays no sample (a cold cache compiles for minutes, which a pilot must not
    count as the player's time)."""
    for policy in dict.fromkeys(candidates):
        play(policy, 0, 0)


def pilot(play: Play, policy: str, cap: int, seconds: float, clock=time.perf_counter):
    """Samples 0, 1, 2 .. of ``policy`` on one thread in doubling chunks (1, 1, 2, 4 ..)
    until ``seconds`` are spent or ``cap`` reached: ``(parts, samples, seconds spent)``."""
    parts, done, spent = [], 0, 0.0
    n = 1
    while True:
        t0 = clock()
        parts.append(play(policy, done, n))
        spent += clock() - t0
        done += n
        if spent >= seconds or done >= cap:
            return parts, done, spent
        n = min(done, cap - done)


@dataclass(frozen=True)
class Limits:
    """What a budgeted answer may spend: ``seconds`` of ``clock`` time (the budget) on
    ``threads`` threads, and at most ``cap`` samples; ``clock``: ``time.perf_counter``,
    or a test's."""

    seconds: float
    threads: int
    cap: int
    clock: Callable[[], float] = time.perf_counter


def pick(candidates: list[str], play: Play, limits: Limits, min_samples=MIN_SAMPLES,
         started: float | None = None, guess=None) -> Pick:
    """Pilot ``candidates`` (strongest first) and take the first whose sample in the
    budget (``limits``) reaches its minimum (``min_samples``: one for all, or one per candidate as
    :func:`minimums` gives; the cap, if smaller); the last (cheapest) is taken anyway,
    with ``fits`` False when even it falls short.  The kernels are loaded first and the
    budget starts after (or at ``started``, where the caller did so).  ``guess(policy)``,
    where given, estimates a candidate's seconds a sample (None: no estimate); one whose
    estimate does not fit is passed over without a pilot (a single sample of a slow
    search of a large table can cost many pilots' time)."""
    budget, threads, cap, clock = limits.seconds, limits.threads, limits.cap, limits.clock
    needs = _needs(candidates, min_samples, cap)
    if started is None:
        warm(play, candidates)      # not the players' time: before the budget starts
        started = clock()
    pilot_cap = max(budget * PILOT_SHARE, 1e-3)
    trials = []
    for k, (policy, need) in enumerate(zip(candidates, needs)):
        per = guess(policy) if guess is not None and k < len(candidates) - 1 else None
        if per is not None:
            fit = min(cap, estimate(per, 0, budget - (clock() - started), threads))
            if fit < need:
                trials.append(Trial(policy, 0, per, fit, need))
                continue
        parts, done, spent = pilot(play, policy, cap, pilot_cap, clock)
        remaining = budget - (clock() - started)
        fit = min(cap, estimate(spent / done, done, remaining, threads))
        trials.append(Trial(policy, done, spent, fit, need))
        last = k == len(candidates) - 1
        if fit >= need or last:
            return Pick(policy, trials, join(parts), fit, need, fit >= need, started)
    raise ValueError("no candidates")


def estimate_pair(per_row: float, row_done: int, per_table: float, table_done: int,
                  remaining: float, threads: int) -> int:
    """Samples that fit when one player plays the first row and another the whole table
    on the same samples: ``row_done`` and ``table_done`` of them played already (the
    pilots), the rest at ``per_row`` and ``per_table`` seconds a sample on one thread,
    in ``remaining`` seconds on ``threads`` threads."""
    work = max(remaining, 0.0) * max(1.0, threads * EFFICIENCY)
    if per_row + per_table <= 0:
        return 10**12
    n = (work + row_done * per_row + table_done * per_table) / (per_row + per_table)
    if n < table_done:      # the table's pilot covers them: the first row's cost alone
        n = min(table_done, row_done + (work / per_row if per_row > 0 else 10**12))
    return max(row_done, int(n))


class RowPilots:
    """Pilots of searching players on the first row alone (``row_play``), each played
    once when first asked for (:func:`pilot`), kept for :func:`pick_row`."""

    def __init__(self, row_play: Play, rows: int, cap: int, seconds: float, clock):
        self.row_play, self.rows, self.cap, self.seconds, self.clock = (row_play, rows, cap,
                                                                        seconds, clock)
        self.done: dict[str, tuple] = {}

    def __call__(self, policy: str) -> tuple:
        """``(parts, samples, seconds)`` of ``policy``'s pilot on the first row."""
        if policy not in self.done:
            self.done[policy] = pilot(self.row_play, policy, self.cap, self.seconds, self.clock)
        return self.done[policy]

    def table_guess(self, policy: str) -> float:
        """The seconds a sample of the whole table costs ``policy``, guessed as the rows
        times its first row's (the first row, where the player decides for itself,
        costs at least as much as a fixed choice's row)."""
        _, done, spent = self(policy)
        return self.rows * spent / done


def pick_row(table: Pick, rungs: list[str], needs: list[int], pilots: RowPilots,
             limits: Limits) -> Pick | None:
    """After ``table`` (:func:`pick` over the whole table) took a fast player: the first
    of ``rungs`` (searching players, strongest first) whose pilot on the first row alone
    (``pilots``) says that it, and ``table``'s player on the whole table, reach its
    minimum (``needs``) on the same samples in what is left of the budget
    (``limits``); None when none does."""
    budget, threads, cap, clock = limits.seconds, limits.threads, limits.cap, limits.clock
    fast = table.trials[-1]
    trials = []
    for policy, need in zip(rungs, needs):
        parts, done, spent = pilots(policy)
        remaining = budget - (clock() - table.started)
        fit = min(cap, estimate_pair(spent / done, done, fast.per_sample, fast.samples,
                                     remaining, threads))
        trials.append(Trial(policy, done, spent, fit, need))
        if fit >= need:
            return Pick(policy, trials, join(parts), fit, need, True, table.started,
                        table=table)
    return None


def play_until(play: Play, policy: str, first: int, target: int, threads: int,
               deadline: float | None, per_sample: float, clock=time.perf_counter) -> tuple:
    """Samples ``first .. target - 1`` played by ``policy`` in chunks on ``threads``
    threads, no new chunk started after ``deadline`` (``clock()`` time; None: none);
    returns the result over the samples of the chunks done without a gap from
    ``first`` (None when none was), so the answer is always over samples ``0 .. n-1``."""
    if target <= first:
        return None
    chunk = max(1, min(int(CHUNK_SECONDS / max(per_sample, 1e-9)),
                       -(-(target - first) // threads)))
    starts = list(range(first, target, chunk))
    done: dict[int, tuple] = {}
    if threads == 1:
        for s in starts:
            if deadline is not None and clock() >= deadline:
                break
            done[s] = play(policy, s, min(chunk, target - s))
    else:
        pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="tricksim-hand")
        try:
            queue = iter(starts)
            pending = {}
            for s in queue:
                pending[pool.submit(play, policy, s, min(chunk, target - s))] = s
                if len(pending) == threads:
                    break
            while pending:
                fin, _ = concurrent.futures.wait(pending,
                                                 return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in fin:
                    done[pending.pop(fut)] = fut.result()
                    if deadline is None or clock() < deadline:
                        s = next(queue, None)
                        if s is not None:
                            pending[pool.submit(play, policy, s, min(chunk, target - s))] = s
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    parts = []
    for s in starts:
        if s not in done:
            break
        parts.append(done[s])
    return join(parts) if parts else None


def play_all(play: Play, policy: str, n: int, threads: int, per_sample: float = 1e-4) -> tuple:
    """Samples ``0 .. n-1`` played by ``policy`` on ``threads`` threads, no deadline."""
    return play_until(play, policy, 0, n, threads, None, per_sample)


def run(candidates: list[str], play: Play, limits: Limits, min_samples=MIN_SAMPLES,
        row_play: Play | None = None, search=()):
    """The whole budgeted run within ``limits``: :func:`pick`, then the taken candidate
    played on to its target or the deadline.  Returns ``(pick, result, samples, seconds)``.

    ``play``'s results may be tables (each array rows x samples, the first row the
    headline answer: a hand's "policy decides") and ``row_play`` the same players on the
    first row alone.  Then, when no searching candidate (in ``search``) fits the whole
    table but one fits the first row alone (:func:`pick_row`), that one plays the first
    row (what the player itself would do: the headline answer) and the fast player
    taken for the table plays the whole table on the same samples; the result is the
    table with the first row the searching player's, the returned pick the first row's
    (``pick.table``: the table's, ``pick.table_result``: its own whole table)."""
    budget, threads, cap, clock = limits.seconds, limits.threads, limits.cap, limits.clock
    rungs = [c for c in candidates if c in search]
    if row_play is None or not rungs:
        p = pick(candidates, play, limits, min_samples)
    else:
        warm(play, candidates)
        rows = play(candidates[-1], 0, 0)[0].shape[0]
        started = clock()
        pilots = RowPilots(row_play, rows, cap, max(budget * PILOT_SHARE, 1e-3), clock)
        p = pick(candidates, play, limits, min_samples, started,
                 lambda c: pilots.table_guess(c) if c in rungs else None)
        if p.policy not in search:
            needs = _needs(candidates, min_samples, cap)
            h = pick_row(p, rungs, [needs[candidates.index(c)] for c in rungs], pilots,
                         limits)
            if h is not None:
                return _run_row(h, play, row_play, limits)
    first = p.trials[-1].samples
    rest = play_until(play, p.policy, first, p.target, threads, p.started + budget,
                      p.trials[-1].per_sample, clock)
    result = p.pilot if rest is None else join([p.pilot, rest])
    n = result[0].shape[-1]
    return p, result, n, clock() - p.started


def _run_row(h: Pick, play: Play, row_play: Play, limits: Limits):
    """:func:`run`'s split: ``h``'s player on the first row to its target or the
    deadline (the time the table's player needs for its share kept back), then the
    table's player on the whole table over exactly those samples."""
    budget, threads, clock = limits.seconds, limits.threads, limits.clock
    fast = h.table.trials[-1]
    reserve = max(0, h.target - fast.samples) * fast.per_sample / max(1.0, threads * EFFICIENCY)
    rest = play_until(row_play, h.policy, h.trials[-1].samples, h.target, threads,
                      h.started + budget - reserve, h.trials[-1].per_sample, clock)
    row = h.pilot if rest is None else join([h.pilot, rest])
    n = row[0].shape[-1]
    more = play_until(play, h.table.policy, fast.samples, n, threads, None, fast.per_sample,
                      clock)
    table = h.table.pilot if more is None else join([h.table.pilot, more])
    table = tuple(a[..., :n] for a in table)
    h.table_result = table
    return h, tuple(np.concatenate([r[:1], t[1:]], axis=0) for r, t in zip(row, table)), n, \
        clock() - h.started


def players_line(who: str, samples: int, noun: str, seconds: float, budget: float,
                 pick_: Pick, table_who: str = "", row: str = "the first row") -> list[str]:
    """The first lines of a budgeted answer: who played, how many samples in how long,
    and which stronger candidates did not fit; where the pick plays the first row alone
    (``pick_.table``, see :func:`run`), who played which (``table_who``: the table's
    players, ``row``: the first row's name) and in one line why."""
    if pick_.table is not None:
        return _split_lines(who, samples, noun, seconds, budget, pick_, table_who, row)
    lines = [f"players: {who}, {counted(samples, noun)} in {seconds:.0f} s of the "
             f"{budget:g} s budget"]
    why = []
    for t in pick_.trials[:-1]:
        why.append(f"{t.policy} would fit about {counted(t.fit, noun)} of the {t.need:,} "
                   f"it needs ({1000 * t.per_sample:.3g} ms a {noun} on one thread)")
    if why:
        lines.append("(stronger players that do not fit: " + "; ".join(why)
                     + f"; a larger --budget or --policy {pick_.trials[0].policy} for it)")
    if not pick_.fits:
        lines.append(f"(even {pick_.policy} fits fewer than {counted(pick_.need, noun)}: "
                     "the intervals are wide)")
    return lines


def _split_lines(who, samples, noun, seconds, budget, pick_: Pick, table_who, row):
    """:func:`players_line` of a first-row pick: two lines."""
    t = pick_.table
    rows = t.pilot[0].shape[0]
    table_short = "; ".join(f"{x.policy} about {counted(x.fit, noun)} of the {x.need:,}"
                            for x in t.trials[:-1])
    row_short = "".join(f"; {x.policy} not even {row} alone, about {counted(x.fit, noun)}"
                        for x in pick_.trials[:-1])
    return [f"players: {who} for {row}, {table_who} for the choice table; "
            f"{counted(samples, noun)} in {seconds:.0f} s of the {budget:g} s budget",
            f"(no searching player fits all {rows} choices ({table_short}{row_short}), so "
            f"{pick_.policy} plays {row} alone, what it would do itself, and {t.policy} every "
            f"choice on the same {noun}s; a larger --budget or --policy for one player "
            "throughout)"]


def paired_rate(strong: np.ndarray, cheap: np.ndarray) -> tuple[float, float, float, float]:
    """(difference, low, high, p) of the paired difference of two 0/1 rates on the same
    samples, ``strong - cheap``: the paired t test (the sign test where every sample
    differs by the same amount; interval and p NaN with fewer than 2 samples or where
    both agree on every sample: nothing to test)."""
    from ..statistics.stats import paired_test
    s = np.asarray(strong, np.float64)
    c = np.asarray(cheap, np.float64)
    if len(s) < 2 or np.array_equal(s, c):
        return float((s - c).mean()) if len(s) else math.nan, math.nan, math.nan, math.nan
    low, high, p = paired_test(c, s)
    if p != p:      # too few samples for the test
        return float((s - c).mean()), math.nan, math.nan, math.nan
    return float((s - c).mean()), low, high, p


def sensitivity(strong_name: str, strong_wins: np.ndarray,
                cheap: list[tuple[str, np.ndarray]], what: str, noun: str,
                subject: str) -> list[str]:
    """One line per cheaper player: its win rate and the strong one's on the same
    samples (``what``: which figure, ``noun``: deal or world, ``subject``: "this hand"),
    the paired difference with its 95% interval, and the verdict worded as evidence
    (Holm across the cheaper players)."""
    from ..statistics.stats import wilson
    from ..statistics.stats import evidence_words, format_p, holm
    if not cheap:
        return []
    k, n = int(np.sum(strong_wins)), len(strong_wins)
    s, sl, sh = wilson(k, n)
    tests = [paired_rate(strong_wins, w) for _, w in cheap]
    adj = holm([t[3] for t in tests])
    lines = []
    for (name, w), (d, lo, hi, _), p in zip(cheap, tests, adj):
        c, cl, ch = wilson(int(np.sum(w)), len(w))
        head = (f"with {name} play {100 * c:.1f}% [{100 * cl:.1f}, {100 * ch:.1f}], with "
                f"{strong_name} {100 * s:.1f}% [{100 * sl:.1f}, {100 * sh:.1f}] ({what}, "
                f"the same {counted(n, noun)})")
        if p != p:
            lines.append(head + (f": the same on every {noun} (nothing to test)"
                                 if d == 0 else ": too few to test"))
            continue
        diff = f"{100 * d:+.1f} pp [{100 * lo:+.1f}, {100 * hi:+.1f}], Holm p {format_p(p)}"
        words = evidence_words(p)
        if words == "no clear evidence":
            lines.append(f"{head}: no clear evidence that {name} play changes the answer "
                         f"({diff})")
        else:
            lines.append(f"{head}: {words} that {name} play misjudges {subject} ({diff})")
    return lines
