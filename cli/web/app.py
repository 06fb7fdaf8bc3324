"""The Starlette application of ``tricksim serve``: play, study a record, browse results.

The pages come in three groups, each a class holding what its pages keep and
listing its routes: play (``play_pages``, games from ``session.py``), study
(``study_pages``, records through the narrators of ``simcore.analysis.show`` and
``simcore.analysis.positions``) and results (``results_pages``, the folders under the
served folder, ``files.py``).  Every failure a user can cause is a page with one
clear line and its HTTP status; an unexpected one is a 500 page naming the error,
never a traceback.
"""
from __future__ import annotations

import hmac
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request

from simcore.errors import TricksimError

from .common import PageError, html
from .files import PathRefused
from .html import error_box
from .play_pages import PlayPages
from .results_pages import ResultsPages
from .study_pages import StudyPages

COOKIE = "tricksim_token"


def make_app(folder, token: str | None = None) -> Starlette:
    """The web app serving ``folder`` (results, records, saved games); with ``token``
    every request must carry it (``?token=`` once, then a cookie)."""
    root = Path(folder).resolve()
    groups = (PlayPages(root), StudyPages(root), ResultsPages(root))
    routes = [route for group in groups for route in group.routes()]
    handlers = {PageError: page_error, PathRefused: page_error, TricksimError: page_error,
                HTTPException: page_error, Exception: page_error}
    app = Starlette(routes=routes, exception_handlers=handlers)
    if token:
        app.add_middleware(TokenCheck, token=token)
    return app


async def page_error(request: Request, exc: Exception):
    """Every failure as a page with one line and its HTTP status (500 for one the user
    did not cause), never a traceback."""
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
