"""The pages' frame, style and small pieces (cards, tables), as HTML text.

Server-rendered: every page is whole HTML; the only script is ``KEYS`` (keyboard
shortcuts), written here, nothing fetched from anywhere.  Every text that comes
from a user, a file or a record goes through ``esc``.
"""
from __future__ import annotations

import html

#: suit letters as the games write them -> (symbol, red)
SUITS = {"C": ("\u2663", False), "S": ("\u2660", False), "H": ("\u2665", True),
         "D": ("\u2666", True), "W": ("\u2605", False)}

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}
header{background:#1f4d2e;color:#fff;padding:.5em 1em;display:flex;gap:1.2em;flex-wrap:wrap;
 align-items:center}
header a{color:#fff;text-decoration:none;font-weight:600}
main{padding:1em;max-width:1100px;margin:auto}
h1{font-size:1.4em;margin:.3em 0} h2{font-size:1.1em;margin:.8em 0 .3em}
.error{background:#fde2e1;border:2px solid #b3261e;color:#7a1712;padding:.6em;margin:.5em 0;
 border-radius:6px;overflow-wrap:anywhere}
.note{color:#555;font-size:.9em;overflow-wrap:anywhere}
main img{max-width:100%;height:auto}
.scroll{overflow-x:auto;max-width:100%}
.felt{background:#2e6b41;border-radius:10px;padding:.7em;color:#fff;margin:.5em 0}
.row{display:flex;flex-wrap:wrap;gap:.35em;align-items:flex-end}
.card{display:inline-flex;flex-direction:column;justify-content:space-between;width:3.2em;
 height:4.6em;border-radius:.4em;background:#fff;border:1px solid #888;color:#111;
 padding:.2em;box-sizing:border-box;font-weight:700;font-size:1em;line-height:1;
 box-shadow:0 1px 2px #0004;font-family:system-ui,sans-serif}
.card .s{font-size:1.6em;align-self:center}
.card .r2{align-self:flex-end;transform:rotate(180deg)}
.card.red{color:#c0161b}
button.card{cursor:pointer}
button.card.legal{border:3px solid #f4c430;transform:translateY(-.3em)}
button.card.illegal{opacity:.55}
.card.small{width:2.4em;height:3.4em;font-size:.8em}
.card.small .r2{visibility:hidden}
.seatlabel{font-size:.8em;text-align:center;color:#dfe}
button,input,select{font-size:1em;padding:.3em .6em}
button.act{background:#f4c430;border:1px solid #a07d00;border-radius:5px;cursor:pointer}
table{border-collapse:collapse;margin:.4em 0;background:#fff;font-size:.9em}
td,th{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}
pre{background:#fff;border:1px solid #ccc;padding:.5em;overflow-x:auto;font-size:.85em;
 white-space:pre-wrap;overflow-wrap:anywhere}
.log{background:#fff;border:1px solid #ccc;padding:.5em;max-height:22em;overflow-y:auto;
 font-family:ui-monospace,monospace;font-size:.82em;white-space:pre-wrap}
.log.study a{color:inherit;text-decoration:none;display:block}
.log.study a.here{background:#fff3b0;font-weight:700}
.cols{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1em}
.games{display:grid;grid-template-columns:repeat(auto-fit,minmax(16em,1fr));gap:1em}
.box{background:#fff;border:1px solid #ccc;border-radius:8px;padding:.7em}
.box label{display:block;margin:.3em 0}
img.plot{max-width:100%;border:1px solid #ccc;background:#fff}
kbd{border:1px solid #999;border-radius:3px;padding:0 .25em;background:#fff;color:#222}
@media (max-width:700px){.cols{grid-template-columns:minmax(0,1fr)}.card{width:2.7em;height:3.9em}
 main{padding:.5em}}
"""

#: keyboard play: digits press the n-th element marked data-key, letters the element
#: with that data-key (h: hint, arrows: step a record)
KEYS = """
document.addEventListener('keydown', function (e) {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.ctrlKey || e.metaKey
      || e.altKey) return;
  var k = e.key === 'ArrowLeft' ? 'left' : e.key === 'ArrowRight' ? 'right' : e.key;
  var el = document.querySelector('[data-key="' + k + '"]');
  if (el) { e.preventDefault(); el.click(); }
});
"""


def esc(text) -> str:
    """``text`` safe inside HTML."""
    return html.escape(str(text), quote=True)


def page(title: str, body: str, token_query: str = "") -> str:
    """A whole page: header with the three sections, the title, ``body``."""
    q = token_query
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{esc(title)} - tricksim</title><style>{STYLE}</style></head><body>"
            f"<header><a href='/{q}'>tricksim</a><a href='/{q}'>Play</a>"
            f"<a href='/study{q}'>Study a record</a><a href='/results{q}'>Results</a></header>"
            f"<main><h1>{esc(title)}</h1>{body}</main><script>{KEYS}</script></body></html>")


def error_box(message: str) -> str:
    """A message the page shows in red (an illegal action, a bad request)."""
    return f"<div class=error role=alert>{esc(message)}</div>"


def split_card(name: str) -> tuple[str, str, bool]:
    """(rank shown, suit symbol, red) of a card name such as ``TH``, ``-3C`` or ``10W``."""
    rank, suit = name[:-1], name[-1:]
    sym, red = SUITS.get(suit, (suit, False))
    return ("10" if rank == "T" else rank), sym, red


def card(name: str, small: bool = False) -> str:
    """A card drawn with CSS (rank in two corners, the suit in the middle)."""
    rank, sym, red = split_card(name)
    cls = "card" + (" red" if red else "") + (" small" if small else "")
    return (f"<span class='{cls}' title='{esc(name)}' data-card='{esc(name)}'>"
            f"<span>{esc(rank)}</span><span class=s>{sym}</span>"
            f"<span class=r2>{esc(rank)}</span></span>")


def card_button(name: str, legal: bool, key: str | None) -> str:
    """A card of the hand as a button of a form posting ``card=NAME``: highlighted if
    legal; an illegal one can be clicked and is refused with the rule's reason."""
    rank, sym, red = split_card(name)
    cls = "card" + (" red" if red else "") + (" legal" if legal else " illegal")
    dk = f" data-key='{key}'" if key else ""
    tip = f"{name}: legal" + (f" (key {key})" if key else "") if legal else f"{name}: not legal now"
    return (f"<button class='{cls}' name=card value='{esc(name)}' title='{esc(tip)}'"
            f" aria-label='{esc(name)}'{dk}><span>{esc(rank)}</span><span class=s>{sym}</span>"
            f"<span class=r2>{esc(rank)}</span></button>")


def table(head: list[str], rows: list[list], raw: bool = False) -> str:
    """An HTML table; cells escaped unless ``raw``."""
    f = (lambda x: str(x)) if raw else esc
    h = "".join(f"<th>{esc(x)}</th>" for x in head)
    b = "".join("<tr>" + "".join(f"<td>{f(x)}</td>" for x in r) + "</tr>" for r in rows)
    return f"<div class=scroll><table><tr>{h}</tr>{b}</table></div>"


def pre(lines) -> str:
    """Lines of text as a preformatted block."""
    return f"<pre>{esc(chr(10).join(lines))}</pre>"
