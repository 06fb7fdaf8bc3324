"""Wendish Schafkopf's contract with generic code (sweeps, comparisons, fairness, plots)."""
import numpy as np

from ...contract import GameContract, SeatMeasure, per_game_sums, per_seat_columns
from .engine import CONTRACTS
from .rules import is_officers, seats_of


def _reader(officers: bool):
    """Per-game numerators and denominators of the game section's and the contracts'
    figures (deal-level figures as sums over each game's deals, paired by game)."""
    def read(tables):
        g, d = tables["games"], tables["deals"]

        def per_game(values):
            return per_game_sums(g, d, values)

        deals = g["deals"].to_numpy(np.float64)
        winner = d["winner"].to_numpy()
        out = {}
        if officers:
            out["draw_rate"] = (per_game(winner < 0), deals)
        else:
            out["old_ones_one_hand_rate"] = (per_game(d["old_ones_one_hand"].to_numpy()),
                                             deals)
        contract = d["contract"].to_numpy()
        cp = d["card_points_0"].to_numpy(np.float64)
        for name in CONTRACTS:
            sel = contract == name
            count = per_game(sel)
            out[f"{name}_share"] = (count, deals)
            out[f"{name}_declarer_win_rate"] = (per_game(sel & (winner == 0)), count)
            out[f"{name}_schneider_rate"] = (per_game(sel & d["schneider"].to_numpy()), count)
            out[f"{name}_schwarz_rate"] = (per_game(sel & d["schwarz"].to_numpy()), count)
            out[f"{name}_declarer_card_points"] = (per_game(np.where(sel, cp, 0.0)), count)
        return out
    return read


#: what a Wendish score counts: the tariff's units (``base``, ``solo_base``, ``schneider``,
#: ``schwarz``), not card points and not Schnapsen's game points
SCORE_UNIT = "tariff units"


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
                        unit=SCORE_UNIT),
            SeatMeasure("score", "mean", "score_per_game", "game_score_low", "game_score_high",
                        per_seat_columns("score_{seat}"), unit=SCORE_UNIT),
            SeatMeasure("deal_win", "rate", "deal_win_rate", "deal_win_low", "deal_win_high"),
        ),
        wins_column=None, equal_means="score", advantages=(),
        metric_sections=("game",), count_metrics=("games", "deals"),
        mean_metrics=tuple(f"{c}_declarer_card_points" for c in CONTRACTS),
        tables={"games": ("index", "deals") + scores, "deals": deal_columns},
        game_reader=_reader(is_officers(rules)),
        strongest_policy=SEARCH_LADDERS.get(rules["variant"], ("heuristic",))[0],
        search_ladder=SEARCH_LADDERS.get(rules["variant"], ()))


#: the searching players a budgeted answer (``hand``, ``analyse``) tries per variant,
#: strongest first; the first is the variant's strongest player.  pimc beat the heuristic
#: on paired deals in these variants (results/benchmarks/pimc_wendish_*.json); Officers'
#: was measured with 4 worlds searching every card (tricks=16), which keeps its decisions
#: (16 tricks a deal) near the others' time; three_sharp is not measured.  The cheaper
#: settings search only the last tricks (the expert's card before).  In four-player
#: Wendish the default ``pimc`` itself searches the last 6 of 8 tricks (0.39 ms a card,
#: level with the full search on 400 paired deals of two seeds), so the ladder is that
#: player alone: a cheaper rung would cut worlds, which costs strength (the
#: README's table of tricks=).  Officers' cheaper rung searches the last 12 of its 16
#: tricks: with the Officers' expert of 4 December before the search, on the hand
#: benchmark's Officers' position (benchmarks/bench_hand_budget.py, wendish-officers) it
#: gives P(win) 75.6% [72.8, 78.2] on 1,000 deals of seed 1001 against the full search's
#: 73.2% [70.4, 75.9], at 37 ms of CPU a deal against about a second (the last 14: 72.0%
#: [62.5, 79.9] on 100 deals, 193 ms a deal); with the older expert the partial searches
#: had answered 61 to 63% (results/benchmarks/officers_ladder_pilot.json)
SEARCH_LADDERS = {
    "four": ("pimc",),
    "three": ("pimc", "pimc:worlds=16,tricks=6", "pimc:worlds=8,tricks=6"),
    "officers": ("pimc:worlds=4,tricks=16", "pimc:worlds=4,tricks=12"),
}
