"""Preloaded into the workers of a local Dask cluster (``preload=``).

- numba's threads: a worker process may import numba (through the parent's
  ``__main__``, re-imported by multiprocessing's spawn) before the Nanny puts
  ``NUMBA_NUM_THREADS=1`` into its environment, so numba's config still says
  the machine's thread count; its first compile re-reads the environment and
  would refuse the change once threads run. Reading the config again here,
  before any kernel runs, makes the worker use one thread from the start.
- Ctrl-C in the terminal reaches the whole process group: the workers would
  each print a KeyboardInterrupt traceback while tricksim itself stops cleanly
  (exit 130, finished chunks kept). The main process shuts the cluster down,
  so the workers ignore SIGINT.
"""
import signal
import sys

#: the process name Dask's Nanny gives the worker processes it spawns
WORKER_PROCESS_NAME = "Dask Worker process (from Nanny)"


def ignore_ctrl_c_in_a_starting_worker() -> None:
    """In a worker process a Nanny is spawning, ignore SIGINT from the start.

    A spawned worker imports the parent's ``__main__`` (tricksim's, which imports
    ``simcore``) long before the preload below runs: a Ctrl-C while a local
    cluster starts would otherwise print a KeyboardInterrupt traceback from every
    worker still importing.  multiprocessing names the process before that
    import, so it is recognised here; any other process is left alone."""
    mp = sys.modules.get("multiprocessing")
    if mp is None:
        return
    try:
        if mp.current_process().name == WORKER_PROCESS_NAME:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (AttributeError, ValueError):    # not the main thread, or no process object
        pass


def dask_setup(worker):  # noqa: ARG001 - Dask's preload hook
    """Settle numba's thread count and leave stopping to the main process."""
    from numba.core import config
    config.reload_config()
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:          # not the main thread of the worker process
        pass
