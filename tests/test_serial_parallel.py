"""Two fast paths written from one source must agree, per game: a serial and a parallel
kernel over the same body (issue 23, item 3) give identical arrays on the same seeds."""
import numpy as np

from simcore.registry import get_game

SEED = np.uint64(11)


def test_schadenfreude_serial_and_parallel_kernels_agree(monkeypatch):
    """Every loop of play.py and records.py (the games table, the logging loop, the
    record texts, the aggregates) on the same games, through its serial ``*_rows``
    kernel alone and through its parallel driver over blocks of it."""
    from simcore.games.schadenfreude import play, records
    from simcore.games.schadenfreude.rules import rules_array
    g = get_game("schadenfreude")
    rules = g.rulebook.build(overrides={"players": 3})
    names, ids = g.policy_ids(["heuristic", "random", "heuristic"], rules)
    count = 70
    got = {}
    for par in (False, True):
        monkeypatch.setattr(play, "parallel", lambda c, par=par: par)
        text = records.records_jsonl(rules, names, ids, int(SEED), 5, count)
        accs = np.zeros(((count + play.AGG_BLOCK - 1) // play.AGG_BLOCK, play.agg_width(3)),
                        np.int64)
        play.drive(play.play_aggregate, play.play_aggregate_rows,
                   (rules_array(rules), np.asarray(ids, np.int64), SEED, 5), count, accs)
        assert accs[1:].any() == par            # the serial kernel sums into row 0 only
        got[par] = (text, accs.sum(axis=0))
    assert got[False][0] == got[True][0] and got[False][0].count(b"\n") == count
    assert np.array_equal(got[False][1], got[True][1]) and got[False][1].any()


def test_schnapsen_batch_kernels_agree():
    """play_batch (blocks of matches), play_batch_w (one match a task, for searching
    players) and the logging kernels, serial block and parallel, give the same matches."""
    from simcore.games.schnapsen import play
    from simcore.games.schnapsen.records import play_logged_arrays
    from simcore.games.schnapsen.rules import max_deals, rules_array
    from simcore.records import scripted
    g = get_game("schnapsen")
    rules = g.rulebook.build()
    ids = np.asarray(g.policy_ids(["heuristic", "random"], rules)[1], np.int64)
    count = 3 * play.BLOCK + 5
    md = max_deals(rules)
    out = []
    for kernel in (play.play_batch, play.play_batch_w):
        rows = np.zeros((count, md, play.N_DEAL_COLUMNS), np.int16)
        arrays = (np.zeros(count, np.int16), np.zeros(count, np.int8),
                  np.zeros(count, np.int8), np.zeros((count, 2), np.int16))
        extra = (np.zeros(count, np.int64),) if kernel is play.play_batch_w else ()
        kernel(rules_array(rules), ids, SEED, 7, count, rows, *arrays, *extra)
        out.append((rows,) + arrays)
    for a, b in zip(*out):
        assert np.array_equal(a, b)
    serial = [np.zeros_like(x) for x in play_logged_arrays(rules, ids, int(SEED), 7, count)]
    args = (rules_array(rules), ids, *scripted(2, count), SEED, 7)
    deals, winner, left, rows, logs, acts = serial
    play.play_logged_block(*args, 0, count, rows, logs, acts, deals, winner, left)
    parallel = play_logged_arrays(rules, ids, int(SEED), 7, count)   # > BLOCK: parallel
    for a, b in zip(serial, parallel):
        assert np.array_equal(a, b)
    assert np.array_equal(parallel[3], out[0][0]) and np.array_equal(parallel[0], out[0][1])


def test_wendish_batch_and_logging_kernels_agree():
    """play_batch and play_logged (one body, ``_one_game``) give the same deal rows."""
    from simcore.games.wendish import play
    from simcore.games.wendish.records import _logged_run
    from simcore.games.wendish.rules import rules_array
    g = get_game("wendish")
    rules = g.rulebook.build()
    ids = np.asarray(g.policy_ids(["heuristic", "random", "heuristic", "random"], rules)[1],
                     np.int64)
    count = 9
    nd = rules["deals"]
    dout = np.zeros((count * nd, play.D_FIELDS), np.int64)
    play.play_batch(rules_array(rules), ids, SEED, 3, count, dout, np.zeros(count, np.int64))
    logged = _logged_run(rules, ids, int(SEED), 3, count)[0]
    assert dout.tolist() == logged and dout.any()
