"""Batch plans: a TOML list of runs, played one after another, resumable, gathered.

A plan::

    # optional: where the chunks run (the command line's --scheduler/--workers win)
    [cluster]
    workers = 2                      # or: scheduler = "tcp://10.0.0.5:8786"

    [defaults]                       # optional: options every run starts from
    games = 100000
    seed = 1

    [[run]]
    name = "four-heuristic"          # folder name (default run-1, run-2, ...)
    game = "schadenfreude"           # command = "simulate" is the default
    players = 4
    policy = "heuristic,random,random,random"   # or a list of names

    [[run]]
    name = "limits"
    command = "sweep"
    game = "schadenfreude"
    vary = ["limit=30,40,50"]

Options of a run are those of the command (``players``, ``preset``, ``rules``
(a TOML file, relative to the plan), ``set`` (list of NAME=VALUE), ``policy``,
``games``, ``seed``, ``chunk_size``, ``summary_only``; sweeps also ``vary`` and the
checks of ``tricksim sweep``: ``check_with`` (a player), ``check_games`` and
``skill`` ("STRONG,WEAK" or a list of two names), see ``simcore.experiments.check``)::

    [[run]]
    name = "close-limits"
    command = "sweep"
    game = "schnapsen"
    vary = ["close_min_talon=2,4"]
    policy = "heuristic"
    check_with = "expert"            # every variant again with expert play, same deals
    skill = ["expert", "heuristic"]  # the expert's edge over the heuristic per variant

``policy`` may seat your own Python player (``"mybots:Greedy,heuristic"``,
docs/players-api.md): that run is played game by game in this process with the
per-decision seeds of ``tricksim simulate``, never on a cluster (refused before any run
plays), its folder written whole once played; an interrupted one starts over.

Each run gets ``OUT/<name>/``; a simulate run is checkpointed chunk by chunk
there, so an interrupted batch, started again with the same plan, skips the
finished runs (``batch.json`` lists them with their settings), resumes the
unfinished one where it stopped and plays the rest.  A run's seed, when the
plan gives none, is drawn once and kept in ``batch.json`` so that a resumed
batch plays the same games.  The runs' summaries are gathered into one tidy
table, ``batch.parquet`` and ``batch.csv``: one row per summary row (a
simulate run's ``summary.csv``, a sweep's ``sweep.csv``), led by ``run``,
``command``, ``game`` and ``seed``; a sweep's checks add its ``check.csv`` rows
(section ``check``) and ``skill.csv`` rows (section ``skill``).  ``batch.json``
names every run's players (``players``, per seat; a sweep's per variant; for a
sweep with checks also ``check_with``, ``skill`` and ``check_games``).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import pandas as pd

from ..bits import seed_from_entropy
from ..errors import TricksimError
from ..options import INT64_MAX, read_toml, shown
from ..players import check_local, play_run, player_names, uses_python
from ..registry import game_names, get_game
from ..running.runner import MAX_CHUNK, MAX_SEED
from ..running.settings import RunSettings, settings_from
from ..statistics.stats import write_csv, write_json, write_parquet

if TYPE_CHECKING:
    from .check import CheckPlan

COMMANDS = ("simulate", "sweep")
RUN_KEYS = {
    "simulate": {"name", "command", "game", "players", "preset", "rules", "set", "policy",
                 "games", "seed", "chunk_size", "summary_only"},
    "sweep": {"name", "command", "game", "players", "preset", "rules", "set", "policy",
              "games", "seed", "chunk_size", "vary", "check_with", "check_games", "skill"},
}
#: games of a run whose plan gives none
DEFAULT_GAMES = 10_000
CLUSTER_KEYS = {"scheduler", "workers"}
STATE = "batch.json"
#: the files a batch writes in its folder, which no run's folder may take
OWN_FILES = (STATE, "batch.parquet", "batch.csv")
#: integer run options and their ranges: (low, high, what is allowed)
INT_RANGES = {
    "games": (1, INT64_MAX, "a positive integer"),
    "seed": (0, MAX_SEED, f"0 to {MAX_SEED}"),
    "chunk_size": (1, MAX_CHUNK, f"a positive integer, at most {MAX_CHUNK}"),
    "players": (1, INT64_MAX, "a positive integer"),
    "check_games": (1, INT64_MAX, "a positive integer, at most the run's games"),
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass
class BatchRun:
    """One run of a plan, its options checked."""

    name: str
    command: str
    game: str
    options: dict
    #: a sweep's checks (``check_with``, ``check_games``, ``skill``), or None
    checks: "CheckPlan | None" = None
    #: the players, one name per seat (a sweep: one such list per variant)
    seats: list = field(default_factory=list)

    def spec(self) -> dict:
        """The run's settings as compared when a batch is resumed."""
        return {"command": self.command, "game": self.game, **self.options}


