"""Your own Python players: loaded by ``MODULE:ATTR`` (or given as objects), driven game
by game through the per-decision Engine API, never inside the numba batch kernels.

A player is a callable ``player(obs) -> action`` or an object with ``act(obs)``; a
class is instantiated once per game (so a game's play does not depend on the games
before it). ``obs`` is an ``Observation``: the seat's tensor and legal-action mask
(``simcore.observation``), the legal action codes, the decoded ``view`` and a
``numpy.random.Generator`` seeded from (run seed, game index, seat), so a run is
reproducible. A player that returns something other than a legal action code, raises,
or takes longer than the timeout stops the run with one line naming the player, the
game index and the position (a deal and a count of its recorded actions: the record
prefix ``Engine.from_record(record, deal, upto)`` replays to).

    >>> from simcore.players import play_games
    >>> def first_legal(obs):
    ...     return obs.legal[0]
    >>> records = play_games("schnapsen", None, [first_legal, "heuristic"], games=10, seed=1)
"""
from __future__ import annotations

import contextlib
import importlib
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import TricksimError
from .observation import action_mask

#: ``package.module:attr`` (an attribute path after the colon, no ``=``)
_USER = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
#: names before a colon that are built-in players with parameters, not modules
_BUILTIN_HEADS = ("pimc", "expert", "heuristic", "random", "sloppy")
#: seconds a Python player may take for one decision
DEFAULT_TIMEOUT = 10.0


class PlayerError(TricksimError):
    """A user's player failed: a one-line message naming it, the game and the position."""


def is_user_policy(name) -> bool:
    """Whether a policy name is a Python player ``MODULE:ATTR`` (not a built-in's
    ``pimc:worlds=8``)."""
    return (isinstance(name, str) and bool(_USER.match(name))
            and name.partition(":")[0] not in _BUILTIN_HEADS)


def load_player(spec: str):
    """The object ``MODULE:ATTR`` names (the current folder is importable, as with
    ``python -m``); TricksimError in one line when it cannot be loaded."""
    module, _, attr = spec.partition(":")
    here = str(Path.cwd())
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        obj = importlib.import_module(module)
    except Exception as exc:    # ImportError, or the module's own code failing
        raise TricksimError(f"player {spec}: cannot import {module} ({_one_line(exc)}); a "
                            "player is MODULE:ATTR, importable from the current folder or "
                            "PYTHONPATH") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise TricksimError(f"player {spec}: {module} has no attribute {attr}")
        obj = getattr(obj, part)
    if not callable(obj) and not callable(getattr(obj, "act", None)):
        raise TricksimError(f"player {spec}: {attr} is a {type(obj).__name__}; a player is a "
                            "callable taking an observation, an object with act(obs), or a "
                            "class of such objects")
    return obj


@dataclass
class Observation:
    """What a Python player gets for one decision (its own seat only)."""

    #: the seat to act
    seat: int
    #: the game's observation tensor for this seat (float32; docs/players-api.md)
    tensor: np.ndarray
    #: bool over every action code, True where legal
    mask: np.ndarray
    #: the legal action codes
    legal: list[int]
    #: this seat's random generator for the game (seeded by run seed, game index, seat)
    rng: np.random.Generator
    #: the game index in the run
    index: int
    _engine: object = field(repr=False, default=None)
    _state: np.ndarray = field(repr=False, default=None)

    @property
    def view(self) -> dict:
        """The seat's view decoded (cards by name), as ``Engine.view`` gives it."""
        return self._engine.view(self._state, self.seat)

    def describe(self, action: int) -> str:
        """An action code in words (``play QH``)."""
        return self._engine.describe(action)

    def field(self, name: str) -> np.ndarray:
        """The columns of one field of ``tensor`` (docs/players-api.md lists them)."""
        return self._engine.observation_spec.field(self.tensor, name)


class PythonPlayer:
    """A user's player in one seat: its name (for records and errors) and the object."""

    def __init__(self, name: str, obj):
        self.name = name
        self.obj = obj
        self.decisions = 0
        self.seconds = 0.0

    @classmethod
    def of(cls, spec):
        """A PythonPlayer from ``MODULE:ATTR`` or from an object or callable."""
        if isinstance(spec, PythonPlayer):
            return spec
        if isinstance(spec, str):
            return cls(spec, _not_unjitted(spec, load_player(spec)))
        if not callable(spec) and not callable(getattr(spec, "act", None)):
            raise TricksimError(f"a player must be a policy name, MODULE:ATTR, a callable or "
                                f"an object with act(obs), not {type(spec).__name__}")
        name = getattr(spec, "__qualname__", None) or type(spec).__qualname__
        module = getattr(spec, "__module__", None) or type(spec).__module__
        return cls(f"{module}:{name}", _not_unjitted(f"{module}:{name}", spec))

    def for_game(self):
        """The callable that decides in one game (a class: a fresh instance)."""
        obj = self.obj
        if isinstance(obj, type):
            obj = obj()
        act = getattr(obj, "act", None)
        return act if callable(act) else obj


