"""Wendish Schafkopf's contract with generic code (sweeps, comparisons, fairness, plots)."""
from ...contract import GameContract, SeatMeasure, per_seat_columns
from .engine import CONTRACTS
from .rules import seats_of


def contract(rules) -> GameContract:
    """What generic code needs from Wendish Schafkopf under ``rules``."""
    n = seats_of(rules)
    scores = tuple(f"score_{p}" for p in range(n))
    deal_columns = ("index", "deal", "dealer", "contract", "declarer", "trump", "team_0",
                    "card_points_0", "card_points_1", "winner", "schneider", "schwarz",
                    "old_ones_one_hand", "tricks_0", "called", "taker") + scores
    return GameContract(
        game="wendish", seats=n, unit="game",
        measures=(
            SeatMeasure("score_per_deal", "mean", "score_per_deal", "score_low", "score_high",
                        unit="game points"),
            SeatMeasure("score", "mean", "score_per_game", "game_score_low", "game_score_high",
                        per_seat_columns("score_{seat}"), unit="game points"),
            SeatMeasure("deal_win", "rate", "deal_win_rate", "deal_win_low", "deal_win_high"),
        ),
        wins_column=None, equal_means="score", advantages=(),
        metric_sections=("game",), count_metrics=("games", "deals"),
        mean_metrics=tuple(f"{c}_declarer_card_points" for c in CONTRACTS),
        tables={"games": ("index", "deals") + scores, "deals": deal_columns},
        # pimc beat the heuristic on paired deals in these variants (results/benchmarks/
        # pimc_wendish_*.json); elsewhere it is not measured yet
        strongest_policy="pimc" if rules["variant"] in ("four", "three") else "heuristic")
