"""A private local cluster, and schedulers that are not Dask (issue 9, items 3 and 6).

``--workers N`` listens on 127.0.0.1 only, with Dask's dashboard only when
``--dashboard`` asks for it.  ``--scheduler`` is checked before a client is
made: a malformed or empty address, a closed port, a port that accepts
connections but says nothing or something else, and a worker's port each give
one line within ``--connect-timeout``.  Workers that keep dying give one line
saying so and that the run folder resumes; the cluster takes the chunks to
play lazily.
"""
from __future__ import annotations

import os
import socket
import threading
import time
import urllib.error
import urllib.request

import dask
import pandas as pd
import psutil
import pytest

from simcore import simulate
from simcore.errors import TricksimError

from conftest import one_error_line

distributed = pytest.importorskip("distributed")




@pytest.fixture(scope="module")
def cluster():
    """A local cluster of one worker that Dask gives up on after one death of a task."""
    from simcore.running.cluster import start_local_cluster
    simulate("schadenfreude", None, ["random"], 50, 1, chunk_size=50)   # kernels cached
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cl = start_local_cluster(1)
    client = distributed.Client(cl, set_as_default=False)
    try:
        yield cl, client
    finally:
        client.close()
        cl.close()


def listening(pids) -> list[tuple[int, str, int]]:
    out = []
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            conns = proc.net_connections(kind="inet") if hasattr(proc, "net_connections") \
                else proc.connections(kind="inet")
        except psutil.NoSuchProcess:
            continue
        out += [(pid, c.laddr.ip, c.laddr.port) for c in conns if c.status == "LISTEN"]
    return out


@pytest.mark.parametrize("dashboard", [False, True], ids=["plain", "dashboard"])
def test_a_local_cluster_listens_on_127_0_0_1_only(dashboard):
    # today the dashboard listens on every interface (0.0.0.0:PORT)
    from simcore.running.cluster import start_local_cluster
    me = psutil.Process()
    before = set(listening([me.pid]))
    cl = start_local_cluster(1, dashboard=dashboard)
    try:
        pids = [me.pid] + [p.pid for p in me.children(recursive=True)]
        sockets = [s for s in listening(pids) if s not in before]
        assert len(sockets) >= 3                         # scheduler, http, worker, nanny
        assert {ip for _, ip, _ in sockets} == {"127.0.0.1"}, sockets
        assert cl.scheduler.address.startswith("tcp://127.0.0.1:")
        link = cl.dashboard_link
        assert link.startswith("http://127.0.0.1:")
        try:
            status = urllib.request.urlopen(link, timeout=10).status
        except urllib.error.HTTPError as exc:
            status = exc.code
        assert status == (200 if dashboard else 404)     # no dashboard unless asked
    finally:
        cl.close()


def test_dashboard_prints_its_local_address(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 200, "--seed", 1, "--workers", 1,
                 "--dashboard", "--out", "run")
    assert res.exit_code == 0, res.output
    notes = [line for line in res.stderr.splitlines() if "dashboard" in line]
    assert len(notes) == 1 and "Dask dashboard (this machine only): http://127.0.0.1:" \
        in notes[0], res.stderr


def test_dashboard_without_workers_is_one_line(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 20, "--dashboard", "--out", "run")
    one_error_line(res, "--dashboard needs --workers N")


# ----- --scheduler that is not Dask -------------------------------------------------
@pytest.mark.parametrize("address, message", [
    ("", "--scheduler '' is empty; allowed: tcp://HOST:PORT"),
    ("foo", "--scheduler 'foo' is not a Dask scheduler address; allowed: tcp://HOST:PORT"),
    ("tcp://", "is not a Dask scheduler address"),
    ("tcp://host", "is not a Dask scheduler address"),
    ("http://host:8786", "is not a Dask scheduler address"),
    ("tcp://host:99999", "is not a Dask scheduler address"),
    ("tcp://host:port", "is not a Dask scheduler address"),
])
def test_a_malformed_scheduler_address_is_one_line_at_once(invoke, address, message,
                                                           monkeypatch):
    # today: "--workers None" for "", a 20 s stall and a traceback at exit for "foo"
    # "at once": refused before any connection is tried (a count, not a clock)
    tried = []
    real_connect = socket.socket.connect

    def connect(sock, where):
        tried.append(where)
        return real_connect(sock, where)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex",
                        lambda sock, where: tried.append(where) or 111)
    t0 = time.monotonic()
    res = invoke("simulate", "schadenfreude", "--games", 20, "--scheduler", address,
                 "--out", "run")
    one_error_line(res, message)
    assert tried == []
    assert time.monotonic() - t0 < 15         # a generous margin below the 20 s stall


class Server:
    """A TCP server on 127.0.0.1 that accepts connections and says nothing (or ``reply``)."""

    def __init__(self, reply: bytes | None = None):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.reply = reply
        self.conns = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            if self.reply is not None:
                conn.sendall(self.reply)

    def close(self):
        self.sock.close()
        for conn in self.conns:
            conn.close()