def _not_unjitted(name: str, obj):
    """``obj``, unless it is a numba player (``simulate`` plays it in the batch loop, not
    game by game) or a plain function taking ``(obs, mask, rng)`` like one without being
    @njit-compiled: then a one-line TricksimError saying so."""
    from .numba_kernels import is_numba_player, unjitted_choose
    if is_numba_player(obj):
        raise TricksimError(f"player {name} is a numba player (@njit): simulate plays it "
                            "inside the batch loop (docs/players-api.md); here a player is "
                            "a Python player, player(obs)")
    if unjitted_choose(obj):
        raise TricksimError(f"player {name} takes three arguments like a numba player "
                            "choose(obs, mask, rng) but is not @njit-compiled: decorate it "
                            "with numba.njit, or write a Python player player(obs) "
                            "(docs/players-api.md)")
    return obj


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Timeout(BaseException):
    """Raised into a player's call by the watchdog (not an Exception: user code's
    ``except Exception`` does not swallow it)."""


def _alarm(signum, frame):
    raise _Timeout()


@contextlib.contextmanager
def watchdog():
    """SIGALRM handled by the decision timeout while inside (main thread only), so that
    each decision only arms the timer; the previous handler is restored after."""
    if threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def call_with_timeout(fn, arg, timeout: float | None):
    """``fn(arg)``; _Timeout if it takes longer than ``timeout`` seconds. In the main
    thread a SIGALRM timer interrupts even a busy loop; elsewhere (a Dask worker's task
    thread) a watchdog thread raises _Timeout into the calling thread (``_Watchdog``):
    a busy loop is interrupted too, a blocking C call when it returns."""
    if not timeout:
        return fn(arg)
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        old = signal.getsignal(signal.SIGALRM)
        if old is not _alarm:
            signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            return fn(arg)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if old is not _alarm:
                signal.signal(signal.SIGALRM, old)
    dog = getattr(_WATCHDOGS, "dog", None)
    if dog is None:
        dog = _WATCHDOGS.dog = _Watchdog(threading.get_ident())
    return dog.call(fn, arg, timeout)


#: per calling thread that is not the main thread (a Dask worker's task thread)
_WATCHDOGS = threading.local()
#: how often a watchdog looks at the clock (seconds), at most
_WATCH_EVERY = 0.05


class _Watchdog:
    """Decision timeouts for one thread that is not the main thread (no SIGALRM
    there): the decision runs in that thread, and a daemon thread that looks at the
    clock every few hundredths of a second raises _Timeout into it once the deadline
    has passed (``PyThreadState_SetAsyncExc``, delivered at its next Python bytecode,
    as a signal handler's exception is). Arming it costs a lock, not a thread switch."""

    def __init__(self, target: int):
        self.target = target
        self.lock = threading.Lock()
        self.deadline = None
        self.timeout = None
        threading.Thread(target=self._watch, daemon=True, name="tricksim-watchdog").start()

    def _watch(self):
        import ctypes
        while True:
            time.sleep(min(_WATCH_EVERY, (self.timeout or 1.0) / 4))
            with self.lock:
                if self.deadline is not None and time.monotonic() > self.deadline:
                    self.deadline = None
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(self.target), ctypes.py_object(_Timeout))

    def call(self, fn, arg, timeout: float):
        """``fn(arg)`` in this thread; _Timeout once it has taken ``timeout`` seconds."""
        with self.lock:
            self.timeout = timeout
            self.deadline = time.monotonic() + timeout
        try:
            return fn(arg)
        finally:
            with self.lock:             # from here on nothing is raised into this thread
                self.deadline = None


