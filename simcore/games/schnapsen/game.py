"""Schnapsen's side of the game interface: chunks, aggregates, summaries, frames."""
import numpy as np
import pandas as pd

from ...statistics.stats import mean_ci, metric_frame, rate_ci
from ..base import Game
from .contract import ENDINGS, contract
from .engine import WRONG_CLAIM
from .play import (A_DEALER_WINS, A_DEALS, A_DEALS_SQ, A_ENDINGS, BLOCK, DEAL_COLUMNS,
                   N_DEAL_COLUMNS, SEAT_SUMS, _match_out, match_columns, play_aggregate,
                   play_batch, play_batch_w, write_row)
from .policies import POLICIES
from .rules import RULEBOOK, max_deals, rules_array

# deal-row buffer budget of one kernel call (rows of N_DEAL_COLUMNS int16)
_ROW_BUDGET = 1 << 20
_END_REASON = np.array([r for _, r, _ in ENDINGS], np.int64)
_END_POINTS = np.array([k for _, _, k in ENDINGS], np.int64)
# aggregates that are float sums in the table path (the others are integer counts)
_FLOAT_SEAT_SUMS = ("gp", "gp_sq")


def _chunk(start, flat, deals, winner, first_dealer, left) -> dict:
    """A chunk's tables from its deal rows (``flat``, the games' deals in order) and its
    games' figures (games ``start ..``)."""
    index = np.arange(start, start + len(deals), dtype=np.int64)
    nd = deals.astype(np.int64)
    starts = np.cumsum(nd) - nd
    deal_tab = {"index": np.repeat(index, nd),
                "deal": (np.arange(nd.sum()) - np.repeat(starts, nd)).astype(np.int16)}
    for i, name in enumerate(DEAL_COLUMNS):
        deal_tab[name] = flat[:, i]
    games = {"index": index, "deals": deals, "winner": winner,
             "first_dealer": first_dealer, "match_points": left}
    return {"games": games, "deals": deal_tab}


