"""``quarkci gh``: deliver findings on GitHub (drift PR, finding issues, sticky comment, dispatch).

Subcommands (each prints its operation -- created | updated | unchanged | closed | commented --
or, with ``--json``, a JSON object; ``--dry-run`` reads, decides, prints the exact planned writes
and performs none)::

    quarkci gh pr       [--report FILE] [--root DIR] [--base BRANCH] [--label L ...]
    quarkci gh issues   [--report FILE] [--label L ...] [--max-new N]
    quarkci gh comment  --pr N --body-file FILE [--name NAME] [--full-report-url URL]
    quarkci gh dispatch --workflow FILE --ref REF [--input k=v ...]

Common: token from ``GITHUB_TOKEN`` or ``GH_TOKEN``; ``--api-url`` (else ``GITHUB_API_URL``, else
https://api.github.com); ``--repo owner/name`` (else ``GITHUB_REPOSITORY``).
Exit codes: 0 delivered (or nothing to do); 2 bad input or GitHub refused the request.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from quarkci.commands import arguments as _args
from quarkci.core.errors import BadInputError

REPORT_DEFAULT = "reports/validation_report.json"


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repo", metavar="OWNER/NAME", type=_args.repository, help="the repository (default: $GITHUB_REPOSITORY)")
    p.add_argument("--api-url", metavar="URL",
                   help="REST API base URL (default: $GITHUB_API_URL or https://api.github.com)")
    p.add_argument("--dry-run", action="store_true", help="print the planned writes, perform none")
    p.add_argument("--json", action="store_true", help="print the result as JSON on stdout")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``gh`` and its subcommands."""
    gh = subparsers.add_parser("gh", help="deliver findings on GitHub", description=__doc__.splitlines()[0])
    sub = gh.add_subparsers(dest="gh_command", metavar="SUBCOMMAND", parser_class=type(gh))
    sub.required = True

    pr = sub.add_parser("pr", help="create/update/close the one drift PR (Git Data API)")
    _common(pr)
    pr.add_argument("--report", default=REPORT_DEFAULT, metavar="FILE", type=_args.input_file,
                    help=f"validation report JSON (default: {REPORT_DEFAULT})")
    pr.add_argument("--root", default=".", metavar="DIR", type=_args.input_dir, help="checkout holding the changed files (default: .)")
    pr.add_argument("--base", metavar="BRANCH", help="base branch (default: the repository's default branch)")
    pr.add_argument("--label", action="append", metavar="LABEL",
                    help="PR label (repeatable; default: quarkci, skill-sync)")
    pr.set_defaults(func=run, gh_run=_run_pr)

    issues = sub.add_parser("issues", help="one deduplicated issue per breaking finding")
    _common(issues)
    issues.add_argument("--report", default=REPORT_DEFAULT, metavar="FILE", type=_args.input_file,
                        help=f"validation report JSON (default: {REPORT_DEFAULT})")
    issues.add_argument("--label", action="append", metavar="LABEL",
                        help="issue label (repeatable; the first one finds quarkci's issues; "
                             "default: quarkci-drift, breaking)")
    issues.add_argument("--max-new", type=_args.non_negative_int, default=10, metavar="N",
                        help="new issues per run, an integer >= 0; the rest go in one summary issue (default: 10)")
    issues.set_defaults(func=run, gh_run=_run_issues)

    comment = sub.add_parser("comment", help="create or edit one sticky comment on a PR or issue")
    _common(comment)
    comment.add_argument("--pr", type=_args.positive_int, required=True, metavar="N", help="PR (or issue) number")
    comment.add_argument("--body-file", required=True, metavar="FILE", type=_args.input_file_or_stdin, help="Markdown body ('-' reads stdin)")
    comment.add_argument("--name", default="report", metavar="NAME",
                         help="sticky comment name: letters, digits, '-', '_' (default: report)")
    comment.add_argument("--expect-head-sha", metavar="SHA",
                         help="refuse (exit 2, no write) unless the PR's head commit is SHA: a PR number read "
                              "from an untrusted artifact cannot aim the comment at another PR")
    comment.add_argument("--full-report-url", metavar="URL",
                         help="where the full report lives, quoted if the body must be shortened "
                              "(default: this Actions run's URL when known)")
    comment.set_defaults(func=run, gh_run=_run_comment)

    dispatch = sub.add_parser("dispatch", help="trigger a workflow_dispatch run")
    _common(dispatch)
    dispatch.add_argument("--workflow", required=True, metavar="FILE|ID",
                          help="workflow file name (e.g. release.yml) or numeric id")
    dispatch.add_argument("--ref", required=True, metavar="REF", help="branch or tag to run on")
    dispatch.add_argument("--input", action="append", default=[], metavar="KEY=VALUE",
                          help="workflow input (repeatable; default: none)")
    dispatch.set_defaults(func=run, gh_run=_run_dispatch)


