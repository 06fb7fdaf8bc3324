"""Every player of every game in one table: strength against ``heuristic`` on paired
deals and time per decision, end to end through ``tricksim simulate`` (issue 21 item 4).

    python benchmarks/bench_players.py [--scale 1.0] [--seed 1] [--out FILE]

For each game (Schnapsen, Wendish four, Schadenfreude with 4 players) and each player
(random, heuristic, expert, pimc):

* strength: Schnapsen and Schadenfreude ``tricksim simulate GAME --policy P,heuristic..
  --rotate`` (every seat plays P on the same deals; the match or game win rate of P's
  seat with its paired 95% interval); Wendish: P's score per deal minus a heuristic's in
  the same seat on the same deal, each seat in turn (``bench_expert.wendish_edge``).
  heuristic against itself is the reference (50%, 25%, 0). pimc's strength costs hours
  at these sizes, so its row quotes the paired figures of its own benchmark
  (results/benchmarks/pimc_*.json, command given) instead of measuring it here;
* time: ``tricksim simulate GAME --policy P --threads 1`` (P in every seat) on a
  warm cache, the play time it prints over the decisions its games take (counted on a
  sample through the Python API): µs per decision, all seats searching alike.

Writes results/benchmarks/players.json and prints a Markdown table (the README's).
"""
import argparse
import json
import os
import sys
import tempfile

from bench_expert import (decisions_per_game, kernel_seconds, rotated_win, tricksim,
                          wendish_edge)
from common import RESULTS, load_note, write

GAMES = {  # game: (simulate options, seats, games timed per player, strength games)
    "schnapsen": ([], 2, {"random": 20000, "heuristic": 20000, "expert": 5000,
                          "pimc": 6}, 10000),
    "wendish": (["--set", "variant=four"], 4, {"random": 5000, "heuristic": 5000,
                                               "expert": 1000, "pimc": 4}, 2000),
    "schadenfreude": (["--players", "4"], 4, {"random": 20000, "heuristic": 20000,
                                              "expert": 2000, "pimc": 20}, 4000),
}
PLAYERS = ("random", "heuristic", "expert", "pimc")


def pimc_strength(game):
    """pimc's paired strength from its own benchmark's results file, with its command."""
    if game == "schnapsen":
        d = json.loads((RESULTS / "pimc_schnapsen_strength_2027.json").read_text())
        return {"value": d["win_share"], "low": d["paired_low"], "high": d["paired_high"],
                "measure": "match win rate", "n": d["matches"], "command": d["command"]}
    if game == "wendish":
        d = json.loads((RESULTS / "pimc_wendish_four.json").read_text())
        m = d["methods"]["heuristic"]
        return {"value": m["difference_per_deal"], "low": m["difference_low"],
                "high": m["difference_high"], "measure": "score per deal over a heuristic",
                "n": d["deals"], "command": d["command"]}
    d = json.loads((RESULTS / "pimc_schadenfreude.json").read_text())
    return {"value": d["win_share"], "low": d["win_low"], "high": d["win_high"],
            "measure": "win rate among 3 heuristic", "n": d["games"], "command": d["command"]}


def strength(game, player, opts, seats, games, seed):
    """``player``'s paired strength against heuristic seats (see the module)."""
    if player == "pimc":
        return {**pimc_strength(game), "source": "its benchmark"}
    if game == "wendish":
        e = wendish_edge("four", games, seed, player)
        return {"value": e["mean"], "low": e["low"], "high": e["high"], "n": games,
                "measure": "score per deal over a heuristic",
                "command": f"bench_expert.wendish_edge('four', {games}, {seed}, '{player}')"}
    if player == "heuristic":
        return {"value": 1 / seats, "low": 1 / seats, "high": 1 / seats, "n": 0,
                "measure": "reference", "command": ""}
    pols = [player] + ["heuristic"] * (seats - 1)
    w = rotated_win(game, pols, games, seed, opts, player)
    return {"value": w["win"], "low": w["low"], "high": w["high"], "n": games,
            "measure": "win rate, seats rotated",
            "command": f"tricksim simulate {game} {' '.join(opts)} --games {games} "
                       f"--policy {','.join(pols)} --rotate --seed {seed} --threads 1"}


def time_per_decision(game, player, opts, seats, games, seed):
    """µs per decision of ``player`` in every seat, end to end (see the module)."""
    from simcore import get_game
    g = get_game(game)
    rules = g.build_rules(assignments=[o for o in opts if "=" in o],
                          **({"players": seats} if game == "schadenfreude" else {}))
    pols = [player] * seats
    common = [*opts, "--games", str(games), "--seed", str(seed), "--threads", "1",
              "--policy", ",".join(pols)]
    with tempfile.TemporaryDirectory() as tmp:
        tricksim("simulate", game, *opts, "--games", "2", "--seed", str(seed + 1),
                 "--threads", "1", "--policy", ",".join(pols), "--out", tmp + "/warm")
        secs = kernel_seconds(tricksim("simulate", game, *common, "--out", tmp + "/run"))
    sample = max(2, min(100, games // 50))
    per_game, _ = decisions_per_game(game, rules, pols, sample, seed)
    return {"games": games, "seconds": secs, "decisions_per_game": per_game,
            "us_per_decision": 1e6 * secs / (games * per_game),
            "command": "tricksim simulate " + game + " " + " ".join(common)}


def fmt_strength(s):
    if s["measure"] == "reference":
        return f"{100 * s['value']:.0f}% (itself)"
    if "score" in s["measure"]:
        if s.get("n", 0) == 0 or s["value"] == 0 and s["low"] == s["high"]:
            return "0 (itself)"
        return f"{s['value']:+.3f} [{s['low']:+.3f}, {s['high']:+.3f}]"
    return f"{100 * s['value']:.1f}% [{100 * s['low']:.1f}, {100 * s['high']:.1f}]"


def fmt_time(us):
    return f"{us:.2f} µs" if us < 1000 else f"{us / 1000:.1f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="scales every run's size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    rows = []
    for game, (opts, seats, timed, strong) in GAMES.items():
        for player in PLAYERS:
            n_time = max(2, int(timed[player] * a.scale))
            n_strong = max(20, int(strong * a.scale))
            if game == "wendish" and player == "heuristic":
                s = {"value": 0.0, "low": 0.0, "high": 0.0, "n": 0, "command": "",
                     "measure": "score per deal over a heuristic"}
            else:
                s = strength(game, player, opts, seats, n_strong, a.seed)
            t = time_per_decision(game, player, opts, seats, n_time, a.seed)
            rows.append({"game": game, "player": player, "strength": s, "time": t})
            print(f"{game:14s} {player:10s} {fmt_strength(s):28s} "
                  f"{fmt_time(t['us_per_decision'])}", flush=True)
    note = load_note("wall time of one thread, play time as simulate prints it")
    lines = ["| game | player | strength against heuristic (paired, 95%) | time a decision |",
             "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['player']} | {fmt_strength(r['strength'])} | "
                     f"{fmt_time(r['time']['us_per_decision'])} |")
    table = "\n".join(lines)
    print(table)
    print(note)
    path = write("players", {"command": "python benchmarks/bench_players.py "
                             + " ".join(sys.argv[1:]), "rows": rows, "table": table,
                             "note": note}, a.out)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
