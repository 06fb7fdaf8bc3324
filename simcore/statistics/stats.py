"""Statistics and result files: pandas and scipy only (no numba here).

Intervals: Wilson score intervals for rates (scipy.stats.binomtest), normal
intervals for means (scipy.stats.norm).  Run folders: ``games.parquet`` (and
any other per-row table), ``summary.csv`` and ``run.json``, each written to a
temporary name and renamed, so a file is there whole or not at all.
"""
from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from ..errors import TricksimError
from ..text import counted

try:
    import fcntl
except ImportError:                         # not POSIX: temporaries are not locked
    fcntl = None

CONFIDENCE = 0.95
#: the normal quantile of a 95% interval, scipy.stats.norm.ppf(0.975) (tested)
_Z = 1.959963984540054


def _st():
    """scipy.stats, imported on first use (it takes half a second to import)."""
    from scipy import stats
    return stats


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """Rate with its 95% Wilson interval."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    p = k / n
    d = 1 + _Z * _Z / n
    c = (p + _Z * _Z / (2 * n)) / d
    h = _Z * math.sqrt(p * (1 - p) / n + _Z * _Z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def rate_ci(k, n):
    """Rate ``k/n`` with its 95% Wilson interval: (rate, low, high); NaN when n = 0."""
    k, n = int(k), int(n)
    if n <= 0:
        return math.nan, math.nan, math.nan
    ci = _st().binomtest(k, n).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return k / n, float(ci.low), float(ci.high)


def mean_ci(total, total_sq, n):
    """Mean, standard deviation and 95% normal interval of the mean from sums.

    All NaN when n = 0; with n = 1 the mean alone (one value says nothing about
    the spread, so standard deviation and interval are NaN)."""
    n = int(n)
    if n <= 0:
        return math.nan, math.nan, math.nan, math.nan
    mean = float(total) / n
    if n == 1:
        return mean, math.nan, math.nan, math.nan
    var = max(0.0, float(total_sq) / n - mean * mean) * (n / (n - 1))
    sd = math.sqrt(var)
    half = _Z * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


def metric_frame(rows) -> pd.DataFrame:
    """A game-level frame from (metric, value, low, high) tuples."""
    return pd.DataFrame(rows, columns=["metric", "value", "low", "high"])


def add_sums(total: dict | None, part: dict) -> dict:
    """Add one chunk's aggregates into the running totals."""
    if total is None:
        return {k: (np.array(v, dtype=np.float64) if isinstance(v, np.ndarray) else v)
                for k, v in part.items()}
    for k, v in part.items():
        total[k] = total[k] + v
    return total


#: the columns of ``summary.csv`` (long form; docs/data.md describes each)
SUMMARY_CSV_COLUMNS = ("section", "seat", "policy", "group", "metric", "value", "low", "high")

_INTERVAL_SUFFIXES = ("_low", "_high")


def _whole(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) or (
        isinstance(v, (float, np.floating)) and math.isfinite(v) and float(v).is_integer())


def summary_csv_frame(summary: dict) -> pd.DataFrame:
    """The summary as one long table: one row per figure, columns ``SUMMARY_CSV_COLUMNS``.

    A section of ``metric, value, low, high`` rows keeps them; a wide section (one
    row per seat, or per contract) gives one row per column: ``seat`` and ``policy``
    from the row's own columns, ``group`` from its other text column (e.g. the
    contract), and ``low``/``high`` from the ``*_low``/``*_high`` pair that follows
    the figure's column in the section (a ``*_sd`` column between them is a figure of
    its own).  ``seat`` is an integer or empty; a value is written as an integer
    where its source column holds integers, or where it is a whole number without
    an interval (a count)."""
    rows = []
    for section, frame in summary.items():
        cols = list(frame.columns)
        if {"metric", "value"} <= set(cols):
            for rec in frame.to_dict("records"):
                lo, hi = rec.get("low", np.nan), rec.get("high", np.nan)
                rows.append(_long_row(section, rec, rec["metric"], rec["value"], lo, hi,
                                      False))
            continue
        text = [c for c in cols if c not in ("seat", "policy")
                and not pd.api.types.is_numeric_dtype(frame[c])]
        group_col = text[0] if text else None
        figures = []                       # (column, low column, high column)
        i = 0
        while i < len(cols):
            c = cols[i]
            if c in ("seat", "policy") or c in text:
                i += 1
                continue
            pair = (i + 2 < len(cols) and cols[i + 1].endswith("_low")
                    and cols[i + 2].endswith("_high"))
            if pair and c.endswith("_sd") and figures and figures[-1][1] is None:
                # mean, sd, low, high: the interval is the mean's
                figures[-1] = (figures[-1][0], cols[i + 1], cols[i + 2])
                figures.append((c, None, None))
            elif pair:
                figures.append((c, cols[i + 1], cols[i + 2]))
            else:
                figures.append((c, None, None))
            i += 3 if pair else 1
        ints = {c for c, _, _ in figures if pd.api.types.is_integer_dtype(frame[c])}
        for rec in frame.to_dict("records"):
            for c, lo, hi in figures:
                rows.append(_long_row(section, rec, c, rec[c],
                                      rec[lo] if lo else np.nan, rec[hi] if hi else np.nan,
                                      c in ints, group=rec[group_col] if group_col else None))
    out = pd.DataFrame(rows, columns=list(SUMMARY_CSV_COLUMNS))
    out["seat"] = out["seat"].astype("Int64")
    out["value"] = pd.Series([r["value"] for r in rows], dtype=object)
    return out


