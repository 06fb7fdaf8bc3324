"""The results pages of ``tricksim serve``: the folders under the served one (a run's,
a sweep's... with their json, report, tables and plots) and their files."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import Route

from .common import PageError, html
from .files import entries, inside, relative
from .html import esc, table

#: rows of a CSV table shown on a results page
MAX_ROWS = 200
#: files /file serves, by suffix
SERVED = {".png": "image/png", ".csv": "text/plain; charset=utf-8",
          ".json": "text/plain; charset=utf-8", ".jsonl": "text/plain; charset=utf-8",
          ".md": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8",
          ".parquet": "application/octet-stream"}


class ResultsPages:
    """The pages of the folders and files under ``root``."""

    def __init__(self, root: Path):
        self.root = root

    def routes(self) -> list[Route]:
        """The results pages' routes."""
        return [Route("/results", self.results), Route("/file", self.serve_file)]

    def results(self, request: Request):
        """A folder under the served one: its json, report, tables, plots and contents
        (a file: shown by its kind)."""
        from simcore.folders import kind_of
        rel = request.query_params.get("path", "")
        p = inside(self.root, rel)
        if p.is_file():
            return html(rel, file_html(self.root, p))
        kind = kind_of(p)
        parts = [f"<p class=note>{esc('/' + relative(self.root, p))} in the served folder"
                 + (f": a {esc(kind)} folder" if kind else "") + "</p>"]
        if p != self.root:
            up = relative(self.root, p.parent)
            parts.append(f"<p><a href='/results?path={esc(up)}'>&uarr; up</a></p>")
        listing = entries(self.root, p)
        for name in ("run.json", "sweep.json", "compare.json", "batch.json", "rotation.json"):
            if (p / name).is_file():
                parts.append(f"<h2>{name}</h2>{pretty_json(p / name)}")
        report = ""
        if (p / "report.md").is_file():
            report = markdown_html(self.root, p)
            parts.append(f"<h2>report.md</h2><div class=box>{report}</div>")
        for name, f, is_dir in listing:
            if not is_dir and name.endswith(".csv"):
                tab = csv_html(f)
                parts.append(f"<details><summary>{esc(name)}</summary>{tab}</details>"
                             if report else f"<h2>{esc(name)}</h2>{tab}")
        for name, f, is_dir in listing:
            shown = f"/file?path={esc(relative(self.root, f))}" in report     # in the report
            if not is_dir and name.endswith(".png") and not shown:
                src = esc(relative(self.root, f))
                parts.append(f"<h2>{esc(name)}</h2><img class=plot alt='{esc(name)}' "
                             f"src='/file?path={src}'>")
        items = []
        for name, f, is_dir in listing:
            r = esc(relative(self.root, f))
            extra = ""
            if name.endswith(".jsonl"):
                extra = f" (<a href='/study/view?path={r}'>study</a>)"
            mark = ""
            if is_dir:
                k = kind_of(f)
                mark = f" <span class=note>{esc(k)}</span>" if k else ""
            items.append(f"<li><a href='/results?path={r}'>{esc(name)}"
                         f"{'/' if is_dir else ''}</a>{mark}{extra}</li>")
        parts.append("<h2>Contents</h2><ul>" + "".join(items) + "</ul>" if items else
                     "<p class=note>(empty)</p>")
        return html("Results", "".join(parts))

    def serve_file(self, request: Request):
        """A file under the served folder, of a kind it serves (``SERVED``)."""
        rel = request.query_params.get("path", "")
        p = inside(self.root, rel)
        if not p.is_file() or p.suffix not in SERVED:
            raise PageError(404, f"'{rel}' is not a file this page serves (allowed: "
                                 + ", ".join(SERVED) + ")")
        return FileResponse(p, media_type=SERVED[p.suffix],
                            headers={"X-Content-Type-Options": "nosniff"})


def pretty_json(path: Path, limit: int = 1 << 20) -> str:
    """A JSON file shown indented (as text if it is not JSON)."""
    text = path.read_text(encoding="utf-8", errors="replace")[:limit]
    try:
        text = json.dumps(json.loads(text), indent=2)
    except ValueError:
        pass
    return f"<pre>{esc(text)}</pre>"


def csv_html(path: Path) -> str:
    """A CSV file as a table (its first ``MAX_ROWS`` rows)."""
    with open(path, newline="", encoding="utf-8", errors="replace") as fh:
        rows = []
        for i, row in enumerate(csv.reader(fh)):
            if i > MAX_ROWS:
                break
            rows.append(row)
    if not rows:
        return "<p class=note>(empty)</p>"
    more = "<p class=note>first rows only</p>" if len(rows) > MAX_ROWS else ""
    return table(rows[0], rows[1:MAX_ROWS + 1]) + more


def markdown_html(root: Path, folder: Path) -> str:
    """``report.md`` rendered (raw HTML in it shown as text); its relative images and
    links point into the served folder."""
    import markdown
    text = (folder / "report.md").read_text(encoding="utf-8", errors="replace")
    out = markdown.markdown(text.replace("&", "&amp;").replace("<", "&lt;"),
                            extensions=["tables", "fenced_code"])
    base = relative(root, folder)

    def fix(m):
        attr, url = m.group(1), m.group(2)
        if re.match(r"^[a-z]+:|^/|^#", url):
            return m.group(0)
        rel = f"{base}/{url}" if base else url
        where = "/file?path=" if attr == "src" else "/results?path="
        return f'{attr}="{where}{esc(rel)}"'
    return re.sub(r'(src|href)="([^"]*)"', fix, out)


def file_html(root: Path, p: Path) -> str:
    """One file of the served folder shown by its kind."""
    rel = esc(relative(root, p))
    up = f"<p><a href='/results?path={esc(relative(root, p.parent))}'>&uarr; folder</a></p>"
    if p.suffix == ".png":
        return up + f"<img class=plot alt='{rel}' src='/file?path={rel}'>"
    if p.suffix == ".csv":
        return up + csv_html(p)
    if p.suffix == ".json":
        return up + pretty_json(p)
    if p.suffix == ".md":
        import markdown
        text = p.read_text(encoding="utf-8", errors="replace")
        return up + "<div class=box>" + markdown.markdown(
            text.replace("&", "&amp;").replace("<", "&lt;"), extensions=["tables"]) + "</div>"
    if p.suffix == ".jsonl":
        return up + f"<p><a class=act href='/study/view?path={rel}'>Study this record</a></p>"
    if p.suffix in SERVED:
        return up + f"<p><a href='/file?path={rel}'>download</a></p>"
    return up + "<p class=note>not a file this page shows</p>"
