"""Where a cold test run's compile time goes.

With TRICKSIM_COMPILE_LOG=FILE, tests/conftest.py (and the warm-up process,
tests/_warm_kernels.py) append one JSON line to FILE per kernel numba compiles (a
cache miss): the kernel, its signature, the seconds of that compile itself
(``self_s``: the callees it compiled meanwhile left out, so the lines add up to the
time spent compiling) and with them (``total_s``), and the test that asked for it
(``test``; "(warm-up)" for the warm-up process). Several runs may append to one file.

    python tests/compile_log.py FILE [TOP]

prints the compiles and their seconds, every kernel compiled for more than one
signature, the TOP longest compiles, and per test file the kernels compiled first
there (the ones no earlier file of that run needed) with their seconds.
"""
import collections
import json
import sys
import time


class CompileLog:
    """Append a line to ``path`` per numba compile (see the module doc); ``where``
    names the test (or process) compiling now."""

    def __init__(self, path: str, where: str = ""):
        from numba.core import event
        self.path, self.where, self.stack = path, where, []
        log = self

        class Listener(event.Listener):
            def on_start(self, ev):
                log.stack.append([time.perf_counter(), 0.0])

            def on_end(self, ev):
                start, nested = log.stack.pop()
                total = time.perf_counter() - start
                if log.stack:
                    log.stack[-1][1] += total
                d = ev.data["dispatcher"]
                line = {"kernel": f"{d.py_func.__module__}.{d.py_func.__qualname__}",
                        "sig": str(tuple(ev.data["args"])),
                        "self_s": round(total - nested, 3), "total_s": round(total, 3),
                        "test": log.where}
                with open(log.path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(line) + "\n")

        event.register("numba:compile", Listener())


def main(path: str, top: int = 25) -> None:
    every = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    # numba's own helpers (numba.*: overloads of builtins it compiles on the way) are
    # counted together: they are not cached on disk and each takes a fraction of a second
    rows = [r for r in every if not r["kernel"].startswith("numba.")]
    own = sum(r["self_s"] for r in every) - sum(r["self_s"] for r in rows)
    total = sum(r["self_s"] for r in rows)
    kernels = {r["kernel"] for r in rows}
    print(f"{len(rows)} compiles of {len(kernels)} kernels, {total:.0f} s compiling "
          f"(and {len(every) - len(rows)} of numba's own helpers, {own:.0f} s)")
    sigs = collections.defaultdict(list)
    for r in rows:
        sigs[r["kernel"]].append(r)
    for k, rs in sorted(sigs.items(), key=lambda kv: -len(kv[1])):
        if len(rs) > 1:
            print(f"{len(rs)} signatures ({sum(r['self_s'] for r in rs):.1f} s): {k}")
            for r in rs:
                print(f"      {r['self_s']:6.1f} s  {r['sig']}  <- {r['test']}")
    print(f"\nthe {top} longest compiles (own seconds):")
    for r in sorted(rows, key=lambda r: -r["self_s"])[:top]:
        print(f"{r['self_s']:7.1f} s  {r['kernel']}  <- {r['test'].split('::')[0]}")
    per = collections.defaultdict(lambda: [0, 0.0])
    for r in rows:
        f = r["test"].split("::")[0] or "(collection)"
        per[f][0] += 1
        per[f][1] += r["self_s"]
    print("\nper test file: kernels compiled first there, seconds")
    for f, (n, s) in sorted(per.items(), key=lambda kv: -kv[1][1]):
        print(f"{s:7.1f} s  {n:4d}  {f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 25)
