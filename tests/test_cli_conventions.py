"""The CLI conventions (docs/cli.md) hold for every command: help on every option with no RST markup,
defaults shown, required options marked, --out is a directory and --output a file, deprecated
spellings keep working with one warning, the ptq validate --output hard break names --checkpoint,
--version reads amd-quark's version without importing it, and the completion script is valid bash."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.commands.arguments import HelpFormatter, options, walk
from quarkci.commands.arguments import subparsers as subparsers_of

REPO = Path(__file__).resolve().parents[1]
PARSERS = walk(cli.build_parser())
IDS = [" ".join(path) or "quarkci" for path, _ in PARSERS]


@pytest.mark.parametrize(("path", "parser"), PARSERS, ids=IDS)
def test_every_option_has_help_without_rst_markup_and_shows_its_default(path, parser):
    text = parser.format_help()
    assert "``" not in text
    for action in [*options(parser), *(a for a in parser._actions if not a.option_strings)]:
        if isinstance(action, argparse._SubParsersAction):
            continue
        assert action.help and action.help.strip(), f"{path} {action.option_strings or action.dest}: no help"
        shown = HelpFormatter(parser.prog)._get_help_string(action)
        if action.option_strings and action.default not in (None, False, [], "") and action.nargs != 0:
            assert "default" in shown.lower(), f"{path} {action.option_strings}: default not shown"
        if action.option_strings and action.required:
            assert shown.startswith("(required)"), f"{path} {action.option_strings}: not marked required"


@pytest.mark.parametrize(("path", "parser"), PARSERS, ids=IDS)
def test_out_is_a_directory_and_output_is_a_file(path, parser):
    for action in options(parser):
        if "--out" in action.option_strings:
            assert action.metavar == "DIR", f"{path}: --out must name a directory"
        if "--output" in action.option_strings:
            assert action.metavar == "FILE", f"{path}: --output must name a file"


def test_gate_shows_summary_as_required(capsys):
    with pytest.raises(SystemExit):
        cli.main(["ptq", "gate", "--help"])
    out = capsys.readouterr().out
    assert "--summary FILE" in out.split("\n\n")[0] and "[--summary" not in out  # usage: not in brackets
    assert "(required) validation summary JSON" in out


def test_deprecated_out_spelling_still_works_with_one_warning(tmp_path, capsys):
    out = tmp_path / "session_context.json"
    assert cli.main(["route", "quantize a llama model to fp8", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert out.is_file()
    assert err == (
        "quarkci: warning: --out is deprecated, use --output (the old spelling goes in the next release)\n"
    )


def test_new_output_spelling_is_silent(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert cli.main(["route", "quantize a llama model to fp8", "--output", str(out)]) == 0
    assert out.is_file() and capsys.readouterr().err == ""


def test_ptq_validate_output_is_a_hard_break_naming_checkpoint(tmp_path, capsys):
    assert cli.main(["ptq", "validate", "--source", str(tmp_path), "--output", str(tmp_path / "model")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--checkpoint DIR" in err and err.startswith("quarkci: error: --output")


def test_version_shows_quarkci_and_amd_quark_from_metadata():
    code = (
        "import sys; from quarkci import cli\n"
        "try:\n    cli.main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('quark', 'torch')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    version_line, imported = done.stdout.splitlines()
    from importlib import metadata

    from quarkci import __version__

    assert version_line == f"quarkci {__version__} (amd-quark {metadata.version('amd-quark')})"
    assert json.loads(imported.replace("'", '"')) == []


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_completes_subcommands_options_and_choices(tmp_path, capsys):
    assert cli.main(["completion", "bash"]) == 0
    script = tmp_path / "quarkci.bash"
    script.write_text(capsys.readouterr().out)
    probe = """
source "$1"
t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _quarkci; echo "${COMPREPLY[*]}"; }
t quarkci pt
t quarkci ptq va
t quarkci ptq validate --che
t quarkci sync --fail-on se
t quarkci -v sync --sk
"""
    done = subprocess.run(
        ["bash", "-c", probe, "probe", str(script)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["ptq", "validate", "--checkpoint", "semantic", "--skills"]


def test_zsh_completion_wraps_the_bash_function(capsys):
    assert cli.main(["completion", "zsh"]) == 0
    out = capsys.readouterr().out
    assert (
        out.startswith("#compdef quarkci")
        and "bashcompinit" in out
        and "complete -o default -F _quarkci" in out
    )


LEAVES = [(path, parser) for path, parser in PARSERS if path and not subparsers_of(parser)]


@pytest.mark.parametrize(("path", "parser"), LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_one_dispatch_style_every_leaf_sets_func_to_its_run_function(path, parser):
    """docs/architecture.md "Commands: one dispatch style": a leaf parser sets ``func`` to ``run`` or
    ``run_<leaf>`` of its command module, and no second callable attribute (a group-level dispatcher
    reading ``gh_run``/``report_run`` was the style this replaced)."""
    func = parser._defaults.get("func")
    assert func is not None and func.__module__ == f"quarkci.commands.{path[0].replace('-', '_')}"
    assert func.__name__ == "run" or func.__name__.startswith("run_"), func.__name__
    assert [k for k, v in parser._defaults.items() if callable(v) and k != "func"] == []


def test_no_command_module_keeps_a_group_level_dispatcher():
    """A group (ptq, contracts, gh, verify, report) has no ``run`` of its own: its leaves dispatch directly."""
    import importlib

    for group in ("ptq", "contracts", "gh", "verify", "report", "day0"):
        assert not hasattr(importlib.import_module(f"quarkci.commands.{group}"), "run"), group
