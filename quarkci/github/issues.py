"""One issue per breaking finding, deduplicated by the fingerprint marker in its body.

Issues are found by listing **all** the repository's issues (all states, with or without
quarkci's labels: a human may remove them) authored by the token's identity
(:mod:`quarkci.github.identity`) and reading the marker ``<!-- quarkci:finding:<fingerprint> -->``
(or ``<!-- quarkci:finding-summary -->``) on **any** line of the body (a human may write a note
above it; that note is kept when quarkci edits the body).

Decision per fingerprint (:func:`decide_issues`, pure, one test per branch):

======================================================  =============================================
state                                                   action -> operation
======================================================  =============================================
finding, open issue with the same title/body            nothing -> ``unchanged``
finding, open issue differs                             edit -> ``updated``
finding, several open issues                            keep the oldest, close the others as
                                                        duplicates -> ``closed`` (each extra)
finding, only closed issue(s), closed by quarkci        reopen with the current body -> ``updated``
finding, a closed issue closed by a human               respected -> ``unchanged``
finding, no issue, fewer than ``--max-new`` created     create -> ``created``
finding, no issue, ``--max-new`` reached                listed in the summary issue
open issue whose finding disappeared                    close (at most ``--max-close`` per run; the
                                                        rest next run) -> ``closed``
summary issue needed / changed / no longer needed       create / edit / close
======================================================  =============================================

Titles: the body records the title quarkci wrote (``<!-- quarkci:title:<sha1-12> -->``); when the
issue's title no longer matches it, a human renamed the issue and quarkci never changes the title
again. Closing is one ``PATCH`` (the reason is appended to the body with the
``<!-- quarkci:closed -->`` line), so a run with N stale issues makes N writes, capped by
``--max-close``. "Closed by quarkci" is recognised by that line (duplicates get
``<!-- quarkci:duplicate -->`` and are never reopened).

Concurrency and retries: GitHub has no conditional create for issues, so a blindly retried
``POST /issues`` whose response was lost, or two runs creating at once, would open the same issue
twice. So a finding has at most one open issue at every moment, not only after a run, because

* a ``POST /issues`` is never retried blindly (:data:`CREATE_ONCE`, :func:`quarkci.github.client.write_once`):
  after a create that went unanswered (a timeout, a reset connection, a 5xx) the issues are listed
  again and an open issue of that fingerprint authored by the token's identity
  (:func:`find_open_issue`) is taken as the one the create made; only when there is none is the
  create sent again (a rate-limit refusal is an answer: sent again after the wait GitHub asks for);
* runs that deliver to one repository are serialised by the workflow's concurrency group
  (``skill-sync-deliver.yml``: ``quarkci-deliver-${{ github.repository }}``, never cancelled), so
  one run's listing sees every issue the previous run created;
* runs outside such a group (by hand, two workflows) can still race: after any create the issues
  are listed again and the decision re-run: the oldest open issue per fingerprint is kept and every
  later one is closed as a duplicate (pointing to the kept one). The REST API cannot delete issues,
  so such an extra stays as a *closed* duplicate, and the output names the surviving issue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from github.Repository import Repository

from quarkci.core import escape
from quarkci.core.templates import template
from quarkci.github.client import Target, WriteRefused, github_errors, write_once
from quarkci.github.fit import fit_body
from quarkci.github.identity import check_author, same_login
from quarkci.github.markers import (
    CLOSED_MARKER,
    DUPLICATE_MARKER,
    SUMMARY_MARKER,
    body_marker,
    finding_marker,
    has_line,
    recorded_title,
    title_hash,
)
from quarkci.github.report_input import SyncReport
from quarkci.github.result import Delivery, Item, Step

DEFAULT_LABELS = ("quarkci-drift", "breaking")
DEFAULT_MAX_NEW = 10
DEFAULT_MAX_CLOSE = 10
SUMMARY_KEY = "summary"
# ``connect(..., once=CREATE_ONCE)``: urllib3 never resends an issue create (see "Concurrency and retries").
CREATE_ONCE = (("POST", r"/repos/[^/]+/[^/]+/issues$"),)


@dataclass(frozen=True)
class WantIssue:
    """An issue that should exist: ``key`` is the fingerprint (or ``"summary"``)."""

    key: str
    title: str
    body: str


@dataclass(frozen=True)
class ExistingIssue:
    number: int
    key: str
    open: bool
    title: str
    body: str

    @property
    def closed_by_quarkci(self) -> bool:
        return has_line(self.body, CLOSED_MARKER)

    @property
    def duplicate(self) -> bool:
        return has_line(self.body, DUPLICATE_MARKER)


@dataclass(frozen=True)
class IssueAction:
    """``action``: create | edit | reopen | close | close-duplicate | keep.
    ``body``/``title``: what to write; ``comment``: posted before closing."""

    action: str
    key: str
    number: int | None = None
    title: str = ""
    body: str = ""
    comment: str = ""
    reason: str = ""

    @property
    def operation(self) -> str:
        return {
            "create": "created",
            "edit": "updated",
            "reopen": "updated",
            "close": "closed",
            "close-duplicate": "closed",
            "keep": "unchanged",
        }[self.action]


def compose(want: WantIssue, recorded: str, prefix: str = "") -> str:
    """The body to write: a human's ``prefix`` (text above the marker), the marker line, the
    ``recorded`` title hash, then the rest of ``want.body``."""
    marker, _, rest = want.body.partition("\n")
    return f"{prefix}{marker}\n<!-- quarkci:title:{recorded} -->\n{rest}"


def _closing(issue: ExistingIssue, note: str, marker: str) -> str:
    return issue.body.rstrip("\n") + f"\n\n---\n_{note}_\n{marker}\n"


def _update(want: WantIssue, keep: ExistingIssue) -> IssueAction:
    """Keep or edit the open issue ``keep``: a human's title and note above the marker survive."""
    recorded = recorded_title(keep.body)
    human_title = recorded is not None and recorded != title_hash(keep.title)
    title = keep.title if human_title else want.title
    marker_at = keep.body.find(want.body.partition("\n")[0])
    prefix = keep.body[:marker_at] if marker_at > 0 else ""
    body = compose(want, recorded if human_title and recorded else title_hash(title), prefix)
    if (keep.title, keep.body) == (title, body):
        return IssueAction("keep", want.key, keep.number, reason="up to date")
    why = "content changed" + ("; title renamed by a human, kept" if human_title else "")
    return IssueAction("edit", want.key, keep.number, title, body, reason=why)


