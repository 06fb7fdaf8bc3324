"""Schadenfreude's side of the game interface: chunks, aggregates, summaries, frames."""
import numpy as np
import pandas as pd

from ...statistics.stats import mean_ci, metric_frame, rate_ci
from ..base import Game
from .play import (A_ALL_BUST, A_FIRST_LEADER_WINS, A_NO_WINNER, A_ROUNDS, A_ROUNDS_SQ,
                   A_UNFINISHED, A_WINS, AGG_BLOCK, agg_width, drive, parallel,
                   play_aggregate, play_aggregate_rows, play_batch, play_batch_search,
                   play_rows)
from .policies import POLICIES
from .rules import RULEBOOK, rules_array


def _games_columns(count: int, n: int) -> dict:
    """The games table's columns for ``count`` games of ``n`` seats, zeros, in the types
    the batch loops write (play.py's ``_write_game``)."""
    return {
        "rounds": np.zeros(count, np.int32),
        "scores": np.zeros((count, n), np.int32),
        "winner": np.zeros(count, np.int8),
        "bust": np.zeros(count, np.uint8),
        "unfinished": np.zeros(count, np.bool_),
        "first_leader": np.zeros(count, np.int8),
    }


class Schadenfreude(Game):
    """Schadenfreude, 3 to 5 players: second-highest wins, pairs cancel, bust above the limit."""

    name = "schadenfreude"
    rulebook = RULEBOOK
    policies = POLICIES
    description = "3-5 players; the second-highest follower wins; bust above the limit"
    search_policies = ("pimc:worlds=2", "pimc:worlds=2,depth=1,playout=0",
                       "pimc:worlds=9,cards=12,stop=5")

    def seats(self, rules):
        return rules["players"]

    # ``pimc`` takes its parameters in the name (``pimc:worlds=16,depth=2``) and is named
    # canonically (``pimc:worlds=8,depth=1``)
    policy_parameter_keys = ("worlds", "depth", "playout", "cards", "stop")

    def parse_policy(self, name):
        from .policies import parse_policy
        return parse_policy(name)

    def policy_name(self, pid):
        from .policies import policy_name
        return policy_name(pid)

    def run_chunk(self, rules, policy_ids, seed, start, count, summary_only=False):
        from .policies import uses_search
        n = self.seats(rules)
        if uses_search(policy_ids):        # searching players play on the table path
            return self._search_chunk(rules, policy_ids, seed, start, count)
        if summary_only:
            return {"aggregates": self._kernel_aggregates(rules, policy_ids, seed, start,
                                                          count)}
        cols = _games_columns(count, n)
        drive(play_batch, play_rows,
              (rules_array(rules), np.asarray(policy_ids, dtype=np.int64), np.uint64(seed),
               start), count, cols["rounds"], cols["scores"], cols["winner"], cols["bust"],
              cols["unfinished"], cols["first_leader"])
        cols["index"] = np.arange(start, start + count, dtype=np.int64)
        return {"games": cols}

    def numba_kernels(self, rules):
        """A numba player's run (numba_play.py)."""
        from .numba_play import kernels
        return kernels(rules, lambda start, finals: self.final_tables(rules, start, finals))

    def played_chunk(self, rules, start, scored):
        finals = np.array([states[-1] for states in scored], np.int64).reshape(len(scored), -1)
        return self.final_tables(rules, start, finals)

    def final_tables(self, rules, start, finals):
        """``run_chunk``'s games table of games ``start ..`` from their final states
        (``finals[g]``: game ``start + g``'s)."""
        from .engine import (S_BUST, S_FIRST_LEADER, S_ROUND, S_SCORE, S_UNFINISHED,
                             S_WINNER)
        n = self.seats(rules)
        return {"games": {
            "rounds": finals[:, S_ROUND].astype(np.int32),
            "scores": finals[:, S_SCORE:S_SCORE + n].astype(np.int32),
            "winner": finals[:, S_WINNER].astype(np.int8),
            "bust": finals[:, S_BUST].astype(np.uint8),
            "unfinished": finals[:, S_UNFINISHED] != 0,
            "first_leader": finals[:, S_FIRST_LEADER].astype(np.int8),
            "index": np.arange(start, start + len(finals), dtype=np.int64)}}

    def _search_chunk(self, rules, policy_ids, seed, start, count):
        """``run_chunk``'s games table played with searching players, and how many
        decisions they took (``search_decisions``)."""
        n = self.seats(rules)
        cols = _games_columns(count, n)
        decisions = np.zeros(count, np.int64)
        # one game is slow enough to be worth a thread of its own (and the run's warm-up
        # call of one game compiles this same kernel)
        play_batch_search(rules_array(rules), np.asarray(policy_ids, dtype=np.int64), np.uint64(seed),
               start, count, cols["rounds"], cols["scores"], cols["winner"], cols["bust"],
               cols["unfinished"], cols["first_leader"], decisions)
        cols["index"] = np.arange(start, start + count, dtype=np.int64)
        return {"games": cols, "search_decisions": int(decisions.sum())}

    def _kernel_aggregates(self, rules, policy_ids, seed, start, count):
        """``aggregate`` of the chunk's games table, summed inside the kernel without
        building the table: the same keys, types and values."""
        n = self.seats(rules)
        acc = np.zeros(((count + AGG_BLOCK - 1) // AGG_BLOCK if parallel(count) else 1,
                        agg_width(n)),
                       np.int64)
        drive(play_aggregate, play_aggregate_rows,
              (rules_array(rules), np.asarray(policy_ids, dtype=np.int64), np.uint64(seed),
               start), count, acc)
        t = acc.sum(axis=0)
        w = A_WINS
        return {
            "games": int(count),
            "rounds": np.float64(t[A_ROUNDS]),
            "rounds_sq": np.float64(t[A_ROUNDS_SQ]),
            "wins": t[w:w + n].copy(),
            "busts": t[w + n:w + 2 * n].copy(),
            "score": t[w + 2 * n:w + 3 * n].astype(np.float64),
            "score_sq": t[w + 3 * n:w + 4 * n].astype(np.float64),
            "no_winner": int(t[A_NO_WINNER]),
            "unfinished": int(t[A_UNFINISHED]),
            "all_bust": int(t[A_ALL_BUST]),
            "first_leader_wins": int(t[A_FIRST_LEADER_WINS]),
        }

    def aggregate(self, chunk, rules):
        if "aggregates" in chunk:           # a summary-only chunk: summed in the kernel
            return chunk["aggregates"]
        c = chunk["games"]
        n = self.seats(rules)
        seats = np.arange(n)
        winner = c["winner"].astype(np.int64)
        bust = (c["bust"][:, None].astype(np.int64) >> seats) & 1
        scores = c["scores"].astype(np.float64)
        rounds = c["rounds"].astype(np.float64)
        out = {
            "games": len(winner),
            "rounds": rounds.sum(),
            "rounds_sq": (rounds * rounds).sum(),
            "wins": (winner[:, None] == seats).sum(axis=0),
            "busts": bust.sum(axis=0),
            "score": scores.sum(axis=0),
            "score_sq": (scores * scores).sum(axis=0),
            "no_winner": int((winner < 0).sum()),
            "unfinished": int(c["unfinished"].sum()),
            "all_bust": int((bust.sum(axis=1) == n).sum()),
            "first_leader_wins": int((winner == c["first_leader"]).sum()),
        }
        if "search_decisions" in chunk:
            out["search_decisions"] = int(chunk["search_decisions"])
        return out

    def summarize(self, agg, rules, policies):
        games = int(agg["games"])
        rows = []
        for p, pol in enumerate(policies):
            rate, lo, hi = rate_ci(agg["wins"][p], games)
            mean, sd, mlo, mhi = mean_ci(agg["score"][p], agg["score_sq"][p], games)
            rows.append({"seat": p, "policy": pol, "games": games, "wins": int(agg["wins"][p]),
                         "win_rate": rate, "win_low": lo, "win_high": hi,
                         "score_mean": mean, "score_sd": sd, "score_low": mlo,
                         "score_high": mhi, "bust_rate": float(agg["busts"][p]) / games})
        seats = pd.DataFrame(rows)
        mr, _, rlo, rhi = mean_ci(agg["rounds"], agg["rounds_sq"], games)
        game = metric_frame([
            ("games", games, np.nan, np.nan),
            ("mean_rounds", mr, rlo, rhi),
            ("no_winner_rate", *rate_ci(agg["no_winner"], games)),
            ("unfinished_rate", *rate_ci(agg["unfinished"], games)),
            ("all_bust_rate", *rate_ci(agg["all_bust"], games)),
            ("first_leader_win_rate", *rate_ci(agg["first_leader_wins"], games)),
        ])
        return {"seats": seats, "game": game}

    def frames(self, chunk, rules, policies):
        c = chunk["games"]
        n = self.seats(rules)
        data = {"index": c["index"], "rounds": c["rounds"]}
        for p in range(n):
            data[f"score_{p}"] = c["scores"][:, p]
        for p in range(n):
            data[f"win_{p}"] = c["winner"] == p
        for p in range(n):
            data[f"bust_{p}"] = ((c["bust"] >> p) & 1).astype(bool)
        data["winner"] = c["winner"]
        data["unfinished"] = c["unfinished"]
        data["first_leader"] = c["first_leader"]
        return {"games": pd.DataFrame(data)}

    def records(self, rules, names, ids, seed, start, count):
        """The records of games ``start .. start+count-1`` of run ``seed`` (list of dicts)."""
        from .records import build_records
        return build_records(rules, names, ids, seed, start, count)

    def records_jsonl(self, rules, names, ids, seed, start, count, script=None) -> bytes:
        """The same records as JSON Lines bytes, each line exactly
        ``json.dumps(record, separators=(",", ":"))`` (the fast way to write them)."""
        from .records import records_jsonl
        return records_jsonl(rules, names, ids, seed, start, count, script)

    def record(self, rules, policies, policy_ids, seed, index):
        return self.records(rules, policies, policy_ids, seed, index, 1)[0]

    def replay(self, record):
        from .records import replay_record
        replay_record(record)

    def contract(self, rules):
        """What generic code needs from this game under ``rules`` (contract.py)."""
        from .contract import contract
        return contract(rules)

    def engine(self, rules):
        """The per-decision Python API (api.Engine) for ``rules``."""
        from .api import Engine
        return Engine(rules)


GAME = Schadenfreude()
