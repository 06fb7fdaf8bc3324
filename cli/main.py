"""The ``tricksim`` command line: parse options, call the runner, print and write results.

No game logic here: options become a rule set and run settings, the runner
plays, ``simcore.statistics.stats`` formats and writes.
"""
from __future__ import annotations

import contextlib
import functools
import logging
import sys
import time
from datetime import datetime
from pathlib import Path

import click

from simcore import __version__
from simcore.errors import TricksimError
from simcore.text import counted, noun_for
from simcore.games import design_players, game_names, get_game, players_help

from cli.games import GAMES
from cli.option_groups import (COMPARE_RUN_FIELDS, RUN_FIELDS, SWEEP_RUN_FIELDS,
                               CheckOptions, CompareSides, RuleChoice, gather)

#: the --policy help of simulate, sweep and compare (the players from each game's
#: players.py, so it cannot go stale)
POLICY_HELP = ("Player policy: one name for all seats or one per seat, comma-separated; "
               "a player's parameters go in its name (e.g. pimc:worlds=16,heuristic). "
               + players_help() + " Default: the game's own players for a designer's run ("
               + "; ".join(f"{g}: {','.join(design_players(g))} in every seat"
                           if len(design_players(g)) == 1 else f"{g}: {','.join(design_players(g))}"
                           for g in game_names())
               + "); the first line printed names them.")


#: exit status after Ctrl-C, as a shell reports a process ended by SIGINT (128 + 2)
EXIT_INTERRUPTED = 130


def user_errors(fn):
    """Turn TricksimError (and running out of memory) into a one-line click error
    (exit 1, no traceback), and Ctrl-C into one line and exit status 130."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from cli.progress import heartbeat
        try:
            with heartbeat(fn.__name__):        # never silent for long (cli/progress.py)
                return fn(*args, **kwargs)
        except TricksimError as exc:
            raise click.ClickException(str(exc)) from None
        except OSError as exc:  # an output path under a file, read-only, no space...
            from simcore.paths import os_error_sentence
            raise click.ClickException(os_error_sentence(exc)) from None
        except MemoryError:
            raise click.ClickException(
                "out of memory; fewer --games (or, for simulate, --summary-only) need less") \
                from None
        except KeyboardInterrupt:
            resumes = fn.__name__ in ("simulate", "sweep", "batch")
            click.echo("\ninterrupted (Ctrl-C)" + ("; finished chunks are kept and the same "
                                                   "command resumes" if resumes else ""),
                       err=True)
            sys.exit(EXIT_INTERRUPTED)
    return wrapper


class _Notes(logging.Handler):
    """Prints tricksim's notes (a chunk played again, the dashboard's address) on stderr."""

    def emit(self, record):
        click.echo(record.getMessage(), err=True)


def show_notes() -> None:
    """Send the ``tricksim`` logger's notes (INFO and up) to stderr, once."""
    log = logging.getLogger("tricksim")
    if not any(isinstance(h, _Notes) for h in log.handlers):
        log.addHandler(_Notes())
    log.setLevel(logging.INFO)
    # a library's logging.config.dictConfig (import-linter's, say) disables every logger
    # that existed before it, ours included: the notes must still reach the user
    log.disabled = False


class Progress:
    """Progress on stderr, always visible on a long run.

    On a terminal: one bar redrawn in place, shown after two seconds.  Otherwise
    (stderr piped or sent to a file): one plain line every ``interval`` seconds
    (``TRICKSIM_PROGRESS_INTERVAL``, default 10), and a last line at the end if any
    was printed, so a log shows that a long run is alive and how far it got.  With
    searching players the line also counts their decisions (the unit that moves on
    such a run) and their rate; between chunks the command's heartbeat
    (``cli.progress``) redraws it with the time elapsed, so it never goes silent."""

    def __init__(self, label: str, enabled: bool | None = None,
                 interval: float | None = None, tty: bool | None = None):
        from cli.progress import progress_interval
        from simcore.running.progress import decisions
        self.label = label
        self.tty = sys.stderr.isatty() if tty is None else tty
        self.enabled = True if enabled is None else enabled
        self.interval = progress_interval() if interval is None else interval
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.shown = False
        self.done, self.total = 0, 0
        self.decisions0 = decisions()

    def __call__(self, done: int, total: int):
        if not self.enabled or total <= 0:
            return
        from cli import progress
        beat = progress.CURRENT
        with beat.lock if beat is not None else contextlib.nullcontext():
            self.done, self.total = done, total
            printed = self._draw(done, total, time.perf_counter(), False)
            if beat is not None:
                beat.bar = self                 # what the heartbeat redraws
                if printed:
                    beat.printed()

    def beat(self) -> bool:
        """Show the progress now (the heartbeat's call: nothing moved for an interval);
        False if there is nothing to show (finished, or disabled)."""
        if not self.enabled or self.total <= 0 or self.done >= self.total:
            return False
        return self._draw(self.done, self.total, time.perf_counter(), True)

    def _figures(self, done: int, total: int, now: float) -> tuple[str, str, float]:
        """(rate text, decisions text, eta in seconds) of the progress so far."""
        from cli.progress import rate_text
        from simcore.running.progress import decisions
        elapsed = now - self.t0
        rate = done / elapsed if elapsed > 0 else 0
        eta = (total - done) / rate if rate > 0 else 0
        n = decisions() - self.decisions0
        searched = (f", {counted(n, 'decision')} ({rate_text(n / elapsed)}/s)"
                    if n > 0 and elapsed > 0 else "")
        return rate_text(rate), searched, eta

    def _draw(self, done: int, total: int, now: float, force: bool) -> bool:
        """Print the progress if it is due (or ``force``); whether something was printed."""
        elapsed = now - self.t0
        rate, searched, eta = self._figures(done, total, now)
        eta_text = f"eta {eta:,.0f}s" if done else "eta: after the first chunks"
        if not self.tty:
            if done >= total:
                if not self.shown:
                    return False
            elif now - self.last < self.interval and not force:
                return False
            self.last = now
            self.shown = True
            click.echo(f"{self.label}: {done:,}/{total:,} ({100 * done / total:.0f}%) "
                       f"{rate}/s{searched}, {elapsed:,.0f}s elapsed, {eta_text}", err=True)
            return True
        if elapsed < 2.0 and done < total and not force:
            return False
        if not self.shown and done >= total:
            return False
        self.shown = True
        width = 30
        fill = int(width * done / total)
        click.echo(f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] {done:,}/{total:,} "
                   f"{rate}/s{searched} {elapsed:,.0f}s, {eta_text} ", err=True, nl=False)
        if done >= total:
            click.echo("", err=True)
        return True


