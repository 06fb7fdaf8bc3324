"""Start-up: `tricksim --help` and `tricksim rules GAME` import neither numba nor
pandas, scipy, matplotlib or dask (what made them take a second or more), and a
cold numba cache is announced instead of a silent wait."""
import subprocess
import sys
from pathlib import Path

import pytest

from simcore.games import game_names

HEAVY = ("numba", "pandas", "scipy", "matplotlib", "dask", "distributed")

PROBE = """
import sys
sys.path.insert(0, {tests!r})
import toygame              # registered as tests/conftest.py registers it
from simcore.games import register_game
register_game(toygame.ENTRY)
from click.testing import CliRunner
from cli.main import cli
res = CliRunner().invoke(cli, sys.argv[1:])
assert res.exit_code == 0, res.output
print(" ".join(m for m in {heavy!r} if m in sys.modules))
"""


@pytest.mark.parametrize("args", [["--help"]] + [["rules", g] for g in game_names()]
                         + [["rules", "schadenfreude", "--players", "3"]])
def test_help_and_rules_import_nothing_heavy(args):
    probe = PROBE.format(heavy=HEAVY, tests=str(Path(__file__).parent))
    out = subprocess.run([sys.executable, "-c", probe, *args],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"imported: {out.stdout.strip()}"


def test_a_cold_cache_is_announced(tmp_path):
    env_cache = tmp_path / "cache"
    code = ("import os; os.environ['NUMBA_CACHE_DIR'] = %r\n"
            "from simcore._cache import cache_is_cold\n"
            "print(cache_is_cold('schadenfreude'))") % str(env_cache)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "True", out.stderr
