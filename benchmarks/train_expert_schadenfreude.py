"""Rebuild the Schadenfreude ``expert``'s learned card scorer for one player count
(simcore/games/schadenfreude/expert.py: ``card_features``, ``model_card``) from ``pimc``'s
values of every legal card, after benchmarks/train_expert_wendish.py.

    python benchmarks/train_expert_schadenfreude.py [--players 4] [--games 10000]
        [--seed 7] [--worlds 32] [--chunk 500] [--l2 1e-5] [--temperature 0.01]
        [--out simcore/games/schadenfreude/expert_schadenfreude_<n>p.npy]
        [--edge-games 2000] [--edge-seeds 1,2] [--data-table T] [--baseline-table T]
    python benchmarks/train_expert_schadenfreude.py --players N --edge-only
        --edge-games G [--edge-seeds S] [--out WEIGHTS] [--baseline-table T]
        # the edge of shipped (or given) weights

1. Data (``simcore.games.schadenfreude.imitation``): ``--games`` games of run ``--seed``
   with one seat (``index % players``) played by ``pimc`` (``--worlds`` worlds, heuristic
   playouts, every legal card valued in every world) where the expert's scorer plays
   (more cards in hand than its search table has rows) and by the shipped expert
   elsewhere, the heuristic in the other seats; a row per decision of that seat there
   with two or more legal cards: the position and pimc's summed value of every legal
   card (the data seat searches with ``--data-table`` with few cards). One thread, in
   chunks of ``--chunk`` games, each cached in ``results/benchmarks/expert_schadenfreude_
   data_<n>p_<seed>_<worlds>_<table>_<start>_<count>.npz`` (git ignores them): the rows
   are a function of the rules, the seed, the games, the worlds and the table, so a
   rerun reuses them and a longer one extends them.
2. Fit: the weights W (N_CARD x N_CONTEXT) of a conditional logit, P(card i) = softmax
   over the legal cards of f_i @ W @ x, to a softmax of pimc's mean value per card at
   ``--temperature`` (a share of the win; 0: pimc's card itself), by cross-entropy plus
   ``--l2`` times the squared distance of W from the heuristic's weights (1 on "the
   heuristic's card" x bias), by scipy's L-BFGS from the heuristic's weights: no
   randomness, so the same data give the same weights. Games of index % 5 == 4 are held
   out: the script prints how often the model, and the heuristic, play pimc's card on
   them and the mean regret (pimc's mean value of its card minus that of the model's).
3. With ``--edge-games G``: the expert with the new weights against the expert without a
   scorer (the heuristic's card there) with the shipped search table, or
   ``--baseline-table``'s (0-0-32s10-16s10-8s10: four players' before the scorer), each
   in one seat among
   heuristic seats, every seat in turn, on games 0 .. G-1 of each ``--edge-seeds`` seed
   (``imitation.model_game_wins``): win rates, the paired difference a game index with
   its 95% interval, and the CPU us a decision of the expert's seat (``--edge-only``
   writes them to results/benchmarks/expert_schadenfreude_edge_<n>p[_<option>-<value>].json;
   ``--set``: the games by other rules than the standard ones).
4. Writes the weights (float64 .npy; the model the package ships) and a summary to
   ``results/benchmarks/expert_schadenfreude_train_<n>p.json``.
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from common import RESULTS, load_note, write

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simcore.games.schadenfreude import GAME  # noqa: E402
from simcore.games.schadenfreude.expert import (MAX_CARDS, MODEL_PLAYERS,  # noqa: E402
                                                MODEL_SHAPE, N_CARD, N_CONTEXT,
                                                heuristic_weights, load_model, model_file)
from simcore.games.schadenfreude.expert import expert_table as _table_of  # noqa: E402
from simcore.games.schadenfreude.imitation import (ROWS_PER_GAME,  # noqa: E402
                                                   imitation_rows, model_game_wins,
                                                   new_rows, rows_features)
from simcore.games.schadenfreude.rules import rules_array  # noqa: E402
from simcore.games.schadenfreude.solver import new_work  # noqa: E402

HOLD_OUT = 5            # games with index % HOLD_OUT == HOLD_OUT - 1 are held out


def table_text(table):
    """A search table as bench_expert.py writes it (``0-0-32s10-16s10-4``)."""
    return "-".join(f"{w}s{z}" if z else f"{w}" for w, z in table)


def chunk_path(players, seed, worlds, table, start, count):
    """Where the rows of games ``start .. start+count-1`` are cached (``table``: the
    expert's search table the data seat plays with few cards, as ``table_text``)."""
    return RESULTS / (f"expert_schadenfreude_data_{players}p_{seed}_{worlds}_{table}_"
                      f"{start}_{count}.npz")


def player_rules(players, assignments=()):
    """The rules array of the standard rules with ``players`` players and the
    ``assignments`` (``option=value``, as ``tricksim --set`` takes them)."""
    return rules_array(GAME.build_rules(players=players, assignments=list(assignments)))


def rows_of(rules, seed, start, count, worlds, table, work, fw):
    """The rows of games ``start .. start+count-1`` (``imitation_rows``, the data seat
    searching with ``table`` with few cards), the buffers grown until they hold them."""
    size = count * ROWS_PER_GAME
    while True:
        states, score, nleg, target, game = new_rows(size)
        n = imitation_rows(rules, seed, start, count, worlds, table, work, fw, states,
                           score, nleg, target, game)
        if n >= 0:
            return dict(states=states[:n], score=score[:n], nleg=nleg[:n],
                        target=target[:n], game=game[:n])
        size *= 2


def generate(players, seed, games, worlds, chunk, table=None):
    """The rows of ``games`` games (module doc, part 1; ``table``: the data seat's search
    table, default the shipped one), chunk by chunk (a chunk's rows are cached: a longer
    run reuses them), with the model's inputs."""
    rules = player_rules(players)
    if table is None:
        table = _table_of(rules)
    work, fw = new_work()
    parts = []
    t0 = time.process_time()
    for start in range(0, games, chunk):
        cnt = min(chunk, games - start)
        path = chunk_path(players, seed, worlds, table_text(table), start, cnt)
        if path.exists():
            d = np.load(path)
            parts.append({k: d[k] for k in d.files})
            continue
        part = rows_of(rules, seed, start, cnt, worlds, table, work, fw)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, **part)
        tmp.rename(path)
        parts.append(part)
        done = start + cnt
        el = time.process_time() - t0
        print(f"{done}/{games} games, {sum(len(p['nleg']) for p in parts)} rows, "
              f"{el:.0f} s CPU", flush=True)
    d = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return with_features(rules, d)