def rule_options(fn):
    """The options that build a rule set, shared by the commands that play."""
    for decorator in reversed([
        click.option("--players", type=int, default=None,
                     help="Number of players (where the game lets it vary)."),
        click.option("--preset", default=None, help="Named rule set (see `tricksim rules GAME`)."),
        click.option("--rules", "rules_file", type=click.Path(dir_okay=False), default=None,
                     help="TOML file of option = value lines, applied over the preset."),
        click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE",
                     help="Override one option (repeatable); lists comma-separated."),
    ]):
        fn = decorator(fn)
    return fn


def cluster_options(fn):
    """Where the chunks run and whether a run folder is resumed (simulate, sweep, batch)."""
    for decorator in reversed([
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Play the chunks on this Dask cluster (e.g. tcp://host:8786)."),
        click.option("--workers", type=int, default=None,
                     help="Start a local Dask cluster of N worker processes for the run "
                          "(listening on 127.0.0.1 only; at most 2 per CPU of this machine)."),
        click.option("--dashboard", is_flag=True,
                     help="With --workers: serve Dask's dashboard on 127.0.0.1 (its address "
                          "is printed)."),
        click.option("--connect-timeout", type=float, default=None, metavar="SECONDS",
                     help="How long to wait for --scheduler to answer  [default: 10]."),
        click.option("--resume/--no-resume", default=True, show_default=True,
                     help="Resume an unfinished run of the same command in the folder "
                          "(--no-resume starts it over)."),
    ]):
        fn = decorator(fn)
    return fn


def check_options(fn):
    """--check-with, --check-games and --skill (compare and sweep; simcore.experiments.check)."""
    for decorator in reversed([
        click.option("--check-with", "check_with", default=None, metavar="PLAYER",
                     help="Play the comparison (a sweep: every variant) again with PLAYER "
                          "in every seat (e.g. expert, pimc:worlds=4) on the same deals "
                          "and say per figure whether the verdict holds (holds, larger or "
                          "smaller; reverses; vanishes; appears): check.csv and report.md."),
        click.option("--check-games", "check_games", type=int, default=None, metavar="N",
                     help="Deals of the --check-with and --skill runs: the main run's "
                          "first N  [default: a quarter of --games, at least 1,000]."),
        click.option("--skill", "skill_spec", default=None, metavar="STRONG,WEAK",
                     help="Under each rule set, the edge of STRONG over WEAK (STRONG in one "
                          "seat, WEAK in the others, seats rotated on the same deals), with "
                          "95% intervals and the difference between rule sets: skill.csv "
                          "and report.md (docs/sweeps.md says what it measures)."),
    ]):
        fn = decorator(fn)
    return fn


def player_timeout_option(how: str):
    """--player-timeout (sweep, compare, hand): a Python player's seconds per decision;
    ``how``: how the command plays with one."""
    return click.option(
        "--player-timeout", type=click.FloatRange(min=0.001), default=10.0,
        show_default=True,
        help="Seconds a Python player (--policy MODULE:ATTR) may take for one decision; "
             + how)


#: how sweep and compare play with a Python player (--player-timeout's help)
GAME_BY_GAME = "a run with one is played game by game in this process (not resumed)."


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tricksim")
def cli():
    """tricksim: fast Monte Carlo simulation of trick-taking card games.

    \b
    Examples:
      tricksim simulate schadenfreude --games 1000000 --policy heuristic,random,random,random --seed 1
      tricksim rules schadenfreude
      tricksim replay games.jsonl
    """
    show_notes()


@cli.command()
@click.argument("game", type=GAMES)
@rule_options
@click.option("--policy", "policy", default=None, help=POLICY_HELP)
@click.option("--games", "games", type=int, default=100_000, show_default=True,
              help="Number of games to play.")
@click.option("--seed", type=int, default=None,
              help="Run seed (drawn and recorded in run.json if omitted).")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores).")
@click.option("--chunk-size", type=int, default=None,
              help="Games per kernel call (results do not depend on it).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Run folder (default results/<game>-<timestamp>/).")
