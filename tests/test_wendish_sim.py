"""Wendish Schafkopf through the kernels, runner, records and CLI: invariants over
many games per variant, the Old Ones' frequency, determinism, records against a
naive reference, golden records, the CLI."""
import json

import numpy as np
import pytest

from conftest import TWO_THREADS
from naive_wendish import naive_end
from simcore import get_game
from simcore.errors import ReplayError
from simcore.games.wendish.play import D_CP0, D_CP1, D_FIELDS, D_OLD_ONES, D_SCORE, \
    D_TEAM0, D_WINNER, play_batch
from simcore.games.wendish.rules import RULEBOOK, rules_array
from simcore.records import replay_file, replay_one
from simcore.running.runner import simulate
from simcore.statistics.stats import rate_ci

VARIANTS = ("four", "three", "three_sharp", "officers")
SEATS = {"four": 4, "three": 3, "three_sharp": 3, "officers": 2}
GAME = get_game("wendish")


def rules_of(variant, *extra):
    return RULEBOOK.build(assignments=[f"variant={variant}", *extra])


@pytest.fixture(scope="session")
def batches():
    """Deal rows of 3000 games per variant and policy mix (compiles the kernel once)."""
    out = {}
    for v in VARIANTS:
        r = rules_of(v)
        n = SEATS[v]
        for name, pol in (("random", [0] * n), ("heuristic", [1] * n),
                          ("mixed", [1] + [0] * (n - 1))):
            count = 3000
            dout = np.zeros((count * r["deals"], D_FIELDS), dtype=np.int64)
            play_batch(rules_array(r), np.array(pol, dtype=np.int64), np.uint64(3), 0, count,
                       dout, np.zeros(count, dtype=np.int64))
            out[v, name] = dout
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("mix", ("random", "heuristic", "mixed"))
def test_invariants(batches, variant, mix):
    d = batches[variant, mix]
    n = SEATS[variant]
    assert (d[:, D_CP0] + d[:, D_CP1] == 120).all()
    assert (d[:, D_SCORE:D_SCORE + n].sum(axis=1) == 0).all()
    team0 = d[:, D_TEAM0]
    assert ((team0 > 0) & (team0 < (1 << n) - 1)).all()
    won0 = d[:, D_CP0] >= 61
    decided = d[:, D_WINNER] >= 0
    assert (d[decided, D_WINNER] == np.where(won0, 0, 1)[decided]).all()
    if variant == "officers":
        assert ((d[:, D_WINNER] < 0) == (d[:, D_CP0] == 60)).all()
        assert (d[d[:, D_WINNER] < 0, D_SCORE:D_SCORE + n] == 0).all()
    else:
        assert decided.all()
        assert (np.abs(d[:, D_SCORE:D_SCORE + n]).min(axis=1) >= 1).all()


def test_old_ones_in_one_hand_rate():
    """Four players: both black queens in one hand in 4*C(30,6)/C(32,8) = 56/248 of deals."""
    r = rules_of("four")
    count = 100_000
    dout = np.zeros((count * 4, D_FIELDS), dtype=np.int64)
    play_batch(rules_array(r), np.zeros(4, dtype=np.int64), np.uint64(99), 0, count, dout,
               np.zeros(count, dtype=np.int64))
    k = int(dout[:, D_OLD_ONES].sum())
    rate, lo, hi = rate_ci(k, len(dout))
    assert lo <= 56 / 248 <= hi, (rate, lo, hi)


def test_heuristic_beats_random(batches):
    for v in VARIANTS:
        d = batches[v, "mixed"]
        assert d[:, D_SCORE].mean() > 0.1, v


