"""Never touch what is not ours: run folders and output files (issue 9, items 1 and 2).

A run folder is used only if it is new, empty or marked as tricksim's by its
run.json; only files tricksim wrote are removed, and a reused folder keeps no
table of an earlier run.  An output file is replaced only when it is a regular
file: a character device or a pipe is written through, a symbolic link, a
folder or a block device is refused, and --records never lands on the run's
own files.
"""
from __future__ import annotations

import json
import os
import stat
import threading

import pandas as pd
import pytest

from simcore import simulate, write_run
from simcore.errors import TricksimError

from conftest import one_error_line
from simcore.statistics import stats




def tree(folder) -> dict[str, bytes]:
    """Every file under ``folder`` with its contents."""
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = fh.read()
    return out


# ----- item 1: a run folder is tricksim's or refused --------------------------
@pytest.mark.parametrize("extra", [[], ["--no-resume"]], ids=["resume", "no-resume"])
def test_a_folder_with_a_foreign_run_json_is_refused_and_left_alone(invoke, tmp_path, extra):
    # the probe: today d/chunks/ is deleted recursively and the exit code is 0
    (tmp_path / "d" / "chunks" / "deep").mkdir(parents=True)
    (tmp_path / "d" / "chunks" / "deep" / "thesis.tex").write_text("x\n")
    (tmp_path / "d" / "run.json").write_text("{}\n")
    before = tree(tmp_path / "d")
    res = invoke("simulate", "schadenfreude", "--games", 1000, "--out", "d", *extra)
    one_error_line(res, "'d' is not a tricksim run folder", "new or empty folder")
    assert tree(tmp_path / "d") == before


def test_a_folder_of_other_files_is_refused(invoke, tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "summary.csv").write_text("my,own\n")
    res = invoke("simulate", "schadenfreude", "--games", 100, "--out", "d")
    one_error_line(res, "not a tricksim run folder")
    assert tree(tmp_path / "d") == {"summary.csv": b"my,own\n"}


def test_a_new_or_empty_folder_is_used_and_marked_as_ours(invoke, tmp_path):
    (tmp_path / "empty").mkdir()
    for out in ("empty", "new/deeper"):
        res = invoke("simulate", "schadenfreude", "--games", 100, "--seed", 1, "--out", out)
        assert res.exit_code == 0, res.output
        info = json.loads((tmp_path / out / "run.json").read_text())
        assert info["format"] == "tricksim-run" and info["tables"] == ["games"]


def test_write_run_refuses_a_foreign_folder(tmp_path):
    res = simulate("schadenfreude", games=50, seed=1)
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(TricksimError, match="is not a tricksim run folder"):
        write_run(res, tmp_path)
    assert tree(tmp_path) == {"notes.txt": b"mine"}


def test_a_reused_folder_keeps_no_table_of_the_earlier_run(invoke, tmp_path):
    # today a Schadenfreude run in a former Schnapsen folder keeps Schnapsen's tables
    res = invoke("simulate", "schnapsen", "--games", 200, "--seed", 1, "--out", "d")
    assert res.exit_code == 0, res.output
    assert {"games.parquet", "deals.parquet"} <= set(os.listdir(tmp_path / "d"))
    res = invoke("simulate", "schadenfreude", "--games", 300, "--seed", 1, "--out", "d",
                 "--summary-only")
    assert res.exit_code == 0, res.output
    assert sorted(os.listdir(tmp_path / "d")) == ["run.json", "summary.csv"]
    res = invoke("simulate", "schnapsen", "--games", 200, "--seed", 1, "--out", "d")
    res = invoke("simulate", "schadenfreude", "--games", 300, "--seed", 1, "--out", "d")
    assert res.exit_code == 0, res.output
    assert sorted(os.listdir(tmp_path / "d")) == ["games.parquet", "run.json", "summary.csv"]
    assert len(pd.read_parquet(tmp_path / "d" / "games.parquet")) == 300
    assert json.loads((tmp_path / "d" / "run.json").read_text())["game"] == "schadenfreude"


class Stop(KeyboardInterrupt):
    """Raised from a progress callback: a Ctrl-C after some chunks."""


def unfinished_run(out, games=2000, chunk=400, stop_after=2, seed=5, **kw):
    """A run folder left by a Ctrl-C after ``stop_after`` chunks."""
    def progress(done, total):
        if done >= stop_after * chunk:
            raise Stop()
    with pytest.raises(Stop):
        simulate("schadenfreude", None, ["random"], games, seed=seed, chunk_size=chunk,
                 out=out, progress=progress, **kw)
    return out


def test_only_files_tricksim_wrote_are_removed(invoke, tmp_path):
    run = unfinished_run(tmp_path / "d")
    assert len(list((run / "chunks").glob("*.agg.json"))) == 2
    mine = {"notes.txt": b"n", "chunks/notes.txt": b"c", "chunks/000000.agg.json.bak": b"b",
            "chunks/deep/thesis.tex": b"t"}
    for name, data in mine.items():
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_bytes(data)
    res = invoke("simulate", "schadenfreude", "--games", 500, "--seed", 9, "--out", "d",
                 "--no-resume")
    assert res.exit_code == 0, res.output
    left = tree(run)
    assert {k: left[k] for k in mine} == mine                       # ours gone, theirs kept
    assert set(left) - set(mine) == {"games.parquet", "summary.csv", "run.json"}
    # a different run over the finished one: again only our files go
    res = invoke("simulate", "schadenfreude", "--games", 400, "--seed", 3, "--out", "d",
                 "--summary-only")
    assert res.exit_code == 0, res.output
    assert set(tree(run)) == set(mine) | {"summary.csv", "run.json"}


