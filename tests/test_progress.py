"""Progress that is always visible (issue 11, item 7): with stderr not a terminal, a
plain progress line at intervals (TRICKSIM_PROGRESS_INTERVAL, default 10 s)."""
import re

from cli.main import Progress


def test_piped_progress_prints_lines_at_intervals(capsys):
    p = Progress("run", tty=False, interval=0.0)
    for done in (10, 20, 30):
        p(done, 30)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3
    assert re.fullmatch(r"run: 10/30 \(33%\) [\d,]+/s, \d+s elapsed, eta [\d,]+s", lines[0])
    assert lines[-1].startswith("run: 30/30 (100%)")
    assert all("\r" not in line for line in lines)


def test_piped_progress_waits_for_the_interval(capsys):
    p = Progress("run", tty=False, interval=3600)
    for done in (1, 2, 3):
        p(done, 10)
    p(10, 10)                     # a run shorter than the interval prints nothing
    assert capsys.readouterr().err == ""


def test_default_interval_is_ten_seconds(monkeypatch):
    monkeypatch.delenv("TRICKSIM_PROGRESS_INTERVAL", raising=False)
    assert Progress("x", tty=False).interval == 10.0
    monkeypatch.setenv("TRICKSIM_PROGRESS_INTERVAL", "2.5")
    assert Progress("x", tty=False).interval == 2.5


def test_commands_print_progress_when_piped(invoke, monkeypatch, tmp_path):
    monkeypatch.setenv("TRICKSIM_PROGRESS_INTERVAL", "0")
    monkeypatch.setattr("simcore.running.runner.RECORD_BLOCK", 50)
    res = invoke("simulate", "schnapsen", "--games", "200", "--seed", "1", "--summary-only",
                 "--chunk-size", "50", "--records", "r.jsonl", "--out", "sim")
    assert res.exit_code == 0, res.output
    assert "schnapsen: 200/200 (100%)" in res.stderr
    assert "records: 200/200 (100%)" in res.stderr
    res = invoke("compare", "schnapsen", "--a", "target=66", "--b", "target=60",
                 "--games", "100", "--seed", "1", "--chunk-size", "50", "--out", "cmp")
    assert res.exit_code == 0, res.output
    assert "schnapsen compare: 200/200 (100%)" in res.stderr
    res = invoke("sweep", "schnapsen", "--vary", "target=60,66", "--games", "100",
                 "--seed", "1", "--chunk-size", "50", "--out", "sw")
    assert res.exit_code == 0, res.output
    assert "schnapsen sweep: 200/200 (100%)" in res.stderr
    plan = tmp_path / "plan.toml"
    plan.write_text('[[run]]\nname = "a"\ngame = "schnapsen"\ngames = 100\nseed = 1\n'
                    'chunk_size = 50\n')
    res = invoke("batch", plan, "--out", "b")
    assert res.exit_code == 0, res.output
    assert "a: 100/100 (100%)" in res.stderr
