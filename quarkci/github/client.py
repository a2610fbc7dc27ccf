"""Connect to the GitHub REST API with PyGithub: target resolution, retry policy, error mapping.

* Token: ``GITHUB_TOKEN``, else ``GH_TOKEN``. It is held in a field excluded from ``repr`` and is
  scrubbed from every error message quarkci prints (:func:`scrub`); PyGithub's own debug log
  already replaces the ``Authorization`` header.
* API base: ``--api-url``, else ``GITHUB_API_URL``, else ``https://api.github.com`` (GitHub
  Enterprise Server: ``https://HOST/api/v3``).
* Repository: ``--repo``, else ``GITHUB_REPOSITORY`` (``owner/name``).

Retries (:class:`RetryPolicy`) use PyGithub's :class:`github.GithubRetry` (a ``urllib3.Retry``):
5xx responses, connection errors and read timeouts are retried with exponential backoff
(``backoff_factor * 2**n``, at most ``backoff_max`` seconds); a 403 is retried only when it is a
rate limit: ``Retry-After`` is honoured (capped at ``retry_after_max``), a secondary rate limit
without it waits ``secondary_rate_wait``, a primary one waits until ``X-RateLimit-Reset`` unless
that is further than ``max_rate_limit_wait`` (then it fails at once). Other 4xx (404, 409, 422
validation errors) are never retried. POST is retried too: the delivery modules recover from a
write that succeeded although its response was lost (see each module's "Concurrency and retries").
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import requests
from github import Auth, Github, GithubException, GithubRetry
from github.Repository import Repository

from quarkci.core.errors import BadInputError, GitHubError

DEFAULT_API_URL = "https://api.github.com"
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to retry; times in seconds. The defaults suit GitHub.com; tests pass tiny caps."""

    total: int = 6
    backoff_factor: float = 1.0
    backoff_max: float = 60.0
    retry_after_max: float = 120.0
    secondary_rate_wait: float = 60.0
    max_rate_limit_wait: float = 300.0
    timeout: int = 30  # PyGithub accepts whole seconds only
    seconds_between_requests: float = 0.25
    seconds_between_writes: float = 1.0

    def build(self) -> GithubRetry:
        """The ``urllib3.Retry`` handed to PyGithub (``Github(retry=...)``)."""
        return GithubRetry(
            total=self.total,
            backoff_factor=self.backoff_factor,
            backoff_max=self.backoff_max,
            retry_after_max=self.retry_after_max,  # type: ignore[arg-type]  # float works, int is typed
            secondary_rate_wait=self.secondary_rate_wait,
            max_rate_limit_wait=self.max_rate_limit_wait,
            status_forcelist=[500, 502, 503, 504],
            allowed_methods=frozenset({"GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"}),
            raise_on_status=False,
        )


DEFAULT_POLICY = RetryPolicy()


@dataclass(frozen=True)
class Target:
    """Where to deliver: API base URL, ``owner/name`` and the token (never in ``repr``)."""

    api_url: str
    repo: str
    token: str = field(repr=False)

    @property
    def owner(self) -> str:
        return self.repo.split("/", 1)[0]


def resolve_target(api_url: str | None, repo: str | None, env: Mapping[str, str] = os.environ) -> Target:
    """Build the :class:`Target` from flags and environment (see the module docstring).

    Raises :class:`BadInputError` when the token is missing or the repository is not ``owner/name``.
    """
    token = env.get("GITHUB_TOKEN") or env.get("GH_TOKEN") or ""
    if not token.strip():
        raise BadInputError("no GitHub token: set GITHUB_TOKEN or GH_TOKEN")
    repo = repo or env.get("GITHUB_REPOSITORY") or ""
    if not _REPO.match(repo):
        raise BadInputError(f"repository {repo!r} is not owner/name: pass --repo or set GITHUB_REPOSITORY")
    api = (api_url or env.get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/")
    if not api.startswith(("https://", "http://")):
        raise BadInputError(f"API URL {api!r} must start with https:// (or http:// for a local server)")
    return Target(api_url=api, repo=repo, token=token.strip())


def connect(target: Target, policy: RetryPolicy | None = None, per_page: int = 100) -> Repository:
    """A lazy PyGithub ``Repository`` for ``target`` (no request is made yet)."""
    policy = policy or DEFAULT_POLICY
    gh = Github(
        auth=Auth.Token(target.token),
        base_url=target.api_url,
        timeout=policy.timeout,
        retry=policy.build(),
        per_page=per_page,
        seconds_between_requests=policy.seconds_between_requests,
        seconds_between_writes=policy.seconds_between_writes,
        lazy=True,
    )
    return gh.get_repo(target.repo)


def scrub(text: str, token: str) -> str:
    """``text`` with every occurrence of ``token`` replaced by ``***``."""
    return text.replace(token, "***") if token else text


def api_message(exc: GithubException) -> str:
    """``"<status> <message>"`` of a PyGithub exception, without headers or request data."""
    data = exc.data if isinstance(exc.data, dict) else {}
    message = str(data.get("message") or exc.message or "no message")
    errors = data.get("errors")
    if isinstance(errors, list) and errors:
        details = [e.get("message") or e.get("code") if isinstance(e, dict) else str(e) for e in errors]
        message += " (" + "; ".join(str(d) for d in details if d) + ")"
    return f"{exc.status} {message}"


@contextlib.contextmanager
def github_errors(target: Target, doing: str) -> Iterator[None]:
    """Turn PyGithub/requests failures into :class:`GitHubError` ("<doing>: <status> <message>").

    The token is scrubbed from the message.
    """
    try:
        yield
    except GithubException as exc:
        raise GitHubError(scrub(f"{doing}: GitHub API {api_message(exc)}", target.token)) from None
    except requests.RequestException as exc:
        raise GitHubError(scrub(f"{doing}: {type(exc).__name__}: {exc}", target.token)) from None