@click.option("--records", type=click.Path(dir_okay=False), default=None,
              help="Also write every game as a JSON Lines record to this file (in a "
                   "folder that exists).")
@click.option("--summary-only", is_flag=True,
              help="Keep running aggregates only (constant memory; no games.parquet).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="How the summary is printed.")
@click.option("--rotate", is_flag=True,
              help="Play the same games once per rotation of the --policy list, so every "
                   "policy plays every seat on the same deals; report per policy, with "
                   "intervals paired by deal (run folders in OUT/rotations/rN/).")
@click.option("--player-timeout", type=click.FloatRange(min=0.001), default=10.0,
              show_default=True,
              help="Seconds a Python player (--policy MODULE:ATTR) may take for one decision.")
@cluster_options
@user_errors
@gather("rule_choice", RuleChoice)
@gather("run", RUN_FIELDS)
def simulate(game, rule_choice, policy, run, out, records, fmt, rotate):
    """Play GAME many times and summarize.

    Prints per-seat win rates (95% Wilson intervals), scores and game-level
    figures, and writes a run folder with games.parquet, summary.csv and
    run.json.  Each chunk of games is saved as it finishes: the same command
    pointed at an unfinished run folder (--out) resumes it.

    Your own Python player plays a seat as --policy MODULE:ATTR (e.g.
    mybots:Greedy,heuristic; docs/players-api.md): such a run is played game by
    game in this process, writes players.csv and players.json and is not resumed
    (with --rotate, each rotation's run folder, played game by game); with
    --workers N or --scheduler its chunks are played by worker processes that
    import the player by name, into a run folder that resumes like a batch run's.
    Where MODULE:ATTR is a numba player (an @njit function choose(obs, mask, rng)
    -> action), it plays inside the batch loop at kernel speed and the run is a
    batch run (run folder, resume, --threads, --summary-only; --records logs its
    actions in the batch loop for the game's logging kernels); the loop takes your
    function, so numba cannot cache it: it compiles once per process (seconds to
    a minute).

    \b
    Examples:
      tricksim simulate schadenfreude --players 4 --games 1000000 \\
          --policy heuristic,random,random,random --seed 1
      tricksim simulate schadenfreude --games 100000000 --summary-only --seed 1 \\
          --out results/long --workers 2       # Ctrl-C, then the same again resumes
      tricksim simulate schadenfreude --policy heuristic,random,random,random \\
          --rotate --games 100000 --seed 1    # heuristic vs random, every seat
    """
    from simcore.running.runner import simulate as run_simulation

    g = get_game(game)
    rules = rule_choice.build(game)
    out_dir = Path(out) if out else Path("results") / (
        f"{game}-{datetime.now().strftime('%Y%m%d-%H%M%S-%f')}")
    if records is not None:                     # "" too: refused there
        check_records_path(records, out_dir)
    from simcore.numba_players import uses_numba
    from simcore.players import is_user_policy
    user = policy is not None and any(is_user_policy(p) for p in g.policy_names(policy, rules))
    if user and uses_numba(g.policy_names(policy, rules)):
        return simulate_numba_cli(game, rules, g.policy_names(policy, rules), run, out_dir,
                                  records, fmt, rotate)
    if user and not rotate and (run["workers"] is not None or run["scheduler"] is not None):
        return simulate_processes_cli(game, rules, g.policy_names(policy, rules), run,
                                      out_dir, records, fmt)
    if user:
        if not rotate:                          # --rotate: each rotation game by game
            from simcore.games import players_line
            click.echo(players_line(g.policy_names(policy, rules), False), err=fmt != "table")
            return simulate_python_cli(game, rules, policy, run, out_dir, records, fmt)
    settings = run_settings(**run)
    if rotate and records:
        raise TricksimError("--records and --rotate both given; write records from a "
                            "run without --rotate (each rotation is such a run)")
    policy = say_players(game, policy, fmt, rules)
    note_cold_cache(game)
    if rotate:
        return simulate_rotated_cli(game, rules, policy, settings, out_dir, fmt)
    result = run_simulation(game, rules, policy.split(","), settings=settings,
                            progress=Progress(f"{game}"), out=out_dir, records=records,
                            records_progress=Progress("records") if records else None)
    report_run(result, out_dir, records, fmt)


def simulate_numba_cli(game, rules, names, run: dict, out_dir, records, fmt, rotate) -> None:
    """``simulate`` with a numba player (``names``: one per seat): a batch run with the
    player inside the loop (``simcore.numba_players``), compiled first."""
    from simcore.games import players_line
    from simcore.numba_players import numba_run, numba_seats
    if rotate:
        raise TricksimError("--rotate does not take a numba player; run it once per seat "
                            "instead (e.g. --policy mybots:choose,heuristic, then "
                            "--policy heuristic,mybots:choose)")
    seats = numba_seats(get_game(game), rules, names)      # loaded and checked first
    click.echo(players_line(seats.names, False), err=fmt != "table")
    click.echo("compiling the numba player's loop (once per process: numba cannot cache a "
               "kernel that takes your function)", err=True)
    result = numba_run(game, rules, seats, run_settings(**run), Progress(game), out_dir,
                       records, Progress("records") if records else None)
    report_run(result, out_dir, records, fmt)


def simulate_processes_cli(game, rules, names, run: dict, out_dir, records, fmt) -> None:
    """``simulate`` with a Python player on worker processes (``--workers`` or
    ``--scheduler``): the runner's chunked run (run folder checkpointed and resumed),
    its chunks played by Dask workers that import the player by name."""
    from simcore.games import players_line
    from simcore.players import process_run
    click.echo(players_line(names, False), err=fmt != "table")
    result = process_run(game, rules, names, run_settings(**run), Progress(game), out_dir,
                         records, Progress("records") if records else None)
    report_run(result, out_dir, records, fmt)


def report_run(result, out_dir, records, fmt: str) -> None:
    """Print a run's summary (stdout, in ``fmt``) and, on stderr, its fairness note,
    its searching players' rate and its last line: games, time, rate, where it was
    played and what was written (or that every chunk was already done)."""
    from simcore.statistics.stats import fairness_note, format_summary
    click.echo(format_summary(result.summary, fmt), nl=False)
    note = fairness_note(result.summary, result.contract)
    if note:
        click.echo(note, err=True)
    played = result.games if result.played is None else result.played
    rate = played / result.wall_time if result.wall_time > 0 else float("inf")
    resumed = result.execution.get("chunks_resumed", 0)
    search = result.search_rate()
    if search is not None:
        click.echo(f"searching players: {counted(search[0], 'decision')}, {search[1]:,.1f} "
                   "decisions/s", err=True)
    where = (counted(result.threads, "thread") if result.execution.get("executor") != "dask"
             else f"Dask: {result.execution.get('scheduler')}")
    if played == 0 and resumed:
        click.echo(resumed_line(result, out_dir, records), err=True)
        return
    click.echo(f"{counted(result.games, 'game')} in {result.wall_time:.2f}s ({rate:,.0f} games/s, "
               f"{where}, seed {result.seed}); wrote {out_dir}/"
               + (f" and {records}" if records else "")
               + (f"; {resumed} of {counted(result.execution['chunks'], 'chunk')} "
                  f"{noun_for(resumed, 'was')} already done"
                  if resumed else ""), err=True)

def say_players(game: str, policy, fmt: str, *rule_sets, sides=None) -> str:
    """Print which players play (the command's first line, once every option is checked:
    on stdout, or on stderr where stdout carries csv/json data) and, once, that random
    play distorts the game's figures where it does; returns the policy text to play
    (``--policy``, or the game's default players when it was not given).  Refuses a
    policy list that does not fit one of ``rule_sets`` before anything is printed.
    ``sides``: a comparison's {label: policies given in --a/--b or None}."""
    from simcore.games import players_line, random_play_note
    from simcore.players import player_names
    g = get_game(game)
    default = policy is None and not (sides and any(sides.values()))
    text = ",".join(design_players(game)) if policy is None else policy
    names = {}
    for label, rules in zip(sides or ["run"] * len(rule_sets), rule_sets):
        own = (sides or {}).get(label) or text.split(",")
        names[label] = player_names(g, rules, own)
    line = players_line(next(iter(names.values())), default,
                        names if sides else None)
    click.echo(line, err=fmt != "table")
    note = random_play_note(game, [n for ns in names.values() for n in ns])
    if note:
        click.echo(note, err=True)
    return text


def simulate_python_cli(game, rules, policy, run: dict, out_dir, records, fmt) -> None:
    """``simulate`` with a Python player: played game by game through the Engine API
    (``run``: the run options as given; their games, seed and player timeout apply)."""
    from simcore.players import cost_line, simulate_python
    from simcore.statistics.stats import format_summary
    games, seed = run["games"], run["seed"]
    if games < 1:
        raise TricksimError(f"--games {games} is not allowed; give at least 1")
    from simcore.running.settings import RunSettings
    settings = RunSettings(games=games, seed=seed, player_timeout=run["player_timeout"])
    run = simulate_python(game, rules, policy, settings, out_dir, records)
    click.echo(format_summary({"seats (Python-driven)": run.table}, fmt), nl=False)
    cost = cost_line(run.seats)
    if cost:
        click.echo("Python players: " + cost, err=True)
    click.echo(f"{counted(games, 'game')} in {run.wall_time:.2f}s (Python-driven, seed "
               f"{run.seed}); wrote {out_dir}/" + (f" and {records}" if records else ""),
               err=True)


def resumed_line(result, out_dir, records) -> str:
    """The last line of a run that found every chunk done: it resumed, nothing played."""
    rec = result.execution.get("records")
    done = result.execution["chunks_resumed"]
    return (f"{counted(result.games, 'game')} resumed from {out_dir}/ (seed {result.seed}): "
            f"{done} of {counted(result.execution['chunks'], 'chunk')} "
            f"{noun_for(done, 'was')} already done, none played"
            + (f"; wrote {records} in {rec['wall_time_s']:.2f}s" if rec else ""))


def simulate_rotated_cli(game, rules, policy, settings, out_dir, fmt) -> None:
    """``simulate --rotate``: every rotation of the policy list on the same games, one
    run folder per rotation under OUT/rotations/, the per-policy report in OUT."""
    from simcore.experiments.rotation import rotation_note, simulate_rotated, write_rotated
    from simcore.statistics.stats import format_summary
    own_folder(out_dir, "rotation")
    rot = simulate_rotated(game, rules, policy.split(","), settings=settings,
                           progress=Progress(f"{game} rotated"), out=out_dir)
    book = get_game(game).rulebook
    sets = " ".join(f"--set {k}={book.option(k).to_text(rules.values[k])}"
                    for k in rules.order)
    games = settings.games
    write_rotated(rot, out_dir, f"tricksim simulate {game} {sets} --policy {policy} "
                  f"--games {games} --seed {rot.seed} --rotate")
    click.echo(format_summary({"per policy (seats rotated)": rot.table,
                               f"policy - {rot.policies[0]}": rot.differences}, fmt), nl=False)
    click.echo(rotation_note(rot), err=True)
    wall = sum(r.wall_time for r in rot.runs)
    played = sum(r.games if r.played is None else r.played for r in rot.runs)
    rate = played / wall if wall > 0 else float("inf")
    timing = (f"in {wall:.2f}s ({rate:,.0f} games/s, seed {rot.seed})" if played else
              f"already played (seed {rot.seed}): the rotations' run folders were reused")
    click.echo(f"{counted(len(rot.runs), 'rotation')} x {counted(games, 'game')} {timing}; "
               f"wrote {out_dir}/ "
               "(rotation.csv, rotation_diff.csv, rotation.json, report.md, rotations/)",
               err=True)


def own_folder(out_dir, kind: str) -> None:
    """Claim, mark and lock the command's output folder until the command ends (see
    ``simcore.folders.own``): a foreign or another command's folder, or one that
    another command is writing, is refused before anything is played."""
    from simcore.folders import own
    click.get_current_context().with_resource(own(out_dir, kind))


def check_dashboard(dashboard: bool, workers) -> None:
    """Refuse --dashboard when no local cluster is started (--workers)."""
    if dashboard and workers is None:
        raise TricksimError("--dashboard needs --workers N (a local Dask cluster)")


def note_cold_cache(game: str) -> None:
    """Say on stderr that the kernels are compiled first, instead of a silent wait."""
    from simcore._cache import cache_is_cold
    if cache_is_cold(game):
        click.echo(f"compiling {game}'s kernels (first run after an install or update only, "
                   "about a minute)...", err=True)


def run_settings(**options):
    """The command's run options as one ``RunSettings`` (the one object the runner,
    sweeps, comparisons and batches take)."""
    from simcore.running.settings import RunSettings
    if options.get("workers") is not None:        # refused before anything starts
        from simcore.running.cluster import check_workers
        check_workers(options["workers"])
    return RunSettings(**options)


def check_records_path(records, out_dir) -> None:
    """Refuse a --records path that cannot be written safely, before anything is played.

    It must not be empty, its folder must exist or be the run folder (no other
    folder is created for it), and it must be a new or regular file, a character
    device or a pipe (see ``simcore.statistics.stats.check_output_path``), and not one of the
    run folder's own files (run.json, summary.csv, a table, a chunk file).
    """
    import os

    from simcore.paths import check_file_path
    from simcore.statistics.stats import check_output_path

    if not str(records).strip():
        check_file_path(records, "--records")     # empty: one line saying so
    check_output_path(records)
    path = Path(os.path.realpath(records))
    folder = Path(os.path.realpath(out_dir))
    own = path == folder or folder / "chunks" in path.parents \
        or (path.parent == folder and (path.name in ("run.json", "summary.csv")
                                       or path.suffix == ".parquet"))
    if own:
        raise TricksimError(f"--records '{records}' would overwrite the run folder or one of "
                            f"its own files; allowed: any other path (not '{out_dir}' itself, "
                            "its run.json, summary.csv, .parquet tables or chunks/)")
    if path.parent != folder:                   # the run folder is made by the run
        check_file_path(records, "--records")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--show", is_flag=True,
              help="Print one record as a readable game: the deal, every action "
                   "(numbered from 0 in its deal), each trick's winner, the points, each "
                   "deal's end and the result.")
