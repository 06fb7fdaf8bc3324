"""Your own numba player inside the batch runs: ``simulate`` at kernel speed.

A numba player is an ``@njit`` function ``choose(obs, mask, rng) -> action`` over one
decision of its seat: ``obs`` the seat's float32 observation tensor (the game's one
encoding, docs/players-api.md), ``mask`` the bool legal-action mask, ``rng`` a
one-element uint64 array holding the seat's splitmix64 state (advance it with
``simcore.bits.bounded``).  Named on the command line (``--policy mybots:choose,heuristic``)
or given as the function (``simulate(game, policies=[choose, "heuristic"])``), it plays
its seats inside one jitted loop over the games (``prange``), the built-in players the
other seats, with no Python per decision:

    >>> from simcore import simulate
    >>> res = simulate("schnapsen", policies=[my_choose, "heuristic"], games=10_000,
    ...                seed=1)                                   # doctest: +SKIP

Each game starts from ``(seed, game index)`` as in any run, and each numba seat's
stream from ``seat_stream(seed, game index, seat)``, so a run is the same on any number
of threads and for any chunk size.  The games' tables, summary and run folder are the
kernel run's own (the game's row writers; chunked, checkpointed and resumed the same
way); records are written by playing the games again through the Engine, the player
called from Python per decision (the same games, slower).

The loop takes the user's function as an argument, so numba cannot cache it: it
compiles once per process (for each player function; a few seconds), before the run's
clock starts.  The game's side of it is ``Game.numba_kernels(rules)`` (cached kernels:
start a game, play the built-in seats up to a numba seat's turn writing each scored
deal's row, write a seat's observation and mask, apply an action; and the tables of a
chunk), so the loop itself is the same for every game.

An action that is not legal stops the run with one line naming the player, the game
index and the position (the deal and its recorded actions before it, as for a Python
player: the game is replayed through the Engine to find it).  A function that is not
``@njit``-compiled, does not compile for these arguments, or returns something other
than an integer is refused before anything is played.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numba
import numpy as np
from numba import njit, prange, types

from .bits import U1, game_stream, mix64
from .errors import TricksimError
from .vector_kernels import MASK_WORDS, encoding_table

#: what ``numba.extending.is_jitted`` accepts: a numba player is an @njit function
_JITTED = numba.core.registry.CPUDispatcher
#: the argument types the batch loop calls a numba player with
ARG_TYPES = (types.float32[::1], types.boolean[::1], types.uint64[::1])
SIGNATURE = "choose(obs: float32[:], mask: bool[:], rng: uint64[1]) -> int"
#: games per parallel task when no built-in player searches (one each when one does)
BLOCK = 64


class NumbaKernels(NamedTuple):
    """A game's side of a numba player's run (``Game.numba_kernels(rules)``)."""

    #: ``start(r, st, seed, index)``: game ``index`` of run ``seed`` into ``st``
    start: object
    #: ``advance(r, policies, user, st, rows, nd, work) -> (nd, seat)``: the built-in
    #: seats play (each scored deal's row into ``rows[nd]``, ``nd`` counting them) until
    #: ``user[seat]`` is to act, or the game is over (seat -1)
    advance: object
    #: ``view(r, st, table, n_cards, words, obs, acts, mask, legal)``: the tensor, mask
    #: and legal bits of the seat to act (the batch environment's writer)
    view: object
    #: ``apply(r, st, action)``: a legal action
    apply: object
    #: ``scratch(policies)``: the built-in players' scratch space, passed to ``advance``
    scratch: object
    #: rows per game, columns and dtype of ``advance``'s deal rows
    rows: tuple
    #: ``tables(start, rows, deals, finals)``: the chunk ``Game.run_chunk`` returns, from
    #: the deal rows, the deals per game and each game's final state
    tables: Callable


def is_numba_player(obj) -> bool:
    """Whether ``obj`` is a numba player (an ``@njit`` function)."""
    return isinstance(obj, _JITTED)


def unjitted_choose(obj) -> bool:
    """Whether ``obj`` is a plain function shaped like a numba player (three required
    positional parameters) that is not ``@njit``-compiled."""
    import inspect
    if not inspect.isfunction(obj):
        return False
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return False
    required = [p for p in params if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(required) == 3


def check_numba_player(choose, name: str) -> None:
    """Compile ``choose`` for the batch loop's arguments (``ARG_TYPES``); a one-line
    TricksimError when it is not an @njit function, does not compile for them, or does
    not return an integer."""
    if not is_numba_player(choose):
        raise TricksimError(f"player {name}: a numba player is an @njit function {SIGNATURE}, "
                            f"not {type(choose).__name__}")
    try:
        choose.compile(ARG_TYPES)
    except Exception as exc:  # noqa: BLE001  (numba's TypingError, a wrong arity, ...)
        first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), "")
        raise TricksimError(f"player {name}: does not compile as {SIGNATURE} "
                            f"({type(exc).__name__}: {first})") from None
    ret = choose.overloads[ARG_TYPES].signature.return_type
    if not isinstance(ret, types.Integer):
        raise TricksimError(f"player {name}: returns {ret}, not an integer; a numba player "
                            "returns the action code it plays (an int)")


def player_name(obj) -> str:
    """``module:qualname`` of a function given as an object (records and tables)."""
    fn = getattr(obj, "py_func", obj)
    return f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', '?')}"


@njit(cache=True, inline="always")
def seat_stream(seed, index, seat):
    """The initial splitmix64 state of seat ``seat``'s numba player in game ``index`` of
    run ``seed`` (independent of the game's own stream, which the built-in players use)."""
    return mix64(game_stream(seed, index) ^ mix64(np.uint64(seat + 1)))


@njit(cache=True)
def seat_stream_py(seed, index, seat):
    """``seat_stream`` as one call from Python."""
    return seat_stream(np.uint64(seed), np.int64(index), np.int64(seat))


@njit(parallel=True)
def _play_chunk(choose, start_game, advance, view, apply, scratch, r, policies, user, seed,
                start, count, block, dims, table, n_cards, rows, deals, finals, bad):
    """Games ``start .. start+count-1`` of run ``seed``, ``block`` a task: the seats with
    ``user[p]`` played by ``choose``, the others by ``policies[p]`` (the game's kernels
    ``start_game`` .. ``scratch``, see NumbaKernels).  Writes each game's deal rows, deal
    count and final state; ``bad[g]`` = (1, seat, action) where game ``g`` stopped at an
    action that is not legal.  Not cached: it takes the user's function."""
    seats = user.shape[0]
    for b in prange((count + block - 1) // block):
        st = np.zeros(dims[0], np.int64)
        obs = np.zeros(dims[1], np.float32)
        mask = np.zeros(dims[2], np.bool_)
        words = np.zeros(dims[3], np.int64)
        acts = np.zeros(dims[4], np.int64)
        legal = np.zeros(MASK_WORDS, np.uint64)
        rng = np.zeros((seats, 1), np.uint64)
        work = scratch(policies)
        for g in range(b * block, min(count, (b + 1) * block)):
            index = start + g
            start_game(r, st, seed, index)
            for p in range(seats):
                rng[p, 0] = seat_stream(seed, index, p)
            nd = 0
            while True:
                nd, who = advance(r, policies, user, st, rows[g], nd, work)
                if who < 0:
                    break
                view(r, st, table, n_cards, words, obs, acts, mask, legal)
                a = np.int64(choose(obs, mask, rng[who]))
                if a < 0 or a >= 64 * MASK_WORDS \
                        or (legal[a >> 6] >> np.uint64(a & 63)) & U1 == 0:
                    bad[g, 0] = 1
                    bad[g, 1] = who
                    bad[g, 2] = a
                    break
                apply(r, st, a)
            deals[g] = nd
            finals[g, :] = st


@dataclass
class NumbaSeats:
    """A policy list with numba players in some seats: what the batch loop takes."""

    #: one name per seat (a numba player's ``module:qualname`` or its MODULE:ATTR)
    names: list[str]
    #: the numba player's function
    choose: object
    #: bool per seat: played by ``choose``
    user: np.ndarray
    #: the built-in players' kernel ids (0 in the numba player's seats)
    ids: np.ndarray
    #: the built-in names, a numba seat as ``random`` (for chunk planning)
    builtin: list[str] = field(default_factory=list)


def uses_numba(policies) -> bool:
    """Whether a policy list (or one policy) holds a numba player: an @njit function,
    or MODULE:ATTR naming one (loaded to find out)."""
    from .players import is_user_policy, load_player
    listed = policies if isinstance(policies, (list, tuple)) else [policies]
    for p in listed:
        if is_numba_player(p):
            return True
        if isinstance(p, str) and is_user_policy(p) and is_numba_player(load_player(p)):
            return True
    return False


def numba_seats(g, rules, policies) -> NumbaSeats:
    """The seats of a policy list with a numba player (one entry for every seat, or one
    per seat): the player loaded and checked (``check_numba_player``), the built-in
    names checked.  One numba player function per run; its seats may be several."""
    from .players import is_user_policy, load_player
    n = g.seats(rules)
    if isinstance(policies, str):
        policies = policies.split(",")
    listed = list(policies) if isinstance(policies, (list, tuple)) else [policies]
    if all(isinstance(p, str) for p in listed):
        listed = g.policy_names(listed, rules)
    elif len(listed) == 1:
        listed = listed * n
    if len(listed) != n:
        raise TricksimError(f"{len(listed)} players for {n} seats; give one or {n}")
    names, fns, user = [], [], []
    for p in listed:
        if isinstance(p, str) and is_user_policy(p):
            obj = load_player(p)
            if not is_numba_player(obj):
                raise TricksimError(f"player {p} is a Python player; a run with a numba "
                                    "player takes built-in players in its other seats")
            names.append(p)
            fns.append(obj)
        elif is_numba_player(p):
            names.append(player_name(p))
            fns.append(p)
        elif isinstance(p, str):
            names.append(p)
        else:
            raise TricksimError(f"a run with a numba player takes built-in players (names) "
                                f"in its other seats, not {type(p).__name__}")
        user.append(not isinstance(p, str) or is_user_policy(p))
    if len({id(getattr(f, "py_func", f)) for f in fns}) != 1:
        raise TricksimError("a run takes one numba player function (in any of its seats); "
                            "tricksim tournament plays several players against each other")
    choose = fns[0]
    check_numba_player(choose, names[user.index(True)])
    builtin = ["random" if u else nm for nm, u in zip(names, user)]
    canon, ids = g.policy_ids(builtin, rules)
    names = [nm if u else c for nm, c, u in zip(names, canon, user)]
    user = np.array(user, dtype=np.bool_)
    ids = np.where(user, 0, ids).astype(np.int64)
    return NumbaSeats(names, choose, user, ids, builtin)


def numba_chunk(g, rules, seats: NumbaSeats, seed: int, start: int, count: int,
                kernels: NumbaKernels | None = None) -> dict:
    """Games ``start .. start+count-1`` of run ``seed`` with ``seats`` (a numba player's),
    as ``Game.run_chunk`` returns them; a PlayerError naming the first game (lowest
    index) whose numba player returned an action that is not legal."""
    from .running.chunking import searches
    k = g.numba_kernels(rules) if kernels is None else kernels
    eng = g.engine(rules)
    spec = eng.observation_spec
    state_size, n_words, max_legal = eng.vector_kernels().SIZES
    dims = np.array([state_size, spec.size, eng.n_actions, n_words, max_legal], np.int64)
    per, cols, dtype = k.rows
    rows = np.zeros((count, per, cols), dtype)
    deals = np.zeros(count, np.int64)
    finals = np.zeros((count, state_size), np.int64)
    bad = np.zeros((count, 3), np.int64)
    block = 1 if searches(g.name, seats.builtin, rules) else BLOCK
    _play_chunk(seats.choose, k.start, k.advance, k.view, k.apply, k.scratch, eng.r,
                seats.ids, seats.user, np.uint64(seed), start, count, block, dims,
                encoding_table(spec), spec.n_cards, rows, deals, finals, bad)
    failed = np.flatnonzero(bad[:, 0])
    if len(failed):
        i = int(failed[0])
        raise illegal_action(g, rules, seats, seed, start + i, int(bad[i, 1]), int(bad[i, 2]))
    return k.tables(start, rows, deals, finals)


def _engine_decider(eng, seats: NumbaSeats, seed: int, index: int):
    """``decide(st, seat, deal, done)`` for ``Engine._play``: the numba player called from
    Python (its seat's stream as in the batch loop), the built-in players by name; an
    action that is not legal is a PlayerError naming the player and the position."""
    from .players import PythonPlayer, _in_game, user_action
    rng = {p: np.array([seat_stream_py(seed, index, p)], np.uint64)
           for p in range(len(seats.names)) if seats.user[p]}

    def decide(st, seat, deal, done):
        if seat not in rng:
            return eng.choose(seats.names[seat], st)
        player = PythonPlayer(seats.names[seat], seats.choose)
        where = f"player {player.name} (seat {seat}) in {_in_game(index, deal, done)}"
        return user_action(eng, player, lambda obs: seats.choose(obs.tensor, obs.mask,
                                                                 rng[seat]),
                           st, seat, None, index, where, None)
    return decide


def play_record(g, rules, seats: NumbaSeats, seed: int, index: int) -> dict:
    """Game ``index`` of run ``seed`` played through the Engine with ``seats`` (the numba
    player called from Python per decision): its record, the same game the batch loop
    plays."""
    eng = g.engine(rules)
    st = eng.new(seed, index)
    eng._trusted = True
    try:
        return eng._play(st, seed, index, seats.names, _engine_decider(eng, seats, seed, index))
    finally:
        eng._trusted = False


def illegal_action(g, rules, seats: NumbaSeats, seed: int, index: int, seat: int,
                   action: int) -> TricksimError:
    """The one-line error for game ``index``, where the batch loop saw the numba player in
    ``seat`` return ``action``, not legal: the game replayed through the Engine names the
    position (deal, recorded actions) and the legal actions."""
    from .players import PlayerError
    try:
        play_record(g, rules, seats, seed, index)
    except PlayerError as exc:
        return exc
    return PlayerError(f"player {seats.names[seat]} (seat {seat}) in game {index}: returned "
                       f"{action}, not a legal action code there")


class _NumbaExecutor:
    """Plays a run's chunks with a numba player, one after another over ``threads``
    numba threads (the interface of ``simcore.running.cluster.LocalExecutor``)."""

    def __init__(self, g, rules, seats: NumbaSeats, threads: int):
        self.g, self.rules, self.seats, self.threads = g, rules, seats, threads
        self.kernels = g.numba_kernels(rules)
        self.description = {"executor": "threads", "threads": threads, "numba_player": True}

    def run(self, plan, chunks):
        g, rules = self.g, self.rules
        for k in chunks:
            start, count = plan.chunk_range(k)
            previous = numba.get_num_threads()
            numba.set_num_threads(self.threads)
            try:
                part = numba_chunk(g, rules, self.seats, plan.seed, start, count, self.kernels)
            finally:
                numba.set_num_threads(previous)
            agg = g.aggregate(part, rules)
            frames = None if plan.summary_only else g.frames(part, rules, self.seats.names)
            yield k, agg, frames

    def close(self):
        pass


def numba_run(game: str, rules, policies, settings, progress=None, out=None, records=None,
              records_progress=None):
    """``simcore.running.runner.simulate`` with a numba player in some seats (see the
    module text): the same RunResult, run folder (checkpointed, resumed) and summary; a
    Dask cluster is refused.  ``records``: a JSON Lines file of every game, played again
    through the Engine."""
    from .registry import get_game
    from .running.checkpoint import RunPlan
    from .running.cluster import resolve_threads
    from .running.runner import (MAX_CHUNK, MAX_GAMES, _ChunkedRun, _seed_and_chunk,
                                 planned_chunk)
    g = get_game(game)
    rules = g.build_rules() if rules is None else rules
    if settings.on_cluster:
        raise TricksimError("a numba player compiles in this process: --workers and "
                            "--scheduler do not apply (--threads does)")
    if not 1 <= settings.games <= MAX_GAMES:
        raise TricksimError(f"--games {settings.games} is not allowed; allowed: a positive "
                            f"integer, at most 2**63 - 1 = {MAX_GAMES}")
    seats = numba_seats(g, rules, policies)
    seed, chunk = _seed_and_chunk(settings, out)
    chunk = planned_chunk(game, rules, seats.builtin) if chunk is None else int(chunk)
    if not 1 <= chunk <= MAX_CHUNK:
        raise TricksimError(f"--chunk-size {chunk} is not allowed; allowed: a positive "
                            f"integer, at most {MAX_CHUNK}")
    threads = resolve_threads(settings.threads)
    ex = _NumbaExecutor(g, rules, seats, threads)
    numba_chunk(g, rules, seats, seed, 0, 1, ex.kernels)    # compile before the clock
    plan = RunPlan(game, rules, tuple(seats.names), seed, settings.games, chunk,
                   bool(settings.summary_only))
    run = _ChunkedRun(plan, threads, out, settings.resume, progress)
    result = run.play_on(ex)
    if records is not None:
        t1 = time.perf_counter()
        write_numba_records(g, rules, seats, seed, settings.games, records, records_progress)
        result.execution["records"] = {"path": str(records), "games": settings.games,
                                       "wall_time_s": round(time.perf_counter() - t1, 6)}
    return result


def write_numba_records(g, rules, seats: NumbaSeats, seed: int, games: int, path,
                        progress=None) -> None:
    """The records of games ``0 .. games-1`` as JSON Lines (atomically), each played
    through the Engine with the numba player called from Python."""
    import json
    from pathlib import Path
    from .statistics.stats import atomic_write, remove_stale_temps
    remove_stale_temps(path)

    def write(tmp):
        with open(tmp, "w") as fh:
            for i in range(games):
                rec = play_record(g, rules, seats, seed, i)
                fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
                if progress and ((i + 1) % 256 == 0 or i + 1 == games):
                    progress(i + 1, games)

    atomic_write(Path(path), write)


__all__ = ["ARG_TYPES", "NumbaKernels", "NumbaSeats", "check_numba_player", "is_numba_player",
           "numba_chunk", "numba_run", "numba_seats", "play_record", "seat_stream",
           "unjitted_choose", "uses_numba"]
