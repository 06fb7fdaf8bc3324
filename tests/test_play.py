"""`tricksim play GAME` (issue 13, item 4): a whole game of every game and variant
played from scripted stdin, saved, and taken by replay; refusals in one line."""
import json

import pytest

from simcore import engine
from simcore.records import replay_file
from tests.conftest import one_error_line

# (game, rule arguments, seat, seats): every game and variant
VARIANTS = [
    ("schadenfreude", ["--players", "3"], 2, 3),
    ("schadenfreude", ["--players", "5", "--preset", "summary-de"], 0, 5),
    ("schnapsen", [], 1, 2),
    ("wendish", [], 3, 4),
    ("wendish", ["--preset", "dreiwendsch"], 0, 3),
    ("wendish", ["--preset", "sharp"], 1, 3),
    ("wendish", ["--set", "variant=officers"], 0, 2),
]
IDS = [f"{g}-{'-'.join(a)}" for g, a, _, _ in VARIANTS]
FIRST = "1\n" * 3000           # always the first choice listed, more than any game needs


@pytest.mark.parametrize("game,args,seat,seats", VARIANTS, ids=IDS)
def test_a_whole_game_from_stdin_is_saved_and_replays(game, args, seat, seats, tmp_path,
                                                      invoke):
    res = invoke("play", game, *args, "--seat", seat, "--seed", 5, "--policy", "random",
                 "--save", "me.jsonl", input=FIRST)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "your choices: 1) " in out
    tail = out.rstrip().splitlines()
    assert "saved the record to me.jsonl" in tail
    assert "  view it:    tricksim replay me.jsonl --show" in tail
    assert "save the record?" not in out          # --save given: no question at the end
    assert (tmp_path / "me.jsonl").read_text().count("\n") == 1
    assert replay_file(tmp_path / "me.jsonl") == (1, [])
    rec = json.loads((tmp_path / "me.jsonl").read_text())
    assert rec["policies"] == ["human" if p == seat else "random" for p in range(seats)]
    assert (rec["seed"], rec["index"]) == (5, 0)
    # the human saw only their own hand of each deal
    for d, deal in enumerate(rec["deals"]):
        for p, hand in enumerate(deal["start"]["hands"]):
            shown = f"  {'you' if p == seat else f'seat {p}'}: "
            if "face_down" in deal["start"]:  # Officers: face-up cards are public
                assert _lists(out, shown + "face up ", hand)
                assert "under them" not in out
            else:
                assert _lists(out, shown, hand) == (p == seat)
    # replay --show takes the saved game
    shown = invoke("replay", "me.jsonl", "--show")
    assert shown.exit_code == 0 and f"seat {seat} human" in shown.stdout


def _lists(out: str, prefix: str, hand) -> bool:
    """Whether a line of ``out`` is ``prefix`` and the cards of ``hand`` (in the order the
    narrator sorts them)."""
    return any(line.startswith(prefix) and sorted(line[len(prefix):].split()) == sorted(hand)
               for line in out.splitlines())


def test_cards_by_name_numbers_and_refusals(tmp_path, invoke):
    """A card typed by name (any case) is played; unknown and illegal input is refused
    with the legal choices listed, and the game goes on."""
    eng = engine("schnapsen")
    st = eng.new(7, 0)
    while eng.to_move(st) != 0:
        eng.apply(st, eng.choose("heuristic", st))
    legal = eng.legal(st)
    card = eng.describe([a for a in legal if a < 20][-1]).split()[1]      # codes 0-19: cards
    held = set(eng.view(st, 0)["hand"])
    other = next(c for c in ("AC", "TC", "KC", "QC", "JC", "AS", "TS") if c not in held)
    script = f"zz\n{other}\n99\n{card.lower()}\n" + FIRST
    res = invoke("play", "schnapsen", "--seed", 7, "--policy", "heuristic", "--save",
                 "g.jsonl", input=script)
    assert res.exit_code == 0, res.output
    assert "'zz' is not a legal choice here; choose one of: 1) " in res.stdout
    assert f"'{other}' is not a legal choice here" in res.stdout
    assert "'99' is not a legal choice here" in res.stdout
    rec = json.loads((tmp_path / "g.jsonl").read_text())
    first = next(a for a in rec["deals"][0]["actions"] if a[0] == 0)
    assert first == [0, "play", card]


def test_quit_saves_nothing(tmp_path, invoke):
    res = invoke("play", "wendish", "--seed", 1, "--save", "g.jsonl", input="quit\n")
    assert res.exit_code == 0
    assert "quit: the game is not finished, nothing is saved" in res.stdout
    assert not (tmp_path / "g.jsonl").exists()


def test_end_of_input_is_one_line(tmp_path, invoke):
    one_error_line(invoke("play", "schadenfreude", "--seed", 1, input="1\n1\n"),
                   "the input ended before the game did")


def test_bad_options_are_one_line(tmp_path, invoke):
    one_error_line(invoke("play", "schnapsen", "--seat", 2), "--seat 2", "0 to 1")
    one_error_line(invoke("play", "wendish", "--policy", "nobody"), "unknown policy 'nobody'")
    one_error_line(invoke("play", "wendish", "--policy", "random,random"),
                   "lists 2 players", "4 seats")
    one_error_line(invoke("play", "wendish", "--seat", 1, "--policy",
                          "human,random,random,random"), "'human' at your seat (1")
    one_error_line(invoke("play", "schnapsen", "--seed", -1), "--seed -1")
    one_error_line(invoke("play", "schnapsen", "--index", -3), "--index -3")
    one_error_line(invoke("play", "wendish", "--set", "variant=five"), "variant")


def test_save_never_replaces_a_file_without_force(tmp_path, invoke):
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    one_error_line(invoke("play", "schnapsen", "--seed", 2, "--save", "notes.txt",
                          input=FIRST), "exists", "--force")
    assert mine.read_text() == "my notes\n"
    (tmp_path / "d").mkdir()
    res = invoke("play", "schnapsen", "--seed", 2, "--save", "d", input=FIRST)
    assert res.exit_code != 0 and "Traceback" not in res.output
    res = invoke("play", "schnapsen", "--seed", 2, "--save", "notes.txt", "--force",
                 input=FIRST)
    assert res.exit_code == 0, res.output
    assert replay_file(mine) == (1, [])


def test_a_pimc_name_with_several_parameters_is_one_bot():
    """``--policy pimc:worlds=4,talon=6`` is one player, not ``pimc:worlds=4`` and an
    unknown ``talon=6`` (the commas inside a pimc name are its parameters')."""
    from cli.play import bot_policies
    from simcore import engine
    from simcore.games import get_game
    g = get_game("schnapsen")
    eng = engine("schnapsen", g.build_rules())
    assert bot_policies(eng, "pimc:worlds=4,talon=6", 0, "pimc") == [
        "human", "pimc:worlds=4,talon=6"]
    assert bot_policies(eng, "human,pimc:worlds=4,talon=6", 0, "pimc") == [
        "human", "pimc:worlds=4,talon=6"]
