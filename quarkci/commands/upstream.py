"""``quarkci upstream``: amd-quark releases on PyPI (used by the scheduled upstream watch).

``quarkci upstream latest [--json]`` prints the newest final release (and the one before it);
``quarkci upstream versions [--json]`` prints every final, non-yanked release, oldest first;
``quarkci upstream wheel-sha256 --version V [--json] [--github-output]`` prints the sha256 of each of the
release's wheels, comma-separated (what a hashed install of that release accepts; the watch passes it to
the workflows it dispatches as ``quark-sha256``).
Exit 0; 2 for a bad version; 3 when PyPI is unreachable or lists no wheel of the release.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from quarkci.commands.arguments import Subparsers
from quarkci.core.step_outputs import require_output_file, write_outputs
from quarkci.upstream.fetch import PROJECT
from quarkci.upstream.pin import check_version, wheel_sha256s
from quarkci.upstream.pypi import PyPIIndex


def add_parser(subparsers: Subparsers) -> None:
    """Register ``upstream latest|versions`` on the top-level subparsers."""
    parser = subparsers.add_parser(
        "upstream", help="list amd-quark releases on PyPI", description=__doc__.splitlines()[0]
    )
    actions = parser.add_subparsers(dest="upstream_command", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    for name, helptext in (
        ("latest", "the newest amd-quark release"),
        ("versions", "every amd-quark release"),
    ):
        action = actions.add_parser(name, help=helptext)
        action.add_argument("--json", action="store_true", help="machine output on stdout")
        action.set_defaults(func=run)
    hashes = actions.add_parser(
        "wheel-sha256", help="the sha256 of a release's wheels (for a hashed install)"
    )
    hashes.add_argument("--version", required=True, metavar="V", help="the release, e.g. 0.13")
    hashes.add_argument("--json", action="store_true", help="machine output on stdout")
    hashes.add_argument(
        "--github-output",
        action="store_true",
        help="also write the digests as the step output sha256 ($GITHUB_OUTPUT)",
    )
    hashes.set_defaults(func=run_wheel_sha256)


def run_wheel_sha256(args: argparse.Namespace, index: PyPIIndex | None = None) -> int:
    """Print the sha256 of every wheel of ``--version`` on the index. Raises BadInputError for a bad
    version or ``--github-output`` outside Actions, UpstreamUnreachableError when the index is down or lists
    no wheel of the release."""
    target = require_output_file() if args.github_output else None
    version = check_version(args.version, "--version")
    digests = ",".join(wheel_sha256s((index or PyPIIndex()).document(), version))
    if target is not None:
        write_outputs({"sha256": digests}, target)
    payload = {"project": PROJECT, "version": version, "sha256": digests.split(",")}
    print(json.dumps(payload, indent=2) if args.json else digests)
    return 0


def run(args: argparse.Namespace, index: PyPIIndex | None = None) -> int:
    """Print the newest release or every release. Raises UpstreamUnreachableError when PyPI is down."""
    index = index or PyPIIndex()
    if args.upstream_command == "latest":
        newest = index.newest()
        previous = index.previous(newest)
        payload: dict[str, Any] = {
            "project": PROJECT,
            "version": str(newest),
            "previous": str(previous) if previous else None,
        }
        text = str(newest)
    else:
        versions = [str(v) for v in index.versions()]
        payload = {"project": PROJECT, "versions": versions}
        text = "\n".join(versions)
    print(json.dumps(payload, indent=2) if args.json else text)
    return 0
