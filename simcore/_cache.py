"""Point numba's on-disk cache at a folder keyed by the engine's source.

numba's ``cache=True`` checks only the timestamp of the file that defines a
function, not of the files whose jitted functions it calls, so a cached batch
kernel can silently keep an old policy or rule after an edit in another
module.  Keying the cache folder by a hash of every source file of the package
makes any edit start a fresh cache (the learned players' ``.npy`` weights,
which compiled kernels hold as constants, are hashed too).  A user's own
NUMBA_CACHE_DIR wins.
"""
import hashlib
import os
from pathlib import Path


def configure_numba_cache() -> None:
    """Set numba's cache folder to one keyed by this package's source (once)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.npy")]):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "tricksim" / "numba" / digest.hexdigest()[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # read-only home: numba falls back to its own locations
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    import sys
    if "numba" in sys.modules:      # numba read its config already: set it there too
        sys.modules["numba"].config.CACHE_DIR = str(folder)


def cache_is_cold(game: str) -> bool:
    """Whether no compiled kernel of ``game`` is in this source's cache folder yet
    (the next run compiles them first: about a minute)."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder or not Path(folder).is_dir():
        return True
    return not any(Path(folder).glob(f"{game}_*/*.nbc"))
