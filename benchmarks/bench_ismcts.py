"""OpenSpiel's IS-MCTS against tricksim's players in Schnapsen, on paired deals.

    python benchmarks/bench_ismcts.py [--deals 30] [--seed 1] [--opponents pimc,expert]
        [--simulations 100] [--uct-c 2.0] [--worlds -1] [--out FILE]

A strength figure from an engine nobody here wrote: OpenSpiel's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays the game registered by
``simcore.envs.openspiel`` (``tricksim_schnapsen`` with ``single_deal=True``: one deal,
not a whole match; returns are the deal's game points, + for its winner), and samples
its worlds through ``resample_from_infostate`` (tricksim's own Schnapsen world sampler).
Its leaf evaluation is OpenSpiel's ``RandomRolloutEvaluator`` (one random playout per
leaf) except that a playout never resigns while another action is legal (a resignation
scores the whole match and would drown the playouts' values); the search may resign.

Deal ``i`` is deal 0 of match ``i`` of run ``--seed`` (what ``tricksim simulate schnapsen
--seed S`` deals first), played twice: IS-MCTS in seat 0 and the opponent in seat 1, then
the seats swapped. Per pair: IS-MCTS's share of the two deals won and its mean game
points; figures are the means over pairs with 95% normal intervals, a paired t test of
IS-MCTS's game points against the opponent's (Holm across the opponents). Time per
decision: wall and CPU time of each player's decisions (a decision with one legal
action is not searched and not counted). Writes results/benchmarks/ismcts_schnapsen.json.
"""
import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import simcore.envs.openspiel  # noqa: E402,F401  (registers the games)
from simcore import engine  # noqa: E402
from simcore.statistics.stats import MIN_PAIRED_GAMES, evidence_words, format_p, holm, mean_ci, paired_test  # noqa: E402

from common import load_note, write  # noqa: E402

RESIGN = 28          # Schnapsen's resign action code (docs/schnapsen.md)


class NoResignRollout(mcts.RandomRolloutEvaluator):
    """OpenSpiel's random playout evaluator whose playouts never resign while another
    action is legal."""

    def evaluate(self, state):
        result = None
        for _ in range(self.n_rollouts):
            working = state.clone()
            while not working.is_terminal():
                if working.is_chance_node():
                    outcomes, probs = zip(*working.chance_outcomes())
                    action = self._random_state.choice(outcomes, p=probs)
                else:
                    legal = working.legal_actions()
                    if len(legal) > 1:
                        legal = [a for a in legal if a != RESIGN]
                    action = self._random_state.choice(legal)
                working.apply_action(int(action))
            returns = np.array(working.returns())
            result = returns if result is None else result + returns
        return result / self.n_rollouts


def chance_actions(eng, seed: int, index: int) -> list[int]:
    """The chance outcomes that deal deal 0 of match ``index`` of run ``seed``: its
    first dealer, then its card order but the last card."""
    st = eng.new(seed, index)
    return [int(eng.deal_start(st)["dealer"])] + eng.deal_order(st)[:-1]


