"""One conformance test for every game in the registry, every preset, every policy
and every option's non-default values.

For each case: the same games on 1 and 2 threads and for any chunk size; records
written, their invariants (tests/invariants.py, from the rules) holding, replayed
by the engine and equal to what the per-decision API plays; the declared game
contract matching the summaries and tables; and every CLI command's ``--help``.
A new game added to the registry is run through all of it.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cli.main import cli
from conftest import TWO_THREADS
from invariants import check_record, checker
from simcore import engine, game_names, get_game, simulate
from simcore.errors import TricksimError
from simcore.games import game_entry
from simcore.protocols import (EngineProtocol, GameProtocol, HandProtocol, NarratorProtocol,
                               PlayersProtocol, missing_members)

GAMES = game_names()
SEED = 20261130


def policy_mixes(g, rules):
    """Every policy in every seat, and one mixed table (each policy once, then random)."""
    n = g.seats(rules)
    mixes = [[p] * n for p in g.policies]
    mixed = (list(g.policies) + ["random"] * n)[:n]
    if mixed not in mixes:
        mixes.append(mixed)
    return mixes


def preset_cases():
    for name in GAMES:
        g = get_game(name)
        for preset in g.rulebook.presets:
            yield pytest.param(name, preset, id=f"{name}-{preset}")


def option_values(opt, default):
    """Values of an option other than its default, for the option sweep."""
    if opt.kind == "bool":
        return [not default]
    if opt.kind == "choice":
        return [c for c in opt.choices if c != default]
    if opt.kind == "int":
        lo = opt.lo if opt.lo is not None else default - 5
        hi = opt.hi if opt.hi is not None else default + 5
        hi = min(hi, max(default + 5, lo + 5))       # a huge upper bound: a nearby value
        vals = {lo, hi, default - 1, default + 1}
        return sorted(v for v in vals if lo <= v <= hi and v != default)
    if opt.kind == "int_or":
        return list(opt.choices) + [default - 1 if isinstance(default, int) else 0]
    if opt.kind in ("int_list", "choice_list"):
        items = list(default)
        out = [tuple(items[:max(opt.min_len, len(items) - 1)])]
        if len(items) > opt.min_len:
            out.append(tuple(items[:opt.min_len]))
        return [v for v in out if v != tuple(default)]
    raise AssertionError(opt.kind)


def _valid(g, assignments) -> bool:
    try:
        g.build_rules(assignments=list(assignments))
    except TricksimError:
        return False
    return True


def valid_assignments(g, base, opt, value):
    """``opt=value`` with the fewest other options' values that make a valid rule set
    (a Schadenfreude deck too small for the default hands gets a hand size or player
    count that fits); a value that fits no rule set moves toward the default, one
    step at a time, to the furthest that does with these companions (hand_size=17 ->
    15, with 3 players and 11 values). None when nothing fits."""
    companions = [f"{o.name}={o.to_text(v)}" for o in g.rulebook.options.values()
                  if o.name != opt.name for v in option_values(o, base[o.name])]
    while True:
        first = f"{opt.name}={opt.to_text(value)}"
        if _valid(g, [first]):
            return (first,)
        for c in companions:
            if _valid(g, [first, c]):
                return (first, c)
        for i, c in enumerate(companions):
            for d in companions[i + 1:]:
                if c.split("=")[0] != d.split("=")[0] and _valid(g, [first, c, d]):
                    return (first, c, d)
        if opt.kind != "int" or value == base[opt.name]:
            return None
        value += 1 if value < base[opt.name] else -1


def option_cases():
    """(game, assignments) for every option's values other than the default, each
    paired with what makes it a valid rule set."""
    for name in GAMES:
        g = get_game(name)
        base = g.build_rules()
        for opt in g.rulebook.options.values():
            for value in option_values(opt, base[opt.name]):
                found = valid_assignments(g, base, opt, value)
                assert found, f"{name}: {opt.name}={opt.to_text(value)} fits no rule set"
                yield pytest.param(name, found, id=f"{name}-{'+'.join(found)}")


def check_run(game, rules, policies, games=24, records=6, cost_sized=False):
    """The checks every rule set goes through.  ``cost_sized``: the 2-thread run takes
    the chunk plan the runner sizes by cost (searching players), not a fixed size."""
    g = get_game(game)
    names, ids = g.policy_ids(policies, rules)
    one = simulate(game, rules, names, games, SEED, threads=1, chunk_size=games)
    two = simulate(game, rules, names, games, SEED, threads=TWO_THREADS,
                   chunk_size=None if cost_sized else 5)
    if cost_sized:          # (CHUNK_SECONDS made tiny: one game a chunk, side by side)
        assert two.chunk_size == 1 and two.execution["chunks"] == games
    assert one.tables.keys() == two.tables.keys()
    for table in one.tables:
        pd.testing.assert_frame_equal(one.tables[table], two.tables[table])
    pd.testing.assert_frame_equal(one.summary["seats"], two.summary["seats"])
    check_contract(g, rules, one)
    eng = engine(game, rules)
    recs = g.records(rules, names, ids, SEED, 0, records)
    assert len(recs) == records
    for i, rec in enumerate(recs):
        rec = json.loads(json.dumps(rec))                # what a file holds
        assert rec["game"] == game and rec["index"] == i and rec["seed"] == SEED
        assert rec["rules"] == rules.to_dict()
        assert check_record(rec) == [], (i, check_record(rec))
        g.replay(rec)                                    # raises on the first fault
        assert eng.play(SEED, i, names) == rec           # the step API equals the batch
    # the per-game rows agree with the records
    games_table = one.tables["games"]
    for i, rec in enumerate(recs):
        row = games_table.iloc[i]
        assert int(row["index"]) == i
        if "deals" in games_table:
            assert int(row["deals"]) == len(rec["deals"])
        if "rounds" in games_table:
            assert int(row["rounds"]) == len(rec["deals"])


def check_contract(g, rules, run):
    """The declared contract matches what the game's summaries and tables hold."""
    c = g.contract(rules)
    seats = run.summary["seats"]
    assert c.seats == g.seats(rules) == len(seats)
    assert list(seats["seat"]) == list(range(c.seats))
    for m in c.measures:
        for col in (m.column, m.low, m.high):
            assert col is None or col in seats, (m.name, col)
        assert m.column is not None or m.per_game is not None, m.name
        assert m.kind in ("rate", "mean")
        if m.column is not None and m.fair is not None:
            assert np.isfinite(m.fair_value(seats))
    if c.wins_column:
        assert c.wins_column in seats
    for section in c.metric_sections:
        assert list(run.summary[section].columns[:4]) == ["metric", "value", "low", "high"]
    game_metrics = set(run.summary["game"]["metric"])
    for adv in c.advantages:
        assert adv.metric in game_metrics
    for table, columns in c.tables.items():
        assert list(run.tables[table].columns) == list(columns), table
    per_game = c.per_game(run.tables["games"])
    for name, values in per_game.items():
        assert values.shape == (len(run.tables["games"]), c.seats)
        m = c.measure(name)
        if m.column is not None:
            assert np.allclose(values.mean(axis=0), seats[m.column].to_numpy(np.float64)), name


