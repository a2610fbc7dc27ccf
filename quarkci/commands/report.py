"""``quarkci report github|markdown``: render an existing sync report for CI.

``github`` publishes a report directory to GitHub Actions (outputs, job summary, at most 10
annotations on SKILL.md lines, staging of the files ``--fix`` changed); ``markdown`` re-renders
``validation_report.md`` from the JSON twin, e.g. an untrusted artifact of a fork PR's run, or of a GPU
runner's PTQ or day-0 run (kinds ``ptq`` and ``day0``: re-rendered from the JSON records beside it,
``validation_summary.json`` with the PTQ gate re-evaluated on it, or ``day0_result.json``, through the same
escaping templates; never the ``.md`` the runner wrote).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from quarkci.commands import arguments as _args
from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import read_artifact
from quarkci.core.errors import BadInputError
from quarkci.core.paths import check_distinct_file
from quarkci.report.github_actions import publish
from quarkci.report.markdown import render_json
from quarkci.report.provenance import other_commit_reason, stale_reason


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``quarkci report github``."""
    parser = subparsers.add_parser(
        "report", help="render an existing report for a CI system", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(
        dest="report_command", metavar="TARGET", required=True, parser_class=type(parser)
    )
    github = sub.add_parser("github", help="GitHub Actions outputs, job summary and annotations")
    github.add_argument(
        "--report-dir",
        required=True,
        type=_args.as_path(_args.input_dir),
        metavar="DIR",
        help="existing directory holding validation_report.* (written by quarkci sync --out); "
        "when sync failed before writing a report, the job summary says so",
    )
    github.add_argument(
        "--stage-changed",
        type=_args.path_name,
        default="",
        metavar="DIR",
        help="copy the files --fix changed here, relative paths kept (empty: skip)",
    )
    github.add_argument(
        "--workspace",
        type=_args.as_path(_args.input_dir),
        metavar="DIR",
        default=Path(os.environ.get("GITHUB_WORKSPACE", ".")),
        help="repository root the report's skill paths resolve from (default: $GITHUB_WORKSPACE)",
    )
    github.set_defaults(func=run_github)
    markdown = sub.add_parser(
        "markdown", help="re-render validation_report.md from a (possibly untrusted) JSON report"
    )
    markdown.add_argument(
        "--report-json",
        required=True,
        type=_args.as_path(_args.input_file),
        metavar="FILE",
        help="validation_report.json to read",
    )
    markdown.add_argument(
        "--output",
        dest="out",
        required=True,
        type=_args.as_path(_args.output_file),
        metavar="FILE",
        help="Markdown file to write (atomically)",
    )
    markdown.add_argument(
        "--expect-run",
        default="",
        metavar="RUN",
        help="refuse (exit 2) a report whose run_id is not run RUN's, e.g. the triggering run's "
        "'<id>.<attempt>' in a workflow_run publisher, so a stale report is never posted (empty: no check)",
    )
    markdown.add_argument(
        "--expect-head-sha",
        default="",
        metavar="SHA",
        help="refuse (exit 2) a report whose head_sha is not SHA (the commit the publishing workflow trusts "
        "for the run, e.g. workflow_run.head_sha), before the comment's PR head is checked against it "
        "(empty: no check)",
    )
    markdown.deprecate("--out", "--output")
    markdown.set_defaults(func=run_markdown)


def run_github(args: argparse.Namespace) -> int:
    """``report github``: annotations, job summary and staged changed files from a report directory."""
    return publish(args.report_dir, args.workspace, args.stage_changed)


def run_markdown(args: argparse.Namespace) -> int:
    """``report markdown``: validation_report.md rendered from a validation_report.json (with
    ``--expect-run``, only from run RUN's report: :mod:`quarkci.report.provenance`)."""
    check_distinct_file(args.out, "--output", args.report_json, "--report-json")
    try:  # the one reading path: bounded load, then the validation_report contract (one line, $.path)
        payload = read_artifact("validation_report", args.report_json)
    except BadInputError as exc:
        raise BadInputError(f"--report-json {exc}") from None
    if stale := stale_reason(payload, args.expect_run.strip()):
        raise BadInputError(
            f"--report-json {args.report_json}: not run {args.expect_run.strip()}'s report: {stale}"
        )
    if other := other_commit_reason(payload, args.expect_head_sha.strip()):
        raise BadInputError(f"--report-json {args.report_json}: not this commit's report: {other}")
    kind = payload.get("kind")
    if kind in RELEASE_KINDS:
        markdown = _render_release(str(kind), Path(args.report_json).parent, args.report_json)
    else:
        markdown = render_json(payload, str(args.report_json))
    atomic_write_text(args.out, markdown)
    return 0


RELEASE_KINDS = ("ptq", "day0")


def _render_release(kind: str, directory: Path, report_json: Path) -> str:
    """The PTQ or day-0 Markdown from the JSON records beside ``report_json`` (read through their
    contracts), rendered by the report's own escaping template. The PTQ gate is evaluated again here, with
    its defaults (what ``ptq.yml`` runs), on the measured summary, so the verdict shown is not the runner's
    word. Raises :class:`BadInputError` naming ``--report-json`` when a record is missing or invalid."""
    from quarkci.core.documents import read_artifact

    name = "validation_summary.json" if kind == "ptq" else "day0_result.json"
    record = directory / name
    if not record.is_file():
        raise BadInputError(f"--report-json {report_json}: a {kind} report needs {name} beside it")
    document = read_artifact(name.removesuffix(".json"), record)
    try:
        if kind == "ptq":
            from quarkci.commands.ptq import judge_summary  # the gate stage, run where its command lives
            from quarkci.report import ptq as ptq_report

            return ptq_report.render(document, judge_summary(document))
        from quarkci.report import day0 as day0_report

        return day0_report.render(document)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BadInputError(
            f"--report-json {report_json}: {name} lacks what the report shows ({exc})"
        ) from None
