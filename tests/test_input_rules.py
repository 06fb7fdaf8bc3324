"""Bad rule input is one line, never a traceback or an overflow (issue 9, item 7):
rules files that are not UTF-8 TOML or never end, integers beyond int64, and tariffs
whose products would overflow a game's score."""
from __future__ import annotations

import os

import numpy as np
import pytest

from simcore import get_game, simulate
from simcore.errors import RulesError
from simcore.options import INT64_MAX, MAX_TOML_BYTES, Option, read_toml

HUGE = 10**20          # beyond int64


def one_line_error(res, *fragments):
    """The command failed with exit code 1 and one line holding every fragment."""
    assert res.exit_code == 1, res.output
    assert isinstance(res.exception, SystemExit), res.exception    # nothing uncaught
    assert "Traceback" not in res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    for f in fragments:
        assert f in lines[0], lines[0]


# ----- rules files ------------------------------------------------------------------
def test_a_binary_rules_file_is_one_line(invoke, tmp_path):
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00\x01binary")
    res = invoke("simulate", "schadenfreude", "--games", 5, "--rules", "bin.toml", "--out", "o")
    one_line_error(res, "rules file 'bin.toml' is not UTF-8 text", "byte 0xff on line 1")
    assert not (tmp_path / "o").exists()


def test_a_latin1_rules_file_names_the_line(invoke, tmp_path):
    (tmp_path / "latin.toml").write_bytes(b"limit = 30\n# caf\xe9\n")
    res = invoke("simulate", "schadenfreude", "--games", 5, "--rules", "latin.toml")
    one_line_error(res, "is not UTF-8 text", "byte 0xe9 on line 2")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_rules_from_dev_zero_are_read_a_bounded_amount(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 5, "--rules", "/dev/zero")
    one_line_error(res, "rules file '/dev/zero' holds more than 1,048,576 bytes")


def test_an_endless_rules_file_is_read_only_up_to_the_bound(monkeypatch):
    """A stand-in for a device that never ends: reading it all would fail the test."""
    import simcore.options

    class Endless:
        asked = 0

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def read(self, n=-1):
            assert n is not None and 0 <= n <= MAX_TOML_BYTES + 1, "unbounded read"
            Endless.asked += n
            return b"\0" * n

    monkeypatch.setattr(simcore.options, "open", lambda *a, **k: Endless(), raising=False)
    with pytest.raises(RulesError, match="holds more than 1,048,576 bytes"):
        read_toml("endless", "rules file")
    assert Endless.asked == MAX_TOML_BYTES + 1


