"""The one drift pull request per skills root, built with the Git Data API (no local push).

Each PR belongs to a **key** (``gh pr --key``, default ``skill-sync``): the key names its branch
(``quarkci/<key>/<version>``) and its first-line marker (``<!-- quarkci:<key>:<version> -->``), so the
PRs of two keys never find, update or close each other (the ``verify maintain --fix`` corrections PR
runs under ``verify-<lib>`` beside the skill-sync drift PR). The default key's branch, marker, title,
body and labels are those of the drift PR before keys existed, so open drift PRs are still found.
What follows describes the drift PR; every other key behaves the same with its own branch and marker.

One drift PR is open at a time per skills root, across upstream releases: when a newer release is
audited, its PR (branch ``quarkci/skill-sync/<newer version>``) is opened and every open quarkci
drift PR for an older release of the same skills root is closed, the reason (linking the new one,
"superseded") appended to its body in the same ``PATCH``. A report for a release *older* than an open drift PR's opens nothing. The
skills root is recorded on the body's second line (``<!-- quarkci:skills-root:<root> -->``); only
PRs authored by the token's identity (:mod:`quarkci.github.identity`) are edited or closed.

The body lists the fixes ``quarkci sync --fix`` applied (the report's ``applied_fixes``: the
re-audit after ``--fix`` no longer holds those findings), truncated inside the list with a count and
a link to the full report when it is too long for GitHub.

Branch ``quarkci/skill-sync/<upstream version>`` holds the files ``quarkci sync --fix`` rewrote.
Commits are made with blobs -> tree -> commit -> ref (``POST /git/blobs``, ``/git/trees``,
``/git/commits``, ``POST``/``PATCH /git/refs``); every quarkci commit carries the trailer
``Quarkci-Sync: <version>``, which is how a human push is recognised. Checking the head commit is
enough: quarkci only ever commits on top of the base or of its own commit, so any commit by someone
else on the branch is either the head or lies under a head quarkci did not make.

Decision (:func:`decide_pr`, pure, one test per branch):

=====================================================  ==============================================
state                                                  action -> operation
=====================================================  ==============================================
no mechanical drift, PR open                           close, reason in the body -> ``closed``
no mechanical drift, no open PR                        nothing -> ``unchanged``
branch missing                                         branch from base + PR + labels -> ``created``
branch differs, head commit not quarkci's (human)      sticky comment on the PR, branch untouched
                                                       -> ``commented`` (``unchanged`` without a PR)
branch differs, head is quarkci's                      fast-forward commit; PR created or edited
                                                       -> ``updated`` (``created`` if no open PR)
branch matches, open PR matches                        nothing -> ``unchanged``
branch matches, open PR title/body/labels differ       edit PR / add labels -> ``updated``
branch matches, PR closed unmerged at this head        respect the human's close -> ``unchanged``
  (closed by quarkci itself: drift came back)           a new PR -> ``created``
branch matches, no PR                                  PR + labels -> ``created``
drift, no PR of ours, an open PR from the branch by    nothing (GitHub allows one open PR per head
  another author (a human's, even with the marker)      and base; another's PR is never edited)
                                                       -> ``unchanged``, the note names it and its
                                                       author
=====================================================  ==============================================

"Matches" compares git blob SHA-1s computed locally with the branch tree, so an identical re-run
reads and writes nothing more. An update is a fast-forward (``force: false``) on top of the
branch head, so a human push racing with quarkci makes the ref update fail (422) instead of being
overwritten. A blocked audit (upstream unreachable) never closes anything.

Concurrency and retries: ``POST /git/refs`` answering 422 "Reference already exists", ``PATCH``
answering 422 "not a fast forward", and ``POST /pulls`` answering 422 "A pull request already
exists" all mean another run (or a retried request whose response was lost) got there first:
state is read again and the decision redone (at most 3 rounds). GitHub itself refuses a second
open PR for the same head and base, so no duplicate PR can exist.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any

from github import GithubException, InputGitTreeElement, UnknownObjectException
from github.Repository import Repository

from quarkci.core import escape
from quarkci.core.errors import GitHubError
from quarkci.core.templates import template
from quarkci.github.client import Target, github_errors
from quarkci.github.comment import deliver_comment
from quarkci.github.fit import fit_body
from quarkci.github.identity import check_author, same_login
from quarkci.github.markers import (
    DEFAULT_PR_KEY,
    branch_prefix,
    first_line_marker,
    is_quarkci_commit,
    skills_root_marker,
    sync_branch,
    sync_marker,
    trailer,
)
from quarkci.github.report_input import SyncReport
from quarkci.github.result import Delivery, Item, Step

DEFAULT_LABELS = ("quarkci", "skill-sync")
CONFLICT_COMMENT = "skill-sync-conflict"


def default_labels(key: str = DEFAULT_PR_KEY) -> tuple[str, ...]:
    """The labels a PR of ``key`` gets unless ``--label`` is given: ``quarkci`` and the key itself
    (``("quarkci", "skill-sync")`` for the drift PR)."""
    return DEFAULT_LABELS if key == DEFAULT_PR_KEY else ("quarkci", key)


def conflict_comment(key: str = DEFAULT_PR_KEY) -> str:
    """The sticky comment name for a human push on a PR of ``key`` (``skill-sync-conflict`` by default)."""
    return f"{key}-conflict"


CLOSED_NOTE_MARKER = "<!-- quarkci:closed -->"


def with_note(body: str | None, note: str) -> str:
    """``body`` with ``note`` appended once under the ``<!-- quarkci:closed -->`` line (idempotent)."""
    body = (body or "").split("\n" + CLOSED_NOTE_MARKER, 1)[0].rstrip("\n")
    return f"{body}\n{CLOSED_NOTE_MARKER}\n\n---\n_{note}_\n"


_ROUNDS = 3


@dataclass(frozen=True)
class BranchState:
    """The sync branch as found: head commit, whether quarkci made it, whether its files match."""

    head_sha: str
    by_quarkci: bool
    files_match: bool


@dataclass(frozen=True)
class PullState:
    """The PR from the sync branch: the open one, else the most recent closed one."""

    number: int
    open: bool
    merged: bool
    head_sha: str
    title: str
    body: str
    labels: frozenset[str]

    @property
    def closed_by_quarkci(self) -> bool:
        """quarkci closed it (drift gone, superseded): its body carries the closed line."""
        return CLOSED_NOTE_MARKER in self.body.split("\n")


@dataclass(frozen=True)
class ForeignPull:
    """An open PR from the sync branch into the base that the token's identity did not open (a
    human's, even with quarkci's marker in its body): GitHub allows one open PR per head and base,
    so quarkci can open none there, and it never edits another author's PR."""

    number: int
    login: str
    url: str = ""


