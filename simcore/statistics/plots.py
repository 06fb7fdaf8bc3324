"""PNG plots of sweeps and comparisons (matplotlib, headless).

Each plot is built by a ``*_figure`` function (a matplotlib Figure, which tests
read: titles, axis labels, legends) and written by a ``plot_*`` function.  One
quantity per axis, its unit in the label (rates in %, their differences in
percentage points, means in their own unit); figures of different units in
separate panels; titles that say what was compared; layouts that do not overlap
(constrained layout).
"""
from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from .stats import atomic_write  # noqa: E402
from ..text import counted  # noqa: E402

#: bar colours of the plots that colour by player (policy), in order of appearance
_COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]
#: a comparison's bars: a difference with Holm-adjusted p < 0.05, one without
_EVIDENCE, _NO_EVIDENCE = "tab:blue", "#b8c7d9"


def _save(fig, path: Path) -> Path:
    try:
        atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, bbox_inches="tight",
                                                   format="png"))
    finally:
        plt.close(fig)
    return Path(path)


def _words(name: str) -> str:
    return str(name).replace("_", " ")


def _wrap(text: str, width: int) -> str:
    """``text`` in lines of about ``width`` characters, broken at spaces or after
    the commas of a list (a policy list), never inside a word."""
    lines: list[str] = []
    for word in str(text).split():
        pieces = re.findall(r"[^,]*,|[^,]+", word)
        for k, piece in enumerate(pieces):
            glue = "" if k else " "
            if lines and len(lines[-1]) + len(glue) + len(piece) <= width:
                lines[-1] += glue + piece
            else:
                lines.append(piece)
    return "\n".join(lines) or str(text)


def metric_labels(runs) -> dict[str, str]:
    """How plots name each game-level figure: its words, led by its summary section
    where that is not the main one (Schnapsen's ``claim_1`` is ``deal ends: claim
    1``, a deal ended by a claim worth one game point)."""
    out: dict[str, str] = {}
    for run in runs:
        for section in run.contract.metric_sections:
            frame = run.summary.get(section)
            if frame is None or "metric" not in frame:
                continue
            for metric in frame["metric"]:
                out.setdefault(metric, _words(metric) if section == "game"
                               else f"{_words(section)}: {_words(metric)}")
    return out


def mean_unit(metric: str, unit: str = "game") -> str:
    """The unit of a game-level figure that is a mean, read off its name:
    ``mean_rounds`` -> rounds per game, ``deals_per_match`` -> deals per match,
    ``solo_declarer_card_points`` -> card points."""
    if metric.endswith("card_points"):
        return "card points"
    if metric.startswith("mean_"):
        return f"{_words(metric[5:])} per {unit}"
    if "_per_" in metric:
        what, per = metric.split("_per_", 1)
        return f"{_words(what)} per {_words(per)}"
    return _words(metric)


def _measure_label(m, percent: bool) -> str:
    """An axis label of a seat measure: ``win rate (%)``, ``score (points)``."""
    name = m.column or m.name
    name = _words(name[:-5] if name.endswith("_mean") else name)
    if m.is_rate:
        if not name.endswith("rate"):
            name += " rate"
        return f"{name} ({'%' if percent else 'pp'})"
    return f"{name} ({m.unit})" if m.unit else name


# ----- seats.png ------------------------------------------------------------------
def seat_plot_data(result) -> list[dict]:
    """Per variant, what the seat plot draws: every seat's value of the contract's
    primary measure with its interval and policy, and the variant's own fair value
    (from its own contract: the mean seat under those rules, so a 3-player and a
    5-player variant each get their own line), or None where the measure has no
    fair value or where the seats play different policies (a difference between
    seats is then the players', and no seat's fair share is the mean seat)."""
    out = []
    for run in result.runs:
        m = run.contract.primary
        seats = run.summary["seats"]
        policies = [str(p) for p in seats["policy"]] if "policy" in seats \
            else list(run.policies)
        out.append({"values": seats[m.column].to_numpy(np.float64),
                    "lows": seats[m.low].to_numpy(np.float64),
                    "highs": seats[m.high].to_numpy(np.float64),
                    "policies": policies,
                    "fair": m.fair_value(seats) if len(set(policies)) == 1 else None})
    return out


