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

import pandas as pd

from .. import __version__
from ..bits import seed_from_entropy
from .checkpoint import FORMAT, RunPlan
from .cluster import WorkersDied, open_executor, resolve_threads
from ..errors import TricksimError
from ..registry import get_game
from ..options import RuleSet
from .progress import report_decisions
from .settings import UNSET, RunSettings, settings_from
from ..statistics.stats import add_sums, fairness_frame

from .chunking import DEFAULT_CHUNK  # noqa: E402  (games per chunk of fast players)
#: games per block of records written at once
RECORD_BLOCK = 4096
#: the largest chunk: its tables are held in memory while it is played
MAX_CHUNK = 1 << 24
MAX_SEED = 2**63 - 1
#: game indices are 64-bit signed integers in the kernels
MAX_GAMES = 2**63 - 1


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

    @property
    def contract(self):
        """The game's declared contract under this run's rules."""
        return get_game(self.game).contract(self.rules)

    def run_info(self) -> dict:
        """The ``run.json`` contents."""
        agg = self.aggregates
        info = {
            "format": FORMAT,
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
            "tables": sorted(self.tables),
        }
        if self.played is not None:
            info["games_played"] = self.played
            info["games_per_s"] = (round(self.played / self.wall_time, 1)
                                   if self.wall_time > 0 and self.played else None)
        if self.execution:
            info.update(self.execution)
        if "rounds" in agg and self.games:
            info["mean_rounds_per_game"] = float(agg["rounds"]) / self.games
        if "deals" in agg and self.games:
            info["mean_deals_per_game"] = float(agg["deals"]) / self.games
        rate = self.search_rate()
        if rate is not None:
            info["search_decisions"], info["search_decisions_per_s"] = rate
        return info

    def search_rate(self) -> tuple[int, float] | None:
        """(decisions, decisions per second) of the searching players (``pimc``) in
        this run, or None when no player searched (aggregate ``search_decisions``)."""
        n = int(self.aggregates.get("search_decisions", 0) or 0)
        if n <= 0:
            return None
        per_s = round(n / self.wall_time, 1) if self.wall_time > 0 else float("inf")
        return n, per_s


