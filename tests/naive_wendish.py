"""A slow, obvious reference for Wendish Schafkopf deals, written from the rules
only (no engine imports): who won each trick, the sides, the card points."""

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


def naive_end(rules, deal):
    """(teams as sorted lists, card points per team, winner) of a record's deal."""
    n = PLAYERS[rules["variant"]]
    dealer = deal["start"]["dealer"]
    hands = [set(h) for h in deal["start"]["hands"]]
    for p, down in enumerate(deal["start"].get("face_down", [])):
        hands[p] |= set(down)
    trump = "D"
    team = None
    taker, discards = None, []
    plays = []
    first_trick_caller = None
    for act in deal["actions"]:
        seat, verb = act[0], act[1]
        if verb == "pickup":
            taker = seat
            hands[seat] |= set(deal["start"]["skat"])
        elif verb == "discard":
            discards.append(act[2])
            hands[seat].discard(act[2])
        elif verb == "solo":
            trump, team = act[2], {seat}
        elif verb == "quiet_solo":
            team = {seat}
        elif verb == "wedding" and act[2] == "first_trick":
            team, first_trick_caller = {seat}, seat
        elif verb == "wedding":
            holder = next(p for p in range(n) if act[2] in hands[p])
            team = {seat, holder}
        elif verb == "play":
            plays.append((seat, act[2]))
    if rules["variant"] == "officers":
        team = {(dealer + 1) % n}
    elif team is None:
        team = {p for p in range(n) if hands[p] & {"QC", "QS"}}
    pts = [0] * n
    for t in range(len(plays) // n):
        trick = plays[t * n:(t + 1) * n]
        w = trick[trick_winner([c for _, c in trick], trump)][0]
        pts[w] += sum(POINTS[c[0]] for _, c in trick)
        if first_trick_caller is not None and w != first_trick_caller \
                and t < rules["wedding_deadline"] and len(team) == 1:
            team.add(w)
    cp0 = sum(pts[p] for p in team)
    if taker is not None and taker in team:
        cp0 += sum(POINTS[c[0]] for c in discards)
    teams = [sorted(team), sorted(set(range(n)) - team)]
    if rules["variant"] == "officers" and cp0 == 60:
        winner = None
    else:
        winner = 0 if cp0 >= 61 else 1
    return teams, [cp0, 120 - cp0], winner


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
