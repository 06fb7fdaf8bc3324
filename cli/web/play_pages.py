"""The play pages of ``tricksim serve``: the start page, a game against the bots, its
moves, hints (the analysis of the position), its record and saving it."""
from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from .common import PageError, form_int, html
from .html import card, card_button, error_box, esc, pre
from .session import IllegalAction, PlaySession, analyse_budget, analysis_policy
from .study_pages import analysis_html

#: games kept in memory (the oldest is dropped beyond this)
MAX_SESSIONS = 200
#: the folder, under the served one, where finished games are saved
SAVED = "saved-games"


class PlayPages:
    """The games being played (kept while the server runs) and their pages; finished
    games are saved under ``root``."""

    def __init__(self, root: Path):
        self.root = root
        self.sessions: OrderedDict[str, PlaySession] = OrderedDict()

    def routes(self) -> list[Route]:
        """The play pages' routes."""
        return [Route("/", self.home), Route("/play/new", self.new_game, methods=["POST"]),
                Route("/play/{sid}", self.show_game),
                Route("/play/{sid}", self.act, methods=["POST"]),
                Route("/play/{sid}/hint", self.hint),
                Route("/play/{sid}/record.jsonl", self.record_file),
                Route("/play/{sid}/save", self.save, methods=["POST"])]

    def session_of(self, sid: str) -> PlaySession:
        """The game ``sid`` being played (a 404 PageError if there is none)."""
        s = self.sessions.get(sid)
        if s is None:
            raise PageError(404, f"no game '{sid}' here: games live while the server runs; "
                                 "start a new one")
        return s

    async def home(self, request: Request):
        """The start page: one form per game to start a game against the bots."""
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
                f"(<code>{esc(self.root)}</code>).</p>"
                f"<div class=games>{''.join(boxes)}</div>"
                "<p class=note>The strongest bots search (pimc): a move takes up to about a "
                "second; the first game of a kind compiles its kernels once (a minute or "
                "more on a cold cache). Keys in a game: <kbd>1</kbd>-<kbd>9</kbd> choose, "
                "<kbd>h</kbd> hint.</p>")
        return html("Play against the bots", body)

    async def new_game(self, request: Request):
        """Start a game from the start page's form; on to its page."""
        form = await request.form()
        game = str(form.get("game", ""))
        from simcore.games import REGISTRY
        if game not in REGISTRY:
            raise PageError(404, f"unknown game '{game[:40]}'; games: " + ", ".join(REGISTRY))
        s = await run_in_threadpool(           # bots may search: off the event loop
            PlaySession, game, preset=str(form.get("preset") or "") or None,
            players=form_int(form.get("players"), "players", None, 1, 99),
            seat=form_int(form.get("seat"), "seat", 0, 0, 99),
            policy=str(form.get("policy") or "") or None,
            seed=form_int(form.get("seed"), "seed", None), index=form_int(form.get("index"), "index", 0))
        self.sessions[s.id] = s
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.popitem(last=False)
        return RedirectResponse(f"/play/{s.id}", status_code=303)

    def game_page(self, s: PlaySession, error: str = "", hint: str = "", status: int = 200):
        """A game's page: the table, the owner's hand and actions, the status and
        history; ``error`` and ``hint`` boxes when given."""
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

    def show_game(self, request: Request):
        """The page of game ``sid``."""
        s = self.session_of(request.path_params["sid"])
        with s.lock:                          # not while a move is being made
            return self.game_page(s)

    async def act(self, request: Request):
        """Play the owner's card or action (off the event loop: the bots answer)."""
        s = self.session_of(request.path_params["sid"])
        form = await request.form()
        return await run_in_threadpool(self.act_now, s, form)

    def act_now(self, s: PlaySession, form):
        """Play the action of ``form`` in ``s`` (a 409 page if it is not allowed)."""
        with s.lock:
            try:
                if form.get("card") is not None:
                    a = s.card_action(str(form.get("card")))
                elif form.get("action") is not None:
                    a = form_int(form.get("action"), "action", None, 0, 10**6)
                else:
                    raise IllegalAction("give a card (card=NAME) or an action (action=CODE)")
                s.act(a)
            except IllegalAction as exc:
                return self.game_page(s, error=f"not allowed: {exc}", status=409)
        return RedirectResponse(f"/play/{s.id}", status_code=303)

    def hint(self, request: Request):
        """The game's page with the analysis of the owner's position (kept per position)."""
        s = self.session_of(request.path_params["sid"])
        with s.lock:
            if s.over or not s.legal():
                return self.game_page(s, error="no hint: it is not your turn", status=409)
            key = len(s.log)
            if key not in s.hints:
                rec, deal, at = s.position()
                s.hints[key] = (analyse_budget(rec, deal, at), deal, at, analysis_policy(rec))
            (pos, worlds, took), deal, at, policy = s.hints[key]
        cmd = (f"tricksim analyse SAVED.jsonl --deal {deal} --at {at} --worlds {worlds} "
               f"--seed 1 --policy {policy}")
        return self.game_page(s, hint=analysis_html(pos, worlds, took, cmd, mark_actual=False))

    def record_file(self, request: Request):
        """A finished game's record as a JSON Lines download."""
        s = self.session_of(request.path_params["sid"])
        if not s.over:
            raise PageError(409, "the game is not over: its record is written at the end")
        text = json.dumps(s.record, separators=(",", ":")) + "\n"
        name = f"{s.game}-{s.seed}-{s.index}.jsonl"
        return Response(text, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f"attachment; filename={name}"})

    def save(self, request: Request):
        """Save a finished game's record under the served folder (never over a file)."""
        from cli.play import save_record
        s = self.session_of(request.path_params["sid"])
        with s.lock:
            if not s.over:
                raise PageError(409, "the game is not over: its record is saved at the end")
            if s.saved_as is None:
                base = f"{SAVED}/{s.game}-{s.seed}-{s.index}"
                name, k = f"{base}.jsonl", 1
                while (self.root / name).exists() or (self.root / name).is_symlink():  # never replaced
                    k += 1
                    name = f"{base}-{k}.jsonl"
                save_record(s.record, self.root / name)
                s.saved_as = name
        return RedirectResponse(f"/play/{s.id}", status_code=303)
