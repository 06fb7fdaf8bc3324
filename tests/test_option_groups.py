"""cli/option_groups.py: a command's options handed over as one object, built lazily."""
import click
from click.testing import CliRunner

from cli.option_groups import RUN_FIELDS, RuleChoice, gather
from simcore.running.settings import FIELDS


def _command(seen):
    @click.command()
    @click.option("--players", type=int, default=None)
    @click.option("--preset", default=None)
    @click.option("--rules", "rules_file", default=None)
    @click.option("--set", "assignments", multiple=True)
    @click.option("--games", type=int, default=5)
    @click.option("--seed", type=int, default=None)
    @click.option("--fmt", default="table")
    @gather("rule_choice", RuleChoice)
    @gather("run", ("games", "seed"))
    def cmd(rule_choice, run, fmt):
        """A command that keeps what it was given."""
        seen.update(rule_choice=rule_choice, run=run, fmt=fmt)
    return cmd


def test_gathered_options_arrive_as_one_object_each():
    seen = {}
    res = CliRunner().invoke(_command(seen), ["--preset", "austrian", "--set", "target=7",
                                              "--set", "match_points=9", "--games", "3"])
    assert res.exit_code == 0, res.output
    assert seen["rule_choice"] == RuleChoice(None, "austrian", None, ("target=7", "match_points=9"))
    assert seen["run"] == {"games": 3, "seed": None}
    assert seen["fmt"] == "table"
    assert _command({}).__doc__.startswith("A command that keeps")


def test_rule_choice_builds_the_rule_set_and_checks_it_only_then():
    from simcore.errors import TricksimError
    choice = RuleChoice(None, None, None, ("target=bogus",))      # no error yet
    try:
        choice.build("schnapsen")
    except TricksimError as exc:
        assert "target" in str(exc)
    else:
        raise AssertionError("a bad --set was accepted")
    rules = RuleChoice(None, "austrian", None, ()).build("schnapsen")
    assert rules.canonical().startswith("schnapsen")


def test_run_fields_are_the_run_settings_fields():
    assert RUN_FIELDS == FIELDS
