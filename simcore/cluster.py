"""Where chunks are played: numba threads in this process, or a Dask cluster.

A chunk is played by :func:`play_chunk` (game, rules, policies, seed, start,
count -> aggregates and frames) wherever it runs; its results depend on those
arguments alone, so a run gives bit-identical results whichever executor ran
which chunk, in whatever order, and however often a chunk was re-run after a
worker died.

Executors yield ``(k, aggregates, frames)`` for the chunk numbers they are
given, in completion order:

- :class:`LocalExecutor`: chunks one after another in this process, each
  spread over ``threads`` numba threads (the embedded default);
- :class:`DaskExecutor`: chunks as tasks on a Dask cluster, either an existing
  one (``scheduler`` address) or a ``distributed.LocalCluster`` of ``workers``
  processes started for the run.  A bounded window of chunks is in flight at
  a time; results come back to this process, which alone writes the run folder,
  so workers need no shared file system.
"""
from __future__ import annotations

import contextlib
import os
from typing import Iterable, Iterator

from .errors import TricksimError


def _rules_state(rules) -> tuple[str, dict]:
    # RuleSet holds a mappingproxy, which does not pickle: ship its plain values.
    return rules.game, rules.to_dict()


def play_chunk(game: str, rules_state, policies, seed: int, start: int, count: int,
               summary_only: bool, threads: int | None = None):
    """Play games ``start .. start+count-1``; return (aggregates, frames or None).

    Runs in this process or on a Dask worker.  ``threads``: numba threads for
    the kernel (default: numba's thread count divided by the Dask worker's
    thread count, so a worker process with several Dask threads is not
    oversubscribed).
    """
    import numba

    from .games import get_game

    g = get_game(game)
    rules = rules_state if not isinstance(rules_state, tuple) else \
        g.rulebook.from_dict(rules_state[1])
    names, ids = g.policy_ids(list(policies), rules)
    n = threads or _worker_numba_threads()
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(n, numba.config.NUMBA_NUM_THREADS)))
    try:
        part = g.run_chunk(rules, ids, seed, start, count)
    finally:
        numba.set_num_threads(previous)
    agg = g.aggregate(part, rules)
    frames = None if summary_only else g.frames(part, rules, names)
    return agg, frames


def _worker_numba_threads() -> int:
    import numba
    top = numba.config.NUMBA_NUM_THREADS
    try:
        from distributed import get_worker
        return max(1, top // max(1, get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return top


def warm_up(game: str, rules_state, policies) -> int:
    """Play one game so the worker loads (or compiles) the kernels; returns its pid."""
    play_chunk(game, rules_state, policies, 0, 0, 1, True, 1)
    return os.getpid()


class LocalExecutor:
    """Chunks one after another in this process, over ``threads`` numba threads."""

    def __init__(self, threads: int):
        self.threads = threads
        self.description = {"executor": "threads", "threads": threads}

    def run(self, plan, chunks: Iterable[int]) -> Iterator[tuple[int, dict, dict | None]]:
        state = plan.rules          # same process: no need to ship plain values
        for k in chunks:
            start, count = plan.chunk_range(k)
            agg, frames = play_chunk(plan.game, state, plan.policies, plan.seed, start, count,
                                     plan.summary_only, self.threads)
            yield k, agg, frames

    def close(self):
        pass


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise TricksimError("running on a cluster needs Dask: pip install "
                            "'dask[distributed]'") from None
    return distributed


class DaskExecutor:
    """Chunks as Dask tasks on an existing cluster or on a LocalCluster started here."""

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 client=None, window: int | None = None, connect_timeout: float = 10.0):
        distributed = _import_distributed()
        self._own: list = []
        if client is not None:
            self.client = client
            where = str(getattr(client, "scheduler", None) and client.scheduler.address)
        elif scheduler:
            try:
                self.client = distributed.Client(scheduler, timeout=connect_timeout,
                                                 set_as_default=False)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                raise TricksimError(f"cannot reach the Dask scheduler at '{scheduler}' "
                                    f"({type(exc).__name__}: {exc})".replace("\n", " ")) \
                    from None
            self._own.append(self.client)
            where = scheduler
        else:
            if workers is None or workers < 1:
                raise TricksimError(f"--workers {workers} is not allowed; allowed: a "
                                    "positive integer")
            cluster = start_local_cluster(workers)
            self.client = distributed.Client(cluster, set_as_default=False)
            self._own += [self.client, cluster]
            where = f"local cluster of {workers} processes"
        self.window = window
        self.description = {"executor": "dask", "scheduler": where}

    def _window(self) -> int:
        if self.window:
            return self.window
        try:
            slots = sum(w.get("nthreads", 1) for w in
                        self.client.scheduler_info(n_workers=-1)["workers"].values())
        except Exception:  # noqa: BLE001  (an older distributed: no n_workers argument)
            slots = sum(self.client.nthreads().values())
        return max(4, 3 * max(1, slots))

    def run(self, plan, chunks: Iterable[int]) -> Iterator[tuple[int, dict, dict | None]]:
        distributed = _import_distributed()
        todo = list(chunks)
        if not todo:
            return
        state = _rules_state(plan.rules)
        policies = list(plan.policies)
        key = f"tricksim-{plan.game}-{plan.seed}-{os.getpid()}-{id(self)}"
        pending = {}

        def submit(k):
            start, count = plan.chunk_range(k)
            fut = self.client.submit(play_chunk, plan.game, state, policies, plan.seed, start,
                                     count, plan.summary_only, key=f"{key}-{k}", pure=False,
                                     retries=2)
            pending[fut] = k
            return fut

        queue = iter(todo)
        first = [submit(k) for _, k in zip(range(self._window()), queue)]
        done_iter = distributed.as_completed(first, loop=self.client.loop)
        try:
            for fut in done_iter:
                k = pending.pop(fut)
                try:
                    agg, frames = fut.result()
                except distributed.client.FutureCancelledError as exc:
                    raise TricksimError(f"chunk {k} was cancelled on the cluster ({exc})") \
                        from None
                fut.release()
                nxt = next(queue, None)
                if nxt is not None:
                    done_iter.add(submit(nxt))
                yield k, agg, frames
        finally:
            if pending:
                self.client.cancel(list(pending))

    def close(self):
        for obj in self._own:
            with contextlib.suppress(Exception):
                obj.close()
        self._own = []


def start_local_cluster(workers: int, **kwargs):
    """A ``distributed.LocalCluster`` of ``workers`` processes, one numba thread each."""
    distributed = _import_distributed()
    env = {"NUMBA_NUM_THREADS": "1"}
    if os.environ.get("NUMBA_CACHE_DIR"):
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    options = dict(n_workers=workers, threads_per_worker=1, processes=True,
                   dashboard_address=":0", env=env, silence_logs=50)
    options.update(kwargs)
    return distributed.LocalCluster(**options)


def make_executor(threads: int, scheduler=None, workers=None, client=None):
    """The executor for a run: Dask if a scheduler, workers or client is given, else threads."""
    if scheduler is not None and workers is not None:
        raise TricksimError("give --scheduler or --workers, not both")
    if client is not None or scheduler is not None or workers is not None:
        return DaskExecutor(scheduler=scheduler, workers=workers, client=client)
    return LocalExecutor(threads)
