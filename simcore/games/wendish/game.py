"""Wendish Schafkopf's side of the game interface: chunks, aggregates, summaries, frames."""
import numpy as np
import pandas as pd

from ...statistics.stats import mean_ci, metric_frame, rate_ci
from ..base import Game
from .cards import N_CARDS, SUITS, card_name
from .engine import CONTRACTS, NORMAL
from .play import (D_CALLED, D_CONTRACT, D_CP0, D_CP1, D_DEALER, D_DECLARER, D_FIELDS,
                   D_OLD_ONES, D_SCHNEIDER, D_SCHWARZ, D_SCORE, D_TAKER, D_TEAM0, D_TRICKS0,
                   D_TRUMP, D_WINNER, play_batch, write_row)
from .play import (A_CONTRACTS, A_DRAWS, A_OLD_ONES, A_SEATS, AGG_BLOCK, CONTRACT_SUMS,
                   SEAT_SUMS, agg_width, play_aggregate)
from .policies import POLICIES
from .rules import RULEBOOK, is_officers, rules_array, seats_of


#: the deals table's column names where they differ from the chunk's keys: one
#: naming scheme across games (``card_points_0``, as Schnapsen), see docs/data.md
_DEAL_COLUMN_NAMES = {"team0": "team_0", "card_points0": "card_points_0",
                      "card_points1": "card_points_1", "tricks0": "tricks_0"}
#: the ``called`` column by the kernels' code: a card's name (``QC``), ``first_trick``
#: (code -2, index -2 here) for a wedding on the first trick, empty (code -1) for none
_CALLED_NAMES = np.array([card_name(c) for c in range(N_CARDS)] + ["first_trick", ""],
                         dtype=object)


