"""``tricksim serve`` driven in a real browser: Debian's Chromium through Playwright.

A whole Schnapsen game played with the keyboard and saved, a hint, the saved record
studied step by step, a sweep's results page.  Skipped, with the reason, when the web
extra, Playwright or /usr/bin/chromium is missing (``.ci/run`` installs them).
"""
from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs playwright (the test extra)")

CHROMIUM = os.environ.get("TRICKSIM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip("needs Chromium: apt-get install -y chromium (or TRICKSIM_CHROMIUM=PATH)",
                allow_module_level=True)

#: flags for a quiet headless Chromium that fetches nothing by itself
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The served folder (with a small sweep in it) and the server's address."""
    from web_folder import make_sweep
    root = tmp_path_factory.mktemp("served")
    make_sweep(root)
    from cli.web.app import serve_in_thread
    base, stop = serve_in_thread(root)
    yield root, base
    stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def pg(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    yield page
    ctx.close()


def start_schnapsen(pg, base):
    pg.goto(base + "/")
    form = pg.locator("form", has_text="Play schnapsen")
    form.locator("select[name=policy]").select_option("heuristic")
    form.locator("input[name=seed]").fill("11")
    form.locator("button", has_text="Play schnapsen").click()
    pg.wait_for_url("**/play/*")


def test_a_whole_schnapsen_game_with_the_keyboard_then_saved_and_studied(pg, served):
    root, base = served
    start_schnapsen(pg, base)
    assert pg.locator("#hand button.card").count() == 5            # five cards drawn
    assert pg.locator("#hand button.card.legal").count() >= 1       # highlighted
    for _ in range(300):
        if pg.get_by_text("Game over").count():
            break
        with pg.expect_navigation():
            pg.keyboard.press("1")                                   # the first legal choice
    assert pg.get_by_text("match over").first.is_visible()
    assert "trick" in pg.locator("#log").inner_text()               # the history is shown
    with pg.expect_navigation():
        pg.get_by_text("Save the record in the served folder").click()
    assert list((root / "saved-games").glob("schnapsen-11-0*.jsonl"))
    with pg.expect_navigation():
        pg.get_by_text("study it").click()
    where = pg.locator("#where").inner_text()
    assert "after 0 of" in where
    for _ in range(3):
        with pg.expect_navigation():
            pg.keyboard.press("ArrowRight")
    assert "after 3 of" in pg.locator("#where").inner_text()
    assert pg.locator("text=seat 0").count() and pg.locator("text=seat 1").count()
    with pg.expect_navigation():
        pg.keyboard.press("ArrowLeft")
    assert "after 2 of" in pg.locator("#where").inner_text()


def test_an_illegal_click_is_refused_and_a_hint_is_shown(pg, served):
    _, base = served
    start_schnapsen(pg, base)
    legal = pg.locator("#hand button.card.legal").count()
    others = pg.locator("#hand button.act").count()
    with pg.expect_navigation():
        pg.keyboard.press("h")
    rows = pg.locator("#analysis table tr")
    assert rows.count() - 1 == legal + others - (1 if pg.locator(
        "#hand button.act", has_text="resign").count() else 0)
    assert "95% CI" in pg.locator("#analysis").inner_text()
    illegal = pg.locator("#hand button.card.illegal")
    if illegal.count():
        with pg.expect_navigation():
            illegal.first.click()
        assert "is not legal" in pg.locator(".error").inner_text()


def test_a_results_page_shows_the_report_table_and_plots(pg, served):
    _, base = served
    pg.goto(base + "/results")
    with pg.expect_navigation():
        pg.get_by_role("link", name="sw/").click()
    assert pg.get_by_text("report.md").first.is_visible()
    assert pg.locator("table").count() >= 1
    img = pg.locator("main img").first
    img.wait_for()
    assert pg.evaluate("i => i.naturalWidth", img.element_handle()) > 100   # it loaded
