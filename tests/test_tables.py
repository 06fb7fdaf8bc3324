"""Tables a program can load without surprises (issue 11, item 4)."""
import csv
import re
from pathlib import Path

import pandas as pd

from simcore.games import REGISTRY, get_game
from simcore.statistics.stats import SUMMARY_CSV_COLUMNS, integer_columns

DOCS = Path(__file__).resolve().parent.parent / "docs" / "data.md"


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_summary_csv_is_long_form_with_integer_seats_and_counts(invoke, tmp_path):
    res = invoke("simulate", "schnapsen", "--games", "150", "--seed", "1", "--out", "run")
    assert res.exit_code == 0, res.output
    rows = _rows(tmp_path / "run" / "summary.csv")
    assert tuple(rows[0]) == SUMMARY_CSV_COLUMNS
    assert {r["seat"] for r in rows} == {"", "0", "1"}
    count = {(r["section"], r["seat"], r["metric"]): r["value"] for r in rows}
    assert count[("seats", "0", "matches")] == "150"
    assert count[("game", "", "matches")] == "150"
    assert re.fullmatch(r"\d+", count[("seats", "1", "wins")])
    win = next(r for r in rows if r["seat"] == "0" and r["metric"] == "win_rate")
    assert float(win["low"]) < float(win["value"]) < float(win["high"])
    frame = pd.read_csv(tmp_path / "run" / "summary.csv", dtype={"seat": "Int64"})
    assert str(frame["seat"].dtype) == "Int64"


def test_wide_sections_pair_each_figure_with_its_own_interval():
    from simcore import simulate
    from simcore.statistics.stats import summary_csv_frame
    run = simulate("schadenfreude", games=100, seed=2)
    long = summary_csv_frame(run.summary)
    seats = run.summary["seats"]
    mean = long[(long.metric == "score_mean") & (long.seat == 0)].iloc[0]
    assert (mean["low"], mean["high"]) == (seats["score_low"][0], seats["score_high"][0])
    sd = long[(long.metric == "score_sd") & (long.seat == 0)].iloc[0]
    assert pd.isna(sd["low"]) and pd.isna(sd["high"])


def test_wendish_contract_rows_name_their_contract():
    from simcore import simulate
    from simcore.statistics.stats import summary_csv_frame
    long = summary_csv_frame(simulate("wendish", games=50, seed=2).summary)
    contracts = long[long.section == "contracts"]
    assert set(contracts["group"]) == {"normal", "wedding", "quiet_solo", "solo"}
    assert contracts["seat"].isna().all()


def test_integer_columns_in_every_csv():
    frame = pd.DataFrame({"seat": [0.0, 1.0, None], "games": [50000.0, 50000.0, 1.0],
                          "rate": [0.5, 0.25, 1.0]})
    text = integer_columns(frame).to_csv(index=False)
    assert text.splitlines() == ["seat,games,rate", "0,50000,0.5", "1,50000,0.25",
                                 ",1,1.0"]


def test_sweep_parquet_keeps_the_varied_options_types(invoke, tmp_path):
    res = invoke("sweep", "schnapsen", "--vary", "target=60,66", "--vary",
                 "marriage_after_close=true,false", "--games", "60", "--seed", "1",
                 "--out", "sw")
    assert res.exit_code == 0, res.output
    table = pd.read_parquet(tmp_path / "sw" / "sweep.parquet")
    assert pd.api.types.is_integer_dtype(table["target"])
    assert pd.api.types.is_bool_dtype(table["marriage_after_close"])
    assert set(table["target"]) == {60, 66}
    rows = _rows(tmp_path / "sw" / "sweep.csv")
    assert {r["seat"] for r in rows} == {"0", "1"} and rows[0]["matches"] == "60"


def test_list_options_stay_text_in_a_typed_column():
    book = get_game("schadenfreude").rulebook
    assert book.typed_column("limit", ["30", "40"]) == [30, 40]
    assert book.typed_column("values", ["-3,1,2", "1,2,3"]) == ["-3,1,2", "1,2,3"]
    assert book.typed_column("floor", ["none", "0"]) == ["none", "0"]
    assert book.typed_column("nonsense", ["1"]) is None


def test_one_naming_scheme_and_every_column_documented():
    doc = DOCS.read_text()
    for name in SUMMARY_CSV_COLUMNS:
        assert f"`{name}`" in doc, name
    for game in REGISTRY:
        g = get_game(game)
        for table, cols in g.contract(g.rulebook.build()).tables.items():
            for col in cols:
                assert not re.search(r"[a-z]\d$", col), (game, table, col)
                generic = re.sub(r"_\d+$", "_SEAT", col)
                assert f"`{col}`" in doc or f"`{generic}`" in doc, (game, table, col)


def test_wendish_called_is_a_card_name():
    from simcore import simulate
    run = simulate("wendish", policies=["heuristic"] * 4, games=200, seed=2)
    deals = run.tables["deals"]
    names = {f"{r}{s}" for r in "ATKQJ987" for s in "CSHD"} | {"first_trick", ""}
    assert set(deals["called"]) <= names and (deals["called"] != "").any()
    assert {"card_points_0", "card_points_1", "tricks_0", "team_0"} <= set(deals.columns)
