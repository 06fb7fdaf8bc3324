"""Bounds everywhere (issue 20, item 4): every size a user gives is capped before
anything starts, every output path is checked, an OS error is a sentence, and
record numbers start from 0 in `replay` as in `analyse`."""
from __future__ import annotations

import errno
import json

import pytest

import simcore.running.cluster
from simcore.games import BUILT_IN
from tests.conftest import one_error_line


def _no_cluster(monkeypatch):
    def started(*args, **kwargs):
        raise AssertionError("a cluster was started")
    monkeypatch.setattr(simcore.running.cluster, "start_local_cluster", started)


def test_workers_above_the_machine_s_cap_are_refused_before_anything_starts(
        invoke, tmp_path, monkeypatch):
    _no_cluster(monkeypatch)
    top = simcore.running.cluster.max_workers()
    res = invoke("simulate", "schadenfreude", "--games", 10, "--workers", 100000,
                 "--out", "o")
    one_error_line(res, "--workers 100000 is not allowed", f"allowed: 1 to {top}",
                   "per CPU")
    assert not (tmp_path / "o").exists()
    res = invoke("sweep", "schadenfreude", "--vary", "limit=30,40", "--games", 10,
                 "--workers", top + 1, "--out", "s")
    one_error_line(res, f"--workers {top + 1} is not allowed")
    assert not (tmp_path / "s").exists()
    with pytest.raises(simcore.running.cluster.TricksimError, match="not allowed"):
        simcore.running.cluster.DaskExecutor(workers=100000)


def test_a_plan_s_workers_and_chunk_size_are_checked_before_run_one(invoke, tmp_path,
                                                                     monkeypatch):
    _no_cluster(monkeypatch)
    (tmp_path / "p.toml").write_text(
        '[[run]]\nname = "one"\ngame = "schadenfreude"\ngames = 5\nseed = 1\n'
        '[[run]]\nname = "two"\ngame = "schadenfreude"\ngames = 5\nchunk_size = 99999999\n')
    res = invoke("batch", "p.toml", "--out", "b")
    one_error_line(res, "batch plan 'p.toml': run 'two': chunk_size = 99999999 is not "
                        "allowed; allowed: a positive integer, at most 16777216")
    assert not (tmp_path / "b").exists()                  # run one did not play
    (tmp_path / "w.toml").write_text('[cluster]\nworkers = 100000\n[[run]]\n'
                                     'game = "schadenfreude"\ngames = 5\n')
    one_error_line(invoke("batch", "w.toml", "--out", "b"), "batch plan 'w.toml'",
                   "[cluster] workers = 100000 is not allowed")


def test_a_sweep_s_combinations_are_capped(invoke, tmp_path):
    from simcore.experiments.sweep import MAX_VARIANTS
    res = invoke("sweep", "schadenfreude", "--vary",
                 "limit=" + ",".join(str(v) for v in range(20, 120)),
                 "--vary", "max_rounds=" + ",".join(str(v) for v in range(10, 30)),
                 "--games", 10, "--out", "s")
    one_error_line(res, "100 (limit) x 20 (max_rounds) = 2,000 combinations",
                   f"at most {MAX_VARIANTS:,}")
    assert not (tmp_path / "s").exists()
    assert f"at most {MAX_VARIANTS:,} combinations" in \
        " ".join(invoke("sweep", "--help").stdout.split())


@pytest.mark.parametrize("records, expected", [
    ("", "--records is empty"),
    ("nodir/games.jsonl", "the folder 'nodir' does not exist"),
])
def test_records_empty_or_in_a_missing_folder(invoke, tmp_path, records, expected):
    res = invoke("simulate", "schadenfreude", "--games", 5, "--seed", 1, "--out", "o",
                 "--records", records)
    one_error_line(res, expected)
    assert not (tmp_path / "o").exists() and not (tmp_path / "nodir").exists()


def test_hand_and_analyse_seeds_have_the_runner_s_range(invoke):
    from simcore.running.runner import MAX_SEED
    for cmd in (["hand", "schnapsen", "--hand", "AH TH", "--deals", 10],
                ["analyse", "none.jsonl", "--at", 0]):
        res = invoke(*cmd, "--seed", MAX_SEED + 1)
        one_error_line(res, f"--seed {MAX_SEED + 1} is not allowed; allowed: 0 to {MAX_SEED}")


