"""Tournaments: several players on the same deals, Bradley-Terry ratings with intervals.

A two-seat game (Schnapsen) plays every pairing of the players, each pair once with
each player in seat 0, on games 0 .. N-1 of the run (so every pairing meets the same
first deals). A game of 3-5 seats plays every seat rotation of the list (as many
players as seats) on the same games. Every game compares each two seats' standings
(the game's ``standing``: a win, or the score): a higher standing is a win of one
player over the other, an equal one half a win each.

Ratings are Bradley-Terry strengths fitted by Hunter's MM iteration in numpy (a
dozen lines, always converging, no optional dependency; scipy's optimisers would
do the same job slower), with half a win each way added to every pair so that an
unbeaten player keeps a finite rating. They are shown as Elo-scale points (400
log10 of the strength, mean 0) with 95% percentile intervals from a bootstrap over
the game indices (each deal with all its rotations, so the pairing by deal is kept).
The pairwise table gives each pair's share of its comparisons with a paired 95%
interval over the deals, a two-sided sign test over the deals and Holm's correction
across the pairs.

Each lineup's results are saved (``lineups/NN.json``) as it finishes: the same
command into the same folder resumes a stopped tournament.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import TricksimError

#: bootstrap resamples of the ratings' intervals
BOOTSTRAP = 400
#: half a win each way added to every pair of players (a weak prior)
PRIOR = 0.5


def lineups(names: list[str], seats: int) -> list[list[str]]:
    """The seatings to play: every ordered pairing for two seats, else every rotation
    of the list (as many names as seats)."""
    from .rotation import rotate
    if seats == 2:
        return [[a, b] for a, b in itertools.permutations(names, 2)]
    return [rotate(names, r) for r in range(seats)]


def wins_per_deal(results: list[tuple[list[str], np.ndarray]], names: list[str]) -> np.ndarray:
    """W[g, a, b]: how often player a beat player b in game index g over every lineup
    (``results``: each lineup's names per seat and its standings, games x seats)."""
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    games = results[0][1].shape[0]
    w = np.zeros((games, k, k))
    for seating, st in results:
        for i, j in itertools.combinations(range(len(seating)), 2):
            a, b = idx[seating[i]], idx[seating[j]]
            d = st[:, i] - st[:, j]
            w[:, a, b] += (d > 0) + 0.5 * (d == 0)
            w[:, b, a] += (d < 0) + 0.5 * (d == 0)
    return w


def bradley_terry(w: np.ndarray, prior: float = PRIOR, iters: int = 2000) -> np.ndarray:
    """Log-strengths (mean 0) of a Bradley-Terry model fitted to the win matrix ``w``
    (w[a, b]: wins of a over b) by Hunter's MM iteration, ``prior`` wins added each way."""
    k = w.shape[0]
    w = w + prior * (1 - np.eye(k))
    n = w + w.T
    wins = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(iters):
        new = wins / (n / (p[:, None] + p[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    return np.log(p)


def elo(log_strength) -> np.ndarray:
    """Log-strengths as Elo-scale points (400 log10)."""
    return 400.0 * np.asarray(log_strength) / math.log(10)


@dataclass
class TournamentResult:
    """A tournament's ratings and pairwise table (pandas frames) and its settings."""

    game: str
    names: list[str]
    seed: int
    games: int
    ratings: object
    pairs: object
    lineups: int
    played: int
    resumed: int


def ratings_frame(w: np.ndarray, names: list[str], seed: int, boot: int = BOOTSTRAP):
    """Ratings (Elo-scale) with 95% bootstrap intervals over the deals, best first."""
    import pandas as pd
    est = elo(bradley_terry(w.sum(axis=0)))
    rng = np.random.default_rng([seed, 0xB7])
    g = w.shape[0]
    draws = np.array([elo(bradley_terry(w[rng.integers(0, g, g)].sum(axis=0)))
                      for _ in range(boot)])
    lo, hi = np.percentile(draws, [2.5, 97.5], axis=0)
    tot = w.sum(axis=0)
    frame = pd.DataFrame({"player": names, "rating": est, "low": lo, "high": hi,
                          "wins": tot.sum(axis=1), "comparisons": (tot + tot.T).sum(axis=1)})
    return frame.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)


def pairs_frame(w: np.ndarray, names: list[str]):
    """Each pair's share of its comparisons (per deal, paired), sign test, Holm, verdict."""
    import pandas as pd
    from scipy import stats as st
    from .rotation import mean_interval
    from ..statistics.stats import evidence_words, holm
    rows = []
    for a, b in itertools.combinations(range(len(names)), 2):
        n = w[:, a, b] + w[:, b, a]
        share = w[n > 0, a, b] / n[n > 0]
        mean, lo, hi = mean_interval(share) if len(share) else (math.nan,) * 3
        lo, hi = max(lo, 0.0), min(hi, 1.0)          # a share lies in [0, 1]
        up, down = int((share > 0.5).sum()), int((share < 0.5).sum())
        p = st.binomtest(up, up + down).pvalue if up + down else 1.0
        rows.append({"player": names[a], "versus": names[b], "deals": int(len(share)),
                     "share": mean, "low": lo, "high": hi, "deals_ahead": up,
                     "deals_behind": down, "p": float(p)})
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["p_holm"] = holm(frame["p"])
        frame["verdict"] = [
            (f"{evidence_words(r.p_holm)} that {r.player} "
             f"{'beats' if r.share > 0.5 else 'loses to'} {r.versus}")
            if evidence_words(r.p_holm) != "no clear evidence"
            else f"no clear evidence of a difference between {r.player} and {r.versus}"
            for r in frame.itertuples()]
    return frame


def tournament(game: str, rules, players: list[str], games: int, seed: int | None, out,
               timeout=None, progress=None) -> TournamentResult:
    """Play the tournament into folder ``out`` (resuming the lineups it holds) and
    write ratings.csv, pairs.csv, tournament.png and report.md there."""
    from ..bits import seed_from_entropy
    from ..folders import claim, own
    from ..registry import get_game
    from ..players import DEFAULT_TIMEOUT, play_seated, resolve, PythonPlayer
    from ..pimc_names import join_pimc_parameters
    from ..statistics.stats import write_csv, write_json, write_text
    g = get_game(game)
    if isinstance(players, str):
        players = players.split(",")
    players = join_pimc_parameters([p.strip() for p in players], g.policy_parameter_keys)
    if len(players) < 2 or len(set(players)) != len(players):
        raise TricksimError(f"--players needs at least two different players, not "
                            f"{','.join(players)}")
    if games < 1:
        raise TricksimError(f"--games {games} is not allowed; give at least 1")
    seats = g.seats(rules)
    if seats > 2 and len(players) != seats:
        raise TricksimError(f"{game} with these rules has {seats} seats: a tournament of "
                            f"{seats} players rotates them through every seat; give {seats} "
                            f"players (or rules with {len(players)} seats)")
    out = Path(out)
    found = claim(out, "tournament")
    settings = {"game": game, "rules": rules.to_dict(), "players": list(players),
                "games": int(games)}
    if found is not None:
        if {k: found.get(k) for k in settings} != settings or (
                seed is not None and found.get("seed") != seed):
            raise TricksimError(f"'{out}' holds a tournament of other settings "
                                f"({found.get('players')}, {found.get('games')} games, seed "
                                f"{found.get('seed')}); give a new folder or the same "
                                "command to resume it")
        seed = found["seed"]
    seed = seed_from_entropy() if seed is None else int(seed)
    eng = g.engine(rules)
    spec = eng.observation_spec
    resolved = {p: resolve(eng, g, rules, [p])[0] for p in players}
    plan = lineups(list(players), seats)
    results, played, resumed = [], 0, 0
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    with own(out, "tournament", seed=seed, **settings) as info:
        (out / "lineups").mkdir(exist_ok=True)
        for n, seating in enumerate(plan):
            path = out / "lineups" / f"{n:02d}.json"
            saved = _read_lineup(path, seating, games)
            if saved is None:
                recs = play_seated(eng, [resolved[p] for p in seating], seed, range(games),
                                   timeout)
                saved = np.array([spec.standing(r["result"]) for r in recs], dtype=np.float64)
                write_json({"seats": seating, "standing": saved.tolist()}, path)
                played += 1
            else:
                resumed += 1
            results.append((seating, saved))
            if progress is not None:
                progress(n + 1, len(plan))
        w = wins_per_deal(results, list(players))
        ratings = ratings_frame(w, list(players), seed)
        pairs = pairs_frame(w, list(players))
        write_csv(ratings, out / "ratings.csv")
        write_csv(pairs, out / "pairs.csv")
        from ..statistics.plots import plot_tournament
        plot_tournament(ratings, pairs, list(players), game, games, out / "tournament.png")
        cost = [f"{s.name}: {1e6 * s.seconds / s.decisions:,.1f} µs a decision"
                for s in resolved.values() if isinstance(s, PythonPlayer) and s.decisions]
        write_text(report(game, ratings, pairs, seed, games, len(plan), spec.standing_name,
                          cost), out / "report.md")
        write_json({**info, "status": "done", "lineups": len(plan)}, out / "tournament.json")
    return TournamentResult(game, list(players), seed, games, ratings, pairs, len(plan),
                            played, resumed)


def _read_lineup(path: Path, seating, games):
    """A finished lineup's standings (games x seats) if ``path`` holds this seating's."""
    import json
    try:
        d = json.loads(path.read_text())
        st = np.array(d["standing"], dtype=np.float64)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if d.get("seats") != seating or st.shape != (games, len(seating)):
        return None
    return st


def prior_note(ratings) -> str | None:
    """A warning for players that won every comparison or none: their rating and
    interval rest on the prior, not on the games."""
    edge = [r.player for r in ratings.itertuples() if r.wins in (0, r.comparisons)]
    if not edge:
        return None
    return (f"note: {', '.join(edge)} won all or none of {'its' if len(edge) == 1 else 'their'} "
            "comparisons; such a rating is held finite only by the prior (half a win each way "
            "per pair) and its interval says nothing about how far apart the players are")


def report(game, ratings, pairs, seed, games, n_lineups, standing, cost) -> str:
    """report.md: what was played, the ratings, the pairwise table and verdicts."""
    from ..statistics.stats import markdown_table
    lines = [f"# {game} tournament", "",
             f"{n_lineups} lineups x {games} games (seed {seed}), every player in every seat "
             f"on the same game indices; a game compares each two seats by {standing}.", "",
             "## Ratings (Bradley-Terry, Elo scale, mean 0; 95% bootstrap over deals)", "",
             markdown_table(ratings), "",
             "## Pairs (share of comparisons won, paired 95% interval over deals; sign "
             "test, Holm across pairs)", "", markdown_table(pairs.drop(columns=["verdict"])),
             ""]
    lines += [f"- {v}" for v in pairs["verdict"]]
    note = prior_note(ratings)
    if note:
        lines += ["", note[0].upper() + note[1:]]
    if cost:
        lines += ["", "Python players' own time: " + "; ".join(cost)]
    return "\n".join(lines) + "\n"
