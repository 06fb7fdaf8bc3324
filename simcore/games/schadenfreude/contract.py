"""Schadenfreude's contract with generic code (sweeps, comparisons, fairness, plots)."""
from ...contract import Advantage, GameContract, SeatMeasure, per_seat_columns


def contract(rules) -> GameContract:
    """What generic code needs from Schadenfreude under ``rules``."""
    n = rules["players"]
    games_columns = (("index", "rounds") + tuple(f"score_{p}" for p in range(n))
                     + tuple(f"win_{p}" for p in range(n)) + tuple(f"bust_{p}" for p in range(n))
                     + ("winner", "unfinished", "first_leader"))
    return GameContract(
        game="schadenfreude", seats=n, unit="game",
        measures=(
            SeatMeasure("win", "rate", "win_rate", "win_low", "win_high",
                        per_seat_columns("win_{seat}")),
            SeatMeasure("score", "mean", "score_mean", "score_low", "score_high",
                        per_seat_columns("score_{seat}"), fair=None, unit="points"),
            SeatMeasure("bust", "rate", "bust_rate", None, None,
                        per_seat_columns("bust_{seat}")),
        ),
        wins_column="wins",
        advantages=(Advantage("first_leader_win_rate", "first_leader_advantage"),),
        metric_sections=("game",), count_metrics=("games",), mean_metrics=("mean_rounds",),
        # pimc (flat Monte Carlo over sampled worlds with heuristic playouts) wins about
        # a third of four-player games against three heuristic seats
        # (benchmarks/bench_pimc_schadenfreude.py; docs/schadenfreude.md)
        strongest_policy="pimc",
        tables={"games": games_columns})
