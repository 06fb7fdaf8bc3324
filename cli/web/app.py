"""The Starlette application of ``tricksim serve``: play, study a record, browse results.

Pages are rendered here from the engines (``cli/web/session.py``), the narrators
(``simcore.analysis.show``), ``simcore.analysis.positions`` and the result folders under the served
folder (``cli/web/files.py``).  Every failure a user can cause is a page with one
clear line and its HTTP status; an unexpected one is a 500 page naming the error,
never a traceback.
"""
from __future__ import annotations

import csv
import hmac
import json
import re
import secrets
from collections import OrderedDict
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from simcore.errors import TricksimError

from .files import PathRefused, entries, inside, relative
from .html import card, card_button, error_box, esc, page, pre, table
from .session import IllegalAction, PlaySession, analyse_budget, analysis_policy

#: games kept in memory (the oldest is dropped beyond this)
MAX_SESSIONS = 200
#: uploaded records kept in memory
MAX_UPLOADS = 50
#: the largest upload read
MAX_UPLOAD_BYTES = 32 << 20
#: rows of a CSV table shown on a results page
MAX_ROWS = 200
#: files /file serves, by suffix
SERVED = {".png": "image/png", ".csv": "text/plain; charset=utf-8",
          ".json": "text/plain; charset=utf-8", ".jsonl": "text/plain; charset=utf-8",
          ".md": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8",
          ".parquet": "application/octet-stream"}
#: the folder, under the served one, where finished games are saved
SAVED = "saved-games"
COOKIE = "tricksim_token"


