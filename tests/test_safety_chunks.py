"""Chunks that prove themselves, and runs of any size (issue 9, items 4 and 5).

Every chunk file carries its run's hash, its number and games and checksums
of itself and its tables.  On resuming, a chunk file that is empty, truncated,
edited, another chunk's or another run's, or whose table is gone or changed, is
reported in one line and played again, and the results equal an uninterrupted
run's; a chunk file deleted after run.json listed it is named.  The chunks to
play are found lazily: the first chunk of a run of 10**12 games (or 2**63 - 1)
starts at once and memory stays flat.
"""
from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from simcore import simulate
from simcore.errors import TricksimError

ROOT = Path(__file__).resolve().parents[1]
#: address space for the subprocesses below: a runner that lists every chunk of a huge
#: run fails with MemoryError instead of eating the machine's memory
LIMIT = 8 << 30


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))
    # a shell may have started the suite with SIGINT ignored, which children inherit:
    # the Ctrl-C test below needs the default
    signal.signal(signal.SIGINT, signal.SIG_DFL)
GAMES, CHUNK, SEED = 3000, 500, 8
COMMAND = ["simulate", "schadenfreude", "--policy", "random", "--games", GAMES, "--seed", SEED,
           "--chunk-size", CHUNK, "--format", "csv"]


class Stop(KeyboardInterrupt):
    """Raised from a progress callback: a Ctrl-C after some chunks."""


