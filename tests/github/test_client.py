"""Target resolution and the retry policy (computed backoffs; nothing sleeps)."""

from __future__ import annotations

import io
import json
import time

import pytest
from github.GithubException import GithubException, RateLimitExceededExceedsMaxWait
from urllib3.response import HTTPResponse

from quarkci.core.errors import BadInputError
from quarkci.github.client import DEFAULT_API_URL, RetryPolicy, api_message, resolve_target, scrub


def test_target_precedence_flags_then_env():
    env = {"GH_TOKEN": "tok", "GITHUB_REPOSITORY": "a/b", "GITHUB_API_URL": "https://ghes.example/api/v3/"}
    t = resolve_target(None, None, env)
    assert (t.api_url, t.repo, t.owner, t.token) == ("https://ghes.example/api/v3", "a/b", "a", "tok")
    t = resolve_target("https://other/api", "c/d", {**env, "GITHUB_TOKEN": "first"})
    assert (t.api_url, t.repo, t.token) == ("https://other/api", "c/d", "first")
    assert resolve_target(None, "c/d", {"GITHUB_TOKEN": "x"}).api_url == DEFAULT_API_URL
    assert "tok" not in repr(resolve_target(None, None, env))


@pytest.mark.parametrize(
    "env,repo,api",
    [({}, "a/b", None), ({"GITHUB_TOKEN": "x"}, "ab", None), ({"GITHUB_TOKEN": "x"}, "a/b", "ftp://x")],
)
def test_target_bad_input(env, repo, api):
    with pytest.raises(BadInputError):
        resolve_target(api, repo, env)


