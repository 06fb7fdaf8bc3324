"""tricksim's Schnapsen players inside another engine: PyPI ``schnapsen`` 0.0.5 (RdeepBot).

    /work/venvs/schnapsen-gpl/bin/python benchmarks/bench_schnapsen_rdeep.py \\
        [--policy pimc] [--pairs N] [--samples 16] [--depth 4] [--seed S] [--out NAME]
    /work/venvs/schnapsen-gpl/bin/python benchmarks/bench_schnapsen_rdeep.py --compare A B

Runs in its own venv, which holds the GPL package ``schnapsen==0.0.5`` next to tricksim
(tricksim never depends on it):

    python3 -m venv /work/venvs/schnapsen-gpl
    /work/venvs/schnapsen-gpl/bin/pip install schnapsen==0.0.5 -e .

An adapter bot (``TricksimBot``) plays a tricksim policy through tricksim's public
per-decision API (``simcore.engine("schnapsen", rules)``: ``apply``, ``choose``) against
that engine's ``RdeepBot`` (random rollouts of sampled worlds). RdeepBot's constructor has
no defaults; the parameters are those the package's own executables use
(``num_samples=16, depth=4``).

Rules of the other engine, and how the adapter maps them
---------------------------------------------------------
- One deal is a game; it ends by itself once the winner of a trick has 66 (card points
  plus marriages, which count once their owner has a trick), or with the last trick
  (1 game point to its winner). There is no closing and no claiming.
- Marriages: announcing one leads its king (the engine's ``Marriage`` move), and is
  allowed at every lead, the talon used up included; the trump exchange is a move of its
  own, after which the same player leads. Both are allowed while the talon has cards.
- The follow rule once the talon is used up is tricksim's (higher card of the suit, else
  a lower one, else a trump, else any card).
- Dealing: 5 cards each alternately, the rest the talon, its bottom card the trump card;
  the winner of a trick draws first and the loser of the last draw takes the trump card,
  as in tricksim.

The adapter keeps a tricksim state of the same deal: the harness deals the deck with the
same ``random.Random`` the other engine shuffles with, starts the tricksim deal from those
cards (``engine.start_deal``; the tricksim players read only what their seat sees, and
``pimc`` re-deals the cards its seat cannot see), and at every decision replays the game's
tricks into it with ``apply`` (which checks each move is legal in tricksim: a divergence
of the two rule sets would stop the run). tricksim's rules are ``austrian`` with
``exchange_min_talon=2`` (as the other engine) and ``close_min_talon=10`` (the talon may
be closed only before the first trick: the nearest tricksim rule set to one without
closing, so that ``pimc``'s searches hardly ever count on a close, its own or the
opponent's). Then it asks ``choose`` and maps the action back:
  - a card: that card; marriage then king: ``Marriage``; exchange: ``TrumpExchange``;
  - marriage then queen: the other engine cannot lead the queen of a marriage, so the
    king is led (counted as ``queen_for_king``);
  - close: the other engine has no closing; the adapter asks the player again with the
    turn's step word set past the close (``S_STEP = T_CLOSED``: the talon stays open, and
    close, exchange and claim are not offered) and plays its choice (counted as
    ``close_mapped``);
  - claim: the other engine ends the game by itself, so a claim on reaching 66 never
    comes up there (the game is already over); a claim after a marriage, or any other
    claim, is replaced by the lowest legal card (after a marriage: its king) (counted as
    ``claim_mapped``).
The score of a deal that reaches 66 is 1, 2 (opponent below 33) or 3 (opponent at 0
points) game points; the gate counts deals won, so the player to measure against it is
``pimc:goal=deal`` (each action ranked by the sampled worlds it wins, then by its mean game
points), not the default ``pimc`` (mean game points, tricksim's match objective), and
best ``pimc:goal=deal,marriage_claim=0`` (no claim right after a marriage, in its choices
and searches: the one rule difference that decides who wins a deal there).

What tricksim's search still gets wrong about that engine: a marriage's points count there
only from the next trick its owner wins (tricksim: at once if the owner has a trick, and a
claim may follow the marriage), and schneider is judged on the other engine's points
without pending marriages. ``pimc`` sees what tricksim's observation shows of the
replayed deal (a shown marriage's other half, the trump jack exchanged, the cards the
follow rule excludes), which is what the other engine shows its bots.

Paired deals: deal ``i`` is played twice with the same cards, the tricksim player first
to lead once and second once. Win share over all deals with its Wilson interval, and the
paired interval (mean of each pair's share of 0, 1/2 or 1, normal 95% interval).
Writes results/benchmarks/<out>.json (default schnapsen_rdeep_<policy>, the policy's name
with its parameters, e.g. schnapsen_rdeep_pimc_worlds_32_goal_deal), after every 10 pairs
("complete": false until the end); ``pair_wins`` lists each pair's deals won (0, 1, 2).
"""
import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from schnapsen.bots import RdeepBot                      # noqa: E402  (GPL, own venv)
from schnapsen.deck import Card, Rank, Suit               # noqa: E402
from schnapsen.game import (Bot, Marriage, RegularMove, SchnapsenGamePlayEngine,  # noqa: E402
                            TrumpExchange)

