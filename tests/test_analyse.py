"""tricksim analyse: a recorded position's actions valued over sampled worlds or exactly."""
import json

import numpy as np
import pytest

from conftest import one_error_line
from simcore import engine
from simcore.games import get_game


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """One small record file per game (heuristic play), written once."""
    folder = tmp_path_factory.mktemp("analyse")
    out = {}
    for game, opts in (("schnapsen", {}), ("wendish", {}), ("schadenfreude", {"players": 3}),
                       ("wendish-three", {"variant": "three"})):
        eng = engine(game.split("-")[0], **opts)
        recs = [eng.play(11, i, "heuristic") for i in range(2)]
        path = folder / f"{game}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in recs))
        out[game] = path
    return out


def _table(out):
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if "action" in ln and ln.startswith(" ")) + 2
    rows = []
    for ln in lines[start:]:
        if ln.startswith("the record played"):
            break
        rows.append(ln)
    return rows


def test_schnapsen_worlds_and_open(invoke, records):
    path = records["schnapsen"]
    res = invoke("analyse", path, "--index", "1", "--at", "4", "--worlds", "30",
                 "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    rows = _table(res.stdout)
    rec = json.loads(path.read_text().splitlines()[1])
    eng = engine("schnapsen")
    st = eng.from_record(rec, 0, 4)
    assert len(rows) == len(eng.legal(st)) - 1         # resign left out
    assert "resign" not in res.stdout
    assert sum(r.startswith("*") for r in rows) == 1
    played = rec["deals"][0]["actions"][4]
    assert f"the record played: {eng.describe(eng.action_from_record(st, played))}" \
        in res.stdout
    assert sum("<" in r[:2] for r in rows) == 1
    exact = invoke("analyse", path, "--index", "1", "--at", "4", "--open")
    assert exact.exit_code == 0, exact.output
    vals = eng.open_values(st)
    for r in _table(exact.stdout):
        label = r[2:].strip().split("  ")[0]
        a = next(a for a in vals if eng.describe(a) == label)
        assert f"{vals[a]:+.0f}" in r
    assert len(vals) == len(eng.legal(st)) - 1        # resign left out


def test_open_values_are_the_solved_children():
    """Each action's open-card value is plain minimax of the position after it, from the
    mover's view (late positions, so minimax is quick)."""
    from simcore.games.schnapsen.solver import minimax, new_work
    eng = engine("schnapsen")
    work = new_work()
    checked = 0
    for index in range(6):
        st = eng.new(5, index)
        for _ in range(12):
            if eng.deal_over(st):
                break
            eng.apply(st, eng.choose("heuristic", st))
        if eng.deal_over(st):
            continue
        seat = eng.to_move(st)
        for a, v in eng.open_values(st).items():
            x = st.copy()
            eng.apply(x, a)
            assert v == minimax(eng.r, x, seat, work)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("game,deal,at", [("wendish", 1, 10), ("schadenfreude", 0, 7),
                                          ("wendish-three", 0, 9)])
def test_other_games(invoke, records, game, deal, at):
    res = invoke("analyse", records[game], "--deal", deal, "--at", at, "--worlds", "12",
                 "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    assert "12 worlds consistent with seat" in res.stdout
    assert sum(r.startswith("*") for r in _table(res.stdout)) == 1
    res = invoke("analyse", records[game], "--deal", deal, "--at", at, "--open")
    if game == "schadenfreude":        # 10 tricks left: an exact max-n search is refused
        one_error_line(res, "is searched from 5 tricks left (here 10")
        return
    assert res.exit_code == 0, res.output
    assert "open-card values (every card known" in res.stdout
    rows = _table(res.stdout)
    assert sum(r.startswith("*") for r in rows) == 1 and "+" in rows[0]


def test_schadenfreude_open_late_in_the_round(invoke, records):
    """Five tricks left: every card's exact max-n value (the mover's utility, 0 .. 1)."""
    res = invoke("analyse", records["schadenfreude"], "--deal", 0, "--at", 29, "--open")
    assert res.exit_code == 0, res.output
    rows = _table(res.stdout)
    assert len(rows) >= 1 and sum(r.startswith("*") for r in rows) == 1


def test_worlds_keep_what_the_seat_sees(records):
    """Every sampled Wendish world shows the seat to move exactly its observation, keeps
    the hidden hands' sizes and never gives a seat a suit it did not follow."""
    from simcore.games.wendish import hand
    from simcore.games.wendish.engine import OBS_SIZE, ST_HAND, ST_VOID, py_observe
    rec = json.loads(records["wendish"].read_text().splitlines()[0])
    eng = engine("wendish")
    st = eng.from_record(rec, 1, 20)
    seat = eng.to_move(st)
    rng = np.random.default_rng(0)
    got = 0
    for _ in range(300):
        w = hand.sample_world(eng, st, seat, rng, None)
        if w is None:
            continue
        got += 1
        o1, o2 = np.zeros(OBS_SIZE, np.int64), np.zeros(OBS_SIZE, np.int64)
        py_observe(eng.r, st, seat, o1)
        py_observe(eng.r, w, seat, o2)
        assert np.array_equal(o1, o2)
        for p in range(4):
            assert bin(int(w[ST_HAND + p])).count("1") == bin(int(st[ST_HAND + p])).count("1")
            assert not int(w[ST_HAND + p]) & int(st[ST_VOID + p])
    assert got > 0


@pytest.mark.parametrize("extra,expected", [
    (["--at", "999"], ["--at 999", "give 0 to"]),
    (["--at", "2", "--deal", "9"], ["--deal 9", "the record has"]),
    (["--at", "2", "--index", "7"], ["--index 7 is not among them"]),
    (["--at", "2", "--worlds", "0"], ["--worlds must be from 1"]),
    (["--at", "2", "--policy", "nobody"], ["--policy", "unknown policy 'nobody'"]),
])
def test_bad_position(invoke, records, extra, expected):
    one_error_line(invoke("analyse", records["schnapsen"], *extra), *expected)


def test_bad_record(invoke, records, tmp_path):
    rec = json.loads(records["schnapsen"].read_text().splitlines()[0])
    rec["deals"][0]["actions"][0][2] = rec["deals"][0]["start"]["hands"][1][0]  # not its card
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    one_error_line(invoke("analyse", bad, "--at", "1"), "does not replay")
    one_error_line(invoke("analyse", tmp_path / "none.jsonl", "--at", "1"), "cannot read")
    wrec = json.loads(records["wendish"].read_text().splitlines()[0])
    n = len(wrec["deals"][0]["actions"])
    one_error_line(invoke("analyse", records["wendish"], "--at", n), "nobody is to act")


def test_wendish_worlds_are_compared_on_obs_size_words(records, monkeypatch):
    """The sampler compares observations of the engine's OBS_SIZE words (issue 20, item
    11: it allocated a hard-coded 80)."""
    from simcore.games.wendish import engine as weng, hand
    sizes = []
    original = weng.py_observe

    def observe(r, st, seat, out):
        sizes.append(len(out))
        return original(r, st, seat, out)
    monkeypatch.setattr(weng, "py_observe", observe)
    rec = json.loads(records["wendish"].read_text().splitlines()[0])
    eng = engine("wendish")
    st = eng.from_record(rec, 1, 20)
    rng = np.random.default_rng(0)
    for _ in range(50):
        hand.sample_world(eng, st, eng.to_move(st), rng, None)
    assert sizes and set(sizes) == {weng.OBS_SIZE}
