"""``quarkci gh``: deliver findings on GitHub (drift PR, finding issues, sticky comment, dispatch).

Subcommands (each prints its operation -- created | updated | unchanged | closed | commented --
or, with ``--json``, a JSON object; ``--dry-run`` reads, decides, prints the exact planned writes
and performs none)::

    quarkci gh pr       [--report FILE] [--root DIR] [--key KEY] [--base BRANCH] [--label L ...] [--full-report-url URL]
    quarkci gh issues   [--report FILE] [--label L ...] [--max-new N] [--max-close N] [--full-report-url URL]
    quarkci gh comment  --pr N --body-file FILE [--name NAME] [--full-report-url URL]
    quarkci gh dispatch --workflow FILE --ref REF [--input k=v ...] [--offer k=v ...]
    quarkci gh release-mark --version V [--check]

Common: token from ``GITHUB_TOKEN`` or ``GH_TOKEN`` (a ``--dry-run`` needs none: it then reads
nothing and says so); ``--api-url`` (else ``GITHUB_API_URL``, else https://api.github.com);
``--repo owner/name`` (else ``GITHUB_REPOSITORY``); ``--login`` / ``--app-slug``: whose comments,
issues and PRs are quarkci's (default: the token's login as GitHub names it, GraphQL ``viewer { login }``).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from quarkci.commands import arguments as _args
from quarkci.core.documents import MAX_DOCUMENT_BYTES, read_capped
from quarkci.core.errors import BadInputError
from quarkci.core.paths import repository_root

MAX_BODY_FILE_BYTES = (
    1024 * 1024
)  # a sticky comment body; GitHub keeps 65536 characters, the rest is shortened

EXIT_CODES = """\
exit codes:
  0  delivered, or nothing to do
  2  bad input, or GitHub refused the request: 401 token rejected, 403 permission missing,
     404 repository/PR/workflow not found or not visible to the token, 422 validation
  3  GitHub unreachable after retries: connection refused, DNS failure, timeout, 5xx, rate limit
