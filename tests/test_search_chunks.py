"""Searching runs cut into chunks by cost, progress that never goes silent, and the
compile notice in every command (issue 20 item 7, issue 21 item 1).

Before: a ``pimc`` run was one chunk of 65,536 games (no progress line until it
ended, one thread busy at a time, nothing kept by a kill), and ``batch``, ``hand`` and
``analyse`` gave no compile notice."""
import re
import time

import pytest
from conftest import TWO_THREADS, needs_two_threads

from simcore import get_game, simulate
from simcore.running.checkpoint import RunPlan
from simcore.running.chunking import DEFAULT_CHUNK, cost_chunk_size, planned_chunk_size, \
    search_seconds
from simcore.running.runner import planned_chunk

PIMC = ["pimc:worlds=1", "heuristic"]          # the cheapest Schnapsen search


def test_a_pimc_run_is_split_into_chunks_of_a_few_seconds():
    g = get_game("schnapsen")
    rules = g.build_rules()
    names, _ = g.policy_ids(["pimc:talon=10", "heuristic"], rules)
    size = planned_chunk("schnapsen", rules, names)
    assert 1 <= size <= 16                       # not 65,536: ~CHUNK_SECONDS of work
    # the default pimc searches only from the sixth-last talon card: cheaper, bigger chunks
    default, _ = g.policy_ids(["pimc", "heuristic"], rules)
    assert size < planned_chunk("schnapsen", rules, default) <= 64
    plan = RunPlan("schnapsen", rules, tuple(names), 1, 2000, size, True)
    assert plan.chunks >= 100
    # more worlds, more work a game: smaller chunks; longer matches likewise
    assert planned_chunk_size("schnapsen", ["pimc:worlds=64,talon=10", "heuristic"]) < size
    longer = g.build_rules(assignments=["match_points=21"])
    assert search_seconds("schnapsen", names, longer) > search_seconds("schnapsen", names)
    # every game's searching players declare a cost; fast players keep the big chunks
    for game in ("schnapsen", "schadenfreude", "wendish"):
        gg = get_game(game)
        r = gg.build_rules()
        n = gg.seats(r)
        assert search_seconds(game, ["pimc"] + ["heuristic"] * (n - 1), r) > 0
        assert planned_chunk_size(game, ["heuristic"] * n, r) == DEFAULT_CHUNK
    assert cost_chunk_size(1e-12) == DEFAULT_CHUNK and cost_chunk_size(1e9) == 1


def test_an_explicit_chunk_size_wins_and_the_plan_is_the_commands():
    a = simulate("schnapsen", policies=PIMC, games=3, seed=5, threads=1, chunk_size=2,
                 summary_only=True)
    assert a.chunk_size == 2 and a.execution["chunks"] == 2
    b = simulate("schnapsen", policies=PIMC, games=3, seed=5, threads=1, summary_only=True)
    assert b.chunk_size == planned_chunk_size("schnapsen", a.policies)   # no timing in it


