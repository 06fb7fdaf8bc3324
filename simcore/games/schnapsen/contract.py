"""Schnapsen's contract with generic code (sweeps, comparisons, fairness, plots)."""
import numpy as np

from ...contract import (Advantage, GameContract, SeatMeasure, per_game_sums,
                         per_seat_columns, winner_indicator)
from .engine import CLAIM, FAILED_CLOSE, LAST_TRICK, RESIGN, WRONG_CLAIM

# how deals end, as summary rows: (metric, reason, game points or 0 for any)
ENDINGS = (("claim_1", CLAIM, 1), ("claim_2", CLAIM, 2), ("claim_3", CLAIM, 3),
           ("wrong_claim", WRONG_CLAIM, 0), ("failed_close", FAILED_CLOSE, 0),
           ("last_trick", LAST_TRICK, 0), ("resign", RESIGN, 0))


def _read(tables):
    """Per-match numerators and denominators of the game and deal_ends figures
    (deal-level figures as sums over each match's deals, so that pairing is by match)."""
    g, d = tables["games"], tables["deals"]

    def per_match(values):
        return per_game_sums(g, d, values)

    deals = g["deals"].to_numpy(np.float64)
    winner = d["winner"].to_numpy()
    closer = d["closer"].to_numpy()
    gp = d["game_points"].to_numpy()
    reason = d["reason"].cat.codes.to_numpy() if hasattr(d["reason"], "cat") \
        else d["reason"].to_numpy()
    dealer_wins = per_match(winner == d["dealer"].to_numpy())
    closes = per_match(closer >= 0)
    marriages = per_match(d["marriages_0"].to_numpy(np.float64)
                          + d["marriages_1"].to_numpy(np.float64))
    out = {
        "deals_per_match": (deals, np.ones(len(g))),
        "dealer_deal_win_rate": (dealer_wins, deals),
        "non_dealer_deal_win_rate": (deals - dealer_wins, deals),
        "close_rate": (closes, deals),
        "close_success_rate": (per_match((closer >= 0) & (closer == winner)), closes),
        "marriages_per_deal": (marriages, deals),
        "marriages_counted_share": (per_match(d["marriages_counted_0"].to_numpy(np.float64)
                                              + d["marriages_counted_1"].to_numpy(np.float64)),
                                    marriages),
        "exchanges_per_deal": (per_match(d["exchanges_0"].to_numpy(np.float64)
                                         + d["exchanges_1"].to_numpy(np.float64)), deals),
    }
    for name, r, k in ENDINGS:
        out[name] = (per_match((reason == r) & ((gp == k) | (k == 0))), deals)
    return out


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
        # a budgeted answer's searching players: the default pimc, then half its worlds,
        # then half its worlds searching only from 4 talon cards on (cheaper settings
        # fit more deals; not measured for strength against the default)
        search_ladder=("pimc", "pimc:worlds=4", "pimc:worlds=4,talon=4"),
        tables={"games": ("index", "deals", "winner", "first_dealer", "match_points_0",
                          "match_points_1"),
                "deals": deal_columns}, game_reader=_read)