"""

REPORT_DEFAULT = "reports/validation_report.json"


def _common(p: argparse.ArgumentParser, identity: bool = True) -> None:
    p.epilog = EXIT_CODES
    p.add_argument(
        "--repo",
        metavar="OWNER/NAME",
        type=_args.repository,
        help="the repository (default: $GITHUB_REPOSITORY)",
    )
    p.add_argument(
        "--api-url",
        metavar="URL",
        help="REST API base URL (default: $GITHUB_API_URL or https://api.github.com)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the planned writes, perform none; without a token, reads are skipped and said",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    if identity:
        p.add_argument(
            "--login",
            help="the login the token acts as: only its comments/issues/PRs are edited "
            "(default: $QUARKCI_GH_LOGIN, else the token's login as GitHub's "
            "GraphQL viewer names it)",
        )
        p.add_argument(
            "--app-slug",
            help="a GitHub App installation token's app slug: acts as SLUG[bot] "
            "(default: $QUARKCI_GH_APP_SLUG; not needed: GitHub names the login)",
        )


def _report_url(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--full-report-url",
        metavar="URL",
        help="where the full report lives (an https URL), linked where a body is shortened "
        "(default: this Actions run's URL when known)",
    )


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``gh`` and its subcommands."""
    gh = subparsers.add_parser("gh", help="deliver findings on GitHub", description=__doc__.splitlines()[0])
    sub = gh.add_subparsers(dest="gh_command", metavar="SUBCOMMAND", parser_class=type(gh))
    sub.required = True

    pr = sub.add_parser("pr", help="create/update/close the one drift PR (Git Data API)")
    _common(pr)
    pr.add_argument(
        "--report",
        default=REPORT_DEFAULT,
        metavar="FILE",
        type=_args.input_file,
        help=f"validation report JSON, at most {MAX_DOCUMENT_BYTES} bytes (default: {REPORT_DEFAULT})",
    )
    pr.add_argument(
        "--root",
        default=None,
        metavar="DIR",
        type=_args.input_dir,
        help="repository checkout the report's changed_files are relative to (default: the git "
        "repository holding the current directory, else .)",
    )
    pr.add_argument("--base", metavar="BRANCH", help="base branch (default: the repository's default branch)")
    pr.add_argument(
        "--key",
        default="skill-sync",
        metavar="KEY",
        type=_pr_key,
        help="whose PR this is: names its branch quarkci/KEY/<version> and its hidden marker, so PRs "
        "of two keys never touch each other; 1-40 of [a-z0-9-] (default: skill-sync, the drift "
        "PR; e.g. verify-quark-kernels for `verify maintain --fix` corrections)",
    )
    pr.add_argument(
        "--label",
        action="append",
        metavar="LABEL",
        help="PR label (repeatable; default: quarkci and the key)",
    )
    _report_url(pr)
    pr.set_defaults(func=run_pr)

    issues = sub.add_parser("issues", help="one deduplicated issue per breaking finding")
    _common(issues)
    issues.add_argument(
        "--report",
        default=REPORT_DEFAULT,
        metavar="FILE",
        type=_args.input_file,
        help=f"validation report JSON, at most {MAX_DOCUMENT_BYTES} bytes (default: {REPORT_DEFAULT})",
    )
    issues.add_argument(
        "--label",
        action="append",
        metavar="LABEL",
        help="issue label (repeatable; the first one finds quarkci's issues; "
        "default: quarkci-drift, breaking)",
    )
    issues.add_argument(
        "--max-new",
        type=_args.non_negative_int,
        default=10,
        metavar="N",
        help="new issues per run, an integer >= 0; the rest go in one summary issue (default: 10)",
    )
    issues.add_argument(
        "--max-close",
        type=_args.non_negative_int,
        default=10,
        metavar="N",
        help="issues closed per run because their finding disappeared, an integer >= 0; "
        "the rest next run (default: 10)",
    )
    _report_url(issues)
    issues.set_defaults(func=run_issues)

    comment = sub.add_parser("comment", help="create or edit one sticky comment on a PR or issue")
    _common(comment)
    comment.add_argument(
        "--pr", type=_args.positive_int, required=True, metavar="N", help="PR (or issue) number"
    )
    comment.add_argument(
        "--body-file",
        required=True,
        metavar="FILE",
        type=_args.input_file_at_most(MAX_BODY_FILE_BYTES, stdin=True),
        help=f"Markdown body, UTF-8, at most {MAX_BODY_FILE_BYTES} bytes ('-' reads stdin); a "
        "body over GitHub's 65536-character limit is shortened with a link to the full report",
    )
    comment.add_argument(
        "--name",
        default="report",
        metavar="NAME",
        help="sticky comment name: letters, digits, '-', '_' (default: report)",
    )
    comment.add_argument(
        "--expect-head-sha",
        metavar="SHA",
        help="refuse (exit 2, no write) unless the PR's head commit is SHA: a PR number read "
        "from an untrusted artifact cannot aim the comment at another PR",
    )
    _report_url(comment)
    comment.set_defaults(func=run_comment)

    dispatch = sub.add_parser(
        "dispatch", help="trigger one workflow_dispatch run (correlation id, no double run)"
    )
    _common(dispatch, identity=False)
    dispatch.add_argument(
        "--workflow",
        required=True,
        metavar="FILE|ID",
        help="workflow file name (e.g. release.yml) or numeric id",
    )
    dispatch.add_argument("--ref", required=True, metavar="REF", help="branch or tag to run on")
    dispatch.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="workflow input; refused (exit 2) unless the workflow declares it (repeatable; default: none)",
    )
    dispatch.add_argument(
        "--offer",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="input sent only if the workflow declares it (repeatable; default: none)",
    )
    dispatch.add_argument(
        "--correlation-id",
        default=None,
        metavar="ID",
        help="the id the run is found by (1-64 of [A-Za-z0-9_.-]); default: derived from the workflow, "
        "ref and inputs, so a repeated identical dispatch finds the first run instead of starting another; "
        "a new id dispatches anew",
    )
    dispatch.set_defaults(func=run_dispatch)

    mark = sub.add_parser(
        "release-mark", help="record an upstream release as handled (tag quarkci-handled/V)"
    )
    _common(mark, identity=False)
    mark.add_argument("--version", required=True, help="upstream version, e.g. 0.13")
    mark.add_argument(
        "--check",
        action="store_true",
        help="only read the record: prints 'handled' or 'not handled' in the item's note; no write",
    )
    mark.set_defaults(func=run_mark)