@dataclass(frozen=True)
class PullWant:
    title: str
    body: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class PrPlan:
    """``branch``: none | create | commit. ``pull``: none | create | edit | close.
    ``comment``: none | conflict. ``edit``: PR fields to change. ``reason``: for humans."""

    operation: str
    branch: str = "none"
    pull: str = "none"
    edit: tuple[str, ...] = ()
    add_labels: tuple[str, ...] = ()
    comment: str = "none"
    reason: str = ""


def _pull_changes(pull: PullState, want: PullWant) -> tuple[tuple[str, ...], tuple[str, ...]]:
    edit = tuple(f for f in ("title", "body") if getattr(pull, f) != getattr(want, f))
    return edit, tuple(label for label in want.labels if label not in pull.labels)


def decide_pr(
    has_drift: bool,
    branch: BranchState | None,
    pull: PullState | None,
    want: PullWant,
    foreign: ForeignPull | None = None,
) -> PrPlan:
    """The pure decision; see the table in the module docstring. ``foreign``: an open PR from the
    branch by another author (:class:`ForeignPull`), which leaves everything as it is."""
    open_pull = pull if pull is not None and pull.open else None
    if not has_drift:
        if open_pull:
            return PrPlan("closed", pull="close", reason="drift is gone")
        return PrPlan("unchanged", reason="no mechanical drift")
    if open_pull is None and foreign is not None:
        head = ""
        if branch is not None:
            whose = "quarkci's commit" if branch.by_quarkci else "a commit not made by quarkci"
            head = f"; the branch head {branch.head_sha[:12]} is {whose}"
        return PrPlan(
            "unchanged",
            reason=f"PR #{foreign.number} from this branch is open by {foreign.login}, not by the "
            f"token's identity (a quarkci marker in its body does not make it quarkci's){head}: "
            "left alone, branch untouched; close that PR or delete the branch for quarkci to open its own",
        )
    if branch is None:
        return PrPlan("created", branch="create", pull="create", add_labels=want.labels, reason="new branch")
    if not branch.files_match and not branch.by_quarkci:
        if open_pull:
            return PrPlan(
                "commented", comment="conflict", reason="the branch has commits not made by quarkci"
            )
        return PrPlan(
            "unchanged", reason="the branch has commits not made by quarkci and no open PR; left alone"
        )
    commit = "none" if branch.files_match else "commit"
    if open_pull:
        edit, labels = _pull_changes(open_pull, want)
        changed = commit != "none" or edit or labels
        return PrPlan(
            "updated" if changed else "unchanged",
            branch=commit,
            pull="edit" if edit else "none",
            edit=edit,
            add_labels=labels,
            reason="" if changed else "branch and PR up to date",
        )
    if (
        commit == "none"
        and pull is not None
        and pull.head_sha == branch.head_sha
        and not pull.closed_by_quarkci
    ):
        why = "already merged" if pull.merged else f"PR #{pull.number} was closed at this commit; respected"
        return PrPlan("unchanged", reason=why)
    return PrPlan("created", branch=commit, pull="create", add_labels=want.labels, reason="no open PR")