def simulate(game: str, rules: RuleSet | None = None, policies=None, games=UNSET,
             seed=UNSET, *, settings: RunSettings | None = None,
             progress: Callable[[int, int], None] | None = None, out=None, client=None,
             executor=None, records=None,
             records_progress: Callable[[int, int], None] | None = None,
             **options) -> RunResult:
    """Play ``games`` games of ``game`` and summarize them.

    rules: a RuleSet (default: the game's default preset); policies: a list of
    policy names, one per seat or one for all (default random).  How the run
    is played is a ``RunSettings`` (``settings``), or its fields given as
    keyword arguments laid over it (``games``, ``seed``, ``threads``,
    ``chunk_size``, ``summary_only``, ``resume``, ``scheduler``, ``workers``,
    ``dashboard``, ``connect_timeout``): seed: the run's seed (drawn and
    recorded if None); threads: numba threads (default all); chunk_size: games
    per kernel call; summary_only: keep only running aggregates.  progress:
    called with (games done, games) after each chunk; executor: an open
    executor (``simcore.running.cluster.open_executor``) to play on, e.g. one cluster
    shared by a sweep's variants; it is not closed here.

    Long runs and clusters (see ``simcore.running.checkpoint`` and ``simcore.running.cluster``):
    out: a run folder written chunk by chunk as chunks finish; a folder holding
    an unfinished run of the same plan is resumed (only missing chunks are
    played; a seed or chunk size left None is taken from it), a different
    plan there is refused, ``resume=False`` starts it over; a folder holding
    the same run finished is reused without playing, one holding a different
    finished run is overwritten; a folder that is not empty and not
    tricksim's is refused.  scheduler: the address of a Dask scheduler to
    play the chunks on (checked within ``connect_timeout`` seconds, default
    10); workers: start a local Dask cluster of that many processes, private
    to this machine (``dashboard``: with Dask's dashboard, on 127.0.0.1);
    client: an existing ``distributed.Client``.  Results are identical
    whichever way a run is played, interrupted or resumed.  Chunks to play are
    found lazily, so a run of any size starts at once in constant memory.
    While a run writes its folder it holds the folder's lock: a second run into
    the same folder is refused (see ``simcore.folders``).  records: also write
    every game's record to this JSON Lines file (``write_records``; progress to
    ``records_progress``), timed as part of the run.

    Example::

        >>> from simcore import simulate
        >>> res = simulate("schadenfreude", games=1000, seed=1,
        ...                policies=["heuristic", "random", "random", "random"])
        >>> res.summary["seats"][["seat", "policy", "win_rate"]]   # doctest: +SKIP
    """
    s = settings_from(settings, games=games, seed=seed, **options)
    g = get_game(game)
    from ..engine import check_rules
    rules = check_rules(game, rules)
    if rules is None:
        rules = g.build_rules()
    if not 1 <= s.games <= MAX_GAMES:
        raise TricksimError(f"--games {s.games} is not allowed; allowed: a positive integer, "
                            f"at most 2**63 - 1 = {MAX_GAMES}")
    seed, chunk_size = _seed_and_chunk(s, out)
    names, ids = g.policy_ids(policies, rules)
    threads = resolve_threads(s.threads)
    chunk = planned_chunk(game, rules, names) if chunk_size is None else int(chunk_size)
    if not 1 <= chunk <= MAX_CHUNK:
        raise TricksimError(f"--chunk-size {chunk} is not allowed; allowed: a positive "
                            f"integer, at most {MAX_CHUNK}")
    plan = RunPlan(game, rules, tuple(names), seed, s.games, chunk, bool(s.summary_only))
    if records is not None:             # compile the records kernel before the clock
        g.records_jsonl(rules, list(names), ids, seed, 0, 1)
    run = _ChunkedRun(plan, threads, out, s.resume, progress, records, records_progress)
    if executor is not None:
        return run.play_on(executor)
    with open_executor(s.replace(threads=threads), client) as ex:
        if ex.description.get("executor") != "dask":
            # compile (or load the cache of) the kernel this run plays, before the clock
            g.run_chunk(rules, ids, seed, 0, 1, summary_only=plan.summary_only)
        return run.play_on(ex)


def _seed_and_chunk(s: RunSettings, out) -> tuple[int, int | None]:
    """The run's seed (checked) and chunk size (None: planned from the players): as the
    settings give them, else the run folder's being resumed (the same command without
    --seed resumes), else a seed drawn from entropy."""
    seed, chunk_size = s.seed, s.chunk_size
    if out is not None and s.resume and (seed is None or chunk_size is None):
        from .checkpoint import ChunkStore
        recorded = ChunkStore.recorded_plan(out) or {}
        if seed is None and isinstance(recorded.get("seed"), int):
            seed = recorded["seed"]
        if chunk_size is None and isinstance(recorded.get("chunk_size"), int):
            chunk_size = recorded["chunk_size"]
    if seed is None:
        seed = seed_from_entropy()
    if not 0 <= seed <= MAX_SEED:
        raise TricksimError(f"--seed {seed} is not allowed; allowed: 0 to {MAX_SEED}")
    return seed, chunk_size

def planned_chunk(game: str, rules: RuleSet, names) -> int:
    """Games per chunk when the command gives no chunk size: ``DEFAULT_CHUNK`` for
    players that do not search, about ``chunking.CHUNK_SECONDS`` of one core's work a
    chunk for those that do (fixed by the command alone: see ``simcore.running.chunking``)."""
    from .chunking import planned_chunk_size
    return min(MAX_CHUNK, planned_chunk_size(game, names, rules))


