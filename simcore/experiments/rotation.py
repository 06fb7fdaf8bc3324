"""Seat rotation: every policy plays every seat on the same deals.

A rotated run plays the same games (game index i, randomness from (seed, i))
once per rotation of the policy list: in rotation r the policy at position j of
the list sits at seat (j + r) mod n (Schnapsen: the two players swap seats for
the whole match; Wendish: every seat, since partnerships are secret and change
per deal).  Each rotation is an ordinary run of the runner with the same seed,
so rotations work with threads, checkpoints/resume, ``--summary-only`` and
Dask as any run does.  Rotations that give the same policy list (a list of one
repeated policy, or a periodic one) are played once: the remaining ones still
weigh every seat equally.

Per policy (positions of the list holding it), the per-game value of a seat
measure is its mean over the rotations and over the seats that policy held:
one observation per deal, which pairs the policies deal by deal.  Intervals
and differences use those per-deal observations (Student's t; the difference
of two policies is a paired t test).  A summary-only run keeps no per-game
values: its per-policy figures come from the summaries exactly, but their
intervals cannot be paired; they are then the conservative bound (the mean of
the seats' half-widths, which holds whatever the correlation between seats),
and say so.
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
from scipy import stats as _st

from ..errors import TricksimError
from ..registry import get_game
from ..players import play_run, seat_names, seats_of, uses_python
from ..running.runner import RunResult
from ..running.settings import UNSET, RunSettings, settings_from
from ..running.checkpoint import recorded_seed
from ..statistics.stats import MIN_PAIRED_GAMES, paired_test
from ..text import counted
from ..statistics.verdict import NOT_PAIRED, adjust_family, paired_kind

#: how an interval was made (the ``interval`` column)
PAIRED = "paired"
UNPAIRED = "unpaired, conservative"


def rotations(*lists) -> list[int]:
    """The rotations r (0 .. n-1) to play for one or more policy lists of n seats:
    every r whose rotated lists differ from those of an earlier r."""
    n = len(lists[0])
    seen, keep = set(), []
    for r in range(n):
        key = tuple(tuple(rotate(pols, r)) for pols in lists)
        if key not in seen:
            seen.add(key)
            keep.append(r)
    return keep


def rotate(policies, r: int) -> list[str]:
    """The policy list of rotation ``r``: position j of ``policies`` at seat (j + r) mod n."""
    n = len(policies)
    return [policies[(s - r) % n] for s in range(n)]


@dataclass
class RotatedRun:
    """A rotated run: the policy list, the rotations played and one run per rotation."""

    game: str
    policies: list[str]
    shifts: list[int]
    runs: list[RunResult]
    #: per policy and measure: value, interval and how it was made (see module doc)
    table: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: every later policy against the first: paired difference and interval
    differences: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: how many of the differences were tested (Holm-adjusted together: ``p_holm``)
    tests: int = 0

    @property
    def seed(self) -> int:
        return self.runs[0].seed

    @property
    def games(self) -> int:
        return self.runs[0].games

    @property
    def paired(self) -> bool:
        """Whether every rotation kept its per-game tables (intervals paired)."""
        return all(run.tables for run in self.runs)


def policy_groups(keys) -> dict:
    """Positions of the list per distinct key, in order of first appearance."""
    groups: dict = {}
    for j, key in enumerate(keys):
        groups.setdefault(key, []).append(j)
    return groups


def group_per_game(runs, shifts, positions) -> dict[str, np.ndarray]:
    """Per game, the mean over the rotations and the given list positions of every
    per-game seat measure of the runs' ``games`` tables: one value per deal."""
    contract = runs[0].contract
    n = contract.seats
    per = [contract.per_game(run.tables["games"]) for run in runs]
    out = {}
    for name in per[0]:
        cols = [per[k][name][:, (j + r) % n] for k, r in enumerate(shifts) for j in positions]
        out[name] = np.mean(cols, axis=0)
    return out


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high): Student's t 95% interval of the mean of ``x`` (NaN below 2)."""
    n = len(x)
    mean = float(x.mean())
    if n < 2:
        return mean, math.nan, math.nan
    se = float(x.std(ddof=1)) / math.sqrt(n)
    half = float(_st.t.ppf(0.975, n - 1)) * se
    return mean, mean - half, mean + half


