"""The ``quarkci`` command line: parser and dispatch only, plus the one error boundary.

Each subcommand lives in ``quarkci/commands/<name>.py`` and exposes
``add_parser(subparsers) -> None`` and ``run(args) -> int``. Command modules are imported
lazily so that ``quarkci sync`` never pays for torch or quark imports made by ``quarkci ptq``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence

from quarkci import __version__
from quarkci.core.errors import EXIT_INTERNAL, QuarkciError

# name -> module; the explicit, ordered registry of subcommands.
COMMANDS: dict[str, str] = {
    "sync": "quarkci.commands.sync",
    "report": "quarkci.commands.report",
    "facts": "quarkci.commands.facts",
    "upstream": "quarkci.commands.upstream",
    "skills": "quarkci.commands.skills",
    "gh": "quarkci.commands.gh",
    "contracts": "quarkci.commands.contracts",
    "route": "quarkci.commands.route",
    "demo-model": "quarkci.commands.demo_model",
    "ptq": "quarkci.commands.ptq",
    "day0": "quarkci.commands.day0",
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"quarkci: error: {message}\n")


def _load(name: str):
    return importlib.import_module(COMMANDS[name])


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every registered subcommand."""
    parser = _Parser(prog="quarkci", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"quarkci {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        try:
            module = _load(name)
        except ModuleNotFoundError as exc:  # a command not built yet must not break the others
            if exc.name and exc.name.startswith("quarkci.commands"):
                continue
            raise
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run quarkci with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="quarkci: %(levelname)s: %(message)s",
    )
    try:
        code = args.func(args)
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
