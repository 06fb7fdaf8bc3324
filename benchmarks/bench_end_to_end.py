"""What a user runs, timed: ``tricksim simulate GAME --summary-only`` end to end
beside the game's chunk kernel, one thread and two, optionally against an older
revision in the same sitting.

For every case (game, rules, policies) and thread count it times

- ``kernel``: the game's ``run_chunk`` called in-process on one chunk of
  ``--games`` games (the numba batch loop plus the chunk's tables), after a
  warm-up call that compiles or loads the cache;
- ``summary kernel``: the chunk path of a summary-only run, in-process on one
  chunk: ``run_chunk(..., summary_only=True)`` (the kernels sum the chunk's
  aggregates, no tables) and ``aggregate``; in a revision without that path,
  the tables and then ``aggregate`` (what its summary-only runs did);
- ``cli``: the games per second that ``tricksim simulate ... --summary-only``
  reports in its ``run.json`` (compile and start-up excluded by the runner) and
  the wall time of the whole command as a subprocess (start-up included).

With ``--baseline REV`` every measurement is also made on revision REV (checked
out into a temporary git worktree, run by the same interpreter with that tree
first on ``sys.path``, numba cache of its own), alternating old and new runs so
that a noisy machine disturbs both alike. Medians of ``--repeats`` runs; the
ratios new/old, CLI over summary kernel and 2 threads over 1 are computed from
medians of the same sitting.

    python benchmarks/bench_end_to_end.py [--games N] [--repeats R] [--baseline REV]

Writes results/benchmarks/end_to_end.json.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: (label, game, extra CLI arguments, games factor): heuristic play is slower, so it
#: plays a fraction of --games
CASES = (
    ("schadenfreude 4p random", "schadenfreude", ["--players", "4"], 1.0),
    ("schadenfreude 4p heuristic seat", "schadenfreude",
     ["--players", "4", "--policy", "heuristic,random,random,random"], 0.25),
    ("schnapsen random", "schnapsen", [], 1.0),
    ("schnapsen heuristic", "schnapsen", ["--policy", "heuristic"], 0.5),
    ("wendish four random", "wendish", [], 1.0),
    ("wendish four heuristic seat", "wendish",
     ["--policy", "heuristic,random,random,random"], 0.25),
)

# Runs inside the tree under test: times run_chunk on one chunk, prints games/s.
KERNEL_SCRIPT = r"""
import sys, time
import numba
from simcore.games import get_game
game, threads, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
args = sys.argv[5:]
players = None
policies = None
assignments = []
i = 0
while i < len(args):
    if args[i] == "--players":
        players = int(args[i + 1])
    elif args[i] == "--policy":
        policies = args[i + 1].split(",")
    elif args[i] == "--set":
        assignments.append(args[i + 1])
    i += 2
numba.set_num_threads(threads)
g = get_game(game)
rules = g.build_rules(assignments=assignments, players=players)
names, ids = g.policy_ids(policies, rules)
g.run_chunk(rules, ids, seed, 0, 200)        # compile or load the cache
t = time.perf_counter()
g.run_chunk(rules, ids, seed, 0, games)
tables = games / (time.perf_counter() - t)
try:                                          # the summary-only chunk path, where it exists
    g.aggregate(g.run_chunk(rules, ids, seed, 0, 200, summary_only=True), rules)
    t = time.perf_counter()
    g.aggregate(g.run_chunk(rules, ids, seed, 0, games, summary_only=True), rules)
except TypeError:                             # an older revision: tables, then aggregate
    g.aggregate(g.run_chunk(rules, ids, seed, 0, 200), rules)
    t = time.perf_counter()
    g.aggregate(g.run_chunk(rules, ids, seed, 0, games), rules)
print(tables, games / (time.perf_counter() - t))
"""


def tree_env(tree: Path) -> dict:
    """Environment that makes ``tree``'s simcore and cli the ones imported."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("NUMBA_CACHE_DIR", None)        # each tree keys its own cache by its source
    return env


def time_kernel(tree: Path, game: str, args: list[str], threads: int, games: int,
                seed: int) -> tuple[float, float]:
    """Games per second in ``tree`` of ``run_chunk`` building the chunk's tables, and of
    the chunk path a summary-only run takes (``run_chunk(..., summary_only=True)`` and
    ``aggregate``; tables then ``aggregate`` in a revision without that path)."""
    out = subprocess.run([sys.executable, "-c", KERNEL_SCRIPT, game, str(threads), str(games),
                          str(seed), *args], cwd=tree, env=tree_env(tree), capture_output=True,
                         text=True, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"kernel run failed in {tree}: {out.stderr.strip()[-2000:]}")
    tables, summary = out.stdout.strip().splitlines()[-1].split()
    return float(tables), float(summary)