def summarize_rotated(rot: RotatedRun) -> None:
    """Fill ``rot.table`` (per policy) and ``rot.differences`` (each later policy
    minus the first, paired by deal), from the tables, or from the summaries
    (conservative, unpaired) when the runs kept none."""
    contract = rot.runs[0].contract
    groups = policy_groups(rot.policies)
    rows, diffs = [], []
    names = list(groups)
    if rot.paired:
        values = {p: group_per_game(rot.runs, rot.shifts, pos) for p, pos in groups.items()}
        for m in contract.measures:
            if m.per_game is None:
                continue
            for p, pos in groups.items():
                mean, lo, hi = mean_interval(values[p][m.name])
                if rot.games < MIN_PAIRED_GAMES:
                    lo = hi = math.nan
                rows.append(_row(m, p, pos, mean, lo, hi, PAIRED))
            for p in names[1:]:
                xa, xb = values[names[0]][m.name], values[p][m.name]
                lo, hi, pv = paired_test(xa, xb)
                diffs.append(_diff(m, p, names[0], (float((xb - xa).mean()), lo, hi), pv,
                                   PAIRED, paired_kind(xa, xb, contract.unit)
                                   .replace("A and B", f"{p} and {names[0]}")))
    else:
        n = contract.seats
        for m in contract.measures:
            if not (m.column and m.low and m.high):
                continue
            est = {}
            for p, pos in groups.items():
                v, h = [], []
                for run, r in zip(rot.runs, rot.shifts):
                    seats = run.summary["seats"]
                    for j in pos:
                        s = (j + r) % n
                        v.append(float(seats[m.column].iloc[s]))
                        h.append((float(seats[m.high].iloc[s]) - float(seats[m.low].iloc[s]))
                                 / 2)
                est[p] = (float(np.mean(v)), float(np.mean(h)))
                mean, half = est[p]
                rows.append(_row(m, p, pos, mean, mean - half, mean + half, UNPAIRED))
            for p in names[1:]:
                d = est[p][0] - est[names[0]][0]
                half = est[p][1] + est[names[0]][1]
                diffs.append(_diff(m, p, names[0], (d, d - half, d + half), math.nan,
                                   UNPAIRED, NOT_PAIRED))
    rot.table = pd.DataFrame(rows)
    rot.differences = pd.DataFrame(diffs)
    rot.tests = adjust_family(rot.differences) if len(rot.differences) else 0


def _row(m, policy, positions, mean, lo, hi, kind) -> dict:
    return {"measure": m.name, "policy": policy,
            "positions": ",".join(map(str, positions)), "value": mean, "low": lo,
            "high": hi, "unit": "rate" if m.is_rate else m.unit, "interval": kind}


def _diff(m, policy, versus, interval, pvalue, kind, test) -> dict:
    """A row of the differences: ``interval`` is (difference, low, high)."""
    d, lo, hi = interval
    significant = None if math.isnan(pvalue) else bool(pvalue < 0.05)
    return {"measure": m.name, "policy": policy, "versus": versus, "diff": d, "low": lo,
            "high": hi, "diff_pp": 100 * d if m.is_rate else math.nan,
            "unit": "pp" if m.is_rate else m.unit, "p_value": pvalue,
            "significant": significant, "interval": kind, "test": test}


def shifted(progress, offset: int, total: int | None):
    """``progress`` for a part of a longer job: a call ``(done, part)`` reports
    ``(offset + done, total)`` (``total`` None: the part's own; None stays None)."""
    if progress is None:
        return None
    return lambda done, part: progress(offset + done, part if total is None else total)