class Schnapsen(Game):
    """Schnapsen, 2 players: Austrian rules, matches from ``match_points`` down to 0."""

    name = "schnapsen"
    rulebook = RULEBOOK
    policies = POLICIES
    description = "2 players, 20 cards; 66 to claim; matches of game points down to 0"
    search_policies = ("pimc:worlds=2",)

    def seats(self, rules):
        return 2

    # ``pimc`` takes its parameters in the name (``pimc:worlds=32,goal=deal``) and is
    # named canonically (``pimc:worlds=8`` for ``pimc``); the keys are policies.PIMC_KEYS
    policy_parameter_keys = ("worlds", "goal", "marriage_claim", "stop", "talon")

    def parse_policy(self, name):
        from .policies import parse_policy
        return parse_policy(name)

    def policy_name(self, pid):
        from .policies import policy_name
        return policy_name(pid)

    def run_chunk(self, rules, policy_ids, seed, start, count, summary_only=False):
        from .policies import PIMC
        searching = bool(np.any((np.asarray(policy_ids) & 7) == PIMC))
        if summary_only and not searching:   # searching players play on the table path
            return {"aggregates": self._kernel_aggregates(rules, policy_ids, seed, start,
                                                          count)}
        md = max_deals(rules)
        ra = rules_array(rules)
        deals, winner, first_dealer, left = match_columns(count)
        searched = np.zeros(count, np.int64)
        parts = []
        step = max(1, _ROW_BUDGET // md)
        for s in range(0, count, step):
            n = min(step, count - s)
            rows = np.zeros((n, md, N_DEAL_COLUMNS), np.int16)
            if searching:
                play_batch_w(ra, policy_ids, np.uint64(seed), start + s, n, rows,
                             deals[s:s + n], winner[s:s + n], first_dealer[s:s + n],
                             left[s:s + n], searched[s:s + n])
            else:
                play_batch(ra, policy_ids, np.uint64(seed), start + s, n, rows,
                           deals[s:s + n], winner[s:s + n], first_dealer[s:s + n],
                           left[s:s + n])
            parts.append(rows[np.arange(md)[None, :] < deals[s:s + n, None]])
        flat = np.concatenate(parts) if parts else np.zeros((0, N_DEAL_COLUMNS), np.int16)
        chunk = _chunk(start, flat, deals, winner, first_dealer, left)
        if searching:       # the decisions the searching seats took (an int aggregate)
            chunk["search_decisions"] = int(searched.sum())
        return chunk

    def numba_kernels(self, rules):
        """A numba player's run (numba_play.py)."""
        from .numba_play import kernels
        return kernels(rules, _chunk)

    def played_chunk(self, rules, start, scored):
        count = len(scored)
        flat = np.zeros((sum(map(len, scored)), N_DEAL_COLUMNS), np.int16)
        deals, winner, first_dealer, left = match_columns(count)
        k = 0
        for g, states in enumerate(scored):
            for st in states:               # the kernels' own row writers
                write_row(st, flat[k])
                k += 1
            _match_out(states[-1], g, len(states), deals, winner, first_dealer, left)
        return _chunk(start, flat, deals, winner, first_dealer, left)

    def _kernel_aggregates(self, rules, policy_ids, seed, start, count):
        """``aggregate`` of the chunk's tables, summed inside the kernel without building
        them: the same keys, types and values."""
        acc = np.zeros(((count + BLOCK - 1) // BLOCK, A_ENDINGS + len(ENDINGS)), np.int64)
        play_aggregate(rules_array(rules), np.asarray(policy_ids, dtype=np.int64),
                       np.uint64(seed), start, count, max_deals(rules), _END_REASON,
                       _END_POINTS, acc)
        t = acc.sum(axis=0)
        out = {"matches": int(count)}
        seat = {name: t[A_DEALER_WINS + 1 + 2 * i:A_DEALER_WINS + 3 + 2 * i].copy()
                for i, name in enumerate(SEAT_SUMS)}
        for name in _FLOAT_SEAT_SUMS:
            seat[name] = seat[name].astype(np.float64)
        out["match_wins"] = seat["match_wins"]
        out["deals"] = np.float64(t[A_DEALS])
        out["deals_sq"] = np.float64(t[A_DEALS_SQ])
        for name in ("deal_wins", "gp", "gp_sq"):
            out[name] = seat[name]
        out["endings"] = t[A_ENDINGS:A_ENDINGS + len(ENDINGS)].astype(np.float64)
        for name in ("closes", "close_wins", "claims", "wrong_claims", "marriages",
                     "marriages_counted", "exchanges"):
            out[name] = seat[name]
        out["dealer_wins"] = int(t[A_DEALER_WINS])
        out["seat_dealer_deals"] = seat["seat_dealer_deals"]
        out["seat_dealer_wins"] = seat["seat_dealer_wins"]
        return out

    def aggregate(self, chunk, rules):
        if "aggregates" in chunk:           # a summary-only chunk: summed in the kernel
            return chunk["aggregates"]
        g = chunk["games"]
        d = chunk["deals"]
        seats = np.arange(2)
        winner = d["winner"].astype(np.int64)
        gp = d["game_points"].astype(np.int64)
        reason = d["reason"].astype(np.int64)
        won = winner[:, None] == seats
        gp_seat = np.where(won, gp[:, None], 0).astype(np.float64)
        closer = d["closer"].astype(np.int64)
        claimer = d["claimer"].astype(np.int64)
        nd = g["deals"].astype(np.float64)
        endings = np.array([((reason == r) & ((gp == k) | (k == 0))).sum()
                            for _, r, k in ENDINGS], dtype=np.float64)
        mar = np.stack([d["marriages_0"], d["marriages_1"]], axis=1).astype(np.int64)
        mc = np.stack([d["marriages_counted_0"], d["marriages_counted_1"]], axis=1)
        ex = np.stack([d["exchanges_0"], d["exchanges_1"]], axis=1).astype(np.int64)
        agg = {
            "matches": len(nd),
            "match_wins": (g["winner"][:, None] == seats).sum(axis=0),
            "deals": nd.sum(),
            "deals_sq": (nd * nd).sum(),
            "deal_wins": won.sum(axis=0),
            "gp": gp_seat.sum(axis=0),
            "gp_sq": (gp_seat * gp_seat).sum(axis=0),
            "endings": endings,
            "closes": (closer[:, None] == seats).sum(axis=0),
            "close_wins": ((closer[:, None] == seats) & won).sum(axis=0),
            "claims": (claimer[:, None] == seats).sum(axis=0),
            "wrong_claims": ((claimer[:, None] == seats)
                             & (reason == WRONG_CLAIM)[:, None]).sum(axis=0),
            "marriages": mar.sum(axis=0),
            "marriages_counted": mc.astype(np.int64).sum(axis=0),
            "exchanges": ex.sum(axis=0),
            "dealer_wins": int((winner == d["dealer"]).sum()),
            "seat_dealer_deals": (d["dealer"][:, None] == seats).sum(axis=0),
            "seat_dealer_wins": ((d["dealer"][:, None] == seats) & won).sum(axis=0),
        }
        if "search_decisions" in chunk:
            agg["search_decisions"] = chunk["search_decisions"]
        return agg

    def summarize(self, agg, rules, policies):
        matches = int(agg["matches"])
        deals = int(agg["deals"])
        rows = []
        for p, pol in enumerate(policies):
            rate, lo, hi = rate_ci(agg["match_wins"][p], matches)
            m, _, mlo, mhi = mean_ci(agg["gp"][p], agg["gp_sq"][p], deals)
            dr, dlo, dhi = rate_ci(agg["deal_wins"][p], deals)
            closes = int(agg["closes"][p])
            rows.append({
                "seat": p, "policy": pol, "matches": matches,
                "wins": int(agg["match_wins"][p]), "win_rate": rate, "win_low": lo,
                "win_high": hi, "game_points_per_deal": m, "gp_low": mlo, "gp_high": mhi,
                "deal_win_rate": dr, "deal_win_low": dlo, "deal_win_high": dhi,
                "closes_per_deal": closes / deals if deals else np.nan,
                "close_success_rate": agg["close_wins"][p] / closes if closes else np.nan,
                "claims_per_deal": agg["claims"][p] / deals if deals else np.nan,
                "wrong_claims": int(agg["wrong_claims"][p]),
                "marriages_per_deal": agg["marriages"][p] / deals if deals else np.nan,
                "marriages_counted_per_deal":
                    agg["marriages_counted"][p] / deals if deals else np.nan,
                "exchanges_per_deal": agg["exchanges"][p] / deals if deals else np.nan,
                "deal_win_rate_as_dealer": rate_ci(agg["seat_dealer_wins"][p],
                                                   agg["seat_dealer_deals"][p])[0],
            })
        seats = pd.DataFrame(rows)
        md, _, mdlo, mdhi = mean_ci(agg["deals"], agg["deals_sq"], matches)
        closes = int(np.sum(agg["closes"]))
        marriages = int(np.sum(agg["marriages"]))
        game = metric_frame([
            ("matches", matches, np.nan, np.nan),
            ("deals", deals, np.nan, np.nan),
            ("deals_per_match", md, mdlo, mdhi),
            ("dealer_deal_win_rate", *rate_ci(agg["dealer_wins"], deals)),
            ("non_dealer_deal_win_rate", *rate_ci(deals - agg["dealer_wins"], deals)),
            ("close_rate", *rate_ci(closes, deals)),
            ("close_success_rate", *rate_ci(np.sum(agg["close_wins"]), closes)),
            ("marriages_per_deal", marriages / deals if deals else np.nan, np.nan, np.nan),
            ("marriages_counted_share", *rate_ci(np.sum(agg["marriages_counted"]), marriages)),
            ("exchanges_per_deal", np.sum(agg["exchanges"]) / deals if deals else np.nan,
             np.nan, np.nan),
        ])
        ends = metric_frame([(name, *rate_ci(agg["endings"][i], deals))
                             for i, (name, _, _) in enumerate(ENDINGS)])
        return {"seats": seats, "game": game, "deal_ends": ends}

    def frames(self, chunk, rules, policies):
        g = chunk["games"]
        games = pd.DataFrame({
            "index": g["index"], "deals": g["deals"], "winner": g["winner"],
            "first_dealer": g["first_dealer"],
            "match_points_0": g["match_points"][:, 0], "match_points_1": g["match_points"][:, 1],
        })
        deals = pd.DataFrame(chunk["deals"])
        for name in ("reason",):
            deals[name] = pd.Categorical.from_codes(
                deals[name].astype(np.int64), ["claim", "wrong_claim", "failed_close",
                                               "last_trick", "resign"])
        return {"games": games, "deals": deals}

    def records(self, rules, policies, policy_ids, seed, start, count):
        """The records of matches ``start .. start+count-1`` of run ``seed`` (built in bulk
        from the parallel logging kernel)."""
        from .records import build_records
        return build_records(rules, policies, policy_ids, seed, start, count)

    def records_jsonl(self, rules, policies, policy_ids, seed, start, count,
                      script=None) -> bytes:
        """The same records as JSON Lines bytes (``json.dumps(record, separators=(",",
        ":"))`` and a newline each), written by a parallel kernel: a fast path for writers."""
        from .records import build_record_lines
        user, actions = (None, None) if script is None else (script.user, script.actions)
        return build_record_lines(rules, policies, policy_ids, seed, start, count, user,
                                  actions)

    def record(self, rules, policies, policy_ids, seed, index):
        return self.records(rules, policies, policy_ids, seed, index, 1)[0]

    def contract(self, rules):
        """What generic code needs from this game under ``rules`` (contract.py)."""
        return contract(rules)

    def engine(self, rules):
        """The per-decision Python API (api.Engine) under ``rules``."""
        from .api import Engine
        return Engine(rules)

    def replay(self, record):
        from .records import replay_record
        replay_record(record)


GAME = Schnapsen()
