"""The split whole-suite run (tests/second_process.py): the tests' session reports the
second process's tests from its report file, and fails, with the reason, a test that
process left unreported."""
import json
import os
import threading
import time
from types import SimpleNamespace

from _pytest.reports import TestReport

import second_process
from second_process import TailReports


class Process:
    """A stand-in for the second process: ``poll()`` is its exit code (None: running)."""

    def __init__(self, code=None):
        self.code = code

    def poll(self):
        return self.code


def report(nodeid, when, outcome="passed", longrepr=None):
    rep = TestReport(nodeid, ("tests/test_x.py", 1, nodeid), {}, outcome, longrepr, when,
                     duration=0.25)
    return {**rep._to_json(), "$report_type": "TestReport"}


def item(config, nodeid):
    return SimpleNamespace(nodeid=nodeid, location=("tests/test_x.py", 1, nodeid),
                           config=config)


def test_reports_are_read_as_written_and_a_half_line_waits(tmp_path, pytestconfig):
    path = tmp_path / "tail.jsonl"
    a, b = "tests/test_x.py::test_a", "tests/test_x.py::test_b"
    lines = [report(a, "setup"), report(a, "call", "failed", "planted failure"),
             report(a, "teardown"), report(b, "setup")]
    path.write_text("".join(json.dumps(d) + "\n" for d in lines)
                    + json.dumps(report(b, "call"))[:40])       # b's call half written
    tail = TailReports(path, Process())
    got = tail.reports(item(pytestconfig, a))
    assert [(r.when, r.outcome) for r in got] == [("setup", "passed"), ("call", "failed"),
                                                  ("teardown", "passed")]
    assert "planted failure" in str(got[1].longrepr) and got[1].duration == 0.25
    tail._read()
    assert not tail._done(b) and len(tail.seen[b]) == 1


def test_a_test_the_process_left_fails_naming_why_and_waits_once(tmp_path, pytestconfig,
                                                                 monkeypatch):
    monkeypatch.setattr(second_process, "LAST_WAIT", 0.2)
    path = tmp_path / "tail.jsonl"
    path.write_text(json.dumps({"collect_error": "tests/test_y.py", "text": "SyntaxError"})
                    + "\n")
    second_process.log_of(path).write_text("output of the second process\n")
    tail = TailReports(path, Process(code=3))
    began = time.monotonic()
    first = tail.reports(item(pytestconfig, "tests/test_y.py::test_a"))
    second = tail.reports(item(pytestconfig, "tests/test_y.py::test_b"))
    assert time.monotonic() - began < 1.0
    for got in (first, second):
        assert [(r.when, r.outcome) for r in got] == [("call", "failed")]
        text = str(got[0].longrepr)
        assert "did not report" in text and "tests/test_y.py: SyntaxError" in text
        assert "output of the second process" in text


def test_only_the_tail_files_are_the_second_process_s():
    assert second_process.in_tail("tests/test_wendish_rules.py::test_x[a::b]")
    assert not second_process.in_tail("tests/test_analyse.py::test_x")
    assert not second_process.in_tail("tests/toygame/test_toygame.py::test_x")
    assert all(p.endswith(".py") and os.path.exists(p)
               for p in second_process.tail_paths())


def test_the_balance_line_gives_both_ends_from_the_start(tmp_path, pytestconfig):
    path = tmp_path / "tail.jsonl"
    a = "tests/test_x.py::test_a"
    tail = TailReports(path, Process())
    assert "none of its tests were reached" in tail.balance()
    tail.start = time.time() - 100.0
    lines = [report(a, "setup"), report(a, "call"), report(a, "teardown"),
             {"finished": 0, "at": tail.start + 42.0}]
    path.write_text("".join(json.dumps(d) + "\n" for d in lines))
    tail.reports(item(pytestconfig, a))
    line = tail.balance()
    assert "ran its tests by 100 s" in line and "(1 tests," in line and "finished at 42 s" in line


def test_the_balance_line_waits_for_the_second_process_s_last_line(tmp_path, pytestconfig):
    # the last test's reports are in, the session's "finished" line comes a moment later
    path = tmp_path / "tail.jsonl"
    a = "tests/test_x.py::test_a"
    tail = TailReports(path, Process())
    tail.start = time.time() - 100.0
    path.write_text("".join(json.dumps(report(a, w)) + "\n"
                            for w in ("setup", "call", "teardown")))
    tail.reports(item(pytestconfig, a))

    def finish():
        time.sleep(0.5)
        with open(path, "a") as fh:
            fh.write(json.dumps({"finished": 0, "at": tail.start + 99.0}) + "\n")

    writer = threading.Thread(target=finish)
    writer.start()
    line = tail.balance()
    writer.join()
    assert "finished at 99 s" in line, line