@dataclass
class BatchPlan:
    """A parsed plan: its runs and cluster settings."""

    path: Path
    runs: list[BatchRun]
    cluster: dict = field(default_factory=dict)


def _join_names(opts, key, path, error):
    """A list of player names under ``key`` joined as the command line writes them
    (``a,b``); a name stays; anything else fails with ``error``."""
    if key not in opts:
        return
    v = opts[key]
    if isinstance(v, list) and all(isinstance(s, str) for s in v):
        opts[key] = ",".join(v)
    elif not isinstance(v, str):
        _fail(path, error)


def _fail(path, msg):
    raise TricksimError(f"batch plan '{path}': {msg}")


def load_plan(path) -> BatchPlan:
    """Read and check a plan; a TricksimError names the first problem in one line."""
    path = Path(path)
    data = read_toml(path, "batch plan", TricksimError)
    unknown = set(data) - {"run", "defaults", "cluster"}
    if unknown:
        _fail(path, f"unknown table(s) {', '.join(sorted(unknown))}; allowed: run, defaults, "
                    "cluster")
    cluster = data.get("cluster", {})
    if not isinstance(cluster, dict) or set(cluster) - CLUSTER_KEYS:
        _fail(path, "[cluster] takes scheduler = \"ADDRESS\" or workers = N")
    if "scheduler" in cluster and not isinstance(cluster["scheduler"], str):
        _fail(path, "[cluster] scheduler must be a string like \"tcp://host:8786\"")
    if "workers" in cluster and (not isinstance(cluster["workers"], int)
                                 or isinstance(cluster["workers"], bool)
                                 or cluster["workers"] < 1):
        _fail(path, "[cluster] workers must be a positive integer")
    if "workers" in cluster:
        from ..running.cluster import check_workers
        try:
            check_workers(cluster["workers"], "[cluster] workers =")
        except TricksimError as exc:
            _fail(path, str(exc))
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        _fail(path, "[defaults] must be a table of run options")
    runs_raw = data.get("run")
    if not isinstance(runs_raw, list) or not runs_raw:
        _fail(path, "no runs: add one or more [[run]] tables")
    runs, names = [], set()
    for i, raw in enumerate(runs_raw, 1):
        if not isinstance(raw, dict):
            _fail(path, f"run {i} is not a table")
        merged = {**defaults, **raw}
        runs.append(_check_run(path, i, merged, names))
    return BatchPlan(path, runs, dict(cluster))


