"""The study pages of ``tricksim serve``: a record (uploaded, or a file under the served
folder) stepped through action by action, each position analysed on request."""
from __future__ import annotations

import secrets
from collections import OrderedDict
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from .common import PageError, form_int, html
from .files import entries, inside, relative
from .html import card, esc, pre, table
from .session import analyse_budget, analysis_policy

#: uploaded records kept in memory
MAX_UPLOADS = 50
#: the largest upload read
MAX_UPLOAD_BYTES = 32 << 20


class StudyPages:
    """The uploaded records (kept while the server runs) and the study pages of the
    records under ``root``."""

    def __init__(self, root: Path):
        self.root = root
        self.uploads: OrderedDict[str, tuple[str, dict]] = OrderedDict()

    def routes(self) -> list[Route]:
        """The study pages' routes."""
        return [Route("/study", self.study),
                Route("/study/upload", self.upload, methods=["POST"]),
                Route("/study/view", self.study_view)]

    async def study(self, request: Request):
        """The study start page: upload a record or pick one under the served folder."""
        jsonl = []
        for dirpath in _walk(self.root, 3):
            for name, p, is_dir in entries(self.root, dirpath):
                if not is_dir and name.endswith(".jsonl"):
                    rel = relative(self.root, p)
                    jsonl.append(f"<li><a href='/study/view?path={esc(rel)}'>{esc(rel)}</a>"
                                 "</li>")
        found = ("<ul>" + "".join(jsonl[:100]) + "</ul>") if jsonl else \
            "<p class=note>no .jsonl files under the served folder (three levels down)</p>"
        body = ("<div class=box><form method=post action='/study/upload' "
                "enctype=multipart/form-data><label>Upload a record (JSON Lines) "
                "<input type=file name=file accept='.jsonl,.json'></label>"
                "<label>record number <input name=index type=number min=0 value=0 "
                "style='width:5em'></label><button class=act>Open</button></form></div>"
                "<div class=box style='margin-top:1em'><form method=get action='/study/view'>"
                "<label>or a path under the served folder <input name=path size=40></label>"
                "<label>record number <input name=index type=number min=0 value=0 "
                "style='width:5em'></label><button class=act>Open</button></form></div>"
                f"<h2>Records under the served folder</h2>{found}")
        return html("Study a record", body)

    async def upload(self, request: Request):
        """Read an uploaded record file, replay-check the chosen record, keep it."""
        from simcore.records import parse_line, replay_one
        from simcore.errors import ReplayError
        form = await request.form(max_part_size=MAX_UPLOAD_BYTES)
        f = form.get("file")
        if f is None or isinstance(f, str):
            raise PageError(400, "no file uploaded: choose a JSON Lines record file")
        raw = await f.read(MAX_UPLOAD_BYTES + 1)
        if len(raw) > MAX_UPLOAD_BYTES:
            raise PageError(413, f"the file is larger than {MAX_UPLOAD_BYTES >> 20} MB")
        index = form_int(form.get("index"), "record number", 0)
        lines = [x for x in raw.split(b"\n") if x.strip()]
        if not lines:
            raise PageError(400, "the file holds no record: a record is one JSON object "
                                 "per line")
        if index >= len(lines):
            raise PageError(400, f"the file holds {len(lines)} record(s); record number "
                                 f"{index} is not among them (0 to {len(lines) - 1})")
        try:
            rec = parse_line(lines[index])
            replay_one(rec)
        except ReplayError as exc:
            raise PageError(400, f"record {index} of '{f.filename}' does not replay: {exc}")
        uid = secrets.token_urlsafe(9)
        self.uploads[uid] = (f"{f.filename} (uploaded), record {index}", rec)
        while len(self.uploads) > MAX_UPLOADS:
            self.uploads.popitem(last=False)
        return RedirectResponse(f"/study/view?upload={uid}", status_code=303)

    def load_record(self, q) -> tuple[str, dict, str]:
        """(title, record, query naming it) from ?upload= or ?path=&index=."""
        from simcore.analysis.positions import read_record
        if q.get("upload"):
            got = self.uploads.get(q["upload"])
            if got is None:
                raise PageError(404, "that upload is gone (uploads live while the server "
                                     "runs); upload the file again")
            return got[0], got[1], f"upload={esc(q['upload'])}"
        rel = q.get("path")
        if not rel:
            raise PageError(400, "give a record: ?path=FILE under the served folder, or "
                                 "upload one")
        index = form_int(q.get("index"), "index", 0)
        p = inside(self.root, rel)
        if not p.is_file():
            raise PageError(400, f"'{rel}' is a folder; give a .jsonl file")
        return (f"{rel}, record {index}", read_record(p, index),
                f"path={esc(rel)}&index={index}")

    def study_view(self, request: Request):
        """A record's deal stepped through: the position after ``at`` actions, every
        hand, the narrated actions as links, and its analysis on request."""
        from simcore.analysis.show import engine_for, narrator_class
        q = request.query_params
        title, rec, src = self.load_record(q)
        deals = rec["deals"]
        deal = form_int(q.get("deal"), "deal", 0)
        if deal >= len(deals):
            raise PageError(400, f"deal {deal}: the record has {len(deals)} deal(s) (0 to "
                                 f"{len(deals) - 1})")
        n_act = len(deals[deal]["actions"])
        at = form_int(q.get("at"), "at", 0)
        if at > n_act:
            raise PageError(400, f"at {at}: deal {deal} has {n_act} actions; give 0 to "
                                 f"{n_act}")
        eng = engine_for(rec)
        narr = narrator_class(rec["game"])(eng)
        lines = _deal_log(eng, narr, rec, deal, at, src)
        cur = eng.from_record(rec, deal, at)
        over = eng.deal_over(cur)
        mover = None if over else eng.to_move(cur)
        where = (f"deal {deal} of {len(deals)}, after {at} of {n_act} actions: "
                 + ("the deal is over" if over else f"seat {mover} to move"))
        analysis = "" if over else self.analysis(q, rec, deal, at, src)
        status = (f"<h2>What seat {mover} sees</h2>"
                  + pre(narrator_class(rec["game"])(eng, viewer=mover).view(cur, mover))) \
            if not over else pre(narr.deal_end(cur))
        felt = _table_html(eng.view(cur, mover if mover is not None else 0))
        body = (f"<p class=note>{esc(title)}: {esc(rec['game'])}, seed {rec['seed']}, index "
                f"{rec['index']}; keys &larr; &rarr; step, a analyse</p>"
                f"<p><b id=where>{esc(where)}</b> {' '.join(_nav(deals, deal, at, src))}</p>"
                f"<div class=cols><div>{felt}{_seats_html(eng, narr, rec, cur)}{status}"
                f"{analysis}</div>"
                f"<div><h2>Deal {deal}</h2><div class='log study' id=log>{''.join(lines)}"
                "</div></div></div><script>var h=document.getElementById('here'),"
                "g=document.getElementById('log');if(h)g.scrollTop=h.offsetTop-g.offsetTop-"
                "g.clientHeight/2;</script>")
        return html("Study a record", body)

    def analysis(self, q, rec: dict, deal: int, at: int, src: str) -> str:
        """The analysis box of a position where someone is to move (asked with
        ``?analyse=1``), or the link that asks for it."""
        if not q.get("analyse"):
            return (f"<p><a class=act data-key=a href='/study/view?{src}&deal={deal}"
                    f"&at={at}&analyse=1'>Analyse this position (a)</a></p>")
        worlds = form_int(q.get("worlds"), "worlds", None, 1, 100_000)
        pos, used, took = analyse_budget(rec, deal, at, worlds=worlds)
        file_txt = q.get("path") or "RECORD.jsonl"
        index = form_int(q.get("index"), "index", 0)
        cmd = (f"tricksim analyse {file_txt} --index {index} --deal {deal} --at {at} "
               f"--worlds {used} --seed 1 --policy {analysis_policy(rec)}")
        return analysis_html(pos, used, took, cmd, mark_actual=True)


