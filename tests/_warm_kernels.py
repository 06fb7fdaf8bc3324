"""Compile (and cache) the kernels the suite's later files need, in a second process
while the first files run: numba compiles on one core, the machine has two, and a
cold cache (a fresh clone, CI) otherwise compiles every kernel one after another.

The steps go from the last test files back to the first, so that the tests (from the
first file on) and this process meet somewhere in the middle, each having compiled
what the other needs no more. The two take a lock per kernel (tests/compile_locks.py):
a kernel the tests need while this process compiles it is waited for and loaded
from numba's cache, not compiled twice, and this process loads what the tests
compiled first. Each step calls what its test file calls (the same kernels with the
same argument types) on a few games. Run by tests/conftest.py at the start of a
whole-suite session; it changes no result. Its steps done, it runs the suite's last
files as a pytest session of its own and the tests' session reports them
(tests/second_process.py)."""
import os
import tempfile
import time
import traceback

import numba
import numpy as np

from simcore import engine, get_game, simulate

import compile_locks  # tests/ (this script's folder)

SEED = 1
LOG = None


def _cli(*args) -> None:
    """``tricksim ARGS`` in this process, in a temporary folder (as the tests' invoke)."""
    from click.testing import CliRunner

    from cli.main import cli
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)
        try:
            res = CliRunner().invoke(cli, [str(a) for a in args], prog_name="tricksim")
        finally:
            os.chdir(here)
    if isinstance(res.exception, compile_locks.Busy):
        raise res.exception         # the tests are compiling it: give way (below)
    if res.exit_code:
        raise RuntimeError(f"tricksim {' '.join(map(str, args))}: {res.output[-300:]}")


def solver_checks() -> None:
    """The solver tests' own kernels (test_solvers_deep, test_schnapsen_solver)."""
    from test_schnapsen_solver import _positions_checked
    from test_wendish_solver import late_positions

    from simcore.games.schnapsen.solver import new_work
    from simcore.games.wendish.engine import STATE_SIZE
    wendish = get_game("wendish")
    r = wendish.engine(wendish.build_rules()).r
    late_positions(r, 11, 1, 4, np.zeros((1, STATE_SIZE), np.int64))
    schnapsen = get_game("schnapsen")
    r = schnapsen.engine(schnapsen.build_rules()).r
    _positions_checked(r, 11, 1, 9, new_work(), np.zeros((1, 3), np.int64))


def records_and_engines() -> None:
    """Records and the step API's games (test_schnapsen_engine, test_schadenfreude_cli,
    the record and replay tests)."""
    for game, policies in (("schnapsen", ["random", "sloppy"]),
                           ("schnapsen", ["heuristic", "random"]),
                           ("schadenfreude", ["heuristic"] * 4),
                           ("wendish", ["heuristic", "random", "random", "random"])):
        g = get_game(game)
        rules = g.build_rules()
        names, ids = g.policy_ids(policies, rules)
        g.records_jsonl(rules, names, ids, SEED, 0, 2)
        for rec in g.records(rules, names, ids, SEED, 0, 2):
            g.replay(rec)
        engine(game, rules).play(SEED, 0, names)
    _cli("simulate", "schadenfreude", "--games", 4, "--seed", 5, "--out", "run",
         "--records", "games.jsonl", "--policy", "heuristic")


def numba_player() -> None:
    """The game kernels a numba player's batch loop calls (test_numba_player), called
    with the loop's argument types; the loop itself takes the player's function and
    is compiled by the tests (numba cannot cache it)."""
    from numba_bots import rand_legal

    from simcore.numba_players import numba_seats
    from simcore.vector_kernels import MASK_WORDS, encoding_table
    for game, policies, players in (
            ("wendish", ["random", "heuristic", rand_legal, "heuristic"], None),
            ("schnapsen", [rand_legal, "heuristic"], None),
            ("schadenfreude", ["heuristic", rand_legal, "random"], 3)):
        g = get_game(game)
        rules = g.build_rules(players=players)
        seats = numba_seats(g, rules, policies)
        k = g.numba_kernels(rules)
        eng = g.engine(rules)
        spec = eng.observation_spec
        state_size, n_words, max_legal = eng.vector_kernels().SIZES
        per, cols, dtype = k.rows
        rows = np.zeros((1, per, cols), dtype)
        st = np.zeros(state_size, np.int64)
        work = k.scratch(seats.ids)
        k.start(eng.r, st, np.uint64(SEED), 0)
        k.advance(eng.r, seats.ids, seats.user, st, rows[0], np.int64(0), work)
        obs = np.zeros(spec.size, np.float32)
        mask = np.zeros(eng.n_actions, np.bool_)
        legal = np.zeros(MASK_WORDS, np.uint64)
        k.view(eng.r, st, encoding_table(spec), spec.n_cards, np.zeros(n_words, np.int64),
               obs, np.zeros(max_legal, np.int64), mask, legal)
        k.apply(eng.r, st, np.int64(np.flatnonzero(mask)[0]))