def _long_row(section, rec, metric, value, low, high, integer, group=None) -> dict:
    seat = rec.get("seat")
    seat = None if seat is None or (isinstance(seat, float) and math.isnan(seat)) else int(seat)
    no_interval = not _whole(low) and not _whole(high) and (
        low is None or high is None or (np.isnan(low) and np.isnan(high)))
    if _whole(value) and (integer or no_interval):
        value = int(value)
    elif isinstance(value, (np.floating, np.integer)):
        value = value.item()
    return {"section": section, "seat": seat, "policy": rec.get("policy"),
            "group": group, "metric": metric, "value": value, "low": low, "high": high}


def _fmt(v, digits=4):
    if v is None:
        return "-"
    if isinstance(v, (float, np.floating)):
        if math.isnan(v):
            return "-"
        if float(v).is_integer() and abs(v) >= 1000:
            return f"{int(v)}"
        return f"{v:.{digits}f}"
    return str(v)


def _fmt_count(v, low, high) -> str:
    """A figure of a metric row: a whole number without an interval is a count (games,
    matches, deals) and prints as an integer (``12``, not ``12.0000``); zero stays a
    figure (a spread of 0.0000)."""
    if _whole(v) and v != 0 and _isnan(low) and _isnan(high):
        return f"{int(v)}"
    return _fmt(v)


def _json_records(frame: pd.DataFrame) -> list[dict]:
    """A section as JSON records, counts as integers: whole-number columns, and in a
    metric section the whole values without an interval (as the table prints them)."""
    records = json.loads(integer_columns(frame).to_json(orient="records"))
    if {"metric", "value", "low", "high"} <= set(frame.columns):
        for rec in records:
            v, lo, hi = rec["value"], rec["low"], rec["high"]
            if isinstance(v, float) and v.is_integer() and v != 0 and lo is None \
                    and hi is None:
                rec["value"] = int(v)
    return records


def format_table(summary: dict) -> str:
    """A plain-text rendering of the summary for the terminal."""
    out = []
    for section, frame in summary.items():
        out.append(f"[{section}]")
        if list(frame.columns[:4]) == ["metric", "value", "low", "high"]:
            rows = [[m, _fmt_count(v, lo, hi),
                     "" if _isnan(lo) else f"[{_fmt(lo)}, {_fmt(hi)}]"]
                    for m, v, lo, hi in frame[["metric", "value", "low", "high"]]
                    .itertuples(index=False)]
            out.append(_grid(["metric", "value", "95% interval"], rows))
        else:
            rows = [[_fmt(v) for v in row] for row in frame.itertuples(index=False)]
            out.append(_grid([str(c) for c in frame.columns], rows))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _isnan(v):
    return isinstance(v, float) and math.isnan(v)


def _grid(header, rows):
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return "\n".join(lines)


def format_summary(summary: dict, fmt: str) -> str:
    """The summary as ``table``, ``csv`` or ``json`` text."""
    if fmt == "table":
        return format_table(summary)
    if fmt == "csv":
        return summary_csv_frame(summary).to_csv(index=False)
    if fmt == "json":
        return json.dumps({k: _json_records(v) for k, v in summary.items()},
                          indent=2) + "\n"
    raise ValueError(fmt)


# ----- atomic files -------------------------------------------------------
_UMASK = os.umask(0)
os.umask(_UMASK)