def play_deal(game, eng, chance, bot, seat_of_bot, opponent, clock):
    """One deal: ``bot`` in seat ``seat_of_bot``, tricksim's ``opponent`` in the other;
    IS-MCTS's game points and the decision times per player."""
    state = game.new_initial_state()
    for a in chance:
        state.apply_action(a)
    bot.reset()
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        w0, c0 = time.perf_counter(), time.process_time()
        if seat == seat_of_bot:
            a = int(bot.step(state))
            who = "ismcts"
        else:
            a = eng.choose(opponent, state.st.copy())
            who = opponent
        clock[who].append((time.perf_counter() - w0, time.process_time() - c0))
        state.apply_action(a)
    return state.returns()[seat_of_bot]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=30, help="paired deals per opponent")
    ap.add_argument("--seed", type=int, default=1, help="the run whose deals are played")
    ap.add_argument("--opponents", default="pimc,expert", help="tricksim players")
    ap.add_argument("--simulations", type=int, default=100,
                    help="IS-MCTS simulations per decision")
    ap.add_argument("--uct-c", type=float, default=2.0, help="IS-MCTS exploration constant")
    ap.add_argument("--worlds", type=int, default=-1,
                    help="IS-MCTS max_world_samples (-1: a fresh world every simulation)")
    ap.add_argument("--out", default=None, help="result file (default results/benchmarks/"
                    "ismcts_schnapsen.json)")
    args = ap.parse_args(argv)
    if args.deals < 2 or args.simulations < 1:
        ap.error("--deals must be at least 2 and --simulations at least 1")
    game = pyspiel.load_game("tricksim_schnapsen", {"single_deal": True, "seed": args.seed})
    eng = engine("schnapsen")
    opponents = [o for o in args.opponents.split(",") if o]
    for o in opponents:
        eng.check_policy(o)
    rows, pvals = [], []
    for opp in opponents:
        rs = np.random.RandomState(args.seed)
        bot = ismcts.ISMCTSBot(
            game, NoResignRollout(1, rs), uct_c=args.uct_c,
            max_simulations=args.simulations, max_world_samples=args.worlds,
            random_state=rs, final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        clock = {"ismcts": [], opp: []}
        mine, theirs, won = [], [], []
        t0 = time.time()
        for i in range(args.deals):
            chance = chance_actions(eng, args.seed, i)
            gp = [play_deal(game, eng, chance, bot, s, opp, clock) for s in (0, 1)]
            mine.append(np.mean(gp))
            theirs.append(-np.mean(gp))
            won.append(np.mean([g > 0 for g in gp]))
        mine, theirs, won = map(np.asarray, (mine, theirs, won))
        lo, hi, p = paired_test(theirs, mine)
        pvals.append(p)
        wr = mean_ci(won.sum(), (won ** 2).sum(), len(won))
        gp = mean_ci(mine.sum(), (mine ** 2).sum(), len(mine))
        times = {who: {"decisions": len(v),
                       "wall_ms_per_decision": 1000 * float(np.mean([x[0] for x in v])),
                       "cpu_ms_per_decision": 1000 * float(np.mean([x[1] for x in v]))}
                 for who, v in clock.items() if v}
        rows.append({"opponent": opp, "paired_deals": args.deals,
                     "ismcts_deal_win_rate": wr[0], "win_low": wr[2], "win_high": wr[3],
                     "ismcts_game_points_per_deal": gp[0], "gp_low": gp[2], "gp_high": gp[3],
                     "gp_difference_low": lo, "gp_difference_high": hi, "p_value": p,
                     "times": times, "seconds": time.time() - t0})
        print(f"IS-MCTS vs {opp}: deal win rate {wr[0]:.3f} [{wr[2]:.3f}, {wr[3]:.3f}], "
              f"game points per deal {gp[0]:+.3f} [{gp[2]:+.3f}, {gp[3]:+.3f}] over "
              f"{args.deals} paired deals; ms per decision "
              + ", ".join(f"{w} {t['wall_ms_per_decision']:.1f} (cpu "
                          f"{t['cpu_ms_per_decision']:.1f})" for w, t in times.items()),
              flush=True)
    tested = [p for p in pvals if not np.isnan(p)]
    adjusted = iter(holm(tested))
    for row, p in zip(rows, pvals):
        q = p if np.isnan(p) else next(adjusted)
        row["p_holm"] = q
        better = "IS-MCTS" if row["ismcts_game_points_per_deal"] > 0 else row["opponent"]
        if np.isnan(q):
            row["verdict"] = (f"no test: {args.deals} paired deals, fewer than the "
                              f"{MIN_PAIRED_GAMES} a paired t test needs here")
        else:
            row["verdict"] = (f"{evidence_words(q)} that {better} scores more game points "
                              f"per deal (paired t test, Holm p {format_p(q)})")
        print(f"vs {row['opponent']}: {row['verdict']}")
    settings = {"simulations": args.simulations, "uct_c": args.uct_c,
                "max_world_samples": args.worlds, "evaluator":
                "RandomRolloutEvaluator(n_rollouts=1), playouts never resign",
                "final_policy": "MAX_VISIT_COUNT", "child_selection": "UCT",
                "game": "tricksim_schnapsen(single_deal=True)", "seed": args.seed,
                "unit": "one deal (not a match), each dealt twice with the seats swapped"}
    path = write("ismcts_schnapsen", {"settings": settings, "results": rows,
                                      "load": load_note("wall and CPU time, one thread"),
                                      "command": "python benchmarks/bench_ismcts.py "
                                      + " ".join(sys.argv[1:] if argv is None else argv)},
                 args.out)
    print(f"wrote {os.path.relpath(path)}")


if __name__ == "__main__":
    main()