def _run_pr(args, repo, target):
    from quarkci.github.pr import DEFAULT_LABELS, deliver_pr
    from quarkci.github.report_input import load_report, read_changed_files

    report = load_report(args.report)
    files = {} if report.blocked else read_changed_files(report, args.root)
    if report.of_kind("mechanical") and not files:
        raise BadInputError(f"{args.report}: mechanical findings but no changed_files: run `quarkci sync --fix` first")
    return deliver_pr(repo, target, report, files, base=args.base, labels=tuple(args.label or DEFAULT_LABELS),
                      dry_run=args.dry_run)


def _run_issues(args, repo, target):
    from quarkci.github.issues import DEFAULT_LABELS, deliver_issues
    from quarkci.github.report_input import load_report

    if args.max_new < 0:
        raise BadInputError("--max-new must be >= 0")
    report = load_report(args.report)
    return deliver_issues(repo, target, report, labels=tuple(args.label or DEFAULT_LABELS), max_new=args.max_new,
                          dry_run=args.dry_run)


def _default_run_url(env=os.environ) -> str | None:
    server, repo, run_id = env.get("GITHUB_SERVER_URL"), env.get("GITHUB_REPOSITORY"), env.get("GITHUB_RUN_ID")
    return f"{server}/{repo}/actions/runs/{run_id}" if server and repo and run_id else None


def _run_comment(args, repo, target):
    from quarkci.github.comment import deliver_comment
    from quarkci.github.markers import report_marker

    report_marker(args.name)  # validate before any request
    if args.pr < 1:
        raise BadInputError("--pr must be a positive number")
    try:
        body = sys.stdin.read() if args.body_file == "-" else Path(args.body_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"--body-file {args.body_file}: {exc}") from None
    if not body.strip():
        raise BadInputError(f"--body-file {args.body_file} is empty")
    if args.expect_head_sha:
        _check_head(repo, target, args.pr, args.expect_head_sha)
    return deliver_comment(repo, target, args.pr, body, args.name, dry_run=args.dry_run,
                           full_report_url=args.full_report_url or _default_run_url())


def _check_head(repo, target, number: int, expected: str) -> None:
    """Raise :class:`BadInputError` unless PR ``number``'s head commit is ``expected`` (a full SHA)."""
    from quarkci.github.client import github_errors

    with github_errors(target, f"pull request #{number}"):
        head = repo.get_pull(number).head.sha
    if head.lower() != expected.strip().lower():
        raise BadInputError(f"pull request #{number} is at {head[:12]}, not the audited commit "
                            f"{expected.strip()[:12]}: refusing to comment")


def _run_dispatch(args, repo, target):
    from quarkci.github.dispatch import deliver_dispatch, parse_inputs

    return deliver_dispatch(repo, target, args.workflow, args.ref, parse_inputs(args.input), dry_run=args.dry_run)


def run(args: argparse.Namespace) -> int:
    """Resolve the target, run the subcommand, print its result. Returns 0; errors raise."""
    from quarkci.github import client

    target = client.resolve_target(args.api_url, args.repo)
    repo = client.connect(target)
    delivery = args.gh_run(args, repo, target)
    out = delivery.to_json() if args.json else delivery.to_text()
    print(client.scrub(out, target.token))
    return 0