def with_features(rules, d):
    """``d`` with the model's inputs of its positions (``feats``, ``ctx``)."""
    n = len(d["nleg"])
    d["feats"] = np.zeros((n, MAX_CARDS, N_CARD))
    d["ctx"] = np.zeros((n, N_CONTEXT))
    rows_features(rules, d["states"], d["feats"], d["ctx"])
    return d


def valid_of(d):
    """Rows x MAX_CARDS: whether a column is one of the row's legal cards."""
    return np.arange(d["score"].shape[1])[None, :] < d["nleg"][:, None]


def targets(d, worlds, temperature):
    """Per row the distribution to fit over the legal cards: pimc's card (one-hot) with
    ``temperature`` 0, else a softmax of pimc's mean value per card / temperature."""
    n, m = d["score"].shape
    if temperature <= 0:
        y = np.zeros((n, m))
        y[np.arange(n), d["target"]] = 1.0
        return y
    q = np.where(valid_of(d), d["score"] / worlds / temperature, -np.inf)
    q -= q.max(axis=1, keepdims=True)
    e = np.exp(q)
    return e / e.sum(axis=1, keepdims=True)


def model_scores(d, w):
    """Every legal card's score ``f @ w @ x`` (expert.model_card's) under weights ``w``."""
    return np.einsum("ija,ia->ij", d["feats"], d["ctx"] @ w.T)


