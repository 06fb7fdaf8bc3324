"""`tricksim play` without --save: the question at the end (issue 13, item 4: "at the end
the record can be saved").  Saved through the question, declined, an existing file kept
or replaced only on confirmation, a refused path asked again, the end of the input; the
saved record replays, is shown and analysed."""
import json

import pytest

from simcore.records import replay_file
from tests.conftest import one_error_line

# Officers' Schafkopf: two deals of 16 cards a seat, one line per card of the human's
MOVES = "1\n" * 32
GAME = ("play", "wendish", "--preset", "officers", "--seed", 3, "--policy", "random")
ASK = "save the record? file name (empty: don't save): "


def _lines(res):
    return res.stdout.rstrip().splitlines()


def test_saved_through_the_question_replays_and_is_analysed(tmp_path, invoke):
    res = invoke(*GAME, input=MOVES + "mine.jsonl\n")
    assert res.exit_code == 0, res.output
    lines = _lines(res)
    assert lines[-4] == ASK + "mine.jsonl"
    assert lines[-3] == "saved the record to mine.jsonl"
    assert lines[-2] == "  view it:    tricksim replay mine.jsonl --show"
    assert lines[-1].startswith("  analyse it: tricksim analyse mine.jsonl --deal 0 --at ")
    assert replay_file(tmp_path / "mine.jsonl") == (1, [])
    rec = json.loads((tmp_path / "mine.jsonl").read_text())
    assert rec["policies"] == ["human", "random"]
    at = int(lines[-1].split("--at ")[1].split()[0])
    assert rec["deals"][0]["actions"][at][:2] == [0, "play"]       # the human's first card
    assert all(a[0] != 0 for a in rec["deals"][0]["actions"][:at])
    shown = invoke("replay", "mine.jsonl", "--show")
    assert shown.exit_code == 0 and "seat 0 human" in shown.stdout
    # the printed analyse command works as printed (fewer worlds to keep the test quick)
    got = invoke("analyse", "mine.jsonl", "--deal", 0, "--at", at, "--worlds", 10,
                 "--policy", "heuristic")
    assert got.exit_code == 0, got.output
    assert f"after {at} action{'s' if at != 1 else ''}: seat 0 to move" in got.stdout
    assert "the record played: play " in got.stdout


@pytest.mark.parametrize("answer,said", [("\n", "not saved"),
                                         ("", "the input ended at the question: the record "
                                              "is not saved")])
def test_declined_or_input_ended(tmp_path, invoke, answer, said):
    res = invoke(*GAME, input=MOVES + answer)
    assert res.exit_code == 0, res.output
    assert _lines(res)[-1].endswith(said)
    assert ASK in res.stdout
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_replaced_only_when_confirmed(tmp_path, invoke):
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    (tmp_path / "d").mkdir()
    # a folder: one line, asked again; the file: "no", kept, asked again; the file again:
    # an empty confirmation (the default, no), kept, asked again; an empty name: skipped
    script = MOVES + "d\nnotes.txt\nno\nnotes.txt\n\n\n"
    res = invoke(*GAME, input=script)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "'d' is a folder; allowed: a new or regular file" in out
    assert "give another name, or nothing to skip" in out
    assert "'notes.txt' exists; replace it? [y/N]: no" in out
    assert "'notes.txt' is kept as it was" in out
    assert out.count("'notes.txt' is kept as it was") == 2
    assert _lines(res)[-2:] == [ASK, "not saved"]
    assert mine.read_text() == "my notes\n"
    res = invoke(*GAME, input=MOVES + "notes.txt\ny\n")
    assert res.exit_code == 0, res.output
    assert "saved the record to notes.txt" in res.stdout
    assert replay_file(mine) == (1, [])


def test_no_save_skips_the_question(tmp_path, invoke):
    res = invoke(*GAME, "--no-save", input=MOVES + "x.jsonl\n")
    assert res.exit_code == 0, res.output
    assert "save the record?" not in res.stdout
    assert not (tmp_path / "x.jsonl").exists()
    one_error_line(invoke(*GAME, "--no-save", "--save", "x.jsonl", input=MOVES),
                   "--save and --no-save")
