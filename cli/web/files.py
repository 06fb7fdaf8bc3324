"""Paths under the served folder, and nothing else.

A path comes from the page as text relative to the folder.  It is refused with
403 when it is absolute, holds a ``..`` part or a NUL, or resolves (symbolic links
followed) outside the folder; 404 when nothing is there.
"""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath


class PathRefused(Exception):
    """A path the page may not open: ``status`` 403 (outside the folder) or 404."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def inside(root: Path, rel: str | None) -> Path:
    """The real path of ``rel`` under ``root`` (the served folder, already resolved);
    PathRefused when it is outside the folder or missing."""
    rel = (rel or "").strip()
    if "\x00" in rel or "\\" in rel:
        raise PathRefused(403, f"'{rel}' is not allowed: give a path under the served folder, "
                               "with / between parts")
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts:
        raise PathRefused(403, f"'{rel}' is outside the served folder; allowed: a path "
                               "under it, without '..' and not starting with /")
    path = (root / pure).resolve()
    if path != root and root not in path.parents:
        raise PathRefused(403, f"'{rel}' leads outside the served folder (a symbolic link "
                               "out); only what is inside it is shown")
    if not path.exists():
        raise PathRefused(404, f"nothing at '{rel}' in the served folder")
    return path


def relative(root: Path, path: Path) -> str:
    """``path`` (under ``root``) as the text the pages pass around."""
    return path.relative_to(root).as_posix() if path != root else ""


def entries(root: Path, folder: Path) -> list[tuple[str, Path, bool]]:
    """(name, path, is a folder) of what ``folder`` holds and the page may open: hidden
    names and links that lead outside the served folder are left out; folders first."""
    out = []
    with os.scandir(folder) as it:
        for e in it:
            if e.name.startswith("."):
                continue
            p = Path(e.path).resolve()
            if p != root and root not in p.parents:
                continue
            out.append((e.name, p, p.is_dir()))
    return sorted(out, key=lambda t: (not t[2], t[0].lower()))
