"""``quarkci sync``: audit agent skills against an upstream Quark release and write the report.

Shape: parse -> :class:`~quarkci.sync.run.SyncRequest` -> :func:`~quarkci.sync.run.run_sync` (the use
case) -> write the reports -> print -> exit code. Progress goes to stderr; ``--json`` prints the JSON
report on stdout.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quarkci.commands import arguments as _args
from quarkci.core.errors import EXIT_FINDINGS, EXIT_OK, EXIT_UPSTREAM_UNREACHABLE
from quarkci.core.paths import check_output_outside_skills
from quarkci.report import lines
from quarkci.report.dto import build
from quarkci.report.write import REPORT_MD, write_reports
from quarkci.sync.policy import FAIL_ON, load_config
from quarkci.sync.run import SyncRequest, SyncResult, run_sync
from quarkci.upstream.resolve import SPEC_HELP

DEFAULT_UPSTREAM = "amd-quark"
DEFAULT_OUT = "reports"


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``quarkci sync``."""
    p = subparsers.add_parser(
        "sync",
        help="audit skills against an upstream Quark release (the main job)",
        description="Audit agent skills against an upstream Quark release and write "
        "validation_report.md/.json (exit 0 clean, 1 findings at or above --fail-on, "
        "2 bad input, 3 upstream unreachable: a blocked-audit report is still written, 4 internal error).",
    )
    p.add_argument(
        "--upstream",
        default=DEFAULT_UPSTREAM,
        metavar="SPEC",
        type=_args.upstream_spec,
        help=f"the Quark release to audit against: {SPEC_HELP} (default: newest amd-quark on PyPI)",
    )
    p.add_argument(
        "--skills",
        default=None,
        metavar="DIR|bundled:SPEC",
        type=_args.skills_spec,
        help="skills to audit: a directory holding SKILL.md files, or bundled:SPEC for a release's "
        "bundled skills (default: the upstream release's bundled skills)",
    )
    p.add_argument(
        "--baseline",
        default=None,
        metavar="FILE|SPEC",
        type=_args.baseline_spec,
        help="a stored baseline JSON file, an upstream spec, or 'none' to skip the release diff "
        "(offline runs) (default: the previous release, from OUT/baselines/<version>.json "
        "when recorded)",
    )
    p.add_argument(
        "--record-baseline",
        dest="record_baseline",
        action="store_true",
        help="record OUT/baselines/<upstream version>.json (also done when no baseline exists)",
    )
    p.deprecate("--calibrate", "--record-baseline")
    p.add_argument(
        "--fix",
        action="store_true",
        help="apply mechanical fixes to the SKILL.md files in place (needs --skills DIR)",
    )
    p.add_argument(
        "--out",
        default=DEFAULT_OUT,
        metavar="DIR",
        type=_args.output_dir,
        help="report directory: validation_report.md/.json/.sarif and baselines/ (default: reports/)",
    )
    p.add_argument("--json", action="store_true", help="print the JSON report on stdout")
    p.add_argument(
        "--fail-on",
        default="breaking",
        choices=FAIL_ON,
        help="exit 1 when a finding of this kind or worse exists (default: breaking)",
    )
    p.set_defaults(func=run)


def progress(message: str) -> None:
    """One progress line on stderr."""
    print(f"quarkci: {message}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """argparse entry point: a :class:`SyncRequest`, :func:`run_sync`, then :func:`render`."""
    if args.skills is not None and not args.skills.startswith("bundled:"):  # before any slow work:
        check_output_outside_skills(args.out, "--out", args.skills, "--skills")
        load_config(
            Path(args.skills)
        )  # the audited repository's .quarkci.yaml / [tool.quarkci], read again later
    request = SyncRequest(
        upstream=args.upstream,
        skills=args.skills,
        baseline=args.baseline,
        record_baseline=args.record_baseline,
        fix=args.fix,
        out=Path(args.out),
        fail_on=args.fail_on,
    )
    return render(run_sync(request, progress=progress), request.out, as_json=args.json)


def render(result: SyncResult, out: Path, *, as_json: bool) -> int:
    """Write ``out/validation_report.{json,md,sarif}``, print the findings (or the JSON report with
    ``as_json``) and return the exit code: 3 blocked, 1 a finding at or above ``--fail-on``, else 0.
    Raises :class:`~quarkci.core.errors.BadInputError` when ``out`` cannot be written."""
    outcome = result.outcome
    json_text, _ = write_reports(outcome, out, result.report_prefix)
    if as_json:
        sys.stdout.write(json_text)
    if result.blocked_reason is not None:
        print(
            f"quarkci: error: upstream unreachable: {result.blocked_reason}; blocked-audit report in {out}",
            file=sys.stderr,
        )
        return EXIT_UPSTREAM_UNREACHABLE
    if not as_json:
        sys.stdout.write(lines.canonical(outcome.findings.drift()))
        print(f"{build(outcome).summary} -> {out / REPORT_MD}")
    for skill in outcome.skills:  # each is also a skill-unreadable finding: --fail-on decides the exit code
        if skill.error:
            print(f"quarkci: skill unreadable: {skill.path}: {skill.error}", file=sys.stderr)
    return EXIT_FINDINGS if result.failed else EXIT_OK
