"""Records of runs with users' players, before and after they were written in the same
play as the run (issue 24 item 1), in one sitting:

- numba player (docs/players-api.md's ``mynumba.py``) against heuristics: the records
  written the old way (every game played again through the Engine, the player called
  from Python per decision: ``engine_records``, what ``write_numba_records`` did) and
  the new (the batch loop logging the player's actions, the game's logging kernels
  playing them: ``write_numba_records``), on Schnapsen matches and Wendish games; the
  bytes compared.
- Python player (docs' ``mybots:Greedy``) on worker processes: the old way (the run,
  then every chunk played again for its records, as ``write_process_records`` did)
  against ``process_run`` with ``records`` (the records come back with the chunks).

    python benchmarks/bench_run_records.py [--schnapsen 20000] [--wendish-deals 5000]
        [--python-games 2000] [--workers 2]

Writes results/benchmarks/run_records.json (wall seconds, the load average before and
after each part; the machine's other work shows in it).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def docs_modules(folder: Path) -> None:
    """Save the docs' ``mynumba.py`` and ``mybots.py`` into ``folder``, importable."""
    text = (ROOT / "docs" / "players-api.md").read_text()
    for name in ("mynumba.py", "mybots.py"):
        m = re.search(rf"<!-- example:{re.escape(name)} -->\n```python\n(.*?)```", text, re.S)
        if m is None:
            raise SystemExit(f"docs/players-api.md has no worked example {name}")
        (folder / name).write_text(m.group(1))
    sys.path.insert(0, str(folder))


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def numba_part(game: str, policy: str, games: int, folder: Path, seed: int = 1) -> dict:
    """Old and new records of a numba player's run of ``games`` games."""
    from simcore import get_game
    from simcore.numba_players import (engine_records, numba_records, numba_seats,
                                       write_numba_records)
    g = get_game(game)
    rules = g.build_rules()
    seats = numba_seats(g, rules, policy.split(","))
    numba_records(g, rules, seats, seed, 0, 80)     # compile (serial and parallel kernels)
    engine_records(g, rules, seats, seed, 0, 1)
    out = {"game": game, "policies": seats.names, "games": games, "seed": seed,
           "load_before": load()}
    t0 = time.perf_counter()
    old = folder / f"{game}-old.jsonl"
    with open(old, "wb") as fh:                      # what write_numba_records did
        for start in range(0, games, 4096):
            fh.write(engine_records(g, rules, seats, seed, start, min(4096, games - start)))
    out["old_engine_s"] = round(time.perf_counter() - t0, 3)
    new = folder / f"{game}-new.jsonl"
    t0 = time.perf_counter()
    write_numba_records(g, rules, seats, seed, games, new)
    out["new_logged_s"] = round(time.perf_counter() - t0, 3)
    out["speedup"] = round(out["old_engine_s"] / out["new_logged_s"], 1)
    out["identical_bytes"] = old.read_bytes() == new.read_bytes()
    out["records_bytes"] = new.stat().st_size
    out["load_after"] = load()
    if not out["identical_bytes"]:
        raise SystemExit(f"{game}: the new records differ from the Engine's")
    return out


def python_part(games: int, workers: int, folder: Path, seed: int = 1) -> dict:
    """A Python player's run on ``workers`` processes with records, old and new."""
    from simcore import get_game
    from simcore.players import _chunk_records, process_run
    from simcore.running.cluster import open_executor
    from simcore.running.settings import RunSettings
    policies = ["mybots:Greedy", "heuristic"]
    rules = get_game("schnapsen").build_rules()
    s = RunSettings(games=games, seed=seed, workers=workers)
    out = {"game": "schnapsen", "policies": policies, "games": games, "seed": seed,
           "workers": workers, "load_before": load()}
    with open_executor(s) as ex:
        process_run("schnapsen", rules, policies, RunSettings(games=8, seed=seed,
                                                              workers=workers),
                    executor=ex, records=folder / "warm.jsonl")     # workers warm
        t0 = time.perf_counter()
        run = process_run("schnapsen", rules, policies, s, executor=ex)
        with open(folder / "py-old.jsonl", "wb") as fh:     # what write_process_records did
            for _, data in _chunk_records(ex, _plan(run, rules),
                                          range(run.execution["chunks"])):
                fh.write(data)
        out["old_twice_s"] = round(time.perf_counter() - t0, 3)
        t0 = time.perf_counter()
        process_run("schnapsen", rules, policies, s, executor=ex,
                    records=folder / "py-new.jsonl")
        out["new_once_s"] = round(time.perf_counter() - t0, 3)
    out["speedup"] = round(out["old_twice_s"] / out["new_once_s"], 2)
    out["identical_bytes"] = ((folder / "py-old.jsonl").read_bytes()
                              == (folder / "py-new.jsonl").read_bytes())
    out["load_after"] = load()
    if not out["identical_bytes"]:
        raise SystemExit("the Python player's records differ between the two ways")
    return out


def _plan(run, rules):
    """The plan of a finished process run (its chunks' records task needs it)."""
    from simcore.players import DEFAULT_TIMEOUT, _PythonPlan
    from simcore.running.checkpoint import RunPlan
    return _PythonPlan(RunPlan(run.game, rules, tuple(run.policies), run.seed, run.games,
                               run.chunk_size, False), DEFAULT_TIMEOUT)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--schnapsen", type=int, default=20000, help="Schnapsen matches")
    ap.add_argument("--wendish-deals", type=int, default=5000,
                    help="Wendish deals (games of 4 deals)")
    ap.add_argument("--python-games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip", nargs="*", default=(), choices=("numba", "python"))
    a = ap.parse_args(argv)
    out = {"cpus": os.cpu_count()}
    path = ROOT / "results" / "benchmarks" / "run_records.json"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        docs_modules(folder)
        if "numba" not in a.skip:
            out["numba_schnapsen"] = numba_part("schnapsen", "mynumba:low_follower,heuristic",
                                                a.schnapsen, folder)
            print(json.dumps(out["numba_schnapsen"]), flush=True)
            out["numba_wendish"] = numba_part(
                "wendish", "mynumba:random_legal,heuristic,heuristic,heuristic",
                a.wendish_deals // 4, folder)
            out["numba_wendish"]["deals"] = 4 * out["numba_wendish"]["games"]
            print(json.dumps(out["numba_wendish"]), flush=True)
        if "python" not in a.skip:
            out["python_workers"] = python_part(a.python_games, a.workers, folder)
            print(json.dumps(out["python_workers"]), flush=True)
    old = json.loads(path.read_text()) if path.exists() else {}
    old.update(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(old, indent=2) + "\n")
    return old


if __name__ == "__main__":
    main()
