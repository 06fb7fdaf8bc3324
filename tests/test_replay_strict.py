"""Strict, complete replay (issue 11, item 5): records follow the records contract
exactly, option ranges follow the rule spec on both sides, a mismatch names the
field that differs, an empty file is an error."""
import copy
import json

import pytest

from simcore.errors import ReplayError, RulesError
from simcore.games import get_game
from simcore.records import first_difference, replay_file, replay_one


def _records(game, values, policies, seed=5, count=1, spec=False):
    g = get_game(game)
    rules = g.rulebook.resolve(values, spec=spec)
    names, ids = g.policy_ids(list(policies), rules)
    return [json.loads(json.dumps(r)) for r in g.records(rules, names, ids, seed, 0, count)]


@pytest.fixture(scope="module")
def schnapsen_rec():
    return _records("schnapsen", {}, ["random", "random"], seed=11)[0]


@pytest.fixture(scope="module")
def wendish_rec():
    return _records("wendish", {}, ["random"] * 4, seed=3)[0]


# ---- ranges: the spec's on both sides --------------------------------------------
# values the rule spec allows ("counts and points are positive integers") beyond the
# caps tricksim keeps for its own runs
BEYOND_CAPS = [
    ("schnapsen", {"match_points": 25}, 2),
    ("schnapsen", {"target": 125}, 2),
    ("schnapsen", {"schneider_below": 121}, 2),
    ("wendish", {"wedding_deadline": 17}, 4),
    ("wendish", {"schneider_below": 121}, 4),
    ("wendish", {"variant": "officers", "deals": 1001}, 2),
    ("schadenfreude", {"max_rounds": 100001}, 4),
    # the spec: limit a positive integer, floor any integer below it, tariffs positive
    # integers (extras may be 0), with no upper bound
    ("schadenfreude", {"limit": 10**10}, 4),
    ("schadenfreude", {"floor": -10**10}, 4),
    ("schadenfreude", {"limit": 2**62, "floor": -2**62}, 4),
    ("wendish", {"base": 10**13}, 4),
    ("wendish", {"schneider": 10**13}, 4),
    ("wendish", {"schwarz": 10**13}, 4),
    ("wendish", {"solo_base": 10**15}, 4),
]


@pytest.mark.parametrize("game,values,seats", BEYOND_CAPS,
                         ids=[f"{g}-{'-'.join(f'{k}={v}' for k, v in vals.items())}"
                              for g, vals, _ in BEYOND_CAPS])
def test_spec_values_beyond_the_caps_replay_as_valid(game, values, seats):
    book = get_game(game).rulebook
    name, value = list(values.items())[-1]
    with pytest.raises(RulesError, match=f"option '{name}'"):     # simulate keeps its cap
        book.build(assignments=[f"{name}={value}"])
    rec = _records(game, values, ["random"] * seats, spec=True)[0]
    assert rec["rules"][name] == value
    replay_one(rec)


def test_spec_ranges_stop_at_what_the_kernels_hold(wendish_rec):
    rec = copy.deepcopy(wendish_rec)
    rec["rules"]["base"] = 2**62                     # 4 deals x 3 x 2**62 > int64
    with pytest.raises(ReplayError, match="64-bit limit of the kernels' scores"):
        replay_one(rec)
    rec["rules"]["base"] = 2**63                     # not an int64 at all
    with pytest.raises(ReplayError, match="'rules.base' is 9223372036854775808"):
        replay_one(rec)


def test_schnapsen_schneider_below_zero_is_refused(schnapsen_rec, invoke):
    rec = copy.deepcopy(schnapsen_rec)
    rec["rules"]["schneider_below"] = 0
    with pytest.raises(ReplayError, match="option 'schneider_below': 0 is not allowed"):
        replay_one(rec)
    res = invoke("simulate", "schnapsen", "--set", "schneider_below=0", "--games", "1")
    assert res.exit_code != 0 and "schneider_below" in res.stderr
    assert "Traceback" not in res.output


# ---- types: exactly the records contract -----------------------------------------
def _set(path, value):
    def change(rec):
        *head, last = path
        node = rec
        for key in head:
            node = node[key]
        if value is KeyError:
            del node[last]
        else:
            node[last] = value
    return change


