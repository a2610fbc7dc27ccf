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
validation errors) are never retried. POST is retried too where a repeated create is harmless or
recovered afterwards (a blob, a tree, a ref; see each module's "Concurrency and retries"), except the
creates whose copy would be seen: a ``workflow_dispatch`` (a second run) and a finding issue (a second
open issue). urllib3 never retries those (``connect(..., once=...)``); they go through
:func:`write_once`: after a failed or unanswered create it looks the object up (the run by its
correlation id, the issue by its fingerprint marker) and sends the create again only when it is not
there. Each retry prints exactly one line (``quarkci: WARNING: retry``).

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
import time
import urllib.parse
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

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

    def build(self, retry_writes: bool = True, once: Collection[tuple[str, str]] = ()) -> GithubRetry:
        """The ``urllib3.Retry`` handed to PyGithub (``Github(retry=...)``); without ``retry_writes``
        only reads (GET, HEAD) are retried. ``once``: ``(METHOD, path regex)`` pairs (the regex is
        searched in the URL's path) of requests never retried after they were sent: a 5xx or rate
        limit is returned to the caller, a timeout or reset connection raised (their caller recovers
        them, :func:`write_once`); a refused connection is retried (nothing was sent)."""
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
            once=tuple((m.upper(), re.compile(r)) for m, r in once),
        )


_log = logging.getLogger("quarkci.github")


