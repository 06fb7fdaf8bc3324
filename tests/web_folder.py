"""A served folder for the web tests: a small sweep (report.md, plots, tables)."""
from click.testing import CliRunner


def make_sweep(root, name="sw"):
    """A 60-game Schnapsen sweep of two targets under ``root`` (random players)."""
    from cli.main import cli
    run = CliRunner().invoke(
        cli, ["sweep", "schnapsen", "--vary", "target=66,50", "--games", "60", "--policy",
              "random", "--seed", "1", "--threads", "1", "--out", str(root / name)])
    assert run.exit_code == 0, run.output
    return root / name
