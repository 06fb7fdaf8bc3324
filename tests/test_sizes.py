"""Function sizes stay down (issue 23, item 5): no function of ``simcore/`` or ``cli/``
outside the numba kernels runs over ``MAX_LINES`` lines or takes more than
``MAX_PARAMS`` parameters (``self``/``cls`` not counted, ``*args`` and ``**kwargs``
one each).  A command gathers its options into the settings and rules objects
(``cli/option_groups.py``); a library function takes those objects.  Kernels
(``@njit``) are left out: they take arrays and ints, never objects (DESIGN.md).
``ALLOWED`` names each function left over a limit, with why, and the size it may
have: the check fails too if such a function grows past it, or comes within the
limits (then drop it here)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MAX_LINES = 80
MAX_PARAMS = 8

_API = ("a public entry point: simulate's documented keywords (progress, out, client, "
        "executor, the RunSettings or its fields), kept so that callers' keywords and "
        "positional games and seed keep working")

#: "path:qualified name" -> (lines, parameters, why) allowed
ALLOWED = {
    "simcore/running/runner.py:simulate": (MAX_LINES, 13, _API),
    "simcore/numba_players.py:simulate": (
        MAX_LINES, 13, _API + " (simcore.simulate: the runner's signature, which it "
        "forwards, with numba players allowed in policies)"),
    "simcore/experiments/sweep.py:sweep": (
        MAX_LINES, 15, _API + "; the base rule set's four arguments as build_rules takes "
        "them (batch passes them positionally)"),
    "simcore/experiments/sweep.py:compare": (
        MAX_LINES, 12, _API + "; policies, policies_a, policies_b and rotate, documented in "
        "docs/sweeps.md"),
    "simcore/experiments/rotation.py:simulate_rotated": (MAX_LINES, 11, _API),
    "simcore/players.py:process_run": (
        MAX_LINES, 9, _API + " (runner.simulate's run keywords, progress, out, records, "
        "records_progress, executor, for a run with Python players on worker processes)"),
}


def _is_kernel(fn) -> bool:
    return any("jit" in ast.unparse(d) for d in fn.decorator_list)


def measure(root: Path, folders=("simcore", "cli")) -> dict[str, tuple[int, int]]:
    """Every non-kernel function under ``folders`` of ``root`` over a limit:
    "path:qualified name" -> (lines, parameters)."""
    over = {}

    def walk(node, path, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                if not _is_kernel(child):
                    a = child.args
                    params = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs
                              if x.arg not in ("self", "cls")]
                    n_params = len(params) + (a.vararg is not None) + (a.kwarg is not None)
                    n_lines = child.end_lineno - child.lineno + 1
                    if n_lines > MAX_LINES or n_params > MAX_PARAMS:
                        over[f"{path}:{name}"] = (n_lines, n_params)
                walk(child, path, name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, path, prefix + child.name + ".")
            else:
                walk(child, path, prefix)

    for folder in folders:
        for p in sorted((root / folder).rglob("*.py")):
            walk(ast.parse(p.read_text(encoding="utf-8")), p.relative_to(root).as_posix(), "")
    return over


def test_no_function_over_the_limits_outside_the_allow_list():
    over = measure(ROOT)
    new = {k: v for k, v in over.items() if k not in ALLOWED}
    assert not new, (f"over {MAX_LINES} lines or {MAX_PARAMS} parameters (split it where a "
                     "reader gains; pass the settings or rules object instead of its "
                     "fields):\n" + "\n".join(f"{k}: {n} lines, {p} parameters"
                                              for k, (n, p) in sorted(new.items())))


def test_the_allow_list_holds_no_more_than_it_needs():
    over = measure(ROOT)
    for key, (lines, params, why) in ALLOWED.items():
        assert why.strip(), f"{key}: say why it is allowed"
        assert key in over, f"{key} is within the limits now: drop it from ALLOWED"
        n, p = over[key]
        assert n <= max(lines, MAX_LINES) and p <= max(params, MAX_PARAMS), \
            f"{key} grew to {n} lines, {p} parameters (allowed {lines}, {params})"


def test_the_check_finds_a_long_function_and_a_long_argument_list(tmp_path):
    """The check can fail: a long function and a long argument list are reported, a
    kernel is not."""
    pkg = tmp_path / "simcore"
    pkg.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES))
    (pkg / "m.py").write_text(
        "from numba import njit\n\n\n"
        f"def long():\n{body}\n\n"
        f"def many({', '.join(f'a{i}' for i in range(MAX_PARAMS))}, *rest):\n    return a0\n\n\n"
        "class C:\n"
        f"    def fine(self, {', '.join(f'a{i}' for i in range(MAX_PARAMS))}):\n"
        "        return a0\n\n\n"
        "@njit(cache=True)\n"
        f"def kernel({', '.join(f'a{i}' for i in range(2 * MAX_PARAMS))}):\n    return a0\n")
    assert measure(tmp_path, ("simcore",)) == {"simcore/m.py:long": (MAX_LINES + 1, 0),
                                               "simcore/m.py:many": (2, MAX_PARAMS + 1)}
