"""One honest verdict from many tests, and what A and B of a comparison are.

A comparison runs one paired test per seat and measure and one per game-level
figure: 19 tests in a Schnapsen comparison, so at the 5% level about one of them
is "significant" by chance even when A and B are the same.  Every test of a
command is therefore one family: Holm's step-down adjustment (``stats.holm``)
runs across all of them, a row is flagged (``significant``) only when its
Holm-adjusted p-value (``p_holm``) is below 0.05, and the verdict is worded as
evidence, not certainty, and says how many tests were run.  A row whose test does
not apply (too few games, A and B equal in every game, a figure one side does
not have, values that cannot be paired) gets no p-value, and its ``test`` column
says why.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..text import plural  # noqa: F401  (verdict.plural: callers import it here)

from .stats import ALPHA, MIN_PAIRED_GAMES, evidence_words, format_p, holm, tests_run

#: the ``test`` column: which test made a row's p-value, or why none applies
PAIRED_T = "paired t"
RATIO_T = "paired t (ratio, delta method)"
SIGN_TEST = "sign test (the same difference every time)"
NOT_APPLICABLE = "does not apply: "


def few_games(unit: str = "game") -> str:
    return f"{NOT_APPLICABLE}fewer than {MIN_PAIRED_GAMES} {plural(unit)}"


def equal_everywhere(unit: str = "game") -> str:
    return f"{NOT_APPLICABLE}A and B equal in every {unit}"


ABSENT_ON_A_SIDE = NOT_APPLICABLE + "the figure is absent on a side"
NOT_PAIRED = NOT_APPLICABLE + "no per-game values to pair (interval only)"


def applies(test: str) -> bool:
    """Whether a ``test`` entry names a test that was made."""
    return not str(test).startswith(NOT_APPLICABLE)


def paired_kind(xa: np.ndarray, xb: np.ndarray, unit: str = "game") -> str:
    """The ``test`` entry of a paired comparison of per-game values (see
    ``sweep.paired_test``): too few games, A and B equal in every game (a
    difference that is exactly 0: nothing to test), the sign test (the same
    non-zero difference every game), else the paired t test."""
    if len(xa) < MIN_PAIRED_GAMES:
        return few_games(unit)
    d = np.asarray(xb, dtype=np.float64) - np.asarray(xa, dtype=np.float64)
    if np.all(d == 0):
        return equal_everywhere(unit)
    if np.all(d == d[0]):
        return SIGN_TEST
    return PAIRED_T


def ratio_kind(na, da, nb, db, low: float, high: float, unit: str = "game") -> str:
    """The ``test`` entry of a paired game-level figure (see ``sweep.paired_ratio``)."""
    if len(na) < MIN_PAIRED_GAMES:
        return few_games(unit)
    if float(np.sum(da)) <= 0 or float(np.sum(db)) <= 0:
        return ABSENT_ON_A_SIDE
    if np.array_equal(na, nb) and np.array_equal(da, db):
        return equal_everywhere(unit)
    if low == high:
        return SIGN_TEST
    ones = np.all(np.asarray(da) == 1) and np.all(np.asarray(db) == 1)
    return PAIRED_T if ones else RATIO_T


def adjust_family(*frames: pd.DataFrame) -> int:
    """Holm's adjustment across every ``p_value`` of ``frames`` (one family: all the
    tests of one command), in place: a ``p_holm`` column after ``p_value``, and
    ``significant`` = p_holm < 0.05 (None where no test was made).  A row whose
    ``test`` says it does not apply loses its p-value first.  Returns the number of
    tests in the family."""
    pvalues = []
    for f in frames:
        if "test" in f:
            off = ~f["test"].map(applies)
            f.loc[off, "p_value"] = math.nan
        pvalues += [float(p) for p in f["p_value"]] if len(f) else []
    adjusted = holm(pvalues)
    start = 0
    for f in frames:
        part = adjusted[start:start + len(f)]
        start += len(f)
        if not len(f):
            continue
        if "p_holm" in f:
            f["p_holm"] = part
        else:
            f.insert(list(f.columns).index("p_value") + 1, "p_holm", part)
        f["significant"] = [None if math.isnan(p) else bool(p < ALPHA) for p in part]
    return sum(not math.isnan(p) for p in adjusted)


# ----- what A and B are ----------------------------------------------------------
def differing_options(rules_a, rules_b) -> list[str]:
    """The options whose values differ between two rule sets of a game, in order."""
    keys = list(rules_a.order) + [k for k in rules_b.order if k not in rules_a.order]
    return [k for k in keys if rules_a.values.get(k) != rules_b.values.get(k)]


def policy_text(policies) -> str:
    """A policy list as written after ``policy=`` (one name when every seat has it)."""
    policies = list(policies)
    return policies[0] if len(set(policies)) == 1 else ",".join(policies)


def _named(spec: str) -> set[str]:
    return {item.split("=", 1)[0].strip() for item in spec.split(";") if "=" in item}


def side_labels(result) -> tuple[str, str]:
    """Short names of a comparison's A and B: what tells them apart, e.g.
    ``("standard (limit=40)", "limit=30")``.  Each side is its ``--a``/``--b``
    text where the result has it (``spec_a``/``spec_b``), followed in brackets by
    any differing option that text does not name; without it, the differing
    options alone; a differing policy list is added as ``policy=...``."""
    from ..registry import get_game
    book = get_game(result.game).rulebook
    diff = differing_options(result.rules_a, result.rules_b)
    pa, pb = list(result.run_a.policies), list(result.run_b.policies)
    labels = []
    for spec, rules, pols in ((getattr(result, "spec_a", ""), result.rules_a, pa),
                              (getattr(result, "spec_b", ""), result.rules_b, pb)):
        spec = (spec or "").strip().strip(";")
        named = _named(spec)
        values = [f"{k}={book.option(k).to_text(rules.values[k])}" for k in diff
                  if k not in named]
        if pa != pb and "policy" not in named:
            values.append(f"policy={policy_text(pols)}")
        if spec:
            label = spec + (f" ({' '.join(values)})" if values else "")
        else:
            label = " ".join(values)
        labels.append(label)
    if not labels[0] and not labels[1]:
        labels = ["A (the same rules and players as B)", "B (the same rules and players as A)"]
    return labels[0], labels[1]


def sides_sentence(result) -> str:
    """One sentence naming A and B by what differs, and what they share."""
    label_a, label_b = side_labels(result)
    diff = differing_options(result.rules_a, result.rules_b)
    pa, pb = list(result.run_a.policies), list(result.run_b.policies)
    shared = []
    if not diff:
        shared.append("the same rules")
    else:
        shared.append("every other option the same")
    if pa == pb:
        shared.append(f"policy={policy_text(pa)} on both")
    return (f"B = {label_b}; A = {label_a}; " + ", ".join(shared)
            + " (full rule sets in compare.json).")


# ----- the verdict -----------------------------------------------------------------
def _row_name(row) -> str:
    if "metric" in row:
        return str(row["metric"])
    if "seat" in row and not pd.isna(row.get("seat")):
        return f"{row['measure']} of seat {int(row['seat'])}"
    if "positions" in row:
        return f"{row['measure']} of {row['policy_a']} -> {row['policy_b']}"
    return str(row.get("measure", ""))


def compare_verdict(result, listed: int = 5) -> list[str]:
    """What a comparison's tests say, in two or three sentences: how many tests
    were run and adjusted together, how many did not apply and why, and the
    verdict as evidence (``evidence that A and B differ (Holm-adjusted p = 0.003)``,
    ``no clear evidence of a difference``), naming the figures that differ."""
    frames = [f for f in (result.table, result.game_table) if f is not None and len(f)]
    rows = [r for f in frames for r in f.to_dict("records")]
    tested = [r for r in rows if "p_holm" in r and not pd.isna(r["p_holm"])]
    skipped: dict[str, int] = {}
    for r in rows:
        t = str(r.get("test", ""))
        if not applies(t):
            reason = t[len(NOT_APPLICABLE):]
            skipped[reason] = skipped.get(reason, 0) + 1
    why = "; ".join(f"{n} {'figure' if n == 1 else 'figures'}: {reason}"
                    for reason, n in skipped.items())
    if not tested:
        text = "No test applies, so there is no verdict on whether A and B differ"
        return [text + (f" ({why})." if why else ".")]
    m = len(tested)
    per_seat = sum(1 for r in tested if "metric" not in r)
    lines = [f"{tests_run(m)} run ({per_seat} per {'policy' if result.shifts else 'seat'}, "
             f"{m - per_seat} game-level), Holm-adjusted together"
             + (f"; {sum(skipped.values())} did not apply ({why})" if skipped else "") + "."]
    best = min(tested, key=lambda r: r["p_holm"])
    if best["p_holm"] < ALPHA:
        hits = sorted((r for r in tested if r["p_holm"] < ALPHA), key=lambda r: r["p_holm"])
        names = ", ".join(f"{_row_name(r)} (p {format_p(r['p_holm'])})" for r in hits[:listed])
        more = f" and {len(hits) - listed} more" if len(hits) > listed else ""
        lines.append(f"Verdict: {evidence_words(best['p_holm'])} that A and B differ "
                     f"(Holm-adjusted p {format_p(best['p_holm'])}, smallest of "
                     f"{tests_run(m)}); {len(hits)} of {m} below 0.05 after adjustment: "
                     f"{names}{more}.")
    else:
        lines.append(f"Verdict: no clear evidence of a difference between A and B "
                     f"(smallest Holm-adjusted p {format_p(best['p_holm'])}, "
                     f"{tests_run(m)}).")
    return lines