@pytest.mark.parametrize("reply, message", [
    (None, "accepts connections but no Dask scheduler answered there within 1 s"),
    (b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
     "answers but not as a Dask scheduler"),
], ids=["silent", "http"])
def test_a_port_that_is_not_dask_fails_within_the_timeout(invoke, reply, message):
    # today a silent port hangs for minutes
    server = Server(reply)
    try:
        t0 = time.monotonic()
        res = invoke("simulate", "schadenfreude", "--games", 20, "--out", "run",
                     "--scheduler", f"tcp://127.0.0.1:{server.port}", "--connect-timeout", 1)
        elapsed = time.monotonic() - t0
    finally:
        server.close()
    one_error_line(res, f"'tcp://127.0.0.1:{server.port}'", message)
    assert elapsed < 30                       # a 1 s timeout, a generous margin; not minutes


def test_a_closed_port_is_one_line(invoke):
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    res = invoke("simulate", "schadenfreude", "--games", 20, "--out", "run",
                 "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", 2)
    one_error_line(res, f"cannot reach the Dask scheduler at 'tcp://127.0.0.1:{port}'")


@pytest.mark.parametrize("timeout", [0, -1, 1e9])
def test_a_connect_timeout_out_of_range_is_one_line(invoke, timeout):
    res = invoke("simulate", "schadenfreude", "--games", 20, "--out", "run",
                 "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", timeout)
    one_error_line(res, f"--connect-timeout {float(timeout)} is not allowed")


def test_a_worker_s_address_is_not_a_scheduler(invoke, cluster):
    _, client = cluster
    worker = next(iter(client.scheduler_info()["workers"]))
    res = invoke("simulate", "schadenfreude", "--games", 20, "--out", "run",
                 "--scheduler", worker)
    one_error_line(res, f"'{worker}' is not a Dask scheduler (it answered as Worker)")


def test_a_real_scheduler_passes_the_check(invoke, cluster):
    cl, _ = cluster
    res = invoke("simulate", "schadenfreude", "--games", 300, "--seed", 4, "--chunk-size", 100,
                 "--scheduler", cl.scheduler.address, "--out", "run", "--format", "csv")
    assert res.exit_code == 0, res.output
    assert f"Dask: {cl.scheduler.address}" in res.stderr
    ref = invoke("simulate", "schadenfreude", "--games", 300, "--seed", 4, "--out", "ref",
                 "--format", "csv")
    assert res.stdout == ref.stdout


# ----- the cluster takes chunks lazily; workers that keep dying ------------------------
def test_the_cluster_takes_the_chunks_to_play_lazily(cluster):
    from simcore.running.checkpoint import RunPlan
    from simcore.running.cluster import DaskExecutor
    from simcore.games import get_game
    _, client = cluster
    rules = get_game("schadenfreude").build_rules()
    plan = RunPlan("schadenfreude", rules, ("random",) * 4, 1, 10**12, 100, True)
    taken = []

    def todo():                       # as the runner's: far more chunks than fit in memory
        for k in range(plan.chunks):
            if k > 100:
                raise AssertionError("the executor listed the chunks to play up front")
            taken.append(k)
            yield k

    results = DaskExecutor(client=client).run(plan, todo())
    got = [next(results)[0] for _ in range(5)]
    results.close()                           # stops the run: the chunks in flight cancelled
    assert set(got) <= set(taken) and len(taken) < 20


def test_workers_that_keep_dying_are_one_line_and_the_folder_resumes(cluster, tmp_path,
                                                                     monkeypatch):
    # today: a KilledWorker traceback
    from simcore.running.cluster import DaskExecutor
    _, client = cluster

    def die(game, state, policies, seed, start, count, summary_only):
        """Chunks 0-2 play; chunk 3 on kills its worker (pickled by value), after a
        pause that lets the finished chunks reach the runner's folder first."""
        if start < 300:
            from simcore.running.cluster import play_chunk
            return play_chunk(game, state, policies, seed, start, count, summary_only)
        time.sleep(1.0)
        os._exit(1)

    monkeypatch.setattr(DaskExecutor, "task", staticmethod(die))
    with pytest.raises(TricksimError) as err:
        simulate("schadenfreude", None, ["random"], 600, seed=3, chunk_size=100,
                 out=tmp_path / "run2", client=client)
    kept = sorted(p.name.split(".")[0] for p in (tmp_path / "run2" / "chunks").glob("*.agg.json"))
    assert kept == ["000000", "000001", "000002"], kept
    text = str(err.value)
    assert "\n" not in text
    assert "every Dask worker that played chunk" in text and "keep dying" in text
    assert f"the run folder '{tmp_path / 'run2'}' keeps every finished chunk: run the same " \
           "command again to resume" in text
    monkeypatch.undo()
    deadline = time.monotonic() + 60          # the nanny starts a new worker process
    while not client.scheduler_info()["workers"] and time.monotonic() < deadline:
        time.sleep(0.2)
    resumed = simulate("schadenfreude", None, ["random"], 600, seed=3, chunk_size=100,
                       out=tmp_path / "run2", client=client)
    assert resumed.played == 300 and resumed.execution["chunks_resumed"] == 3
    whole = simulate("schadenfreude", None, ["random"], 600, seed=3, chunk_size=100)
    for section in whole.summary:
        pd.testing.assert_frame_equal(resumed.summary[section], whole.summary[section],
                                      check_exact=True)