def test_a_large_rules_file_is_refused(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("# " + "x" * MAX_TOML_BYTES + "\nlimit = 30\n")
    with pytest.raises(RulesError, match="holds more than"):
        read_toml(path, "rules file")


def test_deeply_nested_toml_is_one_line(invoke, tmp_path):
    (tmp_path / "deep.toml").write_text("limit = " + "[" * 50_000 + "]" * 50_000 + "\n")
    res = invoke("simulate", "schadenfreude", "--games", 5, "--rules", "deep.toml")
    one_line_error(res, "nests arrays or tables too deeply")


def test_a_nul_in_a_rules_path_is_one_line(tmp_path):
    with pytest.raises(RulesError, match="not a usable file name"):
        read_toml(str(tmp_path / "a\x00b.toml"), "rules file")


# ----- integers beyond int64 -----------------------------------------------------
@pytest.mark.parametrize("args, fragment", [
    (("schadenfreude", "--set", f"limit={HUGE}"),
     f"option 'limit': '{HUGE}' is not allowed; allowed: an integer from 1 to 1000000000"),
    (("schadenfreude", "--set", f"floor=-{HUGE}"),
     "allowed: an integer from -1000000000 to 1000000000 or none"),
    (("schadenfreude", "--set", f"values=1,{HUGE}"), "option 'values'"),
    (("schadenfreude", "--players", HUGE), "option 'players'"),
    (("wendish", "--set", f"base={2**62}"),
     "option 'base': '4611686018427387904' is not allowed; allowed: an integer from 1 to "
     "1000000000000"),
    (("wendish", "--set", f"deals={HUGE}"), "option 'deals'"),
])
def test_integers_beyond_the_bounds_are_one_line(invoke, args, fragment):
    res = invoke("simulate", *args, "--games", 5, "--out", "o")
    one_line_error(res, fragment)


def test_an_integer_beyond_int64_in_a_rules_file_is_one_line(invoke, tmp_path):
    (tmp_path / "r.toml").write_text(f"limit = {HUGE}\n")
    res = invoke("simulate", "schadenfreude", "--games", 5, "--rules", "r.toml")
    one_line_error(res, "option 'limit'", "allowed: an integer from 1 to 1000000000")


def test_a_value_of_thousands_of_digits_is_quoted_short(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 5, "--set", "limit=" + "9" * 5000)
    one_line_error(res, "option 'limit': '999", "...")
    assert len(res.stderr) < 300


def test_an_option_without_bounds_still_stops_at_int64():
    opt = Option("x", "int", 1, "an option declared without hi", lo=1)
    assert opt.parse(str(INT64_MAX)) == INT64_MAX
    with pytest.raises(RulesError, match=r"at least 1 \(at most 9223372036854775807"):
        opt.parse(str(INT64_MAX + 1))
    with pytest.raises(RulesError):
        Option("y", "int_or", 0, "no bounds at all", choices=("none",)).parse(-(2**63) - 1)


# ----- products that would overflow a score ------------------------------------------
def test_base_2_to_62_is_refused_not_played_into_nonsense(invoke):
    res = invoke("simulate", "wendish", "--games", 100, "--set", f"base={2**62}",
                 "--seed", 1, "--out", "o")
    one_line_error(res, "option 'base'")


def test_the_largest_game_score_is_checked():
    g = get_game("wendish")
    top = 10**12
    ok = g.build_rules(assignments=[f"base={top}", "deals=333"])   # 333*3*(1e12+2) < 1e15
    assert ok["base"] == top
    with pytest.raises(RulesError, match="allow a game score of 1,002,000,000,002,004 = deals "
                                         "334 x 3 opponents"):
        g.build_rules(assignments=[f"base={top}", "deals=334"])
    with pytest.raises(RulesError, match="x 1 opponents"):
        g.build_rules(preset="officers", assignments=[f"solo_base={top}", f"schwarz={top}",
                                                      "deals=1000"])


def test_the_largest_tariff_plays_exact_scores():
    """Every tariff option at its bound: each score is the unit tariff's times the
    bound exactly, so nothing overflowed on the way."""
    g = get_game("wendish")
    top = 10**12
    unit = g.build_rules(assignments=["base=1", "solo_base=1", "schneider=1", "schwarz=1"])
    big = g.build_rules(assignments=[f"{k}={top}" for k in
                                     ("base", "solo_base", "schneider", "schwarz")])
    a = simulate("wendish", unit, ["random"], 500, seed=3).tables["games"]
    b = simulate("wendish", big, ["random"], 500, seed=3).tables["games"]
    cols = [f"score_{p}" for p in range(4)]
    sa, sb = a[cols].to_numpy(), b[cols].to_numpy()
    assert sb.dtype == np.int64 and np.abs(sa).max() > 0
    np.testing.assert_array_equal(sb, sa * top)


def test_the_widest_schadenfreude_limits_play():
    rules = get_game("schadenfreude").build_rules(
        assignments=["limit=1000000000", "floor=-1000000000", "max_rounds=3"])
    res = simulate("schadenfreude", rules, ["heuristic", "random"] + ["random"] * 2, 200, seed=2)
    games = res.tables["games"]
    assert games["unfinished"].all()          # nobody can pass the limit in 3 rounds
    scores = games[[f"score_{p}" for p in range(4)]].to_numpy()
    assert np.abs(scores).max() <= 3 * 190