def check_output_path(path) -> str:
    """How an output file at ``path`` would be written, or a one-line TricksimError.

    ``"new"`` (nothing there) and ``"replace"`` (a regular file) are written to a
    temporary name and renamed into place; ``"device"`` (a character device such
    as ``/dev/null``, or a named pipe, also through a symbolic link such as
    ``/dev/stdout``) is written through, never replaced.  A symbolic link to
    anything else, a folder, a block device or a socket is refused: renaming
    over a link would silently drop it and writing through it would silently
    replace its target.
    """
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "new"
    except OSError as exc:
        raise TricksimError(f"cannot write '{path}': {exc.strerror or exc}") from None
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        try:
            target = os.stat(path).st_mode
        except OSError:
            target = None
        if target is not None and (stat.S_ISCHR(target) or stat.S_ISFIFO(target)):
            return "device"
        raise TricksimError(f"'{path}' is a symbolic link; tricksim neither replaces a link "
                            "nor writes through it to a file: give the target's own path "
                            "or a new name")
    if stat.S_ISREG(mode):
        return "replace"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "device"
    kind = ("a folder" if stat.S_ISDIR(mode) else "a block device" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    raise TricksimError(f"'{path}' is {kind}; allowed: a new or regular file, a character "
                        "device such as /dev/null, or a named pipe")


def atomic_write(path: Path, write):
    """Call ``write(tmp)`` on a temporary name beside ``path``, sync it to disk and
    rename it into place: the file appears whole or not at all, even after a crash.

    Only a missing or regular file is replaced; a character device or named pipe
    is written through (``write(path)``); anything else is refused (see
    :func:`check_output_path`).  An OS error (a full disk, no permission) becomes
    a one-line TricksimError naming the file.
    """
    path = Path(path)
    try:
        if check_output_path(path) == "device":
            write(str(path))
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp",
                                   dir=path.parent)
        if fcntl is not None:               # held while written: a live write is not stale
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            write(tmp)
            os.chmod(tmp, 0o666 & ~_UMASK)
            _fsync(tmp)                     # the data is on disk before the name is
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        finally:
            os.close(fd)
    except OSError as exc:
        raise TricksimError(f"cannot write '{path}': {exc.strerror or exc}") from None


def remove_stale_temps(path) -> list[str]:
    """Remove the temporary files that a killed :func:`atomic_write` of ``path`` left
    beside it (``.NAME.XXXXXXXX.tmp``, hidden): only those of that naming pattern,
    regular files, and not locked by a live write (a write holds its temporary's
    lock until it is renamed).  Returns the names removed."""
    path = Path(path)
    if fcntl is None:
        return []
    pattern = re.compile(re.escape("." + path.name + ".") + r"[A-Za-z0-9_]{6,}\.tmp")
    removed = []
    try:
        with os.scandir(path.parent) as it:
            entries = [e for e in it if pattern.fullmatch(e.name)]
    except OSError:
        return []
    for entry in entries:
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.fstat(fd).st_ino == os.stat(entry.path, follow_symlinks=False).st_ino:
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            pass                            # being written, or gone already
        finally:
            os.close(fd)
    return removed


def _fsync(path) -> None:
    """Flush a file's data to disk (a full disk or an I/O error raises: data may be lost)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP):    # cannot sync: nothing to do
            raise
    finally:
        os.close(fd)


def write_parquet(frame: pd.DataFrame, path):
    """Write a frame to parquet atomically."""
    atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False))


def integer_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with float columns that hold only whole numbers (seats, counts made
    float by a missing value or a concatenation) as nullable integers, so a CSV
    writes ``0`` and ``50000``, not ``0.0`` and ``50000.0``; an empty cell stays
    empty.  Columns of rates and means that are not all whole numbers are untouched."""
    out = frame.copy()
    for c in out.columns:
        col = out[c]
        if pd.api.types.is_float_dtype(col):
            vals = col.dropna()
            if len(vals) and np.isfinite(vals).all() and (vals == np.round(vals)).all() \
                    and (vals.abs() < 2**53).all():
                out[c] = col.astype("Int64")
    return out


def write_csv(frame: pd.DataFrame, path):
    """Write a frame to CSV atomically (whole-number float columns as integers)."""
    frame = integer_columns(frame)
    atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False))


def write_json(obj, path):
    """Write JSON atomically."""
    def w(tmp):
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(obj, fh, indent=2)
            fh.write("\n")
    atomic_write(path, w)


def write_bytes(data: bytes, path):
    """Write bytes atomically."""
    def w(tmp):
        with open(tmp, "wb") as fh:
            fh.write(data)
    atomic_write(path, w)


def write_text(text: str, path):
    """Write text atomically."""
    def w(tmp):
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
    atomic_write(path, w)


# ----- fairness -------------------------------------------------------------
#: fewest expected wins per seat for the chi-square test of equal wins: Cochran's
#: rule, the usual condition for the chi-square approximation, asks for an expected
#: count of at least 5 in every cell; with fewer the test is not made
MIN_EXPECTED_WINS = 5


