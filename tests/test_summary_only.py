"""``--summary-only``: the kernels sum a chunk's aggregates themselves instead of
building its tables, and the result is the table path's, bit for bit.

For every game, preset and policy mix (and every option's other values): the
aggregates of ``run_chunk(..., summary_only=True)`` have the keys, types,
dtypes and values of ``aggregate(run_chunk(...))``; a summary-only run's summary
equals the table run's on 1 and 2 threads and any chunk size; a summary-only run
folder (the chunk files store these aggregates) stopped and resumed gives the
same summary.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import TWO_THREADS
from simcore import game_names, get_game, simulate
from test_conformance import option_cases, policy_mixes, preset_cases

SEED = 424242


def assert_same_aggregates(table, kernel):
    assert list(kernel) == list(table)
    for k, v in table.items():
        w = kernel[k]
        assert type(w) is type(v), (k, type(v), type(w))
        if isinstance(v, np.ndarray):
            assert w.dtype == v.dtype and w.shape == v.shape, (k, v.dtype, w.dtype)
            assert np.array_equal(w, v), (k, v, w)
        else:
            assert w == v, (k, v, w)


def check_chunks(game, rules, policies, ranges):
    g = get_game(game)
    _, ids = g.policy_ids(policies, rules)
    for start, count in ranges:
        table = g.aggregate(g.run_chunk(rules, ids, SEED, start, count), rules)
        kernel = g.aggregate(g.run_chunk(rules, ids, SEED, start, count, summary_only=True),
                             rules)
        assert_same_aggregates(table, kernel)


def assert_same_summary(a, b):
    assert a.summary.keys() == b.summary.keys()
    for section in a.summary:
        pd.testing.assert_frame_equal(a.summary[section], b.summary[section],
                                      check_exact=True)


@pytest.mark.parametrize("game,preset", list(preset_cases()))
def test_kernel_aggregates_equal_the_tables_every_preset_and_policy(game, preset):
    g = get_game(game)
    rules = g.build_rules(preset=preset)
    for policies in policy_mixes(g, rules):
        # one game, a few (the serial path of small chunks), several blocks with a
        # partial last one, from a start that is not a block boundary
        check_chunks(game, rules, policies, [(0, 1), (3, 20), (1000, 150)])


@pytest.mark.parametrize("game,assignment", list(option_cases()))
def test_kernel_aggregates_equal_the_tables_every_option_value(game, assignment):
    g = get_game(game)
    rules = g.build_rules(assignments=list(assignment))
    check_chunks(game, rules, policy_mixes(g, rules)[-1], [(7, 70)])


@pytest.mark.parametrize("game", game_names())
def test_summary_only_run_equals_the_table_run(game):
    g = get_game(game)
    rules = g.build_rules()
    policies = policy_mixes(g, rules)[-1]
    full = simulate(game, rules, policies, 300, SEED, threads=1, chunk_size=300)
    assert full.tables
    for threads, chunk in ((1, 300), (TWO_THREADS, 64), (TWO_THREADS, 77)):
        only = simulate(game, rules, policies, 300, SEED, threads=threads, chunk_size=chunk,
                        summary_only=True)
        assert only.tables == {}
        assert_same_summary(full, only)
        assert_same_aggregates(full.aggregates, only.aggregates)


class Stop(KeyboardInterrupt):
    """Raised from the progress callback: a Ctrl-C after some chunks."""


@pytest.mark.parametrize("game", game_names())
def test_summary_only_checkpoint_resumes_to_the_table_summary(game, tmp_path):
    g = get_game(game)
    rules = g.build_rules()
    full = simulate(game, rules, ["random"], 200, SEED, threads=TWO_THREADS, chunk_size=40)

    def stop(done, total):
        if done >= 80:
            raise Stop()

    folder = tmp_path / "run"
    with pytest.raises(Stop):
        simulate(game, rules, ["random"], 200, SEED, threads=TWO_THREADS, chunk_size=40,
                 summary_only=True, out=folder, progress=stop)
    assert len(list((folder / "chunks").glob("*.agg.json"))) >= 2
    resumed = simulate(game, rules, ["random"], 200, SEED, threads=TWO_THREADS, chunk_size=40,
                       summary_only=True, out=folder)
    assert 0 < resumed.played < 200
    assert_same_summary(full, resumed)
    again = simulate(game, rules, ["random"], 200, SEED, threads=1, chunk_size=40,
                     summary_only=True, out=folder)        # finished: read back, not played
    assert_same_summary(full, again)