def unfinished(out, seed=SEED, done=4, summary_only=False):
    """A run folder stopped (like a Ctrl-C) after ``done`` of its 6 chunks."""
    def progress(d, total):
        if d >= done * CHUNK:
            raise Stop()
    with pytest.raises(Stop):
        simulate("schadenfreude", None, ["random"], GAMES, seed=seed, chunk_size=CHUNK,
                 summary_only=summary_only, out=out, progress=progress)
    assert len(list((Path(out) / "chunks").glob("*.agg.json"))) == done
    return Path(out)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted run's printed summary and games table (and summary-only's)."""
    from click.testing import CliRunner

    from cli.main import cli
    base = tmp_path_factory.mktemp("reference")
    runner = CliRunner()
    out = {}
    for extra in ([], ["--summary-only"]):
        folder = base / ("summary-only" if extra else "full")
        res = runner.invoke(cli, [str(a) for a in COMMAND] + ["--out", str(folder)] + extra)
        assert res.exit_code == 0, res.output
        table = folder / "games.parquet"
        out[bool(extra)] = (res.stdout, table.read_bytes() if table.exists() else None)
    return out


def agg(run, k) -> Path:
    return run / "chunks" / f"{k:06d}.agg.json"


def table(run, k) -> Path:
    return run / "chunks" / f"{k:06d}.games.parquet"


def edit_an_aggregate(path: Path) -> None:
    """Change one number of the aggregates and keep the file valid JSON."""
    data = json.loads(path.read_text())
    entry = next(v for v in data["aggregates"].values() if "array" in v)
    entry["data"][0] = entry["data"][0] + 1
    path.write_text(json.dumps(data, indent=2))


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


# (corruption, the chunk it hits, what the note says)
CORRUPTIONS = {
    "empty": (lambda run, other: agg(run, 1).write_bytes(b""), 1, "is empty"),
    "truncated": (lambda run, other: agg(run, 1).write_bytes(agg(run, 1).read_bytes()[:300]),
                  1, "is not whole JSON"),
    "edited": (lambda run, other: edit_an_aggregate(agg(run, 2)), 2,
               "does not match its checksum"),
    "another chunk's": (lambda run, other: agg(run, 2).write_bytes(agg(run, 0).read_bytes()),
                        2, "holds chunk 0, not chunk 2"),
    "another run's": (lambda run, other: agg(run, 1).write_bytes(agg(other, 1).read_bytes()),
                      1, "belongs to another run"),
    "table edited": (lambda run, other: flip_a_byte(table(run, 3)), 3,
                     "games.parquet that does not match its checksum"),
    "table swapped": (lambda run, other: table(run, 3).write_bytes(table(run, 0).read_bytes()),
                      3, "games.parquet that does not match its checksum"),
    "table deleted": (lambda run, other: table(run, 3).unlink(), 3,
                      "has lost its table chunks/000003.games.parquet"),
    "deleted": (lambda run, other: agg(run, 1).unlink(), 1,
                "1 chunk that run.json lists as done has no file in chunks/ (chunk 1; "
                "deleted?); it will be played again"),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_a_bad_chunk_is_reported_in_one_line_and_played_again(invoke, tmp_path, reference,
                                                               name):
    corrupt, k, reason = CORRUPTIONS[name]
    run = unfinished(tmp_path / "run")
    other = unfinished(tmp_path / "other", seed=SEED + 1)
    corrupt(run, other)
    res = invoke(*COMMAND, "--out", "run")
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    notes = res.stderr.strip().splitlines()[1:-1]       # the first names the players (csv
    assert res.stderr.startswith("players: random")     # on stdout), the last is the run's
    assert len(notes) == 1, res.stderr
    assert f"chunk {k}" in notes[0] and reason in notes[0] and "played again" in notes[0]
    assert "run folder 'run'" in notes[0]
    stdout, games = reference[False]
    assert res.stdout == stdout                          # the uninterrupted run's figures
    assert (tmp_path / "run" / "games.parquet").read_bytes() == games
    assert "3 of 6 chunks were already done" in res.stderr
    assert not (tmp_path / "run" / "chunks").exists()


def test_a_bad_summary_only_chunk_is_played_again(invoke, tmp_path, reference):
    run = unfinished(tmp_path / "run", summary_only=True)
    edit_an_aggregate(agg(run, 0))
    res = invoke(*COMMAND, "--out", "run", "--summary-only")
    assert res.exit_code == 0, res.output
    assert "chunk 0" in res.stderr and "does not match its checksum" in res.stderr
    assert res.stdout == reference[True][0]


def test_a_whole_chunks_folder_deleted_is_named_once(invoke, tmp_path, reference):
    run = unfinished(tmp_path / "run")
    for path in (run / "chunks").iterdir():
        path.unlink()
    res = invoke(*COMMAND, "--out", "run")
    assert res.exit_code == 0, res.output
    notes = res.stderr.strip().splitlines()[1:-1]        # the players, then the notes
    assert notes == ["run folder 'run': 4 chunks that run.json lists as done have no file in "
                     "chunks/ (chunks 0-3; deleted?); they will be played again"]
    assert res.stdout == reference[False][0]


def test_a_chunk_that_changes_during_the_run_is_one_line(tmp_path):
    from simcore.running.checkpoint import ChunkStore, RunPlan
    from simcore.games import get_game
    g = get_game("schadenfreude")
    rules = g.build_rules()
    plan = RunPlan("schadenfreude", rules, ("random",) * 4, 1, 1000, 500, True)
    store = ChunkStore.open(tmp_path / "run", plan)
    part = g.run_chunk(rules, g.policy_ids(["random"], rules)[1], 1, 0, 500)
    store.save(0, g.aggregate(part, rules), None)
    assert store.load_aggregates(0)["games"] == 500
    agg(tmp_path / "run", 0).write_text("{")
    with pytest.raises(TricksimError) as err:
        store.load_aggregates(0)
    assert "chunk 0" in str(err.value) and "changed while the run was going" in str(err.value)
    assert "\n" not in str(err.value)


# ----- item 5: runs of any size ---------------------------------------------------
SCRIPT = textwrap.dedent("""
    import json, sys, time, tracemalloc
    from simcore import simulate

    class Stop(KeyboardInterrupt):
        pass

    simulate("schadenfreude", None, ["random"], 100, seed=1, chunk_size=100)   # kernels
    out = {}
    # chunks of 1,000 games (10**9 chunks for 10**12 games), so that the time is the
    # runner's overhead, not play; each run stops (a Ctrl-C) once `chunks` are done;
    # time is measured on a first pass, memory (tracemalloc, slow) on a second
    for measure in ("seconds", "peak bytes"):
        for name, games, folder, chunks in [("1e12 folder", 10**12, "big", 2),
                                            ("1e12 resumed", 10**12, "big", 3),
                                            ("2**63-1 folder", 2**63 - 1, "huge", 2),
                                            ("1e12 in memory", 10**12, None, 2)]:
            def progress(done, total, chunks=chunks):
                if done >= chunks * 1000:
                    raise Stop()
            if measure != "seconds":
                tracemalloc.start()
            t0 = time.perf_counter()
            try:
                simulate("schadenfreude", None, ["random"], games, seed=3, chunk_size=1000,
                         summary_only=True, progress=progress, threads=1,
                         out=folder and f"{sys.argv[1]}/{measure}-{folder}")
            except Stop:
                pass
            if measure == "seconds":
                out[name] = {measure: time.perf_counter() - t0}
            else:
                out[name][measure] = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
    print(json.dumps(out))
