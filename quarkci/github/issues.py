"""One issue per breaking finding, deduplicated by the fingerprint marker in its body.

Issues are found by listing the repository's issues (all states) carrying the primary label
(the first ``--label``, default ``quarkci-drift``) and reading the first-line marker
``<!-- quarkci:finding:<fingerprint> -->`` (or ``<!-- quarkci:finding-summary -->``).

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
open issue whose finding disappeared                    comment + close -> ``closed``
summary issue needed / changed / no longer needed       create / edit / close
======================================================  =============================================

"Closed by quarkci" is recognised by the ``<!-- quarkci:closed -->`` line quarkci appends when it
closes an issue (duplicates get ``<!-- quarkci:duplicate -->`` and are never reopened).

Concurrency and retries: GitHub has no conditional create for issues, so two concurrent runs (or a
retried ``POST /issues`` whose response was lost) can create the same issue twice. After any
create, the issues are listed again and the decision re-run: the oldest open issue per fingerprint
is kept and every later one is closed as a duplicate (with a comment pointing to the kept one).
The REST API cannot delete issues, so such an extra stays as a *closed* duplicate; there is never
more than one *open* issue per fingerprint once a run has finished.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from github.Repository import Repository
from jinja2 import Environment, StrictUndefined

from quarkci.core import escape
from quarkci.github.client import Target, github_errors
from quarkci.github.comment import deliver_comment
from quarkci.github.fit import fit_body
from quarkci.github.markers import (
    CLOSED_MARKER,
    DUPLICATE_MARKER,
    SUMMARY_MARKER,
    finding_marker,
    first_line_marker,
    has_line,
)
from quarkci.github.report_input import SyncReport
from quarkci.github.result import Delivery, Item, Step

DEFAULT_LABELS = ("quarkci-drift", "breaking")
DEFAULT_MAX_NEW = 10
SUMMARY_KEY = "summary"


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
        return {"create": "created", "edit": "updated", "reopen": "updated", "close": "closed",
                "close-duplicate": "closed", "keep": "unchanged"}[self.action]


def _for_want(want: WantIssue, mine: list[ExistingIssue], created: int, max_new: int) -> list[IssueAction]:
    """Actions for one wanted issue given its existing issues (any state), oldest first."""
    opened = [i for i in mine if i.open]
    if opened:
        keep, *extra = opened
        acts = [IssueAction("close-duplicate", want.key, i.number, body=i.body.rstrip("\n") + "\n\n" + DUPLICATE_MARKER,
                            comment=f"Duplicate of #{keep.number} (same quarkci finding).", reason="duplicate")
                for i in extra]
        if (keep.title, keep.body) == (want.title, want.body):
            return [IssueAction("keep", want.key, keep.number, reason="up to date"), *acts]
        return [IssueAction("edit", want.key, keep.number, want.title, want.body, reason="content changed"), *acts]
    closed = [i for i in mine if not i.duplicate]
    if closed:
        if any(not i.closed_by_quarkci for i in closed):
            human = next(i for i in closed if not i.closed_by_quarkci)
            return [IssueAction("keep", want.key, human.number, reason="closed by a human; respected")]
        return [IssueAction("reopen", want.key, closed[0].number, want.title, want.body, reason="finding is back")]
    if want.key != SUMMARY_KEY and created >= max_new:
        return []
    return [IssueAction("create", want.key, None, want.title, want.body, reason="new finding")]


def decide_issues(wanted: Sequence[WantIssue], existing: Sequence[ExistingIssue],
                  max_new: int) -> tuple[list[IssueAction], list[WantIssue]]:
    """Decide every finding issue's action (the summary issue: :func:`decide_summary`).

    ``wanted``: one per breaking finding, in report order. ``existing``: the labelled issues found.
    Returns ``(actions, overflow)``; ``overflow`` lists the wanted issues left without one because
    ``max_new`` issues were already created in this run.
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
    for key, issues in sorted(by_key.items()):
        if key in keys:
            continue
        for issue in issues:
            if issue.open:
                actions.append(IssueAction(
                    "close", key, issue.number, body=issue.body.rstrip("\n") + "\n\n" + CLOSED_MARKER,
                    comment="The latest quarkci audit no longer reports this finding: closing.",
                    reason="finding disappeared"))
    return actions, overflow


