"""The runner: seeding, chunking and threads around a game's kernels.

Each game's randomness derives from ``(seed, game index)`` alone, so a run
gives identical results whatever the thread count or chunk size.  A run
keeps running aggregates per chunk (constant memory); unless
``summary_only`` it also keeps the per-game tables, the only thing that grows.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numba
import pandas as pd

from . import __version__
from .bits import seed_from_entropy
from .errors import TricksimError
from .games import get_game
from .options import RuleSet
from .stats import add_sums, fairness_frame

DEFAULT_CHUNK = 1 << 16
MAX_SEED = 2**63 - 1


@dataclass
class RunResult:
    """What a run produced: its settings, timing, summary and (unless summary-only) tables."""

    game: str
    rules: RuleSet
    policies: list[str]
    seed: int
    games: int
    threads: int
    chunk_size: int
    wall_time: float
    aggregates: dict
    summary: dict
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: games played by this call (less than ``games`` when a run folder was resumed)
    played: int | None = None
    #: how the chunks ran and, for a checkpointed run, its plan and chunk counts
    execution: dict = field(default_factory=dict)

    def run_info(self) -> dict:
        """The ``run.json`` contents."""
        agg = self.aggregates
        info = {
            "version": __version__,
            "game": self.game,
            "rules": self.rules.to_dict(),
            "rules_canonical": self.rules.canonical(),
            "policies": self.policies,
            "seed": self.seed,
            "games": self.games,
            "threads": self.threads,
            "chunk_size": self.chunk_size,
            "wall_time_s": round(self.wall_time, 6),
            "games_per_s": round(self.games / self.wall_time, 1) if self.wall_time > 0 else None,
        }
        if self.played is not None:
            info["games_played"] = self.played
            info["games_per_s"] = (round(self.played / self.wall_time, 1)
                                   if self.wall_time > 0 else None)
        if self.execution:
            info.update(self.execution)
        if "rounds" in agg and self.games:
            info["mean_rounds_per_game"] = float(agg["rounds"]) / self.games
        if "deals" in agg and self.games:
            info["mean_deals_per_game"] = float(agg["deals"]) / self.games
        return info


def resolve_threads(threads: int | None) -> int:
    """The thread count to use; a clear error above what numba was started with."""
    top = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return top
    if threads < 1 or threads > top:
        raise TricksimError(f"--threads {threads} is not allowed; allowed: 1 to {top} "
                            "(set NUMBA_NUM_THREADS to allow more)")
    return threads


def simulate(game: str, rules: RuleSet | None = None, policies=None, games: int = 10_000,
             seed: int | None = None, threads: int | None = None,
             chunk_size: int | None = None, summary_only: bool = False,
             progress: Callable[[int, int], None] | None = None, *, out=None,
             resume: bool = True, scheduler: str | None = None, workers: int | None = None,
             client=None) -> RunResult:
    """Play ``games`` games of ``game`` and summarize them.

    rules: a RuleSet (default: the game's default preset); policies: a list of
    policy names, one per seat or one for all (default random); seed: the
    run's seed (drawn and recorded if None); threads: numba threads (default
    all); chunk_size: games per kernel call; summary_only: keep only running
    aggregates; progress: called with (games done, games) after each chunk.

    Long runs and clusters (see ``simcore.checkpoint`` and ``simcore.cluster``):
    out: a run folder written chunk by chunk as chunks finish; a folder holding
    an unfinished run of the same plan is resumed (only missing chunks are
    played; a seed or chunk size left None is taken from it), a different
    plan there is refused, ``resume=False`` starts it over; a folder holding
    the same run finished is reused without playing, one holding a different
    finished run is overwritten.  scheduler: the
    address of a Dask scheduler to play the chunks on; workers: start a local
    Dask cluster of that many processes; client: an existing
    ``distributed.Client``.  Results are identical whichever way a run is
    played, interrupted or resumed.

    Example::

        >>> from simcore import simulate
        >>> res = simulate("schadenfreude", games=1000, seed=1,
        ...                policies=["heuristic", "random", "random", "random"])
        >>> res.summary["seats"][["seat", "policy", "win_rate"]]   # doctest: +SKIP
    """
    g = get_game(game)
    if rules is None:
        rules = g.build_rules()
    if games < 1:
        raise TricksimError(f"--games {games} is not allowed; allowed: a positive integer")
    if out is not None and resume and (seed is None or chunk_size is None):
        from .checkpoint import ChunkStore
        recorded = ChunkStore.recorded_plan(out) or {}
        if seed is None and isinstance(recorded.get("seed"), int):
            seed = recorded["seed"]             # the same command without --seed resumes
        if chunk_size is None and isinstance(recorded.get("chunk_size"), int):
            chunk_size = recorded["chunk_size"]
    if seed is None:
        seed = seed_from_entropy()
    if not 0 <= seed <= MAX_SEED:
        raise TricksimError(f"--seed {seed} is not allowed; allowed: 0 to {MAX_SEED}")
    names, ids = g.policy_ids(policies, rules)
    threads = resolve_threads(threads)
    chunk = DEFAULT_CHUNK if chunk_size is None else int(chunk_size)
    if chunk < 1:
        raise TricksimError(f"--chunk-size {chunk} is not allowed; allowed: a positive integer")
    if scheduler is None and workers is None and client is None:
        g.run_chunk(rules, ids, seed, 0, 1)  # compile (or load the cache) outside the timing
    from .checkpoint import RunPlan
    from .cluster import make_executor
    plan = RunPlan(game, rules, tuple(names), seed, games, chunk, bool(summary_only))
    executor = make_executor(threads, scheduler, workers, client)
    try:
        return _run_chunked(plan, executor, threads, out, resume, progress)
    finally:
        executor.close()


def _run_chunked(plan, executor, threads: int, out, resume: bool,
                 progress: Callable[[int, int], None] | None) -> RunResult:
    """Play a plan's chunks on an executor, checkpointed into ``out`` if given.

    The summary is the sum of the chunks' aggregates in index order and the
    tables the chunks' frames in index order, as in the plain loop of
    ``simulate``, so the results are the same bit for bit.
    """
    from .checkpoint import ChunkStore
    g = get_game(plan.game)
    store = ChunkStore.open(out, plan, resume) if out is not None else None
    if store is not None:
        store.execution = dict(executor.description)
    aggs: dict[int, dict] = {}
    frames: dict[int, dict] = {}
    todo = store.missing() if store is not None else list(range(plan.chunks))
    done_games = sum(plan.chunk_range(k)[1] for k in range(plan.chunks) if k not in set(todo))
    played = 0
    t0 = time.perf_counter()
    if progress and done_games:
        progress(done_games, plan.games)
    if store is not None and store.finished is not None:
        todo = []                           # this very run is in the folder, finished
    for k, agg, fr in executor.run(plan, todo):
        if store is not None:
            store.save(k, agg, fr)
        elif fr is not None:
            frames[k] = fr
        aggs[k] = agg
        count = plan.chunk_range(k)[1]
        played += count
        done_games += count
        if progress:
            progress(done_games, plan.games)
    total = None if store is None else store.finished
    for k in range(plan.chunks if total is None else 0):
        part = aggs[k] if k in aggs else store.load_aggregates(k)
        total = add_sums(total, part)
    tables: dict[str, pd.DataFrame] = {}
    if store is not None and store.finished is not None:
        tables = store.load_finished_tables()
    elif not plan.summary_only:
        kept: dict[str, list] = {}
        for k in range(plan.chunks):
            part = frames[k] if store is None else store.load_frames(k)
            for name, frame in part.items():
                kept.setdefault(name, []).append(frame)
        tables = {name: pd.concat(parts, ignore_index=True) for name, parts in kept.items()}
    wall = time.perf_counter() - t0
    summary = g.summarize(total, plan.rules, list(plan.policies))
    summary["fairness"] = fairness_frame(summary)
    execution = dict(executor.description)
    execution["chunks"] = plan.chunks
    if store is not None:
        from .checkpoint import encode_aggregates
        execution.update(status="complete", plan=plan.key(), chunks_done=[[0, plan.chunks - 1]],
                         chunks_resumed=plan.chunks - len(todo), tables=sorted(tables),
                         aggregates=encode_aggregates(total))
    result = RunResult(plan.game, plan.rules, list(plan.policies), plan.seed, plan.games,
                       threads, plan.chunk_size, wall, total, summary, tables, played,
                       execution)
    if store is not None and store.finished is None:
        write_run(result, out)
        store.finish()          # the run's own files now hold every chunk
    return result


def write_run(result: RunResult, out: Path) -> list[Path]:
    """Write a run folder: the tables as parquet, ``summary.csv`` and ``run.json``."""
    from .stats import summary_csv_frame, write_csv, write_json, write_parquet
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in result.tables.items():
        write_parquet(frame, out / f"{name}.parquet")
        written.append(out / f"{name}.parquet")
    write_csv(summary_csv_frame(result.summary), out / "summary.csv")
    write_json(result.run_info(), out / "run.json")
    written += [out / "summary.csv", out / "run.json"]
    return written


def write_records(game: str, rules: RuleSet, policies, seed: int, games: int, path,
                  progress: Callable[[int, int], None] | None = None) -> int:
    """Write the records of games 0..games-1 of run ``seed`` as JSON Lines (atomically)."""
    g = get_game(game)
    names, ids = g.policy_ids(policies, rules)
    from .stats import atomic_write

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as fh:
            for index in range(games):
                rec = g.record(rules, names, ids, seed, index)
                fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
                if progress and (index + 1) % 1000 == 0:
                    progress(index + 1, games)

    atomic_write(Path(path), write)
    return games