@pytest.mark.parametrize("code, words", [
    (errno.EROFS, "cannot write to 'o': the file system there is read-only"),
    (errno.EACCES, "cannot use 'o': permission denied"),
    (errno.ENOSPC, "cannot write to 'o': no space left on the device"),
])
def test_an_os_error_on_the_run_folder_is_a_sentence(invoke, monkeypatch, code, words):
    import os

    import simcore.running.runner

    def refused(*args, **kwargs):
        raise OSError(code, os.strerror(code), "o")
    monkeypatch.setattr(simcore.running.runner, "simulate", refused)
    res = invoke("simulate", "schadenfreude", "--games", 5, "--out", "o")
    one_error_line(res, words)
    assert "Errno" not in res.stderr


def test_replay_numbers_records_from_0_as_analyse_does(invoke, tmp_path):
    from simcore.games import get_game
    g = get_game("schadenfreude")
    rules = g.build_rules()
    names, ids = g.policy_ids(["random"], rules)
    recs = [json.loads(json.dumps(r)) for r in g.records(rules, names, ids, 1, 0, 2)]
    recs[1]["result"]["winners"] = []
    (tmp_path / "r.jsonl").write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    res = invoke("replay", "r.jsonl")
    assert res.stderr.splitlines()[0].startswith("record 1 (line 2): "), res.stderr
    # analyse --index 1 is the same record: it names it "record 1" too
    one_error_line(invoke("analyse", "r.jsonl", "--index", 1, "--at", 0),
                   "record 1 of 'r.jsonl' does not replay")
    for cmd in ("replay", "analyse"):
        assert "from 0" in " ".join(invoke(cmd, "--help").stdout.split())


# ----- tables as documented (issue 20, item 8) -----------------------------------------
def _documented_int_types() -> dict:
    """{(game, table): {column pattern: dtype}} from docs/data.md's column-type table."""
    import re
    from pathlib import Path
    text = (Path(__file__).parent.parent / "docs" / "data.md").read_text()
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] in BUILT_IN:
            cols = {}
            for dtype, cell in zip(("int64", "int32", "int16", "int8"), cells[2:]):
                for name in re.findall(r"`([a-z_0-9A-Z]+)`", cell):
                    cols[re.sub(r"_(\d+|SEAT)$", "_SEAT", name)] = dtype
            out[(cells[0], cells[1])] = cols
    return out


def test_every_integer_column_has_the_type_docs_data_md_gives():
    import re

    import pandas as pd

    from simcore.games import get_game
    documented = _documented_int_types()
    seen = set()
    for game in BUILT_IN:               # docs/data.md documents the games tricksim ships
        g = get_game(game)
        rules = g.build_rules()
        names, ids = g.policy_ids(["random"], rules)
        frames = g.frames(g.run_chunk(rules, ids, 1, 0, 5, summary_only=False), rules, names)
        for table, frame in frames.items():
            seen.add((game, table))
            doc = documented[(game, table)]
            ints = {re.sub(r"_\d+$", "_SEAT", c): str(frame[c].dtype) for c in frame.columns
                    if pd.api.types.is_integer_dtype(frame[c])}
            assert ints == doc, (game, table)
    assert seen == set(documented)


def test_counts_print_as_integers_in_table_csv_and_json(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 12, "--seed", 1, "--out", "o")
    assert res.exit_code == 0, res.output
    assert [ln.split() for ln in res.stdout.splitlines() if ln.startswith("games ")] == \
        [["games", "12"]]
    res = invoke("simulate", "schadenfreude", "--games", 12, "--seed", 1, "--out", "o",
                 "--format", "json")
    game = {r["metric"]: r["value"] for r in json.loads(res.stdout)["game"]}
    assert game["games"] == 12 and isinstance(game["games"], int)
    res = invoke("sweep", "schadenfreude", "--vary", "limit=30,40", "--games", 12, "--seed", 1,
                 "--out", "s", "--format", "csv")
    assert res.exit_code == 0, res.output
    stdout_rows = res.stdout.splitlines()       # as sweep.csv writes them: 12, not 12.0
    assert stdout_rows == open("s/sweep.csv", encoding="utf-8").read().splitlines()
    assert "game_games" in stdout_rows[0] and ",12.0," not in res.stdout