def _resp(status, body=None, headers=None):
    return HTTPResponse(
        body=io.BytesIO(json.dumps(body or {}).encode()),
        status=status,
        preload_content=False,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def test_5xx_is_retried_422_is_not():
    retry = RetryPolicy().build()
    assert retry.is_retry("POST", 502) and retry.is_retry("GET", 503)
    assert not retry.is_retry("POST", 422) and not retry.is_retry("GET", 404)


def test_retry_after_is_honoured_up_to_the_cap():
    assert (
        RetryPolicy(retry_after_max=120).build().get_retry_after(_resp(403, headers={"Retry-After": "7"}))
        == 7
    )
    assert (
        RetryPolicy(retry_after_max=2).build().get_retry_after(_resp(403, headers={"Retry-After": "7"})) == 2
    )


def test_primary_rate_limit_waits_until_reset_or_fails_over_the_cap():
    reset = str(int(time.time()) + 30)
    body = {"message": "API rate limit exceeded for installation ID 1."}
    retry = RetryPolicy(max_rate_limit_wait=300).build()
    nxt = retry.increment("GET", "/x", _resp(403, body, {"X-RateLimit-Reset": reset}))
    assert 29 <= nxt.get_backoff_time() <= 32
    with pytest.raises(RateLimitExceededExceedsMaxWait):
        RetryPolicy(max_rate_limit_wait=5).build().increment(
            "GET", "/x", _resp(403, body, {"X-RateLimit-Reset": reset})
        )


def test_secondary_rate_limit_waits_the_configured_time():
    body = {"message": "You have exceeded a secondary rate limit. Please wait."}
    nxt = (
        RetryPolicy(secondary_rate_wait=42, backoff_factor=0.01)
        .build()
        .increment("POST", "/x", _resp(403, body))
    )
    assert nxt.get_backoff_time() == 42


def test_plain_403_is_not_retried():
    with pytest.raises(GithubException):
        RetryPolicy().build().increment(
            "POST", "/x", _resp(403, {"message": "Resource not accessible by integration"})
        )


def test_messages_carry_status_and_errors_but_no_token():
    exc = GithubException(
        422, {"message": "Validation Failed", "errors": [{"message": "Reference already exists"}]}
    )
    assert api_message(exc) == "422 Validation Failed (Reference already exists)"
    assert scrub("Authorization: token ghp_abc", "ghp_abc") == "Authorization: token ***"


# --- a host name that does not resolve is not retried (issue 14); 5xx and timeouts still are ---


def test_name_resolution_failure_is_not_retried_but_timeouts_are():
    import socket

    from urllib3.connection import HTTPConnection
    from urllib3.exceptions import ConnectTimeoutError, MaxRetryError, NameResolutionError

    dns = NameResolutionError(
        "api.x.invalid", HTTPConnection("api.x.invalid"), socket.gaierror(-2, "Name or service not known")
    )
    with pytest.raises(MaxRetryError):
        RetryPolicy().build().increment("GET", "/user", error=dns)
    nxt = RetryPolicy().build().increment("GET", "/user", error=ConnectTimeoutError("timed out"))
    assert len(nxt.history) == 1 and nxt.total == RetryPolicy().total - 1


def test_a_create_sent_once_is_never_resent_by_urllib3_but_other_requests_are():
    """``once`` (issue 23): a sent ``POST /issues`` whose answer timed out, reset or was a 5xx goes back
    to the caller (who looks the issue up); a refused connection sent nothing and is retried; a
    ``PATCH`` or another ``POST`` (``/graphql``) keeps its retries."""
    from urllib3.exceptions import MaxRetryError, NewConnectionError, ProtocolError, ReadTimeoutError

    once = RetryPolicy().build(once=[("POST", r"/repos/[^/]+/[^/]+/issues$")])
    late = ReadTimeoutError(None, "/repos/o/r/issues", "Read timed out")
    with pytest.raises(ReadTimeoutError):
        once.increment("POST", "/repos/o/r/issues", error=late)
    with pytest.raises(ProtocolError):
        once.increment("POST", "/repos/o/r/issues", error=ProtocolError("Connection reset by peer"))
    with pytest.raises(MaxRetryError):  # a 5xx: connectionpool returns the answer (raise_on_status=False)
        once.increment("POST", "/repos/o/r/issues", response=_resp(502))
    refused = NewConnectionError(None, "Connection refused")  # type: ignore[arg-type]
    assert len(once.increment("POST", "/repos/o/r/issues", error=refused).history) == 1
    assert len(once.increment("POST", "/graphql", error=late).history) == 1
    assert len(once.increment("PATCH", "/repos/o/r/issues/3", error=late).history) == 1
    assert len(once.increment("POST", "/repos/o/r/issues/3/comments", error=late).history) == 1
    again = once.increment("GET", "/repos/o/r/issues", error=late)  # the rule survives Retry.new()
    with pytest.raises(ReadTimeoutError):
        again.increment("POST", "/api/v3/repos/o/r/issues", error=late)
    # negative control: without ``once`` urllib3 resends the POST itself
    assert len(RetryPolicy().build().increment("POST", "/repos/o/r/issues", error=late).history) == 1


def _counting_resolver(monkeypatch, answer):
    import socket

    calls: list[str] = []

    def resolve(host, *args, **kwargs):
        calls.append(host)
        return answer(host, *args)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    return calls


def test_an_unresolvable_api_url_fails_at_once_with_exit_3(monkeypatch, tmp_path, capsys, caplog):
    """Structural: the default policy (6 retries, ~60 s of backoff) asks the resolver exactly once."""
    import socket

    from quarkci.cli import main
    from quarkci.github import client

    monkeypatch.setattr(client, "DEFAULT_POLICY", RetryPolicy())
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_" + "a" * 36)

    def unresolvable(host, *args):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    calls = _counting_resolver(monkeypatch, unresolvable)
    body = tmp_path / "body.md"
    body.write_text("hello\n")
    start = time.perf_counter()
    code = main(
        [
            "gh",
            "comment",
            "--pr",
            "1",
            "--body-file",
            str(body),
            "--repo",
            "a/b",
            "--api-url",
            "https://api.github.invalid",
        ]
    )
    err = capsys.readouterr().err
    assert code == 3 and calls == ["api.github.invalid"], (calls, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "host name api.github.invalid does not resolve" in lines[0], err
    assert not [r for r in caplog.records if "retry" in r.getMessage()]
    assert time.perf_counter() - start < 10


def test_negative_control_a_refused_connection_is_still_retried(monkeypatch, tmp_path, capsys, caplog):
    import socket

    from quarkci.cli import main
    from quarkci.github import client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    policy = RetryPolicy(total=3, backoff_factor=0.001, backoff_max=0.01, timeout=1)
    monkeypatch.setattr(client, "DEFAULT_POLICY", policy)
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_" + "a" * 36)
    real = socket.getaddrinfo
    calls = _counting_resolver(monkeypatch, lambda host, *args: real("127.0.0.1", *args))
    body = tmp_path / "body.md"
    body.write_text("hello\n")
    code = main(
        [
            "gh",
            "comment",
            "--pr",
            "1",
            "--body-file",
            str(body),
            "--repo",
            "a/b",
            "--api-url",
            f"http://api.github.invalid:{port}",
        ]
    )
    err = capsys.readouterr().err
    assert code == 3 and len(calls) == policy.total + 1, (calls, err)
    assert [r.getMessage().split(":")[0] for r in caplog.records if "retry" in r.getMessage()] == [
        f"retry {n}/{policy.total}" for n in range(1, policy.total + 1)
    ]
