"""Checkpointed run folders: one file per finished chunk, resumable after any stop.

A run is cut into chunks: chunk ``k`` covers games ``[k*size, min((k+1)*size, games))``.
As soon as a chunk is played its result goes to the run folder::

    DIR/run.json                     "format": "tricksim-run" (the folder is tricksim's),
                                     the plan (game, rules, policies, seed, games,
                                     chunk size, summary-only), status and done chunks
    DIR/chunks/000042.games.parquet  the chunk's per-row tables (not with --summary-only)
    DIR/chunks/000042.agg.json       the chunk's additive aggregates, its identity (run,
                                     chunk number, games) and checksums of itself and of
                                     its tables; written last, so a chunk counts as done
                                     exactly when this file exists and checks out

A folder is used only if it is new, empty or marked as tricksim's by its
``run.json``, and only files tricksim wrote there are ever removed or replaced.
Every file is written to a temporary name, synced and renamed, so a kill at any
moment leaves whole files or none.  A rerun of the same command verifies each
chunk file as the run reaches it and plays again the chunks whose file is
missing or fails the check (empty, truncated, edited, or another chunk's or
run's), saying so in one line each.  The final summary is the sum of the
chunks' aggregates in index order and the final tables their concatenation in
index order, so a resumed run's results equal an uninterrupted run's exactly.
Nothing is listed up front: the chunks to play are found lazily, so a run of
any size starts at once and keeps constant memory.

Aggregates are stored as JSON with their Python/numpy types written out
(ints, floats by ``repr``, arrays with dtype and shape), which round-trips
bit for bit and never unpickles anything from a folder.
"""
from __future__ import annotations

import bisect
import hashlib
import io
import json
import logging
import math
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pandas as pd

from .. import __version__
from ..errors import TricksimError
from ..options import RuleSet
from ..statistics.stats import write_bytes, write_json

#: run.json's "format": the mark of a folder tricksim made
FORMAT = "tricksim-run"
#: a chunk file's "format"
CHUNK_FORMAT = "tricksim-chunk"
CHUNKS = "chunks"
MANIFEST = "run.json"
#: the largest run.json read when looking for the mark (ours are far smaller)
MAX_MANIFEST_BYTES = 64 << 20

#: tricksim's notes to the user (a chunk played again, ...); the CLI prints them
log = logging.getLogger("tricksim")

_TABLE = r"[A-Za-z0-9_]+"
_CHUNK_FILE = re.compile(rf"(\d{{6,}})\.(agg\.json|{_TABLE}\.parquet)")
_CHUNK_TMP = re.compile(rf"\.\d{{6,}}\.(agg\.json|{_TABLE}\.parquet)\.\w+\.tmp")
_RUN_TMP = re.compile(rf"\.(run\.json|summary\.csv|{_TABLE}\.parquet)\.\w+\.tmp")