def _deal_log(eng, narr, rec: dict, deal: int, at: int, src: str) -> list[str]:
    """The deal's start and every action as narrated, each action a link to the
    position after it (the one after action ``at`` marked as here)."""
    from simcore.analysis.show import numbered
    st = eng.from_record(rec, deal, 0)
    lines = [f"<div>{esc(x)}</div>" for x in narr.deal_start(st)]
    for k, item in enumerate(rec["deals"][deal]["actions"]):
        a = eng.action_from_record(st, item)
        before = st.copy()
        eng.apply(st, a)
        text = esc("\n".join(numbered(k, narr.action(before, a, st))))
        here = " id=here class=here" if k == at - 1 else ""
        lines.append(f"<a href='/study/view?{src}&deal={deal}&at={k + 1}'"
                     f" title='the position after this action'{here}>{text}</a>")
    return lines


def _seats_html(eng, narr, rec: dict, cur) -> str:
    """Every seat's hand in the position ``cur`` (the record shows all cards)."""
    seats = []
    for p in range(eng.seats):
        h = narr.sorted_cards(cur, eng.view(cur, p)["hand"])
        seats.append(f"<div class=box style='margin:.3em 0'><b>seat {p}</b> "
                     f"({esc(rec['policies'][p])})<div class=row>"
                     + "".join(card(c, small=True) for c in h) + "</div></div>")
    return "".join(seats)