def follows(obj, protocol) -> None:
    """``obj`` is an instance of ``protocol`` and its methods take the protocol's calls."""
    assert isinstance(obj, protocol), (protocol.__name__, missing_members(obj, protocol))
    assert missing_members(obj, protocol) == [], protocol.__name__


@pytest.mark.parametrize("game", GAMES)
def test_every_game_follows_the_contract(game):
    """What the registry hands over for ``game`` follows simcore.protocols: the Game,
    its players, the engine of every preset, the narrator (onlooker and seat) and the
    hand analysis; the rule book is the game's own, every listed player is taken."""
    entry = game_entry(game)
    g = entry.game()
    follows(g, GameProtocol)
    assert g.name == entry.name == game
    assert entry.rulebook() is g.rulebook and g.rulebook.game == game
    players = entry.players()
    follows(players, PlayersProtocol)
    for name in players.PLAYERS:
        g.parse_policy(name)                      # every listed player is taken
    assert set(g.policies) <= set(players.PLAYERS)
    assert g.policy_names(players.DESIGN_PLAYERS, g.build_rules())
    follows(entry.hand(), HandProtocol)
    narrator = entry.narrator()
    for preset in g.rulebook.presets:
        rules = g.build_rules(preset=preset)
        eng = g.engine(rules)
        follows(eng, EngineProtocol)
        assert eng.game == game and eng.seats == g.seats(rules) and eng.rules == rules
        for viewer in (None, 0):
            follows(narrator(eng, viewer=viewer), NarratorProtocol)


