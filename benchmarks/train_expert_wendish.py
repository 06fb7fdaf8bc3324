"""Rebuild the Wendish ``expert``'s learned card scorer of one variant
(simcore/games/wendish/expert.py) from ``pimc``'s card choices.

    python benchmarks/train_expert_wendish.py [--variant four|three|officers]
        [--deals 3000] [--seed 7] [--worlds 8] [--chunk 250] [--l2 1e-5]
        [--temperature 0.1] [--out simcore/games/wendish/expert_wendish_<variant>.npy]
        [--edge-deals 2000] [--edge-seed 1] [--search-tricks T] [--search-worlds 3]
    python benchmarks/train_expert_wendish.py --variant V --edge-only --edge-deals N
        [--edge-seed S] [--out WEIGHTS]      # the edges of shipped (or given) weights

1. Data (``simcore.games.wendish.imitation``): ``--deals`` deals of run ``--seed`` with
   one ``pimc:worlds=N`` seat (``index % players``) among heuristic seats; a row per card
   decision of that seat before the expert's searched tricks: the model's inputs and
   pimc's summed deal score of every legal card. One thread, in chunks of ``--chunk``
   deals, each cached in ``results/benchmarks/expert_wendish_data_<variant>_<seed>_
   <worlds>_<start>_<count>.npz`` (git ignores them): the rows are a function of the
   variant, the seed, the deals and the worlds, so a rerun reuses them and a longer one
   extends them.
2. Fit: the weights W (N_CARD x N_CONTEXT) of a conditional logit, P(card i) =
   softmax over the legal cards of f_i @ W @ x, to a softmax of pimc's mean deal
   score per card at ``--temperature`` (tariff units; 0: pimc's card itself), by
   cross-entropy plus ``--l2`` times the squared distance of W from the heuristic's
   weights (1 on "the heuristic's card" x bias), by scipy's L-BFGS from the heuristic's weights: no
   randomness, so the same data give the same weights. Deals of index % 5 == 4 are
   held out: the script prints how often the model, and the heuristic, play pimc's
   card on them and the mean regret (pimc's value of its card minus that of the
   model's card).
3. With ``--edge-deals N``: the paired edge per deal over a heuristic seat of the new
   weights and of the heuristic (the expert without a model) on N deals of
   ``--edge-seed`` (``imitation.model_deal_scores``: the expert's own search in the last
   tricks, or ``--search-tricks``/``--search-worlds``'s).
4. Writes the weights (float64 .npy; the model the package ships) and a summary to
   ``results/benchmarks/expert_wendish_train_<variant>.json``.
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

from simcore.games.wendish import GAME  # noqa: E402
from simcore.games.wendish.expert import (EXPERT_TRICKS, EXPERT_WORLDS,  # noqa: E402
                                          MAX_CARDS, MODEL_OF, MODEL_SHAPE, N_CARD,
                                          N_CONTEXT, N_HIDDEN, OUT, VARIANTS,
                                          load_model, model_file)
from simcore.games.wendish.imitation import (imitation_rows, model_deal_scores,  # noqa: E402
                                             new_rows, rows_features)
from simcore.games.wendish.engine import ST_NTRICKS, ST_TRICKS_DONE  # noqa: E402
from simcore.games.wendish.rules import R_PLAYERS, rules_array  # noqa: E402
from simcore.games.wendish.solver import new_work  # noqa: E402

HOLD_OUT = 5            # deals with index % HOLD_OUT == HOLD_OUT - 1 are held out


def chunk_path(variant, seed, worlds, start, count, tricks=3):
    """Where the rows of deals ``start .. start+count-1`` are cached (rows before the
    last ``tricks`` tricks; 3, every variant's window once, unnamed)."""
    t = "" if tricks == 3 else f"_t{tricks}"
    return RESULTS / f"expert_wendish_data_{variant}_{seed}_{worlds}{t}_{start}_{count}.npz"


def variant_rules(variant):
    """The rules array of one-deal games of ``variant``."""
    return rules_array(GAME.build_rules(assignments=[f"variant={variant}", "deals=1"]))


def generate(variant, seed, deals, worlds, chunk, tricks=3):
    """The rows of ``deals`` deals (module doc, part 1), each with its deal's index,
    chunk by chunk (a chunk's rows are cached: a longer run reuses them)."""
    rules = variant_rules(variant)
    work = new_work()
    parts = []
    t0 = time.process_time()
    for start in range(0, deals, chunk):
        cnt = min(chunk, deals - start)
        path = chunk_path(variant, seed, worlds, start, cnt, tricks)
        if path.exists():
            d = np.load(path)
            parts.append({k: d[k] for k in d.files})
            continue
        states, score, nleg, target, deal = new_rows(cnt)
        n = imitation_rows(rules, seed, start, cnt, worlds, tricks, work, states, score,
                           nleg, target, deal)
        part = dict(states=states[:n], score=score[:n], nleg=nleg[:n],
                    target=target[:n], deal=deal[:n])
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, **part)
        tmp.rename(path)
        parts.append(part)
        done = start + cnt
        el = time.process_time() - t0
        print(f"{done}/{deals} deals, {sum(len(p['nleg']) for p in parts)} rows, "
              f"{el:.0f} s CPU, ETA {el / done * (deals - done):.0f} s", flush=True)
    d = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return with_features(rules, d)


