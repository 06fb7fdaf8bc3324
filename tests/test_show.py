"""`tricksim replay FILE --show [--index I]` (issue 13, item 3): one record as a
readable game, every game and variant; bad input is one line."""
import json
import re

import pytest

from simcore.games import get_game
from tests.conftest import one_error_line

# (game, preset, players): every game and variant
VARIANTS = [
    ("schadenfreude", "standard", 3),
    ("schadenfreude", "standard", 4),
    ("schadenfreude", "summary-de", 5),
    ("schnapsen", "austrian", None),
    ("schnapsen", "tournament", None),
    ("wendish", "standard", None),
    ("wendish", "dreiwendsch", None),
    ("wendish", "sharp", None),
    ("wendish", "officers", None),
]
IDS = [f"{g}-{p}-{n or ''}" for g, p, n in VARIANTS]


def _records(game, preset, players, policy, count=2, seed=3):
    g = get_game(game)
    rules = g.build_rules(preset, players=players)
    names, ids = g.policy_ids([policy], rules)
    return [json.loads(json.dumps(r)) for r in g.records(rules, names, ids, seed, 0, count)]


@pytest.fixture(scope="module")
def records():
    """Two records per variant (heuristic and random play), built once."""
    return {v: _records(*v, policy="heuristic") + _records(*v, policy="random", seed=4)
            for v in VARIANTS}


def _write(path, recs):
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))
    return path


def _deal_blocks(text):
    """The lines of each deal (from its 'deal N:' / 'round N:' line on)."""
    blocks, cur = [], None
    for line in text.splitlines():
        if re.match(r"(deal|round) \d+: ", line):
            cur = []
            blocks.append(cur)
        if cur is not None:
            cur.append(line)
    return blocks


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_show_tells_every_action_trick_and_end(variant, records, tmp_path, invoke):
    game, _, _ = variant
    for rec in records[variant]:
        res = invoke("replay", _write(tmp_path / "g.jsonl", [rec]), "--show")
        assert res.exit_code == 0, res.output
        out = res.stdout
        assert out.startswith(f"{game}: seed {rec['seed']}, index {rec['index']}")
        blocks = _deal_blocks(out)
        assert len(blocks) == len(rec["deals"])
        for d, (deal, lines) in enumerate(zip(rec["deals"], blocks)):
            numbers = [int(m.group(1)) for m in (re.match(r" {0,3}(\d+)  \S", ln)
                                                 for ln in lines) if m]
            assert numbers == list(range(len(deal["actions"])))      # every action, in order
            tricks = [re.search(r"trick (\d+) to (you|seat \d+)", ln) for ln in lines]
            winners = [int(m.group(2).split()[1]) for m in tricks if m]
            start = deal["start"]
            word = "round" if game == "schadenfreude" else "deal"
            assert lines[0].startswith(f"{word} {d}: ")
            assert any(ln.startswith(f"{word} {d} ends: ") for ln in lines)
            if game == "schnapsen":
                # each seat's tricks won, as the record's end counts them
                assert [winners.count(p) for p in (0, 1)] == deal["end"]["tricks"]
                assert f"trump card {start['trump_card']}" in lines[0]
                assert f"talon: {' '.join(start['talon'])}" in "\n".join(lines)
            elif game == "wendish":
                plays = sum(1 for a in deal["actions"] if a[1] == "play")
                assert len(winners) == plays // len(start["hands"])
                for hand in start["hands"]:           # each hand, sorted as players hold it
                    assert any(sorted(part.replace("face up ", "").replace("under them ", "")
                                      .split()) == sorted(hand)
                               for ln in lines[1:6] for part in ln.split(": ", 1)[-1]
                               .split(";")), hand
            else:
                assert len(winners) == len(start["hands"][0])
                assert any(f"totals {' '.join(map(str, deal['end']['scores']))}" in ln
                           for ln in lines)
                assert f"set aside: {' '.join(start['aside']) or '-'}" in "\n".join(lines)
        assert out.splitlines()[-1].startswith(("game over", "match over"))


def test_wendish_trick_points_add_up(records, tmp_path, invoke):
    """Four players, no skat: the trick lines' points add to the deal's 120, and the
    sides' card points named at the end are the record's."""
    rec = records[("wendish", "standard", None)][0]
    res = invoke("replay", _write(tmp_path / "g.jsonl", [rec]), "--show")
    for deal, lines in zip(rec["deals"], _deal_blocks(res.stdout)):
        pts = [int(m.group(1)) for m in (re.search(r"trick \d+ to seat \d+ \(\+(\d+)\)", ln)
                                         for ln in lines) if m]
        assert sum(pts) == 120
        cp = deal["end"]["card_points"]
        end = next(ln for ln in lines if " ends: " in ln)
        assert re.search(rf" {cp[0]}, .* {cp[1]}: ", end), end


def test_index_picks_the_record_by_its_index_field(records, tmp_path, invoke):
    recs = records[("schnapsen", "austrian", None)]
    path = _write(tmp_path / "g.jsonl", [recs[1], recs[0]])
    first = invoke("replay", path, "--show")
    assert first.stdout.startswith(f"schnapsen: seed 3, index {recs[1]['index']},")
    res = invoke("replay", path, "--show", "--index", recs[0]["index"])
    assert res.exit_code == 0
    assert res.stdout.startswith(f"schnapsen: seed 3, index {recs[0]['index']},")


def test_bad_input_is_one_line(records, tmp_path, invoke):
    recs = records[("wendish", "dreiwendsch", None)]
    path = _write(tmp_path / "g.jsonl", recs[:2])
    one_error_line(invoke("replay", path, "--show", "--index", 9),
                   "no record with index 9", "indices there: 0-1")
    one_error_line(invoke("replay", path, "--index", 0), "--index", "--show")
    bad = json.loads(json.dumps(recs[0]))
    bad["deals"][0]["actions"][0][0] = (bad["deals"][0]["actions"][0][0] + 1) % 3
    one_error_line(invoke("replay", _write(tmp_path / "b.jsonl", [bad]), "--show"),
                   "record 0 (line 1), deal 0, action 0")
    (tmp_path / "n.jsonl").write_text("{not json\n")
    one_error_line(invoke("replay", tmp_path / "n.jsonl", "--show"), "record 0 (line 1)", "JSON")
    (tmp_path / "e.jsonl").write_text("\n")
    one_error_line(invoke("replay", tmp_path / "e.jsonl", "--show"), "holds no records")
    one_error_line(invoke("replay", tmp_path / "missing.jsonl", "--show"), "cannot read")
