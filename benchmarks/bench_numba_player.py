"""A numba player in the batch runs against the built-in heuristic, end to end through
``tricksim simulate``, in every game.

For each game, two runs of the same size and seed in the same sitting, alternated
``--repeats`` times: the docs' numba player (docs/players-api.md, ``mynumba.py``:
``low_follower`` in Schnapsen, ``random_legal`` elsewhere) in seat 0 and the built-in
heuristic in the other seats, and the heuristic in every seat.  Each run is a separate
``tricksim simulate GAME --summary-only --threads T`` process; its games/s is the one it
prints (the run's clock starts after the numba player's loop is compiled, which the
process pays once, and after the kernels' cache is loaded).  Medians are reported.

ns a decision divides a run's wall time by its decisions: the games times the mean
recorded actions per game (every seat's), counted on the records of the first
``--sample`` games (the heuristic's by its kernels, the numba player's by the Engine
replay that writes its records).  The machine is shared: ``uptime``'s load average is
recorded before and after.

    python benchmarks/bench_numba_player.py [--repeats 3] [--threads 1]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write  # noqa: E402

#: game, games per run, the numba player, seats after it (all heuristic)
CASES = (("schnapsen", 200_000, "low_follower", 1),
         ("schadenfreude", 50_000, "random_legal", 3),
         ("wendish", 20_000, "random_legal", 3))
RATE = re.compile(r"in ([0-9.]+)s \(([0-9,]+) games/s")


def docs_module(folder: Path) -> Path:
    """Write docs/players-api.md's ``mynumba.py`` example into ``folder``."""
    doc = (ROOT / "docs" / "players-api.md").read_text()
    code = re.search(r"<!-- example:mynumba.py -->\n```python\n(.*?)```", doc, re.S).group(1)
    (folder / "mynumba.py").write_text(code)
    return folder / "mynumba.py"


def run(folder: Path, game: str, policy: str, games: int, threads: int, extra=()) -> float:
    """One ``tricksim simulate`` process; its games/s."""
    tricksim = Path(sys.executable).with_name("tricksim")
    out = subprocess.run([str(tricksim), "simulate", game, "--policy", policy, "--games",
                          str(games), "--seed", "1", "--threads", str(threads),
                          "--summary-only", "--no-resume", "--out", str(folder / "run"),
                          *extra], cwd=folder, capture_output=True, text=True, check=True)
    m = RATE.search(out.stderr)
    return float(m.group(2).replace(",", ""))


def decisions_per_game(folder: Path, game: str, policy: str, sample: int) -> float:
    """Mean recorded actions per game over the records of games 0..sample-1."""
    tricksim = Path(sys.executable).with_name("tricksim")
    subprocess.run([str(tricksim), "simulate", game, "--policy", policy, "--games",
                    str(sample), "--seed", "1", "--threads", "1", "--no-resume", "--out",
                    str(folder / "rec"), "--records", str(folder / "rec.jsonl")],
                   cwd=folder, capture_output=True, text=True, check=True)
    n = 0
    recs = (folder / "rec.jsonl").read_text().splitlines()
    for line in recs:
        n += sum(len(d["actions"]) for d in json.loads(line)["deals"])
    return n / len(recs)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--scale", type=float, default=1.0, help="games per run x this")
    args = ap.parse_args(argv)
    rows = []
    before = uptime()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        docs_module(folder)
        for game, games, bot, others in CASES:
            games = max(1, int(games * args.scale))
            mine = ",".join([f"mynumba:{bot}"] + ["heuristic"] * others)
            theirs = ",".join(["heuristic"] * (others + 1))
            rates = {mine: [], theirs: []}
            for _ in range(args.repeats):
                for policy in (mine, theirs):
                    rates[policy].append(run(folder, game, policy, games, args.threads))
            for policy, label in ((mine, "numba player"), (theirs, "heuristic only")):
                med = statistics.median(rates[policy])
                per_game = decisions_per_game(folder, game, policy, args.sample)
                rows.append({"game": game, "players": policy, "run": label, "games": games,
                             "games_per_s": rates[policy], "median_games_per_s": med,
                             "decisions_per_game": per_game,
                             "ns_per_decision": 1e9 / (med * per_game)})
                print(f"{game:14s} {label:15s} {med:12,.0f} games/s  "
                      f"{per_game:6.1f} decisions/game  {1e9 / (med * per_game):7.0f} "
                      f"ns/decision  ({policy})", flush=True)
    after = uptime()
    print(f"uptime before: {before}\nuptime after:  {after}")
    path = write("numba_player", {
        "command": "python benchmarks/bench_numba_player.py " + " ".join(argv or sys.argv[1:]),
        "threads": args.threads, "repeats": args.repeats, "uptime_before": before,
        "uptime_after": after, "cpu_count": os.cpu_count(), "rows": rows})
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
