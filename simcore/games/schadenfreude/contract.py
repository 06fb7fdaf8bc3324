"""Schadenfreude's contract with generic code (sweeps, comparisons, fairness, plots)."""
import numpy as np

from ...contract import Advantage, GameContract, SeatMeasure, per_seat_columns


def _reader(n: int):
    """Per-game numerators and denominators of the game section's figures."""
    def read(tables):
        g = tables["games"]
        one = np.ones(len(g))
        winner = g["winner"].to_numpy()
        busts = sum(g[f"bust_{p}"].to_numpy(np.float64) for p in range(n))
        return {"mean_rounds": (g["rounds"].to_numpy(np.float64), one),
                "no_winner_rate": ((winner < 0).astype(np.float64), one),
                "unfinished_rate": (g["unfinished"].to_numpy(np.float64), one),
                "all_bust_rate": ((busts == n).astype(np.float64), one),
                "first_leader_win_rate":
                    ((winner == g["first_leader"].to_numpy()).astype(np.float64), one)}
    return read


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
        # a budgeted answer's searching players: the default pimc, then half its worlds
        # (fits about twice the deals; not measured for strength against the default)
        search_ladder=("pimc", "pimc:worlds=32"),
        tables={"games": games_columns}, game_reader=_reader(n))