@dataclass(frozen=True)
class RunPlan:
    """Everything that fixes a run's results (and nothing that does not, like threads)."""

    game: str
    rules: RuleSet
    policies: tuple[str, ...]
    seed: int
    games: int
    chunk_size: int
    summary_only: bool

    @property
    def chunks(self) -> int:
        """How many chunks the run has."""
        return -(-self.games // self.chunk_size)

    def chunk_range(self, k: int) -> tuple[int, int]:
        """(start, count) of chunk ``k``."""
        start = k * self.chunk_size
        return start, min(self.chunk_size, self.games - start)

    def key(self) -> dict:
        """The plan as JSON, as compared when a folder is resumed."""
        return {"game": self.game, "rules": self.rules.canonical(),
                "policies": list(self.policies), "seed": self.seed, "games": self.games,
                "chunk_size": self.chunk_size, "summary_only": self.summary_only}

    def digest(self) -> str:
        """A hash of :meth:`key`: the run a chunk file belongs to."""
        return _digest(self.key())


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()


# ----- aggregates as typed JSON ---------------------------------------------
def encode_aggregates(agg: dict) -> dict:
    """A chunk's aggregates as JSON-ready values that keep their exact type and bits."""
    out = {}
    for k, v in agg.items():
        if isinstance(v, np.ndarray):
            out[k] = {"array": v.dtype.str, "shape": list(v.shape),
                      "data": [_num(x) for x in v.ravel().tolist()]}
        elif isinstance(v, (bool, np.bool_)):
            out[k] = {"bool": bool(v)}
        elif isinstance(v, (int, float)) and type(v) in (int, float):
            out[k] = {type(v).__name__: _num(v)}
        elif isinstance(v, np.generic):
            out[k] = {"scalar": v.dtype.str, "data": _num(v.item())}
        else:
            raise TypeError(f"aggregate {k!r} has unsupported type {type(v).__name__}")
    return out


def _num(x):
    if isinstance(x, float) and not math.isfinite(x):
        return {"float": repr(x)}            # nan / inf: not valid JSON numbers
    return x


def _unnum(x):
    return float(x["float"]) if isinstance(x, dict) else x


def decode_aggregates(data: dict) -> dict:
    """The inverse of :func:`encode_aggregates`."""
    out = {}
    for k, v in data.items():
        if "array" in v:
            out[k] = np.array([_unnum(x) for x in v["data"]],
                              dtype=np.dtype(v["array"])).reshape(v["shape"])
        elif "bool" in v:
            out[k] = bool(v["bool"])
        elif "int" in v:
            out[k] = int(v["int"])
        elif "float" in v:
            out[k] = float(_unnum(v["float"]))
        elif "scalar" in v:
            out[k] = np.dtype(v["scalar"]).type(_unnum(v["data"]))
        else:
            raise ValueError(f"bad aggregate entry {k!r}")
    return out


def _ranges(ks) -> list[list[int]]:
    """Sorted chunk numbers as [first, last] runs: [0,1,2,5] -> [[0,2],[5,5]]."""
    out: list[list[int]] = []
    for k in sorted(ks):
        if out and out[-1][1] == k - 1:
            out[-1][1] = k
        else:
            out.append([k, k])
    return out


# ----- whose folder ---------------------------------------------------------
def read_manifest(out) -> dict | None:
    """The ``run.json`` of folder ``out`` if tricksim wrote it (it has our mark), else None."""
    path = Path(out) / MANIFEST
    try:
        if path.is_symlink() or not path.is_file() \
                or path.stat().st_size > MAX_MANIFEST_BYTES:
            return None
        info = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) and info.get("format") == FORMAT else None


def claim_folder(out) -> dict | None:
    """Check that a run may write to folder ``out``; return its run.json if it has one.

    Allowed: a folder that does not exist yet, an empty folder, or a run folder
    tricksim made (its ``run.json`` carries ``"format": "tricksim-run"``).
    Anything else (another command's folder, other files, a folder that another
    run is writing) is refused with a one-line TricksimError, before any file in
    it is touched (see ``simcore.folders.claim``).
    """
    from ..folders import claim
    out = Path(out)
    info = claim(out, "run")
    if info is None:
        return None
    chunks = out / CHUNKS
    if chunks.is_symlink() or (chunks.exists() and not chunks.is_dir()):
        raise TricksimError(f"'{chunks}' is not a folder tricksim made; remove it or give "
                            "another run folder")
    return info


def clear_run(out, info: dict) -> None:
    """Remove the files of the run that ``info`` (its run.json) describes, and only those.

    Those are its chunk files, the tables its run.json lists and, for a finished
    run, its summary.csv; anything else in the folder stays.  run.json itself is
    left to be replaced by the next run's.
    """
    out = Path(out)
    _remove_chunk_files(out / CHUNKS)
    for entry in _entries(out):
        if _RUN_TMP.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            _unlink(entry.path)
    if info.get("status") != "complete":
        return
    tables = info.get("tables")
    for name in tables if isinstance(tables, list) else []:
        if isinstance(name, str) and re.fullmatch(_TABLE, name):
            _unlink(out / f"{name}.parquet")
    _unlink(out / "summary.csv")


