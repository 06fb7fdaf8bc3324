"""`tricksim analyse` prints the position it values (issue 20, item 11): the mover's hand,
what is public (the trick so far, Schnapsen's trump card and talon, Wendish's contract
and announcements), whose turn it is; and it values the Dreiwendsch skat taker's pickup
and discards (refused before: "from the contract phase on")."""
import json
import re

import numpy as np
import pytest

from simcore import engine
from simcore.games.wendish.cards import QC, QS
from simcore.games.wendish.engine import ST_HAND, ST_SKAT, ST_TAKER


def _write(path, recs):
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def _shown_hand(out):
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("your hand: "))
    return sorted(line.split(": ", 1)[1].split())


def test_schnapsen_position_is_printed_before_the_numbers(invoke, tmp_path):
    eng = engine("schnapsen")
    rec = eng.play(11, 0, "heuristic")
    path = _write(tmp_path / "s.jsonl", [rec])
    acts = rec["deals"][0]["actions"]
    at = next(k for k, a in enumerate(acts) if k > 0 and acts[k - 1][1] == "play"
              and a[1] == "play" and a[0] != acts[k - 1][0])     # a seat following a lead
    st = eng.from_record(rec, 0, at)
    seat = eng.to_move(st)
    res = invoke("analyse", path, "--at", at, "--worlds", 5, "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert f"seat {seat} to move" in out
    assert _shown_hand(out) == sorted(eng.view(st, seat)["hand"])
    assert f"on the table: seat {1 - seat} led {acts[at - 1][2]}" in out
    assert re.search(r"trumps \w+; (talon \d+ cards?, trump card \w\w|the talon)", out)
    assert out.index("your hand: ") < out.index("mean score")


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    eng = engine("wendish", variant="three")
    recs = [eng.play(4, i, "heuristic") for i in range(6)]
    return eng, recs, _write(tmp_path_factory.mktemp("three") / "d.jsonl", recs)


def test_dreiwendsch_discard_is_analysed(invoke, three):
    eng, recs, path = three
    acts = recs[0]["deals"][0]["actions"]
    at = next(k for k, a in enumerate(acts) if a[1] == "discard")
    st = eng.from_record(recs[0], 0, at)
    seat = eng.to_move(st)
    res = invoke("analyse", path, "--at", at, "--worlds", 20, "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert f"seat {seat} to move" in out
    assert _shown_hand(out) == sorted(eng.view(st, seat)["hand"])
    assert "the skat you took: " in out and "you put away 2 more cards" in out
    rows = [ln for ln in out.splitlines() if re.match(r"[ *<]{2}  discard \w\w ", ln)]
    assert len(rows) == len(eng.legal(st)) >= 8
    assert f"the record played: discard {acts[at][2]}" in out


def test_dreiwendsch_pickup_worlds_keep_the_taker(three):
    """Before the pickup the skat is unseen: its worlds re-deal it with the other hands,
    keeping the taker the black queens' rule makes (QC's holder, else QS's, else
    forehand), and showing the taker what it saw."""
    from simcore.games.wendish import hand
    eng, recs, _ = three
    rng = np.random.default_rng(1)
    for rec in recs:
        st = eng.from_record(rec, 0, 0)
        taker = int(st[ST_TAKER])
        own = int(st[ST_HAND + taker])
        skats = set()
        for _ in range(30):
            w = hand.sample_world(eng, st, taker, rng, None)
            assert w is not None
            assert int(w[ST_HAND + taker]) == own
            assert bin(int(w[ST_SKAT])).count("1") == 2
            if not own >> QC & 1:
                assert int(w[ST_SKAT]) >> QC & 1
                if not own >> QS & 1:
                    assert int(w[ST_SKAT]) >> QS & 1
            assert hand._taker_of(w, 3) == taker
            skats.add(int(w[ST_SKAT]))
        assert len(skats) > 1 or not own >> QS & 1 and not own >> QC & 1


def test_wendish_lust_position_names_the_passes(invoke, three):
    eng, recs, path = three
    acts = recs[0]["deals"][0]["actions"]
    passes = [k for k, a in enumerate(acts) if a[1] == "pass"]
    at = passes[1] if len(passes) > 1 else passes[0]
    st = eng.from_record(recs[0], 0, at)
    seat = eng.to_move(st)
    res = invoke("analyse", path, "--at", at, "--worlds", 5, "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    before = [acts[k][0] for k in passes if k < at]
    assert "Lust Solo: " in res.stdout
    for p in before:
        assert f"seat {p}" in res.stdout.split("Lust Solo: ")[1].split("\n")[0]
    assert f"seat {seat} to move" in res.stdout
