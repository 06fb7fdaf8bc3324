"""What generic code (summaries' fairness, sweeps, comparisons, plots) needs to
know about a game, declared by the game itself instead of guessed from column
names.

A game returns one ``GameContract`` per rule set (``Game.contract(rules)``):
the number of seats, the per-seat measures (which summary columns hold them,
how to read them per game from the ``games`` table, their fair baseline and
their unit), the game-level figures judged against a baseline (first leader,
dealer), the summary sections that hold game-level figures, and the tables'
columns. Generic code reads these and nothing else about a game's shape.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

#: a measure's fair value is the mean over the seats (see SeatMeasure.fair)
SEAT_MEAN = "seat_mean"


def per_seat_columns(template: str) -> Callable:
    """A per-game reader of columns ``template.format(seat=p)`` for every seat:
    returns an (games, seats) float array."""
    def read(games, seats: int) -> np.ndarray:
        return np.stack([games[template.format(seat=p)].to_numpy(np.float64)
                         for p in range(seats)], axis=1)
    return read


def per_game_sums(games, rows, values) -> np.ndarray:
    """Sums of ``values`` (one per row of a finer table, e.g. deals, whose game is
    the ``index`` column of ``rows``) per row of ``games``: a float array with one
    value per game, 0 for a game with no such rows."""
    where = np.searchsorted(games["index"].to_numpy(), rows["index"].to_numpy())
    return np.bincount(where, weights=np.asarray(values, dtype=np.float64),
                       minlength=len(games)).astype(np.float64)


def winner_indicator(column: str = "winner") -> Callable:
    """A per-game reader turning a winner column (seat or -1) into 0/1 per seat."""
    def read(games, seats: int) -> np.ndarray:
        w = games[column].to_numpy()
        return np.stack([(w == p).astype(np.float64) for p in range(seats)], axis=1)
    return read


@dataclass(frozen=True)
class SeatMeasure:
    """One per-seat outcome of a game.

    name: short name (``win``, ``score``); kind: ``rate`` (a share of games, its
    differences in percentage points) or ``mean`` (a mean of a number, its
    differences in the game's own ``unit``); column/low/high: where the seats
    section of a summary holds it and its 95% interval (None: not in the
    summary, only per game); per_game: reads the
    per-game, per-seat values from a ``games`` table (None: not per game);
    fair: the value every seat would have if seats made no difference (None:
    no such value; ``SEAT_MEAN``: the mean over the seats of the same run,
    which is what every seat would have if seats did not matter, whatever share
    of games ends without a winner); unit: what a difference of the mean is
    counted in.
    """

    name: str
    kind: str
    column: str | None
    low: str | None = None
    high: str | None = None
    per_game: Callable | None = None
    fair: float | str | None = SEAT_MEAN
    unit: str = ""

    @property
    def is_rate(self) -> bool:
        return self.kind == "rate"

    def fair_value(self, seats) -> float | None:
        """The fair value of this measure given a summary's seats section."""
        if self.fair == SEAT_MEAN:
            return float(seats[self.column].mean())
        return self.fair


@dataclass(frozen=True)
class Advantage:
    """A game-level rate of one distinguished seat (the first leader, the dealer)
    that fairness compares with the mean seat's rate of the same measure.

    metric: the rate's name in the ``game`` section; label: how reports name the
    advantage (``first_leader_advantage``); measure: the seat measure whose mean
    over the seats is what an average seat has (the baseline).
    """

    metric: str
    label: str
    measure: str = "win"


@dataclass(frozen=True)
class GameContract:
    """What generic code needs from a game under one rule set."""

    game: str
    seats: int
    #: what one row of the ``games`` table is ("game", or "match" in Schnapsen)
    unit: str
    #: per-seat measures; the first is the one seat fairness is judged by
    measures: tuple[SeatMeasure, ...]
    #: seats-section column with each seat's win count (the equal-wins test), or None
    wins_column: str | None = None
    #: a zero-sum per-seat mean (every seat's fair value is 0) whose equality across
    #: seats is tested where the game has no wins per seat (Wendish's score), or None
    equal_means: str | None = None
    #: distinguished-seat rates compared with the average seat
    advantages: tuple[Advantage, ...] = ()
    #: summary sections holding game-level figures (frames of metric, value, low, high)
    metric_sections: tuple[str, ...] = ("game",)
    #: game-level metrics that are counts, not figures to plot or compare
    count_metrics: tuple[str, ...] = ("games",)
    #: game-level figures that are means (their differences in their own unit);
    #: every other figure of the metric sections is a rate (differences in pp)
    mean_metrics: tuple[str, ...] = ()
    #: the strongest built-in player under these rules: the default bots of
    #: ``tricksim play``
    strongest_policy: str = "heuristic"
    #: the searching players a budgeted answer (``hand``, ``analyse`` without
    #: ``--policy``) tries, strongest first (usually ``strongest_policy``, then cheaper
    #: settings of it, which fit larger samples in the same time); ``expert`` and
    #: ``analysis_policy`` follow them (``simcore.analysis.budget.ladder``); these need
    #: ``simcore.analysis.budget.MIN_SEARCH_SAMPLES`` samples, the others ``MIN_SAMPLES``.
    #: Empty: ``strongest_policy`` alone, needing ``MIN_SAMPLES``
    search_ladder: tuple[str, ...] = ()
    #: the default player of ``tricksim hand`` and ``tricksim analyse``, which play
    #: thousands of deals or worlds per answer: the strongest player that does that in
    #: seconds (a searching ``strongest_policy`` takes 1-65 ms a decision, hours for a
    #: default ``hand``; users ask for it with ``--policy``)
    analysis_policy: str = "heuristic"
    #: the tables a chunk returns and their columns (per-seat columns with their seat)
    tables: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: per-game readers of the game-level figures: a callable taking a run's tables
    #: (``{"games": frame, ...}``) and returning ``{metric: (numerator, denominator)}``,
    #: two float arrays with one value per row of ``games`` (per game, or per match),
    #: such that the figure is ``numerator.sum() / denominator.sum()``: a per-game mean
    #: has denominator 1, a deal-level rate counts the game's deals in the denominator,
    #: a rate among some deals (a contract's win rate) counts those deals.  Comparisons
    #: pair these game by game (see ``simcore.experiments.sweep.paired_ratio``).  None: none declared
    game_reader: Callable | None = None

    @property
    def primary(self) -> SeatMeasure:
        """The per-seat measure fairness is judged by."""
        return self.measures[0]

    def measure(self, name: str) -> SeatMeasure:
        """The per-seat measure called ``name``."""
        for m in self.measures:
            if m.name == name:
                return m
        raise KeyError(name)

    def game_figures(self, tables) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per-game numerators and denominators of the game-level figures (see
        ``game_reader``); empty when the game declares no reader."""
        if self.game_reader is None:
            return {}
        return self.game_reader(tables)

    def per_game(self, games) -> dict[str, np.ndarray]:
        """Per-game, per-seat values of every measure readable from ``games``."""
        return {m.name: m.per_game(games, self.seats) for m in self.measures
                if m.per_game is not None}
