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


@pytest.mark.parametrize("env,repo,api", [({}, "a/b", None), ({"GITHUB_TOKEN": "x"}, "ab", None),
                                          ({"GITHUB_TOKEN": "x"}, "a/b", "ftp://x")])
def test_target_bad_input(env, repo, api):
    with pytest.raises(BadInputError):
        resolve_target(api, repo, env)


def _resp(status, body=None, headers=None):
    return HTTPResponse(body=io.BytesIO(json.dumps(body or {}).encode()), status=status, preload_content=False,
                        headers={"Content-Type": "application/json", **(headers or {})})


def test_5xx_is_retried_422_is_not():
    retry = RetryPolicy().build()
    assert retry.is_retry("POST", 502) and retry.is_retry("GET", 503)
    assert not retry.is_retry("POST", 422) and not retry.is_retry("GET", 404)


def test_retry_after_is_honoured_up_to_the_cap():
    assert RetryPolicy(retry_after_max=120).build().get_retry_after(_resp(403, headers={"Retry-After": "7"})) == 7
    assert RetryPolicy(retry_after_max=2).build().get_retry_after(_resp(403, headers={"Retry-After": "7"})) == 2


def test_primary_rate_limit_waits_until_reset_or_fails_over_the_cap():
    reset = str(int(time.time()) + 30)
    body = {"message": "API rate limit exceeded for installation ID 1."}
    retry = RetryPolicy(max_rate_limit_wait=300).build()
    nxt = retry.increment("GET", "/x", _resp(403, body, {"X-RateLimit-Reset": reset}))
    assert 29 <= nxt.get_backoff_time() <= 32
    with pytest.raises(RateLimitExceededExceedsMaxWait):
        RetryPolicy(max_rate_limit_wait=5).build().increment("GET", "/x", _resp(403, body, {"X-RateLimit-Reset": reset}))


def test_secondary_rate_limit_waits_the_configured_time():
    body = {"message": "You have exceeded a secondary rate limit. Please wait."}
    nxt = RetryPolicy(secondary_rate_wait=42, backoff_factor=0.01).build().increment("POST", "/x", _resp(403, body))
    assert nxt.get_backoff_time() == 42


def test_plain_403_is_not_retried():
    with pytest.raises(GithubException):
        RetryPolicy().build().increment("POST", "/x", _resp(403, {"message": "Resource not accessible by integration"}))


def test_messages_carry_status_and_errors_but_no_token():
    exc = GithubException(422, {"message": "Validation Failed", "errors": [{"message": "Reference already exists"}]})
    assert api_message(exc) == "422 Validation Failed (Reference already exists)"
    assert scrub("Authorization: token ghp_abc", "ghp_abc") == "Authorization: token ***"