#: fewest games for the test of equal mean scores (a normal approximation of each
#: seat's mean, as for the paired tests of ``simcore.experiments.sweep``)
MIN_SCORE_TEST_GAMES = 30


def seat_test_absent(summary: dict, contract) -> str | None:
    """Why a summary has no test that seats do equally well, or None when it has one.

    A test of seats is a test of the seats only when every seat plays the same
    policy (otherwise it measures the players); the chi-square test of equal wins
    needs at least MIN_EXPECTED_WINS wins expected per seat (Cochran); the test
    of equal mean scores at least MIN_SCORE_TEST_GAMES games."""
    seats = summary.get("seats")
    if seats is None or len(seats) < 2:
        return None
    if contract.wins_column is None and contract.equal_means is None:
        return None
    what = ("chi-square test of equal wins" if contract.wins_column
            else "test of equal mean scores")
    if "policy" in seats and seats["policy"].nunique() > 1:
        return (f"no {what}: the seats play different policies ("
                + ", ".join(map(str, seats["policy"])) + "), so a difference between seats "
                "would be the players', not the seats'; the test is made only when every "
                "seat plays the same policy")
    n = len(seats)
    if contract.wins_column:
        col = contract.wins_column
        if col not in seats:
            return None
        total = int(seats[col].sum())
        if total >= MIN_EXPECTED_WINS * n:
            return None
        return (f"no chi-square test of equal wins: {counted(total, 'win')} "
                f"among {n} seats, {total / n:.2g} expected per seat; the test needs at "
                f"least {MIN_EXPECTED_WINS} per seat ({MIN_EXPECTED_WINS * n} wins)")
    games = _games_of(summary)
    if games is not None and games < MIN_SCORE_TEST_GAMES:
        return (f"no test of equal mean scores: {counted(games, 'game')}; "
                f"the test needs at least {MIN_SCORE_TEST_GAMES}")
    return None


def _games_of(summary: dict) -> int | None:
    game = summary.get("game")
    if game is None:
        return None
    hit = game[game["metric"] == "games"]
    return int(hit.iloc[0]["value"]) if len(hit) else None


def equal_means_test(seats, measure) -> tuple[float, float]:
    """(largest |z|, p) of the test that every seat's mean of a zero-sum measure is 0,
    i.e. that all seats do equally well.

    Each seat's mean is tested against 0 with a normal test (its standard error
    read off its 95% interval), and the smallest p-value is multiplied by the
    number of seats (Bonferroni, capped at 1), which bounds the chance of a false
    alarm whatever the correlation between seats.  A one-way analysis of
    variance would be wrong here: the seats' scores of one game sum to zero, so
    they are not independent groups (the negative correlation makes such a test
    find seat effects that are not there)."""
    mean = seats[measure.column].to_numpy(np.float64)
    se = (seats[measure.high].to_numpy(np.float64)
          - seats[measure.low].to_numpy(np.float64)) / (2 * _Z)
    if not np.all(np.isfinite(se)) or np.any(se <= 0):
        return math.nan, math.nan
    z = np.abs(mean) / se
    p = 2 * _st().norm.sf(z)
    return float(z.max()), float(min(1.0, len(mean) * p.min()))


def holm(pvalues) -> list[float]:
    """Holm's step-down correction of a family of p-values (NaN: not tested, kept
    NaN and not counted): each adjusted p-value can be compared with 0.05 and the
    chance of any false alarm in the family stays below 5%."""
    ps = [float(p) for p in pvalues]
    tested = sorted((p, i) for i, p in enumerate(ps) if not math.isnan(p))
    m = len(tested)
    out = [math.nan] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


#: fewest games for a paired test: the t test treats the mean per-game difference as
#: normal, and for differences that take a few values (a win: -1, 0 or 1) the usual
#: rule for the central limit theorem to make that good enough is about 30 pairs;
#: below it (and at 1 game, where no spread can be estimated at all) a p-value would
#: be a guess, so the figures are given without a test
MIN_PAIRED_GAMES = 30


def paired_test(xa: np.ndarray, xb: np.ndarray) -> tuple[float, float, float]:
    """(low, high, p-value) of the mean paired difference ``xb - xa``.

    Scipy's paired t test (``ttest_rel``) with its 95% interval.  Where every
    game differs by the same amount the t test is undefined: the interval is
    that amount and the p-value the exact sign test's (1 when the amount is 0,
    else 2 * 0.5**n).  NaN for all three with fewer than MIN_PAIRED_GAMES games.
    """
    diff = xb - xa
    n = len(diff)
    if n < MIN_PAIRED_GAMES:
        return math.nan, math.nan, math.nan
    mean = float(diff.mean())
    if np.all(diff == diff[0]):
        pvalue = 1.0 if mean == 0 else float(_st().binomtest(n, n).pvalue)
        return mean, mean, pvalue
    res = _st().ttest_rel(xb, xa)
    ci = res.confidence_interval(0.95)
    return float(ci.low), float(ci.high), float(res.pvalue)