@click.option("--index", type=int, default=None,
              help="With --show: the record whose 'index' field is this (the game's "
                   "number in its run, from 0: in a file simulate wrote, the record's "
                   "number too); default: the file's first record.")
@user_errors
def replay(file, show, index):
    """Replay every record of a JSON Lines FILE through the engine.

    Checks that each deal is valid, each action legal, and each stated result
    follows; prints the first failure of every bad record and exits 1 if any
    fail.  Records are numbered from 0 in the file's order, blank lines skipped
    (as `analyse --index` counts them), with the line number from 1 beside:
    "record 0 (line 1)".  With --show, prints one record as a readable game instead (it must
    replay valid).

    \b
    Example:
      tricksim simulate schadenfreude --games 100 --seed 7 --records games.jsonl
      tricksim replay games.jsonl
      tricksim replay games.jsonl --show --index 3
    """
    if index is not None and not show:
        raise TricksimError("--index picks the record --show prints; give --show too")
    if show:
        from cli.show import show as show_one
        return show_one(file, index)
    from simcore.records import replay_file

    count, failures = replay_file(file)
    for f in failures:
        click.echo(str(f), err=True)
    if failures:
        click.echo(f"{len(failures)} of {counted(count, 'record')} failed", err=True)
        sys.exit(1)
    click.echo(f"{counted(count, 'record')} replayed, all valid")


