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
  one (``scheduler`` address, checked to answer as a Dask scheduler within a
  timeout) or a ``distributed.LocalCluster`` of ``workers`` processes started
  for the run, listening on 127.0.0.1 only and without a dashboard unless one
  is asked for.  A bounded window of chunks is in flight at a time, taken
  lazily from the chunks to play; results come back to this process, which
  alone writes the run folder, so workers need no shared file system.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import os
import re
from typing import Iterable, Iterator

from ..errors import TricksimError

#: seconds to wait for a scheduler to answer (``--connect-timeout``)
CONNECT_TIMEOUT = 10.0
#: the host a local cluster's scheduler, workers and dashboard listen on
LOCALHOST = "127.0.0.1"
#: a local cluster has at most this many worker processes per CPU of the machine
WORKERS_PER_CPU = 2

log = logging.getLogger("tricksim")

_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*)"
                      r":(\d{1,5})")
_ALLOWED_ADDRESS = "tcp://HOST:PORT or tls://HOST:PORT (e.g. tcp://10.0.0.5:8786)"


class WorkersDied(TricksimError):
    """Every worker that tried a chunk died: the cluster cannot play this run."""


def _rules_state(rules) -> tuple[str, dict]:
    # RuleSet holds a mappingproxy, which does not pickle: ship its plain values.
    return rules.game, rules.to_dict()


def play_chunk(game: str, rules_state, policies, seed: int, start: int, count: int,
               summary_only: bool, threads: int | None = None):
    """Play games ``start .. start+count-1``; return (aggregates, frames or None).

    Runs in this process or on a Dask worker.  ``threads``: numba threads for
    the kernel (default: numba's thread count divided by the Dask worker's
    thread count, so a worker process with several Dask threads is not
    oversubscribed).  A run with Python players submits its plan's own task instead
    (``simcore.players.python_chunk``: the plan carries it, so this layer never
    imports the players).
    """
    import numba

    from ..registry import get_game

    g = get_game(game)
    rules = rules_state if not isinstance(rules_state, tuple) else \
        g.rulebook.from_dict(rules_state[1])
    names, ids = g.policy_ids(list(policies), rules)
    n = threads or _worker_numba_threads()
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(n, numba.config.NUMBA_NUM_THREADS)))
    try:
        # summary-only: the kernels sum the aggregates themselves (no tables built)
        part = g.run_chunk(rules, ids, seed, start, count, summary_only=summary_only)
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


def resolve_threads(threads: int | None) -> int:
    """The thread count to use; a clear error above what numba was started with."""
    import numba
    top = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return top
    if threads < 1 or threads > top:
        raise TricksimError(f"--threads {threads} is not allowed; allowed: 1 to {top} "
                            "(set NUMBA_NUM_THREADS to allow more)")
    return threads


class LocalExecutor:
    """Chunks one after another in this process, over ``threads`` numba threads."""

    def __init__(self, threads: int):
        self.threads = threads
        self.description = {"executor": "threads", "threads": threads}

    def run(self, plan, chunks: Iterable[int]) -> Iterator[tuple[int, dict, dict | None]]:
        state = plan.rules          # same process: no need to ship plain values
        if self.threads > 1 and _side_by_side(plan):
            yield from _run_side_by_side(plan, chunks, self.threads)
            return
        for k in chunks:
            start, count = plan.chunk_range(k)
            agg, frames = play_chunk(plan.game, state, plan.policies, plan.seed, start, count,
                                     plan.summary_only, self.threads)
            yield k, agg, frames

    def close(self):
        pass


def _side_by_side(plan) -> bool:
    """Whether a plan's chunks are played one per thread: when some seat searches (a
    game costs milliseconds, so a chunk is a few seconds of one core's work, see
    ``simcore.running.chunking``), not when a chunk is 65,536 fast games."""
    from .chunking import searches
    return searches(plan.game, plan.policies, plan.rules)