def planned_steps(
    repo_path: str,
    branch: str,
    files: dict[str, bytes],
    plan: PrPlan,
    pull_number: int | None,
    key: str = DEFAULT_PR_KEY,
    want: PullWant | None = None,
    report: SyncReport | None = None,
) -> list[Step]:
    """The writes ``plan`` performs, in order (``{new}`` for a PR number not yet known). With ``want``
    and ``report``, each step carries what it writes (commit message, PR title and body, close note)."""
    steps: list[Step] = []
    message = commit_message(report, files, key) if report is not None else ""
    if plan.branch in ("create", "commit"):
        steps += [Step("POST", f"{repo_path}/git/blobs", f"blob {p}") for p in files]
        steps.append(Step("POST", f"{repo_path}/git/trees", f"tree with {len(files)} changed file(s)"))
        steps.append(
            Step("POST", f"{repo_path}/git/commits", "commit with the Quarkci-Sync trailer", body=message)
        )
        if plan.branch == "create":
            steps.append(Step("POST", f"{repo_path}/git/refs", f"create refs/heads/{branch}"))
        else:
            steps.append(Step("PATCH", f"{repo_path}/git/refs/heads/{branch}", "fast-forward the branch"))
    number = "{new}" if plan.pull == "create" else str(pull_number)
    title, body = (want.title, want.body) if want is not None else ("", "")
    if plan.pull == "create":
        steps.append(Step("POST", f"{repo_path}/pulls", f"open PR from {branch}", title, body))
    if plan.comment == "conflict":
        steps.append(
            Step(
                "POST|PATCH",
                f"{repo_path}/issues/{number}/comments",
                f"sticky comment {conflict_comment(key)!r} (if changed)",
            )
        )
    if plan.pull == "edit":
        steps.append(
            Step(
                "PATCH",
                f"{repo_path}/pulls/{number}",
                "edit " + ", ".join(plan.edit),
                title if "title" in plan.edit else "",
                body if "body" in plan.edit else "",
            )
        )
    if plan.pull == "close":
        note = _CLOSE.format(version=escape.code(report.version)) if report is not None else ""
        steps.append(
            Step("PATCH", f"{repo_path}/pulls/{number}", "close, the reason appended to the body", body=note)
        )
    if plan.add_labels:
        steps.append(
            Step("PATCH", f"{repo_path}/issues/{number}", "add labels " + ", ".join(plan.add_labels))
        )
    return steps