def decide_summary(summary: WantIssue | None, existing: Sequence[ExistingIssue]) -> list[IssueAction]:
    """Actions for the one summary issue: ``summary`` is None when nothing overflowed."""
    mine = sorted((i for i in existing if i.key == SUMMARY_KEY), key=lambda i: i.number)
    if summary is None:
        return [IssueAction("close", SUMMARY_KEY, i.number, body=i.body.rstrip("\n") + "\n\n" + CLOSED_MARKER,
                            comment="Every finding now has its own issue: closing this summary.",
                            reason="no overflow")
                for i in mine if i.open]
    return _for_want(summary, mine, 0, 1)


# --- rendering -------------------------------------------------------------------------------------

_env = Environment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True,
                   trim_blocks=True, lstrip_blocks=True)
_env.filters.update(code=escape.code, text=escape.plain, block=escape.code_block)

_ISSUE = _env.from_string("""\
{{ marker }}
**Breaking drift** between skill {{ f.skill|code }} and amd-quark {{ version|code }}
(rule {{ f.rule|code }}, category {{ f.category|code }}).

- Subject: {{ f.subject|code }}
- The skill says: {{ f.skill_says|code }}{% if f.skill_location %} at {{ (f.skill_location.file ~ ':' ~ f.skill_location.line)|code }}{% endif %}

- Upstream says: {{ f.source_says|code }}{% if f.source_location %} at {{ (f.source_location.file ~ ':' ~ f.source_location.line)|code }}{% endif %}


Impact:

{{ f.impact|block }}
Breaking findings are never fixed automatically. Update the skill by hand; quarkci closes this
issue when the finding disappears. Fingerprint: `{{ f.fingerprint }}`.
""")

_SUMMARY = _env.from_string("""\
{{ marker }}
quarkci opens at most {{ max_new }} new issues per run. These {{ rest|length }} breaking findings for
amd-quark {{ version|code }} are waiting for an issue of their own (next runs open them):

{% for f in rest %}
- {{ f.skill|code }} · {{ f.rule|code }} · {{ f.subject|code }} (fingerprint `{{ f.fingerprint }}`)
{% endfor %}
""")


def want_for(finding: dict[str, Any], version: str) -> WantIssue:
    """The issue wanted for one breaking finding (title and body with untrusted text neutralised)."""
    title = escape.title(f"quarkci: breaking drift in {finding['skill']}: {finding['rule']} {finding['subject']}")
    body = fit_body(_ISSUE.render(marker=finding_marker(finding["fingerprint"]), f=finding, version=version))
    return WantIssue(finding["fingerprint"], title, body)


def want_summary(rest: Sequence[dict[str, Any]], version: str, max_new: int) -> WantIssue | None:
    """The one summary issue listing the findings ``rest`` left without an issue; None when empty."""
    if not rest:
        return None
    body = fit_body(_SUMMARY.render(marker=SUMMARY_MARKER, rest=rest, version=version, max_new=max_new))
    return WantIssue(SUMMARY_KEY, f"quarkci: {len(rest)} more breaking drift finding(s) awaiting issues", body)


# --- API -------------------------------------------------------------------------------------------

def _list(repo: Repository, label: str) -> tuple[list[ExistingIssue], dict[int, Any]]:
    """GET every issue (all states) with ``label`` (paginated) whose first line is a finding marker.

    The issues endpoint lists PRs too; they are skipped by the marker (quarkci's PR bodies start
    with the skill-sync marker). ``issue.pull_request`` is not read: on a listed issue PyGithub
    would fetch the issue again to learn it is absent.
    """
    found: list[ExistingIssue] = []
    objects: dict[int, Any] = {}
    for issue in repo.get_issues(state="all", labels=[label]):
        marker = first_line_marker(issue.body)
        if marker is None or marker[0] not in ("finding", "finding-summary"):
            continue
        key = marker[1] if marker[0] == "finding" else SUMMARY_KEY
        found.append(ExistingIssue(issue.number, key, issue.state == "open", issue.title, issue.body or ""))
        objects[issue.number] = issue
    return found, objects


