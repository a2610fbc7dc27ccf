"""``quarkci step-output NAME=VALUE ...``: write GitHub Actions step outputs through the one writer.

For values a workflow step computes in shell (a dispatch input, a pull-request number read from an
artifact): each ``NAME=VALUE`` is appended to ``$GITHUB_OUTPUT`` by :mod:`quarkci.core.step_outputs`, in the
heredoc form with a fresh random delimiter, so a value holding a newline cannot forge another output.
Exit 0; 2 for a bad argument or outside an Actions step (one line, nothing written).
"""

from __future__ import annotations

import argparse

from quarkci.commands import arguments as _args
from quarkci.core.errors import BadInputError
from quarkci.core.step_outputs import require_output_file, write_outputs

# GitHub keeps at most 1 MB of outputs per job ("Workflow commands", "Setting an output parameter").
MAX_BYTES = 1 << 20


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``quarkci step-output``."""
    parser = subparsers.add_parser(
        "step-output",
        help="write GitHub Actions step outputs (NAME=VALUE ...) through quarkci's one writer",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "pairs", nargs="+", metavar="NAME=VALUE", help="an output name and its value (VALUE may be empty)"
    )
    parser.set_defaults(func=run)


def parse_pairs(pairs: list[str]) -> dict[str, str]:
    """``["a=1", "b="]`` -> ``{"a": "1", "b": ""}`` (in order). Raises :class:`BadInputError` for an
    argument without ``=``, a name given twice, or more than :data:`MAX_BYTES` of values."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq:
            raise BadInputError(f"NAME=VALUE: {pair[:60]!r} has no '='")
        if name in out:
            raise BadInputError(f"NAME=VALUE: {name[:60]!r} is given twice")
        out[name] = value
    if sum(len(v.encode("utf-8", "surrogateescape")) for v in out.values()) > MAX_BYTES:
        raise BadInputError(f"NAME=VALUE: the values exceed {MAX_BYTES} bytes (GitHub's limit per job)")
    return out


def run(args: argparse.Namespace) -> int:
    """Write ``args.pairs`` as step outputs; 0, or :class:`BadInputError` (exit 2) before writing."""
    values = parse_pairs(list(args.pairs))
    target = require_output_file("step-output")
    write_outputs(values, target)
    return 0
