"""Sweeps and paired comparisons of rule variants, on common random numbers.

Every variant of a sweep, and both sides of a comparison, play the same game
indices from the same seed, so each game starts from the same random stream:
differences between variants are the rules' doing, not deal luck.
"""
from __future__ import annotations

import contextlib
import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
from scipy import stats as _st

from ..errors import TricksimError
from ..players import check_local, is_user_policy, play_run, player_names, uses_python
from ..registry import get_game
from ..options import RuleSet
from ..running.runner import RunResult
from ..running.settings import UNSET, RunSettings, settings_from
from ..statistics.stats import (fairness_note, holm, markdown_table, seat_test_p, write_csv,
                    write_parquet, write_text)
from ..statistics.stats import MIN_PAIRED_GAMES, evidence_words, format_p, paired_test, tests_run
from ..running.checkpoint import recorded_seed
from ..statistics.verdict import NOT_PAIRED, adjust_family, applies, few_games, paired_kind, ratio_kind
from ..text import counted


# ----- parsing ----------------------------------------------------------------
def parse_vary(game: str, specs) -> list[tuple[str, list]]:
    """``NAME=V1,V2,...`` strings as (option, [values]) pairs, each value checked.

    Values of a list option are separated by ``;`` (``solo_suits=D;D,C``), since
    a comma already separates a list's items.
    """
    book = get_game(game).rulebook
    out = []
    seen = set()
    for spec in specs:
        if "=" not in spec:
            raise TricksimError(f"--vary expects NAME=V1,V2,..., got '{spec}'")
        name, raw = (s.strip() for s in spec.split("=", 1))
        if name == POLICY:
            if name in seen:
                raise TricksimError(f"--vary names option '{name}' twice")
            seen.add(name)
            out.append((name, parse_policy_values(game, raw)))
            continue
        opt = book.option(name)
        if name in seen:
            raise TricksimError(f"--vary names option '{name}' twice")
        seen.add(name)
        sep = ";" if opt.kind in ("int_list", "choice_list") or ";" in raw else ","
        texts = [t.strip() for t in raw.split(sep) if t.strip()]
        if not texts:
            raise TricksimError(f"--vary {name}= gives no values; allowed: {opt.allowed()}")
        values = [opt.parse(t) for t in texts]
        if len(set(values)) != len(values):
            raise TricksimError(f"--vary {name} lists a value twice")
        out.append((name, values))
    if not out:
        raise TricksimError("a sweep needs at least one --vary NAME=V1,V2,...")
    check_combinations(out)
    return out


#: the most variants (combinations of the varied values) a sweep plays
MAX_VARIANTS = 1000


def check_combinations(vary) -> int:
    """The number of variants of ``vary`` ((option, values) pairs), or a one-line
    TricksimError above :data:`MAX_VARIANTS`, counted before any variant is built."""
    count = math.prod(len(vals) for _, vals in vary)
    if count > MAX_VARIANTS:
        sizes = " x ".join(f"{len(vals)} ({name})" for name, vals in vary)
        raise TricksimError(
            f"--vary gives {sizes} = {count:,} combinations; allowed: at most "
            f"{MAX_VARIANTS:,} per sweep (each is a run of its own, and a sweep's table, "
            "plots and report are read variant by variant); split it into several sweeps")
    return count


#: the pseudo-option that varies (or sets, in ``--a``/``--b``) the players' policies
POLICY = "policy"


def parse_policy_values(game: str, raw: str) -> list[tuple[str, ...]]:
    """``policy=`` values: policy lists separated by ``;``, each one name for every
    seat or one per seat separated by ``,`` (``heuristic,random;random``)."""
    g = get_game(game)
    values = []
    for text in (t.strip() for t in raw.split(";")):
        if not text:
            continue
        names = tuple(n.strip() for n in text.split(","))
        for n in names:
            if n not in g.policies and not is_user_policy(n):
                raise TricksimError(f"unknown policy '{n}' in policy={raw}; policies of "
                                    f"{game}: " + ", ".join(g.policies)
                                    + ", or your Python player as MODULE:ATTR")
        values.append(names)
    if not values:
        raise TricksimError(f"policy= gives no policies; allowed: " + ", ".join(g.policies)
                            + " (one for every seat, or one per seat separated by ',')")
    if len(set(values)) != len(values):
        raise TricksimError("--vary policy lists a value twice")
    return values


def _text(book, name, value) -> str:
    """A varied value as text (a policy list comma-separated)."""
    if name == POLICY:
        return ",".join(value)
    return book.option(name).to_text(value)


def variant_label(assign: dict, book) -> str:
    """A short label of a variant, e.g. ``limit=30 pairs=keep``."""
    return " ".join(f"{k}={_text(book, k, v)}" for k, v in assign.items())


