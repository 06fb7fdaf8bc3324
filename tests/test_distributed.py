"""Runs on a Dask cluster give exactly the threaded result, even when a worker dies.

One local cluster of two worker processes (one numba thread each) serves the
module; it is started after this process has loaded the Schadenfreude kernels,
so the workers find them in the numba cache instead of compiling them.
"""
from __future__ import annotations

import os
import signal
import time

import pandas as pd
import pytest

from simcore import simulate
from simcore.errors import TricksimError

distributed = pytest.importorskip("distributed")

POLICIES = ["heuristic", "random", "random", "random"]


def threaded(games, chunk, seed=11, policies=POLICIES, summary_only=False):
    return simulate("schadenfreude", None, policies, games, seed, threads=None,
                    chunk_size=chunk, summary_only=summary_only)


def assert_same(a, b):
    assert a.summary.keys() == b.summary.keys()
    for section in a.summary:
        pd.testing.assert_frame_equal(a.summary[section], b.summary[section], check_exact=True)
    assert a.tables.keys() == b.tables.keys()
    for name in a.tables:
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name], check_exact=True)


@pytest.fixture(scope="module")
def client():
    from simcore.running.cluster import start_local_cluster
    threaded(50, 50)                      # kernels compiled and cached before the workers start
    cluster = start_local_cluster(2)
    cl = distributed.Client(cluster, set_as_default=False)
    try:
        yield cl
    finally:
        cl.close()
        cluster.close()


def worker_pids(client) -> dict[str, int]:
    return client.run(os.getpid)


def test_local_cluster_of_two_processes_gives_the_threaded_result(client, tmp_path):
    base = threaded(3000, 3000)
    res = simulate("schadenfreude", None, POLICIES, 3000, 11, chunk_size=250, client=client)
    assert res.execution["executor"] == "dask" and res.execution["chunks"] == 12
    assert_same(base, res)
    # checkpointed into a folder on the cluster: the same files as a threaded run's
    on_cluster = simulate("schadenfreude", None, POLICIES, 3000, 11, chunk_size=250,
                          client=client, out=tmp_path / "dask")
    on_threads = simulate("schadenfreude", None, POLICIES, 3000, 11, chunk_size=1000,
                          out=tmp_path / "threads")
    assert_same(on_cluster, on_threads)
    for name in ("games.parquet", "summary.csv"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "threads" / name).read_bytes()
    assert not (tmp_path / "dask" / "chunks").exists()      # chunk files go once the run is done


def test_a_summary_only_run_on_the_cluster_matches(client):
    base = threaded(4000, 4000, seed=3, policies=["random"], summary_only=True)
    res = simulate("schadenfreude", None, ["random"], 4000, 3, chunk_size=333,
                   summary_only=True, client=client)
    assert res.tables == {} and res.aggregates["games"] == 4000
    assert_same(base, res)


def test_a_killed_worker_s_chunks_are_played_elsewhere_with_the_same_result(client, tmp_path):
    # chunks long enough that the workers, not this process's saves (each synced to
    # disk), set the pace: then the workers have chunks in flight at any moment
    games, chunk = 40000, 2000
    base = threaded(games, games)
    before = worker_pids(client)
    assert len(before) == 2
    killed = []

    def progress(done, total):
        if not killed and done >= 3 * chunk:
            # kill the worker with the most chunks in flight, without warning
            busy = client.processing()
            addr = max(before, key=lambda a: len(busy.get(a, ())))
            os.kill(before[addr], signal.SIGKILL)
            killed.append((addr, len(busy.get(addr, ()))))

    res = simulate("schadenfreude", None, POLICIES, games, 11, chunk_size=chunk,
                   client=client, out=tmp_path / "run", progress=progress)
    assert killed and killed[0][1] > 0, "the killed worker had chunks in flight"
    assert_same(base, res)
    # the nanny starts a new worker process in place of the killed one
    deadline = time.monotonic() + 60
    after = worker_pids(client)
    while len(after) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        after = worker_pids(client)
    assert len(after) == 2, f"no replacement worker within 60 s: {after}"
    assert before[killed[0][0]] not in after.values()
    assert len(set(after.values()) - set(before.values())) == 1, (before, after)


def test_an_unreachable_scheduler_is_one_clear_error():
    from simcore.running.cluster import DaskExecutor
    with pytest.raises(TricksimError, match="cannot reach the Dask scheduler at "
                                            "'tcp://127.0.0.1:9'") as err:
        DaskExecutor(scheduler="tcp://127.0.0.1:9", connect_timeout=0.5)
    assert "\n" not in str(err.value)


def test_scheduler_and_workers_together_are_refused(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 10, "--scheduler", "tcp://x:1",
                 "--workers", 2, "--out", "run")
    assert res.exit_code == 1 and "give --scheduler or --workers, not both" in res.stderr
    assert "Traceback" not in res.output


def test_cli_workers_starts_a_local_cluster(invoke, tmp_path):
    res = invoke("simulate", "schadenfreude", "--games", 600, "--seed", 2, "--chunk-size", 100,
                 "--workers", 2, "--out", "c", "--format", "csv")
    assert res.exit_code == 0, res.output
    assert "Dask: local cluster of 2 processes" in res.stderr
    ref = invoke("simulate", "schadenfreude", "--games", 600, "--seed", 2, "--out", "t",
                 "--format", "csv")
    assert res.stdout == ref.stdout
    assert (tmp_path / "c" / "games.parquet").read_bytes() == \
        (tmp_path / "t" / "games.parquet").read_bytes()


def test_a_sweep_on_the_cluster_gives_the_threaded_table(client, tmp_path):
    from simcore.experiments.sweep import parse_vary, sweep
    vary = parse_vary("schadenfreude", ["limit=30,40"])
    threads = sweep("schadenfreude", vary, games=1000, seed=4, chunk_size=250)
    cluster = sweep("schadenfreude", vary, games=1000, seed=4, chunk_size=250, client=client,
                    out=tmp_path / "sw")
    pd.testing.assert_frame_equal(threads.table, cluster.table, check_exact=True)
    assert all(r.execution["executor"] == "dask" for r in cluster.runs)