class _InOrder:
    """The chunks' aggregates summed in chunk order, whatever order they arrive in.

    A chunk that arrives early is kept until those before it have come, unless
    it is saved in a run folder: then it is read back when its turn comes.
    So memory holds at most the chunks that arrived early, never the whole run.
    """

    def __init__(self, plan, store):
        self.plan = plan
        self.store = store
        self.next = 0
        self.early: dict[int, dict] = {}
        self.total: dict | None = None

    def add(self, k: int, agg: dict, keep: bool) -> None:
        """Chunk ``k``'s aggregates; ``keep``: hold them if they came early."""
        if k == self.next:
            self._absorb(agg)
            self._drain()
        elif keep:
            self.early[k] = agg

    def _absorb(self, agg: dict) -> None:
        self.total = add_sums(self.total, agg)
        self.next += 1

    def _drain(self) -> None:
        while self.next < self.plan.chunks:
            if self.next in self.early:
                self._absorb(self.early.pop(self.next))
            elif self.store is not None and self.next in self.store.done:
                self._absorb(self.store.load_aggregates(self.next))
            else:
                break

    def result(self) -> dict:
        """The sum over every chunk."""
        self._drain()
        if self.next < self.plan.chunks:
            raise TricksimError(f"chunk {self.next} of the run was never played")
        return self.total


@dataclass
class _ChunkedRun:
    """A run's plan and where its results go; ``play_on`` an executor plays it.

    threads: the numba threads of the run (recorded); out: the run folder (None: none,
    nothing checkpointed); resume: continue an unfinished run there; progress: called
    with (games done, games); records / records_progress: the JSON Lines file of every
    game's record, written as part of the run, and its progress.
    """

    plan: RunPlan
    threads: int
    out: Path | None
    resume: bool
    progress: Callable[[int, int], None] | None
    records: Path | None = None
    records_progress: Callable[[int, int], None] | None = None
    #: while it plays: the run folder's chunk store (None: no folder), the aggregates
    #: summed in order, the frames of chunks not saved in a folder, and the games done
    #: (resumed ones too) and played by this call
    store: object = field(default=None, init=False)
    totals: _InOrder | None = field(default=None, init=False)
    frames: dict = field(default_factory=dict, init=False)
    done: int = field(default=0, init=False)
    played: int = field(default=0, init=False)

    def play_on(self, executor) -> RunResult:
        """Play the run on ``executor``, holding the run folder's lock (if there is a folder)."""
        if self.out is None:
            return self._play(executor)
        from ..folders import claim, lock
        claim(self.out, "run")          # a foreign folder is refused before it is locked
        with lock(self.out):
            return self._play(executor)

    def _play(self, executor) -> RunResult:
        """Play the plan's chunks on an executor, checkpointed into ``out`` if given.

        The summary is the sum of the chunks' aggregates in index order and the
        tables the chunks' frames in index order, however the chunks were played,
        so the results are the same bit for bit.  The chunks to play are generated
        lazily (nothing proportional to the run's length is built up front).
        """
        from .checkpoint import ChunkStore
        plan = self.plan
        store = ChunkStore.open(self.out, plan, self.resume) if self.out is not None else None
        if store is not None:
            store.execution = dict(executor.description)
        self.store, self.totals = store, _InOrder(plan, store)
        t0 = time.perf_counter()
        self._play_pending(executor, self._pending())
        total, tables, resumed = self._gathered()
        execution = dict(executor.description)
        if self.records is not None:    # part of the run: its time counts
            execution["records"] = self._write_records()
        return self._finish(total, tables, resumed, execution, time.perf_counter() - t0)

    def _advance(self, count: int) -> None:
        self.done += count
        if self.progress:
            self.progress(self.done, self.plan.games)

    def _pending(self):
        """The chunks left to play (lazily): all of them without a run folder, none if
        the folder holds this very run finished, else those not done there."""
        plan, store = self.plan, self.store

        def found(k, agg):              # a chunk of an earlier attempt, checked on disk
            self.totals.add(k, agg, keep=False)
            self._advance(plan.chunk_range(k)[1])

        if store is None:
            todo = iter(range(plan.chunks))
        elif store.finished is not None:
            todo = iter(())
            self._advance(plan.games)
        else:
            todo = store.pending(found)
        if self.progress and self.done == 0:
            self.progress(0, plan.games)    # a bar to show before the first chunk is done
        return todo

    def _play_pending(self, executor, todo) -> None:
        """Play the chunks ``todo`` on ``executor``, saving or keeping each as it comes."""
        plan, store = self.plan, self.store
        try:
            for k, agg, fr in executor.run(plan, todo):
                if store is not None:
                    store.save(k, agg, fr)
                elif fr is not None:
                    self.frames[k] = fr
                self.totals.add(k, agg, keep=store is None)
                count = plan.chunk_range(k)[1]
                report_decisions(int(agg.get("search_decisions", 0) or 0))
                self.played += count
                self._advance(count)
        except WorkersDied as exc:
            if store is None:
                raise
            raise TricksimError(f"{exc}; the run folder '{self.out}' keeps every finished "
                                "chunk: run the same command again to resume") from None
        finally:
            if store is not None and store.finished is None:
                try:                    # the exact list of done chunks, however the loop ended
                    store.write_manifest()
                except TricksimError:
                    pass                # (a full disk: the error on its way out says so)

    def _gathered(self) -> tuple[dict, dict[str, pd.DataFrame], int]:
        """(the summed aggregates, the tables in chunk order, the chunks resumed)."""
        plan, store = self.plan, self.store
        if store is not None and store.finished is not None:
            return store.finished, store.load_finished_tables(), plan.chunks
        total = self.totals.result()
        resumed = store.resumed if store is not None else 0
        tables: dict[str, pd.DataFrame] = {}
        if not plan.summary_only:
            kept: dict[str, list] = {}
            for k in range(plan.chunks):
                part = self.frames.pop(k) if store is None else store.load_frames(k)
                for name, frame in part.items():
                    kept.setdefault(name, []).append(frame)
            tables = {name: pd.concat(parts, ignore_index=True)
                      for name, parts in kept.items()}
        return total, tables, resumed

    def _write_records(self) -> dict:
        """Write the records file; what run.json says of it."""
        plan = self.plan
        t1 = time.perf_counter()
        write_records(plan.game, plan.rules, list(plan.policies), plan.seed, plan.games,
                      self.records, self.records_progress)
        return {"path": str(self.records), "games": plan.games,
                "wall_time_s": round(time.perf_counter() - t1, 6)}

    def _finish(self, total: dict, tables: dict, resumed: int, execution: dict,
                wall: float) -> RunResult:
        """The run's result, its summary made; a run folder's files written and finished."""
        from .checkpoint import encode_aggregates
        plan, store = self.plan, self.store
        g = get_game(plan.game)
        summary = g.summarize(total, plan.rules, list(plan.policies))
        summary["fairness"] = fairness_frame(summary, g.contract(plan.rules))
        execution["chunks"] = plan.chunks
        if store is not None:
            execution.update(status="complete", plan=plan.key(),
                             chunks_done=[[0, plan.chunks - 1]], chunks_resumed=resumed,
                             tables=sorted(tables), aggregates=encode_aggregates(total))
        result = RunResult(plan.game, plan.rules, list(plan.policies), plan.seed, plan.games,
                           self.threads, plan.chunk_size, wall, total, summary, tables,
                           self.played, execution)
        if store is not None and store.finished is None:
            write_run(result, self.out)
            store.finish()              # the run's own files now hold every chunk
        return result


