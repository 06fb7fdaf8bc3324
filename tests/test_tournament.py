"""tricksim tournament (simcore/experiments/tournament.py): lineups, the Bradley-Terry fit, the
command's output, resuming, and refusals."""
import json
import sys

import numpy as np
import pytest

from simcore.experiments.tournament import bradley_terry, elo, lineups, wins_per_deal


def test_lineups_pairings_and_rotations():
    assert lineups(["a", "b", "c"], 2) == [["a", "b"], ["a", "c"], ["b", "a"], ["b", "c"],
                                          ["c", "a"], ["c", "b"]]
    rot = lineups(["a", "b", "c"], 3)
    assert len(rot) == 3 and all(sorted(r) == ["a", "b", "c"] for r in rot)
    assert sorted(r[0] for r in rot) == ["a", "b", "c"]          # everyone in seat 0


def test_bradley_terry_recovers_known_strengths():
    p = np.array([4.0, 1.0, 0.25, 2.0])
    n = 1e6
    w = n * p[:, None] / (p[:, None] + p[None, :]) * (1 - np.eye(4))
    got = bradley_terry(w, prior=0.0)
    want = np.log(p) - np.log(p).mean()
    assert np.allclose(got, want, atol=1e-6)
    assert np.isclose(elo(np.log(10.0)), 400.0)


def test_wins_count_ties_as_halves():
    st = np.array([[1, 0, 0], [0, 0, 0]], dtype=float)     # game 1: everyone level
    w = wins_per_deal([(["x", "y", "z"], st)], ["x", "y", "z"])
    assert w[0, 0, 1] == 1 and w[0, 1, 0] == 0 and w[0, 1, 2] == 0.5
    assert w[1, 0, 1] == 0.5 and w.sum() == 6                 # 3 pairs x 2 games


@pytest.fixture
def bots(tmp_path, monkeypatch):
    (tmp_path / "tbots.py").write_text(
        "def lowest(obs):\n    return obs.legal[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("tbots", None)


def test_tournament_writes_resumes_and_refuses(bots, invoke):
    args = ["tournament", "schnapsen", "--players", "heuristic,random,tbots:lowest",
            "--games", 15, "--seed", 3, "--out", "t"]
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    assert "[ratings (Bradley-Terry, Elo points)]" in r.stdout
    assert "6 played, 0 resumed" in r.stderr
    t = bots / "t"
    for name in ("tournament.json", "ratings.csv", "pairs.csv", "tournament.png", "report.md"):
        assert (t / name).exists(), name
    assert json.loads((t / "tournament.json").read_text())["status"] == "done"
    ratings = (t / "ratings.csv").read_text()
    assert "heuristic beats random" in (t / "report.md").read_text()
    # the same command resumes every lineup and gives the same ratings
    r2 = invoke(*args)
    assert r2.exit_code == 0 and "0 played, 6 resumed" in r2.stderr
    assert (t / "ratings.csv").read_text() == ratings
    # a lost lineup is played again, identically (same seed, same game indices)
    (t / "lineups" / "03.json").unlink()
    r3 = invoke(*args)
    assert "1 played, 5 resumed" in r3.stderr and (t / "ratings.csv").read_text() == ratings
    # other settings into that folder, or a foreign folder: refused in one line
    r4 = invoke(*args[:-4], "--games", 16, "--seed", 3, "--out", "t")
    assert r4.exit_code == 1 and "holds a tournament of other settings" in r4.output
    (bots / "mine").mkdir()
    (bots / "mine" / "notes.txt").write_text("x")
    r5 = invoke(*args[:-2], "--out", "mine")
    assert r5.exit_code == 1 and "not a tricksim tournament folder" in r5.output
    assert (bots / "mine" / "notes.txt").read_text() == "x"


def test_rotations_of_three_players(bots, invoke):
    r = invoke("tournament", "schadenfreude", "--players", "heuristic,random,tbots:lowest",
               "--games", 10, "--seed", 1, "--out", "s")
    assert r.exit_code == 0, r.output
    assert "3 lineups x 10 games" in r.stderr


@pytest.mark.parametrize("players,says", [
    ("heuristic", "at least two different players"),
    ("heuristic,heuristic", "at least two different players"),
    ("heuristic,nosuch", "unknown policy"),
])
def test_bad_player_lists(invoke, players, says):
    r = invoke("tournament", "schnapsen", "--players", players, "--games", 2, "--out", "x")
    assert r.exit_code == 1 and says in r.output and "Traceback" not in r.output


def test_seat_count_must_match(invoke):
    r = invoke("tournament", "wendish", "--players", "heuristic,random,sloppy", "--games", 2)
    assert r.exit_code == 1 and "has 4 seats" in r.output