def environments() -> None:
    """The batch environments' kernels (test_gym_env, test_vector_env)."""
    try:
        import gymnasium

        import simcore.envs.gym  # noqa: F401  (registers the environments)
    except ImportError:
        return
    for game, options in (("wendish", {"variant": "three"}), ("schnapsen", {}),
                          ("schadenfreude", {"players": 4})):
        env = gymnasium.make(f"tricksim/{game}-v0", opponents="random", illegal="random",
                             **options).unwrapped
        obs, info = env.reset(seed=SEED)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
        env.close()


def hands() -> None:
    """The hand command's kernels (test_hand, test_budget)."""
    _cli("hand", "schadenfreude", "--players", 4, "--hand", "9C 9S 9H 8C 10W", "--deals", 4,
         "--policy", "heuristic")
    _cli("hand", "wendish", "--hand", "QC QS QH JC AD TD AC AS", "--deals", 4, "--policy",
         "heuristic", "--threads", 1)
    _cli("hand", "schnapsen", "--hand", "AH TH KH QH JC", "--trump-card", "JS", "--deals", 4,
         "--policy", "heuristic", "--threads", 1)


def searching() -> None:
    """Batch runs with searching players (test_conformance, test_batch)."""
    for game, policies in (("schnapsen", ["pimc:worlds=2", "heuristic"]),
                           ("schadenfreude", ["pimc:worlds=2", "heuristic", "random",
                                              "random"])):
        g = get_game(game)
        rules = g.build_rules()
        names, _ = g.policy_ids(policies, rules)
        simulate(game, rules, names, 2, SEED, threads=1, chunk_size=2)


def batch(game: str, policies: list[str]) -> None:
    """The batch runs' kernels of ``game`` (test_conformance, test_serial_parallel,
    test_summary_only, test_batch and the CLI's simulate)."""
    g = get_game(game)
    rules = g.build_rules()
    names, ids = g.policy_ids(policies, rules)
    g.aggregate(g.run_chunk(rules, ids, SEED, 0, 4, summary_only=True), rules)
    simulate(game, rules, names, 4, SEED, threads=1, chunk_size=4)
    simulate(game, rules, names, 4, SEED, threads=min(2, numba.config.NUMBA_NUM_THREADS),
             chunk_size=2)


#: from the last test files' needs to the first's, but what the first files need at
#: once (the collection compiles the Schnapsen and Schadenfreude solvers) later: the
#: tests would only wait for it
STEPS = [
    numba_player,
    environments,
    records_and_engines,
    solver_checks,
    searching,
    lambda: batch("wendish", ["heuristic", "random", "random", "random"]),
    lambda: batch("schadenfreude", ["heuristic", "random", "random", "random"]),
    lambda: batch("schnapsen", ["heuristic", "random"]),
    hands,
]


def _note(line: dict) -> None:
    if LOG is not None:
        LOG.write(line)


if __name__ == "__main__":
    if os.environ.get("TRICKSIM_COMPILE_LOG"):      # tests/compile_log.py
        from compile_log import CompileLog
        LOG = CompileLog(os.environ["TRICKSIM_COMPILE_LOG"], "(warm-up)")
    if os.environ.get("TRICKSIM_COMPILE_LOCKS"):
        compile_locks.install(os.environ["TRICKSIM_COMPILE_LOCKS"])
    compile_locks.GIVE_WAY = True       # never wait for the tests' compiles here
    for i, step in enumerate(STEPS):
        began = time.monotonic()
        name = f"{i} {step.__name__}"
        try:
            step()
        except compile_locks.Busy as busy:     # the tests are compiling what it needs
            _note({"step": name, "gave_way": str(busy),
                   "seconds": round(time.monotonic() - began, 1)})
        except Exception:       # a step that fails leaves its kernels to the tests
            _note({"step": name, "error": traceback.format_exc()[-600:]})
        else:
            _note({"step": name, "seconds": round(time.monotonic() - began, 1)})
    compile_locks.GIVE_WAY = False      # the tail's tests need what they call
    import second_process
    if os.environ.get(second_process.REPORTS_ENV):     # a split run: the last files here
        def where(nodeid):
            if LOG is not None:
                LOG.where = f"(second process) {nodeid}"
        second_process.run_tail(os.environ[second_process.REPORTS_ENV], where)