def planned_steps(repo_path: str, actions: Sequence[IssueAction]) -> list[Step]:
    """The writes ``actions`` perform, in order."""
    steps: list[Step] = []
    for a in actions:
        where = f"{repo_path}/issues/{a.number}"
        if a.action == "create":
            steps.append(Step("POST", f"{repo_path}/issues", f"create issue [{a.key}]"))
        elif a.action in ("edit", "reopen"):
            steps.append(Step("PATCH", where, f"{a.action} issue [{a.key}]"))
        elif a.action in ("close", "close-duplicate"):
            steps.append(Step("POST", f"{where}/comments", f"explain closing [{a.key}]"))
            steps.append(Step("PATCH", where, f"close issue [{a.key}] ({a.reason})"))
    return steps


def _apply(repo: Repository, target: Target, action: IssueAction, labels: tuple[str, ...],
           objects: dict[int, Any], delivery: Delivery) -> Item:
    steps = planned_steps(f"/repos/{target.repo}", [action])
    item = Item("issue", action.operation, number=action.number, key=action.key, note=action.reason)
    if action.action == "create":
        issue = repo.create_issue(title=action.title, body=action.body, labels=list(labels))
        item.number = issue.number
    elif action.action in ("edit", "reopen"):
        issue = objects[action.number]  # type: ignore[index]
        issue.edit(title=action.title, body=action.body, state="open")
    elif action.action in ("close", "close-duplicate"):
        issue = objects[action.number]  # type: ignore[index]
        # Sticky, so a retried POST whose response was lost leaves one comment, not two.
        deliver_comment(repo, target, action.number, action.comment, "closing", dry_run=False,
                        delivery=Delivery("comment", False))
        issue.edit(body=action.body, state="closed",
                   state_reason="not_planned" if action.action == "close-duplicate" else "completed")
    else:
        issue = objects.get(action.number) if action.number else None
    item.url = issue.html_url if issue is not None else None
    delivery.steps += [Step(s.method, s.path.replace("/issues/None", f"/issues/{item.number}"), s.what) for s in steps]
    return item


def deliver_issues(repo: Repository, target: Target, report: SyncReport, *, labels: tuple[str, ...] = DEFAULT_LABELS,
                   max_new: int = DEFAULT_MAX_NEW, dry_run: bool) -> Delivery:
    """Bring the finding issues in line with ``report``'s breaking findings (module docstring).

    Raises :class:`GitHubError` when the API refuses.
    """
    delivery = Delivery("issues", dry_run)
    if report.blocked:
        delivery.items.append(Item("issue", "unchanged", note="blocked audit: nothing delivered"))
        return delivery
    breaking = report.of_kind("breaking")
    wanted = [want_for(f, report.version) for f in breaking]
    by_fp = {f["fingerprint"]: f for f in breaking}
    repo_path = f"/repos/{target.repo}"
    with github_errors(target, "finding issues"):
        existing, objects = _list(repo, labels[0])
        actions, overflow = decide_issues(wanted, existing, max_new)
        summary = want_summary([by_fp[w.key] for w in overflow], report.version, max_new)
        actions += decide_summary(summary, existing)
        if dry_run:
            delivery.items += [Item("issue", a.operation, number=a.number, key=a.key, note=a.reason) for a in actions]
            delivery.steps += planned_steps(repo_path, actions)
            return delivery
        items = {}
        for action in actions:
            items[(action.key, action.number)] = _apply(repo, target, action, labels, objects, delivery)
        if any(a.action == "create" for a in actions):
            # Recovery pass: a concurrent run or a retried POST may have made a second issue.
            existing, objects = _list(repo, labels[0])
            again, _ = decide_issues(wanted, existing, max_new=0)
            again += decide_summary(summary, existing)
            for action in again:
                if action.action in ("close-duplicate", "edit"):
                    items[(action.key, action.number)] = _apply(repo, target, action, labels, objects, delivery)
        delivery.items += list(items.values())
    return delivery
