"""``quarkci upstream``: amd-quark releases on PyPI (used by the scheduled upstream watch).

``quarkci upstream latest [--json]`` prints the newest final release (and the one before it);
``quarkci upstream versions [--json]`` prints every final, non-yanked release, oldest first.
Exit 0; 3 when PyPI is unreachable.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from quarkci.commands.arguments import Subparsers
from quarkci.upstream.fetch import PROJECT
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
