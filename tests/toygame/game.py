"""Toy's batch side: chunks, aggregates, summaries, frames, records and its contract."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd

from simcore.contract import Advantage, GameContract, SeatMeasure, per_seat_columns
from simcore.games.base import Game
from simcore.statistics.stats import mean_ci, metric_frame, rate_ci

from .engine import POLICIES, Engine, replay
from .rules import RULEBOOK


class Toy(Game):
    """Toy: 2-3 players, 12 cards, follow suit, the highest of the suit led wins."""

    name = "toygame"
    rulebook = RULEBOOK
    policies = POLICIES
    description = "test-only: 2-3 players, 12 cards, a point a trick"

    def seats(self, rules):
        return rules["players"]

    def run_chunk(self, rules, policy_ids, seed, start, count, summary_only=False):
        n = self.seats(rules)
        names = [POLICIES[i] for i in policy_ids]
        eng = Engine(rules)
        scores = np.zeros((count, n), np.int32)
        winner = np.zeros(count, np.int8)
        first = np.zeros(count, np.int8)
        for i in range(count):
            result = eng.play(seed, start + i, names)
            scores[i] = result["result"]["points"]
            winner[i] = result["result"]["winner"]
            first[i] = result["deals"][0]["start"]["leader"]
        chunk = {"games": {"index": np.arange(start, start + count, dtype=np.int64),
                           "scores": scores, "winner": winner, "first_leader": first}}
        return {"aggregates": self.aggregate(chunk, rules)} if summary_only else chunk

    def aggregate(self, chunk, rules):
        if "aggregates" in chunk:
            return chunk["aggregates"]
        c = chunk["games"]
        seats = np.arange(self.seats(rules))
        scores = c["scores"].astype(np.float64)
        winner = c["winner"].astype(np.int64)
        return {"games": len(winner), "wins": (winner[:, None] == seats).sum(axis=0),
                "score": scores.sum(axis=0), "score_sq": (scores * scores).sum(axis=0),
                "no_winner": int((winner < 0).sum()),
                "first_leader_wins": int((winner == c["first_leader"]).sum())}

    def summarize(self, agg, rules, policies):
        games = int(agg["games"])
        rows = []
        for p, pol in enumerate(policies):
            rate, lo, hi = rate_ci(agg["wins"][p], games)
            mean, sd, mlo, mhi = mean_ci(agg["score"][p], agg["score_sq"][p], games)
            rows.append({"seat": p, "policy": pol, "games": games, "wins": int(agg["wins"][p]),
                         "win_rate": rate, "win_low": lo, "win_high": hi, "score_mean": mean,
                         "score_sd": sd, "score_low": mlo, "score_high": mhi})
        game = metric_frame([("games", games, np.nan, np.nan),
                             ("no_winner_rate", *rate_ci(agg["no_winner"], games)),
                             ("first_leader_win_rate",
                              *rate_ci(agg["first_leader_wins"], games))])
        return {"seats": pd.DataFrame(rows), "game": game}

    def frames(self, chunk, rules, policies):
        c = chunk["games"]
        n = self.seats(rules)
        data = {"index": c["index"]}
        data.update({f"score_{p}": c["scores"][:, p] for p in range(n)})
        data.update({f"win_{p}": c["winner"] == p for p in range(n)})
        data.update({"winner": c["winner"], "first_leader": c["first_leader"]})
        return {"games": pd.DataFrame(data)}

    def contract(self, rules):
        n = self.seats(rules)

        def read(tables):
            g = tables["games"]
            one = np.ones(len(g))
            w = g["winner"].to_numpy()
            return {"no_winner_rate": ((w < 0).astype(np.float64), one),
                    "first_leader_win_rate":
                        ((w == g["first_leader"].to_numpy()).astype(np.float64), one)}
        columns = (("index",) + tuple(f"score_{p}" for p in range(n))
                   + tuple(f"win_{p}" for p in range(n)) + ("winner", "first_leader"))
        return GameContract(
            game="toygame", seats=n, unit="game",
            measures=(SeatMeasure("win", "rate", "win_rate", "win_low", "win_high",
                                  per_seat_columns("win_{seat}")),
                      SeatMeasure("score", "mean", "score_mean", "score_low", "score_high",
                                  per_seat_columns("score_{seat}"), unit="points")),
            wins_column="wins",
            advantages=(Advantage("first_leader_win_rate", "first_leader_advantage"),),
            tables={"games": columns}, game_reader=read)

    def engine(self, rules):
        return Engine(rules)

    def records(self, rules, policies, policy_ids, seed, start, count):
        eng = Engine(rules)
        return [eng.play(seed, i, list(policies)) for i in range(start, start + count)]

    def records_jsonl(self, rules, policies, policy_ids, seed, start, count) -> bytes:
        return b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n"
                        for r in self.records(rules, policies, policy_ids, seed, start, count))

    def record(self, rules, policies, policy_ids, seed, index):
        return self.records(rules, policies, policy_ids, seed, index, 1)[0]

    def replay(self, record):
        replay(record)


GAME = Toy()