# ----- sweeps -------------------------------------------------------------------
@dataclass
class SweepResult:
    """A sweep: its variants, their runs, and the tidy table (one row per variant and seat)."""

    game: str
    varied: list[str]
    variants: list[dict]
    runs: list[RunResult]
    table: pd.DataFrame
    seed: int
    games: int
    command: str = ""
    labels: list[str] = field(default_factory=list)


def sweep(game: str, vary, preset=None, rules_file=None, assignments=(), players=None,
          policies=None, games=UNSET, seed=UNSET, *, settings: RunSettings | None = None,
          progress: Callable[[int, int], None] | None = None, out=None, client=None,
          executor=None, **options) -> SweepResult:
    """Play every combination of the varied options with the same seed.

    ``vary``: (option, values) pairs as from ``parse_vary``. The other rule
    arguments build the base rule set as for ``simulate``. How each variant is
    played is a ``RunSettings`` (``settings``, or its fields as keyword
    arguments, as for ``simulate``); ``games`` is per variant. Returns a
    SweepResult whose ``table`` has the varied options as columns.

    ``out``: checkpoint each variant's run in ``out/variants/NNN/`` (resumable
    as for ``simulate``; a seed left None is taken from an unfinished variant
    there; ``out`` must be new, empty or a sweep folder, see ``simcore.folders``,
    and is locked while the sweep plays). With ``scheduler``/``workers`` settings
    or a ``client``, every
    variant's chunks go to one Dask cluster (see ``simcore.running.cluster``); an open
    ``executor`` (a batch's) is used as it is.
    """
    from ..bits import seed_from_entropy
    from ..running.cluster import open_executor
    s = settings_from(settings, games=games, seed=seed, **options)
    g = get_game(game)
    names = [n for n, _ in vary]
    if POLICY in names and policies:
        raise TricksimError("--policy and --vary policy both given; use one")
    built = build_variants(game, vary, preset, rules_file, assignments, players, policies)
    for assign, _ in built:
        check_local(s, list(assign[POLICY]) if POLICY in assign else policies)
    seed = s.seed
    if seed is None and out is not None and s.resume:
        seed = recorded_seed(Path(out) / "variants")
    s = s.replace(seed=seed_from_entropy() if seed is None else seed, summary_only=True)
    book = g.rulebook
    total = s.games * len(built)
    runs = []
    opened = contextlib.nullcontext(executor) if executor is not None \
        else open_executor(s, client)
    from ..folders import own
    owned = contextlib.nullcontext() if out is None else own(out, "sweep")
    with owned, opened as executor:                # one executor for every variant
        for i, (assign, rules) in enumerate(built):
            done = i * s.games
            pols = list(assign[POLICY]) if POLICY in assign else policies

            def step(d, _t, done=done):
                if progress:
                    progress(done + d, total)

            folder = None if out is None else Path(out) / "variants" / f"{i:03d}"
            if executor.description.get("executor") != "dask" and not uses_python(pols):
                g.run_chunk(rules, g.policy_ids(pols, rules)[1], s.seed, 0, 1, summary_only=True)
            runs.append(play_run(game, rules, pols, s, step,
                                 f"variant {variant_label(assign, book)}", out=folder,
                                 executor=executor))
    labels = [variant_label(a, book) for a, _ in built]
    table = _sweep_table(g, names, [a for a, _ in built], runs, labels, book)
    result = SweepResult(game, names, [a for a, _ in built], runs, table, s.seed, s.games,
                         labels=labels)
    holm_ps = holm_pvalues(result)
    table["fair_seat_test_p_holm"] = np.repeat(
        holm_ps, [len(r.summary["seats"]) for r in runs])
    return result


def build_variants(game: str, vary, preset=None, rules_file=None, assignments=(),
                   players=None, policies=None) -> list[tuple[dict, RuleSet]]:
    """Every combination of the varied options as (assignment, rule set), each rule set
    built and checked, and the policy list checked against each, before anything is
    played; a TricksimError names the first variant that cannot be played."""
    g = get_game(game)
    names = [n for n, _ in vary]
    if players is not None and "players" in names:
        raise TricksimError("--players and --vary players both given; use one")
    book = g.rulebook
    check_combinations(vary)
    built = []
    for combo in itertools.product(*[vals for _, vals in vary]):
        assign = dict(zip(names, combo))
        extra = [f"{k}={book.option(k).to_text(v)}" for k, v in assign.items() if k != POLICY]
        try:
            rules = g.build_rules(preset, rules_file, list(assignments) + extra, players)
        except TricksimError as exc:
            raise TricksimError(f"variant {variant_label(assign, book)}: {exc}") from None
        # check the policy list fits every variant first (Python players: loaded)
        player_names(g, rules, list(assign[POLICY]) if POLICY in assign else policies)
        built.append((assign, rules))
    return built


def index_column(names) -> str:
    """The name of a sweep table's variant-number column: ``variant``, or
    ``variant_index`` when an option called ``variant`` is varied (Wendish and
    Schnapsen have one), so that neither hides the other."""
    return "variant_index" if "variant" in names else "variant"