def _table_html(view: dict) -> str:
    """The cards on the table in a seat's ``view`` (the trick, or the card led), if any."""
    trick = view.get("trick") or ([[None, view["lead_card"]]] if view.get("lead_card")
                                  else [])
    if not trick:
        return ""
    return ("<div class=felt>on the table: <div class=row>" + "".join(
        f"<div>{card(c)}<div class=seatlabel>{'led' if p is None else f'seat {p}'}</div>"
        "</div>"
        for p, c in trick) + "</div></div>")


def _nav(deals: list, deal: int, at: int, src: str) -> list[str]:
    """The links one action back and forward (across a deal's end to the next deal)."""
    n_act = len(deals[deal]["actions"])
    nav = []
    if at > 0:
        nav.append(f"<a class=act data-key=left href='/study/view?{src}&deal={deal}"
                   f"&at={at - 1}'>&larr; back</a>")
    elif deal > 0:
        prev_n = len(deals[deal - 1]["actions"])
        nav.append(f"<a class=act data-key=left href='/study/view?{src}&deal={deal - 1}"
                   f"&at={prev_n}'>&larr; previous deal</a>")
    if at < n_act:
        nav.append(f"<a class=act data-key=right href='/study/view?{src}&deal={deal}"
                   f"&at={at + 1}'>forward &rarr;</a>")
    elif deal + 1 < len(deals):
        nav.append(f"<a class=act data-key=right href='/study/view?{src}&deal={deal + 1}"
                   f"&at=0'>next deal &rarr;</a>")
    return nav


def analysis_html(pos, worlds: int, took: float, cmd: str, mark_actual: bool) -> str:
    """``analyse``'s table for the seat to move: per legal action the mean score and
    P(win) with 95% intervals and the paired difference to the best."""
    def num(x):
        return "n/a" if x != x else f"{x:+.3f}"

    def pct(x):
        return "n/a" if x != x else f"{100 * x:.1f}%"
    rows = []
    for i, r in enumerate(pos.results):
        mark = ("best" if i == pos.best else "") + (
            " (played)" if mark_actual and r.label == pos.actual else "")
        rows.append([r.label, num(r.mean), f"[{num(r.mean_low)}, {num(r.mean_high)}]",
                     pct(r.win), f"[{pct(r.win_low)}, {pct(r.win_high)}]",
                     "" if i == pos.best else f"{num(r.diff)} [{num(r.diff_low)}, "
                                              f"{num(r.diff_high)}]", mark])
    head = ["action", "mean score", "95% CI", "P(win)", "95% CI", "vs best (paired)", ""]
    return (f"<div class=box id=analysis><h2>Analysis for seat {pos.seat}</h2>"
            f"{table(head, rows)}<p class=note>{pos.worlds} worlds consistent with what seat "
            f"{pos.seat} sees, each played out by {esc(pos.players)} (the analysis player), "
            f"in {took:.1f} s; the same numbers as <code>{esc(cmd)}</code></p></div>")


def _walk(root: Path, depth: int):
    """``root`` and its folders down to ``depth`` levels (inside the served folder only)."""
    todo = [(root, 0)]
    while todo:
        d, k = todo.pop(0)
        yield d
        if k < depth:
            todo.extend((p, k + 1) for _, p, is_dir in entries(root, d) if is_dir)