def _pr_key(value: str) -> str:
    """``--key`` checked at parse time (:func:`quarkci.github.markers.pr_key`)."""
    from quarkci.github.markers import pr_key

    try:
        return pr_key(value)
    except BadInputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--key ")) from None


def _url(value: str | None) -> str | None:
    """``--full-report-url`` checked (an https URL of at most 160 characters), else this run's URL."""
    if value is not None and (
        not value.startswith("https://") or len(value) > 160 or any(c.isspace() for c in value)
    ):
        raise BadInputError(f"--full-report-url {value!r} must be an https URL of at most 160 characters")
    return value or _default_run_url()


def _run_pr(args: argparse.Namespace, repo: Any, target: Any, me: Callable[[], str]) -> Any:
    from quarkci.github.pr import deliver_pr
    from quarkci.github.report_input import load_report, read_changed_files

    url = _url(args.full_report_url)
    report = load_report(args.report)
    root = args.root or repository_root(Path.cwd()) or Path(".")
    files = {} if report.blocked else read_changed_files(report, root)
    if (report.of_kind("mechanical") or report.applied_fixes) and not files:
        raise BadInputError(
            f"--report {args.report}: mechanical findings but no changed_files: "
            "run `quarkci sync --fix` (or `quarkci verify maintain --fix`) first"
        )
    return deliver_pr(
        repo,
        target,
        report,
        files,
        base=args.base,
        labels=tuple(args.label) if args.label else None,
        dry_run=args.dry_run,
        me=me(),
        full_report_url=url,
        key=args.key,
    )


def _run_issues(args: argparse.Namespace, repo: Any, target: Any, me: Callable[[], str]) -> Any:
    from quarkci.github.issues import DEFAULT_LABELS, deliver_issues
    from quarkci.github.report_input import load_report

    if args.max_new < 0:
        raise BadInputError("--max-new must be >= 0")
    if args.max_close < 0:
        raise BadInputError("--max-close must be >= 0")
    url = _url(args.full_report_url)
    report = load_report(args.report)
    return deliver_issues(
        repo,
        target,
        report,
        labels=tuple(args.label or DEFAULT_LABELS),
        max_new=args.max_new,
        max_close=args.max_close,
        dry_run=args.dry_run,
        me=me(),
        full_report_url=url,
    )


def _default_run_url(env: Mapping[str, str] = os.environ) -> str | None:
    server, repo, run_id = (
        env.get("GITHUB_SERVER_URL"),
        env.get("GITHUB_REPOSITORY"),
        env.get("GITHUB_RUN_ID"),
    )
    return f"{server}/{repo}/actions/runs/{run_id}" if server and repo and run_id else None


def _run_comment(args: argparse.Namespace, repo: Any, target: Any, me: Callable[[], str]) -> Any:
    from quarkci.github.comment import deliver_comment
    from quarkci.github.markers import report_marker

    report_marker(args.name)  # validate before any request
    if args.pr < 1:
        raise BadInputError("--pr must be a positive number")
    url = _url(args.full_report_url)
    body = read_body(args.body_file)
    if not body.strip():
        raise BadInputError(f"--body-file {args.body_file} is empty")
    if args.expect_head_sha and repo is not None:
        _check_head(repo, target, args.pr, args.expect_head_sha)
    return deliver_comment(
        repo, target, args.pr, body, args.name, dry_run=args.dry_run, me=me(), full_report_url=url
    )