def test_the_contract_check_can_fail():
    """missing_members names a missing method and one that does not take the call."""
    class Broken:
        PLAYERS, PIMC_DEFAULTS, DESIGN_PLAYERS, RANDOM_DISTORTS = ("random",), {}, "random", None

        def policy_help(self):
            return []

        def search_seconds(self, names):            # the contract passes (names, rules)
            return 0.0
    problems = missing_members(Broken(), PlayersProtocol)
    assert problems == ["search_seconds: takes (names), the contract passes (names, rules)"]
    del Broken.policy_help
    assert not isinstance(Broken(), PlayersProtocol)
    assert "policy_help: missing" in missing_members(Broken(), PlayersProtocol)


def test_every_game_has_record_invariants():
    assert [g for g in GAMES if checker(g) is None] == []


@pytest.mark.parametrize("game,preset", list(preset_cases()))
def test_every_preset_and_policy(game, preset):
    g = get_game(game)
    rules = g.build_rules(preset=preset)
    for policies in policy_mixes(g, rules):
        check_run(game, rules, policies)


def search_cases():
    for name in GAMES:
        for policy in get_game(name).search_policies:
            yield pytest.param(name, policy, id=f"{name}-{policy}")


@pytest.mark.parametrize("game,policy", list(search_cases()))
def test_every_searching_policy(game, policy, monkeypatch):
    """A searching player (cheap settings), against the heuristic, on a few games; the
    2-thread run in chunks sized by cost (made one game each), played side by side."""
    g = get_game(game)
    rules = g.build_rules()
    n = g.seats(rules)
    monkeypatch.setattr("simcore.running.chunking.CHUNK_SECONDS", 1e-9)
    check_run(game, rules, [policy] + ["heuristic"] * (n - 1), games=3, records=2,
              cost_sized=True)


@pytest.mark.parametrize("game,assignment", list(option_cases()))
def test_every_option_value(game, assignment):
    g = get_game(game)
    rules = g.build_rules(assignments=list(assignment))
    mixes = policy_mixes(g, rules)
    check_run(game, rules, mixes[-1], games=16, records=3)


@pytest.mark.parametrize("game", GAMES)
def test_engine_walks_to_the_end(game):
    """Random legal actions through the Python API end every game, and every state on
    the way has a player to move with a non-empty set of legal actions."""
    g = get_game(game)
    for preset in g.rulebook.presets:
        eng = engine(game, g.build_rules(preset=preset))
        rng = np.random.default_rng(1)
        for index in range(5):
            s = eng.new(SEED, index)
            steps = 0
            while not eng.game_over(s):
                if eng.deal_over(s):
                    eng.next_deal(s)
                    continue
                legal = eng.legal(s)
                assert legal, (preset, index, steps)
                seat = eng.to_move(s)
                view = eng.view(s, seat)
                assert isinstance(view, dict)
                a = legal[rng.integers(len(legal))]
                item = eng.action_to_record(s, a)
                assert item[0] == seat
                assert eng.action_from_record(s, item) == a
                eng.apply(s, a)
                steps += 1
                assert steps < 100_000
            with pytest.raises((ValueError, TricksimError)):
                eng.apply(s, 10**6)


def _commands(group, prefix=()):
    for name, cmd in group.commands.items():
        yield prefix + (name,)
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, prefix + (name,))


@pytest.mark.parametrize("command", [" ".join(c) for c in _commands(cli)] + [""])
def test_every_command_has_help(command):
    res = CliRunner().invoke(cli, command.split() + ["--help"])
    assert res.exit_code == 0, res.output
    assert "Usage:" in res.output
    assert len(res.output.splitlines()) > 3
