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


def dask_setup(worker):  # noqa: ARG001 - Dask's preload hook
    """Settle numba's thread count and leave stopping to the main process."""
    from numba.core import config
    config.reload_config()
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:          # not the main thread of the worker process
        pass