def _remove_run_temps(out: Path) -> None:
    """Remove the temporaries of the run folder's own files that a killed write left
    (not those of a live write: see ``simcore.statistics.stats.remove_stale_temps``)."""
    from ..statistics.stats import remove_stale_temps
    for entry in _entries(out):
        m = _RUN_TMP.fullmatch(entry.name)
        if m and entry.is_file(follow_symlinks=False):
            remove_stale_temps(out / m[1])


def _entries(folder: Path) -> list:
    try:
        with os.scandir(folder) as it:
            return list(it)
    except OSError:
        return []


def _unlink(path) -> None:
    try:
        if not os.path.isdir(path) or os.path.islink(path):
            os.unlink(path)
    except FileNotFoundError:
        pass


def _remove_chunk_files(folder: Path) -> None:
    """Delete the chunk files (and their temporaries) in ``folder``; the folder too if
    that leaves it empty.  Other files are kept."""
    if folder.is_symlink() or not folder.is_dir():
        return
    for entry in _entries(folder):
        if (_CHUNK_FILE.fullmatch(entry.name) or _CHUNK_TMP.fullmatch(entry.name)) \
                and entry.is_file(follow_symlinks=False):
            _unlink(entry.path)
    try:
        folder.rmdir()
    except OSError:
        pass                                   # something of someone else's is in there


# ----- which chunks are done --------------------------------------------------
class DoneChunks:
    """A set of chunk numbers kept as "all below ``frontier``" plus the ones above it.

    Chunks finish nearly in order, so this stays small however long the run.
    """

    def __init__(self):
        self.frontier = 0
        self.above: set[int] = set()

    def add(self, k: int) -> None:
        """Mark chunk ``k`` done."""
        if k < self.frontier:
            return
        self.above.add(k)
        while self.frontier in self.above:
            self.above.remove(self.frontier)
            self.frontier += 1

    def __contains__(self, k: int) -> bool:
        return k < self.frontier or k in self.above

    def __len__(self) -> int:
        return self.frontier + len(self.above)

    def ranges(self) -> list[list[int]]:
        """The chunks as sorted [first, last] runs."""
        head = [[0, self.frontier - 1]] if self.frontier else []
        return head + _ranges(self.above)


def _listed_ranges(value, chunks: int) -> list[tuple[int, int]]:
    """run.json's ``chunks_done`` as valid (first, last) pairs (anything else dropped)."""
    out = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, list) and len(item) == 2 \
                and all(isinstance(x, int) and not isinstance(x, bool) for x in item) \
                and 0 <= item[0] <= item[1] < chunks:
            out.append((item[0], item[1]))
    return out


def _gaps(listed, present: list[int]) -> tuple[int, list[tuple[int, int]]]:
    """How many chunks of the ``listed`` ranges are not in sorted ``present``, and which."""
    count, gaps = 0, []
    for a, b in listed:
        i, j = bisect.bisect_left(present, a), bisect.bisect_right(present, b)
        if j - i == b - a + 1:
            continue
        nxt = a
        for x in present[i:j]:
            if x > nxt:
                gaps.append((nxt, x - 1))
                count += x - nxt
            nxt = x + 1
        if nxt <= b:
            gaps.append((nxt, b))
            count += b - nxt + 1
    return count, gaps


def _ranges_text(ranges, most: int = 4) -> str:
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:most]]
    return ", ".join(parts) + (", ..." if len(ranges) > most else "")


class BadChunk(Exception):
    """A chunk file that does not prove itself; the message says why."""