def _sweep_table(game, names, variants, runs, labels, book) -> pd.DataFrame:
    parts = []
    for v, (assign, run, label) in enumerate(zip(variants, runs, labels)):
        seats = run.summary["seats"].copy()
        front = {index_column(names): v, "label": label}
        for k in names:                 # a varied policy list: "policies" (seats have "policy")
            front["policies" if k == POLICY else k] = _text(book, k, assign[k])
        for i, (k, val) in enumerate(front.items()):
            seats.insert(i, k, val)
        for prefix, frame in (("game_", game.game_metrics(run.summary, run.rules)),
                              ("fair_", run.summary.get("fairness"))):
            if frame is None:
                continue
            for metric, value in zip(frame["metric"], frame["value"]):
                seats[prefix + metric] = value
        parts.append(seats)
    return pd.concat(parts, ignore_index=True, sort=False)


def fairness_line(label: str, run: RunResult, holm_p: float | None = None,
                  tests: int = 1) -> str:
    """One line saying how far a variant is from seat fairness (rates in percent,
    their differences in percentage points, pp); ``holm_p``: the seat test's
    p-value adjusted across a sweep's ``tests`` seat tests (see
    :func:`holm_pvalues`).  The verdict is worded as evidence, not certainty."""
    seats = run.summary["seats"]
    contract = run.contract
    m = contract.primary
    fair = run.summary.get("fairness")
    metrics = dict(zip(fair["metric"], fair["value"])) if fair is not None else {}
    lo, hi = float(seats[m.column].min()), float(seats[m.column].max())
    name = m.column.replace("_", " ")
    if m.is_rate:
        text = (f"- **{label}**: seat {name}s {100 * lo:.1f}% to {100 * hi:.1f}% "
                f"(spread {100 * (hi - lo):.1f} pp)")
    else:
        text = (f"- **{label}**: seat {name} {lo:+.3f} to {hi:+.3f} (spread {hi - lo:.3f}"
                f"{' ' + m.unit if m.unit else ''})")
    p = seat_test_p(fair)
    note = fairness_note(run.summary, contract)
    test = ("chi-square test of equal wins" if "equal_wins_p" in metrics
            else "test of equal mean scores")
    if not math.isnan(p):
        if holm_p is None or tests < 2:
            text += (f"; {test} p {format_p(p)} (the only test, so no adjustment): "
                     f"{evidence_words(p)} that seats differ")
        else:
            text += (f"; {test} p {format_p(p)}, Holm-adjusted p {format_p(holm_p)} "
                     f"({tests_run(tests)}): {evidence_words(holm_p)} that seats differ")
    elif note:
        text += "; " + note
    for adv in contract.advantages:
        if adv.label in metrics:
            text += f"; {adv.label.replace('_', ' ')} {100 * metrics[adv.label]:+.1f} pp"
    return text


def holm_pvalues(result: SweepResult) -> list[float]:
    """Each variant's seat-test p-value (equal wins, or equal mean scores) after
    Holm's correction across the sweep's tested variants: testing k variants
    gives k chances of a false alarm, and Holm keeps the chance of any at 5%.
    NaN where a variant has no test."""
    return holm([seat_test_p(r.summary.get("fairness")) for r in result.runs])


def without_effect(result: SweepResult) -> list[str]:
    """Varied options that changed nothing where the others were held fixed.

    Every variant plays the same seeds, so two variants that differ in one
    option only and give identical summaries played identical games: that
    option has no effect there (``lust_solo`` under the ``officers`` variant,
    say). One sentence per such option and setting of the others."""
    from ..statistics.stats import summary_csv_frame
    if len(result.varied) == 0:
        return []
    fingerprints = [summary_csv_frame(r.summary).to_csv(index=False) for r in result.runs]
    book = get_game(result.game).rulebook
    notes = []
    for name in result.varied:
        groups: dict[tuple, list[int]] = {}
        for i, assign in enumerate(result.variants):
            key = tuple((k, _text(book, k, v)) for k, v in assign.items() if k != name)
            groups.setdefault(key, []).append(i)
        for key, members in groups.items():
            if len(members) > 1 and len({fingerprints[i] for i in members}) == 1:
                where = " ".join(f"{k}={v}" for k, v in key)
                values = "; ".join(_text(book, name, result.variants[i][name])
                                   for i in members)
                notes.append(f"{name} ({values}) has no effect"
                             + (f" when {where}" if where else "")
                             + ": those variants played identical games")
    return notes


def fairness_lines(result: SweepResult) -> list[str]:
    """One fairness line per variant (Markdown), the seat tests Holm-adjusted
    across the variants when two or more were tested."""
    holm_ps = holm_pvalues(result)
    tests = sum(not math.isnan(p) for p in holm_ps)
    return [fairness_line(label, run, None if math.isnan(hp) else hp, tests)
            for label, run, hp in zip(result.labels, result.runs, holm_ps)]


