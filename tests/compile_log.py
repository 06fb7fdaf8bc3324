"""Where a cold test run's compile time goes.

With TRICKSIM_COMPILE_LOG=FILE, tests/conftest.py (and the warm-up process,
tests/_warm_kernels.py) append one JSON line to FILE per kernel numba compiles (a
cache miss): the kernel, its signature, the seconds of that compile itself
(``self_s``: the callees it compiled meanwhile left out, so the lines add up to the
time spent compiling) and with them (``total_s``), the test that asked for it
(``test``; "(warm-up)" for the warm-up process) and when it ended (``end``, seconds
since the epoch). A kernel loaded from numba's cache is a line with ``"loaded": true``
(and no seconds); a wait for the other process's compile of the same kernel
(tests/compile_locks.py) a line with ``wait_s``, left out of the compile that waited.
Several runs may append to one file.

    python tests/compile_log.py FILE [TOP]

prints the compiles and their seconds, the waits, every kernel compiled for more than
one signature, the TOP longest compiles, and per test file the kernels compiled first
there (the ones no earlier file of that run needed) with their seconds.
"""
import collections
import json
import sys
import time


class CompileLog:
    """Append a line to ``path`` per numba compile, cache load and wait (see the module
    doc); ``where`` names the test (or process) compiling now."""

    def __init__(self, path: str, where: str = ""):
        from numba.core import dispatcher, event
        import compile_locks
        self.path, self.where, self.stack, self.compiles = path, where, [], 0
        log = self

        class Listener(event.Listener):
            def on_start(self, ev):
                log.stack.append([time.perf_counter(), 0.0])

            def on_end(self, ev):
                start, nested = log.stack.pop()
                total = time.perf_counter() - start
                if log.stack:
                    log.stack[-1][1] += total
                log.compiles += 1
                d = ev.data["dispatcher"]
                log.write({"kernel": compile_locks.kernel_name(d),
                           "sig": str(tuple(ev.data["args"])),
                           "self_s": round(total - nested, 3), "total_s": round(total, 3)})

        event.register("numba:compile", Listener())
        compile_locks.WAIT_HOOKS.append(self.waited)
        original = dispatcher.Dispatcher.compile

        def compile(disp, sig):
            before = len(disp.overloads), log.compiles
            out = original(disp, sig)
            if log.compiles == before[1] and len(disp.overloads) > before[0]:
                log.write({"kernel": compile_locks.kernel_name(disp), "sig": str(sig),
                           "loaded": True})
            return out

        dispatcher.Dispatcher.compile = compile

    def waited(self, kernel: str, seconds: float) -> None:
        """A wait for another process's compile of ``kernel``: logged, and left out of
        the seconds of the compile that waited."""
        if self.stack:
            self.stack[-1][1] += seconds
        self.write({"kernel": kernel, "wait_s": round(seconds, 3)})

    def write(self, line: dict) -> None:
        line.update(test=self.where, end=round(time.time(), 2))
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(line) + "\n")


def main(path: str, top: int = 25) -> None:
    lines = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    every = [r for r in lines if "self_s" in r]
    waits = [r for r in lines if "wait_s" in r]
    # numba's own helpers (numba.*: overloads of builtins it compiles on the way) are
    # counted together: they are not cached on disk and each takes a fraction of a second
    rows = [r for r in every if not r["kernel"].startswith("numba.")]
    own = sum(r["self_s"] for r in every) - sum(r["self_s"] for r in rows)
    total = sum(r["self_s"] for r in rows)
    kernels = {r["kernel"] for r in rows}
    print(f"{len(rows)} compiles of {len(kernels)} kernels, {total:.0f} s compiling "
          f"(and {len(every) - len(rows)} of numba's own helpers, {own:.0f} s), "
          f"{sum(1 for r in lines if r.get('loaded'))} loaded from the cache")
    for who in sorted({r["test"] == "(warm-up)" for r in waits}):
        ws = [r for r in waits if (r["test"] == "(warm-up)") == who]
        print(f"{'the warm-up' if who else 'the tests'} waited {sum(r['wait_s'] for r in ws):.0f} s "
              f"for {len(ws)} kernels the other process was compiling")
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
