"""A batch plan is checked whole before anything runs (issue 9, item 8): every error
names the run, and a plan refused leaves no trace (no batch folder, no run played)."""
from __future__ import annotations

import pytest

from simcore.experiments.batch import load_plan
from simcore.errors import TricksimError

GOOD = '[[run]]\nname = "first"\ngame = "schadenfreude"\ngames = 50\nseed = 1\n'


def run(body: str, name: str = "second", game: str = "schadenfreude") -> str:
    """A second [[run]] table after a good one."""
    return f'[[run]]\nname = "{name}"\ngame = "{game}"\n{body}'


@pytest.mark.parametrize("plan, message", [
    (GOOD + run("games = 0\n"),
     "run 'second': games = 0 is not allowed; allowed: a positive integer"),
    (GOOD + run("games = -5\n"), "run 'second': games = -5 is not allowed"),
    ('[defaults]\nchunk_size = -1\n' + GOOD, "run 'first': chunk_size = -1 is not allowed"),
    (GOOD + run("seed = -1\n"),
     "run 'second': seed = -1 is not allowed; allowed: 0 to 9223372036854775807"),
    (GOOD + run(f"seed = {2**63}\n"), "run 'second': seed = 9223372036854775808 is not"),
    (GOOD + run("chunk_size = 0\n"),
     "run 'second': chunk_size = 0 is not allowed; allowed: a positive integer"),
    (GOOD + run("", name="batch.json"),
     "run 2: name 'batch.json' is not allowed; it would collide with the batch's own file "
     "batch.json"),
    (GOOD + run("", name="batch.parquet"), "collide with the batch's own file batch.parquet"),
    (GOOD + run("", name="Batch.CSV"), "collide with the batch's own file batch.csv"),
    (GOOD + run("", name="FIRST"),
     "run 2: name 'FIRST' is used twice (run names must differ in more than letter case)"),
    (GOOD + run("", name="first"), "run 2: name 'first' is used twice"),
    (GOOD + run("", name="a\\u0000b"),
     "run 2: name 'a\\x00b' contains a control character (U+0000)"),
    (GOOD + run("", name="tab\\there"), "contains a control character (U+0009)"),
    (GOOD + run("", name=".."), "run 2: name '..' is not allowed; allowed: a plain folder"),
    (GOOD + run("", name="x" * 256), "at most 255 bytes"),
    (GOOD + '[[run]]\nname = 5\ngame = "schadenfreude"\n',
     "run 2: name must be a string, got 5"),
    (GOOD + run('rules = "r\\u0000.toml"\n'),
     "run 'second': rules contains a control character (U+0000)"),
    (GOOD + run('set = ["limit=30", "pairs=\\u0000"]\n'),
     "run 'second': set contains a control character"),
    (GOOD + run('command = "sweep"\nplayers = 5\nvary = ["hand_size=10,12"]\n'),
     "run 'second': variant hand_size=12: players × hand_size = 5 × 12 = 60 exceeds"),
    (GOOD + run('command = "sweep"\nvary = ["players=3,4"]\n'
                'policy = "heuristic,random,random,random"\n'),
     "run 'second': --policy lists 4 players but schadenfreude with these rules has 3"),
    (GOOD + run('set = ["base=1000000000000", "deals=1000"]\n', game="wendish"),
     "run 'second': options deals, base, solo_base, schneider and schwarz allow a game score"),
])
def test_a_bad_run_is_refused_before_anything_runs(invoke, tmp_path, plan, message):
    (tmp_path / "plan.toml").write_text(plan, encoding="utf-8")
    with pytest.raises(TricksimError) as err:
        load_plan(tmp_path / "plan.toml")
    assert message in str(err.value)
    res = invoke("batch", "plan.toml", "--out", "b")
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], res.stderr
    assert lines[0].startswith("Error: batch plan 'plan.toml': run ")
    assert not (tmp_path / "b").exists()        # the good first run did not play


def test_a_plan_that_is_not_utf8_is_one_line(invoke, tmp_path):
    (tmp_path / "plan.toml").write_bytes(GOOD.encode() + b"# \xff\n")
    res = invoke("batch", "plan.toml", "--out", "b")
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit)
    assert res.stderr.strip() == ("Error: batch plan 'plan.toml' is not UTF-8 text (byte 0xff "
                                  "on line 6); allowed: a TOML file, which is UTF-8")


def test_names_and_bounds_that_are_fine_still_pass(tmp_path):
    (tmp_path / "plan.toml").write_text(
        GOOD + run(f"seed = {2**63 - 1}\nchunk_size = 1\ngames = 1\n", name="batch")
        + run("", name="batch.json.old") + run("", name="Über-run"), encoding="utf-8")
    plan = load_plan(tmp_path / "plan.toml")
    assert [r.name for r in plan.runs] == ["first", "batch", "batch.json.old", "Über-run"]
