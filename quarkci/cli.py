"""quarkci: skill sync, contracts, routing, PTQ, day-0 release gates and kernel verification for AMD Quark.

The command line: parser and dispatch only, plus the one error boundary.

Each subcommand lives in ``quarkci/commands/<name>.py`` and exposes
``add_parser(subparsers) -> None`` and ``run(args) -> int``. Command modules are imported
lazily so that ``quarkci sync`` never pays for torch or quark imports made by ``quarkci ptq``.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from quarkci import __version__
from quarkci.commands.arguments import Parser
from quarkci.core.errors import EXIT_INTERNAL, QuarkciError

# name -> module; the explicit, ordered registry of subcommands.
COMMANDS: dict[str, str] = {
    "sync": "quarkci.commands.sync",
    "history": "quarkci.commands.history",
    "report": "quarkci.commands.report",
    "facts": "quarkci.commands.facts",
    "upstream": "quarkci.commands.upstream",
    "skills": "quarkci.commands.skills",
    "gh": "quarkci.commands.gh",
    "contracts": "quarkci.commands.contracts",
    "route": "quarkci.commands.route",
    "demo-model": "quarkci.commands.demo_model",
    "ptq": "quarkci.commands.ptq",
    "verify": "quarkci.commands.verify",
    "day0": "quarkci.commands.day0",
    "preflight": "quarkci.commands.preflight",
    "step-output": "quarkci.commands.step_output",
    "completion": "quarkci.commands.completion",
}
# Commands that describe the whole CLI (the completion script) get every command's parser; the others
# get only their own (argparse setup of all commands costs more than most commands' own work).
NEEDS_WHOLE_PARSER = frozenset({"completion"})


def _load(name: str) -> ModuleType:
    return importlib.import_module(COMMANDS[name])


@functools.cache
def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Build the top-level parser with every registered subcommand (or just ``only``, when it is one:
    argparse setup of all commands costs more than most commands' own work)."""
    parser = Parser(prog="quarkci", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--version",
        action="version",
        version=version_text(),
        help="print quarkci's version and the installed amd-quark's, then exit",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name in [only] if only in COMMANDS else COMMANDS:
        try:
            module = _load(name)
        except ModuleNotFoundError as exc:  # a command not built yet must not break the others
            if exc.name and exc.name.startswith("quarkci.commands"):
                continue
            raise
        module.add_parser(sub)
    parser.set_defaults(root_parser=parser)  # commands that describe the CLI itself (completion) read it
    return parser


def version_text() -> str:
    """``quarkci X (amd-quark Y)``: read from package metadata, never by importing quark."""
    from importlib import metadata

    try:
        quark = f"amd-quark {metadata.version('amd-quark')}"
    except metadata.PackageNotFoundError:
        quark = "amd-quark not installed"
    return f"quarkci {__version__} ({quark})"


def main(argv: Sequence[str] | None = None) -> int:
    """Run quarkci with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(None if command in NEEDS_WHOLE_PARSER else command)
    guard = os.environ.get("GITHUB_ACTIONS") == "true"
    saved = sys.stdout, sys.stderr
    stdout = _ClosedPipeSafe(sys.stdout)
    sys.stdout = stdout
    if guard:  # every line printed in Actions passes the one workflow-command escaper (report.lines); the
        # guard is outermost, so report.lines.emit_command finds it and writes deliberate commands past it
        from quarkci.report.lines import CommandGuard

        sys.stdout, sys.stderr = CommandGuard(stdout), CommandGuard(sys.stderr)
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # a usage error (one line already printed) is an exit code like any other;
            if not exc.code:  # --help and --version still exit
                raise
            return exc.code if isinstance(exc.code, int) else 2
        logging.basicConfig(
            level=logging.DEBUG if args.verbose else logging.WARNING,
            format="quarkci: %(levelname)s: %(message)s",
        )
        return _run(args, stdout)
    finally:
        sys.stdout.flush()  # the guard's held partial line too, when it is on
        sys.stderr.flush()
        sys.stdout, sys.stderr = saved
        if stdout.closed_early:
            _silence_stdout()


def _run(args: argparse.Namespace, stdout: _ClosedPipeSafe) -> int:
    try:
        code = args.func(args)
    except BrokenPipeError:  # stdout closed early (`quarkci ... | head -1`): a normal end, no message
        stdout.closed_early = True
        code = 0
    except QuarkciError as exc:
        print(f"quarkci: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("quarkci: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the one place a bug becomes an exit code
        where = _log_traceback()
        print(f"quarkci: internal error: {type(exc).__name__}: {exc} ({where})", file=sys.stderr)
        return EXIT_INTERNAL
    assert isinstance(code, int), f"command {args.command!r} returned {code!r}, not an exit code"
    return code


class _ClosedPipeSafe:
    """A stdout wrapper that turns writes to a closed pipe into no-ops, so a command reading
    ``| head -1`` still finishes and returns its own exit code."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped
        self.closed_early = False

    def write(self, text: str) -> int:
        if not self.closed_early:
            try:
                return int(self.wrapped.write(text))
            except BrokenPipeError:
                self.closed_early = True
        return len(text)

    def flush(self) -> None:
        if not self.closed_early:
            try:
                self.wrapped.flush()
            except BrokenPipeError:
                self.closed_early = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's final flush does not report the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (tests capture stdout)
        pass


def _log_traceback() -> str:
    """Write the current traceback to a new private file (never a fixed, symlink-able name); say where."""
    try:
        fd, path = tempfile.mkstemp(prefix="quarkci-crash-", suffix=".log")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(traceback.format_exc())
    except OSError as exc:
        return f"traceback not logged: {exc}"
    return f"traceback in {path}"


if __name__ == "__main__":
    raise SystemExit(main())