SCHNAPSEN_BAD = [
    ("int as string", _set(["rules", "match_points"], "7"), "'match_points': '7'"),
    ("int as float", _set(["rules", "target"], 66.0), "'rules.target' is 66.0"),
    ("bool as string", _set(["rules", "marriage_after_close"], "true"),
     "'marriage_after_close': 'true'"),
    ("bool as int", _set(["rules", "marriage_after_close"], 1), "'marriage_after_close': 1"),
    ("missing option", _set(["rules", "closed_scoring"], KeyError),
     "'rules' is missing option 'closed_scoring'"),
    ("float in end", _set(["deals", 0, "end", "game_points"], 1.0),
     "'deals[0].end.game_points' is 1.0"),
    ("string in end", _set(["deals", 0, "end", "tricks"], ["1", "2"]), "end.tricks[0] is \"1\""),
    ("float in result", _set(["result", "winner"], 0.0), "'result.winner' is 0.0"),
    ("bool as a seat", _set(["result", "winner"], False), "result.winner is false (a boolean)"),
]


@pytest.mark.parametrize("label,change,expected", SCHNAPSEN_BAD,
                         ids=[b[0] for b in SCHNAPSEN_BAD])
def test_schnapsen_record_types_are_strict(schnapsen_rec, label, change, expected):
    rec = copy.deepcopy(schnapsen_rec)
    change(rec)
    with pytest.raises(ReplayError) as exc:
        replay_one(rec)
    assert expected in str(exc.value), str(exc.value)


def test_wendish_boolean_as_string_and_called_as_seat_bool(wendish_rec):
    rec = copy.deepcopy(wendish_rec)
    rec["deals"][0]["end"]["schwarz"] = "false"
    with pytest.raises(ReplayError, match=r'end\.schwarz is "false" \(a string\); the rules '
                                          r'give false'):
        replay_one(rec)
    rec = copy.deepcopy(wendish_rec)
    rec["rules"]["lust_solo"] = "true"
    with pytest.raises(ReplayError, match="'lust_solo': 'true' is not allowed in a record"):
        replay_one(rec)
    rec = copy.deepcopy(wendish_rec)
    act = next(a for a in rec["deals"][0]["actions"] if a[0] == 1)
    act[0] = True
    with pytest.raises(ReplayError, match="is not \\[seat, verb\\]"):
        replay_one(rec)


def test_a_mismatch_names_the_field_not_two_dicts(schnapsen_rec, wendish_rec):
    rec = copy.deepcopy(schnapsen_rec)
    cp = rec["deals"][0]["end"]["card_points"]
    cp[1] += 1
    with pytest.raises(ReplayError) as exc:
        replay_one(rec)
    assert str(exc.value) == f"end.card_points[1] is {cp[1]}; the rules give {cp[1] - 1}"
    assert exc.value.deal == 0
    rec = copy.deepcopy(wendish_rec)
    cp = rec["deals"][0]["end"]["card_points"]
    cp[0] += 1
    with pytest.raises(ReplayError) as exc:
        replay_one(rec)
    assert str(exc.value).startswith(f"end.card_points[0] is {cp[0]}; ")
    assert "{" not in str(exc.value)


def test_first_difference():
    assert first_difference({"a": [1, 2], "x": 9}, {"a": [1, 2]}, "end") is None
    assert first_difference({"a": [1, True]}, {"a": [1, 1]}, "end") == \
        "end.a[1] is true (a boolean); the rules give 1"
    assert first_difference({}, {"a": 1}, "end") == "end is missing 'a' (the rules give 1)"
    assert first_difference({"a": [1]}, {"a": [1, 2]}, "end") == \
        "end.a holds 1 value; the rules give 2: [1, 2]"


def test_empty_file_is_an_error(tmp_path, invoke):
    for text in ("", "\n  \n"):
        path = tmp_path / "empty.jsonl"
        path.write_text(text)
        with pytest.raises(Exception, match="holds no records"):
            replay_file(path)
        res = invoke("replay", path)
        assert res.exit_code != 0
        assert res.stderr.strip().endswith("holds no records; allowed: a JSON Lines file of "
                                           "one or more records, one per line")
        assert "Traceback" not in res.output and res.stdout == ""