def holm_note(result: SweepResult) -> str:
    """How many seat tests the sweep ran and how they were adjusted (or that none
    applies)."""
    tested = sum(not math.isnan(p) for p in holm_pvalues(result))
    if tested == 0:
        return ("No seat test applies to any variant (each line says why), so there is "
                "no verdict on seat fairness.")
    if tested == 1:
        return ("1 seat test was run (one variant has one), so there is nothing to adjust "
                "for; but at the 5% level a single test still flags seats of a fair game "
                "1 time in 20: a second seed or more games confirm a flag.")
    return (f"{tested} seat tests were run (one per variant that has one) and Holm-adjusted "
            "together (Holm's step-down method; `fair_seat_test_p_holm`): a variant is "
            "flagged only if its Holm-corrected p-value is below 0.05, which keeps the "
            "chance of any false alarm in the sweep at 5%.")


def write_sweep(result: SweepResult, out) -> list[Path]:
    """Write sweep.parquet, sweep.csv, the PNG plots, report.md and sweep.json (the
    folder's mark) to ``out``, which must be new, empty or a sweep folder."""
    from ..folders import own
    with own(out, "sweep"):
        return _write_sweep(result, Path(out))


def _write_sweep(result: SweepResult, out: Path) -> list[Path]:
    from ..folders import mark
    from ..statistics.plots import plot_game_metrics, plot_seat_measure
    from ..statistics.stats import write_json
    table = result.table.copy()         # varied options keep their type (integers, booleans)
    for k in result.varied:
        typed = get_game(result.game).rulebook.typed_column(k, table[k]) \
            if k in table.columns else None
        if typed is not None:
            table[k] = pd.Series(typed, index=table.index)
    write_parquet(table, out / "sweep.parquet")
    write_csv(result.table, out / "sweep.csv")
    seat_png = plot_seat_measure(result, out / "seats.png")
    game_png = plot_game_metrics(result, out / "game.png")
    write_text(_report(result, seat_png, game_png), out / "report.md")
    files = [out / "sweep.parquet", out / "sweep.csv", seat_png, game_png, out / "report.md"]
    write_json(mark("sweep", status="complete", game=result.game, command=result.command,
                    seed=result.seed, games=result.games, varied=result.varied,
                    variants=result.labels,
                    policies=[list(run.policies) for run in result.runs],
                    files=[f.name for f in files]),
               out / "sweep.json")
    return files + [out / "sweep.json"]


def _report(result: SweepResult, seat_png: Path, game_png: Path) -> str:
    contract = result.runs[0].contract
    cols = ["label", "seat", "policy"]
    for m in contract.measures:
        for col in (m.column, m.low, m.high) if m is contract.primary else (m.column,):
            if col and col in result.table and col not in cols:
                cols.append(col)
    lines = [f"# Sweep of {result.game}: {', '.join(result.varied)}", "",
             f"{counted(len(result.variants), 'variant')} × {counted(result.games, 'game')} each, seed "
             f"{result.seed}, every variant on the same seeds (common random numbers).", ""]
    if result.command:
        lines += ["```", result.command, "```", ""]
    lines += ["## Seat fairness", ""]
    lines += fairness_lines(result)
    sentence = holm_note(result)
    if sentence:
        lines += ["", sentence]
    flagged = without_effect(result)
    if flagged:
        lines += ["", "## Options without effect", ""] + [f"- {n}" for n in flagged]
    lines += ["", "## Per seat", "", markdown_table(result.table[cols]), "",
              f"![per-seat measure by variant]({seat_png.name})", "", "## Game level", ""]
    game_rows = []
    game = get_game(result.game)
    for label, run in zip(result.labels, result.runs):
        frame = game.game_metrics(run.summary, run.rules).copy()
        frame.insert(0, "variant", label)
        game_rows.append(frame)
    lines += [markdown_table(pd.concat(game_rows, ignore_index=True)), "",
              f"![game-level figures by variant]({game_png.name})", ""]
    return "\n".join(lines)


# ----- paired comparison ------------------------------------------------------------
def parse_rules_spec(game: str, spec: str, players=None) -> RuleSet:
    """A rule set from ``--a``/``--b``: a TOML file, a preset name, or ``NAME=VALUE``
    items, combined with ``;`` (e.g. ``summary-de;limit=30``). A ``policy=`` item
    is refused here: :func:`parse_side` reads rules and policies."""
    rules, policies = parse_side(game, spec, players)
    if policies is not None:
        raise TricksimError(f"'{spec}' sets policies; read it with parse_side")
    return rules


