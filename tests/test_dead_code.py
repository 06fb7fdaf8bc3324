"""No dead code in the package: vulture finds no name in simcore/ or cli/ that
nothing uses (the tests, benchmarks and tests/vulture_whitelist.py count as uses;
the whitelist holds the uses vulture cannot follow, each with its place)."""
from pathlib import Path

import pytest

vulture = pytest.importorskip("vulture", reason="vulture is in the test extra")

ROOT = Path(__file__).resolve().parent.parent


def unused(root, paths):
    """vulture's findings (60% confidence and up) in ``simcore/`` and ``cli/`` of the
    tree at ``root``, with every file under ``paths`` read for uses."""
    v = vulture.Vulture()
    v.scavenge([str(root / p) for p in paths])
    out = []
    for item in v.get_unused_code(min_confidence=60):
        rel = Path(item.filename).resolve().relative_to(root.resolve()).as_posix()
        if rel.startswith(("simcore/", "cli/")):
            out.append(f"{rel}:{item.first_lineno}: {item.message}")
    return out


def test_no_dead_code_in_the_package():
    found = unused(ROOT, ["simcore", "cli", "tests", "benchmarks"])
    assert found == [], "unused (delete it, or add the use vulture cannot see to " \
        "tests/vulture_whitelist.py):\n" + "\n".join(found)


def test_the_check_finds_an_unused_function(tmp_path):
    """The check can fail: a function nothing calls is reported."""
    pkg = tmp_path / "simcore"
    pkg.mkdir()
    (pkg / "m.py").write_text("def used():\n    return 1\n\n\ndef orphan():\n    return 2\n\n\n"
                              "used()\n")
    assert unused(tmp_path, ["simcore"]) == ["simcore/m.py:5: unused function 'orphan'"]