def _run_side_by_side(plan, chunks: Iterable[int], threads: int):
    """Chunks played ``threads`` at a time, each on one numba thread of its own (the
    searching kernels release the GIL), yielded as they finish.  A thread that finishes
    takes the next chunk, so uneven games never leave a thread idle while another
    works through a long chunk.  The chunk numbers are taken lazily, in this thread."""
    queue = iter(chunks)
    pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="tricksim-chunk")
    pending: dict = {}

    def submit(k):
        start, count = plan.chunk_range(k)
        fut = pool.submit(play_chunk, plan.game, plan.rules, plan.policies, plan.seed,
                          start, count, plan.summary_only, 1)
        pending[fut] = k

    try:
        for k in itertools.islice(queue, threads):
            submit(k)
        while pending:
            done, _ = concurrent.futures.wait(pending, timeout=0.5,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in sorted(done, key=pending.get):
                k = pending.pop(fut)
                agg, frames = fut.result()
                nxt = next(queue, None)
                if nxt is not None:
                    submit(nxt)
                yield k, agg, frames
    finally:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=False, cancel_futures=True)


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise TricksimError("running on a cluster needs Dask: pip install "
                            "'dask[distributed]'") from None
    return distributed


def check_address(address) -> str:
    """``address`` if it looks like a Dask scheduler address, else a one-line TricksimError."""
    if not isinstance(address, str) or not address.strip():
        raise TricksimError(f"--scheduler {address!r} is empty; allowed: {_ALLOWED_ADDRESS}")
    m = _ADDRESS.fullmatch(address.strip())
    if m is None or not 1 <= int(m[3]) <= 65535:
        raise TricksimError(f"--scheduler '{address}' is not a Dask scheduler address; "
                            f"allowed: {_ALLOWED_ADDRESS}")
    return address.strip()


def check_timeout(timeout) -> float:
    """A connect timeout in seconds (default :data:`CONNECT_TIMEOUT`), checked."""
    if timeout is None:
        return CONNECT_TIMEOUT
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) \
            or not 0 < timeout <= 3600:
        raise TricksimError(f"--connect-timeout {timeout} is not allowed; allowed: more than "
                            "0 and at most 3600 seconds")
    return float(timeout)


