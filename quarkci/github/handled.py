"""Which upstream releases the upstream watch has handled: a durable record the next run reads back.

A handled release ``V`` is the lightweight tag ``refs/tags/quarkci-handled/V`` (on the default
branch's head at the time). The watch's detect job reads it with ``contents: read``
(``GET /git/ref/tags/quarkci-handled/V``: 200 handled, 404 not); the record job writes it with
``contents: write`` once the audit, the delivery and the release dispatch succeeded
(``POST /git/refs``; a 422 "Reference already exists" means another run recorded it: unchanged).
A tag pushed with the Actions token starts no workflow, and deleting the tag makes the watch handle
the release again.
"""

from __future__ import annotations

from github import GithubException, UnknownObjectException
from github.Repository import Repository

from quarkci.github.client import Target, github_errors
from quarkci.github.markers import sync_branch
from quarkci.github.result import Delivery, Item, Step

TAG_PREFIX = "quarkci-handled/"


def tag_for(version: str) -> str:
    """``quarkci-handled/<version>``. Raises :class:`BadInputError` for a version that cannot name a ref."""
    sync_branch(version)  # the same ref-safety rule as the drift branch
    return TAG_PREFIX + version


def is_handled(repo: Repository, target: Target, version: str) -> bool:
    """True when the release ``version`` carries the handled tag (one GET)."""
    tag = tag_for(version)
    with github_errors(target, f"release record {tag}"):
        try:
            # PyGithub's lazy objects fetch on first attribute access: read one to make the GET.
            return bool(repo.get_git_ref(f"tags/{tag}").object.sha)
        except UnknownObjectException:
            return False


def mark_handled(
    repo: Repository | None, target: Target, version: str, *, dry_run: bool, check_only: bool = False
) -> Delivery:
    """Record ``version`` as handled (or, with ``check_only``, only report whether it is).

    ``repo`` is None for an offline dry run. Raises :class:`GitHubError` when the API refuses.
    """
    tag = tag_for(version)
    delivery = Delivery("release-mark", dry_run or check_only)
    step = Step(
        "POST", f"/repos/{target.repo}/git/refs", f"create refs/tags/{tag} on the default branch's head"
    )
    if repo is None:
        if check_only:  # a check never writes, so it plans nothing
            delivery.items.append(Item("tag", "unchanged", key=tag, note="no token: the record was not read"))
            return delivery
        delivery.items.append(Item("tag", "created", key=tag, note="no token: the record was not read"))
        delivery.steps.append(step)
        return delivery
    if is_handled(repo, target, version):
        delivery.items.append(Item("tag", "unchanged", key=tag, note="handled"))
        return delivery
    if check_only:
        delivery.items.append(Item("tag", "unchanged", key=tag, note="not handled"))
        return delivery
    delivery.items.append(Item("tag", "created", key=tag))
    delivery.steps.append(step)
    if dry_run:
        return delivery
    with github_errors(target, f"release record {tag}"):
        head = repo.get_git_ref(f"heads/{repo.default_branch}").object.sha
        try:
            repo.create_git_ref(f"refs/tags/{tag}", head)
        except GithubException as exc:
            if exc.status == 422 and "already exists" in str(exc.data).lower():
                delivery.items[-1] = Item("tag", "unchanged", key=tag, note="recorded by another run")
                delivery.steps.clear()
                return delivery
            raise
    return delivery
