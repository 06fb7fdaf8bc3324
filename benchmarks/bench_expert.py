"""The ``expert`` player of every game: strength against the heuristic on paired deals
and time per decision in batch runs, end to end through ``tricksim simulate``.

    python benchmarks/bench_expert.py [--games schnapsen,wendish,schadenfreude]
        [--variants four,three,officers] [--scale 1.0] [--seeds 1,2] [--out FILE]
        [--pimc measure|reuse|file] [--players 4,3,5]
    python benchmarks/bench_expert.py --games schadenfreude-tables --seeds 2026,2027
        [--tables 0-0-4-4-4,0-0-32s10-16s10-8s10] [--scale 1.0] [--players 4]

Strength (95% intervals, paired by deal):

* Schnapsen: ``tricksim simulate schnapsen --policy expert,heuristic --rotate`` on
  each seed (both seats on the same matches); the expert's match win rate.
  Gate: >= 61% (pimc: 67.2%).
* Wendish four, three, Officers: every deal (``deals=1``) played with the heuristic
  everywhere and, for each seat s, with the expert in s and the heuristic elsewhere
  (the same cards: neither player draws from the game's stream); a deal's figure is
  the mean over the seats of seat s's score with the expert minus without it.
  Gate: >= 2/3 of pimc's figure measured the same way (benchmarks/bench_pimc_wendish.py,
  results/benchmarks/pimc_wendish_<variant>.json), by the mean on every seed (``edge``:
  the first seed's, ``edge_by_seed``: each seed's; the time on the first seed).
* Schadenfreude, 4 players: ``--policy expert,heuristic,heuristic,heuristic --rotate``;
  the expert seat's win rate. Gate: its excess over 25% >= 2/3 of pimc's, pimc
  (its default) measured the same way on the same deals and seeds (``--pimc file``:
  results/benchmarks/pimc_schadenfreude.json instead), on every seed. Other player
  counts (``--players 4,3,5``: the first is gated) on a quarter of the deals and the
  first seed: the expert's win rate minus the heuristic seats' (paired, pp) must be
  above 0 (``stronger``: the interval's low end above 0). Every count's time must be
  within the budget (``within_budget``, below).

Schadenfreude's search settings (``--games schadenfreude-tables``): the expert's table
(``expert.EXPERT_SEARCH``) written by cards in hand from 0 up, ``-`` between, each
``W`` worlds or ``WsZ`` worlds with pimc's stopping rule at Z tenths of a standard error
(``0-0-32s10-16s10-8s10`` is the shipped four-player expert, ``0`` the heuristic); each
table plays one seat among heuristic ones (``--players``: the first count given, 4 by
default), every seat in turn, on 4,000 game indices of each seed (``pimc.expert_choose``, no compilation per table): its win share with a 95%
interval over the indices, the paired difference from the first table and its CPU
us per decision of its seat (the run's CPU time less the heuristic's per decision at the
other seats, as below). Writes results/benchmarks/expert_schadenfreude_tables.json
(``_3p`` or ``_5p`` added for other counts).

Time: ``tricksim simulate GAME --threads 1`` (Schnapsen: ``--summary-only``; Wendish
and Schadenfreude: the table path, where their expert plays) with the expert in one
seat and with the heuristic everywhere, the kernel time the command prints (compilation
excluded); decisions per game counted on a sample of the same games through the
Python API. ``us_per_decision``: the run's time over all its decisions;
``us_per_expert_decision``: the extra time over the all-heuristic run over the
expert's decisions, plus the heuristic's own time per decision; ``cpu_us_*``: the same
from the CPU time of the same games played in this process on one thread (the figure
to read on a loaded machine, where wall time counts other sessions' work). Gate: <= 5
us.
Writes results/benchmarks/expert.json.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from common import RESULTS, load_note, write
from simcore.games.schadenfreude.engine import OBS_SIZE as SF_OBS_SIZE
from simcore.games.schadenfreude.engine import PLAYING as SF_PLAYING
from simcore.games.schadenfreude.engine import S_STATUS as SF_S_STATUS
from simcore.games.schadenfreude.engine import S_TO_MOVE as SF_S_TO_MOVE
from simcore.games.schadenfreude.engine import S_WINNER as SF_S_WINNER
from simcore.games.schadenfreude.engine import STATE_SIZE as SF_STATE_SIZE
from simcore.games.schadenfreude.engine import apply_action as sf_apply_action
from simcore.games.schadenfreude.engine import game_over as sf_game_over
from simcore.games.schadenfreude.engine import init_game as sf_init_game
from simcore.games.schadenfreude.engine import next_deal as sf_next_deal
from simcore.games.schadenfreude.pimc import expert_choose as sf_expert_choose
from simcore.games.schadenfreude.policies import HEURISTIC as SF_HEURISTIC
from simcore.games.schadenfreude.policies import choose_into as sf_choose_into

ROOT = Path(__file__).resolve().parent.parent
PIMC_SCHNAPSEN_WIN = 0.672
#: the expert's budget: CPU us a decision of its seat
BUDGET_US = 5.0


def tricksim(*args):
    """Run ``tricksim`` with ``args`` on one thread; its output (stdout, then stderr)."""
    env = dict(os.environ, NUMBA_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "cli.main", *args], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return out.stdout + out.stderr


def kernel_seconds(stdout):
    """The play time a ``simulate`` run prints (``... games in 9.38s``)."""
    return float(re.findall(r"games in ([\d.]+)s", stdout)[-1])


def rotated_win(game, policies, games, seed, extra=(), player=None):
    """``player``'s (default the first policy's) win rate and paired 95% interval in a
    rotated run, and with two policies the other's and the paired difference (``player``
    minus the other, pp)."""
    player = player or policies[0]
    with tempfile.TemporaryDirectory() as tmp:
        tricksim("simulate", game, *extra, "--games", str(games), "--policy",
                 ",".join(policies), "--rotate", "--seed", str(seed), "--threads", "1",
                 "--out", tmp, "--format", "csv")
        import pandas as pd
        rot = pd.read_csv(Path(tmp) / "rotation.csv")
        diff = pd.read_csv(Path(tmp) / "rotation_diff.csv")
    names = {n for n in rot["policy"] if n == player or n.startswith(player + ":")}
    row = rot[(rot["measure"] == "win") & rot["policy"].isin(names)].iloc[0]
    out = {"win": float(row["value"]), "low": float(row["low"]), "high": float(row["high"]),
           "interval": str(row["interval"])}
    other = rot[(rot["measure"] == "win") & ~rot["policy"].isin(names)]
    if len(other) == 1:
        out["other"] = str(other.iloc[0]["policy"])
        out["other_win"] = float(other.iloc[0]["value"])
        d = diff[diff["measure"] == "win"].iloc[0]
        sign = -1.0 if d["policy"] == out["other"] else 1.0     # diff: policy - versus
        lo, hi = sorted((sign * float(d["low"]), sign * float(d["high"])))
        out["diff_pp"] = {"mean": 100 * sign * float(d["diff"]), "low": 100 * lo,
                          "high": 100 * hi}
    return out


def decisions_per_game(game, rules, policies, games, seed):
    """Mean decisions per game, all seats and the expert's seats, over ``games`` games
    played through the Python API."""
    from simcore import get_game
    g = get_game(game)
    eng = g.engine(rules)
    total = mine = 0
    for i in range(games):
        st = eng.new(seed, i)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
                continue
            p = eng.to_move(st)
            total += 1
            mine += policies[p] == "expert"
            eng.apply(st, eng.choose(policies[p], st))
    return total / games, mine / games


def timing(game, rules, extra, policies, games, seed, summary_only):
    """Time per decision of a batch run with ``policies`` against the heuristic
    everywhere (see the module); ``summary_only`` where the expert plays on the
    summary kernels (Schnapsen), else both runs on the table path (the expert of
    Wendish and Schadenfreude needs the solver's scratch space, which takes it there)."""
    n = len(policies)
    base_pols = ["heuristic"] * n
    common = [*extra, "--games", str(games), "--seed", str(seed), "--threads", "1"]
    if summary_only:
        common.append("--summary-only")
    with tempfile.TemporaryDirectory() as tmp:
        tricksim("simulate", game, *common, "--policy", ",".join(policies), "--out",
                 tmp + "/a")      # a first run compiles and caches the kernels
        t_exp = kernel_seconds(tricksim("simulate", game, *common, "--policy",
                                        ",".join(policies), "--out", tmp + "/b"))
        tricksim("simulate", game, *common, "--policy", ",".join(base_pols), "--out",
                 tmp + "/c")
        t_heu = kernel_seconds(tricksim("simulate", game, *common, "--policy",
                                        ",".join(base_pols), "--out", tmp + "/d"))
    cpu_exp = cpu_seconds(game, rules, policies, games, seed, summary_only)
    cpu_heu = cpu_seconds(game, rules, base_pols, games, seed, summary_only)
    sample = max(20, min(200, games // 50))
    d_all, d_exp = decisions_per_game(game, rules, policies, sample, seed)
    d_heu, _ = decisions_per_game(game, rules, base_pols, sample, seed)
    us_heu = 1e6 * t_heu / (games * d_heu)
    return {"games": games, "seconds_expert_run": t_exp, "seconds_heuristic_run": t_heu,
            "decisions_per_game": d_all, "expert_decisions_per_game": d_exp,
            "us_per_decision": 1e6 * t_exp / (games * d_all),
            "us_per_expert_decision": 1e6 * (t_exp - t_heu * d_all / d_heu * (1 - d_exp / d_all))
            / (games * d_exp),
            "us_per_heuristic_decision": us_heu,
            "cpu_seconds_expert_run": cpu_exp, "cpu_seconds_heuristic_run": cpu_heu,
            "cpu_us_per_decision": 1e6 * cpu_exp / (games * d_all),
            "cpu_us_per_expert_decision":
                1e6 * (cpu_exp - cpu_heu * (d_all - d_exp) / d_heu) / (games * d_exp),
            "command": f"tricksim simulate {game} {' '.join(common)} --policy "
                       f"{','.join(policies)}"}


def cpu_seconds(game, rules, policies, games, seed, summary_only):
    """CPU seconds of one thread for the same games through the game's kernels in this
    process (``run_chunk``, compiled before the clock): on a shared, loaded machine
    CPU time is the per-core cost, which wall time is not."""
    import time
    from simcore import get_game
    g = get_game(game)
    ids = g.policy_ids(policies, rules)[1]
    g.run_chunk(rules, ids, seed + 1, 0, 20, summary_only=summary_only)
    t0 = time.process_time()
    g.run_chunk(rules, ids, seed, 0, games, summary_only=summary_only)
    return time.process_time() - t0


def interval(d):
    """Mean and 95% normal interval of the values ``d``."""
    d = np.asarray(d, dtype=np.float64)
    m = float(d.mean())
    half = float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))
    return {"mean": m, "low": m - half, "high": m + half}


def wendish_edge(variant, deals, seed, player="expert"):
    """``player``'s paired edge per deal over a heuristic seat, in each seat in turn on
    the same deals (see the module)."""
    from simcore.games.wendish import GAME
    rules = GAME.build_rules(assignments=[f"variant={variant}", "deals=1"])
    n = GAME.seats(rules)

    def scores(pols):
        return GAME.run_chunk(rules, GAME.policy_ids(pols, rules)[1], seed, 0,
                              deals)["deals"]["scores"]
    base = scores(["heuristic"] * n)
    d = np.zeros(deals)
    for s in range(n):
        pols = ["heuristic"] * n
        pols[s] = player
        d += scores(pols)[:, s] - base[:, s]
    return {"deals": deals, "seats_rotated": n, **interval(d / n)}


def pimc_wendish(variant):
    """pimc's paired edge from its benchmark's results, if present."""
    path = RESULTS / f"pimc_wendish_{variant}.json"
    if not path.exists():
        return None
    m = json.loads(path.read_text())["methods"]["heuristic"]
    return {"edge": m["difference_per_deal"], "low": m["difference_low"],
            "high": m["difference_high"], "policy": m["policy"]}


def schadenfreude(seeds, k, pimc_from, counts, prev_path=None):
    """Schadenfreude's figures (see the module): the gated count (``counts[0]``, 4) with
    pimc measured on the same deals and seeds (``pimc_from == "measure"``), or read from
    its benchmark's file; the other counts against the heuristic on a quarter of the
    deals, on the first seed. ``pimc_from == "reuse"``: pimc's runs of ``prev_path`` (or
    results/benchmarks/expert.json) if it has them for the same deals, seeds and count."""
    from simcore import get_game
    g = get_game("schadenfreude")
    n = counts[0]
    pols = ["expert"] + ["heuristic"] * (n - 1)
    extra = ["--players", str(n)]
    games = int(2000 * k)
    strength = [dict(seed=s, **rotated_win("schadenfreude", pols, games, s, extra))
                for s in seeds]
    old = None
    if pimc_from == "reuse":
        path = prev_path or RESULTS / "expert.json"
        prev = json.loads(path.read_text()).get("games", {}).get("schadenfreude") \
            if path.exists() else None
        if prev and prev.get("pimc") and prev.get("players") == n \
                and [x["seed"] for x in prev["pimc"]] == seeds \
                and prev.get("pimc_games") == games:
            old = prev["pimc"]
    if old:
        pimc_runs = old
        pimc = float(np.mean([x["win"] for x in pimc_runs]))
        pimc_src = "measured by an earlier run of this benchmark (reused): mean of the seeds"
    elif pimc_from in ("measure", "reuse"):
        pimc_runs = [dict(seed=s, **rotated_win("schadenfreude", ["pimc"] + pols[1:], games,
                                                 s, extra)) for s in seeds]
        pimc = float(np.mean([x["win"] for x in pimc_runs]))
        pimc_src = "measured here: mean of the seeds' win rates"
    else:
        pimc_runs = None
        pimc_path = RESULTS / "pimc_schadenfreude.json"
        pimc = json.loads(pimc_path.read_text())["win_share"] if pimc_path.exists() else None
        pimc_src = str(pimc_path.relative_to(ROOT))
    fair = 1.0 / n
    gate = fair + 2 / 3 * (pimc - fair) if pimc else None
    out = {"players": n, "games": games, "strength": strength, "pimc": pimc_runs,
           "pimc_games": games if pimc_runs else None, "pimc_win": pimc,
           "pimc_source": pimc_src, "gate_win": gate,
           "gate": "the expert's win rate on every seed >= 1/n + 2/3 of pimc's edge",
           "gate_met": bool(gate and all(x["win"] >= gate for x in strength)),
           "time": timing("schadenfreude", g.build_rules(players=n), extra, pols, games,
                          seeds[0], False)}
    out["within_budget"] = bool(out["time"]["cpu_us_per_expert_decision"] <= BUDGET_US)
    others = {}
    for m in counts[1:]:
        pm = ["expert"] + ["heuristic"] * (m - 1)
        ex = ["--players", str(m)]
        run = rotated_win("schadenfreude", pm, max(200, games // 4), seeds[0], ex)
        run["stronger"] = bool(run["diff_pp"]["low"] > 0.0)
        run["time"] = timing("schadenfreude", g.build_rules(players=m), ex, pm,
                             max(200, games // 4), seeds[0], False)
        run["within_budget"] = bool(run["time"]["cpu_us_per_expert_decision"] <= BUDGET_US)
        others[str(m)] = run
    out["other_counts"] = others
    return out


@njit(cache=False)
def _table_games(r, table, seat, seed, count, work, fw, win, dec):
    """Games 0 .. count-1 of ``seed``: the expert with search ``table`` in ``seat``, the
    heuristic elsewhere; ``win[g]`` whether the seat won, ``dec``: decisions (all, the
    seat's) added up."""
    st = np.empty(SF_STATE_SIZE, np.int64)
    obs = np.empty(SF_OBS_SIZE, np.int64)
    for g in range(count):
        sf_init_game(r, st, seed, g)
        while True:
            while st[SF_S_STATUS] == SF_PLAYING:
                dec[0] += 1
                if st[SF_S_TO_MOVE] == seat:
                    dec[1] += 1
                    a = sf_expert_choose(r, st, table, obs, work, fw)
                else:
                    a = sf_choose_into(r, st, SF_HEURISTIC, obs)
                sf_apply_action(r, st, a)
            if sf_game_over(st):
                break
            sf_next_deal(r, st)
        win[g] = st[SF_S_WINNER] == seat


def parse_table(text):
    """An expert search table (rows: worlds, stop) from ``W[sZ]-W[sZ]-...``; ValueError
    naming what is allowed."""
    rows = []
    for part in text.split("-"):
        w, _, z = part.partition("s")
        if not w.isdigit() or (z and not z.isdigit()) or int(w) > 1024 or int(z or 0) > 63:
            raise ValueError(f"bad table entry '{part}' in '{text}'; allowed: W or WsZ, W "
                             f"worlds 0-1024, Z tenths of a standard error 0-63")
        rows.append([int(w), int(z or 0)])
    return np.array(rows, dtype=np.int64)


def schadenfreude_tables(tables, seeds, games, players=4):
    """Each search table's win share, paired difference from the first and CPU us per
    decision of its seat (module doc), on ``games`` indices of each seed, ``players``
    at the table."""
    from simcore.games.schadenfreude import GAME
    from simcore.games.schadenfreude.rules import rules_array
    from simcore.games.schadenfreude.solver import new_work
    r = rules_array(GAME.build_rules(players=players))
    work, fw = new_work()
    out = {}
    for seed in seeds:
        rows = {}
        first = None
        heu_us = None
        for text in ["0"] + [t for t in tables if t != "0"]:
            table = parse_table(text)
            _table_games(r, table, 0, seed + 99, 2, work, fw, np.zeros(2, np.bool_),
                         np.zeros(2, np.int64))          # compile before the clock
            w = np.zeros((games, players))
            dec = np.zeros(2, np.int64)
            t0 = time.process_time()
            for s in range(players):
                x = np.zeros(games, np.bool_)
                _table_games(r, table, s, seed, games, work, fw, x, dec)
                w[:, s] = x
            cpu = time.process_time() - t0
            g = w.mean(axis=1)
            row = {"win": interval(g), "cpu_seconds": cpu}
            if text == "0":
                heu_us = 1e6 * cpu / dec[0]
                row["cpu_us_per_decision"] = heu_us
            else:
                row["cpu_us_per_decision_of_its_seat"] = float(
                    (1e6 * cpu - heu_us * (dec[0] - dec[1])) / dec[1])
                if first is None:
                    first = g
                    first_name = text
                else:
                    row["minus_" + first_name] = interval(g - first)
            rows[text] = row
            print(seed, text, json.dumps(row), flush=True)
        out[str(seed)] = rows
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="schnapsen,wendish,schadenfreude")
    ap.add_argument("--variants", default="four,three,officers", help="Wendish variants")
    ap.add_argument("--scale", type=float, default=1.0, help="scales every run's size")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--pimc", choices=("measure", "reuse", "file"), default="measure",
                    help="Schadenfreude: pimc's win rate measured in this benchmark on the "
                         "same deals and seeds; reuse: the pimc runs of the output file "
                         "when it has them for the same deals and seeds (else measured); "
                         "file: read from results/benchmarks/pimc_schadenfreude.json")
    ap.add_argument("--players", default="4,3,5", help="Schadenfreude player counts: the "
                    "first is gated against pimc, the others are checked against the "
                    "heuristic on fewer deals")
    ap.add_argument("--tables", default="0-0-4-4-4,0-0-4-4-12,0-0-16-16-8,0-0-32s10-16s10-8s10,"
                    "0-0-32s10-24s10-8s10,0-0-32s15-32s15-16s15,0-0-24s10-24s10-0",
                    help="schadenfreude-tables: the expert's search tables to compare")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.games == "schadenfreude-tables":
        try:
            tables = a.tables.split(",")
            for t in tables:
                parse_table(t)
        except ValueError as e:
            sys.exit(f"bench_expert.py: {e}")
        seeds = [int(s) for s in a.seeds.split(",")]
        n = int(a.players.split(",")[0])
        if not 3 <= n <= 5:
            sys.exit(f"bench_expert.py: bad --players '{a.players}'; allowed: 3, 4 or 5 "
                     f"(the tables run at the first count)")
        res = {"command": "python benchmarks/bench_expert.py " + " ".join(sys.argv[1:]),
               "players": n, "game_indices": int(4000 * a.scale), "seeds": seeds,
               "tables": schadenfreude_tables(tables, seeds, int(4000 * a.scale), n),
               "note": load_note()}
        path = write("expert_schadenfreude_tables" + ("" if n == 4 else f"_{n}p"), res,
                     a.out)
        print(f"wrote {path}")
        return
    seeds = [int(s) for s in a.seeds.split(",")]
    which = a.games.split(",")
    k = a.scale
    from simcore import get_game
    res = {"command": "python benchmarks/bench_expert.py " + " ".join(sys.argv[1:]),
           "games": {}}
    if "schnapsen" in which:
        g = get_game("schnapsen")
        strength = [dict(seed=s, **rotated_win("schnapsen", ["expert", "heuristic"],
                                               int(20000 * k), s)) for s in seeds]
        res["games"]["schnapsen"] = {
            "strength": strength, "gate_win": 0.61, "pimc_win": PIMC_SCHNAPSEN_WIN,
            "gate_met": all(x["low"] >= 0.61 for x in strength),
            "time": timing("schnapsen", g.build_rules(), [], ["expert", "heuristic"],
                           int(20000 * k), seeds[0], True)}
    if "wendish" in which:
        g = get_game("wendish")
        out = {}
        for variant in a.variants.split(","):
            edges = {str(s): wendish_edge(variant, int(4000 * k), s) for s in seeds}
            pimc = pimc_wendish(variant)
            rules = g.build_rules(assignments=[f"variant={variant}"])
            n = g.seats(rules)
            out[variant] = {
                "edge": edges[str(seeds[0])], "edge_by_seed": edges, "pimc": pimc,
                "gate_edge": 2 / 3 * pimc["edge"] if pimc else None,
                "gate_met": bool(pimc and all(e["mean"] >= 2 / 3 * pimc["edge"]
                                              for e in edges.values())),
                "time": timing("wendish", rules, ["--set", f"variant={variant}"],
                               ["expert"] + ["heuristic"] * (n - 1), int(2000 * k),
                               seeds[0], False)}
        res["games"]["wendish"] = out
    if "schadenfreude" in which:
        res["games"]["schadenfreude"] = schadenfreude(seeds, k, a.pimc,
                                                      [int(p) for p in a.players.split(",")],
                                                      Path(a.out) if a.out else None)
    res["note"] = load_note("wall time of one thread, kernel time as simulate prints it")
    path = write("expert", res, a.out)
    print(json.dumps(res, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
