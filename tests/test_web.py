"""``tricksim serve``'s pages through Starlette's TestClient (in-process, fast): a whole
game against the bots, a hint, illegal clicks, a record studied, result folders
browsed, paths outside the served folder refused, errors as pages with their codes."""
from __future__ import annotations

import json
import re
import warnings

import pytest

pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cli.web.app import make_app

LEGAL = re.compile(r"class='card(?: red)? legal' name=card value='([^']+)'")
ILLEGAL = re.compile(r"class='card(?: red)? illegal' name=card value='([^']+)'")
ACTION = re.compile(r"name=action value=(\d+)")


@pytest.fixture
def client(tmp_path):
    return TestClient(make_app(tmp_path), raise_server_exceptions=False)


def new_game(client, game="schnapsen", **form):
    data = {"game": game, "seat": "0", "policy": "heuristic", "seed": "3"} | form
    r = client.post("/play/new", data=data)
    assert r.status_code == 200, r.text
    return r


def play_out(client, r, limit=400):
    """Click the first highlighted card (or the first action button) until the game ends."""
    for _ in range(limit):
        if "Game over" in r.text:
            return r
        legal, acts = LEGAL.findall(r.text), ACTION.findall(r.text)
        data = {"card": legal[0]} if legal else {"action": acts[0]}
        r = client.post(str(r.url), data=data)
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_home_lists_every_game_and_variant(client):
    from simcore.games import game_names, get_rulebook
    r = client.get("/")
    assert r.status_code == 200
    for g in game_names():
        assert f"Play {g}" in r.text
        for preset in get_rulebook(g).presets:
            assert f"<option>{preset}</option>" in r.text
    assert "http" not in re.sub(r"(href|action)='/[^']*'", "", r.text).split("<main>")[1] \
        or "https://" not in r.text                                  # nothing fetched


def test_a_whole_schnapsen_game_saved_as_a_record_that_replays(client, tmp_path):
    from simcore.records import replay_one
    r = play_out(client, new_game(client))
    sid = str(r.url).rsplit("/", 1)[1]
    assert "match over" in r.text
    rec = json.loads(client.get(f"/play/{sid}/record.jsonl").text)
    replay_one(rec)
    assert rec["game"] == "schnapsen" and rec["policies"][0] == "human"
    r = client.post(f"/play/{sid}/save")
    assert r.status_code == 200 and "saved as" in r.text
    saved = list((tmp_path / "saved-games").glob("*.jsonl"))
    assert len(saved) == 1 and json.loads(saved[0].read_text()) == rec
    # a second save keeps the first file and names no new one
    client.post(f"/play/{sid}/save")
    assert len(list((tmp_path / "saved-games").glob("*.jsonl"))) == 1


@pytest.mark.parametrize("game,form", [("schadenfreude", {"players": "3"}),
                                       ("schadenfreude", {"players": "5", "seat": "4"}),
                                       ("schnapsen", {"preset": "tournament"}),
                                       ("wendish", {"preset": "standard"}),
                                       ("wendish", {"preset": "dreiwendsch", "seat": "1"}),
                                       ("wendish", {"preset": "sharp"}),
                                       ("wendish", {"preset": "officers", "seat": "1"})])
