"""Checkpointed run folders: one file per finished chunk, resumable after any stop.

A run is cut into chunks: chunk ``k`` covers games ``[k*size, min((k+1)*size, games))``.
As soon as a chunk is played its result goes to the run folder::

    DIR/run.json                     the plan (game, rules, policies, seed, games,
                                     chunk size, summary-only), status and done chunks
    DIR/chunks/000042.games.parquet  the chunk's per-row tables (not with --summary-only)
    DIR/chunks/000042.agg.json       the chunk's additive aggregates; written last, so a
                                     chunk counts as done exactly when this file exists

Every file is written to a temporary name and renamed, so a kill at any moment
leaves whole files or none; a rerun of the same command plays only the chunks
whose ``.agg.json`` is missing.  The final summary is the sum of the chunks'
aggregates in index order and the final tables their concatenation in index
order, so a resumed run's results equal an uninterrupted run's exactly.

Aggregates are stored as JSON with their Python/numpy types written out
(ints, floats by ``repr``, arrays with dtype and shape), which round-trips
bit for bit and never unpickles anything from a folder.
"""
from __future__ import annotations

import json
import math
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import __version__
from .errors import TricksimError
from .options import RuleSet
from .stats import write_json, write_parquet

CHUNKS = "chunks"
MANIFEST = "run.json"
AGG_SUFFIX = ".agg.json"


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


# ----- the store ------------------------------------------------------------
class ChunkStore:
    """The chunk files and manifest of one run folder."""

    def __init__(self, out, plan: RunPlan, manifest_every: float = 0.5):
        self.out = Path(out)
        self.dir = self.out / CHUNKS
        self.plan = plan
        self.manifest_every = manifest_every
        self._done: set[int] = set()
        self._last_manifest = 0.0
        self.execution: dict = {}
        self.finished: dict | None = None      # summed aggregates of a finished same run
        self.finished_tables: list[str] = []

    # --- opening -----------------------------------------------------------
    @staticmethod
    def recorded_plan(out) -> dict | None:
        """The plan of the unfinished run in ``out`` (None if there is none to resume)."""
        path = Path(out) / MANIFEST
        if not path.exists():
            return None
        try:
            info = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            info = None
        if not isinstance(info, dict) or info.get("status") != "running":
            return None                 # a finished run, or not ours: start afresh
        return info.get("plan") if isinstance(info.get("plan"), dict) else {}

    @classmethod
    def open(cls, out, plan: RunPlan, resume: bool = True) -> "ChunkStore":
        """Open ``out`` for ``plan``: resume its unfinished run, or refuse a different one.

        A folder holding this very run, finished, is reused as it is (``finished``
        holds its summed aggregates; nothing is played).  A folder holding a
        different finished run, or none, starts afresh, as does any folder with
        ``resume=False`` (its chunks are deleted).
        """
        store = cls(out, plan)
        recorded = cls.recorded_plan(out) if resume else None
        if recorded is not None:
            diff = plan_differences(recorded, plan.key())
            if diff:
                raise TricksimError(
                    f"run folder '{out}' holds an unfinished different run ({diff}); use "
                    "another --out, or --no-resume to overwrite it")
        elif resume and store._finished_same_run():
            return store
        else:
            shutil.rmtree(store.dir, ignore_errors=True)
        store.dir.mkdir(parents=True, exist_ok=True)
        for tmp in store.dir.glob(".*.tmp"):         # left by a kill mid-write
            try:
                tmp.unlink()
            except OSError:
                pass
        store._done = store._scan()
        store.write_manifest(force=True)
        return store

    def _finished_same_run(self) -> bool:
        """Whether ``out`` holds this plan's run, finished, with all its files."""
        try:
            info = json.loads((self.out / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not isinstance(info, dict) or info.get("status") != "complete" \
                or info.get("plan") != self.plan.key() \
                or not isinstance(info.get("aggregates"), dict):
            return False
        tables = info.get("tables", [])
        if not all((self.out / f"{name}.parquet").exists() for name in tables) \
                or not (self.out / "summary.csv").exists():
            return False
        try:
            self.finished = decode_aggregates(info["aggregates"])
        except (ValueError, TypeError, KeyError):
            return False
        self.finished_tables = list(tables)
        self._done = set(range(self.plan.chunks))
        return True

    def load_finished_tables(self) -> dict[str, pd.DataFrame]:
        return {name: pd.read_parquet(self.out / f"{name}.parquet")
                for name in self.finished_tables}

    def _scan(self) -> set[int]:
        done = set()
        for path in self.dir.glob("*" + AGG_SUFFIX):
            stem = path.name[:-len(AGG_SUFFIX)]
            if stem.isdigit() and int(stem) < self.plan.chunks:
                done.add(int(stem))
        return done

    # --- chunks -------------------------------------------------------------
    @property
    def done(self) -> set[int]:
        return set(self._done)

    def missing(self) -> list[int]:
        """Chunk numbers still to play, in order."""
        return [k for k in range(self.plan.chunks) if k not in self._done]

    def _path(self, k: int, name: str) -> Path:
        return self.dir / f"{k:06d}.{name}"

    def save(self, k: int, agg: dict, frames: dict | None) -> None:
        """Write chunk ``k``: its tables first, then its aggregates (the done marker)."""
        tables = sorted(frames) if frames else []
        for name in tables:
            write_parquet(frames[name], self._path(k, f"{name}.parquet"))
        start, count = self.plan.chunk_range(k)
        write_json({"chunk": k, "start": start, "count": count, "tables": tables,
                    "aggregates": encode_aggregates(agg)}, self._path(k, "agg.json"))
        self._done.add(k)
        self.write_manifest()

    def load_aggregates(self, k: int) -> dict:
        data = json.loads(self._path(k, "agg.json").read_text(encoding="utf-8"))
        return decode_aggregates(data["aggregates"])

    def load_frames(self, k: int) -> dict[str, pd.DataFrame]:
        data = json.loads(self._path(k, "agg.json").read_text(encoding="utf-8"))
        return {name: pd.read_parquet(self._path(k, f"{name}.parquet"))
                for name in data["tables"]}

    def finish(self) -> None:
        """Delete the chunk files once the run's own files are written."""
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- manifest -----------------------------------------------------------
    def manifest(self, status: str) -> dict:
        return {"version": __version__, "status": status, "plan": self.plan.key(),
                "rules": self.plan.rules.to_dict(), "chunks": self.plan.chunks,
                "chunks_done": _ranges(self._done), "execution": self.execution}

    def write_manifest(self, force: bool = False) -> None:
        """Rewrite run.json (at most every ``manifest_every`` seconds unless forced).

        The chunk files are the truth; the list in run.json may lag by a chunk or two.
        """
        now = time.monotonic()
        if not force and now - self._last_manifest < self.manifest_every \
                and len(self._done) < self.plan.chunks:
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