class PageError(Exception):
    """A request the page refuses: its HTTP status and one line saying why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def html(title: str, body: str, status: int = 200) -> HTMLResponse:
    """A whole page as a response."""
    return HTMLResponse(page(title, body), status_code=status,
                        headers={"X-Content-Type-Options": "nosniff"})


def _int(value, name: str, default: int | None = None, lo: int = 0,
         hi: int = 2**63 - 1) -> int | None:
    if value is None or str(value).strip() == "":
        return default
    text = str(value).strip()
    if not re.fullmatch(r"-?\d{1,19}", text) or not lo <= int(text) <= hi:
        raise PageError(400, f"{name} must be a whole number from {lo} to {hi}, not "
                             f"'{text[:40]}'")
    return int(text)


def make_app(folder, token: str | None = None) -> Starlette:
    """The web app serving ``folder`` (results, records, saved games); with ``token``
    every request must carry it (``?token=`` once, then a cookie)."""
    root = Path(folder).resolve()
    sessions: OrderedDict[str, PlaySession] = OrderedDict()
    uploads: OrderedDict[str, tuple[str, dict]] = OrderedDict()

    def session_of(sid: str) -> PlaySession:
        s = sessions.get(sid)
        if s is None:
            raise PageError(404, f"no game '{sid}' here: games live while the server runs; "
                                 "start a new one")
        return s

    # ----- play -------------------------------------------------------------------------------
    async def home(request: Request):
        from simcore.games import game_names, get_players, get_rulebook
        boxes = []
        for g in game_names():
            rb = get_rulebook(g)
            players = get_players(g).PLAYERS
            presets = "".join(f"<option>{esc(p)}</option>" for p in rb.presets)
            opts = "<option value=''>the strongest (default)</option>" + "".join(
                f"<option>{esc(p)}</option>" for p in players)
            extra = ""
            if "players" in rb.options:
                extra = (f"<label>players <input name=players type=number min=3 max=5 "
                         f"placeholder=4 style='width:4em'> "
                         f"<span class=note>{esc(rb.options['players'].allowed())}</span></label>")
            boxes.append(
                f"<form class=box method=post action='/play/new'><h2>{esc(g)}</h2>"
                f"<input type=hidden name=game value='{esc(g)}'>"
                f"<label>variant <select name=preset>{presets}</select></label>{extra}"
                f"<label>your seat <input name=seat type=number min=0 value=0 "
                f"style='width:4em'></label>"
                f"<label>bots <select name=policy>{opts}</select></label>"
                f"<label>seed <input name=seed placeholder=random style='width:8em'></label>"
                f"<button class=act>Play {esc(g)}</button></form>")
        body = ("<p>Play a game against the bots, study a saved record move by move, or "
                "browse the result folders under the served folder "
                f"(<code>{esc(root)}</code>).</p>"
                f"<div class=games>{''.join(boxes)}</div>"
                "<p class=note>The strongest bots search (pimc): a move takes up to about a "
                "second; the first game of a kind compiles its kernels once (a minute or "
                "more on a cold cache). Keys in a game: <kbd>1</kbd>-<kbd>9</kbd> choose, "
                "<kbd>h</kbd> hint.</p>")
        return html("Play against the bots", body)

    async def new_game(request: Request):
        form = await request.form()
        game = str(form.get("game", ""))
        from simcore.games import REGISTRY
        if game not in REGISTRY:
            raise PageError(404, f"unknown game '{game[:40]}'; games: " + ", ".join(REGISTRY))
        s = await run_in_threadpool(           # bots may search: off the event loop
            PlaySession, game, preset=str(form.get("preset") or "") or None,
            players=_int(form.get("players"), "players", None, 1, 99),
            seat=_int(form.get("seat"), "seat", 0, 0, 99),
            policy=str(form.get("policy") or "") or None,
            seed=_int(form.get("seed"), "seed", None), index=_int(form.get("index"), "index", 0))
        sessions[s.id] = s
        while len(sessions) > MAX_SESSIONS:
            sessions.popitem(last=False)
        return RedirectResponse(f"/play/{s.id}", status_code=303)

    def game_page(s: PlaySession, error: str = "", hint: str = "", status: int = 200):
        legal = s.legal()
        seat_names = ", ".join(f"seat {p} {n}" for p, n in enumerate(s.names))
        parts = [error_box(error) if error else "",
                 f"<p class=note>{esc(s.game)}, seed {s.seed}, index {s.index}; "
                 f"rules {esc(s.rules.canonical())}; {esc(seat_names)} (you: seat {s.seat})"
                 "</p>"]
        felt = ["<div class=felt><div>on the table:</div><div class=row id=table>"]
        felt += [f"<div>{card(c)}<div class=seatlabel>{esc(s.narr.who(p))}</div></div>"
                 for p, c in s.table] or ["<span class=note style='color:#cfe'>(empty)</span>"]
        felt.append("</div>")
        if s.last_trick:
            felt.append("<div style='margin-top:.4em'>last trick:</div><div class=row "
                        "id=last-trick>")
            felt += [f"<div>{card(c, small=True)}<div class=seatlabel>{esc(s.narr.who(p))}"
                     "</div></div>" for p, c in s.last_trick]
            felt.append("</div>")
        felt.append("</div>")
        status_box = f"<div id=status>{pre(s.status())}</div>"
        keys = {a: (str(i + 1) if i < 9 else "0" if i == 9 else None)
                for i, a in enumerate(legal)}
        hand = [] if s.over else s.hand()
        card_acts = {s.label(a): a for a in legal if s.is_card(a)}
        buttons = "".join(card_button(c, c in card_acts, keys.get(card_acts.get(c)))
                          for c in hand)
        others = "".join(
            f"<button class=act name=action value={a} data-key='{keys[a]}' "
            f"title='key {keys[a]}'>{esc(s.label(a))}</button> " if keys[a] else
            f"<button class=act name=action value={a}>{esc(s.label(a))}</button> "
            for a in legal if not s.is_card(a))
        if s.over:
            saved = (f"<p>saved as <code>{esc(s.saved_as)}</code>: "
                     f"<a href='/study/view?path={esc(s.saved_as)}'>study it</a></p>"
                     if s.saved_as else
                     f"<form method=post action='/play/{s.id}/save'><button class=act "
                     f"data-key=s>Save the record in the served folder</button></form>")
            mine = f"<h2>Game over</h2>{pre(s.narr.result(s.st))}{saved}" \
                   f"<p><a href='/play/{s.id}/record.jsonl' download>Download the record " \
                   f"(JSON Lines)</a> &middot; <a href='/'>New game</a></p>"
        else:
            turn = ("your turn: click a highlighted card or an action (keys shown on hover)"
                    if legal else "waiting")
            mine = (f"<h2>Your hand</h2><form method=post action='/play/{s.id}' id=hand>"
                     f"<div class=row>{buttons}</div><p>{others}</p></form>"
                     f"<p class=note>{esc(turn)}</p>"
                     f"<p><a class=act href='/play/{s.id}/hint' data-key=h "
                     f"id=hint-link>Hint (h): every legal action's chances</a></p>")
        log = (f"<h2>History</h2><div class=log id=log>{esc(chr(10).join(s.log))}</div>"
               "<script>var l=document.getElementById('log');l.scrollTop=l.scrollHeight;"
               "</script>")
        left = "".join(felt) + mine + hint
        right = status_box + log
        parts.append(f"<div class=cols><div>{left}</div><div>{right}</div></div>")
        return html(f"{s.game}: you are seat {s.seat}", "".join(parts), status)

    def show_game(request: Request):
        s = session_of(request.path_params["sid"])
        with s.lock:                          # not while a move is being made
            return game_page(s)

    async def act(request: Request):
        s = session_of(request.path_params["sid"])
        form = await request.form()
        return await run_in_threadpool(act_now, s, form)

    def act_now(s: PlaySession, form):
        with s.lock:
            try:
                if form.get("card") is not None:
                    a = s.card_action(str(form.get("card")))
                elif form.get("action") is not None:
                    a = _int(form.get("action"), "action", None, 0, 10**6)
                else:
                    raise IllegalAction("give a card (card=NAME) or an action (action=CODE)")
                s.act(a)
            except IllegalAction as exc:
                return game_page(s, error=f"not allowed: {exc}", status=409)
        return RedirectResponse(f"/play/{s.id}", status_code=303)

    def hint(request: Request):
        s = session_of(request.path_params["sid"])
        with s.lock:
            if s.over or not s.legal():
                return game_page(s, error="no hint: it is not your turn", status=409)
            key = len(s.log)
            if key not in s.hints:
                rec, deal, at = s.position()
                s.hints[key] = (analyse_budget(rec, deal, at), deal, at, analysis_policy(rec))
            (pos, worlds, took), deal, at, policy = s.hints[key]
        cmd = (f"tricksim analyse SAVED.jsonl --deal {deal} --at {at} --worlds {worlds} "
               f"--seed 1 --policy {policy}")
        return game_page(s, hint=analysis_html(pos, worlds, took, cmd, mark_actual=False))

    def record_file(request: Request):
        s = session_of(request.path_params["sid"])
        if not s.over:
            raise PageError(409, "the game is not over: its record is written at the end")
        text = json.dumps(s.record, separators=(",", ":")) + "\n"
        name = f"{s.game}-{s.seed}-{s.index}.jsonl"
        return Response(text, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f"attachment; filename={name}"})

    def save(request: Request):
        from cli.play import save_record
        s = session_of(request.path_params["sid"])
        with s.lock:
            if not s.over:
                raise PageError(409, "the game is not over: its record is saved at the end")
            if s.saved_as is None:
                base = f"{SAVED}/{s.game}-{s.seed}-{s.index}"
                name, k = f"{base}.jsonl", 1
                while (root / name).exists() or (root / name).is_symlink():  # never replaced
                    k += 1
                    name = f"{base}-{k}.jsonl"
                save_record(s.record, root / name)
                s.saved_as = name
        return RedirectResponse(f"/play/{s.id}", status_code=303)

    # ----- study --------------------------------------------------------------------------
    async def study(request: Request):
        jsonl = []
        for dirpath in _walk(root, 3):
            for name, p, is_dir in entries(root, dirpath):
                if not is_dir and name.endswith(".jsonl"):
                    rel = relative(root, p)
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

    async def upload(request: Request):
        from simcore.records import parse_line, replay_one
        from simcore.errors import ReplayError
        form = await request.form(max_part_size=MAX_UPLOAD_BYTES)
        f = form.get("file")
        if f is None or isinstance(f, str):
            raise PageError(400, "no file uploaded: choose a JSON Lines record file")
        raw = await f.read(MAX_UPLOAD_BYTES + 1)
        if len(raw) > MAX_UPLOAD_BYTES:
            raise PageError(413, f"the file is larger than {MAX_UPLOAD_BYTES >> 20} MB")
        index = _int(form.get("index"), "record number", 0)
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
        uploads[uid] = (f"{f.filename} (uploaded), record {index}", rec)
        while len(uploads) > MAX_UPLOADS:
            uploads.popitem(last=False)
        return RedirectResponse(f"/study/view?upload={uid}", status_code=303)

    def load_record(q) -> tuple[str, dict, str]:
        """(title, record, query naming it) from ?upload= or ?path=&index=."""
        from simcore.analysis.positions import read_record
        if q.get("upload"):
            got = uploads.get(q["upload"])
            if got is None:
                raise PageError(404, "that upload is gone (uploads live while the server "
                                     "runs); upload the file again")
            return got[0], got[1], f"upload={esc(q['upload'])}"
        rel = q.get("path")
        if not rel:
            raise PageError(400, "give a record: ?path=FILE under the served folder, or "
                                 "upload one")
        index = _int(q.get("index"), "index", 0)
        p = inside(root, rel)
        if not p.is_file():
            raise PageError(400, f"'{rel}' is a folder; give a .jsonl file")
        return (f"{rel}, record {index}", read_record(p, index),
                f"path={esc(rel)}&index={index}")

    def study_view(request: Request):
        from simcore.analysis.show import engine_for, narrator_class, numbered
        q = request.query_params
        title, rec, src = load_record(q)
        deals = rec["deals"]
        deal = _int(q.get("deal"), "deal", 0)
        if deal >= len(deals):
            raise PageError(400, f"deal {deal}: the record has {len(deals)} deal(s) (0 to "
                                 f"{len(deals) - 1})")
        n_act = len(deals[deal]["actions"])
        at = _int(q.get("at"), "at", 0)
        if at > n_act:
            raise PageError(400, f"at {at}: deal {deal} has {n_act} actions; give 0 to "
                                 f"{n_act}")
        eng = engine_for(rec)
        narr = narrator_class(rec["game"])(eng)
        st = eng.from_record(rec, deal, 0)
        lines = [f"<div>{esc(x)}</div>" for x in narr.deal_start(st)]
        for k, item in enumerate(deals[deal]["actions"]):
            a = eng.action_from_record(st, item)
            before = st.copy()
            eng.apply(st, a)
            text = esc("\n".join(numbered(k, narr.action(before, a, st))))
            here = " id=here class=here" if k == at - 1 else ""
            lines.append(f"<a href='/study/view?{src}&deal={deal}&at={k + 1}'"
                         f" title='the position after this action'{here}>{text}</a>")
        cur = eng.from_record(rec, deal, at)
        seats = []
        for p in range(eng.seats):
            h = narr.sorted_cards(cur, eng.view(cur, p)["hand"])
            seats.append(f"<div class=box style='margin:.3em 0'><b>seat {p}</b> "
                         f"({esc(rec['policies'][p])})<div class=row>"
                         + "".join(card(c, small=True) for c in h) + "</div></div>")
        over = eng.deal_over(cur)
        mover = None if over else eng.to_move(cur)
        v = eng.view(cur, mover if mover is not None else 0)
        trick = v.get("trick") or ([[None, v["lead_card"]]] if v.get("lead_card") else [])
        felt = ("<div class=felt>on the table: <div class=row>" + "".join(
            f"<div>{card(c)}<div class=seatlabel>{'led' if p is None else f'seat {p}'}</div>"
            "</div>"
            for p, c in trick) + "</div></div>") if trick else ""
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
        where = (f"deal {deal} of {len(deals)}, after {at} of {n_act} actions: "
                 + ("the deal is over" if over else f"seat {mover} to move"))
        analysis = ""
        if q.get("analyse") and not over:
            worlds = _int(q.get("worlds"), "worlds", None, 1, 100_000)
            pos, used, took = analyse_budget(rec, deal, at, worlds=worlds)
            file_txt = q.get("path") or "RECORD.jsonl"
            index = _int(q.get("index"), "index", 0)
            cmd = (f"tricksim analyse {file_txt} --index {index} --deal {deal} --at {at} "
                   f"--worlds {used} --seed 1 --policy {analysis_policy(rec)}")
            analysis = analysis_html(pos, used, took, cmd, mark_actual=True)
        elif not over:
            analysis = (f"<p><a class=act data-key=a href='/study/view?{src}&deal={deal}"
                        f"&at={at}&analyse=1'>Analyse this position (a)</a></p>")
        status = (f"<h2>What seat {mover} sees</h2>"
                  + pre(narrator_class(rec["game"])(eng, viewer=mover).view(cur, mover))) \
            if not over else pre(narr.deal_end(cur))
        body = (f"<p class=note>{esc(title)}: {esc(rec['game'])}, seed {rec['seed']}, index "
                f"{rec['index']}; keys &larr; &rarr; step, a analyse</p>"
                f"<p><b id=where>{esc(where)}</b> {' '.join(nav)}</p>"
                f"<div class=cols><div>{felt}{''.join(seats)}{status}{analysis}</div>"
                f"<div><h2>Deal {deal}</h2><div class='log study' id=log>{''.join(lines)}"
                "</div></div></div><script>var h=document.getElementById('here'),"
                "g=document.getElementById('log');if(h)g.scrollTop=h.offsetTop-g.offsetTop-"
                "g.clientHeight/2;</script>")
        return html("Study a record", body)

    # ----- results ---------------------------------------------------------------------------
    def results(request: Request):
        from simcore.folders import kind_of
        rel = request.query_params.get("path", "")
        p = inside(root, rel)
        if p.is_file():
            return html(rel, file_html(root, p))
        kind = kind_of(p)
        parts = [f"<p class=note>{esc('/' + relative(root, p))} in the served folder"
                 + (f": a {esc(kind)} folder" if kind else "") + "</p>"]
        if p != root:
            up = relative(root, p.parent)
            parts.append(f"<p><a href='/results?path={esc(up)}'>&uarr; up</a></p>")
        listing = entries(root, p)
        for name in ("run.json", "sweep.json", "compare.json", "batch.json", "rotation.json"):
            if (p / name).is_file():
                parts.append(f"<h2>{name}</h2>{pretty_json(p / name)}")
        report = ""
        if (p / "report.md").is_file():
            report = markdown_html(root, p)
            parts.append(f"<h2>report.md</h2><div class=box>{report}</div>")
        for name, f, is_dir in listing:
            if not is_dir and name.endswith(".csv"):
                tab = csv_html(f)
                parts.append(f"<details><summary>{esc(name)}</summary>{tab}</details>"
                             if report else f"<h2>{esc(name)}</h2>{tab}")
        for name, f, is_dir in listing:
            shown = f"/file?path={esc(relative(root, f))}" in report     # in the report
            if not is_dir and name.endswith(".png") and not shown:
                src = esc(relative(root, f))
                parts.append(f"<h2>{esc(name)}</h2><img class=plot alt='{esc(name)}' "
                             f"src='/file?path={src}'>")
        items = []
        for name, f, is_dir in listing:
            r = esc(relative(root, f))
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

    def serve_file(request: Request):
        rel = request.query_params.get("path", "")
        p = inside(root, rel)
        if not p.is_file() or p.suffix not in SERVED:
            raise PageError(404, f"'{rel}' is not a file this page serves (allowed: "
                                 + ", ".join(SERVED) + ")")
        return FileResponse(p, media_type=SERVED[p.suffix],
                            headers={"X-Content-Type-Options": "nosniff"})

    # ----- errors ----------------------------------------------------------------------------
    async def page_error(request: Request, exc: Exception):
        if isinstance(exc, (PageError, PathRefused)):
            status, msg = exc.status, str(exc)
        elif isinstance(exc, HTTPException):
            status = exc.status_code
            msg = {404: f"no page at {request.url.path}",
                   405: f"{request.method} is not allowed at {request.url.path}"}.get(
                       status, str(exc.detail))
        elif isinstance(exc, TricksimError):
            status, msg = 400, str(exc)
        else:
            status, msg = 500, (f"internal error ({type(exc).__name__}: {exc}); the request "
                                "was not completed")
        body = error_box(f"{status}: {msg}") + "<p><a href='/'>Back to the start</a></p>"
        return html("Error", body, status)

    routes = [Route("/", home), Route("/play/new", new_game, methods=["POST"]),
              Route("/play/{sid}", show_game), Route("/play/{sid}", act, methods=["POST"]),
              Route("/play/{sid}/hint", hint),
              Route("/play/{sid}/record.jsonl", record_file),
              Route("/play/{sid}/save", save, methods=["POST"]),
              Route("/study", study), Route("/study/upload", upload, methods=["POST"]),
              Route("/study/view", study_view), Route("/results", results),
              Route("/file", serve_file)]
    handlers = {PageError: page_error, PathRefused: page_error, TricksimError: page_error,
                HTTPException: page_error, Exception: page_error}
    app = Starlette(routes=routes, exception_handlers=handlers)
    if token:
        app.add_middleware(TokenCheck, token=token)
    return app


def serve_in_thread(folder, token: str | None = None):
    """The app of ``folder`` served by uvicorn on a free loopback port in a daemon thread
    (for the browser tests and benchmarks/bench_web.py); returns (base URL, stop)."""
    import socket
    import threading
    import time

    import uvicorn
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(make_app(folder, token), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.05)

    def stop():
        server.should_exit = True
        thread.join(10)
        sock.close()
    return f"http://127.0.0.1:{sock.getsockname()[1]}", stop


class TokenCheck:
    """Refuse (403) every request without the server's token: ``?token=`` in the URL
    (then remembered in a cookie) or the cookie."""

    def __init__(self, app, token: str):
        self.app = app
        self.token = token

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        req = Request(scope)
        given = req.query_params.get("token")
        ok_query = given is not None and hmac.compare_digest(given, self.token)
        ok = ok_query or hmac.compare_digest(req.cookies.get(COOKIE, ""), self.token)
        if not ok:
            resp = html("Token needed", error_box(
                "403: this server needs its token: open the address `tricksim serve` "
                "printed (it ends in ?token=...)"), 403)
            return await resp(scope, receive, send)
        if not ok_query:
            return await self.app(scope, receive, send)

        async def send_cookie(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"set-cookie", f"{COOKIE}={self.token}; HttpOnly; "
                                "SameSite=Strict; Path=/".encode()))
                message = dict(message, headers=headers)
            await send(message)
        return await self.app(scope, receive, send_cookie)


# ----- rendering helpers --------------------------------------------------------------------
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


def _walk(root: Path, depth: int):
    """``root`` and its folders down to ``depth`` levels (inside the served folder only)."""
    todo = [(root, 0)]
    while todo:
        d, k = todo.pop(0)
        yield d
        if k < depth:
            todo.extend((p, k + 1) for _, p, is_dir in entries(root, d) if is_dir)