def _check_run(path, i, raw: dict, names: set) -> BatchRun:
    command = raw.get("command", "simulate")
    if command not in COMMANDS:
        _fail(path, f"run {i}: unknown command '{command}'; allowed: {', '.join(COMMANDS)}")
    name = raw.get("name", f"run-{i}")
    _check_name(path, i, name, names)
    unknown = set(raw) - RUN_KEYS[command]
    if unknown:
        _fail(path, f"run '{name}': unknown option(s) {', '.join(sorted(unknown))} for "
                    f"{command}; allowed: {', '.join(sorted(RUN_KEYS[command] - {'command'}))}")
    game = raw.get("game")
    if game not in game_names():
        _fail(path, f"run '{name}': game must be one of {', '.join(game_names())}, "
                    f"got {game!r}")
    opts = {k: v for k, v in raw.items() if k not in ("name", "command", "game")}
    for key, (lo, hi, what) in INT_RANGES.items():
        if key in opts:
            v = opts[key]
            if not isinstance(v, int) or isinstance(v, bool):
                _fail(path, f"run '{name}': {key} must be an integer")
            if not lo <= v <= hi:
                _fail(path, f"run '{name}': {key} = {shown(v)} is not allowed; allowed: {what}")
    for key, v in opts.items():
        for text in (v if isinstance(v, list) else [v]):
            if isinstance(text, str) and _CONTROL.search(text):
                _fail(path, f"run '{name}': {key} contains a control character "
                            f"(U+{ord(_CONTROL.search(text).group()):04X}); allowed: "
                            "printable text")
    if "summary_only" in opts and not isinstance(opts["summary_only"], bool):
        _fail(path, f"run '{name}': summary_only must be true or false")
    for key in ("set", "vary"):
        if key in opts:
            v = opts[key]
            if isinstance(v, str):
                opts[key] = v = [v]
            if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
                _fail(path, f"run '{name}': {key} must be a list of \"NAME=VALUE\" strings")
    _join_names(opts, "policy", path, f"run '{name}': policy must be a name or a list of "
                "names")
    for key in ("preset", "rules", "check_with"):
        if key in opts and not isinstance(opts[key], str):
            _fail(path, f"run '{name}': {key} must be a string")
    _join_names(opts, "skill", path, f"run '{name}': skill must be \"STRONG,WEAK\" or a list "
                "of two player names")
    if "rules" in opts:
        opts["rules"] = str((Path(path).parent / opts["rules"]).resolve())
    if command == "sweep" and not opts.get("vary"):
        _fail(path, f"run '{name}': a sweep needs vary = [\"NAME=V1,V2,...\"]")
    # build the rules (every variant of a sweep) now, so a bad option fails before
    # any run starts
    g = get_game(game)
    policies = run_policies(command, game, opts)
    checks = None
    try:
        if command == "simulate":
            rules = g.build_rules(opts.get("preset"), opts.get("rules"), opts.get("set", ()),
                                  opts.get("players"))
            seats = player_names(g, rules, policies)
        else:
            from .check import CheckOptions, plan_checks
            from .sweep import POLICY
            built = _variants(game, opts, policies)
            seats = [player_names(g, rules, list(assign[POLICY]) if POLICY in assign
                                  else policies) for assign, rules in built]
            checks = plan_checks(game, [rules for _, rules in built],
                                 opts.get("games", DEFAULT_GAMES),
                                 CheckOptions(opts.get("check_with"), opts.get("check_games"),
                                              opts.get("skill")), varied_players=policies is None)
    except TricksimError as exc:
        _fail(path, f"run '{name}': {exc}")
    return BatchRun(name, command, game, opts, checks, list(seats))


def _variants(game: str, opts: dict, policies):
    """A sweep run's variants as ``sweep.build_variants`` builds them."""
    from .sweep import build_variants, parse_vary
    return build_variants(game, parse_vary(game, opts["vary"]), opts.get("preset"),
                          opts.get("rules"), opts.get("set", ()), opts.get("players"),
                          policies)


def _check_name(path, i, name, names: set) -> None:
    """A run's name must be a plain folder name of its own: no path separator, no
    control character, not hidden, not one of the batch's own files, and not the
    name of another run (letter case aside, for case-insensitive disks)."""
    if not isinstance(name, str):
        _fail(path, f"run {i}: name must be a string, got {shown(name)}")
    quoted = shown(name)
    if _CONTROL.search(name):
        _fail(path, f"run {i}: name {quoted} contains a control character "
                    f"(U+{ord(_CONTROL.search(name).group()):04X}); allowed: a plain folder "
                    "name")
    if (not name.strip() or "/" in name or "\\" in name or name.startswith(".")
            or len(name.encode("utf-8")) > 255):
        _fail(path, f"run {i}: name {quoted} is not allowed; allowed: a plain folder name "
                    "(no / or \\, not starting with '.', at most 255 bytes)")
    if name.casefold() in OWN_FILES:
        _fail(path, f"run {i}: name {quoted} is not allowed; it would collide with the "
                    f"batch's own file {name.casefold()} (names not allowed: "
                    f"{', '.join(sorted(OWN_FILES))})")
    if name.casefold() in names:
        _fail(path, f"run {i}: name {quoted} is used twice (run names must differ in more "
                    "than letter case)")
    names.add(name.casefold())


@dataclass
class BatchResult:
    """The gathered table and each run's folder and status."""

    table: pd.DataFrame
    folders: dict[str, Path]
    played: list[str]
    skipped: list[str]
    #: per run played with checks, the lines its checks print (``simcore.experiments.check``)
    checks: dict[str, list[str]] = field(default_factory=dict)


