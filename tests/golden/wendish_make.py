"""Regenerate the Wendish golden records (run from the repository root:
``python tests/golden/wendish_make.py``).  Each file holds records picked to cover
the contracts; the corrupted file holds broken copies that replay must reject."""
import json
from pathlib import Path

from simcore import get_game
from simcore.games.wendish.cards import card_name, mask_cards
from simcore.games.wendish.engine import A_PLAY, ST_HAND, ST_TRICK_N
from simcore.games.wendish.rules import RULEBOOK

G = get_game("wendish")
HERE = Path(__file__).parent


def records(variant, policies, seed, want, deals=1, extra=()):
    r = RULEBOOK.build(assignments=[f"variant={variant}", f"deals={deals}", *extra])
    names, ids = G.policy_ids(policies, r)
    found = {}
    for index in range(400):
        rec = G.record(r, names, ids, seed, index)
        key = rec["deals"][0]["end"]["contract"]
        if key == "wedding":
            arg = [a for a in rec["deals"][0]["actions"] if a[1] == "wedding"][0][2]
            key = "wedding_first" if arg == "first_trick" else "wedding"
        if key in want and key not in found:
            found[key] = rec
        if len(found) == len(want):
            break
    return [found[k] for k in want if k in found]


def write(name, recs):
    with open(HERE / name, "w", encoding="utf-8") as fh:
        for rec in recs:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")


def main():
    four = records("four", ["random"] * 4, 1, ["solo"])
    four += records("four", ["random", "heuristic", "random", "heuristic"], 1,
                    ["quiet_solo", "wedding", "wedding_first"], extra=["lust_solo=false"])
    four += records("four", ["heuristic"] * 4, 2, ["normal"], deals=2,
                    extra=["lust_solo=false"])
    write("wendish_four.jsonl", four)
    three = records("three", ["heuristic", "random", "random"], 3, ["normal", "solo"])
    three += records("three", ["random"] * 3, 4, ["wedding", "wedding_first"], deals=2,
                     extra=["lust_solo=false", "wedding_deadline=2"])
    write("wendish_three.jsonl", three)
    write("wendish_three_sharp.jsonl",
          records("three_sharp", ["heuristic"] * 3, 5, ["normal", "quiet_solo", "solo"]))
    write("wendish_officers.jsonl",
          records("officers", ["heuristic", "random"], 6, ["normal"], deals=2))
    # corrupted copies
    bad = []
    rec = json.loads(json.dumps(four[0]))          # a card that does not follow
    deal = rec["deals"][0]
    eng = G.engine(RULEBOOK.from_dict(rec["rules"]))
    st = eng.from_record(rec, 0, 0)
    for i, act in enumerate(deal["actions"]):
        if act[1] == "play" and st[ST_TRICK_N]:
            seat = act[0]
            legal = sum(1 << (a - A_PLAY) for a in eng.legal(st))
            illegal = int(st[ST_HAND + seat]) & ~legal
            if illegal:
                deal["actions"][i] = [seat, "play", card_name(mask_cards(illegal)[0])]
                break
        eng.apply(st, eng.action_from_record(st, act))
    bad.append(rec)
    rec = json.loads(json.dumps(four[-1]))         # the dealer does not rotate
    rec["deals"][1]["start"]["dealer"] = rec["deals"][0]["start"]["dealer"]
    bad.append(rec)
    rec = json.loads(json.dumps(four[1]))          # a wrong score in end
    rec["deals"][0]["end"]["scores"] = [-s for s in rec["deals"][0]["end"]["scores"]]
    bad.append(rec)
    rec = json.loads(json.dumps(three[0]))         # a wrong result
    rec["result"]["scores"][0] += 1
    bad.append(rec)
    rec = json.loads(json.dumps(three[0]))         # a black queen discarded
    acts = rec["deals"][0]["actions"]
    i = next(k for k, a in enumerate(acts) if a[1] == "discard")
    acts[i][2] = "QC" if "QC" in rec["deals"][0]["start"]["hands"][acts[i][0]] else "QS"
    bad.append(rec)
    write("wendish_corrupted.jsonl", bad)


if __name__ == "__main__":
    main()