# --- rendering -------------------------------------------------------------------------------------

_CLOSE = (
    "The latest audit finds no mechanical drift for amd-quark {version}: closing this PR. "
    "quarkci opens a new one if drift comes back."
)


def git_blob_sha(data: bytes) -> str:
    """The git blob SHA-1 of ``data`` (``sha1(b"blob <len>\\0" + data)``), as GitHub reports it."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def applied(report: SyncReport) -> list[str]:
    """The fixes the PR carries: ``applied_fixes`` (``file:line: description``), else, for a report
    written without ``--fix`` bookkeeping, one line per mechanical finding."""
    if report.applied_fixes:
        return list(report.applied_fixes)
    return [
        f"{(f.get('fix') or {}).get('file', f['skill'])}:{(f.get('fix') or {}).get('line', 0)}: "
        f"{f['subject']}: {f['skill_says']} -> {f['source_says']}"
        for f in report.of_kind("mechanical")
    ]


def render_body(
    report: SyncReport,
    files: dict[str, bytes],
    branch: str,
    full_report_url: str | None = None,
    key: str = DEFAULT_PR_KEY,
) -> str:
    """The PR body (Markdown, untrusted text neutralised, fitted to GitHub's limit); its first line is
    ``key``'s marker for ``report.version``."""
    name = "drift_pr.md.j2" if key == DEFAULT_PR_KEY else "corrections_pr.md.j2"
    body = template("quarkci.github", name).render(
        marker=sync_marker(report.version, key),
        root_marker=skills_root_marker(report.skills_root),
        version=report.version,
        summary=report.summary,
        baseline=report.baseline,
        fixes=applied(report),
        breaking=len(report.of_kind("breaking")),
        semantic=len(report.of_kind("semantic")),
        files=list(files),
        branch=branch,
        key=key,
    )
    return fit_body(body, full_report_url=full_report_url)


def _subject(report: SyncReport, key: str) -> str:
    if key == DEFAULT_PR_KEY:
        return f"quarkci: sync skills with amd-quark {report.version}"
    return f"quarkci: {key} corrections for {report.version}"


def render_title(report: SyncReport, key: str = DEFAULT_PR_KEY) -> str:
    """The PR title: the commit subject and the number of fixes."""
    n = len(applied(report))
    return escape.title(f"{_subject(report, key)} ({n} mechanical fixes)")


def commit_message(report: SyncReport, files: dict[str, bytes], key: str = DEFAULT_PR_KEY) -> str:
    """Commit message: subject, the changed files, and the ``Quarkci-Sync`` trailer."""
    lines = "\n".join(f"- {p}" for p in files)
    return f"{_subject(report, key)}\n\n{lines}\n\n{trailer(report.version)}\n"


# --- API helpers (one request each unless noted) ---------------------------------------------------


class _Again(Exception):
    """Another writer got there first (422 on ref create/update or PR create): read and decide again."""


def _read_branch(repo: Repository, branch: str, want: dict[str, str]) -> tuple[BranchState | None, Any, Any]:
    """GET the ref, its head commit and (recursive) tree; ``want`` maps path -> blob sha.

    Returns ``(state, head commit, ref)``; the ref object, once fetched, carries GitHub's
    ``.../git/refs/heads/...`` URL that ``PATCH`` needs (a lazy one has the ``/git/ref/`` read URL).
    """
    try:
        ref = repo.get_git_ref(f"heads/{branch}")
        head_sha = ref.object.sha
    except UnknownObjectException:
        return None, None, None
    head = repo.get_git_commit(head_sha)
    tree = repo.get_git_tree(head.tree.sha, recursive=True)
    have = {e.path: e.sha for e in tree.tree if e.type == "blob"}
    match = not tree.raw_data.get("truncated") and all(have.get(p) == s for p, s in want.items())
    return BranchState(head_sha, is_quarkci_commit(head.message), match), head, ref


def _read_pull(
    repo: Repository, target: Target, branch: str, base: str, me: str
) -> tuple[PullState | None, Any, ForeignPull | None]:
    """GET the PRs from ``owner:branch`` into ``base`` (all states): of those by ``me``, the open one,
    else the newest; and the open one by another author, if any (:class:`ForeignPull`)."""
    listed = list(repo.get_pulls(state="all", head=f"{target.owner}:{branch}", base=base))
    pulls = [p for p in listed if same_login(p.user.login if p.user else None, me)]
    mine = {p.number for p in pulls}
    foreign = next(
        (
            ForeignPull(p.number, p.user.login if p.user else "(unknown)", p.html_url or "")
            for p in sorted(listed, key=lambda p: p.number)
            if p.state == "open" and p.number not in mine
        ),
        None,
    )
    pulls.sort(key=lambda p: (p.state != "open", -p.number))
    if not pulls:
        return None, None, foreign
    p = pulls[0]
    state = PullState(
        p.number,
        p.state == "open",
        bool(p.merged_at),
        p.head.sha,
        p.title,
        p.body or "",
        frozenset(label.name for label in p.labels),
    )
    return state, p, foreign


def _write_commit(
    repo: Repository,
    files: dict[str, bytes],
    parent: Any,
    message: str,
    record: list[Step],
    steps: list[Step],
) -> str:
    """POST blobs, a tree on ``parent``'s tree, and a commit on ``parent``; returns the commit sha."""
    elements = []
    for path, data in files.items():
        blob = repo.create_git_blob(base64.b64encode(data).decode("ascii"), "base64")
        record.append(steps.pop(0))
        elements.append(InputGitTreeElement(path, "100644", "blob", sha=blob.sha))
    tree = repo.create_git_tree(elements, base_tree=parent.tree)
    record.append(steps.pop(0))
    commit = repo.create_git_commit(message, tree, [parent])
    record.append(steps.pop(0))
    return commit.sha


def _is_422(exc: GithubException, *needles: str) -> bool:
    text = str(exc.data).lower() if exc.data else ""
    return exc.status == 422 and any(n in text for n in needles)


def _newer(a: str, b: str) -> bool:
    """True when version ``a`` is newer than ``b`` (PEP 440; unparsable versions compare as text)."""
    from packaging.version import Version

    try:
        return Version(a) > Version(b)
    except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
        return a > b


def _other_drift_pulls(
    repo: Repository, branch: str, root: str, me: str, key: str = DEFAULT_PR_KEY
) -> list[tuple[str, Any]]:
    """``(version, PR)`` of every open PR of ``key`` by ``me`` for the skills root ``root`` from a
    branch other than ``branch`` (GET /pulls?state=open, paginated): its branch is under
    ``quarkci/<key>/`` and its first line is ``key``'s marker; other keys' PRs are never returned."""
    marker = skills_root_marker(root)
    prefix = branch_prefix(key)
    found = []
    for p in repo.get_pulls(state="open"):  # attributes from the listing: no request per PR
        head = p.head.ref
        if (
            not head.startswith(prefix)
            or head == branch
            or not same_login(p.user.login if p.user else None, me)
        ):
            continue
        lines = (p.body or "").split("\n")
        kind = first_line_marker(p.body)
        if kind is None or kind[0] != key:
            continue
        if len(lines) > 1 and lines[1].startswith("<!-- quarkci:skills-root:") and lines[1] != marker:
            continue
        found.append((kind[1], p))
    return found


def deliver_pr(
    repo: Repository | None,
    target: Target,
    report: SyncReport,
    files: dict[str, bytes],
    *,
    base: str | None,
    labels: tuple[str, ...] | None = None,
    dry_run: bool,
    me: str,
    full_report_url: str | None = None,
    key: str = DEFAULT_PR_KEY,
) -> Delivery:
    """Create, update, comment on or close the drift PR for ``report`` (see the module docstring), and
    close the open drift PRs of older releases for the same skills root.

    ``files`` maps repo path -> new content (from :func:`read_changed_files`). ``base`` defaults to
    the repository's default branch. ``repo`` is None for an offline dry run (no token): nothing is
    read and the plan assumes no branch and no PR exist. ``key`` (:func:`~quarkci.github.markers.pr_key`)
    names the branch and marker; ``labels`` default to :func:`default_labels`. Raises
    :class:`GitHubError` when the API refuses or when the branch keeps changing under us for 3 rounds,
    :class:`BadInputError` for a bad key.
    """
    delivery = Delivery("pr", dry_run)
    if report.blocked:
        delivery.items.append(Item("pull_request", "unchanged", note="blocked audit: nothing delivered"))
        return delivery
    branch = sync_branch(report.version, key)
    prefix = branch_prefix(key)
    has_drift = bool(files)
    want_blobs = {p: git_blob_sha(d) for p, d in files.items()}
    want = PullWant(
        render_title(report, key),
        render_body(report, files, branch, full_report_url, key),
        tuple(default_labels(key) if labels is None else labels),
    )
    repo_path = f"/repos/{target.repo}"
    if repo is None:
        plan = decide_pr(has_drift, None, None, want)
        delivery.items.append(
            Item(
                "pull_request",
                plan.operation,
                key=branch,
                note="no token: branch, PRs and the default branch not read",
            )
        )
        delivery.steps += planned_steps(repo_path, branch, files, plan, None, key, want, report)
        return delivery
    with github_errors(target, f"drift PR from {branch}"):
        others = _other_drift_pulls(repo, branch, report.skills_root, me, key)
        newer = sorted((v, p.number) for v, p in others if _newer(v, report.version))
        if newer:
            version, number = newer[-1]
            delivery.items.append(
                Item(
                    "pull_request",
                    "unchanged",
                    number=number,
                    key=branch,
                    note=f"drift PR #{number} for the newer amd-quark {version} is open; "
                    "nothing opened for an older release",
                )
            )
            return delivery
        base = base or repo.default_branch
        for _ in range(_ROUNDS):
            state, head, ref = _read_branch(repo, branch, want_blobs) if has_drift else (None, None, None)
            pull, pull_obj, foreign = _read_pull(repo, target, branch, base, me)
            plan = decide_pr(has_drift, state, pull, want, foreign)
            steps = planned_steps(
                repo_path, branch, files, plan, pull.number if pull else None, key, want, report
            )
            item = Item(
                "pull_request",
                plan.operation,
                number=pull.number if pull else None,
                url=pull_obj.html_url if pull_obj else None,
                key=branch,
                note=plan.reason,
            )
            if dry_run:
                delivery.items.append(item)
                delivery.steps += steps
                for version, old in others:
                    delivery.items.append(
                        Item(
                            "pull_request",
                            "closed",
                            number=old.number,
                            key=f"{prefix}{version}",
                            note="superseded",
                        )
                    )
                    delivery.steps.append(
                        Step(
                            "PATCH",
                            f"{repo_path}/pulls/{old.number}",
                            "close (superseded), the reason appended to the body",
                        )
                    )
                return delivery
            try:
                _execute(
                    repo,
                    target,
                    report,
                    files,
                    plan,
                    steps,
                    branch,
                    base,
                    (head, ref),
                    pull_obj,
                    want,
                    item,
                    delivery,
                    me,
                    key,
                )
            except _Again:
                continue
            delivery.items.append(item)
            _close_superseded(repo, target, report, others, item, delivery, me, key)
            return delivery
    raise GitHubError(f"drift PR from {branch}: the branch or PR kept changing during {_ROUNDS} attempts")


def _close_superseded(
    repo: Repository,
    target: Target,
    report: SyncReport,
    others: list[tuple[str, Any]],
    item: Item,
    delivery: Delivery,
    me: str,
    key: str = DEFAULT_PR_KEY,
) -> None:
    """Close the open drift PRs of older releases, each with one PATCH that also says why (in the body,
    linking the new PR: GitHub shows the cross-reference on both)."""
    prefix = branch_prefix(key)
    for version, old in others:
        if item.number is not None and item.operation != "closed":
            why = (
                f"Superseded by #{item.number}, the drift PR for amd-quark "
                f"{escape.code(report.version)}: closing this one for {escape.code(version)}."
            )
        else:
            why = (
                f"amd-quark {escape.code(report.version)} shows no mechanical drift: "
                f"closing this PR for the older {escape.code(version)}."
            )
        old.edit(state="closed", body=with_note(old.body, why))
        delivery.steps.append(
            Step(
                "PATCH",
                f"/repos/{target.repo}/pulls/{old.number}",
                "close (superseded), the reason appended to the body",
            )
        )
        delivery.items.append(
            Item(
                "pull_request",
                "closed",
                number=old.number,
                url=old.html_url,
                key=f"{prefix}{version}",
                note="superseded",
            )
        )


def _execute(
    repo: Repository,
    target: Target,
    report: SyncReport,
    files: dict[str, bytes],
    plan: PrPlan,
    steps: list[Step],
    branch: str,
    base: str,
    head_ref: tuple[Any, Any],
    pull_obj: Any,
    want: PullWant,
    item: Item,
    delivery: Delivery,
    me: str,
    key: str = DEFAULT_PR_KEY,
) -> None:
    head, ref = head_ref
    record = delivery.steps
    todo = list(steps)
    if plan.branch == "create":
        base_commit = repo.get_git_commit(repo.get_git_ref(f"heads/{base}").object.sha)
        sha = _write_commit(repo, files, base_commit, commit_message(report, files, key), record, todo)
        try:
            repo.create_git_ref(f"refs/heads/{branch}", sha)
        except GithubException as exc:
            if _is_422(exc, "already exists"):
                raise _Again from None
            raise
        record.append(todo.pop(0))
    elif plan.branch == "commit":
        sha = _write_commit(repo, files, head, commit_message(report, files, key), record, todo)
        try:
            ref.edit(sha, force=False)
        except GithubException as exc:
            if _is_422(exc, "fast forward", "fast-forward"):
                raise _Again from None
            raise
        record.append(todo.pop(0))
    if plan.pull == "create":
        try:
            pull_obj = repo.create_pull(
                base=base, head=branch, title=want.title, body=want.body, maintainer_can_modify=True
            )
        except GithubException as exc:
            if _is_422(exc, "already exists"):
                raise _Again from None
            raise
        record.append(todo.pop(0))
        item.number, item.url = pull_obj.number, pull_obj.html_url
        check_author(pull_obj, me, f"PR #{pull_obj.number} from {branch}")
    if plan.comment == "conflict":
        todo.pop(0)
        blobs = sorted((p, git_blob_sha(d)) for p, d in files.items())
        command = "`quarkci sync --fix`" if key == DEFAULT_PR_KEY else "the `--fix` run that made this report"
        body = template("quarkci.github", "pr_conflict.md.j2").render(
            version=report.version, branch=branch, head=head.sha, blobs=blobs, command=command
        )
        sticky = deliver_comment(
            repo,
            target,
            pull_obj.number,
            body,
            conflict_comment(key),
            dry_run=False,
            me=me,
            delivery=Delivery("comment", False),
        )
        record += sticky.steps
        item.operation = "commented" if sticky.operation != "unchanged" else "unchanged"
        item.note = plan.reason
    if plan.pull == "edit":
        pull_obj.edit(**{f: getattr(want, f) for f in plan.edit})
        record.append(todo.pop(0))
    if plan.pull == "close":
        # One PATCH closes and says why (in the body): a retried or late request changes nothing more,
        # where a comment posted on a PR that is then closed could be left duplicated for ever.
        note = _CLOSE.format(version=escape.code(report.version))
        pull_obj.edit(state="closed", body=with_note(pull_obj.body, note))
        record.append(todo.pop(0))
    if plan.add_labels:
        # PATCH /issues/{n} with the full label list (PyGithub's add_to_labels sends a bare array
        # that GitHub's OpenAPI description does not document).
        current = [label.name for label in pull_obj.labels]
        repo.get_issue(pull_obj.number).edit(
            labels=current + [x for x in plan.add_labels if x not in current]
        )
        record.append(todo.pop(0))
    for i, step in enumerate(record):
        if "{new}" in step.path:
            record[i] = step.with_path(step.path.replace("{new}", str(pull_obj.number)))
