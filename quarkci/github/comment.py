"""One sticky comment per name on an issue or pull request, edited in place.

The comment is found by the marker ``<!-- quarkci:report:<name> -->`` on its first line
(:mod:`quarkci.github.markers`), so several reports (``--name``) can live on one PR. Only comments
**authored by the token's identity** (:mod:`quarkci.github.identity`) count: anyone can paste the
marker into a comment of their own, and such a comment is never edited or deleted.

:func:`decide_comment` is the pure decision (one test per branch); :func:`deliver_comment` reads
the comments, decides, and performs the writes.

Concurrency and retries: PyGithub retries a POST whose response was lost, and two runs may create
a comment at the same moment. After creating, the comments are listed again; the oldest
marked comment (lowest id) is kept and given the new body, later ones are deleted. Deleting is
idempotent (a 404 on DELETE counts as done).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from github import GithubException
from github.Repository import Repository

from quarkci.github.client import Target, github_errors
from quarkci.github.fit import fit_body
from quarkci.github.identity import check_author, same_login
from quarkci.github.markers import first_line_marker, report_marker
from quarkci.github.result import Delivery, Item, Step


@dataclass(frozen=True)
class ExistingComment:
    """A comment already on the issue: ``id``, ``body`` and its author's ``login``."""

    id: int
    body: str
    login: str = ""


@dataclass(frozen=True)
class CommentPlan:
    """``operation``: created | updated | unchanged. ``update_id``: comment to edit (or None);
    ``create``: post a new comment; ``delete_ids``: extra marked comments to remove."""

    operation: str
    create: bool = False
    update_id: int | None = None
    delete_ids: tuple[int, ...] = ()


def with_marker(body: str, name: str) -> str:
    """``body`` with the report marker as its first line (added once)."""
    marker = report_marker(name)
    return body if body.split("\n", 1)[0] == marker else f"{marker}\n{body}"


def marked(comments: Sequence[ExistingComment], name: str, me: str) -> list[ExistingComment]:
    """The comments by ``me`` whose first line is the marker of ``name``, oldest (lowest id) first."""
    return sorted(
        (c for c in comments if first_line_marker(c.body) == ("report", name) and same_login(c.login, me)),
        key=lambda c: c.id,
    )


def decide_comment(existing: Sequence[ExistingComment], body: str) -> CommentPlan:
    """Decide what to do given the marked comments ``existing`` and the wanted ``body``.

    * none                       -> create
    * oldest has ``body``        -> unchanged (extras, if any, deleted)
    * oldest differs             -> update it (extras deleted)
    """
    if not existing:
        return CommentPlan("created", create=True)
    keep, *extra = sorted(existing, key=lambda c: c.id)
    delete = tuple(c.id for c in extra)
    if keep.body == body:
        return CommentPlan("updated" if delete else "unchanged", delete_ids=delete)
    return CommentPlan("updated", update_id=keep.id, delete_ids=delete)


def planned_steps(repo_path: str, number: int, plan: CommentPlan, body: str = "") -> list[Step]:
    """The writes ``plan`` performs, in order; ``body`` is the comment each create or edit writes."""
    steps = []
    if plan.create:
        steps.append(
            Step("POST", f"{repo_path}/issues/{number}/comments", "create sticky comment", body=body)
        )
    if plan.update_id is not None:
        steps.append(
            Step("PATCH", f"{repo_path}/issues/comments/{plan.update_id}", "edit sticky comment", body=body)
        )
    steps += [
        Step("DELETE", f"{repo_path}/issues/comments/{i}", "delete duplicate comment")
        for i in plan.delete_ids
    ]
    return steps


def _list(repo: Repository, number: int, name: str, me: str) -> tuple[list[ExistingComment], dict[int, Any]]:
    objects = {c.id: c for c in repo.get_issue(number).get_comments()}
    existing = [ExistingComment(i, c.body or "", c.user.login if c.user else "") for i, c in objects.items()]
    return marked(existing, name, me), objects


def _delete(comment: object) -> None:
    try:
        comment.delete()  # type: ignore[attr-defined]
    except GithubException as exc:
        if exc.status != 404:
            raise


def deliver_comment(
    repo: Repository | None,
    target: Target,
    number: int,
    body: str,
    name: str,
    *,
    dry_run: bool,
    me: str,
    full_report_url: str | None = None,
    delivery: Delivery | None = None,
) -> Delivery:
    """Create, update or leave the sticky comment ``name`` by ``me`` on issue/PR ``number``.

    ``body`` is prefixed with the marker and fitted to GitHub's limit (:func:`fit_body`). Returns the
    :class:`Delivery` (a new one unless ``delivery`` is given; one item is appended). ``repo`` is
    None for an offline dry run (no token): the comments are not read and the plan assumes none.
    Raises :class:`GitHubError` when the API refuses (e.g. 404 for a missing PR).
    """
    delivery = delivery or Delivery("comment", dry_run)
    repo_path = f"/repos/{target.repo}"
    wanted = fit_body(with_marker(body, name), full_report_url=full_report_url)
    if repo is None:
        plan = decide_comment([], wanted)
        delivery.items.append(
            Item(
                "comment",
                plan.operation,
                number=number,
                key=name,
                note="no token: existing comments not read",
            )
        )
        delivery.steps += planned_steps(repo_path, number, plan, wanted)
        return delivery
    with github_errors(target, f"sticky comment {name!r} on #{number}"):
        existing, objects = _list(repo, number, name, me)
        plan = decide_comment(existing, wanted)
        steps = planned_steps(repo_path, number, plan, wanted)
        item = Item("comment", plan.operation, number=number, key=name)
        delivery.items.append(item)
        if dry_run:
            delivery.steps += steps
            return delivery
        if plan.create:
            created = repo.get_issue(number).create_comment(wanted)
            delivery.steps += steps[:1]
            check_author(created, me, f"sticky comment {name!r} on #{number} ({created.html_url})")
            item.url = created.html_url
            # Recover from a concurrent run or a retried POST: keep the oldest, delete the rest.
            existing, objects = _list(repo, number, name, me)
            plan = decide_comment(existing, wanted)
        if plan.update_id is not None:
            objects[plan.update_id].edit(wanted)
            delivery.steps.append(
                Step("PATCH", f"{repo_path}/issues/comments/{plan.update_id}", "edit sticky comment")
            )
        for cid in plan.delete_ids:
            _delete(objects[cid])
            delivery.steps.append(
                Step("DELETE", f"{repo_path}/issues/comments/{cid}", "delete duplicate comment")
            )
        if existing:
            item.url = objects[existing[0].id].html_url
    return delivery
