"""Whose folder is it, and one command in it at a time: the marks and the lock every
command's output folder uses (simulate's run folders, sweeps, comparisons, batches,
rotated runs).

Each kind of folder carries its own mark: a JSON file of a fixed name whose
``"format"`` says which command made it (``run.json`` "tricksim-run",
``sweep.json`` "tricksim-sweep", ``compare.json`` "tricksim-compare",
``batch.json`` "tricksim-batch", ``rotation.json`` "tricksim-rotation").  A
command writes into a folder only if it is new, empty or carries that command's
own mark (:func:`claim`); a folder of other files, or of another command, is
refused in one line before anything in it is touched, and in a folder of its
own a command replaces only the files of its own fixed names.  The mark is
written first (:func:`own`), so a folder that a stopped command leaves behind
is still known as tricksim's.

While a command writes a folder it holds an OS lock (``fcntl.flock``) on the
hidden file ``.tricksim.lock`` in it (:func:`lock`).  A second command into the
same folder is refused in one line naming the first (its command line, process
id and start time).  The lock dies with its process, so a kill -9 never leaves
a folder locked; the lock file itself is removed when the lock is released.  A
process may take the lock of a folder again (a command and the run it starts
in the same folder): only another process, or another thread, is refused.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:                     # not on POSIX: no locking (nothing to refuse)
    fcntl = None

from .errors import TricksimError

#: the lock file in a folder being written
LOCK = ".tricksim.lock"
#: the largest mark file read (ours are far smaller)
MAX_MARK_BYTES = 64 << 20


@dataclass(frozen=True)
class Kind:
    """A kind of output folder: its mark file and format, the command that makes it,
    and the fixed names of the files that command writes there."""

    name: str
    mark: str
    format: str
    command: str
    files: tuple[str, ...]


KINDS = {k.name: k for k in (
    Kind("run", "run.json", "tricksim-run", "tricksim simulate", ("run.json", "summary.csv")),
    Kind("sweep", "sweep.json", "tricksim-sweep", "tricksim sweep",
         ("sweep.json", "sweep.parquet", "sweep.csv", "seats.png", "game.png", "report.md",
          "check.csv", "skill.csv")),
    Kind("compare", "compare.json", "tricksim-compare", "tricksim compare",
         ("compare.json", "compare.csv", "compare_game.csv", "compare.png", "report.md",
          "check.csv", "skill.csv")),
    Kind("batch", "batch.json", "tricksim-batch", "tricksim batch",
         ("batch.json", "batch.parquet", "batch.csv")),
    Kind("rotation", "rotation.json", "tricksim-rotation", "tricksim simulate --rotate",
         ("rotation.json", "rotation.csv", "rotation_diff.csv", "report.md")),
    Kind("players", "players.json", "tricksim-players",
         "tricksim simulate with a Python player", ("players.json", "players.csv")),
    Kind("tournament", "tournament.json", "tricksim-tournament", "tricksim tournament",
         ("tournament.json", "ratings.csv", "pairs.csv", "tournament.png", "report.md")),
)}


# ----- marks ------------------------------------------------------------------
def _read_json(path: Path):
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_MARK_BYTES:
            return None
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def read_mark(out, kind: str) -> dict | None:
    """The mark file of folder ``out`` for ``kind`` if tricksim wrote it, else None.

    Folders of earlier versions are known too: a batch.json without a format
    that holds a batch's state, and a sweep folder without sweep.json whose
    ``variants/`` hold tricksim run folders."""
    k = KINDS[kind]
    out = Path(out)
    info = _read_json(out / k.mark)
    if isinstance(info, dict) and info.get("format") == k.format:
        return info
    if kind == "batch" and isinstance(info, dict) and "format" not in info \
            and isinstance(info.get("runs"), dict) and isinstance(info.get("plan"), str):
        return info
    if kind == "sweep" and info is None and not (out / k.mark).exists():
        variants = out / "variants"
        if variants.is_dir() and not variants.is_symlink() and any(
                read_mark(p, "run") is not None for p in sorted(variants.iterdir())[:1000]
                if p.is_dir() and not p.is_symlink()):
            return {"format": k.format, "legacy": True}
    return None


def kind_of(out) -> str | None:
    """Which kind of tricksim folder ``out`` is (None: none, or not a folder)."""
    for name in KINDS:
        if read_mark(out, name) is not None:
            return name
    return None


def mark(kind: str, **fields) -> dict:
    """A mark file's contents: the format, tricksim's version, and ``fields``."""
    from . import __version__
    return {"format": KINDS[kind].format, "version": __version__, **fields}


def _entries(out: Path) -> list[str]:
    """The names in folder ``out`` besides its lock file."""
    return [n for n in os.listdir(out) if n != LOCK]


def claim(out, kind: str) -> dict | None:
    """Check that a ``kind`` command may write to folder ``out``; its mark if it has one.

    Allowed: a folder that does not exist yet, an empty one (a lock file left by a
    killed command aside) or one carrying ``kind``'s mark.  Anything else is refused
    with a one-line TricksimError before any file in it is touched: a folder in use
    by a running command (named), a folder of another tricksim command, or one of
    other files.
    """
    k = KINDS[kind]
    out = Path(out)
    label = f"{'run' if kind == 'run' else k.name} folder"
    if not out.exists():
        if out.is_symlink():
            raise TricksimError(f"{label} '{out}' is a symbolic link to nothing; "
                                "give a new or empty folder")
        return None
    if not out.is_dir():
        raise TricksimError(f"{label} '{out}' is a file, not a folder; give a new or "
                            "empty folder")
    info = read_mark(out, kind)
    if info is not None:
        return info
    try:
        names = _entries(out)
    except OSError as exc:
        raise TricksimError(f"cannot read {label} '{out}': {exc.strerror or exc}") from None
    if not names:
        return None
    holder = held_by(out)
    if holder is not None:
        raise TricksimError(in_use_message(out, holder))
    other = kind_of(out)
    if other is not None:
        o = KINDS[other]
        raise TricksimError(f"'{out}' is a tricksim {o.name} folder (written by `{o.command}`"
                            f", {o.mark}), not a {k.name} folder; give `{k.command}` a new or "
                            "empty folder (tricksim never replaces another command's files)")
    raise TricksimError(f"'{out}' is not a tricksim {k.name} folder: it holds files but no "
                        f"{k.mark} written by tricksim; give a new or empty folder "
                        "(tricksim never removes what it did not write)")


# ----- the lock -----------------------------------------------------------------
_HELD: dict[tuple[str, int], list] = {}          # (folder, thread) -> [fd, depth]
_HELD_LOCK = threading.Lock()


def _key(out: Path) -> tuple[str, int]:
    return os.path.realpath(out), threading.get_ident()


def _holds(out: Path) -> bool:
    real = os.path.realpath(out)
    with _HELD_LOCK:
        return any(k[0] == real for k in _HELD)


def held_by(out) -> dict | None:
    """What the lock file of ``out`` says of the live command holding it (``{}`` when
    it says nothing yet), or None when no other command holds it."""
    path = Path(out) / LOCK
    if fcntl is None or _holds(Path(out)):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return _lock_info(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _lock_info(fd) -> dict:
    try:
        info = json.loads(os.pread(fd, 65536, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def in_use_message(out, holder: dict) -> str:
    """One line saying that folder ``out`` is being written by another command."""
    parts = []
    if holder.get("command"):
        parts.append(f"`{holder['command']}`")
    if holder.get("pid"):
        parts.append(f"pid {holder['pid']}")
    if holder.get("started"):
        parts.append(f"started {holder['started']}")
    who = ", ".join(parts) if parts else "just starting"
    return (f"'{out}' is in use: another tricksim command is writing it ({who}); wait for "
            "it to finish (then the same command resumes or reuses its work) or give "
            "another folder")


def _command_line() -> str:
    argv = list(sys.argv) or ["?"]
    prog = os.path.basename(argv[0])
    if prog in ("__main__.py", "main.py"):
        prog = "tricksim"
    text = shlex.join([prog] + argv[1:])
    return text if len(text) <= 300 else text[:297] + "..."


def _acquire(out: Path) -> int:
    path = out / LOCK
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        try:
            fd = os.open(path, flags, 0o644)
        except OSError as exc:
            raise TricksimError(f"cannot lock folder '{out}' ({LOCK}): "
                                f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _lock_info(fd)
            os.close(fd)
            raise TricksimError(in_use_message(out, holder)) from None
        try:                            # the file its last holder removed? then again
            same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            info = {"command": _command_line(), "pid": os.getpid(),
                    "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(info).encode(), 0)
            return fd
        os.close(fd)
    raise TricksimError(f"cannot lock folder '{out}': its lock file keeps changing")


def _release(out: Path, fd: int) -> None:
    path = out / LOCK
    try:
        if os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
            os.unlink(path)             # while still held: a waiter sees a removed file
    except OSError:
        pass
    os.close(fd)


@contextlib.contextmanager
def lock(out):
    """Hold folder ``out``'s lock (made if missing) while the block runs; a one-line
    TricksimError naming the holder if another command holds it.  Taken again by
    the same thread (a command and its own run in one folder) it just nests."""
    out = Path(out)
    if fcntl is None:
        out.mkdir(parents=True, exist_ok=True)
        yield
        return
    key = _key(out)
    with _HELD_LOCK:
        entry = _HELD.get(key)
        if entry is not None:
            entry[1] += 1
    if entry is None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TricksimError(f"cannot make folder '{out}': {exc.strerror or exc}") \
                from None
        fd = _acquire(out)
        entry = [fd, 1]
        with _HELD_LOCK:
            _HELD[key] = entry
    try:
        yield
    finally:
        with _HELD_LOCK:
            entry[1] -= 1
            last = entry[1] == 0
            if last:
                _HELD.pop(key, None)
        if last:
            _release(out, entry[0])


@contextlib.contextmanager
def own(out, kind: str, **fields):
    """Claim folder ``out`` for a ``kind`` command, hold its lock and, once it is
    ours, mark it (``fields`` go into a new mark) and remove the temporary files a
    killed write of its own files left; yields the mark found or written.

    The claim is checked before the folder is made or locked (a foreign folder is
    not touched) and again under the lock (another command may have made it)."""
    from .statistics.stats import remove_stale_temps, write_json
    out = Path(out)
    claim(out, kind)
    created = not out.exists()
    k = KINDS[kind]
    with lock(out):
        info = claim(out, kind)
        for name in k.files:
            remove_stale_temps(out / name)
        if info is None or info.get("legacy"):
            info = mark(kind, status="running", **fields)
            write_json(info, out / k.mark)
        try:
            yield info
        except BaseException:
            if created:                 # stopped before writing anything: leave no folder
                _remove_if_only_mark(out, k)
            raise


def _remove_if_only_mark(out: Path, k: Kind) -> None:
    try:
        if sorted(_entries(out)) == [k.mark]:
            os.unlink(out / k.mark)
            with contextlib.suppress(OSError):
                os.unlink(out / LOCK)
            out.rmdir()
    except OSError:
        pass
