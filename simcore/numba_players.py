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
way); records are written by the batch loop again, logging the numba player's actions,
which the game's logging kernels (the built-in players' records path) then play in its
seats while they log every deal: the same bytes as playing each game through the
Engine with the player called from Python per decision (``engine_records``), at the
batch loop's speed.

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

import numba
import numpy as np
from numba import types

from .errors import TricksimError
from .running.settings import UNSET
from .numba_kernels import (ARG_TYPES, BLOCK, SIGNATURE, NumbaKernels, is_numba_player,
                            play_chunk, seat_stream_py)
from .vector_kernels import encoding_table


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
    k = g.numba_kernels(rules) if kernels is None else kernels
    rows, deals, finals = _played(g, rules, seats, seed, start, count, k,
                                  np.zeros((count, 0), np.int16))
    return k.tables(start, rows, deals, finals)


def _played(g, rules, seats: NumbaSeats, seed: int, start: int, count: int,
            k: NumbaKernels, script: np.ndarray) -> tuple:
    """The batch loop over games ``start .. start+count-1`` (``play_chunk``): (deal rows,
    deals per game, final states), the numba player's actions into ``script`` (a row
    per game, as many as it has columns); a PlayerError at an action that is not legal."""
    from .running.chunking import searches
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
    play_chunk(seats.choose, k.start, k.advance, k.view, k.apply, k.scratch, eng.r,
               seats.ids, seats.user, np.uint64(seed), start, count, block, dims,
               encoding_table(spec), spec.n_cards, rows, deals, finals, bad, script)
    failed = np.flatnonzero(bad[:, 0])
    if len(failed):
        i = int(failed[0])
        raise illegal_action(g, rules, seats, seed, start + i, int(bad[i, 1]), int(bad[i, 2]))
    return rows, deals, finals


#: int16 cells of logged actions held at once while records are written (games per
#: block: this over a game's width, at most ``RECORD_BLOCK``)
SCRIPT_CELLS = 1 << 24