@pytest.mark.parametrize("summary_only", [True, False])
def test_results_do_not_depend_on_the_chunk_plan(summary_only, monkeypatch):
    """One chunk on one thread, one game a chunk side by side on two threads (one where
    numba has only one), chunks of two: the same aggregates, summaries and tables, bit
    for bit."""
    def run(threads, chunk_size):
        return simulate("schnapsen", policies=PIMC, games=4, seed=11, threads=threads,
                        chunk_size=chunk_size, summary_only=summary_only)

    base = run(1, 4)
    for threads, chunk in ((TWO_THREADS, 1), (1, 3)):
        other = run(threads, chunk)
        assert other.execution["chunks"] == -(-4 // chunk)
        assert other.aggregates.keys() == base.aggregates.keys()
        for key, value in base.aggregates.items():
            assert repr(other.aggregates[key]) == repr(value), key
        assert other.summary["seats"].equals(base.summary["seats"])
        for name, table in base.tables.items():
            assert other.tables[name].equals(table), name


@needs_two_threads
def test_chunks_are_played_side_by_side_on_threads(monkeypatch):
    """With two threads a searching run's chunks run at the same time, each on one numba
    thread (the kernels release the GIL), as they are yielded in completion order."""
    import simcore.running.cluster as cluster
    seen = []
    real = cluster.play_chunk

    def spy(*args):
        seen.append((args[4], args[7]))           # (start, threads)
        return real(*args)

    monkeypatch.setattr(cluster, "play_chunk", spy)
    res = simulate("schnapsen", policies=PIMC, games=4, seed=3, threads=2, chunk_size=1,
                   summary_only=True)
    assert sorted(seen) == [(0, 1), (1, 1), (2, 1), (3, 1)]
    assert res.aggregates["matches"] == 4


def test_piped_progress_counts_search_decisions_chunk_by_chunk(invoke, monkeypatch):
    monkeypatch.setenv("TRICKSIM_PROGRESS_INTERVAL", "0")
    monkeypatch.setattr("simcore.running.chunking.CHUNK_SECONDS", 1e-9)      # one match a chunk
    res = invoke("simulate", "schnapsen", "--games", "3", "--seed", "1", "--summary-only",
                 "--policy", ",".join(PIMC), "--threads", "1", "--out", "sim")
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("schnapsen: ")]
    # a line as each chunk finishes (the heartbeat may redraw one between chunks)
    assert list(dict.fromkeys(ln.split()[1] for ln in lines)) == ["0/3", "1/3", "2/3",
                                                                  "3/3"], res.stderr
    assert lines[0].endswith("eta: after the first chunks"), lines[0]
    assert all(re.search(r"[\d,]+ decisions \([\d.,]+/s\)", ln)
               for ln in lines if not ln.startswith("schnapsen: 0/")), lines


def test_heartbeat_prints_while_nothing_moves(capsys):
    """A command whose kernel call is long (compiling, hand, a long chunk) still prints
    a line every interval; a progress bar shown before is redrawn with its elapsed time."""
    from cli.main import Progress
    from cli.progress import heartbeat
    with heartbeat("hand", interval=0.05, tty=False):
        time.sleep(0.3)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 2 and all(re.fullmatch(r"hand: working, \d+s elapsed", ln)
                                   for ln in lines), lines
    with heartbeat("simulate", interval=0.05, tty=False):
        bar = Progress("run", tty=False, interval=3600)
        bar(1, 10)                         # not due yet: the heartbeat shows it later
        time.sleep(0.3)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 2 and all(ln.startswith("run: 1/10 (10%)") for ln in lines), lines
    with heartbeat("play", interval=0.05, tty=False):      # waits for its user: no beat
        time.sleep(0.15)
    assert capsys.readouterr().err == ""


def test_progress_before_the_first_chunk_says_so(capsys):
    from cli.main import Progress
    bar = Progress("run", tty=False, interval=3600)
    bar.total = 12
    assert bar.beat()
    assert "0/12 (0%)" in capsys.readouterr().err


def _record_file(invoke):
    res = invoke("simulate", "schnapsen", "--games", "1", "--seed", "7", "--policy",
                 "heuristic", "--records", "s.jsonl", "--out", "rec")
    assert res.exit_code == 0, res.output
    return "s.jsonl"


def test_every_command_gives_the_compile_notice_when_the_cache_is_cold(invoke, monkeypatch,
                                                                       tmp_path):
    records = _record_file(invoke)
    monkeypatch.setattr("simcore._cache.cache_is_cold", lambda game: True)
    plan = tmp_path / "plan.toml"
    plan.write_text('[[run]]\nname = "a"\ngame = "schnapsen"\ngames = 20\nseed = 1\n')
    commands = {
        "simulate": ["simulate", "schnapsen", "--games", "20", "--seed", "1", "--out", "s"],
        "sweep": ["sweep", "schnapsen", "--vary", "target=60,66", "--games", "20", "--seed",
                  "1", "--out", "w"],
        "compare": ["compare", "schnapsen", "--a", "target=66", "--b", "target=60",
                    "--games", "20", "--seed", "1", "--out", "c"],
        "batch": ["batch", plan, "--out", "b"],
        "hand": ["hand", "schnapsen", "--hand", "AH TH KH QH JC", "--deals", "20",
                 "--policy", "heuristic"],
        "analyse": ["analyse", records, "--at", "0", "--worlds", "4", "--policy", "heuristic"],
    }
    for name, args in commands.items():
        res = invoke(*args)
        assert res.exit_code == 0, (name, res.output)
        assert "compiling schnapsen's kernels" in res.stderr, (name, res.stderr)