def run_batch(plan: BatchPlan, out, settings: RunSettings | None = None,
              progress: Callable[[str, int, int], None] | None = None, client=None,
              **options) -> BatchResult:
    """Play the plan's runs one after another into ``out``; gather their summaries.

    ``settings`` (a ``RunSettings``, or its fields as keyword arguments): where
    the runs play (``threads``, or a Dask cluster: ``scheduler``, ``workers``,
    ``dashboard``, ``connect_timeout``; without either the plan's ``[cluster]``
    table is used) and whether unfinished runs resume; each run's games, seed,
    chunk size and summary-only come from the plan. The chunks of every run
    go to one executor, opened once for the batch (or an existing ``client``).
    ``out`` must be new, empty or a batch folder, and is locked while the batch
    plays (see ``simcore.folders``); each run's folder in it is its own.
    """
    s = settings_from(settings, **options)
    out = Path(out)
    if client is None and not s.on_cluster:
        s = s.replace(scheduler=plan.cluster.get("scheduler"),
                      workers=plan.cluster.get("workers"))
    if s.scheduler is not None and s.workers is not None:
        raise TricksimError("give --scheduler or --workers, not both")
    for run in plan.runs:           # refused before any run plays, not when reached
        check_local(s, run_policies(run.command, run.game, run.options) or ())
    from ..folders import own
    with own(out, "batch"):
        return _run_batch(plan, out, s, progress, client)


def _run_batch(plan: BatchPlan, out: Path, s: RunSettings, progress, client) -> BatchResult:
    from ..running.cluster import open_executor
    state_path = out / STATE
    state = _read_state(state_path) if s.resume else {}
    state["format"] = "tricksim-batch"
    state["status"] = "running"
    runs_state = state.setdefault("runs", {})
    state["plan"] = str(plan.path)
    played, skipped, folders, parts, checks = [], [], {}, [], {}
    with open_executor(s, client) as executor:       # one executor for every run
        for run in plan.runs:
            folder = out / run.name
            folders[run.name] = folder
            entry = runs_state.get(run.name)
            spec = run.spec()
            if entry is None or entry.get("spec") != spec:
                seed = spec.get("seed")
                entry = {"spec": spec, "seed": seed if seed is not None else seed_from_entropy(),
                         "status": "running"}
                runs_state[run.name] = entry
            entry.update(run_players(run))      # also into an older batch.json's entry
            write_json(state, state_path)
            if entry.get("status") == "complete" and _outputs_present(run, folder):
                skipped.append(run.name)
            else:
                step = (lambda d, t, name=run.name: progress(name, d, t)) if progress else None
                lines = _play(run, folder, s.replace(seed=entry["seed"]), executor, step)
                if lines:
                    checks[run.name] = lines
                entry["status"] = "complete"
                write_json(state, state_path)
                played.append(run.name)
            parts.append(_gathered(run, folder, entry["seed"]))
    table = pd.concat(parts, ignore_index=True, sort=False)
    write_parquet(_parquet_safe(table), out / "batch.parquet")
    write_csv(table, out / "batch.csv")
    state["status"] = "complete"
    write_json(state, state_path)
    return BatchResult(table, folders, played, skipped, checks)