def _for_want(want: WantIssue, mine: list[ExistingIssue], created: int, max_new: int) -> list[IssueAction]:
    """Actions for one wanted issue given its existing issues (any state), oldest first."""
    opened = [i for i in mine if i.open]
    if opened:
        keep, *extra = opened
        acts = [
            IssueAction(
                "close-duplicate",
                want.key,
                i.number,
                body=_closing(i, f"Duplicate of #{keep.number} (same quarkci finding).", DUPLICATE_MARKER),
                reason=f"duplicate of #{keep.number}",
            )
            for i in extra
        ]
        return [_update(want, keep), *acts]
    closed = [i for i in mine if not i.duplicate]
    if closed:
        if any(not i.closed_by_quarkci for i in closed):
            human = next(i for i in closed if not i.closed_by_quarkci)
            return [IssueAction("keep", want.key, human.number, reason="closed by a human; respected")]
        back = _update(want, closed[0])
        return [
            IssueAction(
                "reopen",
                want.key,
                closed[0].number,
                back.title or closed[0].title,
                back.body or closed[0].body,
                reason="finding is back",
            )
        ]
    if want.key != SUMMARY_KEY and created >= max_new:
        return []
    body = compose(want, title_hash(want.title))
    return [IssueAction("create", want.key, None, want.title, body, reason="new finding")]


def decide_issues(
    wanted: Sequence[WantIssue],
    existing: Sequence[ExistingIssue],
    max_new: int,
    max_close: int = DEFAULT_MAX_CLOSE,
) -> tuple[list[IssueAction], list[WantIssue]]:
    """Decide every finding issue's action (the summary issue: :func:`decide_summary`).

    ``wanted``: one per breaking finding, in report order. ``existing``: quarkci's issues found.
    Returns ``(actions, overflow)``; ``overflow`` lists the wanted issues left without one because
    ``max_new`` issues were already created in this run. At most ``max_close`` issues whose finding
    disappeared are closed (oldest first); the others get a ``keep`` action saying so.
    """
    by_key: dict[str, list[ExistingIssue]] = {}
    for issue in sorted(existing, key=lambda i: i.number):
        by_key.setdefault(issue.key, []).append(issue)
    actions: list[IssueAction] = []
    overflow: list[WantIssue] = []
    created = 0
    for want in wanted:
        acts = _for_want(want, by_key.get(want.key, []), created, max_new)
        if not acts:
            overflow.append(want)
        created += sum(1 for a in acts if a.action == "create")
        actions += acts
    keys = {w.key for w in wanted} | {SUMMARY_KEY}
    stale = sorted(
        (i for key, issues in by_key.items() if key not in keys for i in issues if i.open),
        key=lambda i: i.number,
    )
    for n, issue in enumerate(stale):
        if n >= max_close:
            actions.append(
                IssueAction(
                    "keep",
                    issue.key,
                    issue.number,
                    reason=f"finding disappeared; --max-close {max_close} reached, next run",
                )
            )
            continue
        actions.append(
            IssueAction(
                "close",
                issue.key,
                issue.number,
                body=_closing(
                    issue, "The latest quarkci audit no longer reports this finding: closing.", CLOSED_MARKER
                ),
                reason="finding disappeared",
            )
        )
    return actions, overflow


