"""Fixtures shared by every game's tests (keep this file game-agnostic).

Numba compiles each kernel once per process (and caches to disk), so the
expensive things here are session-scoped and everything runs in-process:
the CLI through click's CliRunner, never a subprocess per test.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

import toygame
from simcore.games import register_game

# The first call of a jitted function compiles; hypothesis must not count that
# against its per-example deadline.
settings.register_profile("tricksim", deadline=None, max_examples=200,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tricksim")

GOLDEN = Path(__file__).parent / "golden"

# the test-only fourth game (tests/toygame, docs/adding-a-game.md): its one registry line
register_game(toygame.ENTRY)


def numba_threads() -> int:
    """The threads numba was started with (NUMBA_NUM_THREADS, by default the CPUs)."""
    import numba
    return int(numba.config.NUMBA_NUM_THREADS)


#: "two threads" where a test compares runs on 1 and 2 threads: 2, or 1 on a machine
#: (or NUMBA_NUM_THREADS=1) where numba refuses a second thread; the session header
#: says so. Tests that need two threads for real take ``needs_two_threads``.
TWO_THREADS = min(2, numba_threads())

#: a visible skip for a test that means nothing on one numba thread
needs_two_threads = pytest.mark.skipif(
    TWO_THREADS < 2, reason="needs 2 numba threads; NUMBA_NUM_THREADS=1 here "
    "(set NUMBA_NUM_THREADS=2 to run it)")


def pytest_report_header(config):
    if TWO_THREADS < 2:
        return ("numba threads: 1 (NUMBA_NUM_THREADS=1): the 1-against-2-thread "
                "comparisons run on 1 thread; tests that need 2 are skipped")
    return f"numba threads: {numba_threads()}"

_WARM = None
_LOCKS = None
#: the second process's reports in a split run (tests/second_process.py), else None
_TAIL = None


def pytest_sessionstart(session):
    """Start compiling the kernels in a second process (tests/_warm_kernels.py) for a
    whole-suite run, unless TRICKSIM_NO_WARMUP is set: not when files or tests were
    named, or picked with -k (the warm-up compiles every game's kernels, most of which a
    few files never use, on a core the tests then lack). The two processes compile a
    kernel one at a time (tests/compile_locks.py): one that needs a kernel the other is
    compiling waits for it and loads it from numba's cache. Its compiling done, the
    warm-up process runs the suite's last files (tests/second_process.py)."""
    global _WARM, _LOCKS, _TAIL
    import os
    import subprocess
    import sys
    import tempfile
    if os.environ.get("TRICKSIM_NO_WARMUP") or session.config.getoption("keyword") \
            or session.config.getoption("collectonly") \
            or session.config.args_source == pytest.Config.ArgsSource.ARGS:
        return
    import compile_locks
    _LOCKS = tempfile.mkdtemp(prefix="tricksim-compile-locks-")
    compile_locks.install(_LOCKS)
    import second_process
    reports = Path(_LOCKS) / "tail.jsonl"
    _WARM = subprocess.Popen([sys.executable, str(Path(__file__).parent / "_warm_kernels.py")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env={**os.environ, "TRICKSIM_COMPILE_LOCKS": _LOCKS,
                                  second_process.REPORTS_ENV: str(reports)})
    _TAIL = second_process.TailReports(reports, _WARM)


def pytest_collection_modifyitems(session, config, items):
    """In a split run (tests/second_process.py) the second process's tests go last: the
    session reports them when it gets there, by then mostly run."""
    if _TAIL is not None:
        import second_process
        items.sort(key=lambda item: second_process.in_tail(item.nodeid))    # stable


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """A test of the second process: report what it ran (tests/second_process.py)."""
    import second_process
    if _TAIL is None or not second_process.in_tail(item.nodeid):
        return None
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for report in _TAIL.reports(item):
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


_LOG = None


def pytest_configure(config):
    """With TRICKSIM_COMPILE_LOG=FILE: log every kernel numba compiles in this session,
    with the test that asked for it (tests/compile_log.py)."""
    global _LOG
    import os
    if os.environ.get("TRICKSIM_COMPILE_LOG"):
        from compile_log import CompileLog
        _LOG = CompileLog(os.environ["TRICKSIM_COMPILE_LOG"])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Name the test in the compile log before its fixtures run (they may compile)."""
    if _LOG is not None:
        _LOG.where = item.nodeid


def _compiled_overloads():
    """Every jitted kernel of the package loaded in this process with each compiled
    specialization: (qualified name, signature, seconds compiling or None when loaded
    from the cache, parallel)."""
    import sys
    from numba.core.registry import CPUDispatcher
    seen = set()
    for name, mod in list(sys.modules.items()):
        if not (name.startswith(("simcore", "tests", "toygame")) or name.startswith("test_")):
            continue
        for obj in list(vars(mod).values()):
            if not isinstance(obj, CPUDispatcher) or id(obj) in seen:
                continue
            seen.add(id(obj))
            qual = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"
            par = bool(obj.targetoptions.get("parallel"))
            for sig, cres in obj.overloads.items():
                timers = (cres.metadata or {}).get("timers") or {}
                yield qual, sig, timers.get("compiler_lock"), par


def pytest_terminal_summary(terminalreporter):
    """With TRICKSIM_COMPILE_REPORT=N: the N kernels that took longest to compile in
    this session (seconds under numba's compiler lock: a kernel's time includes the
    callees it compiled first), how many were compiled or loaded from the cache, and
    every kernel compiled for more than one signature (a second specialization is a
    second compile: int32 against int64 arrays, another layout). In a split run, one
    line on how the two processes' ends compare (tests/second_process.py)."""
    import os
    if _TAIL is not None:
        terminalreporter.write_line(_TAIL.balance())
    top = os.environ.get("TRICKSIM_COMPILE_REPORT")
    if not top:
        return
    rows = list(_compiled_overloads())
    compiled = sorted((r for r in rows if r[2] is not None), key=lambda r: -r[2])
    tr = terminalreporter
    tr.section("numba compiles")
    tr.write_line(f"{len(compiled)} specializations compiled "
                  f"({sum(r[2] for r in compiled):.0f} s under the compiler lock, nested "
                  f"compiles counted in their callers too), {len(rows) - len(compiled)} "
                  f"loaded from the cache")
    for qual, sig, secs, par in compiled[:int(top)]:
        tr.write_line(f"{secs:7.1f} s  {qual}{' [parallel]' if par else ''}  {sig}")
    per: dict = {}
    for qual, sig, secs, par in rows:
        per.setdefault(qual, []).append(sig)
    for qual, sigs in sorted(per.items()):
        if len(sigs) > 1:
            tr.write_line(f"{len(sigs)} signatures: {qual}")
            for sig in sigs:
                tr.write_line(f"      {sig}")


def pytest_sessionfinish(session, exitstatus):
    """Stop the warm-up process if it still runs (it only fills the numba cache) and
    remove the compile locks' folder."""
    if _WARM is not None and _WARM.poll() is None:
        _WARM.kill()
        _WARM.wait()
    if _LOCKS is not None:
        import shutil
        shutil.rmtree(_LOCKS, ignore_errors=True)


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    """The folder of golden records (tests/golden)."""
    return GOLDEN


def read_jsonl(path) -> list[dict]:
    """The records of a JSON Lines file."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_jsonl(path, records) -> Path:
    """Write records as JSON Lines (one compact object per line)."""
    path = Path(path)
    with open(path, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write((rec if isinstance(rec, str) else json.dumps(rec, separators=(",", ":")))
                     + "\n")
    return path


@pytest.fixture(scope="session")
def jsonl():
    """``jsonl.read(path)`` and ``jsonl.write(path, records)`` (a str record is written as is)."""
    class _JSONL:
        read = staticmethod(read_jsonl)
        write = staticmethod(write_jsonl)
    return _JSONL


@pytest.fixture
def invoke(tmp_path, monkeypatch):
    """Run ``tricksim ARGS...`` in-process with the working directory at ``tmp_path``.

    Returns click's Result (``exit_code``, ``stdout``, ``stderr``, ``output``,
    ``exception``); exceptions are caught so that a traceback shows up as a
    failed ``exception`` check rather than an error in the test.
    """
    from cli.main import cli
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(*args, input=None):
        return runner.invoke(cli, [str(a) for a in args], input=input, prog_name="tricksim")

    return run


@pytest.fixture(scope="session")
def game_records():
    """Memoised records: ``game_records(game, rules, policies, seed, indices)`` -> [record].

    ``rules`` is a RuleSet; records of the same arguments are built once per session.
    """
    from simcore import get_game
    cache: dict = {}

    def build(game_name, rules, policies, seed, indices):
        g = get_game(game_name)
        names, ids = g.policy_ids(list(policies), rules)
        out = []
        for i in indices:
            key = (game_name, rules.canonical(), tuple(names), seed, i)
            if key not in cache:
                cache[key] = g.record(rules, names, ids, seed, i)
            out.append(cache[key])
        return out

    return build


def one_error_line(res, *expected):
    """A refusal: non-zero exit, no traceback, one stderr line holding every ``expected``."""
    assert res.exit_code == 1, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    # the cold-cache notice ("compiling GAME's kernels ...") is not an error line
    lines = [ln for ln in res.stderr.strip().splitlines() if not ln.startswith("compiling ")]
    assert len(lines) == 1, res.stderr
    for text in expected:
        assert text in lines[0], lines[0]