@cli.command()
@click.argument("game", type=GAMES)
@click.option("--preset", default=None, help="Show this preset's values.")
@click.option("--players", type=int, default=None, help="Resolve player-dependent defaults.")
@user_errors
def rules(game, preset, players):
    """List every rule option of GAME: value, allowed values and meaning.

    \b
    Example:
      tricksim rules schadenfreude --preset summary-de
    """
    from simcore.games import get_rulebook
    book = get_rulebook(game)
    if players is not None and "players" not in book.options:
        rs = get_game(game).build_rules(preset, players=players)    # checks the seat count
    else:
        rs = book.build(preset, overrides={"players": players} if players is not None else None)
    name = book.preset_name(preset)
    click.echo(f"{game}: preset '{name}'" + (f" ('{preset}' is its other name)"
                                            if preset and preset != name else "")
               + "; presets: " + book.preset_list())
    rows = [(name, opt.to_text(rs[name]), opt.allowed(), opt.doc)
            for name, opt in book.options.items()]
    widths = [max(len(r[i]) for r in rows + [("option", "value", "allowed", "")])
              for i in range(3)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(("option", "value", "allowed"), widths))
               + "  meaning")
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r[:3], widths)) + "  " + r[3])
    click.echo("policies (--policy; parameters in the name, e.g. pimc:worlds=32):")
    from simcore.games import get_policy_help
    for line in get_policy_help(game):
        click.echo("  " + line)