def write_run(result: RunResult, out: Path) -> list[Path]:
    """Write a run folder: the tables as parquet, ``summary.csv`` and ``run.json``.

    The folder must be new, empty or tricksim's (else a one-line TricksimError);
    the files of a finished earlier run there are removed first, so none of its
    tables is left behind, and nothing tricksim did not write is touched.
    """
    from .checkpoint import claim_folder, clear_run
    from ..statistics.stats import summary_csv_frame, write_csv, write_json, write_parquet
    out = Path(out)
    info = claim_folder(out)
    if info is not None and info.get("status") == "complete":
        clear_run(out, info)
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
    """Write the records of games 0..games-1 of run ``seed`` as JSON Lines (atomically).

    Blocks of games are played by the game's logging kernels in parallel and
    turned into JSON text in bulk (``Game.records_jsonl``)."""
    g = get_game(game)
    names, ids = g.policy_ids(policies, rules)
    from ..statistics.stats import atomic_write, remove_stale_temps
    remove_stale_temps(path)            # left by a killed write of this very file

    def write(tmp):
        with open(tmp, "wb") as fh:
            for start in range(0, games, RECORD_BLOCK):
                count = min(RECORD_BLOCK, games - start)
                fh.write(g.records_jsonl(rules, names, ids, seed, start, count))
                if progress:
                    progress(start + count, games)

    atomic_write(Path(path), write)
    return games