def resolve(eng, g, rules, policies) -> list:
    """One entry per seat: a built-in policy name (checked) or a PythonPlayer."""
    if isinstance(policies, str) or (isinstance(policies, (list, tuple))
                                     and all(isinstance(p, str) for p in policies)):
        names = g.policy_names(policies, rules)
    else:
        names = list(policies) if isinstance(policies, (list, tuple)) else [policies]
        if len(names) == 1:
            names = names * eng.seats
        if len(names) != eng.seats:
            raise TricksimError(f"{len(names)} players for {eng.seats} seats; give one or "
                                f"{eng.seats}")
    loaded = {}
    seats = []
    for p in names:
        if isinstance(p, str) and not is_user_policy(p):
            eng.policy_list([p])
            seats.append(p)
        else:
            key = p if isinstance(p, str) else id(p)
            if key not in loaded:
                loaded[key] = PythonPlayer.of(p)
            seats.append(loaded[key])
    return seats


def observe(eng, st, seat: int, rng, index: int = 0) -> Observation:
    """The Observation a Python player gets for ``seat`` at state ``st`` of engine
    ``eng`` (``rng``: its numpy generator; ``index``: the game's index), e.g. to drive a
    bot from a PettingZoo loop: ``observe(e.eng, e.state_array, seat, rng)``."""
    legal = eng.legal(st)
    return Observation(seat, eng.observation_spec.encode(eng.observe(st, seat)),
                       action_mask(eng.n_actions, legal), legal, rng, int(index), eng,
                       st.copy())


def user_action(eng, player: PythonPlayer, act, obs: Observation, where: str,
                timeout: float | None) -> int:
    """The action ``act`` (a player's callable for this game) takes given ``obs`` (from
    ``observe``), checked: PlayerError in one line starting with ``where`` (the player
    and the position) when it raises, overruns ``timeout`` or returns no legal action
    code."""
    legal = obs.legal
    t0 = time.perf_counter()
    try:
        a = call_with_timeout(act, obs, timeout)
    except _Timeout:
        raise PlayerError(f"{where}: no action within {timeout:g} s (the decision "
                          "timeout)") from None
    except Exception as exc:
        raise PlayerError(f"{where}: raised {_one_line(exc)}") from None
    player.seconds += time.perf_counter() - t0
    player.decisions += 1
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
        raise PlayerError(f"{where}: returned {a!r} ({type(a).__name__}); a player "
                          f"returns an action code (an int) from obs.legal")
    if int(a) not in legal:
        shown = eng.describe(int(a)) if 0 <= int(a) < eng.n_actions else "no action"
        raise PlayerError(f"{where}: returned {int(a)} ({shown}), not legal here; legal: "
                          + ", ".join(f"{x} ({eng.describe(x)})" for x in legal))
    return int(a)


def seat_names(seats: list) -> list[str]:
    """The names ``resolve``'s seats go by in records and output."""
    return [s.name if isinstance(s, PythonPlayer) else s for s in seats]


def _in_game(index: int, deal: int, done: int) -> str:
    return (f"game {index}, deal {deal} after {done} recorded "
            f"action{'s' if done != 1 else ''}")


def decider(eng, seed: int, index: int, seats: list,
            timeout: float | None = DEFAULT_TIMEOUT, position=_in_game):
    """``decide(st, seat, deal, done)``: the action of ``seats[seat]`` (a built-in name
    or a PythonPlayer, from ``resolve``) in game ``index`` of run ``seed``; a Python
    player gets its observation and its seat's generator, and a failure of it is a
    PlayerError naming it and the position (``position(index, deal, done)``: by default
    game ``index``, ``deal``, ``done`` recorded actions)."""
    acts = {p: seat.for_game() for p, seat in enumerate(seats) if isinstance(seat, PythonPlayer)}
    rngs = {p: np.random.default_rng([int(seed), int(index), p]) for p in acts}

    def decide(st, seat, deal, done):
        if seat not in acts:
            return eng.choose(seats[seat], st)
        where = f"player {seats[seat].name} (seat {seat}) in {position(index, deal, done)}"
        return user_action(eng, seats[seat], acts[seat],
                           observe(eng, st, seat, rngs[seat], index), where, timeout)
    return decide


def play_game(eng, seed: int, index: int, seats: list, timeout: float | None = DEFAULT_TIMEOUT,
              scored=None) -> dict:
    """Game ``index`` of run ``seed`` with ``seats`` (from ``resolve``), as a record;
    ``scored(st)``: called with each deal's scored state (``Engine._play``)."""
    decide = decider(eng, seed, index, seats, timeout)
    st = eng.new(seed, index)
    eng._trusted = True             # the state is this call's own, made by the kernels
    try:
        return eng._play(st, seed, index, seat_names(seats), decide, scored)
    finally:
        eng._trusted = False