def with_features(rules, d):
    """``d`` with the model's inputs of its positions (``feats``, ``ctx``)."""
    n = len(d["nleg"])
    d["feats"] = np.zeros((n, MAX_CARDS, N_CARD))
    d["ctx"] = np.zeros((n, N_CONTEXT))
    rows_features(rules, d["states"], d["feats"], d["ctx"])
    return d


def heuristic_weights():
    """Weights that play the heuristic's card: 1 on its feature (0) times the bias (0),
    no hidden unit (expert.MODEL_SHAPE)."""
    w = np.zeros(MODEL_SHAPE)
    w[0, 0] = 1.0
    return w


def targets(d, temperature):
    """Per row the distribution to fit over the legal cards: pimc's card (one-hot) with
    ``temperature`` 0, else a softmax of pimc's mean deal score per card / temperature."""
    n, m = d["score"].shape
    valid = np.arange(m)[None, :] < d["nleg"][:, None]
    if temperature <= 0:
        y = np.zeros((n, m))
        y[np.arange(n), d["target"]] = 1.0
        return y
    q = np.where(valid, d["score"] / WORLDS_OF[0] / temperature, -np.inf)
    q -= q.max(axis=1, keepdims=True)
    e = np.exp(q)
    return e / e.sum(axis=1, keepdims=True)


WORLDS_OF = [8]


def unpack(w, hidden):
    """The parts of packed weights (expert.MODEL_SHAPE's layout): the bilinear W, the
    hidden units' context weights C, card weights A and output weights o."""
    h = slice(N_CARD, N_CARD + hidden)
    return (w[:N_CARD, :N_CONTEXT], w[h, :N_CONTEXT], w[h, N_CONTEXT:OUT], w[h, OUT])


def model_scores(d, w, hidden=N_HIDDEN):
    """Every legal card's score (expert.model_card's) under packed weights ``w``, and the
    hidden units' pre-activations (rows x cards x units)."""
    f = d["feats"].astype(np.float64)
    x = d["ctx"].astype(np.float64)
    bw, c, a, o = unpack(w, hidden)
    s = np.einsum("ija,ia->ij", f, x @ bw.T)
    z = (x @ c.T)[:, None, :] + f @ a.T
    return s + np.maximum(z, 0.0) @ o, z


def fit(d, y, l2, hidden=0, start=None, l2_hidden=1e-4, maxiter=2000, seed=0):
    """Packed weights (expert.MODEL_SHAPE) minimizing the mean cross-entropy of the
    model's softmax over the legal cards against ``y`` plus ``l2`` |W - heuristic W|^2
    and ``l2_hidden`` times the hidden units' squared weights, by scipy's L-BFGS: from
    ``start`` (default the heuristic's weights), its bilinear part kept and ``hidden``
    units drawn from a generator of ``seed`` (deterministic: the same data give the
    same weights). Returns (weights, loss, iterations)."""
    from scipy.optimize import minimize
    f = d["feats"].astype(np.float64)
    x = d["ctx"].astype(np.float64)
    m = f.shape[1]
    valid = np.arange(m)[None, :] < d["nleg"][:, None]
    w0 = heuristic_weights()
    init = (w0 if start is None else start).copy()
    init[N_CARD:] = 0.0
    if hidden:
        rng = np.random.default_rng(seed)
        init[N_CARD:N_CARD + hidden, :OUT] = rng.normal(0.0, 0.3, (hidden, OUT))
        init[N_CARD:N_CARD + hidden, OUT] = rng.normal(0.0, 0.05, hidden)
    n = len(x)
    mask = np.zeros(MODEL_SHAPE, dtype=bool)
    mask[:N_CARD, :N_CONTEXT] = True
    mask[N_CARD:N_CARD + hidden, :] = True
    reg = np.where(np.arange(MODEL_SHAPE[0])[:, None] < N_CARD, l2, l2_hidden)
    anchor = np.where(np.arange(MODEL_SHAPE[0])[:, None] < N_CARD, w0, 0.0)

    def full(flat):
        w = init.copy()
        w[mask] = flat
        return w

    def loss(flat):
        w = full(flat)
        s, z = model_scores(d, w, hidden)
        s = np.where(valid, s, -np.inf)
        mx = s.max(axis=1, keepdims=True)
        e = np.exp(s - mx)
        zs = e.sum(axis=1, keepdims=True)
        p = e / zs
        logp = np.where(valid, s - mx - np.log(zs), 0.0)
        dw = (w - anchor) * mask
        val = -(y * logp).sum() / n + (reg * dw * dw).sum()
        gs = np.where(valid, p - y, 0.0) / n                      # d loss / d score
        g = np.zeros(MODEL_SHAPE)
        g[:N_CARD, :N_CONTEXT] = np.einsum("ia,ib->ab", np.einsum("ija,ij->ia", f, gs), x)
        if hidden:
            _, _, _, o = unpack(w, hidden)
            act = np.maximum(z, 0.0)
            g[N_CARD:N_CARD + hidden, OUT] = np.einsum("ijh,ij->h", act, gs)
            dz = gs[:, :, None] * (z > 0) * o[None, None, :]
            g[N_CARD:N_CARD + hidden, :N_CONTEXT] = dz.sum(axis=1).T @ x
            g[N_CARD:N_CARD + hidden, N_CONTEXT:OUT] = np.einsum("ijh,ija->ha", dz, f)
        g += 2 * reg * dw
        return val, g[mask]
    res = minimize(loss, init[mask], jac=True, method="L-BFGS-B",
                   options={"maxiter": maxiter})
    return full(res.x), float(res.fun), int(res.nit)


