"""Compile (and cache) the kernels the suite's later files need, in a second process
while the first files run: numba compiles on one core, the machine has two, and a
cold cache (a fresh clone, CI) otherwise compiles every kernel one after another.
Whatever this process has cached by the time a test needs it is loaded, not
compiled; anything else the test compiles itself, as without this warm-up. Run by
tests/conftest.py at the start of a session; it changes no result."""
import numba

from simcore import engine, get_game, simulate

SEED = 1


def warm(game: str, policies: list[str]) -> None:
    g = get_game(game)
    rules = g.build_rules()
    names, ids = g.policy_ids(policies, rules)
    # what test_summary_only and the CLI's --summary-only run (late in the suite)
    g.aggregate(g.run_chunk(rules, ids, SEED, 0, 4, summary_only=True), rules)
    # the table path on 1 and 2 threads, records and the step API (the conformance test)
    simulate(game, rules, names, 4, SEED, threads=1, chunk_size=4)
    simulate(game, rules, names, 4, SEED, threads=min(2, numba.config.NUMBA_NUM_THREADS),
             chunk_size=2)
    for rec in g.records(rules, names, ids, SEED, 0, 2):
        g.replay(rec)
    engine(game, rules).play(SEED, 0, names)


if __name__ == "__main__":
    import os
    if os.environ.get("TRICKSIM_COMPILE_LOG"):      # tests/compile_log.py
        from compile_log import CompileLog
        CompileLog(os.environ["TRICKSIM_COMPILE_LOG"], "(warm-up)")
    # the last files of the suite first (Wendish's are the slowest to compile)
    warm("wendish", ["heuristic", "random", "random", "random"])
    warm("schadenfreude", ["heuristic", "random", "random", "random"])
    warm("schnapsen", ["heuristic", "random"])