def play_games(game: str, rules, policies, games: int, seed: int, *, start: int = 0,
               timeout: float | None = DEFAULT_TIMEOUT, progress=None) -> list[dict]:
    """Records of games ``start .. start + games - 1`` of run ``seed`` with ``policies``
    (one per seat or one for all: built-in names, ``MODULE:ATTR``, callables or objects)."""
    from .registry import get_game
    g = get_game(game)
    rules = g.build_rules() if rules is None else rules
    eng = g.engine(rules)
    return play_seated(eng, resolve(eng, g, rules, policies), seed,
                       range(start, start + games), timeout, progress)


def play_seated(eng, seats: list, seed: int, indices: range,
                timeout: float | None = DEFAULT_TIMEOUT, progress=None) -> list[dict]:
    """Records of games ``indices`` of run ``seed`` on engine ``eng`` with ``seats``
    (from ``resolve``); ``progress(done, len(indices))`` after each game."""
    out = []
    with watchdog():
        for k, i in enumerate(indices):
            out.append(play_game(eng, seed, i, seats, timeout))
            if progress is not None:
                progress(k + 1, len(indices))
    return out


def uses_python(policies) -> bool:
    """Whether a policy list (or one policy) names a Python player: ``MODULE:ATTR``,
    a callable or an object (built-in names are strings)."""
    listed = policies if isinstance(policies, (list, tuple)) else [policies]
    return any(is_user_policy(p) or (p is not None and not isinstance(p, str))
               for p in listed)


#: games a Python-driven run plays between two progress reports
PLAYED_BLOCK = 64
#: games per chunk of a Python-driven run on worker processes (``--workers``,
#: ``--scheduler``): the unit it is checkpointed, resumed and spread in (fixed by the
#: command alone, like every chunk size: ``simcore.running.chunking``)
PROCESS_CHUNK = 256


def played_part(g, eng, seats, seed: int, indices: range,
                timeout: float | None, summary_only: bool = False, records=None):
    """Games ``indices`` (a step-1 range) of run ``seed`` played game by game in this
    thread under the engine's rules (``play_game``; ``seats``: ``resolve``'s), as a
    chunk's (aggregates, frames or None with ``summary_only``), the tables built by the
    kernels' own row writers (``Game.played_chunk``), so any cut of a run into parts
    gives the same results.
    ``records``: a list each game's record is appended to as a JSON line (with its
    newline), as a records file holds it."""
    import json
    scored = []
    with watchdog():
        for i in indices:
            states = []
            rec = play_game(eng, seed, i, seats, timeout, lambda st: states.append(st.copy()))
            scored.append(states)
            if records is not None:
                records.append(json.dumps(rec, separators=(",", ":")) + "\n")
    rules = eng.rules
    chunk = g.played_chunk(rules, indices.start, scored)
    agg = g.aggregate(chunk, rules)
    return agg, None if summary_only else g.frames(chunk, rules, seat_names(seats))


