"""No "1 cards", "1 threads", "1 records" (issue 20, item 11): every count printed
before a noun goes through ``simcore.text.counted``."""
import json
import re

from simcore.engine import engine
from simcore.analysis.show import narrator_class
from simcore.text import counted, plural


def test_counted_words():
    assert [counted(1, "card"), counted(2, "card"), counted(1234, "game")] == \
        ["1 card", "2 cards", "1,234 games"]
    assert [plural("match"), plural("policy"), plural("game point"), plural("tariff unit")] \
        == ["matches", "policies", "game points", "tariff units"]
    assert counted(1, "world") == "1 world" and counted(0, "world") == "0 worlds"


def test_schadenfreude_narration_one_card_in_hand():
    """A seat down to its last card reads "1 card in hand"."""
    eng = engine("schadenfreude", players=3)
    narr = narrator_class("schadenfreude")(eng, viewer=0)
    st = eng.new(5, 0)
    seen_one = False
    while not eng.deal_over(st):
        text = "\n".join(narr.view(st, eng.to_move(st)))
        assert not re.search(r"(?<![\d,])1 (cards|points)\b", text), text
        seen_one |= " 1 card in hand" in text
        eng.apply(st, eng.choose("random", st))
    assert seen_one


def test_one_thread_one_record(invoke, tmp_path):
    """``simulate --threads 1`` says "1 thread"; replaying one record "1 record"."""
    res = invoke("simulate", "schadenfreude", "--games", "8", "--seed", "1", "--threads", "1",
                 "--policy", "random", "--out", tmp_path / "run", "--records",
                 tmp_path / "r.jsonl")
    assert res.exit_code == 0, res.output
    assert "1 thread," in res.stderr and "1 threads" not in res.stderr
    line = (tmp_path / "r.jsonl").read_text().splitlines()[0]
    (tmp_path / "one.jsonl").write_text(line + "\n")
    json.loads(line)
    rep = invoke("replay", tmp_path / "one.jsonl")
    assert rep.exit_code == 0, rep.output
    assert "1 record replayed" in rep.stdout