def evaluate(d, w):
    """How often the model with packed weights ``w`` plays pimc's card, and its mean
    regret: pimc's mean score of its own card minus that of the model's (tariff units a
    decision)."""
    s, _ = model_scores(d, w)
    m = s.shape[1]
    valid = np.arange(m)[None, :] < d["nleg"][:, None]
    pick = np.where(valid, s, -np.inf).argmax(axis=1)
    rows = np.arange(len(pick))
    q = d["score"] / WORLDS_OF[0]
    return {"agree": float((pick == d["target"]).mean()),
            "regret": float((q[rows, d["target"]] - q[rows, pick]).mean())}


def edges(variant, weights, deals, seed, tricks, worlds=EXPERT_WORLDS):
    """Paired edge per deal of the expert with each of ``weights`` (a dict name -> W) in
    each seat in turn over the heuristic in that seat, on ``deals`` deals of run ``seed``
    (``imitation.model_deal_scores``, searching the last ``tricks`` tricks over
    ``worlds`` worlds): mean and 95% interval, and between the first two weights' the
    paired difference."""
    rules = variant_rules(variant)
    work = new_work()

    def run(w, t):
        out = np.zeros((deals, int(rules[R_PLAYERS])), dtype=np.int64)
        models = np.repeat(w[None], len(VARIANTS), axis=0)     # w in every variant
        model_deal_scores(rules, seed, 0, deals, models, t, worlds, work, out)
        return out.mean(axis=1)

    base = run(heuristic_weights(), 0)
    res = {}
    per = {}
    for name, w in weights.items():
        per[name] = run(w, tricks) - base
        res[name] = interval(per[name])
    names = list(weights)
    if len(names) > 1:
        res[f"{names[0]} - {names[1]}"] = interval(per[names[0]] - per[names[1]])
    return res


def interval(d):
    """Mean and 95% normal interval of the values ``d``."""
    m = float(d.mean())
    half = float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))
    return {"mean": m, "low": m - half, "high": m + half}


