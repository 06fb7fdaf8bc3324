"""Invariants of game records, written from the rules and not from the engine.

``check_record(record)`` returns a list of problems (empty when the record
holds): every card of the deck in exactly one place at the start of each deal,
every card played at most once and only by the seat that held it, card points
adding up, scores zero-sum where the game's scores are, and the game result
following from the deals. Each registered game must have a checker here, so the
conformance test fails for a game that has none.
"""
from __future__ import annotations

from collections import Counter

SUITS = "CSHD"


def _deck_schnapsen():
    return {r + s for s in SUITS for r in "ATKQJ"}


def _deck_wendish(variant):
    ranks = "ATKQJ" if variant == "three_sharp" else "ATKQJ987"
    return {r + s for s in SUITS for r in ranks}


def _deck_schadenfreude(values):
    return {f"{v}{s}" for v in values for s in SUITS} | {"0W", "10W"}


POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def _card_points(card):
    return POINTS.get(card[0], 0)


def _partition(problems, where, parts, deck):
    """Every card of ``deck`` in exactly one of ``parts`` (lists of cards)."""
    seen = Counter(c for part in parts for c in part)
    twice = sorted(c for c, k in seen.items() if k > 1)
    if twice:
        problems.append(f"{where}: cards in two places: {twice}")
    if set(seen) != deck:
        problems.append(f"{where}: missing {sorted(deck - set(seen))}, "
                        f"foreign {sorted(set(seen) - deck)}")


def _plays(problems, where, actions, hands):
    """Cards played come from the player's own hand, each once; returns them per seat."""
    held = [set(h) for h in hands]
    played = [[] for _ in hands]
    for k, action in enumerate(actions):
        if action[1] != "play":
            continue
        seat, card = action[0], action[2]
        if card not in held[seat]:
            problems.append(f"{where} action {k}: seat {seat} plays {card} it does not hold")
        held[seat].discard(card)
        played[seat].append(card)
    return played


def check_schadenfreude(rec):
    problems = []
    rules = rec["rules"]
    deck = _deck_schadenfreude(rules["values"])
    n = rules["players"]
    prev = [0] * n
    for d, deal in enumerate(rec["deals"]):
        where = f"round {d}"
        start, end = deal["start"], deal["end"]
        _partition(problems, where, start["hands"] + [start["aside"]], deck)
        if any(len(h) != rules["hand_size"] for h in start["hands"]):
            problems.append(f"{where}: hands not of {rules['hand_size']} cards")
        if start["scores"] != prev:
            problems.append(f"{where}: start scores {start['scores']} != previous end {prev}")
        played = _plays(problems, where, deal["actions"], start["hands"])
        if any(sorted(p) != sorted(h) for p, h in zip(played, start["hands"])):
            problems.append(f"{where}: not every card of every hand played")
        all_played = Counter(c for p in played for c in p)
        pile_cards = Counter(c for pile in end["piles"] for c in pile)
        if pile_cards - all_played:
            problems.append(f"{where}: piles hold cards nobody played")
        for p in range(n):
            pts = sum(int(c[:-1]) for c in end["piles"][p])
            if pts != end["points"][p]:
                problems.append(f"{where}: seat {p} pile sums to {pts}, points say "
                                f"{end['points'][p]}")
            expect = prev[p] + end["points"][p]
            if rules["floor"] != "none":
                expect = max(expect, rules["floor"])
            if end["scores"][p] != expect:
                problems.append(f"{where}: seat {p} score {end['scores'][p]} != {expect}")
        prev = end["scores"]
    res = rec["result"]
    if res["scores"] != prev:
        problems.append("result scores differ from the last round's")
    bust = [p for p in range(n) if prev[p] > rules["limit"]]
    if sorted(res["bust"]) != bust:
        problems.append(f"result bust {res['bust']} != {bust}")
    if len(set(res["winners"])) != len(res["winners"]):
        problems.append("a winner listed twice")
    return problems