def read_body(source: str, limit: int = MAX_BODY_FILE_BYTES) -> str:
    """The UTF-8 text of ``--body-file`` ``source`` (``-``: standard input), read up to ``limit`` bytes.

    Raises :class:`BadInputError` naming ``--body-file`` when it holds more than ``limit`` bytes (a file
    that grew after the parse-time check, or standard input), is not UTF-8, or cannot be read.
    """
    if source == "-" and not hasattr(sys.stdin, "buffer"):  # a text stream (tests): bounded all the same
        data = read_capped(io.BytesIO(sys.stdin.read(limit + 1).encode("utf-8")), limit, "--body-file -")
    else:
        data = read_capped(sys.stdin.buffer if source == "-" else source, limit, f"--body-file {source}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"--body-file {source}: not UTF-8 text (byte {exc.start})") from None


def _check_head(repo: Any, target: Any, number: int, expected: str) -> None:
    """Raise :class:`BadInputError` unless PR ``number``'s head commit is ``expected`` (a full SHA)."""
    from quarkci.github.client import github_errors

    with github_errors(target, f"pull request #{number}"):
        head = repo.get_pull(number).head.sha
    if head.lower() != expected.strip().lower():
        raise BadInputError(
            f"pull request #{number} is at {head[:12]}, not the audited commit "
            f"{expected.strip()[:12]}: refusing to comment"
        )


def _run_dispatch(args: argparse.Namespace, repo: Any, target: Any, me: Callable[[], str]) -> Any:
    from quarkci.github.dispatch import deliver_dispatch, parse_inputs

    inputs = parse_inputs(args.input)
    offers = parse_inputs(args.offer, "--offer")
    return deliver_dispatch(
        repo,
        target,
        args.workflow,
        args.ref,
        inputs,
        offers=offers,
        dry_run=args.dry_run,
        correlation=args.correlation_id,
    )


def _run_mark(args: argparse.Namespace, repo: Any, target: Any, me: Callable[[], str]) -> Any:
    from quarkci.github.handled import mark_handled, tag_for

    tag_for(args.version)  # validate before any request
    return mark_handled(repo, target, args.version, dry_run=args.dry_run, check_only=args.check)


def run_pr(args: argparse.Namespace) -> int:
    """``gh pr``: create, update or close the one PR of ``--key``. Returns 0; errors raise."""
    return _deliver(args, _run_pr)


def run_issues(args: argparse.Namespace) -> int:
    """``gh issues``: one deduplicated issue per breaking finding. Returns 0; errors raise."""
    from quarkci.github.issues import CREATE_ONCE

    return _deliver(args, _run_issues, once=CREATE_ONCE)


def run_comment(args: argparse.Namespace) -> int:
    """``gh comment``: create or edit the one sticky comment. Returns 0; errors raise."""
    return _deliver(args, _run_comment)


def run_dispatch(args: argparse.Namespace) -> int:
    """``gh dispatch``: trigger one workflow_dispatch run; its write is never retried (no double run)."""
    return _deliver(args, _run_dispatch, retry_writes=False)


def run_mark(args: argparse.Namespace) -> int:
    """``gh release-mark``: record an upstream release as handled. Returns 0; errors raise."""
    return _deliver(args, _run_mark)


def _deliver(
    args: argparse.Namespace,
    handler: Callable[..., Any],
    retry_writes: bool = True,
    once: Sequence[tuple[str, str]] = (),
) -> int:
    """Resolve the target, run ``handler``, print its result. Returns 0; errors raise.
    ``retry_writes``, ``once``: which requests urllib3 may resend (:func:`quarkci.github.client.connect`).

    Without a token (``--dry-run`` only) nothing is read from the API and the output says so.
    """
    from quarkci.github import client, identity

    target = client.resolve_target(args.api_url, args.repo, dry_run=args.dry_run)
    login, app_slug = identity.check_login_flags(
        getattr(args, "login", None), getattr(args, "app_slug", None)
    )
    repo = None
    if not target.offline:
        repo = client.connect(target, retry_writes=retry_writes, once=once)

    found: list[str] = []

    def me() -> str:  # asked at most once per run (a GraphQL request unless --login/--app-slug)
        if not found:
            found.append(identity.token_login(repo, target, login, app_slug))
        return found[0]

    delivery = handler(args, repo, target, me)
    out = delivery.to_json() if args.json else delivery.to_text()
    if target.offline and not args.json:
        out += "\n  (no token: reads that need the API were skipped; the plan assumes nothing exists yet)"
    print(client.scrub(out, target.token))
    return 0