def fit(d, y, l2, maxiter=2000):
    """Weights (expert.MODEL_SHAPE) minimizing the mean cross-entropy of the model's
    softmax over the legal cards against ``y`` plus ``l2`` |W - heuristic W|^2, by
    scipy's L-BFGS from the heuristic's weights (deterministic: the same data give the
    same weights). Returns (weights, loss, iterations)."""
    from scipy.optimize import minimize
    f = d["feats"]
    x = d["ctx"]
    valid = valid_of(d)
    w0 = heuristic_weights()
    n = len(x)

    def loss(flat):
        w = flat.reshape(MODEL_SHAPE)
        s = np.where(valid, model_scores(d, w), -np.inf)
        mx = s.max(axis=1, keepdims=True)
        e = np.exp(s - mx)
        zs = e.sum(axis=1, keepdims=True)
        logp = np.where(valid, s - mx - np.log(zs), 0.0)
        dw = w - w0
        val = -(y * logp).sum() / n + l2 * (dw * dw).sum()
        gs = np.where(valid, e / zs - y, 0.0) / n                 # d loss / d score
        g = np.einsum("ia,ib->ab", np.einsum("ija,ij->ia", f, gs), x) + 2 * l2 * dw
        return val, g.ravel()
    res = minimize(loss, w0.ravel(), jac=True, method="L-BFGS-B",
                   options={"maxiter": maxiter})
    return res.x.reshape(MODEL_SHAPE), float(res.fun), int(res.nit)


def evaluate(d, w, worlds):
    """How often the weights ``w`` play pimc's card, and the mean regret: pimc's mean
    value of its card minus that of the model's card (a share of the win a decision)."""
    s = np.where(valid_of(d), model_scores(d, w), -np.inf)
    pick = s.argmax(axis=1)
    rows = np.arange(len(pick))
    q = d["score"] / worlds
    return {"agree": float((pick == d["target"]).mean()),
            "regret": float((q[rows, d["target"]] - q[rows, pick]).mean())}


def interval(d):
    """Mean and 95% normal interval of the values ``d``."""
    d = np.asarray(d, dtype=np.float64)
    m = float(d.mean())
    half = float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))
    return {"mean": m, "low": m - half, "high": m + half}


def edges(players, weights, games, seeds, baseline=None, assignments=()):
    """The expert with ``weights`` (and the shipped search table) against the expert
    without a scorer (the heuristic's card with more cards than its table) with the
    search table ``baseline`` (default the shipped one), each in one seat among
    heuristic seats, every seat in turn, on games 0 .. ``games``-1 of each seed (module
    doc, part 3): win rates (95% interval over the game indices), their paired
    difference, and the CPU us a decision of the expert's seat (the heuristic's
    decisions, timed in a run with no expert, taken out); ``assignments``: rules other
    than the standard ones the games are played by."""
    rules = player_rules(players, assignments)
    table = _table_of(rules)
    base = table if baseline is None else baseline
    work, fw = new_work()
    nothing = np.zeros((1, 2), dtype=np.int64)      # a table with no search: the heuristic
    for tb, u in ((table, 1), (nothing, 0)):         # compile before the clock
        model_game_wins(rules, tb, weights, u, 0, 99, 0, 2, work, fw,
                        np.zeros(2, np.bool_), np.zeros(2, np.int64))
    out = {}
    for seed in seeds:
        runs = {}
        for name, tb, w, u in (("heuristic", nothing, heuristic_weights(), 0),
                               ("expert", base, heuristic_weights(), 0),
                               ("expert_model", table, weights, 1)):
            win = np.zeros((games, players))
            dec = np.zeros(2, dtype=np.int64)
            t0 = time.process_time()
            for s in range(players):
                x = np.zeros(games, np.bool_)
                model_game_wins(rules, tb, w, u, s, seed, 0, games, work, fw, x, dec)
                win[:, s] = x
            runs[name] = (win.mean(axis=1), time.process_time() - t0, dec)
        heu_us = 1e6 * runs["heuristic"][1] / runs["heuristic"][2][0]
        res = {"games": games, "heuristic_us_per_decision": heu_us}
        for name in ("expert", "expert_model"):
            g, cpu, dec = runs[name]
            res[name] = {"win": interval(g), "cpu_seconds": cpu,
                         "cpu_us_per_decision_of_its_seat":
                             (1e6 * cpu - heu_us * (dec[0] - dec[1])) / dec[1]}
        res["expert_model_minus_expert"] = interval(runs["expert_model"][0]
                                                    - runs["expert"][0])
        out[str(seed)] = res
        print(seed, json.dumps(res), flush=True)
    return out