@pytest.mark.parametrize("variant", VARIANTS)
def test_determinism_threads_and_chunks(variant):
    r = rules_of(variant)
    pol = ["heuristic"] + ["random"] * (SEATS[variant] - 1)
    a = simulate("wendish", r, pol, games=500, seed=17, threads=1, chunk_size=500)
    b = simulate("wendish", r, pol, games=500, seed=17, threads=TWO_THREADS, chunk_size=77)
    for name in ("games", "deals"):
        assert a.tables[name].equals(b.tables[name])
    assert a.summary["seats"].equals(b.summary["seats"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_records_replay_and_match_naive(variant, game_records):
    r = rules_of(variant)
    n = SEATS[variant]
    recs = game_records("wendish", r, ["heuristic"] + ["random"] * (n - 1), 5, range(12))
    recs += game_records("wendish", r, ["heuristic"] * n, 6, range(8))
    for rec in recs:
        replay_one(json.loads(json.dumps(rec)))
        for deal in rec["deals"]:
            teams, cp, winner = naive_end(rec["rules"], deal)
            assert [sorted(t) for t in deal["end"]["teams"]] == teams
            assert deal["end"]["card_points"] == cp and deal["end"]["winner"] == winner


def test_record_reproduces_simulation():
    r = rules_of("four")
    pol = ["heuristic", "random", "random", "random"]
    run = simulate("wendish", r, pol, games=20, seed=41, threads=1)
    names, ids = GAME.policy_ids(pol, r)
    for index in (0, 7, 19):
        rec = GAME.record(r, names, ids, 41, index)
        row = run.tables["games"].iloc[index]
        assert rec["result"]["scores"] == [int(row[f"score_{p}"]) for p in range(4)]
        deals = run.tables["deals"]
        mine = deals[deals["index"] == index]
        assert [d["end"]["card_points"][0] for d in rec["deals"]] == \
            mine["card_points_0"].tolist()
        assert [d["start"]["dealer"] for d in rec["deals"]] == mine["dealer"].tolist()


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_records(golden_dir, jsonl, variant):
    path = golden_dir / f"wendish_{variant}.jsonl"
    recs = jsonl.read(path)
    assert recs, path
    count, failures = replay_file(path)
    assert count == len(recs) and not failures, failures
    for rec in recs:
        for deal in rec["deals"]:
            teams, cp, winner = naive_end(rec["rules"], deal)
            assert deal["end"]["card_points"] == cp and deal["end"]["winner"] == winner


def test_golden_corrupted_fails(golden_dir):
    count, failures = replay_file(golden_dir / "wendish_corrupted.jsonl")
    assert count == len(failures) and count >= 4
    text = " | ".join(str(f) for f in failures)
    for part in ("follow", "dealer", "end.scores[0] is 6; the rules give -6", "result.scores",
                 "black queen"):
        assert part in text, (part, text)


def _corrupt(rec, how):
    rec = json.loads(json.dumps(rec))
    deal = rec["deals"][0]
    if how == "swap_plays":
        acts = deal["actions"]
        i = next(k for k, a in enumerate(acts) if a[1] == "play")
        acts[i], acts[i + 1] = acts[i + 1], acts[i]
    elif how == "score":
        deal["end"]["scores"][0] += 1
    elif how == "dealer":
        rec["deals"][1]["start"]["dealer"] = (rec["deals"][1]["start"]["dealer"] + 2) % len(
            rec["policies"])
    elif how == "duplicate":
        deal["start"]["hands"][0][0] = deal["start"]["hands"][1][0]
    return rec


@pytest.mark.parametrize("how", ("swap_plays", "score", "dealer", "duplicate"))
def test_replay_rejects(how, game_records):
    r = rules_of("four")
    rec = game_records("wendish", r, ["heuristic"] * 4, 5, [0])[0]
    with pytest.raises(ReplayError):
        replay_one(_corrupt(rec, how))


def test_cli_simulate_and_replay(invoke):
    res = invoke("simulate", "wendish", "--set", "variant=three", "--games", "50", "--seed",
                 "3", "--policy", "heuristic,random,random", "--out", "run", "--records",
                 "r.jsonl", "--threads", "1")
    assert res.exit_code == 0, res.output
    assert "[contracts]" in res.stdout and "old_ones_one_hand_rate" in res.stdout
    res = invoke("replay", "r.jsonl")
    assert res.exit_code == 0 and "50 records replayed" in res.stdout
    res = invoke("simulate", "wendish", "--set", "variant=nine", "--games", "5")
    assert res.exit_code != 0 and "variant" in res.output
    res = invoke("simulate", "wendish", "--players", "3", "--games", "5")
    assert res.exit_code != 0 and "4 players" in res.output
    res = invoke("rules", "wendish", "--preset", "officers")
    assert res.exit_code == 0 and "solo_suits" in res.stdout