def split(d, hold):
    """The rows of deals in (``hold`` True) or out of the held-out fifth."""
    keep = (d["deal"] % HOLD_OUT == HOLD_OUT - 1) == hold
    return {k: v[keep] for k, v in d.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="four",
                    choices=[v for v in VARIANTS if MODEL_OF[v] == v],
                    help="three_sharp plays three's model")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--chunk", type=int, default=250)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--edge-deals", type=int, default=0)
    ap.add_argument("--temperature", type=float, default=0.1,
                    help="0: fit pimc's card; > 0: a softmax of its scores at this "
                         "temperature (tariff units)")
    ap.add_argument("--out", default=None, help="default: the model the package ships "
                    "for the variant (simcore/games/wendish/expert_wendish_<variant>.npy)")
    ap.add_argument("--data-only", action="store_true", help="generate the rows, no fit")
    ap.add_argument("--edge-only", action="store_true",
                    help="no data, no fit: the edges of the weights in --out (default: "
                         "the shipped model) on --edge-deals deals of --edge-seed")
    ap.add_argument("--edge-seed", type=int, default=1)
    ap.add_argument("--search-tricks", type=int, default=None,
                    help="the search window: the edges' and the fit's (default: the "
                         "shipped expert's, expert.EXPERT_TRICKS: four 2, else 3)")
    ap.add_argument("--search-worlds", type=int, default=EXPERT_WORLDS)
    ap.add_argument("--hidden", type=int, default=0,
                    help=f"hidden units (0..{N_HIDDEN}) fitted after the bilinear model")
    ap.add_argument("--l2-hidden", type=float, default=1e-4)
    ap.add_argument("--maxiter", type=int, default=2000, help="L-BFGS iterations a fit")
    ap.add_argument("--data-tricks", type=int, default=None,
                    help="rows before the last T tricks (default: --search-tricks); a "
                         "smaller T also gives the rows of the larger window")
    a = ap.parse_args()
    if a.search_tricks is None:
        a.search_tricks = int(EXPERT_TRICKS[VARIANTS.index(a.variant)])
    for name in ("deals", "worlds", "chunk", "edge_seed", "search_worlds"):
        if getattr(a, name) < (0 if name == "edge_seed" else 1):
            ap.error(f"--{name.replace('_', '-')} must be positive, got {getattr(a, name)}")
    if not 0 <= a.search_tricks <= 16:
        ap.error(f"--search-tricks must be 0..16, got {a.search_tricks}")
    if not 0 <= a.hidden <= N_HIDDEN:
        ap.error(f"--hidden must be 0..{N_HIDDEN}, got {a.hidden}")
    if a.data_tricks is None:
        a.data_tricks = a.search_tricks
    if not 0 <= a.data_tricks <= a.search_tricks:
        ap.error(f"--data-tricks must be 0..--search-tricks ({a.search_tricks}), "
                 f"got {a.data_tricks}")
    if a.edge_only:
        if a.edge_deals < 2:
            ap.error("--edge-only needs --edge-deals of 2 or more")
        w = load_model(Path(a.out) if a.out else model_file(a.variant))
        t0 = time.process_time()
        res = edges(a.variant, {"model": w, "heuristic": heuristic_weights()},
                    a.edge_deals, a.edge_seed, a.search_tricks, a.search_worlds)
        print(json.dumps({"variant": a.variant, "edge_deals": a.edge_deals,
                          "edge_seed": a.edge_seed, "search_tricks": a.search_tricks,
                          "search_worlds": a.search_worlds, "edges": res,
                          "cpu_seconds": time.process_time() - t0, "note": load_note()},
                         indent=2))
        return
    WORLDS_OF[0] = a.worlds
    t0 = time.process_time()
    d = generate(a.variant, a.seed, a.deals, a.worlds, a.chunk, a.data_tricks)
    t_data = time.process_time() - t0
    if a.data_only:
        return
    # the rows of the scorer's decisions: before the searched last tricks
    st = d["states"]
    d = {k: v[st[:, ST_NTRICKS] - st[:, ST_TRICKS_DONE] > a.search_tricks]
         for k, v in d.items()}
    train, test = split(d, False), split(d, True)
    y = targets(train, a.temperature)
    w, val, nit = fit(train, y, a.l2, maxiter=a.maxiter)
    bilinear = w
    if a.hidden:
        w, val, nit2 = fit(train, y, a.l2, a.hidden, w, a.l2_hidden, a.maxiter)
        nit += nit2
    res = {"command": "python benchmarks/train_expert_wendish.py " + " ".join(sys.argv[1:]),
           "variant": a.variant, "deals": a.deals, "seed": a.seed, "worlds": a.worlds, "l2": a.l2,
           "temperature": a.temperature, "hidden": a.hidden, "l2_hidden": a.l2_hidden,
           "search_tricks": a.search_tricks, "rows_train": len(train["nleg"]),
           "rows_held_out": len(test["nleg"]), "data_cpu_seconds_this_run": t_data,
           "loss": val, "iterations": nit,
           "held_out": {"model": evaluate(test, w), "bilinear": evaluate(test, bilinear),
                        "heuristic": evaluate(test, heuristic_weights())},
           "train": {"model": evaluate(train, w)},
           "note": load_note()}
    if a.edge_deals:
        res[f"edge_seed_{a.edge_seed}"] = edges(
            a.variant, {"model": w, "heuristic": heuristic_weights()}, a.edge_deals,
            a.edge_seed, a.search_tricks, a.search_worlds)
    out = Path(a.out) if a.out else model_file(a.variant)
    tmp = out.with_suffix(".tmp.npy")
    np.save(tmp, w[:N_CARD + a.hidden])
    tmp.rename(out)
    res["weights"] = str(out.relative_to(ROOT)) if out.is_relative_to(ROOT) else str(out)
    path = write(f"expert_wendish_train_{a.variant}", res)
    print(json.dumps(res, indent=2))
    print(f"wrote {out} and {path}")


if __name__ == "__main__":
    main()
