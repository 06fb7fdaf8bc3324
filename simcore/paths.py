"""Output paths given on the command line: checked before anything is played, and an
operating system's error on one said as a sentence (never ``[Errno 30] ...``)."""
from __future__ import annotations

import errno
import os
from pathlib import Path

from .errors import TricksimError

#: what an OS error means for the file it names, in words (by errno name: not every
#: system has every one)
_REASONS = {getattr(errno, name): text for name, text in (
    ("EROFS", "the file system there is read-only"),
    ("EACCES", "permission denied"),
    ("EPERM", "the operation is not permitted there"),
    ("ENOSPC", "no space left on the device"),
    ("EDQUOT", "the disk quota is used up"),
    ("EFBIG", "the file would be too large for the file system"),
    ("ENOTDIR", "a part of the path is a file, not a folder"),
    ("EISDIR", "it is a folder"),
    ("ENAMETOOLONG", "the name is too long"),
    ("ENOENT", "no such file or folder"),
    ("EEXIST", "something of that name is in the way"),
    ("EIO", "an input/output error of the device"),
) if hasattr(errno, name)}
#: errors that only writing meets
_WRITING = {getattr(errno, name) for name in ("EROFS", "ENOSPC", "EDQUOT", "EFBIG")
            if hasattr(errno, name)}


def os_error_sentence(exc: OSError) -> str:
    """One line for an OSError: what could not be done to which path, and why
    (``cannot write to 'out/x': the file system there is read-only``)."""
    reason = _REASONS.get(exc.errno) or (exc.strerror or "").lower() or \
        " ".join(str(exc).split()) or type(exc).__name__
    name = exc.filename if exc.filename is not None else exc.filename2
    if name is None:
        return reason[0].upper() + reason[1:]
    verb = "cannot write to" if exc.errno in _WRITING else "cannot use"
    return f"{verb} '{os.fsdecode(name)}': {reason}"


def check_file_path(path, option: str) -> Path:
    """A path given for an output file (``--records``): not empty, and in a folder
    that exists (tricksim creates no folders for a file, so a mistyped folder is
    an error, not a new tree); a one-line TricksimError otherwise."""
    text = os.fsdecode(path) if not isinstance(path, Path) else str(path)
    if not text.strip():
        raise TricksimError(f"{option} is empty; allowed: the path of a file to write "
                            "(e.g. games.jsonl)")
    p = Path(text)
    parent = p.parent
    if not parent.exists():
        raise TricksimError(f"{option} '{text}': the folder '{parent}' does not exist; "
                            "create it first, or give a path in an existing folder")
    if not parent.is_dir():
        raise TricksimError(f"{option} '{text}': '{parent}' is not a folder")
    return p