def decide_summary(summary: WantIssue | None, existing: Sequence[ExistingIssue]) -> list[IssueAction]:
    """Actions for the one summary issue: ``summary`` is None when nothing overflowed."""
    mine = sorted((i for i in existing if i.key == SUMMARY_KEY), key=lambda i: i.number)
    if summary is None:
        return [
            IssueAction(
                "close",
                SUMMARY_KEY,
                i.number,
                body=_closing(i, "Every finding now has its own issue: closing this summary.", CLOSED_MARKER),
                reason="no overflow",
            )
            for i in mine
            if i.open
        ]
    return _for_want(summary, mine, 0, 1)


# --- rendering -------------------------------------------------------------------------------------


def want_for(finding: dict[str, Any], version: str, full_report_url: str | None = None) -> WantIssue:
    """The issue wanted for one breaking finding (title and body with untrusted text neutralised)."""
    title = escape.title(
        f"quarkci: breaking drift in {finding['skill']}: {finding['rule']} {finding['subject']}"
    )
    body = fit_body(
        template("quarkci.github", "issue.md.j2").render(
            marker=finding_marker(finding["fingerprint"]), f=finding, version=version
        ),
        full_report_url=full_report_url,
        reserve=60,
    )
    return WantIssue(finding["fingerprint"], title, body)


def want_summary(
    rest: Sequence[dict[str, Any]], version: str, max_new: int, full_report_url: str | None = None
) -> WantIssue | None:
    """The one summary issue listing the findings ``rest`` left without an issue; None when empty."""
    if not rest:
        return None
    body = fit_body(
        template("quarkci.github", "issues_summary.md.j2").render(
            marker=SUMMARY_MARKER, rest=rest, version=version, max_new=max_new
        ),
        full_report_url=full_report_url,
        reserve=60,
    )
    return WantIssue(
        SUMMARY_KEY, f"quarkci: {len(rest)} more breaking drift finding(s) awaiting issues", body
    )


# --- API -------------------------------------------------------------------------------------------


def _list(repo: Repository, me: str) -> tuple[list[ExistingIssue], dict[int, Any]]:
    """GET every issue of the repository (all states, any labels; paginated) authored by ``me`` whose
    body carries a finding marker on any line. Pull requests (listed by the endpoint too) are skipped
    by their ``html_url`` (``.../pull/N``): reading ``pull_request`` of a listed issue that has none
    would make PyGithub fetch the issue again."""
    found: list[ExistingIssue] = []
    objects: dict[int, Any] = {}
    for issue in repo.get_issues(state="all", direction="asc"):
        if "/pull/" in (issue.html_url or "") or not same_login(issue.user.login if issue.user else None, me):
            continue
        marker = body_marker(issue.body)
        if marker is None:
            continue
        key = marker[1] if marker[0] == "finding" else SUMMARY_KEY
        found.append(ExistingIssue(issue.number, key, issue.state == "open", issue.title, issue.body or ""))
        objects[issue.number] = issue
    return found, objects


def find_open_issue(repo: Repository, me: str, key: str) -> Any | None:
    """The oldest open issue authored by ``me`` whose marker is ``key`` (a fingerprint, or
    ``"summary"``), as a PyGithub issue; None when there is none. Lists every issue again (GET)."""
    existing, objects = _list(repo, me)
    found = sorted(i.number for i in existing if i.key == key and i.open)
    return objects[found[0]] if found else None


def planned_steps(repo_path: str, actions: Sequence[IssueAction]) -> list[Step]:
    """The writes ``actions`` perform, in order (one request each), with the title and body each writes."""
    steps: list[Step] = []
    for a in actions:
        where = f"{repo_path}/issues/{a.number}"
        if a.action == "create":
            steps.append(Step("POST", f"{repo_path}/issues", f"create issue [{a.key}]", a.title, a.body))
        elif a.action in ("edit", "reopen"):
            steps.append(Step("PATCH", where, f"{a.action} issue [{a.key}]", a.title, a.body))
        elif a.action in ("close", "close-duplicate"):
            steps.append(Step("PATCH", where, f"close issue [{a.key}] ({a.reason})", body=a.body))
    return steps