#: the level below which an adjusted p-value counts as evidence of a difference
ALPHA = 0.05


def format_p(p: float) -> str:
    """A p-value as reports write it: two significant digits, ``< 0.001`` below that."""
    return "< 0.001" if p < 0.001 else f"= {p:.2g}"


def evidence_words(p: float) -> str:
    """How strong the evidence of an effect is for an (adjusted) p-value, in words
    that do not claim certainty: ``strong evidence`` (p < 0.001), ``evidence``
    (p < 0.01), ``weak evidence`` (p < 0.05), else ``no clear evidence``."""
    if p < 0.001:
        return "strong evidence"
    if p < 0.01:
        return "evidence"
    if p < ALPHA:
        return "weak evidence"
    return "no clear evidence"


def tests_run(count: int) -> str:
    """``1 test`` / ``19 tests``."""
    return counted(count, "test")


def fairness_frame(summary: dict, contract) -> pd.DataFrame:
    """Fairness measures of a summary (a metric frame), by the game's declared
    contract (``simcore.contract.GameContract``).

    - ``<measure>_spread``: highest minus lowest seat value of the contract's
      primary measure (``win_rate_spread``, ``score_per_deal_spread``);
    - ``equal_wins_chi2`` / ``equal_wins_p``: chi-square test (scipy.stats.chisquare)
      that all seats win equally often, over the games that had a winner, for
      games that count wins per seat;
    - ``equal_scores_z`` / ``equal_scores_p``: for games without wins per seat
      whose scores are zero-sum (Wendish), the test that every seat's mean score
      is 0 (:func:`equal_means_test`);
    - each declared advantage (first leader, dealer): that seat's rate minus the
      mean seat's rate of the same measure, with the rate's 95% Wilson interval
      shifted the same way.

    A test is NaN (not made) where :func:`seat_test_absent` gives a reason: the
    seats play different policies, or too few wins or games.
    """
    seats = summary["seats"]
    n = contract.seats
    rows = []
    m = contract.primary
    rows.append((f"{m.column}_spread", float(seats[m.column].max() - seats[m.column].min()),
                 math.nan, math.nan))
    absent = seat_test_absent(summary, contract)
    if contract.wins_column and n > 1:
        chi2 = p = math.nan
        if absent is None:
            res = _st().chisquare(seats[contract.wins_column].to_numpy(dtype=np.float64))
            chi2, p = float(res.statistic), float(res.pvalue)
        rows.append(("equal_wins_chi2", chi2, math.nan, math.nan))
        rows.append(("equal_wins_p", p, math.nan, math.nan))
    elif contract.equal_means and n > 1:
        z = p = math.nan
        if absent is None:
            z, p = equal_means_test(seats, contract.measure(contract.equal_means))
        rows.append(("equal_scores_z", z, math.nan, math.nan))
        rows.append(("equal_scores_p", p, math.nan, math.nan))
    game = summary.get("game")
    for adv in contract.advantages:
        hit = game[game["metric"] == adv.metric] if game is not None else ()
        if len(hit):
            v, lo, hi = hit.iloc[0][["value", "low", "high"]]
            share = contract.measure(adv.measure).fair_value(seats)
            rows.append((adv.label, v - share, lo - share, hi - share))
    return metric_frame(rows)


#: the fairness rows holding a seat test's p-value (whichever the game has)
SEAT_TEST_P = ("equal_wins_p", "equal_scores_p")


def seat_test_p(fairness) -> float:
    """The p-value of a fairness frame's seat test (NaN: none made)."""
    if fairness is None:
        return math.nan
    hit = fairness[fairness["metric"].isin(SEAT_TEST_P)]
    return float(hit.iloc[0]["value"]) if len(hit) else math.nan


def fairness_note(summary: dict, contract) -> str | None:
    """Why a summary has no test that seats do equally well, or None
    (see :func:`seat_test_absent`)."""
    return seat_test_absent(summary, contract)


def markdown_table(frame: pd.DataFrame, digits: int = 4) -> str:
    """A frame as a GitHub-flavoured Markdown table."""
    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v, digits) for v in row) + " |")
    return "\n".join(lines) + "\n"