def probe_scheduler(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Check that a Dask scheduler answers at ``address`` within ``timeout`` seconds.

    Connects, asks for the server's identity and expects a scheduler's: a
    closed port, a server that does not speak Dask's protocol (or says
    nothing) and a Dask worker's port all give a one-line TricksimError in
    bounded time, where ``distributed.Client`` would wait for minutes.  TLS
    settings come from Dask's configuration, as for the client itself.
    """
    import socket
    import time

    from distributed.comm import connect
    from distributed.security import Security

    address = check_address(address)
    m = _ADDRESS.fullmatch(address)
    host, port = m[2].strip("[]"), int(m[3])
    t0 = time.monotonic()
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        reason = (f"no answer within {timeout:g} s; --connect-timeout sets the wait"
                  if isinstance(exc, TimeoutError) else (exc.strerror or _short(exc)))
        raise TricksimError(f"cannot reach the Dask scheduler at '{address}' ({reason})") \
            from None
    left = max(0.5, timeout - (time.monotonic() - t0))

    async def ask():
        comm = await connect(address, timeout=left, **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded():
        return await asyncio.wait_for(ask(), left)

    # in a thread of its own: the caller may already run an event loop (Jupyter)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        try:
            reply = pool.submit(asyncio.run, bounded()).result()
        except (asyncio.TimeoutError, TimeoutError):
            raise TricksimError(f"'{address}' accepts connections but no Dask scheduler "
                                f"answered there within {timeout:g} s; check the address and "
                                "port (--connect-timeout sets the wait)") from None
        except Exception:  # noqa: BLE001  (garbage in reply, closed connection, TLS...)
            raise TricksimError(f"'{address}' answers but not as a Dask scheduler (not Dask's "
                                "protocol, or TLS settings that do not match); give the "
                                "scheduler's address") from None
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind != "Scheduler":
        raise TricksimError(f"'{address}' is not a Dask scheduler (it answered as "
                            f"{kind or 'something else'}); give the scheduler's address")


class DaskExecutor:
    """Chunks as Dask tasks on an existing cluster or on a LocalCluster started here."""

    #: what a task runs (a chunk's play); tests replace it
    task = staticmethod(play_chunk)

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 client=None, window: int | None = None,
                 connect_timeout: float | None = None, dashboard: bool = False):
        distributed = _import_distributed()
        timeout = check_timeout(connect_timeout)
        self._own: list = []
        self.dashboard = None
        if client is not None:
            self.client = client
            where = str(getattr(client, "scheduler", None) and client.scheduler.address)
        elif scheduler is not None:
            if dashboard:
                raise TricksimError("--dashboard goes with --workers (a cluster started here); "
                                    "an existing cluster has its own")
            scheduler = check_address(scheduler)
            probe_scheduler(scheduler, timeout)
            try:
                self.client = distributed.Client(scheduler, timeout=timeout,
                                                 set_as_default=False)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                raise TricksimError(f"cannot reach the Dask scheduler at '{scheduler}' "
                                    f"({type(exc).__name__}: {exc})".replace("\n", " ")) \
                    from None
            self._own.append(self.client)
            where = scheduler
        else:
            check_workers(workers)
            cluster = start_local_cluster(workers, dashboard=dashboard)
            self._own.append(cluster)
            self.client = distributed.Client(cluster, set_as_default=False)
            self._own.insert(0, self.client)
            where = f"local cluster of {workers} processes"
            if dashboard:
                self.dashboard = cluster.dashboard_link
                log.info(f"Dask dashboard (this machine only): {self.dashboard}")
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
        from distributed.scheduler import KilledWorker
        queue = iter(chunks)            # taken lazily: never listed whole
        state = _rules_state(plan.rules)
        policies = list(plan.policies)
        key = f"tricksim-{plan.game}-{plan.seed}-{os.getpid()}-{id(self)}"
        pending = {}

        # a Python players' run: its own task and decision timeout; no retries (a
        # player's error is the same every time)
        extra = plan.task_options() if hasattr(plan, "task_options") else {}
        task = getattr(plan, "task", None) or self.task

        def submit(k):
            start, count = plan.chunk_range(k)
            fut = self.client.submit(task, plan.game, state, policies, plan.seed, start,
                                     count, plan.summary_only, key=f"{key}-{k}", pure=False,
                                     retries=0 if extra else 2, **extra)
            pending[fut] = k
            return fut

        first = [submit(k) for _, k in zip(range(self._window()), queue)]
        if not first:
            return
        done_iter = distributed.as_completed(first, loop=self.client.loop)
        try:
            for fut in done_iter:
                k = pending.pop(fut)
                try:
                    agg, frames = fut.result()
                except KilledWorker:
                    raise WorkersDied(
                        f"every Dask worker that played chunk {k} died, one after another, "
                        "and Dask gave up on it (KilledWorker): the workers keep dying (out "
                        "of memory? killed?)") from None
                except distributed.client.FutureCancelledError as exc:
                    raise TricksimError(f"chunk {k} was cancelled on the cluster "
                                        f"({_short(exc)})") from None
                except ImportError as exc:
                    raise TricksimError(f"chunk {k} failed on a Dask worker: {_short(exc)} "
                                        "(is the same tricksim installed on every worker?)") \
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


def machine_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def max_workers() -> int:
    """The most worker processes a local cluster (``--workers``) may have here:
    :data:`WORKERS_PER_CPU` per CPU."""
    return WORKERS_PER_CPU * machine_cpus()


def check_workers(workers, name: str = "--workers") -> int:
    """``workers`` if it is a local cluster's size this machine can run, else a
    one-line TricksimError naming the cap and why (checked before anything starts)."""
    top = max_workers()
    if workers is None or isinstance(workers, bool) or not isinstance(workers, int) \
            or not 1 <= workers <= top:
        raise TricksimError(
            f"{name} {workers} is not allowed; allowed: 1 to {top} ({WORKERS_PER_CPU} per "
            f"CPU of this machine, which has {machine_cpus()}: each worker is a process "
            "playing on one core, so more only compete for the cores and memory; for more, "
            "start a cluster over several machines and give its scheduler)")
    return workers


def _short(exc) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:200] + "..."


def start_local_cluster(workers: int, dashboard: bool = False, **kwargs):
    """A ``distributed.LocalCluster`` of ``workers`` processes, one numba thread each.

    Private to this machine: the scheduler and workers listen on 127.0.0.1 only,
    and there is no dashboard unless ``dashboard`` (then on 127.0.0.1, a free port).
    """
    distributed = _import_distributed()
    env = {"NUMBA_NUM_THREADS": "1"}
    if os.environ.get("NUMBA_CACHE_DIR"):
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    # the scheduler's HTTP server (health and info pages, and the dashboard if asked
    # for) on a free port of 127.0.0.1, not Dask's default 8787 on every interface
    options = dict(n_workers=workers, threads_per_worker=1, processes=True, host=LOCALHOST,
                   dashboard_address=f"{LOCALHOST}:0", scheduler_kwargs={"dashboard": dashboard},
                   env=env, silence_logs=50, preload=["simcore.running._dask_worker"])
    options.update(kwargs)
    from distributed.deploy.spec import SpecCluster
    before = set(SpecCluster._instances)
    try:
        return distributed.LocalCluster(**options)
    except BaseException as exc:
        # Ctrl-C (or a failure) while it starts: abandon the half-started cluster, so
        # that Dask does not try to close it again at exit (a traceback)
        for cluster in set(SpecCluster._instances) - before:
            SpecCluster._instances.discard(cluster)
        if isinstance(exc, KeyboardInterrupt):
            _abandon_workers()
        raise


def _abandon_workers() -> None:
    """After a Ctrl-C while a local cluster starts: end its worker processes at once
    (a worker still starting would print a traceback when this process exits) and
    keep the abandoned start's tasks from logging theirs."""
    import multiprocessing
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    with contextlib.suppress(Exception):
        for proc in multiprocessing.active_children():
            if proc.name == "Dask Worker process (from Nanny)":
                with contextlib.suppress(Exception):
                    proc.kill()