def _apply(
    repo: Repository,
    target: Target,
    action: IssueAction,
    labels: tuple[str, ...],
    objects: dict[int, Any],
    delivery: Delivery,
    me: str,
) -> Item:
    steps = planned_steps(f"/repos/{target.repo}", [action])
    item = Item("issue", action.operation, number=action.number, key=action.key, note=action.reason)
    issue: Any
    if action.action == "create":
        log: list[str] = []
        issue = write_once(
            lambda: repo.create_issue(title=action.title, body=action.body, labels=list(labels)),
            lambda: find_open_issue(repo, me, action.key),
            WriteRefused(
                f"finding issue [{action.key}]",
                request=f"POST /repos/{target.repo}/issues",
                nothing_done="no issue was created; run again later",
            ),
            log=log,
        )
        if log:
            item.note += "; " + "; ".join(log)
        item.number = issue.number
        check_author(issue, me, f"issue #{issue.number} [{action.key}]")
    elif action.action in ("edit", "reopen"):
        issue = objects[action.number]  # type: ignore[index]
        issue.edit(title=action.title, body=action.body, state="open")
    elif action.action in ("close", "close-duplicate"):
        issue = objects[action.number]  # type: ignore[index]
        issue.edit(
            body=action.body,
            state="closed",
            state_reason="not_planned" if action.action == "close-duplicate" else "completed",
        )
    else:
        issue = objects.get(action.number) if action.number else None
    item.url = issue.html_url if issue is not None else None
    delivery.steps += [s.with_path(s.path.replace("/issues/None", f"/issues/{item.number}")) for s in steps]
    return item


def deliver_issues(
    repo: Repository | None,
    target: Target,
    report: SyncReport,
    *,
    labels: tuple[str, ...] = DEFAULT_LABELS,
    max_new: int = DEFAULT_MAX_NEW,
    max_close: int = DEFAULT_MAX_CLOSE,
    dry_run: bool,
    me: str,
    full_report_url: str | None = None,
) -> Delivery:
    """Bring the finding issues authored by ``me`` in line with ``report``'s breaking findings
    (module docstring). ``repo`` is None for an offline dry run: no issue is read, the plan assumes
    none exist. Raises :class:`GitHubError` when the API refuses.
    """
    delivery = Delivery("issues", dry_run)
    if report.blocked:
        delivery.items.append(Item("issue", "unchanged", note="blocked audit: nothing delivered"))
        return delivery
    breaking = report.of_kind("breaking")
    wanted = [want_for(f, report.version, full_report_url) for f in breaking]
    by_fp = {f["fingerprint"]: f for f in breaking}
    repo_path = f"/repos/{target.repo}"
    with github_errors(target, "finding issues"):
        existing, objects = _list(repo, me) if repo is not None else ([], {})
        actions, overflow = decide_issues(wanted, existing, max_new, max_close)
        summary = want_summary([by_fp[w.key] for w in overflow], report.version, max_new, full_report_url)
        actions += decide_summary(summary, existing)
        if dry_run or repo is None:
            note = " (no token: existing issues not read)" if repo is None else ""
            delivery.items += [
                Item("issue", a.operation, number=a.number, key=a.key, note=a.reason + note) for a in actions
            ]
            delivery.steps += planned_steps(repo_path, actions)
            return delivery
        items: dict[str, Item] = {}
        order: list[str] = []
        for action in actions:
            ident = f"{action.key}#{action.number}"
            order.append(ident)
            items[ident] = _apply(repo, target, action, labels, objects, delivery, me)
        created = {a.key: items[f"{a.key}#None"] for a in actions if a.action == "create"}
        if created:
            # Recovery pass: a concurrent run or a retried POST may have made a second issue.
            existing, objects = _list(repo, me)
            again, _ = decide_issues(wanted, existing, max_new=0, max_close=0)
            again += decide_summary(summary, existing)
            for action in again:
                if action.action in ("close-duplicate", "edit"):
                    done = _apply(repo, target, action, labels, objects, delivery, me)
                    if (
                        action.action == "close-duplicate"
                        and action.key in created
                        and created[action.key].number == action.number
                    ):
                        # We created the later copy; the surviving issue is the kept one.
                        survivor = next(
                            a for a in again if a.key == action.key and a.action in ("keep", "edit")
                        )
                        item = created[action.key]
                        item.note = (
                            f"new finding; a retried or concurrent create made #{action.number}, closed"
                        )
                        item.number = survivor.number
                        obj = objects.get(survivor.number) if survivor.number is not None else None
                        item.url = obj.html_url if obj is not None else None
                    elif action.action == "close-duplicate":
                        ident = f"{action.key}#{action.number}"
                        order.append(ident)
                        items[ident] = done
        delivery.items += [items[i] for i in dict.fromkeys(order)]
    return delivery