@cli.command()
@click.argument("game", type=GAMES)
@click.option("--vary", "vary", multiple=True, required=True, metavar="NAME=V1,V2,...",
              help="An option and the values to try (repeatable: every combination is "
                   "played, at most 1,000 combinations). Values of a list option are "
                   "separated by ';'; policy=P1,P2,...;Q varies the players.")
@rule_options
@click.option("--policy", "policy", default=None, help=POLICY_HELP)
@click.option("--games", "games", type=int, default=100_000, show_default=True,
              help="Games per variant.")
@click.option("--seed", type=int, default=None, help="Seed shared by every variant.")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores).")
@click.option("--chunk-size", type=int, default=None, help="Games per kernel call.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Sweep folder (default results/<game>-sweep-<timestamp>/).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="How the fairness lines and table are printed.")
@check_options
@player_timeout_option(GAME_BY_GAME)
@cluster_options
@user_errors
@gather("rule_choice", RuleChoice)
@gather("run", SWEEP_RUN_FIELDS)
@gather("asked", CheckOptions)
def sweep(game, vary, rule_choice, policy, run, out, fmt, asked):
    """Play every combination of varied rule options on the same seeds.

    Each variant plays the same game indices from the same seed (common random
    numbers), so differences between variants are not deal luck. Writes
    sweep.parquet and sweep.csv (one row per variant and seat), seats.png,
    game.png and report.md.  Your own Python player plays a seat as --policy
    MODULE:ATTR (docs/players-api.md): such a sweep is played game by game in
    this process and is not resumed.

    \b
    Example:
      tricksim sweep schadenfreude --vary limit=30,40,50 --games 200000 --seed 1
      tricksim sweep schadenfreude --vary players=3,4,5 --vary pairs=cancel,keep
      tricksim sweep schnapsen --vary close_min_talon=2,4 --policy heuristic --games 20000 \\
          --check-with expert --skill expert,heuristic --seed 1
    """
    from simcore.experiments.check import plan_checks, run_checks
    from simcore.experiments.sweep import POLICY, build_variants, parse_vary, sweep as run_sweep, \
        write_sweep

    plan = parse_vary(game, vary)
    check_dashboard(run["dashboard"], run["workers"])
    out_dir = Path(out) if out else Path("results") / (
        f"{game}-sweep-{datetime.now().strftime('%Y%m%d-%H%M%S-%f')}")
    settings = run_settings(**run)
    varied_players = any(name == POLICY for name, _ in plan)
    if varied_players and policy is not None:
        raise TricksimError("--policy and --vary policy both given; use one")
    seated = None if varied_players else (policy or ",".join(design_players(game))).split(",")
    c = rule_choice
    built = build_variants(game, plan, c.preset, c.rules_file, c.assignments, c.players, seated)
    checks = plan_checks(game, [rules for _, rules in built], settings.games, asked,
                         varied_players=varied_players)
    if varied_players:
        click.echo("players: varied (--vary policy, one list per variant)", err=fmt != "table")
    else:
        policy = say_players(game, policy, fmt, *[rules for _, rules in built])
    note_cold_cache(game)
    own_folder(out_dir, "sweep")

    def play(policies, how, out=None, label="check"):
        """The sweep with ``policies`` (the main run's, or a check's players) played as
        ``how`` (RunSettings) says."""
        return run_sweep(game, plan, c.preset, c.rules_file, c.assignments, c.players,
                         policies, settings=how, progress=Progress(f"{game} {label}"), out=out)

    result = play(None if varied_players else policy.split(","), settings, out_dir, "sweep")
    result.command = sweep_command(game, vary, rule_choice, None if varied_players else policy,
                                   settings.games, result.seed)
    write_sweep(result, out_dir)
    extra = run_checks(checks, out_dir, result=result, replay=play, settings=settings,
                       rule_sets={label: rules for label, (_, rules)
                                  in zip(result.labels, built)},
                       progress=Progress(f"{game} check"))
    report_sweep(result, out_dir, fmt, extra)


def sweep_command(game: str, vary, rule_choice: RuleChoice, policy, games: int,
                  seed: int) -> str:
    """The ``tricksim sweep`` command line that plays a sweep again (its report says it);
    ``policy``: the players of every variant, None when ``--vary policy`` varies them."""
    c = rule_choice
    return " ".join(
        ["tricksim sweep", game] + [f"--vary {v}" for v in vary]
        + [f"--set {a}" for a in c.assignments]
        + ([f"--preset {c.preset}"] if c.preset else [])
        + ([f"--players {c.players}"] if c.players else [])
        + ([f"--rules {c.rules_file}"] if c.rules_file else [])
        + ([] if policy is None else [f"--policy {policy}"])
        + [f"--games {games}", f"--seed {seed}"])


def report_sweep(result, out_dir, fmt: str, extra) -> None:
    """Print a sweep's fairness lines or table (in ``fmt``), the lines of its checks
    (``extra``) and, on stderr, its last line: variants, games, seed, files written."""
    from simcore.statistics.stats import integer_columns
    from simcore.experiments.sweep import fairness_lines, holm_note, without_effect
    if fmt == "table":
        for line in fairness_lines(result):
            click.echo(line[2:].replace("**", ""))
        if holm_note(result):
            click.echo(holm_note(result))
        for line in without_effect(result):
            click.echo("note: " + line)
    elif fmt == "csv":                          # counts as integers, as in sweep.csv
        click.echo(integer_columns(result.table).to_csv(index=False), nl=False)
    else:
        click.echo(integer_columns(result.table).to_json(orient="records", indent=2))
    for line in extra:
        click.echo(line, err=fmt != "table")
    click.echo(f"{counted(len(result.runs), 'variant')} x {counted(result.games, 'game')} "
               f"(seed {result.seed}); wrote "
               f"{out_dir}/ (sweep.parquet, sweep.csv, seats.png, game.png, report.md, "
               "sweep.json" + "".join(", " + f for f in ("check.csv", "skill.csv")
                                      if (out_dir / f).is_file()) + ")", err=True)


@cli.command()
@click.argument("game", type=GAMES)
@click.option("--a", "spec_a", required=True, metavar="RULES",
              help="Rule set A: a preset, a TOML file, NAME=VALUE items, joined with ';'; "
                   "policy=P1,P2,... sets A's players.")
@click.option("--b", "spec_b", required=True, metavar="RULES", help="Rule set B, likewise.")
@click.option("--players", type=int, default=None, help="Number of players for both.")
@click.option("--policy", "policy", default=None, help=POLICY_HELP)
@click.option("--games", "games", type=int, default=100_000, show_default=True,
              help="Games for each rule set.")
@click.option("--seed", type=int, default=None, help="Seed shared by both rule sets.")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores).")
@click.option("--chunk-size", type=int, default=None, help="Games per kernel call.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Folder for compare.csv, compare_game.csv, compare.json, compare.png "
                   "and report.md (default results/<game>-compare-<timestamp>/).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="How the differences are printed.")
@click.option("--rotate", is_flag=True,
              help="Play each side once per rotation of its policy list (every policy at "
                   "every seat, same deals); report per policy instead of per seat.")
@check_options
@player_timeout_option(GAME_BY_GAME)
@user_errors
@gather("sides", CompareSides)
@gather("run", COMPARE_RUN_FIELDS)
@gather("asked", CheckOptions)
def compare(game, sides, policy, run, out, fmt, rotate, asked):
    """Play rule sets A and B on the same deals; paired differences B - A per seat.

    For each seat: the win rate and the mean final score under A and B, their
    paired difference with its 95% interval and p-value (scipy's paired t
    test), and whether it is significant (p < 0.05).  Every game-level figure
    (rounds, no-winner rate, contract shares, deal endings, ...) is paired game
    by game too.  Below 30 games the figures are printed without a test, and a
    line says why.  With --rotate each side is played once per rotation of its
    policy list (every policy at every seat, same deals) and the rows are per
    policy instead of per seat (docs/sweeps.md).  Your own Python player plays a
    seat as --policy MODULE:ATTR (docs/players-api.md), played game by game in
    this process.

    \b
    Example:
      tricksim compare schadenfreude --a standard --b "limit=30" --games 200000 --seed 1
      tricksim compare schnapsen --a austrian --b tournament --policy heuristic,heuristic
      tricksim compare schadenfreude --a "policy=heuristic,random,random,random" \\
          --b "policy=random" --rotate --games 20000 --seed 1
      tricksim compare schnapsen --a austrian --b tournament --policy heuristic \\
          --games 20000 --check-with expert --skill expert,heuristic --seed 1
    """
    from simcore.experiments.check import plan_checks, run_checks
    from simcore.experiments.sweep import compare as run_compare, parse_side, same_seats, \
        write_compare

    spec_a, spec_b = sides.spec_a, sides.spec_b
    rules_a, pol_a = parse_side(game, spec_a, sides.players)
    rules_b, pol_b = parse_side(game, spec_b, sides.players)
    if policy is not None and (pol_a or pol_b):
        raise TricksimError("--policy and policy= in --a/--b both given; use one")
    same_seats(game, rules_a, rules_b)
    out_dir = Path(out) if out else Path("results") / (
        f"{game}-compare-{datetime.now().strftime('%Y%m%d-%H%M%S-%f')}")
    settings = run_settings(**run)
    given = policy is not None
    default = (policy or ",".join(design_players(game))).split(",")
    checks = plan_checks(game, [rules_a, rules_b], settings.games, asked, rotate=rotate,
                         sides_differ=(pol_a or default) != (pol_b or default))
    policy = say_players(game, policy, fmt, rules_a, rules_b, sides={"A": pol_a, "B": pol_b})
    note_cold_cache(game)
    own_folder(out_dir, "compare")
    result = run_compare(game, rules_a, rules_b, policy.split(","), settings=settings,
                         progress=Progress(f"{game} compare"), policies_a=pol_a,
                         policies_b=pol_b, rotate=rotate)
    result.spec_a, result.spec_b = spec_a, spec_b
    command = " ".join(["tricksim compare", game, f'--a "{spec_a}"', f'--b "{spec_b}"']
                       + ([f"--players {sides.players}"] if sides.players else [])
                       + ([f"--policy {policy}"] if given or not (pol_a or pol_b) else [])
                       + [f"--games {settings.games}", f"--seed {result.run_a.seed}"]
                       + (["--rotate"] if rotate else []))
    write_compare(result, out_dir, command)
    report_compare(result, fmt, rotate)
    extra = run_checks(checks, out_dir, result=result, settings=settings,
                       rule_sets={f"A ({spec_a})": rules_a, f"B ({spec_b})": rules_b},
                       progress=Progress(f"{game} check"))
    for line in extra:
        click.echo(line, err=fmt != "table")
    if result.note:
        click.echo(result.note, err=True)
    from simcore.statistics.verdict import sides_sentence
    click.echo(f"{sides_sentence(result)}\n{counted(settings.games, 'game')} "
               f"each, seed {result.run_a.seed}; wrote "
               f"{out_dir}/ (compare.csv, compare_game.csv, compare.json, compare.png, "
               "report.md" + "".join(", " + f for f in ("check.csv", "skill.csv")
                                      if (out_dir / f).is_file()) + ")", err=True)


def report_compare(result, fmt: str, rotate: bool) -> None:
    """Print a comparison's paired differences (in ``fmt``) and its verdict lines."""
    from simcore.statistics.stats import format_summary
    from simcore.statistics.verdict import compare_verdict
    click.echo(format_summary({("paired B - A per policy (seats rotated)" if rotate else
                                "paired B - A"): result.table,
                               "game B - A": result.game_table}, fmt), nl=False)
    for line in compare_verdict(result):
        click.echo(line, err=fmt != "table")


@cli.command()
@click.argument("plan", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Batch folder (default results/batch-<plan name>/); one subfolder per run.")
@click.option("--threads", type=int, default=None,
              help="Numba threads when no cluster is used (default: all cores).")
@cluster_options
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="How the gathered table is printed.")
@user_errors
@gather("run", ("threads", "resume", "scheduler", "workers", "dashboard", "connect_timeout"))
def batch(plan, out, run, fmt):
    """Play the runs of a PLAN.toml one after another and gather their summaries.

    Each [[run]] is a simulate or sweep with its options (a sweep also takes
    check_with, check_games and skill, as --check-with, --check-games and --skill);
    runs go to OUT/<name>/, the gathered summaries to OUT/batch.parquet and
    OUT/batch.csv, and batch.json names every run's players.
    Started again with the same plan, a batch skips finished runs and resumes
    an interrupted one.  See docs/cluster.md for the plan format.

    \b
    Example:
      tricksim batch plan.toml --out results/nightly --workers 2
    """
    from simcore.experiments.batch import load_plan, players_lines, run_batch
    from simcore.statistics.stats import integer_columns

    parsed = load_plan(plan)
    for game in dict.fromkeys(entry.game for entry in parsed.runs):
        note_cold_cache(game)
    on_cluster = run["scheduler"] is not None or run["workers"] is not None
    check_dashboard(run["dashboard"],
                    run["workers"] if on_cluster else parsed.cluster.get("workers"))
    out_dir = Path(out) if out else Path("results") / f"batch-{Path(plan).stem}"

    def step(name, done, total, _bars={}):
        bar = _bars.setdefault(name, Progress(name))
        bar(done, total)

    settings = run_settings(**run)
    lines, notes = players_lines(parsed)
    for line in lines:
        click.echo(line, err=fmt != "table")
    for note in notes:
        click.echo(note, err=True)
    result = run_batch(parsed, out_dir, settings, step)
    table = result.table
    if fmt == "table":
        for name, folder in result.folders.items():
            mark = "skipped (already complete)" if name in result.skipped else "played"
            click.echo(f"{name}: {mark}; {folder}/")
            for line in result.checks.get(name, []):
                click.echo("  " + line)
    elif fmt == "csv":                          # counts as integers, as in batch.csv
        click.echo(integer_columns(table).to_csv(index=False), nl=False)
    else:
        click.echo(integer_columns(table).to_json(orient="records", indent=2))
    click.echo(f"{counted(len(result.folders), 'run')} ({len(result.played)} played, "
               f"{len(result.skipped)} already complete); wrote {out_dir}/batch.parquet and "
               f"{out_dir}/batch.csv", err=True)


from cli.analysis import register as _register_analysis, register_analyse  # noqa: E402
from cli.play import play_command  # noqa: E402
from cli.tournament import register as _register_tournament  # noqa: E402
from cli.web import serve_command  # noqa: E402

cli.add_command(play_command(GAMES, rule_options, user_errors, note_cold_cache))
_register_analysis(cli, rule_options, user_errors)
register_analyse(cli, user_errors)
_register_tournament(cli, GAMES, user_errors)
cli.add_command(serve_command(user_errors))


def main():
    """Console-script entry point."""
    cli(prog_name="tricksim")


if __name__ == "__main__":
    main()
