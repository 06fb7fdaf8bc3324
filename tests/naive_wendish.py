"""A slow, obvious reference for Wendish Schafkopf deals, written from the rules
only (no engine imports, no code shared with simcore.games.wendish): who won each
trick, the sides, the card points, and the deal's score under the tariff
(``naive_deal``, ``naive_result``)."""

TOP = ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"]
PLAIN = "ATK987"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
PLAYERS = {"four": 4, "three": 3, "three_sharp": 3, "officers": 2}


def trumps(trump):
    return TOP + [r + trump for r in PLAIN]


def trick_winner(cards, trump):
    """Index (in play order) of the card that wins a trick."""
    order = trumps(trump)
    in_trump = [c for c in cards if c in order]
    if in_trump:
        return cards.index(min(in_trump, key=order.index))
    suit = cards[0][1]
    follow = [c for c in cards if c[1] == suit]
    return cards.index(min(follow, key=lambda c: PLAIN.index(c[0])))


def naive_deal(rules, deal):
    """The ``end`` object a record's deal must carry, worked out from the rules:
    contract, declarer, trump, teams (each sorted; the declaring side first),
    card points per team, winner, Schneider and Schwarz of the losers, and the
    score change per seat under the tariff."""
    n = PLAYERS[rules["variant"]]
    start = deal["start"]
    dealer = start["dealer"]
    hands = [set(h) for h in start["hands"]]
    for p, down in enumerate(start.get("face_down", [])):
        hands[p] |= set(down)
    contract, declarer, trump = "normal", None, "D"
    team = None
    taker, discards = None, []
    plays = []
    first_trick_caller = None
    for act in deal["actions"]:
        seat, verb = act[0], act[1]
        if verb == "pickup":
            taker = seat
            hands[seat] |= set(start["skat"])
        elif verb == "discard":
            discards.append(act[2])
            hands[seat].discard(act[2])
        elif verb == "solo":
            contract, declarer, trump, team = "solo", seat, act[2], {seat}
        elif verb == "quiet_solo":
            contract, declarer, team = "quiet_solo", seat, {seat}
        elif verb == "wedding" and act[2] == "first_trick":
            contract, declarer, team = "wedding", seat, {seat}
            first_trick_caller = seat
        elif verb == "wedding":
            holder = next(p for p in range(n) if act[2] in hands[p])
            contract, declarer, team = "wedding", seat, {seat, holder}
        elif verb == "play":
            plays.append((seat, act[2]))
    if rules["variant"] == "officers":
        team = {(dealer + 1) % n}
    elif team is None:
        team = {p for p in range(n) if hands[p] & {"QC", "QS"}}
    pts, tricks = [0] * n, [0] * n
    leader = (dealer + 1) % n
    for t in range(len(plays) // n):
        trick = plays[t * n:(t + 1) * n]
        assert trick[0][0] == leader, ("trick", t, "led by", trick[0][0], "not", leader)
        w = trick[trick_winner([c for _, c in trick], trump)][0]
        pts[w] += sum(POINTS[c[0]] for _, c in trick)
        tricks[w] += 1
        leader = w
        if first_trick_caller is not None and w != first_trick_caller \
                and t < rules["wedding_deadline"] and len(team) == 1:
            team.add(w)
    other = set(range(n)) - team
    cp = [sum(pts[p] for p in team), sum(pts[p] for p in other)]
    taken = [sum(tricks[p] for p in team), sum(tricks[p] for p in other)]
    if taker is not None:      # the discards count for the taker's side, as points only
        cp[0 if taker in team else 1] += sum(POINTS[c[0]] for c in discards)
    assert sum(cp) == 120, cp
    teams = [sorted(team), sorted(other)]
    scores = [0] * n
    if rules["variant"] == "officers" and cp[0] == 60:
        winner, schneider, schwarz = None, False, False
    else:
        winner = 0 if cp[0] >= 61 else 1
        loser = 1 - winner
        schneider = cp[loser] < rules["schneider_below"]
        schwarz = taken[loser] == 0
        value = rules["solo_base"] if contract in ("solo", "quiet_solo") else rules["base"]
        value += rules["schneider"] * schneider + rules["schwarz"] * schwarz
        for side in (0, 1):
            sign = 1 if side == winner else -1
            mine, theirs = teams[side], teams[1 - side]
            # equal sides: each player the value; a lone player: the value from each
            per_player = value * len(theirs) if len(mine) == 1 and len(theirs) > 1 else value
            for p in mine:
                scores[p] = sign * per_player
    return {"contract": contract, "declarer": declarer, "trump": trump, "teams": teams,
            "card_points": cp, "winner": winner, "schneider": schneider, "schwarz": schwarz,
            "scores": scores}


def naive_result(rec):
    """([end per deal], result) of a whole record; the dealer passes on each deal."""
    n = PLAYERS[rec["rules"]["variant"]]
    ends = [naive_deal(rec["rules"], d) for d in rec["deals"]]
    for a, b in zip(rec["deals"], rec["deals"][1:]):
        assert b["start"]["dealer"] == (a["start"]["dealer"] + 1) % n
    total = [sum(e["scores"][p] for e in ends) for p in range(n)]
    return ends, {"scores": total}


def as_compared(end):
    """A record's ``end`` with each team's seats sorted (their order is free)."""
    return dict(end, teams=[sorted(t) for t in end["teams"]])


def naive_end(rules, deal):
    """(teams as sorted lists, card points per team, winner) of a record's deal."""
    end = naive_deal(rules, deal)
    return end["teams"], end["card_points"], end["winner"]


def naive_legal_plays(hand, trick, trump, called=None):
    """The cards (names) a player may play: follow the led suit (all trumps are one
    suit, queens and jacks are trumps), else anything; a called card in that set
    must be played."""
    order = trumps(trump)
    if trick:
        led = trick[0]
        if led in order:
            follow = [c for c in hand if c in order]
        else:
            follow = [c for c in hand if c[1] == led[1] and c not in order]
        legal = follow or list(hand)
    else:
        legal = list(hand)
    if called in legal:
        return [called]
    return sorted(legal)


def naive_contract_choices(phase, hand, solo_suits, deck, discards=()):
    """The contract-phase choices as record items without the seat."""
    if phase == "pickup":
        return [["pickup"]]
    if phase == "discard":
        return [["discard", c] for c in hand if c not in ("QC", "QS")]
    if phase == "lust":
        return [["pass"]] + [["solo", s] for s in solo_suits]
    if phase == "old_ones":
        return [["quiet_solo"], ["wedding", "first_trick"]] + [
            ["wedding", c] for c in deck if c not in hand and c not in discards]
    raise ValueError(phase)