def _read_state(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and isinstance(data.get("runs", {}), dict) else {}


def run_policies(command: str, game: str, options: dict) -> list[str] | None:
    """The players of a plan's run: its ``policy``, else the game's default players
    (``simcore.games.design_players``); None for a sweep that varies the players."""
    from ..registry import design_players
    if "policy" in options:
        return options["policy"].split(",")
    if command == "sweep" and any(v.split("=", 1)[0].strip() == "policy"
                                  for v in options.get("vary", ())):
        return None
    return design_players(game)


def run_players(run: BatchRun) -> dict:
    """What ``batch.json`` says of a run's players: ``players`` (one name per seat; a
    sweep: one such list per variant, as its ``sweep.json``) and, for a sweep with
    checks, the players of the check (``check_with``, one per seat), of the skill
    measure and the check's games."""
    out = {"players": run.seats}
    c = run.checks
    if c is not None and c.policies is not None:
        out["check_with"] = list(c.policies)
    if c is not None and c.skill is not None:
        out["skill"] = {"strong": c.skill[0], "weak": c.skill[1]}
    if c is not None:
        out["check_games"] = c.games
    return out


def players_lines(plan) -> tuple[list[str], list[str]]:
    """One line per run of a plan naming its players (the batch's first output), and
    once per game whose figures random play distorts, a note where a run seats it."""
    from ..registry import players_text, random_play_note
    lines, notes = [], {}
    for run in plan.runs:
        pols = run_policies(run.command, run.game, run.options)
        notes[run.game] = notes.get(run.game) or random_play_note(run.game, pols or ())
        text = ("varied (vary policy)" if pols is None else players_text(pols)
                + (" (as given)" if "policy" in run.options
                   else " (the game's default; policy = ... in the plan to change)"))
        c = run.checks
        if c is not None and c.policies is not None:
            text += f"; checked with {players_text(c.policies)}"
        if c is not None and c.skill is not None:
            text += f"; skill of {c.skill[0]} over {c.skill[1]}"
        lines.append(f"players of {run.name}: {text}")
    return lines, [note for note in notes.values() if note]


def _outputs_present(run: BatchRun, folder: Path) -> bool:
    return all((folder / name).exists() for name in _outputs(run))


def _outputs(run: BatchRun) -> list[str]:
    """The tables a run leaves in its folder, gathered into the batch's table."""
    if run.command == "simulate":
        return ["summary.csv"]
    c = run.checks
    return (["sweep.csv"] + (["check.csv"] if c is not None and c.policies is not None else [])
            + (["skill.csv"] if c is not None and c.skill is not None else []))


def _play(run: BatchRun, folder: Path, settings: RunSettings, executor, progress) -> list[str]:
    """Play one run of the plan on the batch's executor (``settings`` carries its seed);
    the lines a sweep's checks print (none for a simulate run)."""
    o = run.options
    policies = run_policies(run.command, run.game, o)
    g = get_game(run.game)
    s = settings.replace(games=o.get("games", DEFAULT_GAMES), chunk_size=o.get("chunk_size"),
                         summary_only=o.get("summary_only", False))
    if run.command == "simulate":
        rules = g.build_rules(o.get("preset"), o.get("rules"), o.get("set", ()),
                              o.get("players"))
        if executor.description.get("executor") != "dask" and not uses_python(policies):
            g.run_chunk(rules, g.policy_ids(policies, rules)[1], s.seed, 0, 1,   # compile
                        summary_only=s.summary_only)
        # a Python player: game by game in this thread, the folder written once played
        play_run(run.game, rules, policies, s, progress, f"run '{run.name}'", out=folder,
                 executor=executor)
        return []
    else:
        from .check import run_checks
        from ..folders import own
        from .sweep import parse_vary, sweep, write_sweep
        vary = parse_vary(run.game, o["vary"])

        def replay(players, check_settings, out=None):
            return sweep(run.game, vary, o.get("preset"), o.get("rules"), o.get("set", ()),
                         o.get("players"), players, settings=check_settings,
                         progress=progress, out=out, executor=executor)

        with own(folder, "sweep"):          # held from the first variant to the checks
            result = replay(policies, s, folder)
            write_sweep(result, folder)
            built = _variants(run.game, o, policies)
            return run_checks(run.checks, folder, result=result, replay=replay, settings=s,
                       rule_sets={label: rules for label, (_, rules)
                                  in zip(result.labels, built)},
                       progress=progress, executor=executor)


def _gathered(run: BatchRun, folder: Path, seed: int) -> pd.DataFrame:
    """A run's summary rows, led by the run's identity."""
    frames = []
    for name in _outputs(run):
        frame = pd.read_csv(folder / name)
        if name != "summary.csv":
            frame.insert(0, "section", name.removesuffix(".csv"))
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True, sort=False)
    lead = {"run": run.name, "command": run.command, "game": run.game, "seed": seed}
    frame = frame.rename(columns={k: f"{k}_" for k in lead if k in frame.columns})
    for i, (k, v) in enumerate(lead.items()):
        frame.insert(i, k, v)
    return frame


def _parquet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Object columns holding mixed types (numbers and text) become text for parquet."""
    frame = frame.copy()
    for col in frame.columns:
        if frame[col].dtype == object:
            kinds = {type(v) for v in frame[col].dropna()}
            if len(kinds) > 1:
                frame[col] = frame[col].map(lambda v: v if pd.isna(v) else str(v))
    return frame
