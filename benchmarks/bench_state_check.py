"""What checking a state costs the Python per-decision API (issue 20 item 3).

Every ``Engine`` method that takes a state checks it first (``StateSpec.check``: length,
dtype, every field's range, the cross-field facts).  This times, per game, one
``check_state`` call and one ``legal`` call with and without the check (the unchecked
call is the engine's own trusted path, as ``play`` uses it), on states met in real
play, and writes the medians under results/benchmarks/.

    python benchmarks/bench_state_check.py [--repeats 7] [--calls 2000]
"""
import argparse
import statistics
import time

from common import load_note, write

from simcore import engine


def _states(e, seed, n):
    """States met while ``heuristic`` players play ``n`` games (every decision)."""
    out = []
    for index in range(n):
        s = e.new(seed, index)
        while not e.game_over(s):
            if e.deal_over(s):
                e.next_deal(s)
                continue
            out.append(s.copy())
            e.apply(s, e.choose("heuristic", s))
    return out


def _per_call(fn, states, calls, repeats):
    """Median over ``repeats`` of the µs one ``fn(state)`` costs, over ``calls`` calls."""
    picked = [states[i % len(states)] for i in range(calls)]
    times = []
    for _ in range(repeats + 1):
        t0 = time.perf_counter()
        for s in picked:
            fn(s)
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times[1:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--out", default="state_check")
    a = ap.parse_args()
    rows = []
    for game in ("schadenfreude", "schnapsen", "wendish"):
        e = engine(game)
        states = _states(e, 1, 5)
        check = _per_call(e.check_state, states, a.calls, a.repeats)
        checked = _per_call(e.legal, states, a.calls, a.repeats)
        e._trusted = True            # the engine's own path: what play() uses
        try:
            trusted = _per_call(e.legal, states, a.calls, a.repeats)
        finally:
            e._trusted = False
        rows.append({"game": game, "check_state_us": round(check, 2),
                     "legal_checked_us": round(checked, 2),
                     "legal_unchecked_us": round(trusted, 2)})
        print(f"{game:14s} check_state {check:6.1f} µs   legal checked {checked:6.1f} µs"
              f"   unchecked {trusted:6.1f} µs")
    note = load_note("wall time per call, median of repeats")
    print(note)
    print("wrote", write(a.out, {"rows": rows, "note": note, "repeats": a.repeats,
                                 "calls": a.calls}))


if __name__ == "__main__":
    main()
