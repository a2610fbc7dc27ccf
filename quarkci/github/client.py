"""Connect to the GitHub REST API with PyGithub: target resolution, retry policy, error mapping.

* Token: ``GITHUB_TOKEN``, else ``GH_TOKEN``. It is held in a field excluded from ``repr`` and is
  scrubbed from every error message quarkci prints (:func:`scrub`); PyGithub's own debug log
  already replaces the ``Authorization`` header.
* API base: ``--api-url``, else ``GITHUB_API_URL``, else ``https://api.github.com`` (GitHub
  Enterprise Server: ``https://HOST/api/v3``).
* Repository: ``--repo``, else ``GITHUB_REPOSITORY`` (``owner/name``).

Retries (:class:`RetryPolicy`) use PyGithub's :class:`github.GithubRetry` (a ``urllib3.Retry``):
5xx responses, connection errors and read timeouts are retried with exponential backoff
(``backoff_factor * 2**n``, at most ``backoff_max`` seconds), except a host name that does not resolve
(DNS): a mistyped ``--api-url`` or a runner without DNS does not heal in a minute, so it fails at once
(exit 3) instead of backing off for ~60 s; a 403 is retried only when it is a
rate limit: ``Retry-After`` is honoured (capped at ``retry_after_max``), a secondary rate limit
without it waits ``secondary_rate_wait``, a primary one waits until ``X-RateLimit-Reset`` unless
that is further than ``max_rate_limit_wait`` (then it fails at once). Other 4xx (404, 409, 422
validation errors) are never retried. POST is retried too: the delivery modules recover from a
write that succeeded although its response was lost (see each module's "Concurrency and retries"),
except the one write that cannot be recovered that way, ``workflow_dispatch``
(:mod:`quarkci.github.dispatch` connects with ``retry_writes=False`` and looks up the run by its
correlation id before any retry). Each retry prints exactly one line (``quarkci: WARNING: retry``).

Failures map to the exit codes of :mod:`quarkci.core.errors` (:func:`github_errors`):

====================================================  ====  ========================================
failure (after retries)                               exit  message names
====================================================  ====  ========================================
connection refused, timeout (after retries)           3     the API URL and the network error
host name not resolvable (DNS; never retried)         3     the API URL and the resolver's error
5xx, rate limit not lifted in time                    3     the status and GitHub's message
401 (token rejected)                                  2     "the token was rejected"
403 (not a rate limit: permission missing)            2     the permission the request needs
404 (repository, workflow, PR or issue not visible)   2     what was not found
422 and other 4xx (GitHub refused the request)        2     GitHub's validation message
====================================================  ====  ========================================
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import requests
from github import Auth, Github, GithubException, GithubRetry, RateLimitExceededException
from github.Repository import Repository
from urllib3.exceptions import MaxRetryError, NameResolutionError
from urllib3.util.retry import Retry

from quarkci.core.errors import BadInputError, GitHubError, UpstreamUnreachableError

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

    def build(self, retry_writes: bool = True) -> GithubRetry:
        """The ``urllib3.Retry`` handed to PyGithub (``Github(retry=...)``); without ``retry_writes``
        only reads (GET, HEAD) are retried."""
        methods = {"GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"} if retry_writes else {"GET", "HEAD"}
        return _OneLineRetry(
            total=self.total,
            backoff_factor=self.backoff_factor,
            backoff_max=self.backoff_max,
            retry_after_max=self.retry_after_max,
            secondary_rate_wait=self.secondary_rate_wait,
            max_rate_limit_wait=self.max_rate_limit_wait,
            status_forcelist=[500, 502, 503, 504],
            allowed_methods=frozenset(methods),
            raise_on_status=False,
        )


_log = logging.getLogger("quarkci.github")


class _OneLineRetry(GithubRetry):
    """PyGithub's retry policy, printing one ``retry`` line per retry (urllib3 and PyGithub print two
    or more, silenced in :func:`connect`)."""

    def increment(  # type: ignore[override]
        self,
        method: str | None = None,
        url: str | None = None,
        response: Any = None,
        error: Exception | None = None,
        _pool: Any = None,
        _stacktrace: Any = None,
    ) -> Retry:
        if error is not None and name_not_resolved(error):
            raise MaxRetryError(_pool, url or "", error)  # not transient: no retry, no backoff
        retry = super().increment(method, url, response, error, _pool, _stacktrace)
        why = (
            f"HTTP {response.status}" if response is not None else type(error).__name__ if error else "retry"
        )
        done = len(retry.history)
        limit = done + (retry.total if isinstance(retry.total, int) else 0)
        path = urllib.parse.urlsplit(url or "").path
        _log.warning("retry %d/%d: %s %s answered %s", done, limit, method, path, why)
        return retry


DEFAULT_POLICY = RetryPolicy()


def name_not_resolved(error: BaseException) -> bool:
    """Whether ``error`` (a requests/urllib3 exception, or anything wrapping one through ``reason``,
    ``args`` or ``__cause__``/``__context__``) is a failure to resolve a host name (``socket.gaierror``)."""
    seen: set[int] = set()
    todo: list[object] = [error]
    while todo:
        current = todo.pop()
        if id(current) in seen or not isinstance(current, BaseException):
            continue
        seen.add(id(current))
        if isinstance(current, NameResolutionError | socket.gaierror):
            return True
        todo += [getattr(current, "reason", None), current.__cause__, current.__context__, *current.args]
    return False


@dataclass(frozen=True)
class Target:
    """Where to deliver: API base URL, ``owner/name`` and the token (never in ``repr``)."""

    api_url: str
    repo: str
    token: str = field(repr=False)

    @property
    def owner(self) -> str:
        return self.repo.split("/", 1)[0]

    @property
    def offline(self) -> bool:
        """No token: only a ``--dry-run`` gets this far, and it reads nothing from the API."""
        return not self.token


def resolve_target(
    api_url: str | None, repo: str | None, env: Mapping[str, str] = os.environ, *, dry_run: bool = False
) -> Target:
    """Build the :class:`Target` from flags and environment (see the module docstring).

    Raises :class:`BadInputError` when the token is missing (unless ``dry_run``: the target is then
    :attr:`Target.offline`) or the repository is not ``owner/name``.
    """
    token = env.get("GITHUB_TOKEN") or env.get("GH_TOKEN") or ""
    if not token.strip() and not dry_run:
        raise BadInputError("no GitHub token: set GITHUB_TOKEN or GH_TOKEN (a --dry-run needs none)")
    repo = repo or env.get("GITHUB_REPOSITORY") or ""
    if not _REPO.match(repo):
        raise BadInputError(f"repository {repo!r} is not owner/name: pass --repo or set GITHUB_REPOSITORY")
    api = (api_url or env.get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/")
    if not api.startswith(("https://", "http://")):
        raise BadInputError(f"API URL {api!r} must start with https:// (or http:// for a local server)")
    return Target(api_url=api, repo=repo, token=token.strip())


def connect(
    target: Target, policy: RetryPolicy | None = None, per_page: int = 100, *, retry_writes: bool = True
) -> Repository:
    """A lazy PyGithub ``Repository`` for ``target`` (no request is made yet)."""
    policy = policy or DEFAULT_POLICY
    for noisy in ("urllib3", "github.GithubRetry"):  # one line per retry is printed by _OneLineRetry
        logging.getLogger(noisy).setLevel(logging.ERROR)
    gh = Github(
        auth=Auth.Token(target.token),
        base_url=target.api_url,
        timeout=policy.timeout,
        retry=policy.build(retry_writes),
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


def is_rate_limit(exc: GithubException) -> bool:
    """Whether GitHub refused the request for a rate limit (429, or 403 with a rate-limit message or
    ``X-RateLimit-Remaining: 0``): an answer, so the request was not processed."""
    if isinstance(exc, RateLimitExceededException) or exc.status == 429:
        return True
    message = str((exc.data or {}).get("message", "") if isinstance(exc.data, dict) else exc.data).lower()
    remaining = (exc.headers or {}).get("x-ratelimit-remaining") or (exc.headers or {}).get(
        "X-RateLimit-Remaining"
    )
    return exc.status == 403 and ("rate limit" in message or remaining == "0")


def classify(exc: GithubException, doing: str) -> GitHubError | UpstreamUnreachableError:
    """The quarkci error (and so the exit code) for a PyGithub exception; see the module's table."""
    message = api_message(exc)
    if exc.status >= 500 or is_rate_limit(exc):
        if is_rate_limit(exc) and "rate limit" not in message.lower():
            message += " (rate limit)"
        return UpstreamUnreachableError(f"{doing}: GitHub API unavailable after retries: {message}")
    reason = {
        401: "the token was rejected (expired, revoked or mistyped)",
        403: "the token lacks a permission this request needs (see README 'GitHub delivery': permissions)",
        404: "not found, or not visible to this token (check --repo and the token's repository access)",
    }
    if exc.status in reason:
        return GitHubError(f"{doing}: GitHub API {message}: {reason[exc.status]}")
    return GitHubError(f"{doing}: GitHub API {message}")


