"""The web page (``tricksim serve``) measured and photographed in Debian's Chromium.

    python benchmarks/bench_web.py [--loads 7] [--moves 100] [--games schnapsen,wendish,schadenfreude]

* screenshots of every page at desktop (1280x900) and phone (390x844) width under
  results/screenshots/ (start page, a game, its hint, an illegal click refused, the
  game over, the study list, a studied record with its analysis, the results folder, a
  sweep's page, an error page), for a person to look at;
* page load time: each page that a GET opens, loaded ``--loads`` times in the browser,
  the navigation timing's load event (request sent to page loaded), the median;
* bot move time: a game per game (``--games``) against the game's strongest bots (the
  page's default), the human's seat taking its first legal action, ``--moves`` bot
  moves each timed as the page times them (``PlaySession``: ``Engine.choose``); one
  move is made first so kernels are compiled before timing; the median, mean, 90th
  percentile and largest (pimc is slowest early in a deal and solves exactly near its end).

Writes results/benchmarks/web.json.  Needs the web extra, Playwright and /usr/bin/chromium.
"""
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import load_note, write  # noqa: E402

SHOTS = Path(__file__).resolve().parent.parent / "results" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
PRESETS = {"wendish": "standard", "schnapsen": None, "schadenfreude": None}


def bot_moves(game: str, moves: int, limit_s: float = 120.0) -> dict:
    """Median and largest time of ``moves`` moves of ``game``'s strongest bots."""
    from cli.web.session import PlaySession
    t0 = time.perf_counter()
    s = PlaySession(game, preset=PRESETS[game], seat=0, seed=1)   # first bot moves: compile
    first = time.perf_counter() - t0
    s.bot_seconds.clear()
    seed = 1
    t0 = time.perf_counter()
    while len(s.bot_seconds) < moves and time.perf_counter() - t0 < limit_s:
        if s.over:
            seed += 1
            s = _again(s, game, seed)
            continue
        s.act(s.legal()[0])
    times = s.bot_seconds[:moves] if s.bot_seconds else []
    return {"bots": sorted(set(n for n in s.names if n != "human")), "moves": len(times),
            "median_s": round(statistics.median(times), 4) if times else None,
            "mean_s": round(statistics.fmean(times), 4) if times else None,
            "p90_s": round(sorted(times)[int(0.9 * (len(times) - 1))], 4) if times else None,
            "max_s": round(max(times), 4) if times else None,
            "first_game_start_s": round(first, 2)}


def _again(old, game, seed):
    from cli.web.session import PlaySession
    s = PlaySession(game, preset=PRESETS[game], seat=0, seed=seed)
    s.bot_seconds[:0] = old.bot_seconds
    return s


def make_folder(root: Path) -> None:
    """A small sweep to browse."""
    from click.testing import CliRunner
    from cli.main import cli
    res = CliRunner().invoke(cli, ["sweep", "schnapsen", "--vary", "target=66,50", "--games",
                                   "200", "--policy", "random", "--seed", "1", "--threads", "1",
                                   "--out", str(root / "sweep-target")])
    if res.exit_code:
        sys.exit(res.output)


def load_ms(page, url: str, n: int) -> float:
    """Median load time of ``url`` in ms (navigation start to the load event)."""
    got = []
    for _ in range(n):
        page.goto(url)
        got.append(page.evaluate(
            "() => { const e = performance.getEntriesByType('navigation')[0];"
            " return e.loadEventEnd - e.startTime; }"))
    return round(statistics.median(got), 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, default=7)
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--games", default="schnapsen,wendish,schadenfreude")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    from cli.web.app import serve_in_thread

    SHOTS.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-web-"))
    make_folder(tmp)
    base, stop = serve_in_thread(tmp)
    loads, shots = {}, []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        for width, (w, h) in WIDTHS.items():
            ctx = browser.new_context(viewport={"width": w, "height": h})
            pg = ctx.new_page()
            pg.set_default_timeout(120_000)

            def shot(name):
                path = SHOTS / f"{name}-{width}.png"
                pg.screenshot(path=str(path), full_page=True)
                shots.append(path.name)

            pg.goto(base + "/")
            shot("home")
            form = pg.locator("form", has_text="Play schnapsen")
            form.locator("select[name=policy]").select_option("heuristic")
            form.locator("input[name=seed]").fill("11")
            with pg.expect_navigation():
                form.locator("button", has_text="Play schnapsen").click()
            game_url = pg.url
            with pg.expect_navigation():
                pg.keyboard.press("1")
            shot("play")
            with pg.expect_navigation():
                pg.keyboard.press("h")
            shot("play-hint")
            illegal = pg.locator("#hand button.card.illegal")
            if illegal.count():
                with pg.expect_navigation():
                    illegal.first.click()
                shot("play-illegal")
            pg.goto(game_url)
            for _ in range(300):
                if pg.get_by_text("Game over").count():
                    break
                with pg.expect_navigation():
                    pg.keyboard.press("1")
            with pg.expect_navigation():
                pg.get_by_text("Save the record in the served folder").click()
            shot("play-over")
            with pg.expect_navigation():
                pg.get_by_text("study it").click()
            study_url = pg.url
            pg.goto(study_url + "&at=4&analyse=1")
            shot("study-view")
            pg.goto(base + "/study")
            shot("study")
            pg.goto(base + "/results")
            shot("results")
            pg.goto(base + "/results?path=sweep-target")
            shot("results-sweep")
            pg.goto(base + "/play/nosuchgame")
            shot("error")
            if width == "desktop":
                for name, url in {"home": base + "/", "play": game_url,
                                  "study-view": study_url + "&at=4",
                                  "results-sweep": base + "/results?path=sweep-target",
                                  "study": base + "/study"}.items():
                    loads[name] = load_ms(pg, url, args.loads)
            ctx.close()
        browser.close()
    stop()
    bots = {g: bot_moves(g, args.moves) for g in args.games.split(",")}
    out = write("web", {
        "command": "python benchmarks/bench_web.py " + " ".join(sys.argv[1:]),
        "note": load_note("wall time in Chromium (headless) and in-process bot moves"),
        "page_load_ms_median": loads, "loads_per_page": args.loads,
        "bot_move": bots, "screenshots": sorted(shots)})
    print(f"wrote {out}")
    for k, v in loads.items():
        print(f"load {k}: {v} ms")
    for g, b in bots.items():
        print(f"bot move {g} ({', '.join(b['bots'])}): median {b['median_s']} s, mean "
              f"{b['mean_s']} s, p90 {b['p90_s']} s, max {b['max_s']} s over {b['moves']} moves")


if __name__ == "__main__":
    main()