def test_every_game_and_variant_plays_to_the_end_and_studies(client, tmp_path, game, form):
    """A whole game, its record replays, and its study page steps and analyses."""
    from simcore.records import replay_one
    r = play_out(client, new_game(client, game, **form))
    assert "Game over" in r.text
    sid = str(r.url).rsplit("/", 1)[1]
    text = client.get(f"/play/{sid}/record.jsonl").text
    rec = json.loads(text)
    replay_one(rec)
    (tmp_path / "g.jsonl").write_text(text)
    n = len(rec["deals"][0]["actions"])
    for at in (0, n // 2, n):
        v = client.get("/study/view", params={"path": "g.jsonl", "at": at})
        assert v.status_code == 200 and f"after {at} of {n}" in v.text
    a = client.get("/study/view", params={"path": "g.jsonl", "at": n // 2, "analyse": 1,
                                          "worlds": 5})
    assert a.status_code == 200 and "id=analysis" in a.text, a.text[-2000:]


def test_an_illegal_card_is_refused_with_the_rules_reason(client):
    r = new_game(client, seed="5")
    for _ in range(30):                      # until a lead is to be followed
        if ILLEGAL.findall(r.text) and "led" in r.text:
            break
        legal = LEGAL.findall(r.text)
        r = client.post(str(r.url), data={"card": legal[0]} if legal else
                        {"action": ACTION.findall(r.text)[0]})
    bad = ILLEGAL.findall(r.text)
    if not bad:
        pytest.skip("this deal gave no illegal card to click")
    refused = client.post(str(r.url), data={"card": bad[0]})
    assert refused.status_code == 409
    assert "not allowed:" in refused.text and "is not legal" in refused.text
    assert "Traceback" not in refused.text


def test_hint_gives_every_legal_action_with_intervals(client):
    r = new_game(client)
    sid = str(r.url).rsplit("/", 1)[1]
    legal = LEGAL.findall(r.text)
    h = client.get(f"/play/{sid}/hint")
    assert h.status_code == 200
    box = h.text.split("id=analysis>")[1]
    for c in legal:
        assert f"<td>{c}</td>" in box or f"<td>play {c}</td>" in box
    assert "95% CI" in box and "tricksim analyse SAVED.jsonl --deal 0 --at" in box


def test_hint_numbers_equal_tricksim_analyse(client, tmp_path, invoke):
    """The hint's numbers are analyse's on the saved record at that position."""
    r = new_game(client)
    sid = str(r.url).rsplit("/", 1)[1]
    h = client.get(f"/play/{sid}/hint").text
    m = re.search(r"--deal (\d+) --at (\d+) --worlds (\d+) --seed 1 --policy ([^<\s]+)", h)
    first = re.search(r"<tr><td>([^<]+)</td><td>([^<]+)</td>", h.split("id=analysis>")[1])
    r = play_out(client, client.get(f"/play/{sid}"))
    (tmp_path / "g.jsonl").write_text(client.get(f"/play/{sid}/record.jsonl").text)
    res = invoke("analyse", "g.jsonl", "--deal", m[1], "--at", m[2], "--worlds", m[3],
                 "--policy", m[4])
    assert res.exit_code == 0, res.output
    row = next(line for line in res.stdout.splitlines() if f" {first[1]} " in line)
    assert first[2] in row


def test_study_a_record_by_path_and_upload(client, tmp_path):
    r = play_out(client, new_game(client))
    sid = str(r.url).rsplit("/", 1)[1]
    text = client.get(f"/play/{sid}/record.jsonl").text
    (tmp_path / "g.jsonl").write_text(text)
    v = client.get("/study/view", params={"path": "g.jsonl", "deal": 0, "at": 3})
    assert v.status_code == 200
    assert "after 3 of" in v.text and v.text.count("<b>seat ") == 2
    assert "data-key=left" in v.text and "data-key=right" in v.text
    a = client.get("/study/view", params={"path": "g.jsonl", "at": 1, "analyse": 1,
                                          "worlds": 20})
    assert a.status_code == 200 and "20 worlds" in a.text and "id=analysis" in a.text
    u = client.post("/study/upload", files={"file": ("g.jsonl", text.encode())},
                    data={"index": "0"})
    assert u.status_code == 200 and "(uploaded)" in u.text
    assert "/study" in client.get("/study").text and "g.jsonl" in client.get("/study").text


def test_a_malformed_record_is_a_400_page(client, tmp_path):
    u = client.post("/study/upload", files={"file": ("bad.jsonl", b'{"game": "schnapsen"}\n')})
    assert u.status_code == 400 and "does not replay" in u.text and "Traceback" not in u.text
    (tmp_path / "bad.jsonl").write_text("not json\n")
    v = client.get("/study/view", params={"path": "bad.jsonl"})
    assert v.status_code == 400 and "class=error" in v.text


def test_errors_are_pages_with_their_codes(client):
    from html import unescape
    r = client.post("/play/new", data={"game": "bridge"})
    assert r.status_code == 404 and "unknown game 'bridge'" in unescape(r.text)
    r = client.post("/play/new", data={"game": "schnapsen", "preset": "nope"})
    assert r.status_code == 400 and "unknown preset" in r.text
    r = client.post("/play/new", data={"game": "schnapsen", "seat": "7"})
    assert r.status_code == 400 and "seat 7" in r.text
    assert client.get("/play/nosuchgame").status_code == 404
    assert client.get("/nowhere").status_code == 404
    for r in (client.get("/nowhere"), client.get("/play/x")):
        assert "class=error" in r.text and "Traceback" not in r.text
    r = new_game(client)
    bad = client.post(str(r.url), data={"action": "99999"})
    assert bad.status_code == 409 and "not an action" in bad.text
    bad = client.post(str(r.url), data={"card": "ZZ"})
    assert bad.status_code == 409 and "not a card" in bad.text


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A served folder with a sweep (report.md, plots, tables) and a run folder."""
    from click.testing import CliRunner
    from cli.main import cli
    from web_folder import make_sweep
    root = tmp_path_factory.mktemp("served")
    make_sweep(root)
    run = CliRunner().invoke(cli, ["simulate", "schnapsen", "--games", "40", "--policy",
                                   "random", "--threads", "1", "--out", str(root / "run1")])
    assert run.exit_code == 0, run.output
    run = CliRunner().invoke(cli, ["compare", "schnapsen", "--a", "austrian", "--b",
                                   "tournament", "--policy", "random", "--games", "40",
                                   "--threads", "1", "--out", str(root / "cmp")])
    assert run.exit_code == 0, run.output
    return root


def test_results_pages_show_tables_plots_report_and_marks(folder):
    c = TestClient(make_app(folder), raise_server_exceptions=False)
    top = c.get("/results")
    assert top.status_code == 200 and "sw/" in top.text and "run1/" in top.text
    sw = c.get("/results", params={"path": "sw"})
    assert sw.status_code == 200
    assert "<h2>report.md</h2>" in sw.text and "<h2>sweep.json</h2>" in sw.text
    assert "<table>" in sw.text and "<img" in sw.text
    png = re.search(r"src=['\"](/file\?path=[^'\"]+\.png)['\"]", sw.text)[1]
    img = c.get(png)
    assert img.status_code == 200 and img.content[:8] == b"\x89PNG\r\n\x1a\n"
    run = c.get("/results", params={"path": "run1"})
    assert "<h2>run.json</h2>" in run.text and "<table>" in run.text
    cmp = c.get("/results", params={"path": "cmp"})
    assert "<h2>compare.json</h2>" in cmp.text and "<h2>report.md</h2>" in cmp.text
    assert "<img" in cmp.text


def test_nothing_outside_the_folder_is_readable(tmp_path):
    root = tmp_path / "served"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("secret")
    (tmp_path / "secret.png").write_bytes(b"\x89PNG secret")
    (root / "out.png").symlink_to(tmp_path / "secret.png")
    (root / "outdir").symlink_to(tmp_path)
    c = TestClient(make_app(root), raise_server_exceptions=False)
    for path in ("../secret.txt", "/etc/passwd", "out.png", "outdir", "outdir/secret.txt",
                 "a/../../secret.txt", "..", str(tmp_path / "secret.png")):
        for url in ("/file", "/results", "/study/view"):
            r = c.get(url, params={"path": path})
            assert r.status_code in (403, 404), (url, path, r.status_code)
            assert "secret" not in r.text.replace(path, "")
    listing = c.get("/results").text
    assert "outdir" not in listing and "out.png" not in listing
    assert c.get("/file", params={"path": "nothing.png"}).status_code == 404


def test_token_required_when_set(tmp_path):
    c = TestClient(make_app(tmp_path, token="sesame"), raise_server_exceptions=False)
    assert c.get("/").status_code == 403
    assert c.get("/?token=wrong").status_code == 403
    ok = c.get("/?token=sesame")
    assert ok.status_code == 200
    assert c.get("/results").status_code == 200          # the cookie carries it on


def test_serve_refuses_other_hosts_without_the_flag_and_bad_folders(invoke):
    r = invoke("serve", "--host", "0.0.0.0")
    assert r.exit_code == 1 and "--allow-remote" in r.output and "Traceback" not in r.output
    r = invoke("serve", "--folder", "no-such-folder")
    assert r.exit_code == 1 and "not a folder" in r.output


def test_serve_without_the_extra_says_how_to_install(invoke, monkeypatch):
    import cli.web
    monkeypatch.setattr(cli.web, "web_available", lambda: False)
    r = invoke("serve")
    assert r.exit_code == 1
    assert r.output.strip().splitlines()[-1] == 'Error: the web page needs the web extra: ' \
        'pip install -e ".[web]"'


def test_the_core_imports_without_the_web_extra():
    """cli.main (every command) imports no web package."""
    import subprocess
    import sys
    code = ("import sys; import cli.main; bad = [m for m in ('starlette', 'uvicorn', "
            "'multipart', 'markdown', 'httpx') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