def play_rotations(game: str, rules, policies, shifts, settings: RunSettings, executor, *,
                   progress=None, out=None) -> list[RunResult]:
    """One run per rotation in ``shifts`` (same seed, same games), each checkpointed
    in ``out/rotations/rN/`` when ``out`` is given, all on the open ``executor``;
    ``progress(done, total)`` counts the games of all of them (see ``shifted`` for a
    part of a longer job)."""
    g = get_game(game)
    total = settings.games * len(shifts)
    runs = []
    played: dict[tuple, RunResult] = {}
    for k, r in enumerate(shifts):
        pols = rotate(policies, r)
        done = k * settings.games
        if tuple(pols) in played:       # the same list again (one side of a compare):
            runs.append(played[tuple(pols)])    # the same games, played once
            if progress:
                progress(done + settings.games, total)
            continue

        def step(d, _t, done=done):
            if progress:
                progress(done + d, total)

        folder = None if out is None else Path(out) / "rotations" / f"r{r}"
        if executor.description.get("executor") != "dask" and not uses_python(pols):
            g.run_chunk(rules, g.policy_ids(pols, rules)[1], settings.seed, 0, 1,
                        summary_only=settings.summary_only)
        runs.append(play_run(game, rules, pols, settings, step, f"rotation {r}",
                             out=folder, executor=executor))
        played[tuple(pols)] = runs[-1]
    return runs


def simulate_rotated(game: str, rules=None, policies=None, games=UNSET, seed=UNSET, *,
                     settings: RunSettings | None = None,
                     progress: Callable[[int, int], None] | None = None, out=None,
                     client=None, executor=None, **options) -> RotatedRun:
    """Play the same games once per rotation of ``policies`` (every policy at every
    seat) and report per policy (see the module doc).

    Arguments as for :func:`simcore.simulate`; ``out``: a folder whose
    ``rotations/rN/`` subfolders are the rotations' run folders (each resumable; with a
    Python player in the list every rotation is played game by game in this thread, with
    the per-decision seeds of ``simulate``, and written whole, not resumed).
    The policy list must name at least two different policies.
    """
    from ..bits import seed_from_entropy
    g = get_game(game)
    if rules is None:
        rules = g.build_rules()
    seats = seats_of(g, rules, policies)         # a Python player: played game by game
    names = seat_names(seats)
    if len(set(names)) < 2:
        raise TricksimError(f"--rotate needs at least two different policies in --policy "
                            f"(got {','.join(names)}): with one policy every seat already "
                            "plays it")
    s = settings_from(settings, games=games, seed=seed, **options)
    seed = s.seed
    if seed is None and out is not None and s.resume:
        seed = recorded_seed(Path(out) / "rotations")
    s = s.replace(seed=seed_from_entropy() if seed is None else seed)
    shifts = rotations(names)
    from ..folders import own
    from ..running.cluster import open_executor
    opened = contextlib.nullcontext(executor) if executor is not None \
        else open_executor(s, client)
    with contextlib.nullcontext() if out is None else own(out, "rotation"), opened as ex:
        runs = play_rotations(game, rules, seats, shifts, s, ex, progress=progress, out=out)
    rot = RotatedRun(game, names, shifts, runs)
    summarize_rotated(rot)
    return rot


def rotation_note(rot: RotatedRun) -> str:
    """What the rotated figures are, and whether their intervals are paired."""
    unit = rot.runs[0].contract.unit
    text = (f"{counted(len(rot.shifts), 'rotation')} of the policy "
            f"list on the same {counted(rot.games, unit)} (seed {rot.seed}): every policy plays "
            f"every seat. A policy's figure is its mean over the rotations and the seats it "
            f"held; rates' differences in pp.")
    if rot.paired:
        text += (f" Intervals are paired: each {unit}'s mean over its rotations is one "
                 "observation (Student's t; differences: paired t test).")
    else:
        text += (" Intervals are NOT paired: --summary-only keeps no per-game values, so "
                 "they are the conservative bound (the mean of the seats' half-widths; a "
                 "difference adds both), wider than a paired interval, with no p-value.")
    return text + " " + rotation_verdict(rot)