def python_run(game: str, rules, policies, settings, progress=None, seats=None):
    """A run of games ``0 .. settings.games - 1`` of run ``settings.seed`` with Python
    players in some seats, as ``simcore.running.runner.simulate`` returns one (a
    RunResult: the same summary, fairness and, unless ``summary_only``, tables), so that
    sweeps and comparisons take it as they take a batch run.  The games are played one
    by one in this thread through the Engine (``decider``: a Python player's generator
    from (seed, game, seat), a failure of it one line naming it and the position;
    ``settings.player_timeout`` per decision; built-in seats play as in the kernels),
    their tables built by the kernels' own row writers (``Game.played_chunk``).  Not
    checkpointed: a stopped run starts over.  ``seats``: ``resolve``'s, if resolved.
    On worker processes (``settings.workers`` or ``scheduler``), see
    :func:`process_run`."""
    from .bits import seed_from_entropy
    from .registry import get_game
    from .running.runner import RunResult
    from .statistics.stats import add_sums, fairness_frame
    g = get_game(game)
    eng = g.engine(rules)
    seats = resolve(eng, g, rules, policies) if seats is None else seats
    names = seat_names(seats)
    seed = seed_from_entropy() if settings.seed is None else int(settings.seed)
    total, kept = None, {}
    t0 = time.perf_counter()
    with watchdog():
        for start in range(0, settings.games, PLAYED_BLOCK):
            count = min(settings.games - start, PLAYED_BLOCK)
            agg, frames = played_part(g, eng, seats, seed,
                                      range(start, start + count),
                                      settings.player_timeout, settings.summary_only)
            total = add_sums(total, agg)
            for name, frame in (frames or {}).items():
                kept.setdefault(name, []).append(frame)
            if progress is not None:
                progress(start + count, settings.games)
    import pandas as pd
    summary = g.summarize(total, rules, names)
    summary["fairness"] = fairness_frame(summary, g.contract(rules))
    tables = {name: pd.concat(parts, ignore_index=True) for name, parts in kept.items()}
    return RunResult(game, rules, names, seed, settings.games, 1, PLAYED_BLOCK,
                     time.perf_counter() - t0, total, summary, tables, settings.games,
                     {"executor": "python", "chunks": -(-settings.games // PLAYED_BLOCK)})


# ----- Python players on worker processes ---------------------------------------------
#: per worker process: the seats of the policy lists it has played (loaded once)
_WORKER_SEATS: dict = {}


@dataclass
class Recorded:
    """A chunk's frames (None: summary-only) with its games' records (JSON Lines
    bytes): what :func:`python_chunk` returns in place of the frames when asked for
    records (``process_run`` takes them apart before the runner sees the chunk)."""

    frames: dict | None
    records: bytes


def python_chunk(game: str, rules_state, policies, seed: int, start: int, count: int,
                 summary_only: bool, options: dict | None = None):
    """A chunk of a run with Python players (``policies``: names, the Python players as
    ``MODULE:ATTR``, imported here) played in this process, as the runner's
    ``play_chunk`` returns one: what a Dask worker runs for :func:`process_run`.
    ``options``: ``player_timeout`` (seconds a decision, default ``DEFAULT_TIMEOUT``)
    and ``records`` (default False); with ``records`` its frames are a
    :class:`Recorded` holding the games' records too (the same play).  A player's
    failure is its PlayerError line (player, game index, position)."""
    options = options or {}
    player_timeout = options.get("player_timeout", DEFAULT_TIMEOUT)
    records = options.get("records", False)
    from .registry import get_game
    g = get_game(game)
    rules = g.rulebook.from_dict(rules_state[1]) if isinstance(rules_state, tuple) \
        else rules_state
    key = (game, rules.canonical(), tuple(policies))
    if key not in _WORKER_SEATS:
        eng = g.engine(rules)
        _WORKER_SEATS[key] = (eng, resolve(eng, g, rules, list(policies)))
    eng, seats = _WORKER_SEATS[key]
    lines = [] if records else None
    agg, frames = played_part(g, eng, seats, seed, range(start, start + count),
                              player_timeout, summary_only, lines)
    return (agg, Recorded(frames, "".join(lines).encode())) if records else (agg, frames)


def python_records(game: str, rules_state, policies, seed: int, start: int, count: int,
                   player_timeout: float | None = DEFAULT_TIMEOUT) -> bytes:
    """The JSON Lines text of the records of games ``start .. start + count - 1`` (a
    Dask task of :func:`process_run`'s records file)."""
    import json
    from .registry import get_game
    g = get_game(game)
    rules = g.rulebook.from_dict(rules_state[1]) if isinstance(rules_state, tuple) \
        else rules_state
    recs = play_games(game, rules, list(policies), count, seed, start=start,
                      timeout=player_timeout)
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs).encode()


def check_importable(seats) -> None:
    """A one-line TricksimError unless every Python player among ``seats``
    (``resolve``'s) can be loaded by its name ``MODULE:ATTR`` in another process: a
    worker imports it, it is never pickled. A player defined in ``__main__``, a lambda,
    a local function or an instance (not its class) is refused before anything runs."""
    for s in seats:
        if not isinstance(s, PythonPlayer):
            continue
        ok = is_user_policy(s.name) and not s.name.startswith("__main__:")
        if ok:
            try:
                ok = load_player(s.name) is s.obj
            except TricksimError:
                ok = False
        if not ok:
            raise TricksimError(
                f"player {s.name}: on worker processes (--workers, --scheduler) a Python "
                "player must be importable by its name MODULE:ATTR in every worker: a "
                "function or class at the top level of a module on the path, not defined "
                "in __main__, not a lambda, a local function or an instance; move it into "
                "a module, or play without workers")


@dataclass(frozen=True)
class _PythonPlan:
    """The runner's plan of a run with Python players, with the decision timeout (not
    part of the run's identity: the results do not depend on it)."""

    plan: object
    player_timeout: float | None
    #: the chunks' tasks return their games' records too (``python_chunk``)
    records: bool = False

    def __getattr__(self, name):
        return getattr(self.plan, name)

    @property
    def task(self):
        """The Dask task a chunk of this run is played by (instead of the runner's)."""
        return python_chunk

    def task_options(self) -> dict:
        """What a Dask task of this run takes besides the runner's arguments."""
        return {"options": {"player_timeout": self.player_timeout, "records": self.records}}


def process_run(game: str, rules, policies, settings, progress=None, out=None, records=None,
                records_progress=None, executor=None):
    """:func:`python_run` on worker processes: the runner's chunked run (``simulate``'s
    RunResult, run folder ``out`` checkpointed chunk by chunk and resumed, records file
    ``records``) whose chunks of ``PROCESS_CHUNK`` games are played by Dask workers
    (``executor``, or the cluster ``settings`` name: a local one of ``workers``
    processes, or the one at ``scheduler``), each importing the Python players by name.
    Each game's play depends on (seed, game index, seat) alone, so the tables, summary
    and records equal the one-process run's for any worker count and chunk size."""
    from .registry import get_game
    from .running.checkpoint import RunPlan
    from .running.cluster import open_executor
    from .running.runner import MAX_CHUNK, MAX_GAMES, _seed_and_chunk
    g = get_game(game)
    rules = g.build_rules() if rules is None else rules
    seats = resolve(g.engine(rules), g, rules, policies)
    check_importable(seats)
    if not 1 <= settings.games <= MAX_GAMES:
        raise TricksimError(f"--games {settings.games} is not allowed; allowed: a positive "
                            f"integer, at most 2**63 - 1 = {MAX_GAMES}")
    seed, chunk = _seed_and_chunk(settings, out)
    chunk = PROCESS_CHUNK if chunk is None else int(chunk)
    if not 1 <= chunk <= MAX_CHUNK:
        raise TricksimError(f"--chunk-size {chunk} is not allowed; allowed: a positive "
                            f"integer, at most {MAX_CHUNK}")
    plan = _PythonPlan(RunPlan(game, rules, tuple(seat_names(seats)), seed, settings.games,
                               chunk, bool(settings.summary_only)), settings.player_timeout,
                       records is not None)
    run = _process_chunked_run()(plan, 1, out, settings.resume, progress, records,
                                 records_progress)
    if executor is not None:
        return run.play_on(executor)
    with open_executor(settings) as ex:
        return run.play_on(ex)


def _process_chunked_run():
    """The runner's ``_ChunkedRun`` whose records come back with the chunks' results
    from the workers (one play of each game), kept on disk chunk by chunk
    (:class:`RecordParts`) and joined into the records file once the run is done."""
    from .running.runner import _ChunkedRun

    class _ProcessRun(_ChunkedRun):
        def play_on(self, executor):
            self.executor = executor
            if self.records is None:
                return super().play_on(executor)
            self.parts = RecordParts(self.records, self.plan)
            return super().play_on(_Recording(executor, self.parts))

        def _write_records(self) -> dict:
            t1 = time.perf_counter()
            replayed = self.parts.join(self.executor, self.records_progress)
            return {"path": str(self.records), "games": self.plan.games,
                    "wall_time_s": round(time.perf_counter() - t1, 6),
                    "played_by": "the chunks' tasks, with their results",
                    "chunks_played_again": replayed}
    return _ProcessRun


class _Recording:
    """An executor whose chunks' records (``python_chunk`` with ``records``) are saved
    as :class:`RecordParts` as they come, the chunks passed on without them."""

    def __init__(self, executor, parts):
        self.inner, self.parts = executor, parts

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def run(self, plan, chunks):
        for k, agg, frames in self.inner.run(plan, chunks):
            if isinstance(frames, Recorded):
                self.parts.save(k, frames.records)
                frames = frames.frames
            yield k, agg, frames


class RecordParts:
    """The records of a run's chunks, a file each, beside the records file in a hidden
    folder ``.NAME.parts`` with the run's plan: saved (atomically) as each chunk comes
    back, so a run stopped and resumed keeps those of its finished chunks, and joined
    into the records file (atomically) once every chunk is done.  Parts of another run
    (another plan) found there are removed first.  Records written to a device (a
    pipe, ``/dev/stdout``) keep their parts in a temporary folder instead."""

    def __init__(self, path, plan):
        import json
        import tempfile
        from .statistics.stats import check_output_path, write_text
        self.path = Path(path)
        self.plan = plan
        if check_output_path(self.path) == "device":
            self.folder = Path(tempfile.mkdtemp(prefix="tricksim-records-"))
        else:
            self.folder = self.path.parent / f".{self.path.name}.parts"
        marker = self.folder / "plan.json"
        key = json.dumps(plan.key(), sort_keys=True)
        try:
            same = marker.read_text() == key
        except OSError:
            same = False
        if not same:
            self._clear()
            self.folder.mkdir(parents=True, exist_ok=True)
            write_text(key, marker)

    def _part(self, k: int) -> Path:
        return self.folder / f"chunk-{k:09d}.jsonl"

    def _clear(self) -> None:
        """Remove the folder's parts and plan (nothing else), then the folder if empty."""
        if not self.folder.is_dir():
            return
        for entry in self.folder.iterdir():
            if re.fullmatch(r"chunk-\d{9}\.jsonl|plan\.json|\..*\.tmp", entry.name) \
                    and entry.is_file():
                entry.unlink()
        with contextlib.suppress(OSError):
            self.folder.rmdir()

    def save(self, k: int, data: bytes) -> None:
        """Keep chunk ``k``'s records."""
        from .statistics.stats import write_bytes
        write_bytes(data, self._part(k))

    def join(self, executor, progress=None) -> int:
        """Write the records file from the parts (atomically), chunks without one (done
        by an earlier attempt without records) played by ``executor``'s workers; the
        parts are removed after.  Returns how many chunks were played for it."""
        import shutil
        from .statistics.stats import atomic_write, remove_stale_temps
        plan = self.plan
        missing = [k for k in range(plan.chunks) if not self._part(k).is_file()]
        if missing:
            for k, data in _chunk_records(executor, plan, missing):
                self.save(k, data)
        remove_stale_temps(self.path)

        def write(tmp):
            with open(tmp, "wb") as fh:
                for k in range(plan.chunks):
                    with open(self._part(k), "rb") as part:
                        shutil.copyfileobj(part, fh)
                    if progress:
                        progress(sum(plan.chunk_range(k)), plan.games)

        atomic_write(self.path, write)
        self._clear()
        return len(missing)


def _chunk_records(executor, plan, chunks):
    """(chunk, its records as JSON Lines bytes) for each of ``chunks``, in order, played
    by ``executor``'s Dask workers (``python_records``), a window of them at a time."""
    from collections import deque
    from .running.cluster import _rules_state
    state = _rules_state(plan.rules)
    todo = iter(chunks)
    window = executor._window()
    pending = deque()
    try:
        while True:
            for k in todo:
                start, count = plan.chunk_range(k)
                pending.append((k, executor.client.submit(
                    python_records, plan.game, state, list(plan.policies), plan.seed, start,
                    count, plan.player_timeout, pure=False)))
                if len(pending) >= window:
                    break
            if not pending:
                break
            k, fut = pending.popleft()
            yield k, fut.result()
    finally:
        if pending:
            executor.client.cancel([f for _, f in pending])


def check_local(settings, policies) -> None:
    """On a cluster (``settings``), refuse a policy list whose Python player cannot be
    imported by name in a worker process (:func:`check_importable`)."""
    if settings.on_cluster and uses_python(policies):
        listed = policies if isinstance(policies, (list, tuple)) else [policies]
        check_importable([PythonPlayer.of(p) for p in listed
                          if not isinstance(p, str) or is_user_policy(p)])


def play_run(game: str, rules, policies, settings, progress=None, where: str = "",
             **batch):
    """One run of a sweep's variant, a comparison's side or a rotation:
    ``simulate(game, rules, policies, settings=settings, progress=progress, **batch)``
    (the batch kernels; ``batch``: its run folder ``out``, ``executor``), or where a seat
    is a Python player :func:`python_run` (game by game in this thread, not
    checkpointed: its run folder ``out``, if given, is written once the run is played)
    or, on a Dask executor or cluster, :func:`process_run` (chunks on the workers,
    checkpointed into ``out``), a PlayerError then starting with ``where`` (the variant,
    the side, the rotation or the batch's run) when given."""
    from .running.runner import simulate, write_run
    if not uses_python(policies):
        return simulate(game, rules, policies, settings=settings, progress=progress, **batch)
    ex = batch.get("executor")
    try:
        if (settings.on_cluster if ex is None else
                ex.description.get("executor") == "dask"):
            return process_run(game, rules, policies, settings, progress,
                               out=batch.get("out"), executor=ex)
        result = python_run(game, rules, policies, settings, progress)
    except PlayerError as exc:
        raise PlayerError(f"{where}: {exc}" if where else str(exc)) from None
    if batch.get("out") is not None:
        write_run(result, batch["out"])
    return result


def seats_of(g, rules, policies) -> list:
    """One entry per seat of a policy list (one for every seat or one per seat) that may
    hold Python players: built-in names checked and canonical (``Game.policy_ids``), or
    where a seat has a Python player ``resolve``'s list (the players loaded: one line if
    one cannot be)."""
    if not uses_python(policies):
        return g.policy_ids(policies, rules)[0]
    return resolve(g.engine(rules), g, rules, policies)


def player_names(g, rules, policies) -> list[str]:
    """The names of :func:`seats_of`'s seats, as records and tables name them."""
    return seat_names(seats_of(g, rules, policies))


def seat_summary(game: str, rules, records: list[dict], names: list[str]):
    """Per-seat standing (win rate, or mean score) with 95% intervals, from records."""
    import pandas as pd
    from .registry import get_game
    from .statistics.stats import mean_ci, rate_ci
    g = get_game(game)
    spec = g.engine(rules).observation_spec
    stand = np.array([spec.standing(r["result"]) for r in records], dtype=np.float64)
    rows = []
    for p, name in enumerate(names):
        x = stand[:, p]
        if spec.standing_name == "win":
            v, lo, hi = rate_ci(int(x.sum()), len(x))
        else:
            v, _, lo, hi = mean_ci(x.sum(), (x * x).sum(), len(x))
        rows.append({"seat": p, "policy": name, "games": len(x), spec.standing_name: v,
                     "low": lo, "high": hi})
    return pd.DataFrame(rows)


def cost_line(seats) -> str | None:
    """Each Python player's decisions and mean time per decision, or None."""
    seen, parts = set(), []
    for s in seats:
        if isinstance(s, PythonPlayer) and id(s) not in seen and s.decisions:
            seen.add(id(s))
            parts.append(f"{s.name}: {s.decisions:,} decisions, "
                         f"{1e6 * s.seconds / s.decisions:,.1f} µs each (its own time)")
    return "; ".join(parts) if parts else None


@dataclass
class PythonRun:
    """What ``simulate_python`` played: per-seat standings, the players, the time."""

    game: str
    seed: int
    games: int
    policies: list[str]
    table: object
    seats: list
    wall_time: float


def simulate_python(game: str, rules, policies, settings, out, records=None,
                    progress=None) -> PythonRun:
    """``simulate`` with Python players: ``settings.games`` games of run ``settings.seed``
    (None: drawn) driven game by game through the Engine (``settings.player_timeout``
    seconds a decision; a ``RunSettings``), the per-seat table written to ``out`` (a
    folder marked ``players.json``: ``players.csv``), every record to ``records`` (a
    JSON Lines file) if given. Not resumable: a stopped run starts over (its folder
    keeps no partial results)."""
    import json
    from .bits import seed_from_entropy
    from .folders import own
    from .registry import get_game
    from .statistics.stats import write_csv, write_json, write_text
    g = get_game(game)
    games = settings.games
    seed = seed_from_entropy() if settings.seed is None else int(settings.seed)
    eng = g.engine(rules)
    seats = resolve(eng, g, rules, policies)
    names = seat_names(seats)
    with own(out, "players", game=game, seed=seed, games=games, policies=names) as info:
        t0 = time.perf_counter()
        recs = play_seated(eng, seats, seed, range(games), settings.player_timeout,
                           progress)
        wall = time.perf_counter() - t0
        table = seat_summary(game, rules, recs, names)
        write_csv(table, Path(out) / "players.csv")
        if records:
            write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs),
                       records)
        write_json({**info, "status": "done", "rules": rules.to_dict(),
                    "wall_time_s": round(wall, 6)}, Path(out) / "players.json")
    return PythonRun(game, seed, games, names, table, seats, wall)


__all__ = ["Observation", "PlayerError", "PythonPlayer", "call_with_timeout", "cost_line",
           "check_importable", "is_user_policy", "load_player", "observe", "play_game",
           "play_games", "play_run", "play_seated", "player_names", "process_run",
           "python_chunk", "python_run", "resolve", "seats_of",
           "seat_summary", "simulate_python", "uses_python", "DEFAULT_TIMEOUT"]