class Wendish(Game):
    """Wendish Schafkopf: 4 players (or Dreiwendsch for 3, Officers' Schafkopf for 2)."""

    name = "wendish"
    rulebook = RULEBOOK
    policies = POLICIES
    description = ("Wendish Schafkopf: fixed trumps, the Old Ones' partnership, weddings and "
                   "solos; variants three, three_sharp, officers")
    search_policies = ("pimc:worlds=1",)

    def seats(self, rules):
        return seats_of(rules)

    # ``pimc`` takes its parameters in the name (``pimc:worlds=16,contracts=search``) and
    # is named canonically (``pimc:worlds=8`` for ``pimc``)
    policy_parameter_keys = ("worlds", "contracts", "cworlds", "tricks", "stop")

    def parse_policy(self, name):
        from .pimc import parse_policy
        return parse_policy(name)

    def policy_name(self, pid):
        from .pimc import policy_name
        return policy_name(pid)

    def run_chunk(self, rules, policy_ids, seed, start, count, summary_only=False):
        from .pimc import uses_search
        if summary_only and not uses_search(policy_ids):  # searchers take the table path
            return {"aggregates": self._kernel_aggregates(rules, policy_ids, seed, start,
                                                          count)}
        dout = np.zeros((count * rules["deals"], D_FIELDS), dtype=np.int64)
        sdec = np.zeros(count, dtype=np.int64)
        play_batch(rules_array(rules), np.asarray(policy_ids, dtype=np.int64),
                   np.uint64(seed), start, count, dout, sdec)
        return self._chunk(rules, start, count, dout, sdec)

    def numba_kernels(self, rules):
        """A numba player's run (numba_play.py)."""
        from .numba_play import kernels
        return kernels(rules, self._chunk)

    def played_chunk(self, rules, start, scored):
        states = [st for game in scored for st in game]
        dout = np.zeros((len(states), D_FIELDS), dtype=np.int64)
        for k, st in enumerate(states):     # the kernels' own row writer
            write_row(st, dout[k])
        return self._chunk(rules, start, len(scored), dout, np.zeros(len(scored), np.int64))

    def _chunk(self, rules, start, count, dout, sdec):
        """A chunk's tables from its deal rows (``dout``, ``rules["deals"]`` a game) and
        the searching players' decisions per game (``sdec``)."""
        n = self.seats(rules)
        nd = rules["deals"]
        scores = dout[:, D_SCORE:D_SCORE + n]
        games = {
            "index": np.arange(start, start + count, dtype=np.int64),
            "scores": scores.reshape(count, nd, n).sum(axis=1),
            "search_decisions": sdec,
        }
        deals = {
            "index": np.repeat(games["index"], nd),
            "deal": np.tile(np.arange(nd, dtype=np.int64), count),
        }
        cols = {"dealer": D_DEALER, "contract": D_CONTRACT, "declarer": D_DECLARER,
                "trump": D_TRUMP, "team0": D_TEAM0, "card_points0": D_CP0,
                "card_points1": D_CP1, "winner": D_WINNER, "schneider": D_SCHNEIDER,
                "schwarz": D_SCHWARZ, "old_ones_one_hand": D_OLD_ONES, "tricks0": D_TRICKS0,
                "called": D_CALLED, "taker": D_TAKER}
        for name, col in cols.items():
            deals[name] = dout[:, col]
        deals["scores"] = scores
        return {"games": games, "deals": deals}

    def _kernel_aggregates(self, rules, policy_ids, seed, start, count):
        """``aggregate`` of the chunk's tables, summed inside the kernel without building
        them: the same keys, types and values."""
        n = self.seats(rules)
        k = len(CONTRACTS)
        acc = np.zeros(((count + AGG_BLOCK - 1) // AGG_BLOCK, agg_width(k)), np.int64)
        play_aggregate(rules_array(rules), np.asarray(policy_ids, dtype=np.int64),
                       np.uint64(seed), start, count, NORMAL, k, acc)
        t = acc.sum(axis=0)
        seat = {name: t[A_SEATS + 4 * i:A_SEATS + 4 * i + n].copy()
                for i, name in enumerate(SEAT_SUMS)}
        con = {name: t[A_CONTRACTS + k * i:A_CONTRACTS + k * (i + 1)].copy()
               for i, name in enumerate(CONTRACT_SUMS)}
        floats = ("game_score", "game_score_sq", "deal_score", "deal_score_sq", "c_cp",
                  "c_cp_sq")
        out = {"games": int(count), "deals": int(count * rules["deals"])}
        for name in SEAT_SUMS:
            out[name] = seat[name].astype(np.float64) if name in floats else seat[name]
        out["old_ones_one_hand"] = int(t[A_OLD_ONES])
        out["draws"] = int(t[A_DRAWS])
        for name in CONTRACT_SUMS:
            out[name] = con[name].astype(np.float64) if name in floats else con[name]
        return out

    def aggregate(self, chunk, rules):
        if "aggregates" in chunk:           # a summary-only chunk: summed in the kernel
            return chunk["aggregates"]
        n = self.seats(rules)
        g = chunk["games"]
        d = chunk["deals"]
        gs = g["scores"].astype(np.float64)
        ds = d["scores"].astype(np.float64)
        contract = d["contract"]
        winner = d["winner"]
        team0 = d["team0"]
        seats = np.arange(n)
        in0 = (team0[:, None] >> seats) & 1
        won = np.where(winner[:, None] == 0, in0 == 1,
                       np.where(winner[:, None] == 1, in0 == 0, False))
        normal = contract == NORMAL
        out = {
            "games": len(gs),
            "deals": len(ds),
            "game_score": gs.sum(axis=0), "game_score_sq": (gs * gs).sum(axis=0),
            "deal_score": ds.sum(axis=0), "deal_score_sq": (ds * ds).sum(axis=0),
            "deal_wins": won.sum(axis=0),
            "old_side_deals": ((in0 == 1) & normal[:, None]).sum(axis=0),
            "old_side_wins": ((in0 == 1) & normal[:, None] & (winner[:, None] == 0)).sum(axis=0),
            "declarer_deals": (d["declarer"][:, None] == seats).sum(axis=0),
            "declarer_wins": ((d["declarer"][:, None] == seats) & (winner[:, None] == 0))
            .sum(axis=0),
            "old_ones_one_hand": int(d["old_ones_one_hand"].sum()),
            "draws": int((winner < 0).sum()),
        }
        sdec = int(g["search_decisions"].sum()) if "search_decisions" in g else 0
        if sdec:
            out["search_decisions"] = sdec
        cp0 = d["card_points0"].astype(np.float64)
        k = len(CONTRACTS)
        sel = contract[:, None] == np.arange(k)
        out["c_deals"] = sel.sum(axis=0)
        out["c_wins"] = (sel & (winner[:, None] == 0)).sum(axis=0)
        out["c_schneider"] = (sel & (d["schneider"][:, None] != 0)).sum(axis=0)
        out["c_schwarz"] = (sel & (d["schwarz"][:, None] != 0)).sum(axis=0)
        out["c_cp"] = (sel * cp0[:, None]).sum(axis=0)
        out["c_cp_sq"] = (sel * (cp0 * cp0)[:, None]).sum(axis=0)
        return out

    def summarize(self, agg, rules, policies):
        games = int(agg["games"])
        deals = int(agg["deals"])
        rows = []
        for p, pol in enumerate(policies):
            mean, sd, lo, hi = mean_ci(agg["deal_score"][p], agg["deal_score_sq"][p], deals)
            gmean, _, glo, ghi = mean_ci(agg["game_score"][p], agg["game_score_sq"][p], games)
            wr, wlo, whi = rate_ci(agg["deal_wins"][p], deals)
            orate, olo, ohi = rate_ci(agg["old_side_wins"][p], agg["old_side_deals"][p])
            drate, dlo, dhi = rate_ci(agg["declarer_wins"][p], agg["declarer_deals"][p])
            rows.append({"seat": p, "policy": pol, "deals": deals,
                         "score_per_deal": mean, "score_low": lo, "score_high": hi,
                         "score_per_game": gmean, "game_score_low": glo,
                         "game_score_high": ghi,
                         "deal_win_rate": wr, "deal_win_low": wlo, "deal_win_high": whi,
                         "old_side_deals": int(agg["old_side_deals"][p]),
                         "old_side_win_rate": orate, "old_side_win_low": olo,
                         "old_side_win_high": ohi,
                         "declarer_deals": int(agg["declarer_deals"][p]),
                         "declarer_win_rate": drate, "declarer_win_low": dlo,
                         "declarer_win_high": dhi})
        seats = pd.DataFrame(rows)
        game_rows = [("games", games, np.nan, np.nan), ("deals", deals, np.nan, np.nan)]
        if is_officers(rules):
            game_rows.append(("draw_rate", *rate_ci(agg["draws"], deals)))
        else:
            game_rows.append(("old_ones_one_hand_rate", *rate_ci(agg["old_ones_one_hand"],
                                                                   deals)))
        game = metric_frame(game_rows)
        crow = []
        for c, name in enumerate(CONTRACTS):
            nc = int(agg["c_deals"][c])
            share, slo, shi = rate_ci(nc, deals)
            wr, wlo, whi = rate_ci(agg["c_wins"][c], nc)
            sr, srlo, srhi = rate_ci(agg["c_schneider"][c], nc)
            zr, zlo, zhi = rate_ci(agg["c_schwarz"][c], nc)
            cp, _, cplo, cphi = mean_ci(agg["c_cp"][c], agg["c_cp_sq"][c], nc)
            crow.append({"contract": name, "deals": nc, "share": share, "share_low": slo,
                         "share_high": shi, "declarer_win_rate": wr, "win_low": wlo,
                         "win_high": whi, "schneider_rate": sr, "schneider_low": srlo,
                         "schneider_high": srhi, "schwarz_rate": zr, "schwarz_low": zlo,
                         "schwarz_high": zhi, "declarer_card_points": cp,
                         "card_points_low": cplo, "card_points_high": cphi})
        return {"seats": seats, "game": game, "contracts": pd.DataFrame(crow)}

    def game_metrics(self, summary, rules=None):
        """The game section plus, per contract, every figure of the contracts
        section: its share of deals, the declaring side's win rate, the Schneider
        and Schwarz rates and the declaring side's mean card points (with their
        intervals)."""
        rows = [tuple(r) for r in summary["game"].itertuples(index=False)]
        for c in summary["contracts"].itertuples(index=False):
            rows.append((f"{c.contract}_share", c.share, c.share_low, c.share_high))
            rows.append((f"{c.contract}_declarer_win_rate", c.declarer_win_rate, c.win_low,
                         c.win_high))
            rows.append((f"{c.contract}_schneider_rate", c.schneider_rate, c.schneider_low,
                         c.schneider_high))
            rows.append((f"{c.contract}_schwarz_rate", c.schwarz_rate, c.schwarz_low,
                         c.schwarz_high))
            rows.append((f"{c.contract}_declarer_card_points", c.declarer_card_points,
                         c.card_points_low, c.card_points_high))
        return metric_frame(rows)

    def frames(self, chunk, rules, policies):
        n = self.seats(rules)
        g = chunk["games"]
        data = {"index": g["index"], "deals": np.full(len(g["index"]), rules["deals"])}
        for p in range(n):
            data[f"score_{p}"] = g["scores"][:, p]
        d = chunk["deals"]
        ddata = {}
        for key, col in d.items():
            key = _DEAL_COLUMN_NAMES.get(key, key)
            if key == "scores":
                for p in range(n):
                    ddata[f"score_{p}"] = col[:, p]
            elif key == "contract":
                ddata[key] = pd.Categorical.from_codes(col, CONTRACTS)
            elif key == "trump":
                ddata[key] = np.array(list(SUITS))[col]
            elif key in ("schneider", "schwarz", "old_ones_one_hand"):
                ddata[key] = col.astype(bool)
            elif key == "called":             # QC, first_trick, or empty: docs/data.md
                ddata[key] = _CALLED_NAMES[col]
            else:
                ddata[key] = col
        return {"games": pd.DataFrame(data), "deals": pd.DataFrame(ddata)}

    def contract(self, rules):
        """What generic code needs from this game under ``rules`` (contract.py)."""
        from .contract import contract
        return contract(rules)

    def engine(self, rules):
        """The per-decision Python API (api.Engine) for ``rules``."""
        from .api import Engine
        return Engine(rules)

    def records(self, rules, policies, policy_ids, seed, start, count):
        """The records of games ``start .. start+count-1`` of run ``seed``."""
        from .records import build_records
        return build_records(rules, policies, policy_ids, seed, start, count)

    def records_jsonl(self, rules, policies, policy_ids, seed, start, count,
                      script=None) -> bytes:
        """``records`` as JSON Lines (UTF-8 bytes, one compact line per record, each
        ending in a newline), every line equal to ``json.dumps(record,
        separators=(",", ":"))`` and several times faster to produce."""
        from .records import build_jsonl
        user, actions = (None, None) if script is None else (script.user, script.actions)
        lines = build_jsonl(rules, policies, policy_ids, seed, start, count, user, actions)
        return "".join(line + "\n" for line in lines).encode("utf-8")

    def record(self, rules, policies, policy_ids, seed, index):
        return self.records(rules, policies, policy_ids, seed, index, 1)[0]

    def replay(self, record):
        from .records import replay_record
        replay_record(record)


GAME = Wendish()
