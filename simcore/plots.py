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


def plot_seat_measure(result, path) -> Path:
    """Grouped bars: the per-seat measure (win rate) of every variant, with 95% intervals."""
    seats0 = result.runs[0].summary["seats"]
    m = result.runs[0].contract.primary
    col, lo, hi, is_rate = m.column, m.low, m.high, m.is_rate
    nvar = len(result.runs)
    nseat = len(seats0)
    width = 0.8 / nseat
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * nvar * max(1, nseat) / 2), 4.2))
    x = np.arange(nvar)
    for p in range(nseat):
        vals = np.array([r.summary["seats"][col].iloc[p] for r in result.runs])
        lows = np.array([r.summary["seats"][lo].iloc[p] for r in result.runs])
        highs = np.array([r.summary["seats"][hi].iloc[p] for r in result.runs])
        pol = seats0["policy"].iloc[p]
        ax.bar(x + (p - (nseat - 1) / 2) * width, vals, width,
               yerr=[vals - lows, highs - vals], capsize=3, label=f"seat {p} ({pol})")
    if is_rate:
        ax.axhline(1.0 / nseat, color="grey", lw=0.8, ls="--", label="equal share")
    ax.set_xticks(x)
    ax.set_xticklabels(result.labels, rotation=20, ha="right")
    ax.set_ylabel(col.replace("_", " "))
    ax.set_title(f"{result.game}: {col.replace('_', ' ')} per seat (95% intervals)")
    ax.legend(fontsize=8, ncol=2)
    return _save(fig, path)


def plot_game_metrics(result, path) -> Path:
    """One panel per game-level figure (with its interval where it has one), across variants."""
    from .games import get_game
    game = get_game(result.game)
    frames = [game.game_metrics(r.summary, r.rules) for r in result.runs]
    counts = set(result.runs[0].contract.count_metrics)
    metrics = [m for m in frames[0]["metric"] if m not in counts]
    ncol = min(4, max(1, len(metrics)))
    nrow = int(np.ceil(len(metrics) / ncol)) or 1
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.0 * nrow), squeeze=False)
    x = np.arange(len(result.runs))
    for ax, metric in zip(axes.flat, metrics):
        vals, lows, highs = [], [], []
        for g in frames:
            row = g[g["metric"] == metric].iloc[0]
            vals.append(row["value"])
            lows.append(row["low"] if np.isfinite(row["low"]) else row["value"])
            highs.append(row["high"] if np.isfinite(row["high"]) else row["value"])
        vals, lows, highs = map(np.asarray, (vals, lows, highs))
        ax.bar(x, vals, yerr=[vals - lows, highs - vals], capsize=3, color="tab:blue")
        ax.set_title(metric.replace("_", " "), fontsize=9)
        ax.set_xticks(x)
        ax.set_xticklabels(result.labels, rotation=25, ha="right", fontsize=7)
    for ax in list(axes.flat)[len(metrics):]:
        ax.axis("off")
    fig.suptitle(f"{result.game}: game-level figures by variant (95% intervals)")
    fig.tight_layout()
    return _save(fig, path)