def seat_figure(result):
    """The seat plot (see :func:`plot_seat_measure`) as a matplotlib Figure."""
    m = result.runs[0].contract.primary
    scale = 100.0 if m.is_rate else 1.0
    data = seat_plot_data(result)
    most = max(len(d["values"]) for d in data)
    width = 0.8 / most
    bars = sum(len(d["values"]) for d in data)
    fig, ax = plt.subplots(figsize=(max(6.5, 0.42 * bars + 3.2), 4.6), layout="constrained")
    order: list[str] = []                   # policies in order of first appearance
    for d in data:
        for p in d["policies"]:
            if p not in order:
                order.append(p)
    color = {p: _COLORS[i % len(_COLORS)] for i, p in enumerate(order)}
    labelled: set[str] = set()
    fair_labelled = False
    ticks, tick_labels = [], []
    for v, d in enumerate(data):
        n = len(d["values"])
        xs = v + (np.arange(n) - (n - 1) / 2) * width
        for p in range(n):
            pol = d["policies"][p]
            val, lo, hi = (scale * d[k][p] for k in ("values", "lows", "highs"))
            ax.bar(xs[p], val, width * 0.92, yerr=[[val - lo], [hi - val]], capsize=2,
                   color=color[pol], label=None if pol in labelled else pol)
            labelled.add(pol)
            ticks.append(xs[p])
            tick_labels.append(str(p))
        if d["fair"] is not None:
            ax.hlines(scale * d["fair"], xs[0] - width / 2, xs[-1] + width / 2,
                      colors="black", linestyles="--", lw=1.0, gid="fair value",
                      label=None if fair_labelled else "fair value (mean seat)")
            fair_labelled = True
    if m.is_rate:
        ax.set_ylim(bottom=0)
    else:
        ax.axhline(0, color="black", lw=0.6)
    ax.set_xticks(ticks, tick_labels, fontsize=7)
    ax.set_xlabel("seat")
    groups = ax.secondary_xaxis(-0.13)
    groups.set_xticks(np.arange(len(data)),
                      [_wrap(label, 22) for label in result.labels], fontsize=8)
    groups.tick_params(length=0)
    groups.spines["bottom"].set_visible(False)
    ax.set_ylabel(_measure_label(m, percent=True))
    unit = result.runs[0].contract.unit
    ax.set_title(f"{result.game}: {_words(m.column)} per seat, by variant\n"
                 f"{counted(result.games, unit)} per variant, seed {result.seed}; "
                 "bars: 95% intervals; colour: the player in the seat; fair value only "
                 "where every seat has the same player", fontsize=9)
    ax.legend(title="player", fontsize=8, title_fontsize=8, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig


def plot_seat_measure(result, path) -> Path:
    """Grouped bars: every seat of every variant (variants may differ in their number
    of seats), with 95% intervals, coloured by the player (policy) in the seat, and
    each variant's own fair value as a dashed segment over its group where every
    seat plays the same player."""
    return _save(seat_figure(result), path)


# ----- game.png -------------------------------------------------------------------
def game_metric_names(result) -> list[str]:
    """Every game-level figure of any variant, in first-seen order, counts left out."""
    from ..registry import get_game
    game = get_game(result.game)
    names: list[str] = []
    for r in result.runs:
        counts = set(r.contract.count_metrics)
        for metric in game.game_metrics(r.summary, r.rules)["metric"]:
            if metric not in counts and metric not in names:
                names.append(metric)
    return names


def game_figure(result):
    """The game-level plot (see :func:`plot_game_metrics`) as a matplotlib Figure."""
    from ..registry import get_game
    game = get_game(result.game)
    frames = [game.game_metrics(r.summary, r.rules) for r in result.runs]
    means = set()
    for r in result.runs:
        means |= set(r.contract.mean_metrics)
    unit = result.runs[0].contract.unit
    metrics = game_metric_names(result)
    names = metric_labels(result.runs)
    nvar = max(1, len(result.runs))
    panel = max(3.6, 0.75 * nvar + 0.5)                 # inches per panel
    ncol = min(max(1, int(16 // panel)), 4, max(1, len(metrics)))
    nrow = int(np.ceil(len(metrics) / ncol)) or 1
    width = max(8, int(panel * 16 / nvar))              # characters per tick label
    ticks = [_wrap(label, width) for label in result.labels]
    tilt = any(len(line) > width for t in ticks for line in t.split("\n"))
    lines = max(t.count("\n") + 1 for t in ticks)
    fig, axes = plt.subplots(nrow, ncol, figsize=(panel * ncol, (2.4 + 0.12 * lines
                                                               + 0.5 * tilt) * nrow + 0.8),
                             squeeze=False, layout="constrained")
    x = np.arange(len(result.runs))
    for ax, metric in zip(axes.flat, metrics):
        scale = 1.0 if metric in means else 100.0
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
        vals, lows, highs = (scale * np.asarray(s, dtype=np.float64)
                             for s in (vals, lows, highs))
        ok = np.isfinite(vals)
        ax.bar(x[ok], vals[ok], yerr=[(vals - lows)[ok], (highs - vals)[ok]], capsize=3,
               color="tab:blue")
        if not ok.any():                            # no variant has this figure
            ax.set_yticks([])
            ax.text(0.5, 0.5, "n/a: no variant played such a deal", transform=ax.transAxes,
                    ha="center", va="center", fontsize=8, color="grey")
        for xi in x[~ok] if ok.any() else ():
            ax.text(xi, 0, "n/a", ha="center", va="bottom", fontsize=7, color="grey")
        for xi in x[ok & (vals == 0)]:              # a bar of height 0 is not missing
            ax.text(xi + 0.06, 0, "0", ha="left", va="bottom", fontsize=7)
        ax.set_title(_wrap(names.get(metric, _words(metric)), 34), fontsize=9)
        ax.set_ylabel("%" if scale == 100.0 else _wrap(mean_unit(metric, unit), 22),
                      fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.set_xticks(x, ticks, rotation=30 if tilt else 0, ha="right" if tilt else "center",
                      fontsize=7)
    for ax in list(axes.flat)[len(metrics):]:
        ax.axis("off")
    fig.suptitle(f"{result.game}: game-level figures by variant\n"
                 f"{counted(result.games, unit)} per variant, seed {result.seed}; rates in % of the "
                 "deals or games they count; bars: 95% intervals", fontsize=10)
    return fig


def plot_game_metrics(result, path) -> Path:
    """One panel per game-level figure (with its interval where it has one), across
    variants."""
    return _save(game_figure(result), path)


# ----- compare.png ----------------------------------------------------------------
def _seat_measures(result) -> list:
    """The per-seat measures of a comparison's table, in the contract's order."""
    contract = result.run_a.contract
    present = set(result.table["measure"]) if len(result.table) else set()
    return [m for m in contract.measures if m.name in present]


def _row_labels(t, rotated: bool) -> list[str]:
    """Tick labels of a comparison's per-seat (per-policy) rows: the seat (or the
    positions pooled) and who played there under A and B."""
    who = [f"A: {a}, B: {b}" if a != b else f"A and B: {a}"
           for a, b in zip(t["policy_a"], t["policy_b"])]
    if rotated:
        return [f"{w}\n(positions {pos})" for w, pos in zip(who, t["positions"])]
    mixed = any(a != b for a, b in zip(t["policy_a"], t["policy_b"]))
    return [f"seat {s}" + (f"\n{w}" if mixed else "") for s, w in zip(t["seat"], who)]


def _tests(frame) -> list[str]:
    """A comparison table's ``test`` entries (every row tested where it has none)."""
    return list(frame["test"]) if "test" in frame else [""] * len(frame)


def _diff_bars(ax, pos, diff, low, high, evidence, horizontal: bool) -> None:
    err = [np.clip(np.nan_to_num(diff - low), 0, None),
           np.clip(np.nan_to_num(high - diff), 0, None)]
    colors = [_EVIDENCE if e is True else _NO_EVIDENCE for e in evidence]
    ok = np.isfinite(diff)
    ax.use_sticky_edges = False                 # a margin beyond 0 and the bars
    ax.margins(0.06)
    if horizontal:
        ax.barh(pos[ok], diff[ok], xerr=[err[0][ok], err[1][ok]], capsize=2,
                color=np.asarray(colors)[ok])
        ax.axvline(0, color="black", lw=0.8)
    else:
        ax.bar(pos[ok], diff[ok], yerr=[err[0][ok], err[1][ok]], capsize=3,
               color=np.asarray(colors)[ok])
        ax.axhline(0, color="black", lw=0.8)
    for p in pos[~ok]:
        if horizontal:
            ax.text(0, p, " n/a", va="center", fontsize=7, color="grey")
        else:
            ax.text(p, 0, "n/a", ha="center", va="bottom", fontsize=7, color="grey")


def _game_groups(result) -> list[tuple[str, list[int]]]:
    """The comparison's game-level rows grouped by unit: the rates (differences in
    pp) first, then each unit of the means, as (axis label, row positions)."""
    g = result.game_table
    unit = result.run_a.contract.unit
    groups: dict[str, list[int]] = {}
    for i, (name, pp) in enumerate(zip(g["metric"], g["diff_pp"])):
        key = "percentage points" if np.isfinite(pp) else mean_unit(name, unit)
        groups.setdefault(key, []).append(i)
    rates = groups.pop("percentage points", None)
    return ([("percentage points", rates)] if rates else []) + list(groups.items())


def compare_figure(result):
    """The comparison plot (see :func:`plot_compare`) as a matplotlib Figure."""
    from .verdict import applies, side_labels
    label_a, label_b = side_labels(result)
    rotated = bool(result.shifts)
    measures = _seat_measures(result)
    g = result.game_table if result.game_table is not None else None
    groups = _game_groups(result) if g is not None and len(g) else []
    names = metric_labels([result.run_a, result.run_b])
    left_h = [2.6] * len(measures)
    right_h = [max(1.2, 0.28 * len(rows) + 0.8) for _, rows in groups]
    height = max(sum(left_h), sum(right_h), 3.0) + 1.2
    if groups and sum(right_h) < sum(left_h) - 0.5:     # keep short panels short
        right_h.append(sum(left_h) - sum(right_h))
    fig = plt.figure(figsize=(12.5, height), layout="constrained")
    left, right = fig.subfigures(1, 2, width_ratios=[1, 1.35]) if groups \
        else (fig, None)
    if measures:
        axes = left.subplots(len(measures), 1, squeeze=False)[:, 0]
        for ax, m in zip(axes, measures):
            t = result.table[result.table["measure"] == m.name]
            scale = 100.0 if m.is_rate else 1.0
            pos = np.arange(len(t))
            _diff_bars(ax, pos, *(t[c].to_numpy(np.float64) * scale
                                  for c in ("diff", "low", "high")),
                       list(t["significant"]), horizontal=False)
            ax.set_xticks(pos, [label + ("" if applies(k) else "\n(no test)")
                                for label, k in zip(_row_labels(t, rotated), _tests(t))],
                          fontsize=7)
            ax.set_ylabel(_wrap("B - A, " + _measure_label(m, percent=False), 26), fontsize=8)
            ax.set_title(f"{_words(m.name)}: B - A per "
                         + ("policy (seats rotated)" if rotated else "seat"), fontsize=9)
            ax.tick_params(axis="y", labelsize=7)
    if groups:
        axes = right.subplots(len(right_h), 1, squeeze=False,
                              height_ratios=right_h)[:, 0]
        for spare in axes[len(groups):]:
            spare.axis("off")
        for k, (ax, (unit_label, rows)) in enumerate(zip(axes, groups)):
            sub = g.iloc[rows]
            scale = 100.0 if unit_label == "percentage points" else 1.0
            pos = np.arange(len(sub))
            _diff_bars(ax, pos, *(sub[c].to_numpy(np.float64) * scale
                                  for c in ("diff", "low", "high")),
                       list(sub["significant"]), horizontal=True)
            ax.set_yticks(pos, [names.get(n, _words(n)) + ("" if applies(k) else " (no test)")
                                for n, k in zip(sub["metric"], _tests(sub))], fontsize=7)
            ax.invert_yaxis()
            ax.set_xlabel(f"B - A ({unit_label})", fontsize=8)
            ax.tick_params(axis="x", labelsize=7)
            if k == 0:
                kinds = set(g["interval"]) if "interval" in g else set()
                ax.set_title("game-level figures: B - A (95% intervals, "
                             + ("paired" if kinds <= {"paired", "none: the figure is absent "
                                                      "on a side"} else
                                "some unpaired, conservative") + ")", fontsize=9)
    handles = [Patch(color=_EVIDENCE, label="Holm-adjusted p < 0.05"),
               Patch(color=_NO_EVIDENCE,
                                        label="no clear evidence, or no test")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, fontsize=8,
               frameon=False, title=f"{result.tests} paired tests, Holm-adjusted together "
               "(the intervals are not adjusted)",
               title_fontsize=8)
    ra = result.run_a
    fig.suptitle(_wrap(f"{result.game}: B = {label_b} vs A = {label_a}", 110) + "\n"
                 + f"{counted(ra.games, ra.contract.unit)} each on the same deals, seed "
                 f"{ra.seed}; bars: B - A with 95% intervals", fontsize=10)
    return fig


def plot_compare(result, path) -> Path:
    """Panels of the paired differences B - A: one per seat measure (rates in pp,
    means in their unit), and the game-level figures, one panel per unit (rates in
    pp; deals per match, card points, ... each on its own axis), each with its 95%
    interval; a bar is dark where its Holm-adjusted p-value is below 0.05."""
    return _save(compare_figure(result), path)


def plot_tournament(ratings, pairs, names, game: str, games: int, path) -> Path:
    """tournament.png: the ratings with their intervals (left) and each pair's share of
    its comparisons (right: row player against column player)."""
    k = len(names)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 0.6 * k + 2.6),
                                   gridspec_kw={"width_ratios": [1.1, 1]})
    r = ratings.iloc[::-1]
    y = np.arange(len(r))
    ax1.errorbar(r["rating"], y, xerr=[r["rating"] - r["low"], r["high"] - r["rating"]],
                 fmt="o", color="tab:blue", capsize=4)
    ax1.axvline(0, color="0.7", lw=1)
    ax1.set_yticks(y, [_wrap(n, 22) for n in r["player"]])
    ax1.set_xlabel("rating (Bradley-Terry, Elo points, mean 0)")
    ax1.set_title("ratings with 95% bootstrap intervals over deals", fontsize=10)
    share = np.full((k, k), np.nan)
    idx = {n: i for i, n in enumerate(names)}
    for row in pairs.itertuples():
        a, b = idx[row.player], idx[row.versus]
        share[a, b], share[b, a] = row.share, 1 - row.share
    im = ax2.imshow(share, cmap="RdBu", vmin=0, vmax=1)
    for a in range(k):
        for b in range(k):
            if a != b and not np.isnan(share[a, b]):
                ax2.text(b, a, f"{100 * share[a, b]:.0f}%", ha="center", va="center",
                         fontsize=9, color="black" if 0.25 < share[a, b] < 0.75 else "white")
    short = [_wrap(n, 14) for n in names]
    ax2.set_xticks(range(k), short, rotation=30, ha="right")
    ax2.set_yticks(range(k), short)
    ax2.set_xlabel("against")
    ax2.set_title("share of comparisons won (row vs column)", fontsize=10)
    fig.colorbar(im, ax=ax2, fraction=0.046, pad=0.04)
    fig.suptitle(f"{game} tournament: {counted(games, 'game')} per lineup, same deals")
    fig.tight_layout()
    return _save(fig, path)