def parse_side(game: str, spec: str, players=None) -> tuple[RuleSet, list[str] | None]:
    """A side of a comparison from ``--a``/``--b``: its rule set (as for
    :func:`parse_rules_spec`) and its policies if a ``policy=P1,P2,...`` item
    gives them (else None), e.g. ``standard;policy=heuristic,random,random,random``."""
    g = get_game(game)
    preset = None
    rules_file = None
    assignments = []
    policies = None
    for item in (s.strip() for s in spec.split(";")):
        if not item:
            continue
        if item.split("=", 1)[0].strip() == POLICY:
            if policies is not None:
                raise TricksimError(f"'{spec}' sets policy twice")
            policies = list(parse_policy_values(game, item.split("=", 1)[1])[0])
            continue
        if "=" in item:
            assignments.append(item)
        elif g.rulebook.is_preset(item):
            if preset is not None:
                raise TricksimError(f"'{spec}' names two presets")
            preset = item
        elif Path(item).is_file():
            rules_file = item
        else:
            raise TricksimError(f"'{item}' is neither a preset of {game} ("
                                + g.rulebook.preset_list()
                                + "), a rules file, nor NAME=VALUE")
    rules = g.build_rules(preset, rules_file, assignments, players)
    if policies is not None:
        player_names(g, rules, policies)
    return rules, policies


@dataclass
class CompareResult:
    """Paired differences B - A per seat and measure, and both runs."""

    game: str
    rules_a: RuleSet
    rules_b: RuleSet
    run_a: RunResult
    run_b: RunResult
    table: pd.DataFrame
    #: why no test was made (too few games), or "" when every row was tested
    note: str = ""
    #: game-level figures of A and B and their difference (see :func:`game_differences`)
    game_table: pd.DataFrame | None = None
    #: a rotated comparison's rotations (see ``compare(..., rotate=True)``) and each
    #: side's run per rotation (``run_a``/``run_b`` are the first); empty otherwise
    shifts: list[int] = field(default_factory=list)
    runs_a: list[RunResult] = field(default_factory=list)
    runs_b: list[RunResult] = field(default_factory=list)
    #: how many paired tests were made (Holm-adjusted together: ``p_holm``)
    tests: int = 0
    #: the ``--a``/``--b`` texts, where known: reports name A and B by them
    spec_a: str = ""
    spec_b: str = ""


def paired_ratio(na: np.ndarray, da: np.ndarray, nb: np.ndarray, db: np.ndarray
                 ) -> tuple[float, float, float, float, float]:
    """(a, b, low, high, p-value) of a game-level figure under A and B, paired game
    by game: the figure is a ratio ``sum(numerator) / sum(denominator)`` of per-game
    values (a per-game mean has denominator 1; a rate among some deals counts them).

    The difference B - A is linearized (the delta method for a ratio of means): game
    i contributes ``(nb_i - b * db_i) / mean(db) - (na_i - a * da_i) / mean(da)``,
    and the 95% interval and p-value are Student's t on those n values (n - 1
    degrees of freedom).  With denominator 1 this is exactly the paired t test
    (``scipy.stats.ttest_rel``).  When every game contributes the same, the
    interval is the difference itself and the p-value the exact sign test's, as
    in :func:`paired_test`.  Interval and p-value are NaN below
    MIN_PAIRED_GAMES games or where a side's denominator sums to 0 (the figure
    does not exist there: no deal of that kind was played)."""
    n = len(na)
    sa, sb = float(np.sum(da)), float(np.sum(db))
    a = float(np.sum(na)) / sa if sa > 0 else math.nan
    b = float(np.sum(nb)) / sb if sb > 0 else math.nan
    if n < MIN_PAIRED_GAMES or math.isnan(a) or math.isnan(b):
        return a, b, math.nan, math.nan, math.nan
    diff = b - a
    z = (nb - b * db) / (sb / n) - (na - a * da) / (sa / n)
    se = float(z.std(ddof=1)) / math.sqrt(n)
    if se <= 1e-12 * max(1.0, abs(diff)):
        pvalue = 1.0 if diff == 0 else float(_st.binomtest(n, n).pvalue)
        return a, b, diff, diff, pvalue
    t = float(_st.t.ppf(0.975, n - 1))
    pvalue = float(2 * _st.t.sf(abs(diff) / se, n - 1))
    return a, b, diff - t * se, diff + t * se, pvalue


#: how a game-level interval was made (the ``interval`` column of compare_game.csv)
PAIRED = "paired"
UNPAIRED = "unpaired, conservative"
#: a figure that does not exist on a side (no deal of that kind was played there)
ABSENT = "none: the figure is absent on a side"