def split(d, hold):
    """The rows of games in (``hold`` True) or out of the held-out fifth."""
    keep = (d["game"] % HOLD_OUT == HOLD_OUT - 1) == hold
    return {k: v[keep] for k, v in d.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=MODEL_PLAYERS)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--temperature", type=float, default=0.01,
                    help="0: fit pimc's card; > 0: a softmax of its mean values (a share "
                         "of the win) at this temperature")
    ap.add_argument("--maxiter", type=int, default=2000, help="L-BFGS iterations")
    ap.add_argument("--out", default=None, help="default: the model the package ships for "
                    "the count (simcore/games/schadenfreude/expert_schadenfreude_<n>p.npy)")
    ap.add_argument("--data-only", action="store_true", help="generate the rows, no fit")
    ap.add_argument("--edge-only", action="store_true",
                    help="no data, no fit: the edge of the weights in --out (default: the "
                         "shipped model) on --edge-games games of --edge-seeds")
    ap.add_argument("--edge-games", type=int, default=0)
    ap.add_argument("--edge-seeds", default="1")
    ap.add_argument("--baseline-table", default=None,
                    help="the search table of the expert without a scorer the edge is "
                         "measured against, as bench_expert.py writes tables (e.g. "
                         "0-0-32s10-16s10-8s10, four players' before the scorer; default: "
                         "the shipped table)")
    ap.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                    help="--edge-only: play the edge's games by these rules (repeatable; "
                         "the fit is always on the standard rules)")
    ap.add_argument("--data-table", default=None,
                    help="the search table the data seat plays with few cards (default: "
                         "the shipped one; the shipped four-player weights were fitted with "
                         "0-0-32s10-16s10-8s10, the table before the scorer)")
    a = ap.parse_args()
    for name in ("games", "worlds", "chunk"):
        if getattr(a, name) < 1:
            ap.error(f"--{name} must be positive, got {getattr(a, name)}")
    seeds = [int(s) for s in a.edge_seeds.split(",")]
    from bench_expert import parse_table
    try:
        baseline = parse_table(a.baseline_table) if a.baseline_table else None
        data_table = parse_table(a.data_table) if a.data_table else None
    except ValueError as e:
        ap.error(str(e))
    out = Path(a.out) if a.out else model_file(a.players)
    if a.edge_only:
        if a.edge_games < 2:
            ap.error("--edge-only needs --edge-games of 2 or more")
        w = load_model(out)
        res = {"command": "python benchmarks/train_expert_schadenfreude.py "
                          + " ".join(sys.argv[1:]), "players": a.players,
               "weights": str(out), "baseline_table": a.baseline_table or "shipped",
               "rules": a.set, "edges": edges(a.players, w, a.edge_games, seeds, baseline,
                                              a.set),
               "note": load_note()}
        tag = "".join("_" + x.replace("=", "-") for x in a.set)
        path = write(f"expert_schadenfreude_edge_{a.players}p{tag}", res)
        print(json.dumps(res, indent=2))
        print(f"wrote {path}")
        return
    t0 = time.process_time()
    d = generate(a.players, a.seed, a.games, a.worlds, a.chunk, data_table)
    t_data = time.process_time() - t0
    if a.data_only:
        return
    train, test = split(d, False), split(d, True)
    w, val, nit = fit(train, targets(train, a.worlds, a.temperature), a.l2, a.maxiter)
    res = {"command": "python benchmarks/train_expert_schadenfreude.py " + " ".join(sys.argv[1:]),
           "players": a.players, "games": a.games, "seed": a.seed, "worlds": a.worlds,
           "data_table": a.data_table or table_text(_table_of(player_rules(a.players))),
           "l2": a.l2, "temperature": a.temperature, "rows_train": len(train["nleg"]),
           "rows_held_out": len(test["nleg"]), "data_cpu_seconds_this_run": t_data,
           "loss": val, "iterations": nit,
           "held_out": {"model": evaluate(test, w, a.worlds),
                        "heuristic": evaluate(test, heuristic_weights(), a.worlds)},
           "train": {"model": evaluate(train, w, a.worlds)},
           "note": load_note()}
    print(json.dumps(res, indent=2), flush=True)
    tmp = out.with_suffix(".tmp.npy")
    np.save(tmp, w)
    tmp.rename(out)
    res["weights"] = str(out.relative_to(ROOT)) if out.is_relative_to(ROOT) else str(out)
    if a.edge_games:
        res["baseline_table"] = a.baseline_table or "shipped"
        res["edges"] = edges(a.players, w, a.edge_games, seeds, baseline)
    path = write(f"expert_schadenfreude_train_{a.players}p", res)
    print(f"wrote {out} and {path}")


if __name__ == "__main__":
    main()