@contextlib.contextmanager
def open_executor(settings, client=None):
    """The one place a run's executor is opened, and closed when the block ends.

    ``settings`` (a ``RunSettings``): Dask if it names a ``scheduler`` or
    ``workers`` (a local cluster, with ``dashboard`` if asked for), or if a
    ``client`` is given; else ``threads`` numba threads in this process.
    A sweep, comparison or batch opens one and plays all of its runs on it.
    """
    executor = make_executor(resolve_threads(settings.threads), settings.scheduler,
                             settings.workers,
                             client, dashboard=settings.dashboard,
                             connect_timeout=settings.connect_timeout)
    try:
        yield executor
    finally:
        executor.close()


def make_executor(threads: int, scheduler=None, workers=None, client=None,
                  dashboard: bool = False, connect_timeout: float | None = None):
    """The executor for a run: Dask if a scheduler, workers or client is given, else threads.

    ``dashboard``: show Dask's dashboard of a local cluster (``workers``), on
    127.0.0.1; ``connect_timeout``: seconds to wait for ``scheduler`` to answer.
    """
    if scheduler is not None and workers is not None:
        raise TricksimError("give --scheduler or --workers, not both")
    if client is not None or scheduler is not None or workers is not None:
        return DaskExecutor(scheduler=scheduler, workers=workers, client=client,
                            dashboard=dashboard, connect_timeout=connect_timeout)
    if dashboard:
        raise TricksimError("--dashboard needs --workers N (a local Dask cluster)")
    check_timeout(connect_timeout)
    return LocalExecutor(threads)
