"""PNG plots of sweeps (matplotlib, headless)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .stats import atomic_write  # noqa: E402


def _save(fig, path: Path) -> Path:
    try:
        atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, bbox_inches="tight",
                                                   format="png"))
    finally:
        plt.close(fig)
    return Path(path)


def seat_plot_data(result) -> list[dict]:
    """Per variant, what the seat plot draws: every seat's value of the contract's
    primary measure with its interval, and the variant's own fair value (from its
    own contract: the mean seat under those rules, so a 3-player and a 5-player
    variant each get their own line), or None where the measure has no fair value."""
    out = []
    for run in result.runs:
        m = run.contract.primary
        seats = run.summary["seats"]
        out.append({"values": seats[m.column].to_numpy(np.float64),
                    "lows": seats[m.low].to_numpy(np.float64),
                    "highs": seats[m.high].to_numpy(np.float64),
                    "fair": m.fair_value(seats)})
    return out


def plot_seat_measure(result, path) -> Path:
    """Grouped bars: every seat of every variant (variants may differ in their number
    of seats), with 95% intervals and each variant's own fair value as a dashed
    segment over its group."""
    m = result.runs[0].contract.primary
    col = m.column
    data = seat_plot_data(result)
    nvar = len(data)
    most = max(len(d["values"]) for d in data)
    width = 0.8 / most
    fig, ax = plt.subplots(figsize=(max(6.0, 0.35 * sum(len(d["values"]) for d in data) + 2),
                                    4.2))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fair_labelled = False
    labelled: set[int] = set()
    for v, d in enumerate(data):
        n = len(d["values"])
        xs = v + (np.arange(n) - (n - 1) / 2) * width
        for p in range(n):
            label = None if p in labelled else f"seat {p}"
            labelled.add(p)
            val, lo, hi = d["values"][p], d["lows"][p], d["highs"][p]
            ax.bar(xs[p], val, width, yerr=[[val - lo], [hi - val]], capsize=2,
                   color=colors[p % len(colors)], label=label)
        if d["fair"] is not None:
            ax.hlines(d["fair"], xs[0] - width / 2, xs[-1] + width / 2, colors="black",
                      linestyles="--", lw=1.0,
                      label=None if fair_labelled else "fair value (mean seat)")
            fair_labelled = True
    ax.set_xticks(np.arange(nvar))
    ax.set_xticklabels(result.labels, rotation=20, ha="right")
    ax.set_ylabel(col.replace("_", " "))
    ax.set_title(f"{result.game}: {col.replace('_', ' ')} per seat (95% intervals)")
    ax.legend(fontsize=8, ncol=2)
    return _save(fig, path)


def game_metric_names(result) -> list[str]:
    """Every game-level figure of any variant, in first-seen order, counts left out."""
    from .games import get_game
    game = get_game(result.game)
    names: list[str] = []
    for r in result.runs:
        counts = set(r.contract.count_metrics)
        for metric in game.game_metrics(r.summary, r.rules)["metric"]:
            if metric not in counts and metric not in names:
                names.append(metric)
    return names


def plot_game_metrics(result, path) -> Path:
    """One panel per game-level figure (with its interval where it has one), across variants."""
    from .games import get_game
    game = get_game(result.game)
    frames = [game.game_metrics(r.summary, r.rules) for r in result.runs]
    metrics = game_metric_names(result)
    ncol = min(4, max(1, len(metrics)))
    nrow = int(np.ceil(len(metrics) / ncol)) or 1
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.0 * nrow), squeeze=False)
    x = np.arange(len(result.runs))
    for ax, metric in zip(axes.flat, metrics):
        vals, lows, highs = [], [], []
        for g in frames:
            hit = g[g["metric"] == metric]
            if not len(hit):                       # not a figure of this variant
                for seq in (vals, lows, highs):
                    seq.append(np.nan)
                continue
            row = hit.iloc[0]
            vals.append(row["value"])
            lows.append(row["low"] if np.isfinite(row["low"]) else row["value"])
            highs.append(row["high"] if np.isfinite(row["high"]) else row["value"])
        vals, lows, highs = map(np.asarray, (vals, lows, highs))
        ok = np.isfinite(vals)
        ax.bar(x[ok], vals[ok], yerr=[(vals - lows)[ok], (highs - vals)[ok]], capsize=3,
               color="tab:blue")
        for xi in x[~ok]:
            ax.text(xi, 0, "n/a", ha="center", va="bottom", fontsize=7, color="grey")
        ax.set_title(metric.replace("_", " "), fontsize=9)
        ax.set_xticks(x)
        ax.set_xticklabels(result.labels, rotation=25, ha="right", fontsize=7)
    for ax in list(axes.flat)[len(metrics):]:
        ax.axis("off")
    fig.suptitle(f"{result.game}: game-level figures by variant (95% intervals)")
    fig.tight_layout()
    return _save(fig, path)


def plot_compare(result, path) -> Path:
    """Two panels: the paired difference B - A of every seat's primary measure, and
    of every game-level figure (rates in pp), each with its 95% interval."""
    m = result.run_a.contract.primary
    t = result.table[result.table["measure"] == m.name] if m.per_game else result.table
    if not len(t):
        t = result.table[result.table["measure"] == result.table["measure"].iloc[0]]
    g = result.game_table
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2),
                                 gridspec_kw={"width_ratios": [1, 2]})
    scale = 100.0 if m.is_rate and m.per_game else 1.0
    d = t["diff"].to_numpy(np.float64) * scale
    lo = t["low"].to_numpy(np.float64) * scale
    hi = t["high"].to_numpy(np.float64) * scale
    x = np.arange(len(t))
    a1.bar(x, d, yerr=[np.clip(np.nan_to_num(d - lo), 0, None),
                       np.clip(np.nan_to_num(hi - d), 0, None)], capsize=3, color="tab:blue")
    a1.axhline(0, color="black", lw=0.8)
    a1.set_xticks(x)
    per = "seat" if "seat" in t else "policy"
    a1.set_xticklabels([f"seat {s}" for s in t["seat"]] if per == "seat" else
                       [f"{x} / {y}" for x, y in zip(t["policy_a"], t["policy_b"])],
                       fontsize=8 if per == "seat" else 7)
    a1.set_title(f"{t['measure'].iloc[0] if len(t) else ''}: B - A per {per}"
                 + (" (pp)" if scale == 100 else ""), fontsize=9)
    gd = np.where(np.isfinite(g["diff_pp"]), g["diff_pp"], g["diff"]).astype(np.float64)
    scale_g = np.where(np.isfinite(g["diff_pp"]), 100.0, 1.0)
    glo = g["low"].to_numpy(np.float64) * scale_g
    ghi = g["high"].to_numpy(np.float64) * scale_g
    ok = np.isfinite(gd)
    y = np.arange(len(g))
    a2.barh(y[ok], gd[ok], xerr=[np.clip(np.nan_to_num(gd - glo), 0, None)[ok],
                                 np.clip(np.nan_to_num(ghi - gd), 0, None)[ok]],
            capsize=2, color="tab:orange")
    a2.axvline(0, color="black", lw=0.8)
    a2.set_yticks(y)
    a2.set_yticklabels([n + (" (pp)" if s == 100 else "") for n, s in zip(g["metric"], scale_g)],
                       fontsize=7)
    a2.invert_yaxis()
    kinds = set(g["interval"]) if "interval" in g and len(g) else set()
    a2.set_title("game-level figures: B - A (95% intervals, "
                 + ("paired" if kinds == {"paired"} else
                    "conservative, unpaired" if "paired" not in kinds else
                    "paired; unpaired ones conservative") + ")", fontsize=9)
    fig.suptitle(f"{result.game}: B - A")
    fig.tight_layout()
    return _save(fig, path)
