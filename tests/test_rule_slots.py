"""The kernels' rule arrays generated from the options' slot declarations
(``Option.slot``/``encode``, ``Derived``, ``RuleBook.rules_array``).

``REFERENCE`` holds the arrays the hand-written ``rules_array`` of each game gave
before the slots were declared (generated from that code, then frozen here): every
preset, every option value the conformance test plays, and twelve random valid rule
sets a game.  The generated arrays must equal them word for word: the kernels read
the same slots at the same indices.
"""
import importlib

import numpy as np
import pytest

from simcore import get_game
from simcore.options import Derived, Option, RuleBook, equals

RULES_MODULES = {g: importlib.import_module(f"simcore.games.{g}.rules")
                 for g in ("schadenfreude", "schnapsen", "wendish")}

REFERENCE = [
    ('schadenfreude', 'standard', (),
     [4, 12, 40, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', 'summary-de', (),
     [4, 12, 40, 1, 1, 0, 0, 1, 1, 200, 1125899906842623]),
    ('schadenfreude', None, ('players=3',),
     [3, 12, 40, 1, 1, 0, 0, 0, 0, 200, 984715632809977]),
    ('schadenfreude', None, ('players=5',),
     [5, 10, 40, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('values=-3,-2,-1,1,2,3,4,5,6,7,8', 'players=3'),
     [3, 12, 40, 1, 1, 0, 0, 0, 0, 200, 985128050358271]),
    ('schadenfreude', None, ('values=-3', 'hand_size=1'),
     [4, 1, 40, 1, 1, 0, 0, 0, 0, 200, 844493666390017]),
    ('schadenfreude', None, ('hand_size=1',),
     [4, 1, 40, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('hand_size=11',),
     [4, 11, 40, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('hand_size=13', 'players=3', 'values=-3,-2,-1,1,2,3,4,5,6,7,8'),
     [3, 13, 40, 1, 1, 0, 0, 0, 0, 200, 985128050358271]),
    ('schadenfreude', None, ('hand_size=15', 'players=3', 'values=-3,-2,-1,1,2,3,4,5,6,7,8'),
     [3, 15, 40, 1, 1, 0, 0, 0, 0, 200, 985128050358271]),
    ('schadenfreude', None, ('limit=1',),
     [4, 12, 1, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('limit=39',),
     [4, 12, 39, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('limit=41',),
     [4, 12, 41, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('limit=45',),
     [4, 12, 45, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('pairs=keep',),
     [4, 12, 40, 0, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('floor=none',),
     [4, 12, 40, 1, 0, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('floor=-1',),
     [4, 12, 40, 1, 1, -1, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('first_leader=seat0',),
     [4, 12, 40, 1, 1, 0, 1, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('tie_lead=after_last',),
     [4, 12, 40, 1, 1, 0, 0, 1, 0, 200, 1125899906842623]),
    ('schadenfreude', None, ('all_bust=highest',),
     [4, 12, 40, 1, 1, 0, 0, 0, 1, 200, 1125899906842623]),
    ('schadenfreude', None, ('max_rounds=1',),
     [4, 12, 40, 1, 1, 0, 0, 0, 0, 1, 1125899906842623]),
    ('schadenfreude', None, ('max_rounds=199',),
     [4, 12, 40, 1, 1, 0, 0, 0, 0, 199, 1125899906842623]),
    ('schadenfreude', None, ('max_rounds=201',),
     [4, 12, 40, 1, 1, 0, 0, 0, 0, 201, 1125899906842623]),
    ('schadenfreude', None, ('max_rounds=205',),
     [4, 12, 40, 1, 1, 0, 0, 0, 0, 205, 1125899906842623]),
    ('schadenfreude', 'standard', ('hand_size=11',),
     [4, 11, 40, 1, 1, 0, 0, 0, 0, 200, 1125899906842623]),
    ('schadenfreude', 'standard', ('max_rounds=203', 'first_leader=seat0', 'tie_lead=random', 'all_bust=highest'),
     [4, 12, 40, 1, 1, 0, 1, 0, 1, 203, 1125899906842623]),
    ('schadenfreude', 'summary-de', ('hand_size=4',),
     [4, 4, 40, 1, 1, 0, 0, 1, 1, 200, 1125899906842623]),
    ('schadenfreude', 'summary-de', ('floor=-10', 'max_rounds=61931'),
     [4, 12, 40, 1, 1, -10, 0, 1, 1, 61931, 1125899906842623]),
    ('schadenfreude', 'summary-de', ('hand_size=9', 'tie_lead=after_last'),
     [4, 9, 40, 1, 1, 0, 0, 1, 1, 200, 1125899906842623]),
    ('schadenfreude', 'standard', ('first_leader=seat0', 'all_bust=none', 'tie_lead=random', 'max_rounds=77484', 'limit=42', 'hand_size=5', 'floor=none', 'pairs=keep', 'players=4', 'values=-3,2,7,8,-1,4'),
     [4, 5, 42, 0, 0, 0, 1, 0, 0, 77484, 955846404429397]),
    ('schadenfreude', 'standard', ('first_leader=seat0', 'pairs=keep', 'floor=-3', 'all_bust=highest', 'max_rounds=195', 'values=9,-3,5,2,1', 'hand_size=3'),
     [4, 3, 40, 0, 1, -3, 1, 0, 1, 195, 995713434097817]),
    ('schadenfreude', 'standard', ('values=-3,8,6,7', 'hand_size=1', 'all_bust=none', 'pairs=keep', 'tie_lead=random'),
     [4, 1, 40, 0, 1, 0, 0, 0, 0, 200, 967669040813825]),
    ('schadenfreude', 'standard', ('max_rounds=79454',),
     [4, 12, 40, 1, 1, 0, 0, 0, 0, 79454, 1125899906842623]),
    ('schadenfreude', 'standard', ('max_rounds=1',),
     [4, 12, 40, 1, 1, 0, 0, 0, 0, 1, 1125899906842623]),
    ('schadenfreude', 'summary-de', ('max_rounds=1', 'hand_size=3', 'limit=583677685', 'values=3,1,-1,2', 'players=3', 'first_leader=seat0', 'pairs=keep', 'all_bust=none', 'tie_lead=random'),
     [3, 3, 583677685, 0, 1, 0, 1, 0, 0, 1, 848549105614908]),
    ('schadenfreude', 'summary-de', ('max_rounds=11078', 'hand_size=1', 'limit=48', 'players=3', 'first_leader=seat0', 'tie_lead=random', 'all_bust=none', 'pairs=cancel'),
     [3, 1, 48, 1, 1, 0, 1, 0, 0, 11078, 984715632809977]),
    ('schnapsen', 'austrian', (),
     [7, 66, 2, 2, 1, 1, 33]),
    ('schnapsen', 'tournament', (),
     [7, 66, 4, 4, 1, 1, 33]),
    ('schnapsen', None, ('match_points=1',),
     [1, 66, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('match_points=6',),
     [6, 66, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('match_points=8',),
     [8, 66, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('match_points=12',),
     [12, 66, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('target=1',),
     [7, 1, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('target=65',),
     [7, 65, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('target=67',),
     [7, 67, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('target=71',),
     [7, 71, 2, 2, 1, 1, 33]),
    ('schnapsen', None, ('exchange_min_talon=3',),
     [7, 66, 3, 2, 1, 1, 33]),
    ('schnapsen', None, ('exchange_min_talon=7',),
     [7, 66, 7, 2, 1, 1, 33]),
    ('schnapsen', None, ('close_min_talon=3',),
     [7, 66, 2, 3, 1, 1, 33]),
    ('schnapsen', None, ('close_min_talon=7',),
     [7, 66, 2, 7, 1, 1, 33]),
    ('schnapsen', None, ('marriage_after_close=false',),
     [7, 66, 2, 2, 0, 1, 33]),
    ('schnapsen', None, ('closed_scoring=at_end',),
     [7, 66, 2, 2, 1, 0, 33]),
    ('schnapsen', None, ('schneider_below=1',),
     [7, 66, 2, 2, 1, 1, 1]),
    ('schnapsen', None, ('schneider_below=32',),
     [7, 66, 2, 2, 1, 1, 32]),
    ('schnapsen', None, ('schneider_below=34',),
     [7, 66, 2, 2, 1, 1, 34]),
    ('schnapsen', None, ('schneider_below=38',),
     [7, 66, 2, 2, 1, 1, 38]),
    ('schnapsen', 'austrian', ('target=65',),
     [7, 65, 2, 2, 1, 1, 33]),
    ('schnapsen', 'austrian', ('exchange_min_talon=4', 'target=61', 'match_points=21', 'close_min_talon=2', 'closed_scoring=at_end'),
     [21, 61, 4, 2, 1, 0, 33]),
    ('schnapsen', 'tournament', ('close_min_talon=9',),
     [7, 66, 4, 9, 1, 1, 33]),
    ('schnapsen', 'austrian', ('exchange_min_talon=7', 'marriage_after_close=false', 'schneider_below=26'),
     [7, 66, 7, 2, 0, 1, 26]),
    ('schnapsen', 'tournament', ('match_points=3', 'closed_scoring=at_end'),
     [3, 66, 4, 4, 1, 0, 33]),
    ('schnapsen', 'austrian', ('closed_scoring=at_end', 'exchange_min_talon=2', 'marriage_after_close=false'),
     [7, 66, 2, 2, 0, 0, 33]),
    ('schnapsen', 'austrian', ('close_min_talon=8', 'match_points=5', 'closed_scoring=at_close', 'marriage_after_close=true'),
     [5, 66, 2, 8, 1, 1, 33]),
    ('schnapsen', 'austrian', ('closed_scoring=at_close', 'schneider_below=40', 'exchange_min_talon=7', 'target=120'),
     [7, 120, 7, 2, 1, 1, 40]),
    ('schnapsen', 'austrian', ('schneider_below=1', 'closed_scoring=at_close'),
     [7, 66, 2, 2, 1, 1, 1]),
    ('schnapsen', 'tournament', ('target=67', 'exchange_min_talon=2', 'closed_scoring=at_close', 'close_min_talon=10', 'marriage_after_close=false', 'schneider_below=27', 'match_points=3'),
     [3, 67, 2, 10, 0, 1, 27]),
    ('schnapsen', 'tournament', ('match_points=12', 'target=1', 'marriage_after_close=true', 'schneider_below=1', 'exchange_min_talon=3', 'closed_scoring=at_end'),
     [12, 1, 3, 4, 1, 0, 1]),
    ('schnapsen', 'austrian', ('marriage_after_close=true', 'exchange_min_talon=3', 'schneider_below=40', 'match_points=11', 'close_min_talon=3', 'closed_scoring=at_end', 'target=120'),
     [11, 120, 3, 3, 1, 0, 40]),
    ('wendish', 'standard', (),
     [0, 4, 4, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', 'dreiwendsch', (),
     [1, 3, 3, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', 'sharp', (),
     [2, 3, 3, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', 'officers', (),
     [3, 2, 2, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('variant=three',),
     [1, 3, 3, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('variant=three_sharp',),
     [2, 3, 3, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('variant=officers',),
     [3, 2, 2, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('deals=1',),
     [0, 4, 1, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('deals=3',),
     [0, 4, 3, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('deals=5',),
     [0, 4, 5, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('deals=9',),
     [0, 4, 9, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('lust_solo=false',),
     [0, 4, 4, 0, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('solo_suits=D,C,S',),
     [0, 4, 4, 1, 11, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('solo_suits=D',),
     [0, 4, 4, 1, 8, 3, 30, 1, 1, 1, 2]),
    ('wendish', None, ('wedding_deadline=1',),
     [0, 4, 4, 1, 15, 1, 30, 1, 1, 1, 2]),
    ('wendish', None, ('wedding_deadline=2',),
     [0, 4, 4, 1, 15, 2, 30, 1, 1, 1, 2]),
    ('wendish', None, ('wedding_deadline=4',),
     [0, 4, 4, 1, 15, 4, 30, 1, 1, 1, 2]),
    ('wendish', None, ('wedding_deadline=8',),
     [0, 4, 4, 1, 15, 8, 30, 1, 1, 1, 2]),
    ('wendish', None, ('schneider_below=1',),
     [0, 4, 4, 1, 15, 3, 1, 1, 1, 1, 2]),
    ('wendish', None, ('schneider_below=29',),
     [0, 4, 4, 1, 15, 3, 29, 1, 1, 1, 2]),
    ('wendish', None, ('schneider_below=31',),
     [0, 4, 4, 1, 15, 3, 31, 1, 1, 1, 2]),
    ('wendish', None, ('schneider_below=35',),
     [0, 4, 4, 1, 15, 3, 35, 1, 1, 1, 2]),
    ('wendish', None, ('base=2',),
     [0, 4, 4, 1, 15, 3, 30, 2, 1, 1, 2]),
    ('wendish', None, ('base=6',),
     [0, 4, 4, 1, 15, 3, 30, 6, 1, 1, 2]),
    ('wendish', None, ('schneider=0',),
     [0, 4, 4, 1, 15, 3, 30, 1, 0, 1, 2]),
    ('wendish', None, ('schneider=2',),
     [0, 4, 4, 1, 15, 3, 30, 1, 2, 1, 2]),
    ('wendish', None, ('schneider=6',),
     [0, 4, 4, 1, 15, 3, 30, 1, 6, 1, 2]),
    ('wendish', None, ('schwarz=0',),
     [0, 4, 4, 1, 15, 3, 30, 1, 1, 0, 2]),
    ('wendish', None, ('schwarz=2',),
     [0, 4, 4, 1, 15, 3, 30, 1, 1, 2, 2]),
    ('wendish', None, ('schwarz=6',),
     [0, 4, 4, 1, 15, 3, 30, 1, 1, 6, 2]),
    ('wendish', None, ('solo_base=1',),
     [0, 4, 4, 1, 15, 3, 30, 1, 1, 1, 1]),
    ('wendish', None, ('solo_base=3',),
     [0, 4, 4, 1, 15, 3, 30, 1, 1, 1, 3]),
    ('wendish', None, ('solo_base=7',),
     [0, 4, 4, 1, 15, 3, 30, 1, 1, 1, 7]),
    ('wendish', 'dreiwendsch', ('lust_solo=true',),
     [1, 3, 3, 1, 15, 3, 30, 1, 1, 1, 2]),
    ('wendish', 'sharp', ('schwarz=1', 'schneider_below=120'),
     [2, 3, 3, 1, 15, 3, 120, 1, 1, 1, 2]),
    ('wendish', 'dreiwendsch', ('wedding_deadline=16', 'lust_solo=false', 'solo_base=8', 'schneider=9', 'solo_suits=S,C,D', 'base=1000000000000', 'deals=1'),
     [1, 3, 1, 0, 11, 16, 30, 1000000000000, 9, 1, 8]),
    ('wendish', 'standard', ('lust_solo=false', 'deals=5', 'wedding_deadline=15', 'base=1', 'variant=officers', 'schneider=1', 'solo_base=1000000000000'),
     [3, 2, 5, 0, 15, 15, 30, 1, 1, 1, 1000000000000]),
    ('wendish', 'officers', ('solo_suits=D,S', 'base=1', 'schwarz=1000000000000'),
     [3, 2, 2, 1, 10, 3, 30, 1, 1, 1000000000000, 2]),
    ('wendish', 'dreiwendsch', ('solo_suits=S,D,H', 'solo_base=9', 'deals=402', 'schneider=1000000000000', 'variant=three_sharp'),
     [2, 3, 402, 1, 14, 3, 30, 1, 1000000000000, 1, 9]),
    ('wendish', 'dreiwendsch', ('schneider_below=1', 'solo_suits=S,H,C,D', 'variant=four', 'schneider=0', 'solo_base=1000000000000', 'wedding_deadline=1'),
     [0, 4, 4, 1, 15, 1, 1, 1, 0, 1, 1000000000000]),
    ('wendish', 'standard', ('lust_solo=true', 'schneider_below=1', 'deals=1000'),
     [0, 4, 1000, 1, 15, 3, 1, 1, 1, 1, 2]),
    ('wendish', 'standard', ('variant=officers', 'deals=65', 'schneider=11'),
     [3, 2, 65, 1, 15, 3, 30, 1, 11, 1, 2]),
    ('wendish', 'standard', ('schneider_below=36', 'schneider=827201355325', 'variant=four', 'schwarz=11', 'wedding_deadline=16', 'solo_base=58571012353'),
     [0, 4, 4, 1, 15, 16, 36, 1, 827201355325, 11, 58571012353]),
    ('wendish', 'standard', ('base=28965716004', 'deals=8', 'solo_suits=H,D', 'schneider=878085156830', 'variant=four', 'schwarz=8', 'wedding_deadline=3', 'solo_base=3', 'schneider_below=1', 'lust_solo=false'),
     [0, 4, 8, 0, 12, 3, 1, 28965716004, 878085156830, 8, 3]),
    ('wendish', 'officers', ('schneider_below=1', 'base=1000000000000', 'deals=73', 'wedding_deadline=1', 'schwarz=1000000000000', 'lust_solo=false', 'solo_base=249590655974', 'variant=three_sharp'),
     [2, 3, 73, 0, 15, 1, 1, 1000000000000, 1, 1000000000000, 249590655974]),
]


@pytest.mark.parametrize("game,preset,assignments,expected", REFERENCE,
                         ids=[f"{g}-{p}-{'+'.join(a)}" for g, p, a, _ in REFERENCE])
def test_generated_array_equals_the_hand_written_one(game, preset, assignments, expected):
    rules = get_game(game).build_rules(preset, None, list(assignments))
    a = RULES_MODULES[game].rules_array(rules)
    assert a.dtype == np.int64 and a.tolist() == expected


def test_every_preset_and_option_is_in_the_reference():
    covered = {(g, p) for g, p, _, _ in REFERENCE}
    names = {(g, a.split("=")[0]) for g, _, ass, _ in REFERENCE for a in ass}
    for game, mod in RULES_MODULES.items():
        rb = mod.RULEBOOK
        assert all((game, p) in covered for p in rb.presets)
        assert all((game, o) in names for o in rb.options)


@pytest.mark.parametrize("game", sorted(RULES_MODULES) + ["toygame"])
def test_slot_constants_are_the_declared_slots(game):
    """Each declared slot is the rules module's constant of that name, numbered 0.. in
    the array's order, and RULE_FIELDS (where a game exports it) the array's length."""
    mod = RULES_MODULES.get(game) or importlib.import_module("toygame.rules")
    slots = dict(mod.RULEBOOK.slots)
    assert sorted(slots.values()) == list(range(len(slots))) == list(slots.values())
    assert {n: getattr(mod, n) for n in slots} == slots
    assert all(type(getattr(mod, n)) is int for n in slots)        # numba reads plain ints
    assert getattr(mod, "RULE_FIELDS", len(slots)) == len(slots)
    undeclared = [n for n in vars(mod) if n.startswith("R_") and n not in slots]
    assert undeclared == []


def _book(*options, derived=(), layout=None):
    return RuleBook("t", options, {"standard": {}}, derived=derived, layout=layout)


def test_slots_follow_declaration_or_layout():
    a = Option("a", "bool", True, "a", slot="R_A")
    b = Option("b", "choice", "y", "b", choices=("x", "y", "z"), slot="R_B")
    c = Option("c", "choice", "x", "c", choices=("x", "y"), slot="R_C", encode=equals("y"))
    n = Option("n", "int", 7, "n", lo=0, hi=9)                     # read by no kernel
    d = Derived("R_SUM", lambda v: v["n"] + 1, "n + 1")
    book = _book(a, b, c, n, derived=(d,))
    assert dict(book.slots) == {"R_A": 0, "R_B": 1, "R_C": 2, "R_SUM": 3}
    rules = book.build(assignments=["c=y", "n=3"])
    assert book.rules_array(rules).tolist() == [1, 1, 1, 4]
    book = _book(a, b, c, n, derived=(d,), layout=("R_SUM", "R_C", "R_B", "R_A"))
    assert book.rules_array(book.build()).tolist() == [8, 0, 1, 1]
    assert book.slot("R_C") == 1


def test_bad_slot_declarations_are_refused():
    a = Option("a", "bool", True, "a", slot="R_A")
    with pytest.raises(ValueError, match="declared more than once"):
        _book(a, Option("b", "int", 1, "b", slot="R_A"))
    with pytest.raises(ValueError, match="must name each declared slot once"):
        _book(a, layout=("R_A", "R_B"))
    with pytest.raises(ValueError, match="must name each declared slot once"):
        _book(a, Option("b", "int", 1, "b", slot="R_B"), layout=("R_A",))
    with pytest.raises(ValueError, match="needs encode="):
        Option("l", "int_list", (1,), "l", choices=(1, 2), slot="R_L")
    with pytest.raises(ValueError, match="no slot"):
        Option("b", "bool", True, "b", encode=int)
    with pytest.raises(ValueError, match="declares no slot 'R_X'; slots: R_A"):
        _book(a).slot("R_X")