def game_differences(game: str, run_a: RunResult, run_b: RunResult,
                     figures_a: dict | None = None, figures_b: dict | None = None
                     ) -> pd.DataFrame:
    """Every game-level figure of A and B (the game's metric sections: rounds,
    games without a winner, contract shares, Schneider and Schwarz, deal endings)
    with the difference B - A, its 95% interval and p-value.

    Where both runs kept their tables, every figure the contract's
    ``game_reader`` reads is paired game by game (by match in Schnapsen) with
    :func:`paired_ratio` (``interval`` = "paired"); ``figures_a``/``figures_b``
    give those per-game values ready-made (a rotated comparison sums them over
    its rotations).  A figure that cannot be paired (a summary-only run keeps no
    tables) combines A's and B's own intervals as if independent (half-width
    sqrt(ha^2 + hb^2), ``interval`` = "unpaired, conservative", no p-value):
    both sides play the same deals, so their figures move together and that
    interval is wider than the paired one.  Rates' differences are also given in
    percentage points (``diff_pp``). A figure only one side has is given with an
    empty difference; below MIN_PAIRED_GAMES games there is no interval nor
    verdict, as for the paired tests.
    """
    g = get_game(game)
    fa = g.game_metrics(run_a.summary, run_a.rules)
    fb = g.game_metrics(run_b.summary, run_b.rules)
    if figures_a is None and run_a.tables:
        figures_a = run_a.contract.game_figures(run_a.tables)
    if figures_b is None and run_b.tables:
        figures_b = run_b.contract.game_figures(run_b.tables)
    figures_a, figures_b = figures_a or {}, figures_b or {}
    counts = set(run_a.contract.count_metrics) | set(run_b.contract.count_metrics)
    means = set(run_a.contract.mean_metrics) | set(run_b.contract.mean_metrics)
    names = list(fa["metric"]) + [m for m in fb["metric"] if m not in set(fa["metric"])]
    few = min(run_a.games, run_b.games) < MIN_PAIRED_GAMES
    unit = run_a.contract.unit
    rows = []
    for name in names:
        if name in counts:
            continue
        ra, rb = fa[fa["metric"] == name], fb[fb["metric"] == name]
        va = float(ra.iloc[0]["value"]) if len(ra) else math.nan
        vb = float(rb.iloc[0]["value"]) if len(rb) else math.nan
        pvalue = math.nan
        if name in figures_a and name in figures_b \
                and len(figures_a[name][0]) == len(figures_b[name][0]):
            kind = PAIRED
            va, vb, low, high, pvalue = paired_ratio(*figures_a[name], *figures_b[name])
            test = ratio_kind(*figures_a[name], *figures_b[name], low, high, unit)
            diff = vb - va
            if math.isnan(diff):
                kind = ABSENT
        else:
            kind = UNPAIRED
            test = few_games(unit) if few else NOT_PAIRED
            ha = (float(ra.iloc[0]["high"]) - float(ra.iloc[0]["low"])) / 2 if len(ra) \
                else math.nan
            hb = (float(rb.iloc[0]["high"]) - float(rb.iloc[0]["low"])) / 2 if len(rb) \
                else math.nan
            diff = vb - va
            half = math.sqrt(ha * ha + hb * hb) if np.isfinite([ha, hb]).all() else math.nan
            if few:                                     # as for the paired tests
                half = math.nan
            low, high = diff - half, diff + half
        rate = name not in means
        if not applies(test):
            pvalue = math.nan
        rows.append({"metric": name, "a": va, "b": vb, "diff": diff,
                     "low": low, "high": high,
                     "diff_pp": 100 * diff if rate else math.nan,
                     "p_value": pvalue,
                     "significant": None if math.isnan(pvalue) else bool(pvalue < 0.05),
                     "interval": kind, "test": test})
    return pd.DataFrame(rows)


def same_seats(game: str, rules_a: RuleSet, rules_b: RuleSet) -> None:
    """Refuse two rule sets with different numbers of seats (a comparison pairs seats)."""
    g = get_game(game)
    if g.seats(rules_a) != g.seats(rules_b):
        raise TricksimError(f"rule set A has {g.seats(rules_a)} seats and B "
                            f"{g.seats(rules_b)}: a paired comparison needs the same seats")