""")


def test_a_run_of_any_size_starts_at_once_in_flat_memory(tmp_path):
    # today the runner lists every chunk and rebuilds the pending set per chunk: 10**12
    # games never get to their first chunk (the timeout below fails the test instead)
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=180, preexec_fn=limited)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, figure in figures.items():
        # two or three chunks of 1,000 games: well under a second alone; the margin is
        # generous for a loaded machine (listing 10**9 chunks takes minutes and memory)
        assert figure["seconds"] < 30, (name, figure)
        assert figure["peak bytes"] < 16 * 2**20, (name, figure)
    for measure in ("seconds", "peak bytes"):
        info = json.loads((tmp_path / f"{measure}-big" / "run.json").read_text())
        assert info["status"] == "running" and info["chunks"] == 10**9
        assert info["chunks_done"] == [[0, 2]]          # two, then one more on resuming
        info = json.loads((tmp_path / f"{measure}-huge" / "run.json").read_text())
        assert info["plan"]["games"] == 2**63 - 1 and info["chunks_done"] == [[0, 1]]


def test_the_cli_plays_the_first_chunk_of_10_to_the_12_games_at_once(tmp_path):
    out = tmp_path / "x"
    cmd = [sys.executable, "-m", "cli.main", "simulate", "schadenfreude", "--policy", "random",
           "--games", str(10**12), "--summary-only", "--seed", "1", "--out", str(out),
           "--threads", "1"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=limited)
    try:
        deadline = time.monotonic() + 60
        while not (out / "chunks" / "000001.agg.json").exists():
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no chunk played within a minute"
            time.sleep(0.02)
        rss = int(next(line.split()[1] for line in
                       Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                       if line.startswith("VmRSS:")))
        assert rss < 1_000_000, f"{rss} kB resident"
        proc.send_signal(signal.SIGINT)                 # Ctrl-C: run.json lists what is done
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "running" and info["chunks_done"][0][0] == 0
    done = info["chunks_done"][0][1] + 1
    assert done == len(list((out / "chunks").glob("*.agg.json")))


def test_more_games_than_64_bit_indices_is_one_line(tmp_path):
    # today: grows to gigabytes listing the chunks (here: MemoryError under the limit)
    proc = subprocess.run([sys.executable, "-m", "cli.main", "simulate", "schadenfreude",
                           "--policy", "random", "--games", str(10**30),
                           "--out", str(tmp_path / "x")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, preexec_fn=limited)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"Error: --games {10**30} is not allowed; allowed: a positive integer, at most "
        f"2**63 - 1 = {2**63 - 1}"]
    assert not (tmp_path / "x").exists()