def record_block(k: NumbaKernels, seats: NumbaSeats) -> int:
    """Games per block of a numba player's records (its logged actions held at once)."""
    from .running.runner import RECORD_BLOCK
    width = k.actions * int(seats.user.sum())
    return max(1, min(RECORD_BLOCK, SCRIPT_CELLS // max(1, width)))


def numba_records(g, rules, seats: NumbaSeats, seed: int, start: int, count: int,
                  kernels: NumbaKernels | None = None) -> bytes:
    """The records of games ``start .. start+count-1`` of run ``seed`` with ``seats`` as
    JSON Lines bytes, the same bytes as :func:`play_record` gives through the Engine:
    the batch loop plays the games logging the numba player's actions, which the game's
    logging kernels then play in its seats (the built-in seats choosing as ever) while
    they log every deal (``Game.records_jsonl``)."""
    k = g.numba_kernels(rules) if kernels is None else kernels
    script = np.zeros((count, k.actions * int(seats.user.sum())), np.int16)
    _, _, finals = _played(g, rules, seats, seed, start, count, k, script)
    from .records import Script
    return g.records_jsonl(rules, list(seats.names), seats.ids, seed, start, count,
                           Script(seats.user, script, finals))


def _engine_decider(eng, seats: NumbaSeats, seed: int, index: int):
    """``decide(st, seat, deal, done)`` for ``Engine._play``: the numba player called from
    Python (its seat's stream as in the batch loop), the built-in players by name; an
    action that is not legal is a PlayerError naming the player and the position."""
    from .players import PythonPlayer, _in_game, observe, user_action
    rng = {p: np.array([seat_stream_py(seed, index, p)], np.uint64)
           for p in range(len(seats.names)) if seats.user[p]}

    def decide(st, seat, deal, done):
        if seat not in rng:
            return eng.choose(seats.names[seat], st)
        player = PythonPlayer(seats.names[seat], seats.choose)
        where = f"player {player.name} (seat {seat}) in {_in_game(index, deal, done)}"
        return user_action(eng, player, lambda obs: seats.choose(obs.tensor, obs.mask,
                                                                 rng[seat]),
                           observe(eng, st, seat, None, index), where, None)
    return decide


def play_record(g, rules, seats: NumbaSeats, seed: int, index: int, scored=None) -> dict:
    """Game ``index`` of run ``seed`` played through the Engine with ``seats`` (the numba
    player called from Python per decision): its record, the same game the batch loop
    plays (``scored(st)``: called with each deal's scored state, ``Engine._play``)."""
    eng = g.engine(rules)
    st = eng.new(seed, index)
    eng._trusted = True
    try:
        return eng._play(st, seed, index, seats.names, _engine_decider(eng, seats, seed, index),
                         scored)
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


def simulate(game: str, rules=None, policies=None, games=UNSET, seed=UNSET, *, settings=None,
             progress=None, out=None, client=None, executor=None, records=None,
             records_progress=None, **options):
    """``simcore.running.runner.simulate`` (``simcore.simulate``), whose ``policies`` may
    also hold a numba player in some seats: an ``@njit`` function ``choose(obs, mask,
    rng) -> action`` or its ``MODULE:ATTR`` (then the run is :func:`numba_run`'s: the
    player inside the batch loop, compiled once per process; ``client`` and
    ``executor`` do not apply).  Everything else as the runner's::

        >>> from simcore import simulate
        >>> res = simulate("schnapsen", policies=[my_choose, "heuristic"], games=10_000,
        ...                seed=1)                                # doctest: +SKIP
    """
    from .running import runner
    from .running.settings import settings_from
    if policies is None or not uses_numba(policies):
        return runner.simulate(game, rules, policies, games, seed, settings=settings,
                               progress=progress, out=out, client=client, executor=executor,
                               records=records, records_progress=records_progress, **options)
    if client is not None or executor is not None:
        raise TricksimError("a numba player compiles in this process: client and executor "
                            "do not apply")
    from .engine import check_rules
    return numba_run(game, check_rules(game, rules), policies,
                     settings_from(settings, games=games, seed=seed, **options), progress,
                     out, records, records_progress)


def numba_run(game: str, rules, policies, settings, progress=None, out=None, records=None,
              records_progress=None):
    """``simcore.running.runner.simulate`` with a numba player in some seats (``policies``:
    a policy list, or ``numba_seats``'s) (see the module text): the same RunResult, run
    folder (checkpointed, resumed) and summary; a Dask cluster is refused.  ``records``:
    a JSON Lines file of every game (:func:`write_numba_records`)."""
    from .registry import get_game
    from .running.checkpoint import RunPlan
    from .running.cluster import resolve_threads
    from .running.runner import MAX_CHUNK, MAX_GAMES, _seed_and_chunk, planned_chunk
    g = get_game(game)
    rules = g.build_rules() if rules is None else rules
    if settings.on_cluster:
        raise TricksimError("a numba player compiles in this process: --workers and "
                            "--scheduler do not apply (--threads does)")
    if not 1 <= settings.games <= MAX_GAMES:
        raise TricksimError(f"--games {settings.games} is not allowed; allowed: a positive "
                            f"integer, at most 2**63 - 1 = {MAX_GAMES}")
    seats = policies if isinstance(policies, NumbaSeats) else numba_seats(g, rules, policies)
    seed, chunk = _seed_and_chunk(settings, out)
    chunk = planned_chunk(game, rules, seats.builtin) if chunk is None else int(chunk)
    if not 1 <= chunk <= MAX_CHUNK:
        raise TricksimError(f"--chunk-size {chunk} is not allowed; allowed: a positive "
                            f"integer, at most {MAX_CHUNK}")
    threads = resolve_threads(settings.threads)
    ex = _NumbaExecutor(g, rules, seats, threads)
    numba_chunk(g, rules, seats, seed, 0, 1, ex.kernels)    # compile before the clock
    if records is not None:
        numba_records(g, rules, seats, seed, 0, 1, ex.kernels)
    plan = RunPlan(game, rules, tuple(seats.names), seed, settings.games, chunk,
                   bool(settings.summary_only))
    return _numba_chunked_run(seats)(plan, threads, out, settings.resume, progress, records,
                                     records_progress).play_on(ex)


def _numba_chunked_run(seats: NumbaSeats):
    """The runner's ``_ChunkedRun`` whose records file is written by the batch loop
    logging the numba player's actions and the game's logging kernels
    (:func:`write_numba_records`)."""
    from .registry import get_game
    from .running.runner import _ChunkedRun

    class _NumbaRun(_ChunkedRun):
        def _write_records(self) -> dict:
            plan = self.plan
            t1 = time.perf_counter()
            write_numba_records(get_game(plan.game), plan.rules, seats, plan.seed, plan.games,
                                self.records, self.records_progress, self.threads)
            return {"path": str(self.records), "games": plan.games,
                    "wall_time_s": round(time.perf_counter() - t1, 6),
                    "played_by": "the batch loop logging the numba player's actions, "
                                 "then the game's logging kernels"}
    return _NumbaRun


def write_numba_records(g, rules, seats: NumbaSeats, seed: int, games: int, path,
                        progress=None, threads: int | None = None) -> None:
    """The records of games ``0 .. games-1`` as JSON Lines (atomically), blocks of
    games written by :func:`numba_records` on ``threads`` numba threads (None: as
    set), the same bytes as playing each through the Engine (:func:`play_record`)."""
    from pathlib import Path
    from .statistics.stats import atomic_write, remove_stale_temps
    remove_stale_temps(path)
    k = g.numba_kernels(rules)
    block = record_block(k, seats)

    def write(tmp):
        previous = numba.get_num_threads()
        if threads:
            numba.set_num_threads(threads)
        try:
            with open(tmp, "wb") as fh:
                for start in range(0, games, block):
                    count = min(block, games - start)
                    fh.write(numba_records(g, rules, seats, seed, start, count, k))
                    if progress:
                        progress(start + count, games)
        finally:
            numba.set_num_threads(previous)

    atomic_write(Path(path), write)


def engine_records(g, rules, seats: NumbaSeats, seed: int, start: int, count: int) -> bytes:
    """The records of games ``start .. start+count-1`` played through the Engine, the
    numba player called from Python per decision (:func:`play_record`), as JSON Lines
    bytes: what :func:`numba_records` writes, the slow way (a reference for tests)."""
    import json
    return "".join(json.dumps(play_record(g, rules, seats, seed, i), separators=(",", ":"))
                   + "\n" for i in range(start, start + count)).encode()


__all__ = ["ARG_TYPES", "NumbaKernels", "NumbaSeats", "check_numba_player", "engine_records",
           "is_numba_player", "numba_chunk", "numba_records", "numba_run", "numba_seats",
           "play_record", "seat_stream", "unjitted_choose", "uses_numba"]
