"""tricksim hand: one hand's chances, every start choice side by side (small runs)."""
import re

import numpy as np
import pytest

from conftest import one_error_line
from simcore.analysis.positions import summarise


def _rows(out):
    """The choice table's rows as {label: [cells]} (the '*' of the best stripped)."""
    rows = {}
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("choice")) + 2
    for ln in lines[start:]:
        if not ln.strip() or ln.startswith("(") or ln.startswith("note:"):
            break
        cells = ln[2:].split("  ")
        cells = [c.strip() for c in cells if c.strip()]
        rows[cells[0]] = cells[1:] + (["best"] if ln.startswith("*") else [])
    return rows


def test_schnapsen_first_lead_choices(invoke):
    args = ["hand", "schnapsen", "--hand", "AH TH KH QH JC", "--trump-card", "JH",
            "--deals", "300", "--policy", "heuristic", "--seed", "5"]
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    named = _rows(res.stdout)
    # every choice names the card the owner led: "plain lead QH", "close, leads AH"
    plain = next(k for k in named if k.startswith("plain lead"))
    assert re.fullmatch(r"plain lead ([ATKQJ][CSHD])( \d+%.*)?", plain), plain
    assert plain.split()[2] in "AH TH KH QH JC".split()
    rows = {("plain lead" if k == plain else k.split(", leads ")[0]): v for k, v in named.items()}
    assert set(rows) == {"policy decides", "plain lead", "marriage H", "close",
                         "close + marriage H"}
    for k in named:
        if k != plain:
            assert re.search(r", leads [ATKQJ][CSHD]", k), k
    # the marriage's lead is its queen or king
    marriage = next(k for k in named if k.startswith("marriage H"))
    assert re.fullmatch(r"marriage H, leads [KQ]H", marriage), marriage
    # forty in trumps plus the trump ace and ten: showing the marriage wins every deal
    assert rows["marriage H"][0] == "100.0%"
    assert sum("best" in r for r in rows.values()) == 1
    again = invoke(*args)
    assert again.stdout == res.stdout          # reproducible by seed
    other = invoke(*args[:-1], "6")
    assert other.stdout != res.stdout


def test_schnapsen_dealer_has_no_first_lead(invoke, tmp_path):
    res = invoke("hand", "schnapsen", "--hand", "AH TH", "--dealer", "0", "--deals", "200",
                 "--policy", "heuristic", "--out", "o.png")
    assert res.exit_code == 0, res.output
    assert "the owner deals" in res.stdout
    assert list(_rows(res.stdout)) == ["policy decides"]     # the owner never leads first
    assert (tmp_path / "o.png").read_bytes()[:4] == b"\x89PNG"


def test_wendish_contracts(invoke):
    res = invoke("hand", "wendish", "--hand", "QC QS QH JC AD TD AC AS", "--deals", "100",
                 "--policy", "heuristic", "--set", "solo_suits=D,H")
    assert res.exit_code == 0, res.output
    rows = _rows(res.stdout)
    assert {"quiet solo", "wedding first_trick", "wedding QD", "lust solo D",
            "lust solo H"} <= set(rows)
    assert "lust solo C" not in rows and "wedding AS" not in rows    # own card, suit not allowed
    assert len(rows) == 1 + 2 + 24 + 2


def test_wendish_without_old_ones(invoke):
    res = invoke("hand", "wendish", "--hand", "QC JH AD TD AC AS 7H 8H", "--deals", "100",
                 "--policy", "heuristic", "--set", "lust_solo=false")
    assert res.exit_code == 0, res.output
    assert list(_rows(res.stdout)) == ["policy decides", "normal (pass)"]


def test_dreiwendsch_discards(invoke):
    res = invoke("hand", "wendish", "--preset", "dreiwendsch", "--hand",
                 "QC QH JD AD TD 9D AS TS KS AH", "--deals", "60", "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    rows = _rows(res.stdout)
    assert len(rows) == 1 + 36 and "discard TS KS" in rows         # 9 cards without QC: C(9,2)
    taken = invoke("hand", "wendish", "--preset", "dreiwendsch", "--hand", "QH JD AD",
                   "--takes-skat", "--deals", "60", "--policy", "heuristic")
    assert taken.exit_code == 0, taken.output
    assert "the owner takes the skat" in taken.stdout


def test_officers_and_schadenfreude(invoke):
    res = invoke("hand", "wendish", "--preset", "officers", "--hand", "QC JC AD TD AS AH KH 7C",
                 "--known", "1:QS", "--deals", "100", "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    assert "face-up cards" in res.stdout and "no choice" in res.stdout
    res = invoke("hand", "schadenfreude", "--players", "4", "--hand", "9C 9S 9H 8C 10W",
                 "--deals", "200", "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    assert "round points" in res.stdout and "outcomes of 'policy plays'" in res.stdout


def test_fixed_cards_stay_and_the_rest_is_dealt(monkeypatch):
    """The completion keeps the fixed slots and deals every other card exactly once."""
    from simcore.analysis.positions import complete
    t = np.array([3, -1, 7, -1, -1], np.int64)
    free = np.array([0, 1, 2], np.int64)
    out = np.empty(5, np.int64)
    seen = set()
    for s in range(40):
        complete(t, free, np.uint64(s + 1), out, np.empty(5, np.int64))
        assert out[0] == 3 and out[2] == 7 and sorted(out[[1, 3, 4]]) == [0, 1, 2]
        seen.add(tuple(out))
    assert len(seen) == 6                       # every order of the free cards turns up


def test_paired_difference():
    scores = np.array([[1, 2, 3, 4], [0, 2, 2, 4]])
    res, best = summarise(["a", "b"], scores, (scores > 1).astype(np.int64))
    assert best == 0 and res[1].diff == pytest.approx(-0.5) and res[0].win == 0.75


@pytest.mark.parametrize("args,expected", [
    (["schnapsen", "--hand", "AH AH"], ["AH is given twice"]),
    (["schnapsen", "--hand", "ZZ"], ["'ZZ' is not a Schnapsen card"]),
    (["schnapsen", "--hand", "AH TH KH QH JH AC"], ["6 cards given, only 5 fit"]),
    (["schnapsen", "--hand", "AH", "--trump-card", "AH"], ["AH is already placed"]),
    (["schnapsen", "--hand", "AH", "--known", "1:AH"], ["AH is already placed"]),
    (["schnapsen", "--hand", "AH", "--seat", "2"], ["--seat 2"]),
    (["wendish", "--hand", "QC", "--trump-card", "QS"], ["Schnapsen only"]),
    (["wendish", "--preset", "dreiwendsch", "--hand", "QC", "--leaves-skat"], ["impossible"]),
    (["wendish", "--preset", "sharp", "--hand", "9C"], ["9C is not in this variant's pack"]),
    (["wendish", "--preset", "dreiwendsch", "--hand", "QS", "--known", "1:QC", "--takes-skat"],
     ["impossible: another seat holds QC"]),
    (["wendish", "--hand", "QC", "--known", "5:QS"], ["SEAT:CARDS"]),
    (["schadenfreude", "--players", "3", "--hand", "9C"], ["9C is not in the deck with 3 players"]),
    (["schnapsen", "--hand", "AH", "--deals", "0"], ["--deals must be from 1"]),
    (["schnapsen", "--hand", "AH", "--policy", "nobody"], ["unknown policy"]),
])
def test_bad_input(invoke, args, expected):
    one_error_line(invoke("hand", *args), *expected)

