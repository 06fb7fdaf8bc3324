"""Schnapsen's contract with generic code (sweeps, comparisons, fairness, plots)."""
from ...contract import (Advantage, GameContract, SeatMeasure, per_seat_columns,
                         winner_indicator)


def contract(rules) -> GameContract:
    """What generic code needs from Schnapsen under ``rules``."""
    deal_columns = ("index", "deal", "dealer", "winner", "game_points", "reason",
                    "card_points_0", "card_points_1", "tricks_0", "tricks_1", "closer",
                    "marriages_0", "marriages_1", "marriages_counted_0", "marriages_counted_1",
                    "exchanges_0", "exchanges_1", "claimer", "match_points_0", "match_points_1")
    return GameContract(
        game="schnapsen", seats=2, unit="match",
        measures=(
            SeatMeasure("win", "rate", "win_rate", "win_low", "win_high",
                        winner_indicator("winner")),
            SeatMeasure("game_points_per_deal", "mean", "game_points_per_deal", "gp_low",
                        "gp_high", unit="game points"),
            SeatMeasure("deal_win", "rate", "deal_win_rate", "deal_win_low", "deal_win_high"),
            SeatMeasure("match_points_left", "mean", None, None, None,
                        per_seat_columns("match_points_{seat}"), fair=None,
                        unit="match points"),
        ),
        wins_column="wins",
        advantages=(Advantage("dealer_deal_win_rate", "dealer_advantage", "deal_win"),),
        metric_sections=("game", "deal_ends"), count_metrics=("matches", "deals"),
        mean_metrics=("deals_per_match", "marriages_per_deal", "exchanges_per_deal"),
        # pimc (its default parameters) beats the heuristic on paired matches (docs/schnapsen.md)
        strongest_policy="pimc",
        tables={"games": ("index", "deals", "winner", "first_dealer", "match_points_0",
                          "match_points_1"),
                "deals": deal_columns})
