"""Ctrl-C ends a command with one line and exit status 130, never a traceback
(issue 9, item 7)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import simcore.records
import simcore.running.runner


def test_ctrl_c_in_a_run_exits_130(invoke, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(simcore.running.runner, "simulate", interrupted)
    res = invoke("simulate", "schadenfreude", "--games", 10, "--out", "o")
    assert res.exit_code == 130, res.output
    assert res.stderr.strip() == ("interrupted (Ctrl-C); finished chunks are kept and the same "
                                  "command resumes")


def test_ctrl_c_in_replay_exits_130(invoke, monkeypatch, tmp_path):
    def interrupted(path):
        raise KeyboardInterrupt
    monkeypatch.setattr(simcore.records, "replay_file", interrupted)
    (tmp_path / "r.jsonl").write_text("{}\n")
    res = invoke("replay", "r.jsonl")
    assert res.exit_code == 130 and res.stderr.strip() == "interrupted (Ctrl-C)"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_real_sigint_during_a_long_run_exits_130(tmp_path):
    """The real thing: SIGINT to a running `tricksim simulate`, as Ctrl-C sends it."""
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "simulate", "schadenfreude", "--games", "100000000",
         "--policy", "random", "--summary-only", "--seed", "1", "--out", str(out)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # a shell may have started us with SIGINT ignored, which children inherit
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while not (out / "chunks").is_dir() or not any((out / "chunks").iterdir()):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the run did not start within 120 s"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = stderr.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "Aborted!" not in text
    lines = [line for line in text.strip().splitlines() if line.strip()]
    assert lines[-1] == ("interrupted (Ctrl-C); finished chunks are kept and the same "
                         "command resumes")
    # before it only progress lines (one every 10 s: a cold numba cache compiles that long)
    assert all(line.startswith("schadenfreude: ") for line in lines[:-1]), lines
    assert os.path.exists(out / "run.json")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_sigint_while_the_libraries_load_exits_130(tmp_path):
    """Ctrl-C in the first moments, while the CLI and its libraries are imported (before
    any command runs): one line and 130 from the console script's guard (cli.entry), not
    an import traceback (it was one at 0.5 s).  The signal is sent as click is imported."""
    guarded = ("import signal, sys, os, builtins; "
               "real = builtins.__import__\n"
               "def imp(name, *a, **k):\n"
               "    if name == 'click': os.kill(os.getpid(), signal.SIGINT)\n"
               "    return real(name, *a, **k)\n"
               "builtins.__import__ = imp\n"
               "sys.argv = ['tricksim', 'rules', 'schnapsen']\n"
               "from cli.entry import main\n"
               "main()\n")
    res = subprocess.run([sys.executable, "-c", guarded], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert res.returncode == 130, res.stderr
    assert "Traceback" not in res.stderr
    assert res.stderr.strip() == "interrupted (Ctrl-C) while starting; nothing was run"
