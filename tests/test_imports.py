"""The layer rules (issue 23, item 4), checked by import-linter as pyproject.toml's
``[tool.importlinter]`` states them: the layers (experiments and analysis above
running, running above statistics), no import cycles among simcore's modules or a
game's (imports inside functions count), generic code reaching games only through the
registry, the library never importing the CLI, kernels without pandas or click and
statistics without numba.  CI installs ``.[test]``, which holds import-linter."""
import os
import textwrap
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def _lint(folder: Path, config: Path) -> int:
    here = os.getcwd()
    os.chdir(folder)              # the packages are found from the working directory
    try:
        return lint_imports(config_filename=str(config), no_cache=True, no_logo=True)
    finally:
        os.chdir(here)


def test_the_layer_rules_hold(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    assert _lint(ROOT, ROOT / "pyproject.toml") == 0


def test_a_cycle_breaks_the_rules(tmp_path, monkeypatch):
    """The same kind of contract fails on a package whose two modules import each
    other, even from inside a function (so the check above can fail)."""
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n    return a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "lint.toml"
    config.write_text(textwrap.dedent("""
        [tool.importlinter]
        root_packages = ["cyc"]

        [[tool.importlinter.contracts]]
        name = "no cycles"
        type = "acyclic_siblings"
        ancestors = ["cyc"]
        """))
    assert _lint(tmp_path, config) == 1


def test_a_lower_layer_importing_a_higher_one_breaks_the_rules(tmp_path, monkeypatch):
    """A layers contract like pyproject.toml's fails when the statistics layer imports
    the running layer (so the layer check above can fail)."""
    pkg = tmp_path / "lay"
    for sub in ("", "experiments", "running", "statistics"):
        (pkg / sub).mkdir(exist_ok=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "running" / "runner.py").write_text("X = 1\n")
    (pkg / "statistics" / "stats.py").write_text("def f():\n    from ..running import runner\n"
                                                 "    return runner.X\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "lint.toml"
    config.write_text(textwrap.dedent("""
        [tool.importlinter]
        root_packages = ["lay"]

        [[tool.importlinter.contracts]]
        name = "layers"
        type = "layers"
        containers = ["lay"]
        layers = ["experiments", "running", "statistics"]
        """))
    assert _lint(tmp_path, config) == 1