def rotation_verdict(rot: RotatedRun) -> str:
    """How many differences were tested (Holm-adjusted together) and what they say,
    worded as evidence (see ``simcore.statistics.verdict``)."""
    from ..statistics.stats import ALPHA, evidence_words, format_p, tests_run
    d = rot.differences
    if not rot.tests:
        why = ""
        if len(d) and "test" in d:
            why = "; ".join(sorted({t.split(": ", 1)[-1] for t in d["test"]}))
        return ("No test of the differences applies" + (f" ({why})" if why else "")
                + ", so there is no verdict on whether the policies differ.")
    tested = d[d["p_holm"].notna()]
    best = tested.loc[tested["p_holm"].idxmin()]
    head = (f"{tests_run(rot.tests)} of the differences, Holm-adjusted together"
            + (f" ({len(d) - rot.tests} did not apply)" if len(d) > rot.tests else "") + ": ")
    if best["p_holm"] < ALPHA:
        hits = tested[tested["p_holm"] < ALPHA].sort_values("p_holm")
        names = ", ".join(f"{r.measure} of {r.policy} (p {format_p(r.p_holm)})"
                          for r in hits.itertuples())
        return (head + f"{evidence_words(best['p_holm'])} that the policies differ "
                f"(Holm-adjusted p {format_p(best['p_holm'])}): {names}.")
    return (head + "no clear evidence of a difference between the policies (smallest "
            f"Holm-adjusted p {format_p(best['p_holm'])}).")


def write_rotated(rot: RotatedRun, out, command: str = "") -> list[Path]:
    """Write ``rotation.csv`` (per policy), ``rotation_diff.csv`` (differences),
    ``rotation.json`` (command, seed, games, policies, rotations) and ``report.md``
    into ``out`` (beside the rotations' run folders); ``out`` must be new, empty or
    a rotated run's folder (see ``simcore.folders``)."""
    from ..folders import own
    with own(out, "rotation"):
        return _write_rotated(rot, Path(out), command)


def _write_rotated(rot: RotatedRun, out: Path, command: str) -> list[Path]:
    from ..statistics.stats import markdown_table, write_csv, write_json, write_text
    write_csv(rot.table, out / "rotation.csv")
    write_csv(rot.differences, out / "rotation_diff.csv")
    write_json({"format": "tricksim-rotation", "status": "complete", "game": rot.game,
                "command": command,
                "seed": rot.seed, "games": rot.games, "policies": rot.policies,
                "rules": rot.runs[0].rules.to_dict(),
                "rules_canonical": rot.runs[0].rules.canonical(),
                "rotations": [{"shift": r, "policies": run.policies,
                               "folder": f"rotations/r{r}"}
                              for r, run in zip(rot.shifts, rot.runs)]},
               out / "rotation.json")
    lines = [f"# Rotated run of {rot.game}: {', '.join(rot.policies)}", "",
             f"Rules `{rot.runs[0].rules.canonical()}`.", ""]
    if command:
        lines += ["```", command, "```", ""]
    lines += [rotation_note(rot), "", "## Per policy", "", markdown_table(rot.table), "",
              f"## Differences (policy - {rot.policies[0]})", "",
              markdown_table(rot.differences), "",
              "Each rotation's run folder (summary.csv, run.json, tables) is in "
              "`rotations/rN/`.", ""]
    write_text("\n".join(lines), out / "report.md")
    return [out / "rotation.csv", out / "rotation_diff.csv", out / "rotation.json",
            out / "report.md"]
