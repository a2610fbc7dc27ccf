"""Shared fixtures: a running fake GitHub, a fast retry policy, scrubbed env, report workspaces."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

import quarkci.github.client as client
from quarkci.cli import main
from quarkci.github.markers import body_marker
from tests.fakegithub import FakeGitHub, seeded
from tests.github.reports import make_report

TOKEN = "ghp_FAKEtoken0123456789abcdefABCDEF0123"
# Tiny caps so fault-injection tests never sleep long; the shape (GithubRetry, caps) is production's.
# FAST's 1 s client timeout is for the tests that make the fake sleep past it (delays 1.1-1.3 s): their
# modules opt in with the ``tight_timeout`` fixture. Every other test gets PATIENT, the same caps with a
# timeout a loaded CI machine does not reach: at stop 36's CI a test that injects no fault failed when five
# 1 s attempts in a row went unanswered while a vLLM server and two more workers shared the 2 cores.
FAST = client.RetryPolicy(
    total=4,
    backoff_factor=0.01,
    backoff_max=0.05,
    retry_after_max=0.05,
    secondary_rate_wait=0.01,
    max_rate_limit_wait=3.0,
    timeout=1,
    seconds_between_requests=0,
    seconds_between_writes=0,
)
PATIENT = dataclasses.replace(FAST, timeout=20)


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    for name in (
        "GITHUB_TOKEN",
        "GH_TOKEN",
        "GITHUB_API_URL",
        "GITHUB_REPOSITORY",
        "GITHUB_SERVER_URL",
        "GITHUB_RUN_ID",
        "QUARKCI_GH_LOGIN",
        "QUARKCI_GH_APP_SLUG",
        "GITHUB_ACTIONS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(client, "DEFAULT_POLICY", PATIENT)


@pytest.fixture
def tight_timeout(monkeypatch):
    """FAST's 1 s client timeout, for tests whose faults sleep past it (``timeout``, ``lost-response``,
    ``barrier``); used by a module as ``pytestmark = pytest.mark.usefixtures("tight_timeout")``."""
    monkeypatch.setattr(client, "DEFAULT_POLICY", FAST)


@pytest.fixture
def fake(monkeypatch):
    """A started fake with a seeded repo; fails the test if any request/response broke the OpenAPI."""
    with FakeGitHub(seeded(token=TOKEN)) as gh:
        monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
        monkeypatch.setenv("GITHUB_API_URL", gh.url)
        monkeypatch.setenv("GITHUB_REPOSITORY", "octo/skills")
        # The token's login, given (tests of the identity rules unset it); saves a GET /user per run.
        monkeypatch.setenv("QUARKCI_GH_LOGIN", "quarkci-bot")
        yield gh
    assert gh.violations == []


class Workspace:
    """A checkout with a report and the files ``--fix`` changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.report = root / "reports" / "validation_report.json"

    def write(self, report: dict, files: dict[str, str] | None = None) -> Workspace:
        self.report.parent.mkdir(parents=True, exist_ok=True)
        self.report.write_text(json.dumps(report), encoding="utf-8")
        for path, text in (files or {}).items():
            (self.root / path).parent.mkdir(parents=True, exist_ok=True)
            (self.root / path).write_text(text, encoding="utf-8")
        return self

    def pr_args(self, *extra: str) -> list[str]:
        return ["gh", "pr", "--report", str(self.report), "--root", str(self.root), *extra]

    def issues_args(self, *extra: str) -> list[str]:
        return ["gh", "issues", "--report", str(self.report), *extra]


@pytest.fixture
def ws(tmp_path) -> Workspace:
    return Workspace(tmp_path)


@pytest.fixture
def gh_run(capsys):
    """Run ``quarkci <args>`` in-process; returns (exit code, stdout, stderr)."""

    def run(args: list[str]) -> tuple[int, str, str]:
        code = main(args)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def record_open(fake) -> Counter[str]:
    """The highest number of open issues per finding marker seen after any write (filled as it runs)."""
    high: Counter[str] = Counter()

    def hook(state) -> None:
        now = Counter(
            body_marker(i["body"])
            for i in state.issues.values()
            if i["state"] == "open" and not i.get("pull") and body_marker(i["body"])
        )
        for key, n in now.items():
            high[key[1]] = max(high[key[1]], n)

    fake.after_write.append(hook)
    return high


__all__ = ["FAST", "PATIENT", "TOKEN", "make_report", "record_open"]
