"""``quarkci preflight``: the GPU workflows' preflight (``actions/gpu-preflight``), before any job reaches a
runner: refuse pull-request events, map the ``runner`` input to runs-on labels, name the runner in records,
check the shared inputs, and resolve the amd-quark requirement the runner installs (wheels only, hashed).

Prints each value as ``name=value``; ``--github-output`` also writes them as step outputs (``labels``,
``gpu``, ``slug``, ``quark-version``, ``quark-requirement``); ``--json`` prints them as one JSON object.
Exit 0; 2 for a refused event or a bad input (one line naming the flag, nothing written).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from quarkci.commands import arguments as _args
from quarkci.core.errors import BadInputError
from quarkci.core.escape import log_line
from quarkci.core.step_outputs import require_output_file, write_outputs
from quarkci.github import preflight
from quarkci.upstream import pin


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``quarkci preflight``."""
    parser = subparsers.add_parser(
        "preflight",
        help="the GPU workflows' preflight: event, runner labels, records name, amd-quark pin",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument(
        "--event",
        required=True,
        metavar="EVENT",
        help="the triggering event (github.event_name); pull_request and its family are refused",
    )
    parser.add_argument(
        "--runner",
        required=True,
        metavar="RUNNER",
        help="a runner kind (cpu, mi300x, mi355x, h100, h200), or your labels as a comma list "
        '(self-hosted,gpu-pool-a) or a JSON array (["self-hosted", "gpu-pool-a"])',
    )
    parser.add_argument("--scheme", default="", help="Quark scheme name to check (empty: none)")
    parser.add_argument("--pr", default="", metavar="N", help="pull-request number to check (empty: none)")
    parser.add_argument(
        "--correlation-id", default="", metavar="ID", help="correlation id to check (empty: none)"
    )
    parser.add_argument(
        "--quark-version",
        default="",
        metavar="V",
        help="amd-quark release the runner installs (empty: the one setup-quarkci installs from the lock)",
    )
    parser.add_argument(
        "--quark-sha256",
        default="",
        metavar="HASHES",
        help="sha256 of the release's wheels, comma-separated (needed when the lock does not pin it)",
    )
    parser.add_argument(
        "--lock",
        type=_args.as_path(_args.input_file),
        default=None,
        metavar="FILE",
        help="hashed lock that pins amd-quark (requirements/ml.lock); required with --quark-version",
    )
    parser.add_argument(
        "--github-output", action="store_true", help="also write the values as step outputs ($GITHUB_OUTPUT)"
    )
    parser.add_argument("--json", action="store_true", help="print the values as one JSON object")
    parser.set_defaults(func=run)


def _requirement(args: argparse.Namespace) -> str:
    version = args.quark_version
    given = pin.parse_sha256s(args.quark_sha256, "--quark-sha256")
    if not version:
        if given:
            raise BadInputError("--quark-sha256 needs --quark-version (the release it pins)")
        return ""
    lock: Path | None = args.lock
    if lock is None:
        raise BadInputError("--lock: required with --quark-version (the lock that pins amd-quark)")
    return pin.resolve(version, given, pin.read_lock(lock)).requirement()


def run(args: argparse.Namespace) -> int:
    """Check everything, then print (and with ``--github-output`` write) the values. Raises
    :class:`~quarkci.core.errors.BadInputError` (exit 2, nothing written) for a refused event or bad input."""
    target = require_output_file() if args.github_output else None
    preflight.check_event(args.event)
    runner = preflight.parse_runner(args.runner)
    preflight.check_input(
        "--scheme", args.scheme, preflight.SCHEME, "a Quark scheme name (letters, digits, _)"
    )
    preflight.check_input("--pr", args.pr, preflight.PR_NUMBER, "a pull-request number")
    preflight.check_input(
        "--correlation-id", args.correlation_id, preflight.CORRELATION_ID, "1-64 of [A-Za-z0-9_.-]"
    )
    preflight.check_input(
        "--quark-version", args.quark_version, preflight.QUARK_VERSION, "a release number such as 0.13"
    )
    values = {
        "labels": runner.labels_json(),
        "gpu": "true" if runner.gpu else "false",
        "slug": runner.slug,
        "quark-version": args.quark_version,
        "quark-requirement": _requirement(args),
    }
    if target is not None:
        write_outputs(values, target)
    if args.json:
        print(json.dumps(values, indent=2))
    else:
        for name, value in values.items():
            print(log_line(f"{name}={value}"))
    return 0