# ----- the store ------------------------------------------------------------
class ChunkStore:
    """The chunk files and manifest of one run folder."""

    def __init__(self, out, plan: RunPlan, manifest_every: float = 0.5):
        self.out = Path(out)
        self.dir = self.out / CHUNKS
        self.plan = plan
        self.manifest_every = manifest_every
        self._last_manifest = 0.0
        self._done = DoneChunks()
        self._on_disk: set[int] = set()        # chunk files found on resuming, not yet checked
        self.resumed = 0                       # chunks found done on disk and verified
        self.execution: dict = {}
        self.finished: dict | None = None      # summed aggregates of a finished same run
        self.finished_tables: list[str] = []

    # --- opening -----------------------------------------------------------
    @staticmethod
    def recorded_plan(out) -> dict | None:
        """The plan of the unfinished run in ``out`` (None if there is none to resume)."""
        info = read_manifest(out)
        if info is None or info.get("status") != "running":
            return None                 # a finished run, or not ours
        return info.get("plan") if isinstance(info.get("plan"), dict) else {}

    @classmethod
    def open(cls, out, plan: RunPlan, resume: bool = True) -> "ChunkStore":
        """Open ``out`` for ``plan``: resume its unfinished run, or refuse a different one.

        The folder must be new, empty or tricksim's (see :func:`claim_folder`).
        A folder holding this very run, finished, is reused as it is
        (``finished`` holds its summed aggregates; nothing is played).  A folder
        holding a different finished run, or none, starts afresh, as does any
        folder with ``resume=False``: the earlier run's files are removed (see
        :func:`clear_run`), so none of its tables is left behind.
        """
        store = cls(out, plan)
        info = claim_folder(out)
        _remove_run_temps(store.out)
        if info is not None and resume:
            if info.get("status") == "running":
                recorded = info.get("plan") if isinstance(info.get("plan"), dict) else {}
                diff = plan_differences(recorded, plan.key())
                if diff:
                    raise TricksimError(
                        f"run folder '{out}' holds an unfinished different run ({diff}); "
                        "use another --out, or --no-resume to overwrite it")
                store._resume(info)
                return store
            if store._finished_same_run(info):
                return store
        if info is not None:
            clear_run(out, info)
        store.out.mkdir(parents=True, exist_ok=True)
        store.write_manifest()              # the mark first: then the folder is ours
        store.dir.mkdir(parents=True, exist_ok=True)
        return store

    def _resume(self, info: dict) -> None:
        """Find the chunk files of the unfinished run (checked later, as the run reaches
        them) and say which chunks run.json lists as done but have no file."""
        self.dir.mkdir(parents=True, exist_ok=True)
        for entry in _entries(self.dir):
            m = _CHUNK_FILE.fullmatch(entry.name)
            if m and m[2] == "agg.json" and int(m[1]) < self.plan.chunks:
                self._on_disk.add(int(m[1]))
            elif _CHUNK_TMP.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                _unlink(entry.path)                  # left by a kill mid-write
        listed = _listed_ranges(info.get("chunks_done"), self.plan.chunks)
        count, gaps = _gaps(listed, sorted(self._on_disk))
        if count:
            one = count == 1
            log.warning(f"run folder '{self.out}': {count} chunk{'' if one else 's'} that "
                        f"{MANIFEST} lists as done {'has' if one else 'have'} no file in "
                        f"{CHUNKS}/ (chunk{'' if one else 's'} {_ranges_text(gaps)}; deleted?); "
                        f"{'it' if one else 'they'} will be played again")

    def _finished_same_run(self, info: dict) -> bool:
        """Whether ``info`` describes this plan's run, finished, with all its files."""
        if info.get("status") != "complete" or info.get("plan") != self.plan.key() \
                or not isinstance(info.get("aggregates"), dict):
            return False
        tables = info.get("tables", [])
        if not isinstance(tables, list) or not all(
                isinstance(name, str) and re.fullmatch(_TABLE, name)
                and (self.out / f"{name}.parquet").is_file() for name in tables) \
                or not (self.out / "summary.csv").is_file():
            return False
        try:
            self.finished = decode_aggregates(info["aggregates"])
        except (ValueError, TypeError, KeyError, AttributeError):
            return False
        self.finished_tables = list(tables)
        self._done.frontier = self.plan.chunks
        return True

    def load_finished_tables(self) -> dict[str, pd.DataFrame]:
        """The tables of the finished run found in the folder."""
        return {name: pd.read_parquet(self.out / f"{name}.parquet")
                for name in self.finished_tables}

    # --- chunks -------------------------------------------------------------
    @property
    def done(self) -> DoneChunks:
        """The chunks done and checked (read-only use)."""
        return self._done

    def pending(self, found: Callable[[int, dict], None] | None = None) -> Iterator[int]:
        """The chunk numbers still to play, in order, found lazily.

        A chunk whose file was found on resuming is checked when the run reaches
        it: a good one is counted done and passed to ``found(k, aggregates)``,
        a bad one is reported in one line and yielded, to be played again.
        """
        on_disk = self._on_disk
        for k in range(self.plan.chunks):
            if k in on_disk:
                on_disk.discard(k)
                try:
                    agg = self._check(k)
                except BadChunk as exc:
                    log.warning(f"run folder '{self.out}': chunk {k} "
                                f"({CHUNKS}/{self._path(k, 'agg.json').name}) {exc}; it will "
                                "be played again")
                    yield k
                    continue
                self._done.add(k)
                self.resumed += 1
                if found is not None:
                    found(k, agg)
            elif k not in self._done:
                yield k

    def _path(self, k: int, name: str) -> Path:
        return self.dir / f"{k:06d}.{name}"

    def save(self, k: int, agg: dict, frames: dict | None) -> None:
        """Write chunk ``k``: its tables first, then its aggregates (the done marker),
        which carry the chunk's identity and checksums of the tables and of themselves."""
        tables = {}
        for name in sorted(frames) if frames else []:
            data = frames[name].to_parquet(None, index=False)
            write_bytes(data, self._path(k, f"{name}.parquet"))
            tables[name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        start, count = self.plan.chunk_range(k)
        body = {"format": CHUNK_FORMAT, "run": self.plan.digest(), "chunk": k,
                "start": start, "count": count, "tables": tables,
                "aggregates": encode_aggregates(agg)}
        body["sha256"] = _digest(body)
        write_json(body, self._path(k, "agg.json"))
        self._done.add(k)
        self.write_manifest(force=False)

    def _check(self, k: int, read_tables: bool = False):
        """Chunk ``k``'s aggregates (and with ``read_tables`` its tables' bytes) if its
        files prove themselves; BadChunk saying what is wrong if not."""
        path = self._path(k, "agg.json")
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise BadChunk("is missing") from None
        except OSError as exc:
            raise BadChunk(f"cannot be read ({exc.strerror})") from None
        if not raw.strip():
            raise BadChunk("is empty")
        try:
            data = json.loads(raw)
        except ValueError:
            raise BadChunk("is not whole JSON (truncated or damaged)") from None
        if not isinstance(data, dict) or data.get("format") != CHUNK_FORMAT:
            raise BadChunk("is not a tricksim chunk file")
        checksum = data.pop("sha256", None)
        if checksum != _digest(data):
            raise BadChunk("does not match its checksum (edited or damaged)")
        if data.get("run") != self.plan.digest():
            raise BadChunk("belongs to another run (copied from another folder?)")
        start, count = self.plan.chunk_range(k)
        if data.get("chunk") != k or data.get("start") != start or data.get("count") != count:
            raise BadChunk(f"holds chunk {data.get('chunk')}, not chunk {k} (copied over "
                           "from another chunk?)")
        tables = data.get("tables")
        if not isinstance(tables, dict) or bool(tables) == self.plan.summary_only:
            raise BadChunk("lists the wrong tables")
        blobs = {}
        for name, meta in tables.items():
            table = self._path(k, f"{name}.parquet")
            if not re.fullmatch(_TABLE, name) or not isinstance(meta, dict):
                raise BadChunk("lists the wrong tables")
            try:
                blob = table.read_bytes()
            except OSError:
                raise BadChunk(f"has lost its table {CHUNKS}/{table.name}") from None
            if len(blob) != meta.get("bytes") \
                    or hashlib.sha256(blob).hexdigest() != meta.get("sha256"):
                raise BadChunk(f"has a table {CHUNKS}/{table.name} that does not match its "
                               "checksum (edited, damaged or replaced)")
            blobs[name] = blob
        try:
            agg = decode_aggregates(data["aggregates"])
        except (ValueError, TypeError, KeyError, AttributeError):
            raise BadChunk("has aggregates that cannot be read") from None
        return (agg, blobs) if read_tables else agg

    def _checked(self, k: int, read_tables: bool):
        try:
            return self._check(k, read_tables)
        except BadChunk as exc:
            raise TricksimError(
                f"run folder '{self.out}': chunk {k} ({CHUNKS}/{self._path(k, 'agg.json').name}"
                f") {exc}: it changed while the run was going; run the same command again "
                "to play it again") from None

    def load_aggregates(self, k: int) -> dict:
        """Chunk ``k``'s aggregates, checked (a one-line TricksimError if it fails)."""
        return self._checked(k, False)

    def load_frames(self, k: int) -> dict[str, pd.DataFrame]:
        """Chunk ``k``'s tables, checked (a one-line TricksimError if it fails)."""
        _, blobs = self._checked(k, True)
        return {name: pd.read_parquet(io.BytesIO(blob)) for name, blob in blobs.items()}

    def finish(self) -> None:
        """Delete the chunk files once the run's own files are written (nothing else)."""
        _remove_chunk_files(self.dir)

    # --- manifest -----------------------------------------------------------
    def manifest(self, status: str) -> dict:
        """The run.json of the run while it is being played."""
        return {"format": FORMAT, "version": __version__, "status": status,
                "plan": self.plan.key(), "rules": self.plan.rules.to_dict(),
                "chunks": self.plan.chunks, "chunks_done": self._done.ranges(),
                "execution": self.execution}

    def write_manifest(self, force: bool = True) -> None:
        """Rewrite run.json with the chunks done; unless ``force``, at most every
        ``manifest_every`` seconds.

        The chunk files are the truth; the list in run.json lags them by at most
        that much after a kill -9 (the runner forces a rewrite when a run stops
        any other way), and a listed chunk whose file is gone is named on resuming.
        """
        now = time.monotonic()
        if not force and now - self._last_manifest < self.manifest_every:
            return
        self._last_manifest = now
        write_json(self.manifest("running"), self.out / MANIFEST)


def plan_differences(recorded: dict, wanted: dict) -> str:
    """A short text naming what differs between two plans ('' if they match)."""
    if not recorded:
        return "not a checkpointed tricksim run"
    parts = []
    for name, value in wanted.items():
        old = recorded.get(name)
        if old != value:
            if name == "rules":
                parts.append("rules differ")
            else:
                parts.append(f"{name} {_short(old)} there, {_short(value)} here")
    return "; ".join(parts)


def _short(v) -> str:
    if isinstance(v, list):
        return ",".join(map(str, v))
    return str(v)


def recorded_seed(variants: Path):
    """The seed of an unfinished run checkpointed in a folder below ``variants`` (a
    sweep's variants, a rotated run's rotations), else None."""
    for path in sorted(variants.glob("*/run.json")):
        try:
            info = json.loads(path.read_text(encoding="utf-8"))
            seed = info.get("plan", {}).get("seed") if info.get("status") == "running" else None
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(seed, int):
            return seed
    return None
