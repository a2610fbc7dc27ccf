"""``quarkci report github``: publish a sync report directory to GitHub Actions (outputs, job
summary, at most 10 annotations on SKILL.md lines, staging of the files ``--fix`` changed)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from quarkci.report.github_actions import publish


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``quarkci report github``."""
    parser = subparsers.add_parser("report", help="render an existing report for a CI system",
                                   description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="report_command", metavar="TARGET", required=True)
    github = sub.add_parser("github", help="GitHub Actions outputs, job summary and annotations")
    github.add_argument("--report-dir", required=True, type=Path, help="directory holding validation_report.*")
    github.add_argument("--stage-changed", default="", metavar="DIR",
                        help="copy the files --fix changed here, relative paths kept (empty: skip)")
    github.add_argument("--workspace", type=Path, default=Path(os.environ.get("GITHUB_WORKSPACE", ".")),
                        help="repository root the report's skill paths resolve from (default: $GITHUB_WORKSPACE)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Dispatch ``quarkci report <target>``."""
    return publish(args.report_dir, args.workspace, args.stage_changed)