def compare(game: str, rules_a: RuleSet, rules_b: RuleSet, policies=None, games=UNSET,
            seed=UNSET, *, settings: RunSettings | None = None, progress=None,
            policies_a=None, policies_b=None, rotate: bool = False,
            **options) -> CompareResult:
    """Play both rule sets on the same seeds; paired differences (B - A) per seat.

    How each side is played is a ``RunSettings`` (``settings``, or its fields as
    keyword arguments, as for ``simulate``); ``games`` is per rule set.
    For each seat and measure (win indicator, final score), the mean paired
    difference with its 95% interval and p-value come from scipy's paired t
    test (``scipy.stats.ttest_rel``, see :func:`paired_test`).  Every test of the
    comparison (per seat and game-level) is one family: ``p_holm`` is its p-value
    after Holm's adjustment across all of them, ``significant`` means p_holm <
    0.05, ``tests`` counts them, and ``simcore.statistics.verdict.compare_verdict`` words the
    verdict.  Where a test does not apply the ``test`` column says why and there is
    no p-value: with fewer than MIN_PAIRED_GAMES games (interval and p-value NaN,
    ``significant`` None, and ``note`` says why), or where A and B are equal in
    every game (a difference of exactly 0).

    ``rotate``: play each side once per rotation of its policy list (every
    policy at every seat, on the same deals; see ``simcore.experiments.rotation``) and
    report per list position instead of per seat: positions holding the same
    pair of policies (A's, B's) are pooled, each deal's mean over its rotations
    and positions is one observation, and B - A is paired deal by deal.  The
    game-level figures are then summed over the rotations before pairing.
    """
    from ..bits import seed_from_entropy
    from ..engine import check_rules
    g = get_game(game)
    rules_a = check_rules(game, rules_a, "rules_a") or g.build_rules()
    rules_b = check_rules(game, rules_b, "rules_b") or g.build_rules()
    same_seats(game, rules_a, rules_b)
    s = settings_from(settings, games=games, seed=seed, **options)
    s = s.replace(seed=seed_from_entropy() if s.seed is None else s.seed, summary_only=False)
    games = s.games
    note = "" if games >= MIN_PAIRED_GAMES else (
        f"no significance test: {counted(games, 'game')} per rule set, and "
        f"a paired test needs at least {MIN_PAIRED_GAMES} (below that its p-value is not "
        f"trustworthy); the figures are the observed means only")
    if rotate:
        return _compare_rotated(game, rules_a, rules_b, policies_a or policies,
                                policies_b or policies, s, progress, note)

    def step(offset):
        return (lambda d, _t: progress(offset + d, 2 * games)) if progress else None

    run_a = play_run(game, rules_a, policies_a or policies, s, step(0), "rule set A")
    run_b = play_run(game, rules_b, policies_b or policies, s, step(games), "rule set B")
    n = g.seats(rules_a)
    contract = run_a.contract
    a = contract.per_game(run_a.tables["games"])
    b = contract.per_game(run_b.tables["games"])
    rows = []
    for measure in a:
        for p in range(n):
            xa, xb = a[measure][:, p], b[measure][:, p]
            low, high, pvalue = paired_test(xa, xb)
            rows.append({"measure": measure, "seat": p, "policy_a": run_a.policies[p],
                         "policy_b": run_b.policies[p],
                         "a": float(xa.mean()), "b": float(xb.mean()),
                         "diff": float((xb - xa).mean()), "low": low, "high": high,
                         "p_value": pvalue,
                         "significant": None if math.isnan(pvalue) else bool(pvalue < 0.05),
                         "test": paired_kind(xa, xb, contract.unit)})
    result = CompareResult(game, rules_a, rules_b, run_a, run_b, pd.DataFrame(rows), note,
                           game_differences(game, run_a, run_b))
    result.tests = adjust_family(result.table, result.game_table)
    return result


def _compare_rotated(game, rules_a, rules_b, policies_a, policies_b, s, progress,
                     note) -> CompareResult:
    """``compare(..., rotate=True)``: both sides under every rotation (see compare)."""
    from ..running.cluster import open_executor
    from .rotation import group_per_game, play_rotations, policy_groups, rotations, shifted
    from ..players import seat_names, seats_of
    g = get_game(game)
    seats_a, seats_b = seats_of(g, rules_a, policies_a), seats_of(g, rules_b, policies_b)
    pa, pb = seat_names(seats_a), seat_names(seats_b)
    shifts = rotations(pa, pb)
    total = 2 * s.games * len(shifts)
    with open_executor(s, None) as ex:
        runs_a = play_rotations(game, rules_a, seats_a, shifts, s, ex,
                                progress=shifted(progress, 0, total))
        runs_b = play_rotations(game, rules_b, seats_b, shifts, s, ex,
                                progress=shifted(progress, s.games * len(shifts), total))
    contract = runs_a[0].contract
    rows = []
    groups = policy_groups(list(zip(pa, pb)))
    for m in contract.measures:
        if m.per_game is None:
            continue
        for (qa, qb), pos in groups.items():
            xa = group_per_game(runs_a, shifts, pos)[m.name]
            xb = group_per_game(runs_b, shifts, pos)[m.name]
            low, high, pvalue = paired_test(xa, xb)
            rows.append({"measure": m.name, "positions": ",".join(map(str, pos)),
                         "policy_a": qa, "policy_b": qb,
                         "a": float(xa.mean()), "b": float(xb.mean()),
                         "diff": float((xb - xa).mean()), "low": low, "high": high,
                         "p_value": pvalue,
                         "significant": None if math.isnan(pvalue) else bool(pvalue < 0.05),
                         "test": paired_kind(xa, xb, contract.unit)})

    def summed(runs):
        total_figs: dict = {}
        for run in runs:
            for name, (num, den) in run.contract.game_figures(run.tables).items():
                if name in total_figs:
                    total_figs[name] = (total_figs[name][0] + num, total_figs[name][1] + den)
                else:
                    total_figs[name] = (num.copy(), den.copy())
        return total_figs

    game_table = game_differences(game, runs_a[0], runs_b[0], summed(runs_a), summed(runs_b))
    result = CompareResult(game, rules_a, rules_b, runs_a[0], runs_b[0], pd.DataFrame(rows),
                           note, game_table, shifts, runs_a, runs_b)
    result.tests = adjust_family(result.table, result.game_table)
    return result


