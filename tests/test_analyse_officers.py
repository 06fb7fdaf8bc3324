"""tricksim analyse on Officers' Schafkopf records (issue 13, item 2): the worlds re-deal
every face-down card still covered (both seats', the mover's own included) and keep
what is visible; sampled and open-card values; refusals in one line."""
import json

import numpy as np
import pytest

from conftest import one_error_line
from simcore import engine


@pytest.fixture(scope="module")
def officers(tmp_path_factory):
    """Two Officers' games of heuristic play, written by what `tricksim simulate wendish
    --preset officers --records FILE` calls (runner.write_records; the batch run itself
    is left out to keep the test quick)."""
    from simcore.games import get_game
    from simcore.running.runner import write_records
    path = tmp_path_factory.mktemp("officers") / "o.jsonl"
    rules = get_game("wendish").build_rules("officers", None, (), None)
    write_records("wendish", rules, ["heuristic", "heuristic"], 5, 2, path)
    return path


def _rec(path, index=0):
    return json.loads(path.read_text().splitlines()[index])


def _rows(out):
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if "action" in ln and ln.startswith(" ")) + 2
    return [ln for ln in lines[start:] if not ln.startswith("the record played")]


def _under(st):
    """{face-up card: the face-down card under it} of a state."""
    from simcore.games.wendish.engine import ST_UNDER
    out = {}
    for c in range(32):
        b = (int(np.uint64(st[ST_UNDER + (c >> 3)])) >> (8 * (c & 7))) & 0xFF
        if b:
            out[c] = b - 1
    return out


def test_worlds_redeal_every_covered_card_and_keep_the_rest(officers):
    from simcore.games.wendish import hand
    from simcore.games.wendish.engine import (ST_HAND, ST_PLAYED, ST_PLAYED_BY, ST_PTS, ST_RNG,
                                              ST_UNDER, covered_cards, py_observe)
    eng = engine("wendish", variant="officers")
    st = eng.from_record(_rec(officers), 0, 6)
    seat = eng.to_move(st)
    cov = int(covered_cards(st))
    true = _under(st)
    hidden = {true[c] for c in true if cov >> c & 1}       # still face down
    assert len(hidden) >= 8
    rng = np.random.default_rng(3)
    moved = {0: 0, 1: 0}                  # face-down cards that changed, by owner
    for _ in range(200):
        w = hand.sample_world(eng, st, seat, rng, hand.position_info(eng, None, 0, 6, st))
        assert w is not None
        # everything but the face-down cards (and the stream) is the record's
        keep = np.ones(len(st), bool)
        keep[ST_UNDER:ST_UNDER + 4] = False
        keep[ST_RNG] = False
        assert np.array_equal(w[keep], st[keep])
        for k in (ST_HAND, ST_HAND + 1, ST_PLAYED, ST_PLAYED_BY, ST_PTS):
            assert w[k] == st[k]
        u = _under(w)
        # the same face-up cards lie on a card, and the cards under them are the hidden ones
        assert {c for c in u if cov >> c & 1} == {c for c in true if cov >> c & 1}
        assert {u[c] for c in u if cov >> c & 1} == hidden
        o1, o2 = np.zeros(80, np.int64), np.zeros(80, np.int64)
        py_observe(eng.r, st, seat, o1)
        py_observe(eng.r, w, seat, o2)
        assert np.array_equal(o1, o2)
        for c in u:
            if cov >> c & 1 and u[c] != true[c]:
                moved[0 if int(st[ST_HAND]) >> c & 1 else 1] += 1
        # a world is a deal that plays to its end
        x = w.copy()
        while not eng.deal_over(x):
            eng.apply(x, eng.choose("random", x))
        assert eng.deal_end(x)["card_points"][0] + eng.deal_end(x)["card_points"][1] == 120
    assert moved[0] > 100 and moved[1] > 100          # both seats' cards, the mover's too
    # a card from under one seat's face-up cards turns up under the other seat's
    mine = {true[c] for c in true if cov >> c & 1 and int(st[ST_HAND + seat]) >> c & 1}
    rng = np.random.default_rng(4)
    crossed = False
    for _ in range(50):
        u = _under(hand.sample_world(eng, st, seat, rng, None))
        crossed |= any(u[c] in mine for c in u if cov >> c & 1 and int(st[ST_HAND + 1 - seat])
                       >> c & 1)
    assert crossed


def test_sampled_and_open_values(invoke, officers):
    rec = _rec(officers, 1)
    eng = engine("wendish", variant="officers")
    st = eng.from_record(rec, 1, 22)
    legal = eng.legal(st)
    played = eng.describe(eng.action_from_record(st, rec["deals"][1]["actions"][22]))
    res = invoke("analyse", officers, "--index", 1, "--deal", 1, "--at", 22, "--worlds", 20,
                 "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    assert f"20 worlds consistent with seat {eng.to_move(st)}'s view" in res.stdout
    rows = _rows(res.stdout)
    assert sorted(" ".join(r[2:].split()[:2]) for r in rows) == \
        sorted(eng.describe(a) for a in legal)              # every legal action valued
    assert sum(r.startswith("*") for r in rows) == 1
    assert sum(r[1] == "<" for r in rows) == 1
    assert f"the record played: {played}" in res.stdout
    exact = invoke("analyse", officers, "--index", 1, "--deal", 1, "--at", 22, "--open")
    assert exact.exit_code == 0, exact.output
    vals = eng.open_values(st)
    rows = _rows(exact.stdout)
    assert len(rows) == len(legal) == len(vals)
    for r in rows:
        a = next(a for a in vals if eng.describe(a) == " ".join(r[2:].split()[:2]))
        assert r[2:].split()[2] == f"{vals[a]:+.0f}"
    best = max(vals.values())
    assert all((r[0] == "*") <= (r[2:].split()[2] == f"{best:+.0f}") for r in rows)


def test_bad_positions(invoke, officers):
    n = len(_rec(officers)["deals"][0]["actions"])
    one_error_line(invoke("analyse", officers, "--at", n + 1), f"--at {n + 1}", f"give 0 to {n}")
    one_error_line(invoke("analyse", officers, "--at", n), "nobody is to act")
    one_error_line(invoke("analyse", officers, "--deal", 2, "--at", 3), "--deal 2",
                   "2 deals")
    one_error_line(invoke("analyse", officers, "--index", 2, "--at", 3),
                   "--index 2 is not among them")


def test_one_player_per_seat(invoke, officers):
    """--policy P[,P...]: one name per seat plays the worlds out, and the header names
    who did (without --policy: the players the budget picked, named first)."""
    res = invoke("analyse", officers, "--at", 12, "--worlds", 4, "--policy", "heuristic,random")
    assert res.exit_code == 0, res.output
    assert "each played out by seat 0 heuristic, seat 1 random;" in res.stdout
    res = invoke("analyse", officers, "--at", 12, "--worlds", 4, "--budget", 1)
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("players: ") and "of the 1 s budget" in res.stdout
    assert " in every seat;" in res.stdout
    one_error_line(invoke("analyse", officers, "--at", 12, "--policy", "random,random,random"),
                   "3 policies for 2 seats")
