"""Issue 23, identity: the token's login comes from GitHub (GraphQL ``viewer { login }``), never from its
prefix, and every create call's author is checked against it.

A GitHub App installation token is ``ghs_...`` like the Actions token; guessing ``github-actions[bot]``
from the prefix made quarkci miss its own sticky comment and issues on every run.
"""

from __future__ import annotations

import pytest

from tests.fakegithub import Fault
from tests.github.reports import finding, make_report

APP_TOKEN = "ghs_appInstallationToken000000000000000000"
ACTIONS_TOKEN = "ghs_actionsToken0000000000000000000000000"
USER_TOKEN = "github_pat_userToken000000000000000000000"
MARKER = "<!-- quarkci:report:ci -->"


def _use(fake, monkeypatch, token: str, login: str) -> None:
    monkeypatch.delenv("QUARKCI_GH_LOGIN")
    fake.state.tokens[token] = login
    if login.endswith("[bot]"):
        fake.state.bot_logins.append(login)
    monkeypatch.setenv("GITHUB_TOKEN", token)


def _issue(fake, number: int) -> None:
    fake.state.issues[str(number)] = {
        "id": number,
        "title": "t",
        "body": "",
        "labels": [],
        "state": "open",
        "user": "dev",
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "closed_at": None,
        "state_reason": None,
        "pull": None,
    }
    fake.state.counters["issue"] = max(fake.state.counters["issue"], number)


@pytest.mark.parametrize(
    ("token", "login"),
    [
        (APP_TOKEN, "quarkci-app[bot]"),
        (ACTIONS_TOKEN, "github-actions[bot]"),
        (USER_TOKEN, "alice"),
    ],
)
def test_three_comment_runs_leave_one_sticky_comment_for_every_token_kind(
    fake, gh_run, tmp_path, monkeypatch, token, login
):
    _use(fake, monkeypatch, token, login)
    _issue(fake, 1)
    body = tmp_path / "b.md"
    for n in range(3):
        body.write_text(f"## Report\nrun {n}\n")
        code, out, err = gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"])
        assert code == 0, err
        assert out.startswith("comment: created" if n == 0 else "comment: updated"), out
    assert [(c["user"], c["body"]) for c in fake.state.comments.values()] == [
        (login, f"{MARKER}\n## Report\nrun 2\n")
    ]
    seq = fake.sequence()
    assert seq.count(("POST", "/graphql")) == 3  # once per run, never GET /user
    assert ("GET", "/user") not in seq


def test_two_issue_runs_with_an_app_token_open_three_issues_for_three_findings(fake, gh_run, ws, monkeypatch):
    _use(fake, monkeypatch, APP_TOKEN, "quarkci-app[bot]")
    ws.write(make_report([finding("breaking", f"--gone{n}") for n in range(3)]))
    for expected in ("issues: created", "issues: unchanged"):
        code, out, err = gh_run(ws.issues_args())
        assert code == 0, err
        assert out.startswith(expected), out
    issues = list(fake.state.issues.values())
    assert len(issues) == 3
    assert {i["user"] for i in issues} == {"quarkci-app[bot]"} and {i["state"] for i in issues} == {"open"}


def test_the_guess_from_the_prefix_fails_at_the_first_create_naming_the_real_author(
    fake, gh_run, tmp_path, monkeypatch
):
    """Negative control: the old guess (``github-actions[bot]`` for a ``ghs_`` token), given as --login,
    is caught by the author check of the create call: exit 2 naming the App's bot, not a silent extra."""
    _use(fake, monkeypatch, APP_TOKEN, "quarkci-app[bot]")
    _issue(fake, 1)
    body = tmp_path / "b.md"
    body.write_text("report\n")
    args = ["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"]
    code, out, err = gh_run([*args, "--login", "github-actions[bot]"])
    assert code == 2, (out, err)
    assert "created by 'quarkci-app[bot]'" in err and "--login quarkci-app[bot]" in err, err
    assert ("POST", "/graphql") not in fake.sequence()  # --login is used as given
    # Without the wrong flag the next run finds and edits that comment: still one.
    assert gh_run(args)[0] == 0
    assert len(fake.state.comments) == 1


def test_a_wrong_app_slug_fails_the_issue_create_with_exit_2(fake, gh_run, ws, monkeypatch):
    _use(fake, monkeypatch, APP_TOKEN, "quarkci-app[bot]")
    ws.write(make_report([finding("breaking", "--gone")]))
    code, _, err = gh_run([*ws.issues_args(), "--app-slug", "other-app"])
    assert code == 2 and "created by 'quarkci-app[bot]'" in err and "'other-app[bot]'" in err, err
    assert len(fake.state.issues) == 1  # the first create; no second one in the recovery pass


def test_a_refused_viewer_query_is_exit_2_asking_for_login(fake, gh_run, tmp_path, monkeypatch):
    _use(fake, monkeypatch, APP_TOKEN, "quarkci-app[bot]")
    _issue(fake, 1)
    fake.faults.append(Fault("403", "POST", "^/graphql$"))
    body = tmp_path / "b.md"
    body.write_text("report\n")
    code, _, err = gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"])
    assert code == 2 and "viewer" in err and "pass --login" in err, err
    assert fake.state.comments == {}


def test_an_unreachable_viewer_query_is_exit_3(fake, gh_run, tmp_path, monkeypatch):
    _use(fake, monkeypatch, APP_TOKEN, "quarkci-app[bot]")
    _issue(fake, 1)
    fake.faults.append(Fault("502", "POST", "^/graphql$", times=10))
    body = tmp_path / "b.md"
    body.write_text("report\n")
    code, _, err = gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"])
    assert code == 3, err
    assert fake.state.comments == {}