def game_level_note(table: pd.DataFrame) -> str:
    """What the game-level intervals of a comparison are (paired or not, and why)."""
    text = ("B - A of every game-level figure; `diff_pp` is the difference of a rate in "
            "percentage points.")
    kinds = set(table["interval"]) if len(table) else set()
    if PAIRED in kinds:
        text += (" Paired figures (`interval` = paired) are compared game by game on the "
                 "same deals (Student's t on the per-game differences; a rate among some "
                 "deals, e.g. a contract's win rate, by the delta method for a ratio).")
    if UNPAIRED in kinds:
        text += (" Unpaired figures (`interval` = unpaired, conservative) have no per-game "
                 "values (a summary-only run keeps no tables): their interval combines A's "
                 "and B's own intervals as if independent, and has no p-value; both sides "
                 "play the same deals, so it is wider than a paired interval would be.")
    return text


def write_compare(result: CompareResult, out, command: str = "") -> list[Path]:
    """Write a comparison's folder: compare.csv (per seat and measure, paired),
    compare_game.csv (game-level figures), compare.json (rules, policies, seed,
    games; the folder's mark), compare.png and report.md.  ``out`` must be new,
    empty or a comparison's folder (see ``simcore.folders``)."""
    from ..folders import own
    with own(out, "compare"):
        return _write_compare(result, Path(out), command)


def _write_compare(result: CompareResult, out: Path, command: str) -> list[Path]:
    from ..statistics.plots import plot_compare
    from ..statistics.stats import write_json
    write_csv(result.table, out / "compare.csv")
    write_csv(result.game_table, out / "compare_game.csv")
    ra, rb = result.run_a, result.run_b
    write_json({"format": "tricksim-compare", "status": "complete", "game": result.game,
                "command": command,
                "seed": ra.seed, "games": ra.games,
                "a": {"rules": result.rules_a.to_dict(),
                      "rules_canonical": result.rules_a.canonical(), "policies": ra.policies},
                "b": {"rules": result.rules_b.to_dict(),
                      "rules_canonical": result.rules_b.canonical(), "policies": rb.policies},
                "rotate": bool(result.shifts),
                "rotations": [{"shift": r, "policies_a": x.policies, "policies_b": y.policies}
                              for r, x, y in zip(result.shifts, result.runs_a,
                                                 result.runs_b)]},
               out / "compare.json")
    png = plot_compare(result, out / "compare.png")
    write_text(_compare_report(result, command, png), out / "report.md")
    return [out / "compare.csv", out / "compare_game.csv", out / "compare.json", png,
            out / "report.md"]


def _compare_report(result: CompareResult, command: str, png: Path) -> str:
    from ..statistics.verdict import compare_verdict, side_labels, sides_sentence
    ra = result.run_a
    label_a, label_b = side_labels(result)
    lines = [f"# Comparison of {result.game}: {label_b} vs {label_a}", "",
             sides_sentence(result) + "  ",
             f"{counted(ra.games, ra.contract.unit)} each, seed {ra.seed}, both on the same "
             "seeds (common random numbers). Differences are B - A.", ""]
    if command:
        lines += ["```", command, "```", ""]
    lines += ["## Verdict", ""]
    for sentence in compare_verdict(result):
        lines += [sentence, ""]
    lines += [
        "Every paired test of the comparison (per seat and game-level) counts: `p_holm` "
            "is a row's p-value after Holm's step-down adjustment across all of them, and "
            "`significant` means `p_holm` < 0.05, which keeps the chance of any false alarm "
            "in the comparison at 5%. Where a test does not apply, `test` says why and there "
            "is no p-value.", ""]
    if result.shifts:
        lines += ["## Per policy, seats rotated (paired)", "",
                  f"Each side was played once per rotation of its policy list "
                  f"({counted(len(result.shifts), 'rotation')}, shifts "
                  f"{', '.join(map(str, result.shifts))}) on the same deals, so every policy "
                  "played every seat. A row pools the list positions (`positions`) holding "
                  "the same pair of policies; each deal's mean over its rotations and "
                  "positions is one observation, paired between A and B deal by deal "
                  "(scipy's `ttest_rel`). Rates are shares (0.01 = 1 pp).", ""]
    else:
        lines += ["## Per seat (paired)", "",
                  "Each seat's per-game results under A and B are paired game by game; the "
                  "interval and p-value are scipy's paired t test (`ttest_rel`). Rates are "
                  "shares (0.01 = 1 pp).", ""]
    if result.note:
        lines += [result.note, ""]
    lines += [markdown_table(result.table), "", f"![paired differences]({png.name})", "",
              "## Game level", "",
              game_level_note(result.game_table), "",
              markdown_table(result.game_table), ""]
    return "\n".join(lines)
