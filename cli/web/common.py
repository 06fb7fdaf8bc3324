"""What the web app's pages share: a refused request (``PageError``), a whole page as
a response, and a whole number read from a form or a query."""
from __future__ import annotations

import re

from starlette.responses import HTMLResponse

from .html import page


class PageError(Exception):
    """A request the page refuses: its HTTP status and one line saying why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def html(title: str, body: str, status: int = 200) -> HTMLResponse:
    """A whole page as a response."""
    return HTMLResponse(page(title, body), status_code=status,
                        headers={"X-Content-Type-Options": "nosniff"})


def form_int(value, name: str, default: int | None = None, lo: int = 0,
             hi: int = 2**63 - 1) -> int | None:
    """``value`` (a form field or query parameter) as a whole number from ``lo`` to
    ``hi``; ``default`` when it is missing or blank; a 400 PageError otherwise."""
    if value is None or str(value).strip() == "":
        return default
    text = str(value).strip()
    if not re.fullmatch(r"-?\d{1,19}", text) or not lo <= int(text) <= hi:
        raise PageError(400, f"{name} must be a whole number from {lo} to {hi}, not "
                             f"'{text[:40]}'")
    return int(text)
