"""A Python player on worker processes: the docs' worked example (``mybots:Greedy``,
docs/players-api.md) against ``heuristic`` on GAMES Schnapsen matches, played in this
process (``simcore.players.python_run``) and on local Dask clusters of 1 and 2 worker
processes (``simcore.players.process_run``, as ``simulate --workers N``).  Reports each
run's wall time (the run itself; the cluster's start apart), the speed-up of 2 workers
over 1, the load average, and checks that every run gives the same tables and summary.

    python benchmarks/bench_python_processes.py [GAMES]      # default 2000

Writes results/benchmarks/python_processes.json.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def example_module(folder: Path) -> None:
    """Save the docs' worked example as ``folder/mybots.py``, importable from here on."""
    text = (ROOT / "docs" / "players-api.md").read_text()
    m = re.search(r"<!-- example:mybots.py -->\n```python\n(.*?)```", text, re.S)
    if m is None:
        raise SystemExit("docs/players-api.md has no worked example (mybots.py)")
    (folder / "mybots.py").write_text(m.group(1))
    sys.path.insert(0, str(folder))


def main(games: int = 2000, seed: int = 1) -> dict:
    """Play the three runs, check they agree, write and return the figures."""
    import pandas as pd
    from simcore import get_game
    from simcore.players import process_run, python_run
    from simcore.running.cluster import open_executor
    from simcore.running.settings import RunSettings
    policies = ["mybots:Greedy", "heuristic"]
    rules = get_game("schnapsen").build_rules()
    out = {"game": "schnapsen", "policies": policies, "games": games, "seed": seed,
           "cpus": os.cpu_count(), "load_before": os.getloadavg()}
    one = python_run("schnapsen", rules, policies, RunSettings(games=games, seed=seed))
    out["one_process_s"] = round(one.wall_time, 3)
    for workers in (1, 2):
        s = RunSettings(games=games, seed=seed, workers=workers)
        t0 = time.perf_counter()
        with open_executor(s) as ex:
            started = time.perf_counter() - t0
            run = process_run("schnapsen", rules, policies, s, executor=ex)
        out[f"workers_{workers}"] = {"run_s": round(run.wall_time, 3),
                                     "cluster_start_s": round(started, 3),
                                     "chunks": run.execution["chunks"],
                                     "games_per_s": round(games / run.wall_time, 1)}
        for name, frame in one.tables.items():
            pd.testing.assert_frame_equal(run.tables[name], frame)
        for name, frame in one.summary.items():
            pd.testing.assert_frame_equal(run.summary[name], frame)
    out["speedup_2_over_1"] = round(out["workers_1"]["run_s"] / out["workers_2"]["run_s"], 3)
    out["identical_results"] = True
    out["load_after"] = os.getloadavg()
    path = ROOT / "results" / "benchmarks" / "python_processes.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    return out


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        example_module(Path(tmp))
        print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000), indent=2))
