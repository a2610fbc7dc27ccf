"""The CLI wiring: every registered command dispatches, usage errors are one line with exit 2,
expected failures map to their exit code, and a bug becomes exit 4 with the traceback in a file."""

from __future__ import annotations

import argparse
import importlib

import pytest

from quarkci import cli
from quarkci.core.errors import EXIT_INTERNAL, BadInputError, UpstreamUnreachableError


def test_every_registered_command_has_a_module_with_the_command_interface():
    missing = []
    for name, module_name in cli.COMMANDS.items():
        module = importlib.import_module(module_name)
        # the interface (docs/architecture.md "Commands"): add_parser, and a run/run_<leaf> per leaf parser,
        # which tests/test_cli_conventions.py checks on the built parser
        runs = [
            n for n in dir(module) if (n == "run" or n.startswith("run_")) and callable(getattr(module, n))
        ]
        if not (callable(getattr(module, "add_parser", None)) and runs):
            missing.append(name)
    assert missing == []


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_parses_help(name, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main([name, "--help"])
    assert exc.value.code == 0
    assert name in capsys.readouterr().out


def test_unknown_command_is_usage_error(capsys):
    assert cli.main(["no-such-command"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("quarkci: error:") and err.count("\n") == 1


def _fake_parser(func):
    parser = argparse.ArgumentParser()
    parser.set_defaults(func=func, command="fake", verbose=False)
    return parser


@pytest.mark.parametrize(
    ("exc", "code"),
    [(BadInputError("bad spec 'x'"), 2), (UpstreamUnreachableError("PyPI unreachable"), 3)],
)
def test_expected_failures_map_to_exit_codes(monkeypatch, capsys, exc, code):
    def boom(args):
        raise exc

    monkeypatch.setattr(cli, "build_parser", lambda *_: _fake_parser(boom))
    assert cli.main([]) == code
    err = capsys.readouterr().err
    assert err == f"quarkci: error: {exc}\n"


def test_a_bug_is_exit_4_one_line_and_a_logged_traceback(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    def bug(args):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(cli, "build_parser", lambda *_: _fake_parser(bug))
    assert cli.main([]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "ZeroDivisionError" in err
    (log,) = tmp_path.glob("quarkci-crash-*.log")
    assert str(log) in err and "ZeroDivisionError: oops" in log.read_text()
