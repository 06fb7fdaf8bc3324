"""Every example command in every ``--help`` text, and the README's questions, run.

The commands are read from the help texts themselves (every command of the CLI,
found by walking it, so a new command's examples are run too) and from the
README's "Real questions" list, then run in-process at a tiny size: ``--games``
becomes a small number (added where an example leaves the default), an output
folder goes to the test's temporary folder, and ``--workers N`` (a local Dask
cluster, which ``tests/test_distributed.py`` covers) is dropped.  A plan file an
example names is written first (one tiny run).  Replay examples run last, after
the examples that write the records they read.
"""
import re
import shlex
from pathlib import Path

import pytest

from cli.main import cli

README = Path(__file__).resolve().parents[1] / "README.md"
TINY = "40"
#: commands whose runs take --games (the default is large)
PLAYS = {"simulate", "sweep", "compare"}


def help_examples(invoke) -> list[str]:
    """The example command lines of the top-level help and of every command's help
    (continuation lines joined, trailing comments dropped)."""
    texts = [invoke("--help").stdout]
    texts += [invoke(name, "--help").stdout for name in sorted(cli.commands)]
    out = []
    for text in texts:
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if not re.match(r"\s*Examples?:\s*$", line):
                continue
            cmd = ""
            for follow in lines[i + 1:]:
                s = follow.strip()
                if not s:
                    break
                if cmd:
                    cmd += " " + s
                elif s.startswith("tricksim "):
                    cmd = s
                else:
                    break
                cmd = cmd.split("  #")[0].strip()
                if cmd.endswith("\\"):
                    cmd = cmd[:-1].strip()
                    continue
                out.append(cmd)
                cmd = ""
    return out


def readme_questions() -> list[str]:
    """The commands of the README's "Real questions" list (backticked, maybe wrapped)."""
    text = README.read_text(encoding="utf-8")
    start = text.index("Real questions")
    section = text[start:text.index("\n## ", start)]
    return [" ".join(span.split()) for span in re.findall(r"`(tricksim [^`]+)`", section)]


def tiny(cmd: str, tmp: Path, k: int) -> list[str]:
    """The command's arguments at a tiny size, writing into ``tmp``."""
    args = shlex.split(cmd)[1:]
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a == "--games":
            out += ["--games", TINY]
            i += 2
            continue
        if a == "--check-games":               # a check replays the main run's first deals
            out += ["--check-games", "20"]
            i += 2
            continue
        if a == "--workers":
            i += 2
            continue
        if a == "--dashboard":
            i += 1
            continue
        if a == "--out":
            out += ["--out", str(tmp / f"out{k}")]
            i += 2
            continue
        out.append(a)
        i += 1
    if out and out[0] == "hand" and "--deals" not in out:
        out += ["--deals", "200"]
    if out and out[0] in ("hand", "analyse") and "--policy" not in out and "--open" not in out:
        out += ["--budget", "2"]                # the strongest players that fit 2 s
    if out and out[0] in PLAYS and "--games" not in out:
        out += ["--games", TINY]
    if out and out[0] in PLAYS | {"batch"} and "--out" not in out:
        out += ["--out", str(tmp / f"out{k}")]
    return out


def test_help_examples_and_readme_questions_run(invoke, tmp_path):
    examples = help_examples(invoke)
    questions = readme_questions()
    assert len(examples) >= 10 and len(questions) >= 5
    for cmd in examples + questions:
        for name in re.findall(r"(\S+\.toml)\b", cmd):           # a plan an example names
            if not (tmp_path / name).exists():
                (tmp_path / name).write_text(
                    f'[[run]]\nname = "tiny"\ngame = "schadenfreude"\ngames = {TINY}\n')
    unique = list(dict.fromkeys(examples + questions))      # a question may be an example
    ordered = sorted(enumerate(unique),
                     key=lambda kv: shlex.split(kv[1])[1] in ("replay", "analyse"))
    for k, cmd in ordered:
        args = tiny(cmd, tmp_path, k)
        res = invoke(*args, input="quit\n" if args[0] == "play" else None)
        assert res.exit_code == 0, f"{cmd}\n-> tricksim {' '.join(args)}\n{res.output}"


DOCS = sorted((README.parent / "docs").glob("*.md")) + [README]
#: ``tricksim CMD GAME ... --preset NAME`` on one line of a help text or page
PRESET_USE = re.compile(r"tricksim \w+ (schadenfreude|schnapsen|wendish)\b[^`\n]*?"
                        r"--preset[ =]['\"]?([\w-]+)")


def test_every_preset_the_help_and_docs_name_exists(invoke):
    """Every ``--preset NAME`` of a help example, the README or a docs page names a preset
    of its game (or one of its other names), and builds."""
    from simcore.games import get_rulebook
    texts = [invoke("--help").stdout] + [invoke(name, "--help").stdout
                                         for name in sorted(cli.commands)]
    texts += [p.read_text(encoding="utf-8") for p in DOCS]
    uses = {m.groups() for t in texts for m in PRESET_USE.finditer(t)}
    assert ("wendish", "dreiwendsch") in uses and len(uses) >= 4
    for game, name in sorted(uses):
        book = get_rulebook(game)
        assert book.is_preset(name), f"{game} --preset {name}: no such preset"
        book.build(name)


def test_wendish_variant_names_are_presets(invoke):
    """``--preset three_sharp`` (the variant's name) is the preset ``sharp``, and
    ``tricksim rules wendish`` lists both names; an unknown name lists them too."""
    res = invoke("rules", "wendish", "--preset", "three_sharp")
    assert res.exit_code == 0, res.output
    head = res.stdout.splitlines()[0]
    assert "preset 'sharp'" in head and "sharp (also three_sharp)" in head
    assert invoke("rules", "wendish", "--preset", "sharp").stdout.splitlines()[1:] == \
        res.stdout.splitlines()[1:]
    bad = invoke("rules", "wendish", "--preset", "sharpe")
    assert bad.exit_code != 0 and "sharp (also three_sharp)" in bad.output
    assert "Traceback" not in bad.output
    from simcore.games import get_game
    g = get_game("wendish")
    assert g.build_rules("three_sharp", None, (), None) == g.build_rules("sharp", None, (), None)
    assert g.build_rules("three", None, (), None)["variant"] == "three"
