"""The strongest players that fit a budget (simcore.analysis.budget) and ``hand``/``analyse`` using it."""
import numpy as np
import pytest

from conftest import one_error_line
from simcore.analysis import budget as b


class Clock:
    """A clock that moves only when a fake player plays."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def fake_play(clock, cost):
    """Samples ``first .. first+n-1`` as their own numbers, each costing ``cost[policy]``."""
    calls = []

    def play(policy, first, n):
        calls.append((policy, first, n))
        clock.now += cost[policy] * n
        x = np.arange(first, first + n)
        return np.stack([x, x % 2]), x % 2
    play.calls = calls
    return play


def test_ladder_strongest_first_each_once():
    assert b.ladder(("pimc",), "heuristic", ("expert",)) == ["pimc", "expert", "heuristic"]
    assert b.ladder(("heuristic",), "heuristic", ("expert",)) == ["heuristic", "expert"]
    assert b.ladder(("pimc:worlds=4",), "heuristic", ()) == ["pimc:worlds=4", "heuristic"]
    assert b.ladder(("pimc", "pimc:worlds=4", "pimc"), "heuristic", ("expert",)) == [
        "pimc", "pimc:worlds=4", "expert", "heuristic"]


def test_minimums_searching_rungs_need_fewer():
    cands = ["pimc", "pimc:worlds=4", "expert", "heuristic"]
    search = ("pimc", "pimc:worlds=4")
    assert b.MIN_SEARCH_SAMPLES < b.MIN_SAMPLES
    assert b.minimums(cands, search, 10_000) == [b.MIN_SEARCH_SAMPLES] * 2 + [b.MIN_SAMPLES] * 2
    assert b.minimums(cands, search, 50) == [50] * 4                  # the cap, if smaller
    assert b.minimums(cands, (), 10_000) == [b.MIN_SAMPLES] * 4


def test_a_searching_rung_that_fits_its_smaller_sample_beats_a_fast_fallback():
    # pimc fits about 250 samples: short of 300 but over 200
    cost = {"pimc": 0.12, "expert": 1e-3, "heuristic": 1e-5}
    cands = ["pimc", "expert", "heuristic"]
    c0 = Clock()
    uniform = b.pick(cands, fake_play(c0, cost), b.Limits(20.0, 2, 10_000, c0))
    clock = Clock()
    pk = b.pick(cands, fake_play(clock, cost), b.Limits(20.0, 2, 10_000, clock),
                b.minimums(cands, ("pimc",), 10_000))
    assert b.MIN_SEARCH_SAMPLES <= pk.target < b.MIN_SAMPLES
    assert pk.policy == "pimc" and pk.need == b.MIN_SEARCH_SAMPLES and pk.fits
    assert uniform.policy == "expert"       # one minimum of 300 for all: the fast fallback


def test_a_cheaper_search_setting_comes_before_the_fast_players():
    clock = Clock()
    cost = {"pimc": 1.0, "pimc:worlds=4": 0.05, "expert": 1e-3, "heuristic": 1e-5}
    cands = ["pimc", "pimc:worlds=4", "expert", "heuristic"]
    search = ("pimc", "pimc:worlds=4")
    pk = b.pick(cands, fake_play(clock, cost), b.Limits(20.0, 2, 10_000, clock),
                b.minimums(cands, search, 10_000))
    assert pk.policy == "pimc:worlds=4" and [t.policy for t in pk.trials] == cands[:2]
    assert [t.need for t in pk.trials] == [b.MIN_SEARCH_SAMPLES] * 2
    lines = b.players_line("pimc:worlds=4 in every seat", pk.target, "deal", 19.9, 20.0, pk)
    assert lines[1].startswith("(stronger players that do not fit: pimc would fit about ")
    assert f"of the {b.MIN_SEARCH_SAMPLES} it needs" in lines[1]
    assert lines[1].endswith("a larger --budget or --policy pimc for it)") and len(lines) == 2
    with pytest.raises(ValueError, match="one minimum per candidate"):
        b.pick(cands, fake_play(clock, cost), b.Limits(20.0, 2, 100, clock), [200, 300])


def test_the_strongest_that_fits_is_taken():
    clock = Clock()
    play = fake_play(clock, {"pimc": 1.0, "expert": 1e-3, "heuristic": 1e-5})
    pk = b.pick(["pimc", "expert", "heuristic"], play, b.Limits(20.0, 2, 10_000, clock))
    assert pk.policy == "expert" and pk.fits
    slow = pk.trials[0]
    # one pimc sample (1 s) spends the pilot's share; 19 s on 2 threads at 80% fit ~31
    assert slow.policy == "pimc" and slow.samples == 1
    assert slow.fit == 1 + int(19 * 2 * b.EFFICIENCY / 1.0) < b.MIN_SAMPLES
    assert pk.target >= b.MIN_SAMPLES and pk.trials[-1].samples == pk.pilot[1].shape[-1]
    # the pilot plays samples 0, 1, 2, ... in doubling chunks; the kernels load first
    assert play.calls[:3] == [("pimc", 0, 0), ("expert", 0, 0), ("heuristic", 0, 0)]
    exp = [c for c in play.calls if c[0] == "expert" and c[2] > 0]
    assert [c[1] for c in exp] == [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512][:len(exp)]
    # a cheap enough strongest player is taken at once
    clock2 = Clock()
    pk2 = b.pick(["pimc", "heuristic"], fake_play(clock2, {"pimc": 1e-3, "heuristic": 0}),
                 b.Limits(20.0, 2, 10_000, clock2))
    assert pk2.policy == "pimc" and len(pk2.trials) == 1


def test_the_cheapest_is_taken_when_none_fits_and_says_so():
    clock = Clock()
    play = fake_play(clock, {"pimc": 1.0, "heuristic": 0.5})
    pk = b.pick(["pimc", "heuristic"], play, b.Limits(10.0, 1, 10_000, clock))
    assert pk.policy == "heuristic" and not pk.fits
    lines = b.players_line("heuristic in every seat", 12, "deal", 9.6, 10.0, pk)
    assert lines[0] == "players: heuristic in every seat, 12 deals in 10 s of the 10 s budget"
    assert "pimc would fit about" in lines[1] and "--policy pimc" in lines[1]
    assert f"of the {b.MIN_SAMPLES} it needs" in lines[1]
    assert f"fewer than {b.MIN_SAMPLES} deals" in lines[2] and "wide" in lines[2]


def test_a_small_cap_is_all_that_is_needed():
    clock = Clock()
    pk = b.pick(["pimc", "heuristic"], fake_play(clock, {"pimc": 0.1, "heuristic": 0}),
                b.Limits(5.0, 1, 30, clock))
    assert pk.need == 30 and pk.policy == "pimc" and pk.target == 30


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_play_until_gives_samples_from_zero_in_order(threads):
    play = fake_play(Clock(), {"p": 0.0})
    got = b.play_until(play, "p", 5, 1000, threads, None, 1e-3)
    assert list(got[1]) == [x % 2 for x in range(5, 1000)]
    assert list(got[0][0]) == list(range(5, 1000))


def test_the_deadline_stops_new_chunks_and_keeps_a_prefix():
    clock = Clock()
    play = fake_play(clock, {"p": 0.01})
    # 0.5 s chunks of 50 samples; the deadline after 1.2 s: chunks at 0, 0.5, 1.0 s run
    got = b.play_until(play, "p", 0, 10_000, 1, 1.2, 0.01, clock=clock)
    assert list(got[0][0]) == list(range(150))


def test_run_joins_the_pilot_and_the_rest():
    clock = Clock()
    play = fake_play(clock, {"pimc": 0.004, "heuristic": 0.0})
    pk, res, n, took = b.run(["pimc", "heuristic"], play, b.Limits(4.0, 1, 5_000, clock))
    assert pk.policy == "pimc" and n == res[0].shape[-1] and b.MIN_SAMPLES <= n <= 1000
    assert list(res[0][0]) == list(range(n))                  # samples 0 .. n-1, no gap
    assert took <= 4.0 + b.CHUNK_SECONDS + 1e-9


def test_sensitivity_words():
    rng = np.random.default_rng(3)
    strong = (rng.random(2000) < 0.47).astype(np.int64)
    weak = strong * (rng.random(2000) < 0.55)                 # loses about 21 pp of them
    same = strong.copy()
    lines = b.sensitivity("pimc", strong, [("heuristic", weak), ("expert", same)],
                          "P(win)", "deal", "this hand")
    assert lines[0].startswith("with heuristic play ")
    assert "with pimc " in lines[0] and "the same 2,000 deals" in lines[0]
    assert "strong evidence that heuristic play misjudges this hand" in lines[0]
    assert "nothing to test" in lines[1]
    close = strong.copy()
    close[:3] = 1 - close[:3]                                 # three deals differ: noise
    line = b.sensitivity("pimc", strong, [("expert", close)], "P(win)", "deal", "this hand")[0]
    assert "no clear evidence that expert play changes the answer" in line
    assert b.sensitivity("pimc", strong, [], "P(win)", "deal", "this hand") == []


def test_hand_budget_names_players_first_and_compares(invoke):
    args = ["hand", "schnapsen", "--hand", "AH TH KH QH JC", "--trump-card", "JS",
            "--deals", "300", "--budget", "4", "--threads", "1"]
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    # the default pimc (about 0.05 s a deal of 5 choices) cannot play 200 deals in 4 s on
    # one thread; a cheaper pimc setting or expert is taken, and the line after says so
    assert lines[0].startswith("players: ") and " in every seat" in lines[0], lines[0]
    assert lines[0].endswith("of the 4 s budget")
    taken = lines[0][len("players: "):lines[0].index(" in every seat")]
    assert taken in ("pimc:worlds=4", "pimc:worlds=4,talon=4", "expert"), taken
    if " for the choice table; " in lines[0]:   # a search fits 'policy decides' alone
        assert taken != "expert" and "expert in every seat for the choice table" in lines[0]
        assert lines[1].startswith("(no searching player fits all 5 choices (pimc about ")
    else:
        assert lines[1].startswith("(stronger players that do not fit: pimc would fit about")
    compared = [x for x in lines if x.startswith("with heuristic play ")]
    assert len(compared) == 1 and f"with {taken} " in compared[0]
    assert "P(win) of 'policy decides'" in compared[0]
    assert not any(x.startswith("with pimc") for x in lines)   # cheaper searches: not replayed
    assert "seed 1" in res.stdout


def test_hand_policy_keeps_its_deals_and_threads_do_not_change_it(invoke):
    base = ["hand", "wendish", "--hand", "QC QS QH JC AD TD AC AS", "--deals", "300",
            "--policy", "heuristic"]
    one = invoke(*base, "--threads", "1")
    two = invoke(*base, "--threads", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.stdout.splitlines()[0] == "players: heuristic in every seat; 300 deals (--policy)"
    assert one.stdout == two.stdout


@pytest.mark.parametrize("args,expected", [
    (["--budget", "0"], ["--budget 0.0 is not allowed", "more than 0"]),
    (["--budget", "1e9"], ["--budget", "at most 86,400"]),
    (["--threads", "0"], ["--threads 0 is not allowed", "1 to 256"]),
])
def test_bad_budget(invoke, args, expected):
    one_error_line(invoke("hand", "schnapsen", "--hand", "AH", *args), *expected)


def test_analyse_budget(invoke, tmp_path):
    rec = tmp_path / "s.jsonl"
    res = invoke("simulate", "schnapsen", "--games", "2", "--seed", "7", "--policy", "heuristic",
                 "--records", str(rec), "--out", str(tmp_path / "run"))
    assert res.exit_code == 0, res.output
    got = invoke("analyse", str(rec), "--at", "4", "--worlds", "12", "--budget", "2")
    assert got.exit_code == 0, got.output
    first = got.stdout.splitlines()[0]
    assert first.startswith("players: ") and " 12 worlds in " in first, first
    assert "each played out by " in got.stdout
    fixed = invoke("analyse", str(rec), "--at", "4", "--worlds", "12", "--policy", "heuristic")
    assert fixed.stdout.splitlines()[0] == "players: heuristic in every seat; 12 worlds (--policy)"


def every_preset():
    """(game, preset) for every registered game and preset."""
    from simcore.registry import game_names, get_game
    return [(name, preset) for name in game_names() for preset in get_game(name).rulebook.presets]


@pytest.mark.parametrize("game,preset", every_preset())
def test_each_games_ladder_comes_from_its_contract(game, preset):
    from simcore.analysis.positions import candidates
    from simcore.registry import get_game
    g = get_game(game)
    rules = g.build_rules(preset, None, (), None)
    c = g.contract(rules)
    cands, search = candidates(g, rules)
    assert cands[0] == c.strongest_policy and c.analysis_policy in cands
    assert ("expert" in cands) == ("expert" in g.policies)
    assert list(search) == cands[:len(search)]      # the searching rungs come first
    if search:
        assert search[0] == c.strongest_policy
        assert cands[len(search)] == "expert"
    ids = [int(g.policy_ids(p.split(","), rules)[1][0]) for p in cands]
    assert len(set(ids)) == len(ids)                # every rung a different player


def table_play(clock, cost, rows, row_cost=None):
    """Fake ``play`` whose result is a table (rows x samples: row r of sample i holds
    ``i * 10 + r`` and the policy's index), each sample costing ``cost[policy]``; its
    ``first_row`` plays row 0 alone at ``row_cost[policy]`` a sample.  Both count their
    calls."""
    row_cost = row_cost or cost
    names = sorted(cost)

    def table(policy, first, n, k=rows, price=cost):
        calls.append((policy, first, n, k))
        clock.now += price[policy] * n
        x = np.arange(first, first + n)
        vals = np.stack([x * 10 + r for r in range(k)])
        return vals, np.full((k, n), names.index(policy))
    calls = []
    play = lambda policy, first, n: table(policy, first, n)     # noqa: E731
    play.first_row = lambda policy, first, n: table(policy, first, n, 1, row_cost)
    play.calls = calls
    return play


def test_estimate_pair_counts_both_players_on_the_same_samples():
    speed = 2 * b.EFFICIENCY
    # 10 s on 2 threads; the first row 0.02 s a sample, the table 0.01 s
    n = b.estimate_pair(0.02, 4, 0.01, 100, 10.0, 2)
    assert n == int((10 * speed + 4 * 0.02 + 100 * 0.01) / 0.03)
    assert (n - 4) * 0.02 + (n - 100) * 0.01 <= 10 * speed + 1e-9
    # the table's pilot already covers more than fit: the first row's cost alone
    assert b.estimate_pair(1.0, 2, 0.001, 5_000, 10.0, 2) == 2 + int(10 * speed)
    assert b.estimate_pair(0.02, 4, 0.01, 100, -1.0, 2) == 4      # nothing left: the pilot


def test_when_no_search_fits_the_table_it_plays_the_first_row_alone():
    clock = Clock()
    # 31 rows: pimc:w=8 costs 0.5 s a deal of the whole table (not 200 deals in 20 s) but
    # 1/31 of it on the first row alone; expert 0.005 s a table
    cost = {"pimc": 5.0, "pimc:w=8": 0.5, "expert": 0.005, "heuristic": 1e-4}
    row_cost = {"pimc": 0.4, "pimc:w=8": 0.5 / 31, "expert": 1e-4, "heuristic": 1e-5}
    cands = ["pimc", "pimc:w=8", "expert", "heuristic"]
    search = ("pimc", "pimc:w=8")
    play = table_play(clock, cost, 31, row_cost)
    pk, res, n, took = b.run(cands, play, b.Limits(20.0, 2, 10_000, clock),
                             b.minimums(cands, search, 10_000), row_play=play.first_row,
                             search=search)
    assert pk.policy == "pimc:w=8" and pk.table.policy == "expert"
    assert [t.policy for t in pk.trials] == ["pimc", "pimc:w=8"]   # strongest first, row alone
    assert [t.policy for t in pk.table.trials] == cands[:3]
    assert n >= b.MIN_SEARCH_SAMPLES and res[0].shape == (31, n)
    # samples 0 .. n-1 in every row; the first row the searching player's, the rest expert's
    assert list(res[0][0]) == [10 * i for i in range(n)]
    assert list(res[0][30]) == [10 * i + 30 for i in range(n)]
    assert set(res[1][0]) == {sorted(cost).index("pimc:w=8")}
    assert set(res[1][1:].ravel()) == {sorted(cost).index("expert")}
    # the table player's own table on the same samples, for the comparison
    assert pk.table_result[0].shape == (31, n) and set(pk.table_result[1][0]) == {
        sorted(cost).index("expert")}
    # the first row was played alone (1 row) by the searching players only; their whole
    # table, guessed as 31 first rows, does not fit: never piloted (one pimc sample of it
    # would cost 5 s, a quarter of the budget)
    assert {c[0] for c in play.calls if c[3] == 1} == {"pimc", "pimc:w=8"}
    assert not [c for c in play.calls if c[3] == 31 and c[2] > 0 and c[0] in search]
    assert [t.samples for t in pk.table.trials[:2]] == [0, 0]
    assert took <= 20.0 + 2 * b.CHUNK_SECONDS
    lines = b.players_line("pimc:w=8 in every seat", n, "deal", took, 20.0, pk,
                           "expert in every seat", "'policy decides'")
    assert lines[0].startswith("players: pimc:w=8 in every seat for 'policy decides', expert "
                               "in every seat for the choice table; ")
    assert lines[1].startswith("(no searching player fits all 31 choices (pimc about ")
    assert "pimc not even 'policy decides' alone" in lines[1]
    assert "so pimc:w=8 plays 'policy decides' alone" in lines[1] and len(lines) == 2


def test_the_whole_table_is_kept_when_a_search_fits_it_or_none_fits_the_first_row():
    cands = ["pimc", "expert", "heuristic"]
    search = ("pimc",)
    for cost, row_cost, taken in (
            ({"pimc": 0.01, "expert": 1e-3, "heuristic": 1e-5}, None, "pimc"),
            ({"pimc": 1.0, "expert": 1e-3, "heuristic": 1e-5},
             {"pimc": 0.5, "expert": 1e-4, "heuristic": 1e-6}, "expert")):
        clock = Clock()
        play = table_play(clock, cost, 5, row_cost)
        pk, res, n, _ = b.run(cands, play, b.Limits(20.0, 2, 10_000, clock),
                              b.minimums(cands, search, 10_000), row_play=play.first_row,
                              search=search)
        assert pk.policy == taken and pk.table is None and res[0].shape == (5, n)
        assert set(res[1].ravel()) == {sorted(cost).index(taken)}


def test_every_candidate_is_warmed_and_the_pilot_does_not_count_it():
    clock = Clock()
    cost = {"pimc": 0.05, "expert": 1e-3, "heuristic": 1e-5}
    loaded = set()

    def play(policy, first, n):
        if policy not in loaded:        # the first call compiles: a minute
            loaded.add(policy)
            clock.now += 60.0
        clock.now += cost[policy] * n
        x = np.arange(first, first + n)
        return np.stack([x, x % 2]), x % 2
    pk = b.pick(["pimc", "expert", "heuristic"], play, b.Limits(20.0, 2, 10_000, clock))
    assert loaded == {"pimc", "expert", "heuristic"}
    assert pk.trials[0].per_sample == pytest.approx(cost["pimc"])
    assert pk.policy == "pimc" and pk.fits and pk.target >= b.MIN_SAMPLES
