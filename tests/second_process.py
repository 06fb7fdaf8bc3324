"""The suite's last files run in the warm-up process once it has compiled.

A whole-suite run has two processes (tests/conftest.py): the tests, and the warm-up
(tests/_warm_kernels.py) that compiles kernels for the later files on the second core.
On a cold cache the warm-up is done long before the tests are, and its core then
idles while the tests run one after another. So the warm-up, after its compile steps,
runs the suite's last files itself (``TAIL_FROM``) (a pytest session in its process) and writes each
test's reports, as pytest serialises them for remote runners, to a file; the tests'
session moves those tests to its end and, reaching each one, reports what the second
process ran instead of running it again (``TailReports``). Every test is still counted,
reported, timed (``--durations``) and failed in the one session a user started; a test
the second process did not report (it crashed, or its file would not collect) fails
there with the second process's output.

Only a whole-suite run splits (the warm-up's own conditions); naming files or ``-k``
runs everything in one process as before.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

#: the second process runs the test files of tests/ whose names sort at or after this
#: one (the suite's last ones: the warm-up's first compile steps are theirs); chosen so
#: that both processes end together on a cold cache (measured in the README's test
#: section)
TAIL_FROM = "test_replay_strict.py"
#: the environment variable naming the reports' file (set for the warm-up process)
REPORTS_ENV = "TRICKSIM_TAIL_REPORTS"
#: seconds the tests' session waits for a test's reports once the second process ended
#: (its last lines may still be on their way to the file)
LAST_WAIT = 5.0


def log_of(reports) -> Path:
    """The second process's pytest output file beside its reports' file ``reports``."""
    return Path(reports).with_suffix(".log")


def tail_paths() -> list[str]:
    """The second process's test files (``TAIL_FROM``) as paths."""
    return sorted(str(p) for p in Path(__file__).parent.glob("test_*.py")
                  if p.name >= TAIL_FROM)


def in_tail(nodeid: str) -> bool:
    """Whether the test ``nodeid`` (``tests/test_x.py::...``) is the second process's:
    in a file of tests/ itself (not a subfolder) from ``TAIL_FROM`` on."""
    folder, _, name = nodeid.split("::", 1)[0].rpartition("/")
    return folder.rpartition("/")[2] == "tests" and name >= TAIL_FROM


class ReportWriter:
    """pytest plugin of the second process: one JSON line per test report, per failed
    collection and, at the end, ``{"finished": exit status}``."""

    def __init__(self, path, where=None):
        self.path, self.where = Path(path), where
        self.config = None

    def _line(self, data: dict) -> None:
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(data) + "\n")

    def pytest_configure(self, config):
        self.config = config

    def pytest_runtest_logstart(self, nodeid, location):
        if self.where is not None:
            self.where(nodeid)

    def pytest_runtest_logreport(self, report):
        self._line(self.config.hook.pytest_report_to_serializable(config=self.config,
                                                                  report=report))

    def pytest_collectreport(self, report):
        if report.failed:
            self._line({"collect_error": report.nodeid, "text": str(report.longrepr)[-3000:]})

    def pytest_sessionfinish(self, session, exitstatus):
        self._line({"finished": int(exitstatus), "at": time.time()})


def run_tail(path, where=None) -> int:
    """Run the second process's files (``tail_paths``) in this process, their reports to ``path`` (ReportWriter;
    ``where(nodeid)`` called as each test starts), pytest's own output to ``log_of(path)``;
    returns pytest's exit status."""
    import contextlib

    import pytest
    import sys
    sys.path.insert(0, os.getcwd())     # as ``python -m pytest`` has it (``import tests...``)
    os.environ["TRICKSIM_NO_WARMUP"] = "1"      # this session must not start another
    os.environ.pop("TRICKSIM_COMPILE_LOG", None)  # the warm-up's log goes on (``where``)
    base = Path(path).parent / "tmp"
    with open(log_of(path), "w", encoding="utf-8") as out, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(out):
        return int(pytest.main([*tail_paths(), "-q", "-p", "no:cacheprovider", "-o",
                                "addopts=", "--continue-on-collection-errors",
                                f"--basetemp={base}"],
                               plugins=[ReportWriter(path, where)]))


class TailReports:
    """The tests' session's view of the second process: the reports of each of its
    tests, read from the file as they come (``reports``)."""

    def __init__(self, path, process):
        self.path, self.process, self.log = Path(path), process, log_of(path)
        self.seen: dict[str, list[dict]] = {}
        self.errors: list[str] = []
        self.finished = False
        self.start = time.time()    # the session's start, near enough
        self.ended = None           # when this session first saw the process ended
        self.own_done = None        # when this session reached the first of these tests
        self.tail_done = None       # when the second process finished (its clock)
        self._offset = 0

    def _read(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, encoding="utf-8") as fh:
            fh.seek(self._offset)
            while True:
                line = fh.readline()
                if not line.endswith("\n"):         # not written whole yet
                    break
                self._offset = fh.tell()
                data = json.loads(line)
                if "finished" in data:
                    self.finished, self.tail_done = True, data.get("at")
                elif "collect_error" in data:
                    self.errors.append(f"{data['collect_error']}: {data['text']}")
                else:
                    self.seen.setdefault(data["nodeid"], []).append(data)

    def _done(self, nodeid: str) -> bool:
        return any(d.get("when") == "teardown" for d in self.seen.get(nodeid, ()))

    def reports(self, item) -> list:
        """The reports of ``item`` from the second process, waiting for them; a failed
        report naming the reason if that process ended without them."""
        config = item.config
        self.own_done = self.own_done or time.time()
        while True:
            self._read()
            if self._done(item.nodeid):
                return [config.hook.pytest_report_from_serializable(config=config, data=d)
                        for d in self.seen[item.nodeid]]
            if self.finished or self.process.poll() is not None:
                # one wait for the last lines, not one per test the process left
                self.ended = self.ended or time.monotonic()
                if time.monotonic() - self.ended > LAST_WAIT:
                    return [self._missing(item)]
            time.sleep(0.05)

    def balance(self) -> str:
        """One line: when this session had run its own tests and when the second
        process was done, in seconds from the session's start (what ``TAIL_FROM``
        balances)."""
        start = self.start
        if self.own_done is None:
            return "second process: none of its tests were reached"
        # its last report comes before its session's end: wait a little for that line
        deadline = time.monotonic() + LAST_WAIT
        self._read()
        while (self.tail_done is None and self.process.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.05)
            self._read()
        tail = (f"{self.tail_done - start:.0f} s" if self.tail_done is not None
                else "not finished")
        return (f"split run: this process ran its tests by {self.own_done - start:.0f} s, "
                f"the second process ({len(self.seen)} tests, from {TAIL_FROM}) "
                f"finished at {tail}")

    def _missing(self, item):
        from _pytest.reports import TestReport
        out = self.log.read_text(encoding="utf-8", errors="replace")[-4000:] \
            if self.log.exists() else "(no output)"
        why = "\n".join(self.errors) or f"exit code {self.process.poll()}"
        text = (f"the second process (tests/second_process.py) did not report this test "
                f"({why}); its output ends:\n{out}")
        return TestReport(item.nodeid, item.location, {}, "failed", text, "call")