class _OneLineRetry(GithubRetry):
    """PyGithub's retry policy, printing one ``retry`` line per retry (urllib3 and PyGithub print two
    or more, silenced in :func:`connect`), and sending the requests of ``once`` at most once."""

    def __init__(self, *args: Any, once: tuple[tuple[str, re.Pattern[str]], ...] = (), **kwargs: Any) -> None:
        self.once = once
        super().__init__(*args, **kwargs)

    def new(self, **kw: Any) -> Any:
        kw.setdefault("once", self.once)
        return super().new(**kw)

    def _sent_once(self, method: str | None, url: str | None) -> bool:
        path = urllib.parse.urlsplit(url or "").path
        return any(m == (method or "").upper() and r.search(path) for m, r in self.once)

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
        if self._sent_once(method, url) and not (error is not None and self._is_connection_error(error)):
            if error is not None:
                raise error  # as urllib3 does for a method it may not retry: the caller looks it up
            raise MaxRetryError(_pool, url or "", None)  # raise_on_status=False: the answer is returned
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
    target: Target,
    policy: RetryPolicy | None = None,
    per_page: int = 100,
    *,
    retry_writes: bool = True,
    once: Collection[tuple[str, str]] = (),
) -> Repository:
    """A lazy PyGithub ``Repository`` for ``target`` (no request is made yet); ``retry_writes`` and
    ``once``: see :meth:`RetryPolicy.build`."""
    policy = policy or DEFAULT_POLICY
    for noisy in ("urllib3", "github.GithubRetry"):  # one line per retry is printed by _OneLineRetry
        logging.getLogger(noisy).setLevel(logging.ERROR)
    gh = Github(
        auth=Auth.Token(target.token),
        base_url=target.api_url,
        timeout=policy.timeout,
        retry=policy.build(retry_writes, once),
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


def refusal_wait(exc: GithubException, attempt: int, policy: RetryPolicy) -> float:
    """Seconds to wait after GitHub refused a request for a rate limit: ``Retry-After`` (capped at
    ``retry_after_max``), else the primary limit's ``X-RateLimit-Reset`` (capped at
    ``max_rate_limit_wait``), else the secondary-limit wait grown per attempt (capped at ``backoff_max``).
    GitHub: "Rate limits for the REST API" (retry-after, x-ratelimit-reset; wait at least a minute)."""
    headers = {str(k).lower(): str(v) for k, v in (exc.headers or {}).items()}
    try:
        if "retry-after" in headers:
            return min(max(float(headers["retry-after"]), 0.0), policy.retry_after_max)
        if headers.get("x-ratelimit-remaining") == "0" and "x-ratelimit-reset" in headers:
            return min(
                max(float(headers["x-ratelimit-reset"]) - time.time(), 0.0), policy.max_rate_limit_wait
            )
    except ValueError:
        pass
    return float(min(policy.backoff_max, policy.secondary_rate_wait * 2.0**attempt))


def unanswered(exc: Exception) -> bool:
    """Whether a failed write may have been performed: no answer (a timeout, a reset connection) or a
    5xx (GitHub may have processed it). A refused connection or an unresolvable host name sent
    nothing, but they are not told apart here: the caller's lookup finds nothing and sends again."""
    if isinstance(exc, GithubException):
        return exc.status >= 500
    return isinstance(exc, requests.RequestException) and not name_not_resolved(exc)  # DNS does not heal


T = TypeVar("T")

# After an unanswered create that timed out, GitHub may still be processing it: look it up after
# these multiples of the client timeout (cumulative 0.5, 1.5, 3.5) before sending it again.
SETTLE = (0.5, 1.0, 2.0)


@dataclass(frozen=True)
class WriteRefused:
    """How :func:`write_once` words its final failures (``doing``: "dispatch W on R", ...)."""

    doing: str
    request: str = "POST"  # "POST /repos/o/r/issues": named in the one ``retry`` line per resend
    nothing_done: str = "nothing was created; run again later"
    unknown: str = "it cannot be looked up: not retried (it may have been performed)"


def write_once(
    send: Callable[[], T],
    lookup: Callable[[], T | None] | None,
    words: WriteRefused,
    *,
    policy: RetryPolicy | None = None,
    log: list[str] | None = None,
) -> T:
    """Send a create that must not happen twice (``send``: one request, not retried by urllib3).

    * A rate-limit refusal (429, 403 primary or secondary) is an answer: nothing was done, so it is
      sent again after :func:`refusal_wait`.
    * An :func:`unanswered` failure may have been performed: ``lookup()`` is asked (after a timeout,
      at :data:`SETTLE` times the client timeout, as GitHub may still be processing it) and what it
      finds is returned; only when it finds nothing is the create sent again (backoff as the policy's).
      Without a ``lookup`` it raises :class:`UpstreamUnreachableError` with ``words.unknown``.
    * Another 4xx raises :class:`GitHubError` (:func:`classify`); the other exceptions propagate.

    At most ``policy.total + 1`` sends. Each recovery is noted in ``log``. Raises
    :class:`UpstreamUnreachableError` when every send was refused or went unanswered and the lookup
    found nothing.
    """
    policy = policy or DEFAULT_POLICY  # looked up per call, as connect() does, not bound at import
    log = log if log is not None else []
    maybe_done = False  # an earlier send may have been performed (no answer, or a 5xx)
    refused = ""  # the last rate-limit refusal, when every attempt so far was refused
    why = ""
    for attempt in range(policy.total + 1):
        if maybe_done and lookup is not None:
            found = lookup()
            if found is not None:
                log.append("the earlier POST had been performed; not sent again")
                return found
        if why:  # sending again: one line, as every retry gets
            _log.warning("retry %d/%d: %s answered %s", attempt, policy.total, words.request, why)
        try:
            return send()
        except (GithubException, requests.RequestException) as exc:
            why = f"HTTP {exc.status}" if isinstance(exc, GithubException) else type(exc).__name__
            if isinstance(exc, GithubException) and is_rate_limit(exc):
                refused = f"HTTP {exc.status} {api_message(exc)}"
                log.append(f"POST refused ({refused}); sent again after a wait")
                time.sleep(refusal_wait(exc, attempt, policy))
                continue
            if not unanswered(exc):
                raise classify(exc, words.doing) if isinstance(exc, GithubException) else exc from None
            refused, maybe_done = "", True
            if lookup is None:
                raise UpstreamUnreachableError(
                    f"{words.doing}: the POST failed without an answer ({type(exc).__name__}) and "
                    f"{words.unknown}"
                ) from None
            if isinstance(exc, requests.Timeout):
                for wait in SETTLE:
                    time.sleep(policy.timeout * wait)
                    found = lookup()
                    if found is not None:
                        log.append("the unanswered POST had been performed; not sent again")
                        return found
            else:
                time.sleep(min(policy.backoff_max, policy.backoff_factor * 2**attempt))
    if maybe_done and lookup is not None:
        found = lookup()
        if found is not None:
            log.append("the earlier POST had been performed; not sent again")
            return found
    if refused:
        raise UpstreamUnreachableError(
            f"{words.doing}: GitHub refused the POST {policy.total + 1} times, the last with {refused}: "
            f"{words.nothing_done}"
        )
    raise UpstreamUnreachableError(f"{words.doing}: GitHub API unavailable after {policy.total + 1} attempts")