@contextlib.contextmanager
def github_errors(target: Target, doing: str) -> Iterator[None]:
    """Turn PyGithub/requests failures into quarkci errors with the right exit code (module table).

    The token is scrubbed from the message.
    """
    try:
        yield
    except GithubException as exc:
        err = classify(exc, doing)
        raise type(err)(scrub(str(err), target.token)) from None
    except requests.RequestException as exc:
        if name_not_resolved(exc):
            host = urllib.parse.urlsplit(target.api_url).hostname or target.api_url
            raise UpstreamUnreachableError(
                scrub(
                    f"{doing}: GitHub API {target.api_url} unreachable: host name {host} "
                    f"does not resolve ({_short(exc)}); not retried",
                    target.token,
                )
            ) from None
        raise UpstreamUnreachableError(
            scrub(
                f"{doing}: GitHub API {target.api_url} unreachable after retries: "
                f"{type(exc).__name__}: {_short(exc)}",
                target.token,
            )
        ) from None


def _short(exc: Exception) -> str:
    """The innermost reason of a requests/urllib3 error, on one line (no pool/object reprs)."""
    text = str(exc)
    match = re.search(
        r"(Failed to establish a new connection: \[Errno -?\d+\] [^')\]]+|"
        r"Name or service not known|Temporary failure in name resolution|"
        r"Connection refused|Read timed out|timed out)",
        text,
    )
    return match.group(1) if match else " ".join(text.split())[:200]