def time_cli(tree: Path, game: str, args: list[str], threads: int, games: int,
             seed: int) -> tuple[float, float]:
    """(games/s reported in run.json, wall seconds of the whole command) in ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = Path(tmp) / "run"
        cmd = [sys.executable, "-c", "from cli.main import main; main()", "simulate", game,
               *args, "--games", str(games), "--seed", str(seed), "--threads", str(threads),
               "--summary-only", "--out", str(out_dir)]
        t = time.perf_counter()
        out = subprocess.run(cmd, cwd=tree, env=tree_env(tree), capture_output=True,
                             text=True, timeout=3600)
        wall = time.perf_counter() - t
        if out.returncode != 0:
            raise SystemExit(f"CLI run failed in {tree}: {out.stderr.strip()[-2000:]}")
        info = json.loads((out_dir / "run.json").read_text())
    return float(info["games_per_s"]), wall


def measure(trees: dict[str, Path], games: int, repeats: int, threads_list, cases) -> list:
    """Every case × threads × tree, repeats alternating between trees; medians."""
    rows = []
    for label, game, args, factor in cases:
        n = max(1000, int(games * factor))
        for threads in threads_list:
            # warm-up: compile or load each tree's cache outside the timed runs
            for tree in trees.values():
                time_cli(tree, game, args, threads, 1000, 0)
            samples = {name: {"kernel": [], "summary_kernel": [], "cli": [], "wall": []}
                       for name in trees}
            for r in range(repeats):
                for name, tree in trees.items():
                    tables, summary = time_kernel(tree, game, args, threads, n, 1 + r)
                    samples[name]["kernel"].append(tables)
                    samples[name]["summary_kernel"].append(summary)
                    rate, wall = time_cli(tree, game, args, threads, n, 1 + r)
                    samples[name]["cli"].append(rate)
                    samples[name]["wall"].append(wall)
            row = {"case": label, "game": game, "args": args, "threads": threads,
                   "games": n, "repeats": repeats}
            for name, s in samples.items():
                med = {k: statistics.median(v) for k, v in s.items()}
                row[name] = {"kernel_games_per_s": round(med["kernel"], 1),
                             "summary_kernel_games_per_s": round(med["summary_kernel"], 1),
                             "cli_games_per_s": round(med["cli"], 1),
                             "cli_wall_s": round(med["wall"], 3),
                             "cli_over_kernel": round(med["cli"] / med["kernel"], 3),
                             "cli_over_summary_kernel": round(med["cli"]
                                                              / med["summary_kernel"], 3),
                             "samples": s}
            if "old" in row:
                for key in ("kernel", "summary_kernel", "cli"):
                    row[f"new_over_old_{key}"] = round(row["new"][f"{key}_games_per_s"]
                                                       / row["old"][f"{key}_games_per_s"], 3)
            rows.append(row)
            print(summary_line(row), flush=True)
    _add_thread_scaling(rows, trees)
    return rows


def _add_thread_scaling(rows: list, trees) -> None:
    """For every case measured on 1 and on 2+ threads: each tree's rates on t threads
    over its rates on 1 thread, from the same sitting."""
    ones = {r["case"]: r for r in rows if r["threads"] == 1}
    for row in rows:
        one = ones.get(row["case"])
        if one is None or row["threads"] == 1:
            continue
        for name in trees:
            row[name]["speedup_over_1_thread"] = {
                key: round(row[name][f"{key}_games_per_s"] / one[name][f"{key}_games_per_s"],
                           3) for key in ("kernel", "summary_kernel", "cli")}
        print(f"{row['case']:<34} {row['threads']}t over 1t: " + "  ".join(
            f"{name}: kernel {row[name]['speedup_over_1_thread']['kernel']:.2f}x "
            f"summary kernel {row[name]['speedup_over_1_thread']['summary_kernel']:.2f}x "
            f"cli {row[name]['speedup_over_1_thread']['cli']:.2f}x" for name in trees),
            flush=True)


def summary_line(row: dict) -> str:
    parts = [f"{row['case']:<34} {row['threads']}t"]
    for name in ("old", "new"):
        if name in row:
            r = row[name]
            parts.append(f"{name}: tables kernel {r['kernel_games_per_s']:>10,.0f} summary "
                         f"kernel {r['summary_kernel_games_per_s']:>10,.0f} cli "
                         f"{r['cli_games_per_s']:>10,.0f} games/s (cli/summary kernel "
                         f"{r['cli_over_summary_kernel']:.2f})")
    if "new_over_old_cli" in row:
        parts.append(f"new/old summary kernel {row['new_over_old_summary_kernel']:.2f} "
                     f"cli {row['new_over_old_cli']:.2f}")
    return "  ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400_000, help="games per timed random run")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per case (median)")
    ap.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    ap.add_argument("--baseline", default=None, help="git revision to compare against")
    ap.add_argument("--cases", default=None,
                    help="only cases whose label contains one of these words (comma-separated)")
    ap.add_argument("--out", default=None, help="JSON file (default results/benchmarks/"
                                                "end_to_end.json)")
    args = ap.parse_args()
    threads_list = [int(t) for t in args.threads.split(",")]
    cases = CASES
    if args.cases:
        words = [w.strip() for w in args.cases.split(",") if w.strip()]
        cases = tuple(c for c in CASES if any(w in c[0] for w in words))
    trees = {"new": ROOT}
    worktree = None
    if args.baseline:
        worktree = Path(tempfile.mkdtemp(prefix="tricksim-baseline-")) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree),
                        args.baseline], check=True, capture_output=True)
        trees = {"old": worktree, "new": ROOT}
    try:
        rows = measure(trees, args.games, args.repeats, threads_list, cases)
    finally:
        if worktree is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(worktree)], capture_output=True)
    payload = {"baseline": args.baseline, "commit": _commit(), "rows": rows}
    print(f"wrote {write('end_to_end', payload, args.out)}")


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip() or None
    except OSError:
        return None


if __name__ == "__main__":
    main()