def check_schnapsen(rec):
    problems = []
    rules = rec["rules"]
    deck = _deck_schnapsen()
    left = [rules["match_points"]] * 2
    dealer = None
    for d, deal in enumerate(rec["deals"]):
        where = f"deal {d}"
        start, end = deal["start"], deal["end"]
        _partition(problems, where, start["hands"] + [[start["trump_card"]], start["talon"]],
                   deck)
        if dealer is not None and start["dealer"] != 1 - dealer:
            problems.append(f"{where}: the dealer did not alternate")
        dealer = start["dealer"]
        seen = Counter(a[2] for a in deal["actions"] if a[1] == "play")
        if any(k > 1 for k in seen.values()):
            problems.append(f"{where}: a card played twice")
        if sum(end["tricks"]) * 2 != len(seen):
            problems.append(f"{where}: {sum(end['tricks'])} tricks but {len(seen)} cards played")
        trick_points = sum(_card_points(c) for c in seen)
        marriage_max = 100   # 40 + 3 * 20
        if not trick_points <= sum(end["card_points"]) <= trick_points + marriage_max:
            problems.append(f"{where}: card points {end['card_points']} do not add up to the "
                            f"{trick_points} points played (plus marriages)")
        if end["game_points"] not in (1, 2, 3) and end["reason"] != "resign":
            problems.append(f"{where}: game points {end['game_points']}")
        left[end["winner"]] -= end["game_points"]
    if rec["result"]["match_points"] != left:
        problems.append(f"result match points {rec['result']['match_points']} != {left}")
    if end["reason"] != "resign" and min(left) > 0:
        problems.append("the match ended with nobody at 0")
    return problems


def check_wendish(rec):
    problems = []
    rules = rec["rules"]
    deck = _deck_wendish(rules["variant"])
    n = {"four": 4, "three": 3, "three_sharp": 3, "officers": 2}[rules["variant"]]
    total = [0] * n
    total_points = sum(_card_points(c) for c in deck)
    for d, deal in enumerate(rec["deals"]):
        where = f"deal {d}"
        start, end = deal["start"], deal["end"]
        parts = start["hands"] + [start["skat"]] + start.get("face_down", [])
        _partition(problems, where, parts, deck)
        seen = Counter(a[2] for a in deal["actions"] if a[1] == "play")
        discards = [a[2] for a in deal["actions"] if a[1] == "discard"]
        if any(k > 1 for k in seen.values()):
            problems.append(f"{where}: a card played twice")
        if len(seen) + len(discards) + (0 if discards else len(start["skat"])) != len(deck):
            problems.append(f"{where}: {len(seen)} cards played of {len(deck)}")
        if sum(end["card_points"]) != total_points:
            problems.append(f"{where}: card points {end['card_points']} do not add up to "
                            f"{total_points}")
        teams = end["teams"]
        if sorted(s for t in teams for s in t) != list(range(n)):
            problems.append(f"{where}: teams {teams} are not a partition of the seats")
        if sum(end["scores"]) != 0:
            problems.append(f"{where}: scores {end['scores']} are not zero-sum")
        total = [a + b for a, b in zip(total, end["scores"])]
    if rec["result"]["scores"] != total:
        problems.append(f"result scores {rec['result']['scores']} != the deals' sum {total}")
    return problems


CHECKERS = {"schadenfreude": check_schadenfreude, "schnapsen": check_schnapsen,
            "wendish": check_wendish}


def checker(game: str):
    """The invariants of ``game``'s records: written here for the games tricksim ships,
    or declared by the game's registry entry (``record_checker``, e.g. the toy game's);
    None for a game that has neither."""
    if game in CHECKERS:
        return CHECKERS[game]
    from simcore.games import game_entry
    declared = game_entry(game).record_checker
    return declared() if declared is not None else None


def check_record(rec) -> list[str]:
    """Problems of one record (empty list: every invariant holds)."""
    return checker(rec["game"])(rec)