def test_a_chunks_link_in_our_folder_is_refused(invoke, tmp_path):
    run = unfinished_run(tmp_path / "d")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "000000.agg.json").write_text("someone else's")
    for path in (run / "chunks").iterdir():
        path.unlink()
    (run / "chunks").rmdir()
    (run / "chunks").symlink_to(elsewhere)
    res = invoke("simulate", "schadenfreude", "--games", 2000, "--out", "d", "--no-resume")
    one_error_line(res, "chunks' is not a folder tricksim made")
    assert (elsewhere / "000000.agg.json").read_text() == "someone else's"


# ----- item 2: output files replaced only when regular ------------------------
def test_a_symlink_given_as_records_is_neither_replaced_nor_written_through(invoke, tmp_path):
    (tmp_path / "target.txt").write_text("keep me\n")
    (tmp_path / "out.jsonl").symlink_to("target.txt")
    (tmp_path / "dangling.jsonl").symlink_to("nowhere.txt")
    for link in ("out.jsonl", "dangling.jsonl"):
        res = invoke("simulate", "schadenfreude", "--games", 20, "--out", f"run-{link}",
                     "--records", link)
        one_error_line(res, f"'{link}' is a symbolic link")
        assert (tmp_path / link).is_symlink()
        assert not (tmp_path / f"run-{link}").exists()            # refused before playing
    assert (tmp_path / "target.txt").read_text() == "keep me\n"
    assert not (tmp_path / "nowhere.txt").exists()


@pytest.mark.parametrize("name", ["run.json", "summary.csv", "games.parquet",
                                  "chunks/000000.agg.json", "."])
def test_records_never_overwrite_the_run_s_own_files(invoke, tmp_path, name):
    res = invoke("simulate", "schadenfreude", "--games", 20, "--out", "d",
                 "--records", f"d/{name}")
    one_error_line(res, "would overwrite the run folder or one of its own files")
    assert not (tmp_path / "d").exists()
    # a records file of any other name may live in the run folder
    res = invoke("simulate", "schadenfreude", "--games", 20, "--seed", 1, "--out", "d",
                 "--records", "d/games.jsonl")
    assert res.exit_code == 0, res.output
    info = json.loads((tmp_path / "d" / "run.json").read_text())
    assert info["format"] == "tricksim-run"
    assert len((tmp_path / "d" / "games.jsonl").read_text().splitlines()) == 20


def fake_device(tmp_path, name, major, minor, kind=stat.S_IFCHR):
    """A device node in tmp_path standing in for /dev/<name> (root can make one), or the
    real /dev/<name> for a user who cannot replace it anyway; skipped if neither works."""
    if os.geteuid() != 0:
        path = f"/dev/{name}"
        if kind != stat.S_IFCHR or not os.access(path, os.W_OK):
            pytest.skip(f"{path} is not writable here")
        return path
    path = tmp_path / name
    try:
        os.mknod(path, kind | 0o666, os.makedev(major, minor))
    except OSError as exc:
        pytest.skip(f"cannot make a device node here ({exc})")
    return str(path)


def test_records_to_a_null_device_are_written_through(invoke, tmp_path):
    dev = fake_device(tmp_path, "null", 1, 3)
    res = invoke("simulate", "schadenfreude", "--games", 30, "--out", "d", "--records", dev)
    assert res.exit_code == 0, res.output
    assert stat.S_ISCHR(os.stat(dev).st_mode)           # still a device, not a plain file


def test_records_to_a_full_device_fail_in_one_line_and_it_stays_a_device(invoke, tmp_path):
    dev = fake_device(tmp_path, "full", 1, 7)
    res = invoke("simulate", "schadenfreude", "--games", 30, "--out", "d", "--records", dev)
    one_error_line(res, f"cannot write '{dev}'", "No space left on device")
    assert stat.S_ISCHR(os.stat(dev).st_mode)


def test_a_block_device_is_refused(invoke, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root to make a block device node")
    dev = fake_device(tmp_path, "loop-fake", 7, 250, stat.S_IFBLK)
    res = invoke("simulate", "schadenfreude", "--games", 30, "--out", "d", "--records", dev)
    one_error_line(res, "is a block device")
    assert stat.S_ISBLK(os.stat(dev).st_mode)


def test_records_to_a_named_pipe_are_written_through(invoke, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    res = invoke("simulate", "schadenfreude", "--games", 25, "--out", "d", "--records", fifo)
    reader.join(30)
    assert res.exit_code == 0, res.output
    assert len(got[0].splitlines()) == 25
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_check_output_path_names_each_kind(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to("file")
    assert stats.check_output_path(tmp_path / "new") == "new"
    assert stats.check_output_path(tmp_path / "file") == "replace"
    with pytest.raises(TricksimError, match="is a folder"):
        stats.check_output_path(tmp_path / "folder")
    with pytest.raises(TricksimError, match="is a symbolic link"):
        stats.check_output_path(tmp_path / "link")
    # every writer goes through atomic_write: a sweep's report.md as a link is kept too
    with pytest.raises(TricksimError, match="is a symbolic link"):
        stats.write_text("report", tmp_path / "link")
    assert (tmp_path / "file").read_text() == "x" and (tmp_path / "link").is_symlink()


def test_atomic_write_syncs_the_file_before_the_rename(tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(("fsync", fd)), real_fsync(fd)))
    monkeypatch.setattr(os, "replace",
                        lambda a, b: (calls.append(("replace", str(b))), real_replace(a, b)))
    stats.atomic_write(tmp_path / "out.txt", lambda tmp: open(tmp, "w").write("data"))
    assert [c[0] for c in calls] == ["fsync", "replace"]
    assert (tmp_path / "out.txt").read_text() == "data"
    assert os.listdir(tmp_path) == ["out.txt"]                 # no temporary left behind
