"""Answers that hold under strong play: a comparison's or sweep's verdicts checked with
other players, and how much skill a rule set rewards.

**Checked verdicts** (``--check-with P``).  A comparison (or a sweep: every variant
against the first) is played again with players P in every seat, from the same seed
and game indices (the check's games are the first ``check_games`` deals of the main
run, so both see the same deals).  For every figure the two verdicts are set side by
side: a figure has *clear evidence* of a difference when its test is significant
after the command's Holm adjustment (a comparison), or, where no p-value exists (a
sweep's summaries keep no per-game values), when its 95% interval excludes 0.  The
conclusion is one of: holds (same direction, both clear; larger, smaller or about the
same size), reverses (both clear, opposite directions), vanishes (clear with the
main players only), appears (clear with P only), or no clear evidence under either.

**Skill edge** (``--skill STRONG,WEAK``).  Under each rule set, STRONG sits in one
seat and WEAK in every other, and the run is played once per rotation of that list
on the same deals (``simcore.experiments.rotation``): per deal, STRONG's mean result over the
seats it held minus the WEAK seats' mean is one observation, so deal and seat luck
cancel.  The edge is the mean of those observations with Student's t 95% interval;
two rule sets' edges are paired deal by deal (``sweep.paired_test``).  It measures
one pair of players, not skill in general.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import TricksimError
from ..players import is_user_policy, player_names
from ..registry import get_game
from ..running.settings import RunSettings
from ..statistics.stats import holm, markdown_table, write_csv, write_text
from ..text import counted
from .check_options import CheckOptions
from ..statistics.verdict import policy_text


def default_check_games(games: int) -> int:
    """The check's games when ``--check-games`` is not given: a quarter of the main
    run's (strong players are slower), at least 1,000 and at most all of them."""
    return min(games, max(1000, games // 4))


def check_size(games: int, check_games) -> int:
    """The check's games (``check_games`` or the default), refused when not between 1
    and ``games``: the check replays the main run's first deals."""
    n = default_check_games(games) if check_games is None else check_games
    if not 1 <= n <= games:
        raise TricksimError(f"--check-games {n}: allowed 1 to --games ({games:,}); the check "
                            "replays the first deals of the main run")
    return n


def parse_players(game: str, text: str, rules, option: str) -> list[str]:
    """A ``--check-with`` value: one player for every seat (parameters in its name, e.g.
    ``pimc:worlds=4``), as canonical names for ``rules``; a one-line TricksimError
    for an unknown player."""
    g = get_game(game)
    try:
        names = player_names(g, rules, text)
    except TricksimError as exc:
        raise TricksimError(f"{option} {text}: {exc}") from None
    return names


def parse_skill(game: str, text: str, rules) -> tuple[str, str]:
    """``--skill STRONG,WEAK`` as two canonical player names (a player's parameters go in
    its name: ``pimc:worlds=4,heuristic``); refused unless exactly two different ones."""
    from ..pimc_names import join_pimc_parameters
    g = get_game(game)
    names = join_pimc_parameters([t.strip() for t in text.split(",")],
                                 g.policy_parameter_keys)
    if len(names) != 2:
        raise TricksimError(f"--skill {text}: give two players, STRONG,WEAK (e.g. "
                            "expert,heuristic); players: " + ", ".join(g.policies))
    try:
        canon = [n if is_user_policy(n) else g.policy_name(g.parse_policy(n)) for n in names]
    except ValueError as exc:
        raise TricksimError(f"--skill {text}: {exc}") from None
    if canon[0] == canon[1]:
        raise TricksimError(f"--skill {text}: STRONG and WEAK are the same player; "
                            "the edge of a player over itself is 0")
    for name in canon:                  # fits the rules; a Python player loads
        player_names(g, rules, [name])
    return canon[0], canon[1]


@dataclass(frozen=True)
class CheckPlan:
    """What ``--check-with``, ``--check-games`` and ``--skill`` ask for, checked."""

    #: the check's players (canonical, one per seat), or None: no check
    policies: list[str] | None
    #: deals of the check and of the skill runs (the main run's first ones)
    games: int
    #: (STRONG, WEAK), or None: no skill measure
    skill: tuple[str, str] | None


def plan_checks(game: str, rule_sets, games: int, asked: CheckOptions, *,
                varied_players: bool = False, rotate: bool = False,
                sides_differ: bool = False) -> CheckPlan | None:
    """Check the options of a check and a skill measure (``asked``) against every rule
    set of a comparison or sweep before anything is played; None when neither is asked
    for.  Refused: ``--check-games`` alone, a check of a rotated comparison, of one whose
    sides seat different players, of a sweep that varies the players or of a sweep of
    one variant (the check compares every variant with the first)."""
    check_with, check_games, skill_spec = asked.check_with, asked.check_games, asked.skill_spec
    if check_with is None and skill_spec is None:
        if check_games is not None:
            raise TricksimError("--check-games sets the size of --check-with and --skill "
                                "runs; give one of them too")
        return None
    if check_with is not None:
        why = ("--rotate (a rotated comparison's rows are per player)" if rotate else
               "players that differ between A and B (the check would seat one player on "
               "both)" if sides_differ else
               "--vary policy (the check seats one player in every variant)"
               if varied_players else "")
        if why:
            raise TricksimError(f"--check-with seats one player everywhere; it cannot "
                                f"check a run with {why}")
        if len(rule_sets) < 2:
            raise TricksimError("--check-with in a sweep compares every variant with the "
                                "first; --vary gives one variant")
    policies = None
    for rules in rule_sets:
        if check_with is not None:
            policies = parse_players(game, check_with, rules, "--check-with")
        pair = parse_skill(game, skill_spec, rules) if skill_spec is not None else None
    return CheckPlan(policies, check_size(games, check_games), pair)


# ----- figures and their verdicts ----------------------------------------------------
@dataclass(frozen=True)
class Figure:
    """One difference B - A of a comparison: its name, size, interval and whether it is
    clear evidence (None: no test and no interval)."""

    key: tuple
    name: str
    rate: bool
    unit: str
    diff: float
    low: float
    high: float
    clear: bool | None


def _clear(row) -> bool | None:
    sig = row.get("significant")
    if sig is not None and not (isinstance(sig, float) and math.isnan(sig)):
        return bool(sig)
    low, high = row.get("low"), row.get("high")
    if low is None or high is None or not np.isfinite([low, high]).all():
        return None
    return bool(low > 0 or high < 0)


def figures(result) -> list[Figure]:
    """Every figure of a ``sweep.CompareResult``: per seat and measure, then the
    game-level figures."""
    contract = result.run_a.contract
    out = []
    for row in result.table.to_dict("records"):
        m = contract.measure(row["measure"])
        seat = row.get("seat")
        out.append(Figure(("seat", row["measure"], seat), f"{m.name.replace('_', ' ')} of "
                          f"seat {int(seat)}", m.is_rate, m.unit, row["diff"], row["low"],
                          row["high"], _clear(row)))
    out += game_figures(result.game_table, contract)
    return out


def game_figures(table: pd.DataFrame, contract) -> list[Figure]:
    """The game-level figures of a ``sweep.game_differences`` table."""
    return [Figure(("game", row["metric"]), row["metric"].replace("_", " "),
                   row["metric"] not in contract.mean_metrics, "", row["diff"], row["low"],
                   row["high"], _clear(row))
            for row in table.to_dict("records")]


def amount(f: Figure) -> str:
    """A difference with its interval, in pp for a rate, else in its unit."""
    k, unit = (100.0, " pp") if f.rate else (1.0, f" {f.unit}" if f.unit else "")
    digits = 1 if f.rate else 3
    text = f"{k * f.diff:+.{digits}f}{unit}"
    if np.isfinite([f.low, f.high]).all():
        text += f" [{k * f.low:+.{digits}f}, {k * f.high:+.{digits}f}]"
    return text


def conclusion(main: Figure, check: Figure, check_label: str) -> str:
    """Whether ``main``'s verdict holds under the check's players (see the module doc)."""
    if main.clear is None or check.clear is None:
        return "no verdict: a side has no test (too few games, or the figure is absent)"
    if main.clear and check.clear:
        if np.sign(main.diff) != np.sign(check.diff):
            return "reverses"
        same = (check.low <= main.diff <= check.high) or (main.low <= check.diff <= main.high)
        if same:
            return "holds, about the same size"
        return "holds, larger" if abs(check.diff) > abs(main.diff) else "holds, smaller"
    if main.clear:
        return f"vanishes: no clear evidence under {check_label} play"
    if check.clear:
        return f"appears: evidence under {check_label} play only"
    return "no clear evidence under either"


@dataclass
class CheckResult:
    """The figures of a comparison (or sweep) and of its check, side by side."""

    main_players: str
    check_players: str
    games: int
    check_games: int
    #: one row per figure (and variant, for a sweep): both differences, intervals and
    #: the conclusion (check.csv)
    table: pd.DataFrame
    lines: list[str] = field(default_factory=list)
    #: what one deal of ``games`` is (a game; a match in Schnapsen)
    unit: str = "game"


def _pair(main_figs, check_figs, main_label, check_label, variant="") -> tuple[list, list]:
    rows, lines = [], []
    by_key = {f.key: f for f in check_figs}
    for m in main_figs:
        c = by_key.get(m.key)
        if c is None:
            continue
        verdict = conclusion(m, c, check_label)
        k = 100.0 if m.rate else 1.0
        rows.append({"variant": variant, "figure": m.name, "unit": "pp" if m.rate else m.unit,
                     "main_players": main_label, "main_diff": k * m.diff,
                     "main_low": k * m.low, "main_high": k * m.high, "main_clear": m.clear,
                     "check_players": check_label, "check_diff": k * c.diff,
                     "check_low": k * c.low, "check_high": k * c.high,
                     "check_clear": c.clear, "conclusion": verdict})
        lines.append((f"{variant}: " if variant else "") + f"{m.name} {amount(m)} with "
                     f"{main_label} play, {amount(c)} with {check_label} play: {verdict}")
    return rows, lines


def check_compare(result, check_policies, check_games: int, settings: RunSettings,
                  progress=None) -> CheckResult:
    """Play ``result``'s comparison again with ``check_policies`` in every seat on its
    first ``check_games`` deals (same seed) and set each figure's verdicts side by side."""
    from .sweep import compare
    if result.shifts:
        raise TricksimError("--check-with and --rotate both given; a rotated comparison's "
                            "rows are per player, and the check seats one player everywhere")
    if list(result.run_a.policies) != list(result.run_b.policies):
        raise TricksimError("--check-with seats one player everywhere, but A and B seat "
                            "different players here: the check would compare the rules "
                            "only; compare with the same players on both sides")
    s = settings.replace(games=check_games, seed=result.run_a.seed)
    chk = compare(result.game, result.rules_a, result.rules_b, check_policies, settings=s,
                  progress=progress)
    main_label = policy_text(result.run_a.policies)
    check_label = policy_text(chk.run_a.policies)
    rows, lines = _pair(figures(result), figures(chk), main_label, check_label)
    return CheckResult(main_label, check_label, result.run_a.games, check_games,
                       pd.DataFrame(rows), lines, result.run_a.contract.unit)


def check_sweep(result, check: "SweepResult") -> CheckResult:
    """Set a sweep's game-level differences (every variant against the first) beside
    those of ``check``, the same sweep played with other players on its first deals.
    A sweep keeps only summaries, so these intervals are unpaired (conservative) and
    a figure is clear when its interval excludes 0 (no Holm adjustment)."""
    from .sweep import game_differences
    if len(result.runs) < 2:
        raise TricksimError("--check-with in a sweep compares every variant with the "
                            "first; this sweep has one variant")
    contract = result.runs[0].contract
    main_label = policy_text(result.runs[0].policies)
    check_label = policy_text(check.runs[0].policies)
    rows, lines = [], []
    for i in range(1, len(result.runs)):
        main = game_figures(game_differences(result.game, result.runs[0], result.runs[i]),
                            contract)
        chk = game_figures(game_differences(result.game, check.runs[0], check.runs[i]),
                           contract)
        r, ln = _pair(main, chk, main_label, check_label,
                      f"{result.labels[i]} vs {result.labels[0]}")
        rows += r
        lines += ln
    return CheckResult(main_label, check_label, result.games, check.games,
                       pd.DataFrame(rows), lines, contract.unit)


def check_summary(check: CheckResult, listed_only: bool = True) -> list[str]:
    """The lines a command prints: every figure with clear evidence under either
    players (all of them with ``listed_only`` False), then a count of the rest."""
    if not len(check.table):
        return ["no figure to check"]
    shown = [line for line, row in zip(check.lines, check.table.to_dict("records"))
             if not listed_only or row["main_clear"] or row["check_clear"]]
    head = (f"checked with {check.check_players} play on the first "
            f"{counted(check.check_games, check.unit)} of the same seed (main run: "
            f"{check.main_players} play, {counted(check.games, check.unit)}):")
    if not shown:
        return [head, "no figure has clear evidence of a difference under either players"]
    counts = check.table["conclusion"].map(lambda c: c.split(":")[0].split(",")[0])
    tally = ", ".join(f"{n} {name}" for name, n in counts.value_counts().items())
    rest = len(check.table) - len(shown)
    return [head] + shown + [f"{counted(len(check.table), 'figure')}: {tally}"
                             + (f" ({rest} without clear evidence under either are in "
                                "check.csv)" if rest else "")]


def check_report(check: CheckResult) -> list[str]:
    """The report.md section of a check."""
    return ["## Verdicts checked with " + check.check_players + " play", "",
            f"The same comparison played again with {check.check_players} in every seat on "
            f"the first {counted(check.check_games, check.unit)} of the same seed (the main "
            f"run: {check.main_players}, {counted(check.games, check.unit)}). A figure has clear "
            "evidence when its test is significant after Holm's adjustment or, without a "
            "p-value, when its 95% interval excludes 0. Rates in pp.", "",
            *[f"- {line}" for line in check.lines], "",
            markdown_table(check.table), ""]


# ----- skill edge ----------------------------------------------------------------------
def edge_measure(contract):
    """The seat measure the skill edge is counted in: the first with per-game values
    (the win in Schadenfreude and Schnapsen, the score per game in Wendish)."""
    for m in contract.measures:
        if m.per_game is not None:
            return m
    raise TricksimError(f"{contract.game} declares no per-game seat measure")


def skill_edges(game: str, rules, pair: tuple[str, str], settings: RunSettings,
                executor, progress=None, offset: int = 0, total=None) -> np.ndarray:
    """Per deal, ``strong``'s result minus the ``weak`` seats' mean under ``rules``
    (``pair``: (strong, weak)): ``strong`` in one seat and ``weak`` in every other,
    played once per rotation of that list on the same deals (seed and games of
    ``settings``), each player's result its mean over the seats it held (see the
    module doc)."""
    from .rotation import group_per_game, play_rotations, rotations, shifted
    g = get_game(game)
    n = g.seats(rules)
    strong, weak = pair
    names = player_names(g, rules, [strong] + [weak] * (n - 1))
    shifts = rotations(names)
    runs = play_rotations(game, rules, names, shifts, settings.replace(summary_only=False),
                          executor, progress=shifted(progress, offset, total))
    m = edge_measure(runs[0].contract).name
    return (group_per_game(runs, shifts, [0])[m]
            - group_per_game(runs, shifts, list(range(1, n)))[m])


@dataclass
class SkillResult:
    """Per rule set the edge of STRONG over WEAK; each rule set's edge minus the first's."""

    strong: str
    weak: str
    games: int
    measure: str
    rate: bool
    unit: str
    #: one row per rule set: edge, interval, p-value; then its difference from the first
    table: pd.DataFrame
    #: what one of ``games`` is (a game; a match in Schnapsen)
    played: str = "game"


def skill(game: str, rule_sets: dict, strong: str, weak: str, settings: RunSettings,
          progress=None, executor=None) -> SkillResult:
    """The skill edge of ``strong`` over ``weak`` under every rule set of ``rule_sets``
    ({label: RuleSet}, the first the baseline) on the same deals, and each later rule
    set's edge minus the first's, paired deal by deal (Holm-adjusted across them).
    ``executor``: an open one to play on (a batch's), else one is opened for it."""
    from contextlib import nullcontext
    from ..running.cluster import open_executor
    from ..statistics.stats import paired_test
    g = get_game(game)
    first = next(iter(rule_sets.values()))
    m = edge_measure(g.contract(first))
    total = settings.games * sum(len(set_rotations(g, r, strong, weak))
                                 for r in rule_sets.values())
    edges, done = {}, 0
    with nullcontext(executor) if executor is not None else open_executor(settings) as ex:
        for label, rules in rule_sets.items():
            edges[label] = skill_edges(game, rules, (strong, weak), settings, ex, progress,
                                       offset=done, total=total)
            done += settings.games * len(set_rotations(g, rules, strong, weak))
    labels = list(edges)
    base = edges[labels[0]]
    rows = []
    for label in labels:
        e = edges[label]
        low, high, p = paired_test(np.zeros_like(e), e)
        d_low, d_high, d_p = paired_test(base, e) if label != labels[0] \
            else (math.nan, math.nan, math.nan)
        rows.append({"rules": label, "strong": strong, "weak": weak, "measure": m.name,
                     "edge": float(e.mean()), "low": low, "high": high, "p_value": p,
                     "diff_vs_first": float((e - base).mean()) if label != labels[0]
                     else math.nan,
                     "diff_low": d_low, "diff_high": d_high, "diff_p": d_p})
    table = pd.DataFrame(rows)
    table["diff_p_holm"] = holm(list(table["diff_p"]))
    return SkillResult(strong, weak, settings.games, m.name, m.is_rate, m.unit, table,
                       g.contract(first).unit)


def set_rotations(g, rules, strong, weak) -> list[int]:
    """The rotations a skill run of ``strong`` and ``weak`` plays under ``rules``."""
    from .rotation import rotations
    names = player_names(g, rules, [strong] + [weak] * (g.seats(rules) - 1))
    return rotations(names)


def _edge_text(res: SkillResult, value, low, high) -> str:
    k, unit, digits = (100.0, " pp", 1) if res.rate else (1.0, f" {res.unit}".rstrip(), 3)
    text = f"{k * value:+.{digits}f}{unit}"
    if np.isfinite([low, high]).all():
        text += f" [{k * low:+.{digits}f}, {k * high:+.{digits}f}]"
    return text


def skill_lines(res: SkillResult) -> list[str]:
    """One line per rule set (its edge) and per later rule set (its difference from the
    first), worded as evidence."""
    from ..statistics.stats import evidence_words, format_p
    what = (f"{res.measure} rate" if res.rate else res.measure)
    lines = [f"skill edge of {res.strong} over {res.weak} ({what} of {res.strong} minus the "
             f"{res.weak} seats' mean, seats rotated, {counted(res.games, res.played)} each):"]
    rows = res.table.to_dict("records")
    for r in rows:
        lines.append(f"  {r['rules']}: {_edge_text(res, r['edge'], r['low'], r['high'])}")
    for r in rows[1:]:
        p = r["diff_p_holm"]
        words = ("no test (too few deals)" if math.isnan(p) else
                 (f"{evidence_words(p)} that the edge differs" if p < 0.05 else
                  "no clear evidence that the edge differs")
                 + f" (Holm-adjusted p {format_p(p)})")
        lines.append(f"  {r['rules']} minus {rows[0]['rules']}: "
                     f"{_edge_text(res, r['diff_vs_first'], r['diff_low'], r['diff_high'])}"
                     f"; {words}")
    return lines


def skill_report(res: SkillResult) -> list[str]:
    """The report.md section of a skill measurement."""
    return ["## How much skill each rule set rewards", "",
            f"The edge of {res.strong} over {res.weak}: {res.strong} in one seat, "
            f"{res.weak} in the others, played once per rotation on the same deals; per "
            f"deal {res.strong}'s result minus the {res.weak} seats' mean is one observation "
            "(Student's t 95% interval); rule sets are paired deal by deal, Holm-adjusted. "
            "It measures this pair of players only (docs/sweeps.md).", "",
            "```", *skill_lines(res), "```", "", markdown_table(res.table), ""]


def add_to_report(out, sections: list[str]) -> None:
    """Append sections to the report.md the command just wrote in ``out`` (rewritten
    whole: temp file, then rename)."""
    path = Path(out) / "report.md"
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + "\n".join(sections)
    write_text(text, path)


def write_check(check: CheckResult | None, skill_res: SkillResult | None, out) -> list[str]:
    """Write check.csv and skill.csv (those given) into ``out``, a comparison's or
    sweep's folder, and add their sections to its report.md; the files' names."""
    from ..folders import own
    files, sections = [], []
    with own(out, _kind(out)):
        for name, made in (("check.csv", check), ("skill.csv", skill_res)):
            if made is None and (Path(out) / name).is_file():    # an older run's: stale
                (Path(out) / name).unlink()
        if check is not None:
            write_csv(check.table, Path(out) / "check.csv")
            files.append("check.csv")
            sections += check_report(check)
        if skill_res is not None:
            write_csv(skill_res.table, Path(out) / "skill.csv")
            files.append("skill.csv")
            sections += skill_report(skill_res)
        if sections:
            add_to_report(out, sections)
    return files


def _kind(out) -> str:
    return "sweep" if (Path(out) / "sweep.json").exists() else "compare"


def run_checks(plan: CheckPlan | None, out, *, result=None, rule_sets=None, replay=None,
               settings: RunSettings, progress=None, executor=None) -> list[str]:
    """Play what ``plan`` asks for after a comparison (``result``) or a sweep
    (``replay``: a function playing the sweep again with given players and settings;
    ``result`` is then the sweep's), write check.csv, skill.csv and their report
    sections into ``out``; the lines to print.  ``plan`` None: only removes the
    check.csv and skill.csv an earlier run left in ``out``.  ``rule_sets``: {label: RuleSet} of the
    skill measure; ``executor``: an open one the skill runs play on (else their own)."""
    from .sweep import CompareResult
    lines, check, skill_res = [], None, None
    if plan is None:                    # nothing asked: only an older run's files go
        write_check(None, None, out)
        return lines
    seed = result.run_a.seed if isinstance(result, CompareResult) else result.seed
    s = settings.replace(games=plan.games, seed=seed)
    if plan.policies is not None:
        if isinstance(result, CompareResult):
            check = check_compare(result, plan.policies, plan.games, s, progress)
        else:
            check = check_sweep(result, replay(plan.policies, s))
        lines += check_summary(check)
    if plan.skill is not None:
        skill_res = skill(result.game, rule_sets, *plan.skill, s, progress, executor)
        lines += skill_lines(skill_res)
    write_check(check, skill_res, out)
    return lines
