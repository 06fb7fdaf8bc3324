"""Wendish scores are counted in tariff units, not "game points" (issue 20, item 11):
the sweep report's seat spreads and the plots' axes name the unit."""
from simcore.games import get_game


def test_wendish_sweep_report_names_tariff_units(invoke, tmp_path):
    res = invoke("sweep", "wendish", "--vary", "base=1,2", "--games", 4, "--seed", 1,
                 "--policy", "random", "--threads", 1, "--out", tmp_path / "sw")
    assert res.exit_code == 0, res.output
    report = (tmp_path / "sw" / "report.md").read_text()
    assert "tariff units" in report
    assert "game points" not in report
    g = get_game("wendish")
    units = {m.unit for m in g.contract(g.build_rules(None, None, (), None)).measures
             if not m.is_rate}
    assert units == {"tariff units"}
    # Schnapsen's deals are still scored in game points
    s = get_game("schnapsen")
    assert "game points" in {m.unit for m in s.contract(s.build_rules(None, None, (), None))
                             .measures}