import simcore                                             # noqa: E402
from common import RESULTS, write                          # noqa: E402
from simcore.games.schnapsen import GAME                   # noqa: E402
from simcore.games.schnapsen.engine import (A_CLAIM, A_CLOSE, A_EXCHANGE,  # noqa: E402
                                            A_MARRIAGE, A_PASS, S_STEP, S_TRUMP,
                                            T_CLOSED,
                                            start_deal)
from simcore.statistics.stats import mean_ci, rate_ci                 # noqa: E402

SUIT_ID = {Suit.CLUBS: 0, Suit.SPADES: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 3}
RANK_ID = {Rank.JACK: 0, Rank.QUEEN: 1, Rank.KING: 2, Rank.TEN: 3, Rank.ACE: 4}
ID_SUIT = {v: k for k, v in SUIT_ID.items()}
ID_RANK = {v: k for k, v in RANK_ID.items()}


def card_id(card):
    """tricksim's card id (suit * 5 + rank, J Q K T A) of the other engine's card."""
    return SUIT_ID[card.suit] * 5 + RANK_ID[card.rank]


def card_of(cid):
    """The other engine's card of a tricksim card id."""
    return Card.get_card(ID_RANK[cid % 5], ID_SUIT[cid // 5])


def mask(cards):
    """A tricksim card mask."""
    m = 0
    for c in cards:
        m |= 1 << card_id(c)
    return m


class TricksimBot(Bot):
    """A tricksim policy (``policy``) as a bot of the other engine, for one deal at a time:
    ``new_deal`` gives it the dealt cards before each game."""

    def __init__(self, eng, policy, counts, clock):
        super().__init__(policy)
        self.eng = eng
        self.policy = policy
        self.counts = counts
        self.clock = clock

    def new_deal(self, first_hand, second_hand, talon_cards, i_lead):
        """Start the tricksim deal: the bot is tricksim seat 0, leading first if ``i_lead``
        (tricksim's non-dealer leads first)."""
        self.start = (first_hand, second_hand, talon_cards, i_lead)

    def _state(self, tricks, leader_move):
        first, second, talon, i_lead = self.start
        eng = self.eng
        st = eng.new(0, 0)
        mine, theirs = (first, second) if i_lead else (second, first)
        packed = 0
        for k, c in enumerate(talon[:-1]):
            packed |= card_id(c) << (5 * k)
        start_deal(eng.r, st, 1 if i_lead else 0, mask(mine), mask(theirs),
                   card_id(talon[-1]), packed)
        for t in tricks:
            if t.is_trump_exchange():
                eng.apply(st, A_EXCHANGE)
                continue
            self._lead(st, t.leader_move)
            eng.apply(st, card_id(t.follower_move.card))
        if leader_move is not None:
            self._lead(st, leader_move)
        return st

    def _lead(self, st, move):
        if move.is_marriage():
            m = move.as_marriage()
            self.eng.apply(st, A_MARRIAGE + SUIT_ID[m.suit])
            self.eng.apply(st, card_id(m.underlying_regular_move().card))
        else:
            self.eng.apply(st, card_id(move.as_regular_move().card))

    def _choose(self, st):
        t0 = time.process_time()
        a = self.eng.choose(self.policy, st)
        self.clock[1] += time.process_time() - t0
        self.clock[0] += 1
        return a

    def get_move(self, perspective, leader_move):
        tricks = [t for _, t in perspective.get_game_history() if t is not None]
        st = self._state(tricks, leader_move)
        eng = self.eng
        a = self._choose(st)
        if a == A_CLOSE:
            # no closing there: ask again with the turn's step set past the close (the
            # talon stays open; exchange and claim are then not offered either)
            self.counts["close_mapped"] += 1
            st[S_STEP] = T_CLOSED
            a = self._choose(st)
        if a in (A_CLAIM, A_PASS):
            self.counts["claim_mapped"] += 1
            a = next(x for x in eng.legal(st) if x < A_MARRIAGE)
        if a == A_EXCHANGE:
            return TrumpExchange(card_of(int(st[S_TRUMP]) * 5))
        if A_MARRIAGE <= a < A_EXCHANGE:
            s = a - A_MARRIAGE
            eng.apply(st, a)
            b = self._choose(st)
            king = s * 5 + 2
            if b == king - 1:
                self.counts["queen_for_king"] += 1
            elif b != king:
                self.counts["claim_mapped"] += 1
            return Marriage(card_of(s * 5 + 1), card_of(king))
        return RegularMove(card_of(a))


def deal_cards(engine, seed):
    """The cards ``engine.play_game(.., random.Random(seed))`` deals: (first leader's hand,
    the other hand, the talon with the trump card last)."""
    deck = engine.deck_generator.shuffle_deck(engine.deck_generator.get_initial_deck(),
                                              random.Random(seed))
    cards = list(deck.get_cards())
    return cards[0:10:2], cards[1:10:2], cards[10:]


def compare(a_name, b_name):
    """Print the difference of two result files' deal shares on the deals they share (same
    seed; the first ``min(pairs)`` pairs), in pp with the paired normal 95% interval (the
    mean of each pair's difference). RdeepBot's own draws differ between the runs, so the
    pairing removes the deals' luck only."""
    runs = []
    for name in (a_name, b_name):
        path = Path(name) if name.endswith(".json") else RESULTS / f"{name}.json"
        try:
            d = json.loads(path.read_text())
            runs.append((d["policy"], int(re.search(r"--seed (\d+)", d["command"]).group(1)),
                         d["pair_wins"]))
        except (OSError, ValueError, KeyError, AttributeError) as e:
            sys.exit(f"--compare: {path} is not a results file of this benchmark with "
                     f"pair_wins ({type(e).__name__})")
    (pa, sa, wa), (pb, sb, wb) = runs
    if sa != sb:
        sys.exit(f"--compare: the runs dealt from different seeds ({sa}, {sb}); allowed: "
                 "two runs of the same --seed")
    n = min(len(wa), len(wb))
    diffs = [(x - y) / 2 for x, y in zip(wa[:n], wb[:n])]
    mean, _, lo, hi = mean_ci(sum(diffs), sum(x * x for x in diffs), n)
    print(f"{pa} minus {pb} vs RdeepBot, seed {sa}, {n} pairs ({2 * n} deals each): "
          f"{100 * mean:+.1f} pp [{100 * lo:+.1f}, {100 * hi:+.1f}] (paired by deal)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="pimc", help="the tricksim player (heuristic, pimc...)")
    ap.add_argument("--pairs", type=int, default=200, help="deals, each played twice")
    ap.add_argument("--samples", type=int, default=16, help="RdeepBot num_samples")
    ap.add_argument("--depth", type=int, default=4, help="RdeepBot depth")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None, help="results file name")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), default=None,
                    help="no games: print A's deal share minus B's (two results files of "
                    "the same --seed, names or paths) with the paired interval")
    a = ap.parse_args()
    if a.compare:
        compare(*a.compare)
        return
    rules = GAME.build_rules("austrian", None, ("exchange_min_talon=2", "close_min_talon=10"))
    eng = simcore.engine("schnapsen", rules)
    eng.check_policy(a.policy)
    name = a.out or "schnapsen_rdeep_" + re.sub(r"[^a-z0-9]+", "_", a.policy).strip("_")
    engine = SchnapsenGamePlayEngine()
    counts = {"close_mapped": 0, "claim_mapped": 0, "queen_for_king": 0}
    clock = [0, 0.0]
    ours = TricksimBot(eng, a.policy, counts, clock)
    rdeep = RdeepBot(num_samples=a.samples, depth=a.depth, rand=random.Random(a.seed),
                     name="rdeep")
    out = {"command": f"python benchmarks/bench_schnapsen_rdeep.py --policy {a.policy} "
                      f"--pairs {a.pairs} --samples {a.samples} --depth {a.depth} "
                      f"--seed {a.seed}",
           "engine": "schnapsen 0.0.5 (PyPI)", "opponent": f"RdeepBot(num_samples="
           f"{a.samples}, depth={a.depth})", "policy": a.policy, "rules": "austrian, "
           "exchange_min_talon=2, close_min_talon=10; the other engine's: no closing, "
           "no claims"}
    scores, wins, points = [], 0, 0
    t_start = time.time()
    for i in range(a.pairs):
        seed = a.seed * 100003 + i
        first, second, talon = deal_cards(engine, seed)
        won = 0
        for we_lead in (True, False):
            ours.new_deal(first, second, talon, we_lead)
            bots = (ours, rdeep) if we_lead else (rdeep, ours)
            winner, gp, _ = engine.play_game(bots[0], bots[1], random.Random(seed))
            if winner is ours:
                won += 1
                points += gp
            else:
                points -= gp
        wins += won
        scores.append(won / 2)
        if (i + 1) % 10 == 0 or i + 1 == a.pairs:
            n = len(scores)
            mean, _, lo, hi = mean_ci(sum(scores), sum(x * x for x in scores), n)
            lo, hi = max(lo, 0.0), min(hi, 1.0)   # the normal interval, cut to [0, 1]
            rate, wlo, whi = rate_ci(wins, 2 * n)
            out.update({"pairs": n, "deals": 2 * n, "wins": wins, "win_share": mean,
                        "paired_low": lo, "paired_high": hi, "wilson_low": wlo,
                        "wilson_high": whi, "game_points_net_per_deal": points / (2 * n),
                        "decisions": clock[0],
                        "ms_per_decision": 1000 * clock[1] / max(clock[0], 1),
                        "mapped": dict(counts), "wall_s": time.time() - t_start,
                        "pair_wins": [int(2 * x) for x in scores],
                        "complete": n == a.pairs})
            write(name, out)
            print(f"  {n} pairs: {a.policy} won {wins} of {2 * n} deals, {100 * mean:.1f}% "
                  f"[{100 * lo:.1f}, {100 * hi:.1f}] paired; mapped {counts}", flush=True)
    print(f"{a.policy} vs RdeepBot: {100 * out['win_share']:.1f}% of {2 * a.pairs} deals, "
          f"paired 95% interval [{100 * out['paired_low']:.1f}%, "
          f"{100 * out['paired_high']:.1f}%] (gate >= 65% for pimc)")
    print("wrote", write(name, out))


if __name__ == "__main__":
    main()
