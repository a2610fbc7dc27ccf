"""End to end against the fake: exact (method, path) sequences, re-runs write nothing, dry runs write nothing."""

from __future__ import annotations

import json
import logging
import re

import pytest

from quarkci.github.markers import is_quarkci_commit
from tests.github.conftest import TOKEN
from tests.github.reports import FIXED_TEXT, SKILL_FILE, finding, make_report

R = "/repos/octo/skills"
BRANCH = "quarkci/skill-sync/0.13"
WRITE = ("POST", "PATCH", "PUT", "DELETE")


def _drift_report():
    return make_report([finding("mechanical", "w_int4"), finding("breaking", "--old-flag")], [SKILL_FILE])


def _ref_commit_tree(fake):
    head = fake.state.refs[f"refs/heads/{BRANCH}"]
    return head, fake.state.commits[head]["tree"]


def test_pr_first_run_and_rerun_sequences(fake, ws, gh_run):
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    base = fake.state.refs["refs/heads/main"]
    code, out, _ = gh_run(ws.pr_args())
    assert code == 0 and out.startswith("pr: created")
    assert fake.sequence() == [
        ("GET", f"{R}/pulls"),  # open drift PRs of older releases (none)
        ("GET", R),
        ("GET", f"{R}/git/ref/heads/{BRANCH}"),  # 404: no branch yet
        ("GET", f"{R}/pulls"),
        ("GET", f"{R}/git/ref/heads/main"),
        ("GET", f"{R}/git/commits/{base}"),
        ("POST", f"{R}/git/blobs"),
        ("POST", f"{R}/git/trees"),
        ("POST", f"{R}/git/commits"),
        ("POST", f"{R}/git/refs"),
        ("POST", f"{R}/pulls"),
        ("PATCH", f"{R}/issues/1"),  # labels
    ]
    head, tree = _ref_commit_tree(fake)
    assert is_quarkci_commit(fake.state.commits[head]["message"])
    assert fake.state.commits[head]["parents"] == [base]
    files = fake.state.flatten(tree)
    assert fake.state.blob(files[SKILL_FILE][1]).decode() == FIXED_TEXT
    assert "README.md" in files  # the rest of the base tree is kept
    pr = fake.state.issues["1"]
    assert pr["pull"]["head"] == BRANCH and pr["labels"] == ["quarkci", "skill-sync"]

    fake.clear_log()
    code, out, _ = gh_run(ws.pr_args())
    assert code == 0 and out.startswith("pr: unchanged")
    assert fake.sequence() == [
        ("GET", f"{R}/pulls"),
        ("GET", R),
        ("GET", f"{R}/git/ref/heads/{BRANCH}"),
        ("GET", f"{R}/git/commits/{head}"),
        ("GET", f"{R}/git/trees/{tree}"),
        ("GET", f"{R}/pulls"),
    ]
    assert fake.writes() == []


def test_pr_list_uses_owner_prefixed_head_filter(fake, ws, gh_run):
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    gh_run(ws.pr_args())
    queries = [
        c.query for c in fake.calls if c.path == f"{R}/pulls" and c.method == "GET" and "state=all" in c.query
    ]
    assert queries and all(f"head=octo%3A{BRANCH.replace('/', '%2F')}" in q for q in queries)


def test_pr_changed_content_fast_forwards_own_branch(fake, ws, gh_run):
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    gh_run(ws.pr_args())
    first, _ = _ref_commit_tree(fake)
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT + "more\n"})
    fake.clear_log()
    code, out, _ = gh_run(ws.pr_args())
    assert code == 0 and out.startswith("pr: updated")
    head, tree = _ref_commit_tree(fake)
    assert fake.state.commits[head]["parents"] == [first]
    assert fake.state.blob(fake.state.flatten(tree)[SKILL_FILE][1]).decode().endswith("more\n")
    assert [w for w in fake.writes()] == [
        ("POST", f"{R}/git/blobs"),
        ("POST", f"{R}/git/trees"),
        ("POST", f"{R}/git/commits"),
        ("PATCH", f"{R}/git/refs/heads/{BRANCH}"),
    ]
    assert len([i for i in fake.state.issues.values() if i.get("pull")]) == 1


def test_pr_human_push_is_never_overwritten_and_gets_one_sticky_comment(fake, ws, gh_run):
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    gh_run(ws.pr_args())
    human = fake.state.commit_files(BRANCH, {"skills/extra.md": b"mine\n"}, "my own edit")
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT + "changed upstream\n"})
    for expected in ("commented", "unchanged"):
        fake.clear_log()
        code, out, _ = gh_run(ws.pr_args())
        assert code == 0 and out.startswith(f"pr: {expected}")
        assert fake.state.refs[f"refs/heads/{BRANCH}"] == human
    comments = [c for c in fake.state.comments.values() if c["issue"] == 1]
    assert len(comments) == 1 and comments[0]["body"].startswith(
        "<!-- quarkci:report:skill-sync-conflict -->"
    )
    assert fake.writes() == []


def test_pr_closed_when_drift_is_gone(fake, ws, gh_run):
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    gh_run(ws.pr_args())
    ws.write(make_report([finding("breaking", "--old-flag")], []))
    fake.clear_log()
    code, out, _ = gh_run(ws.pr_args())
    assert code == 0 and out.startswith("pr: closed")
    assert fake.sequence() == [
        ("GET", f"{R}/pulls"),
        ("GET", R),
        ("GET", f"{R}/pulls"),
        ("PATCH", f"{R}/pulls/1"),
    ]  # one write closes and says why
    assert fake.state.issues["1"]["state"] == "closed"
    assert "finds no mechanical drift" in fake.state.issues["1"]["body"] and fake.state.comments == {}
    fake.clear_log()
    assert gh_run(ws.pr_args())[1].startswith("pr: unchanged") and fake.writes() == []


def test_blocked_report_closes_nothing(fake, ws, gh_run):
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    gh_run(ws.pr_args())
    gh_run(ws.issues_args())
    ws.write(make_report([], [], mode="blocked"))
    fake.clear_log()
    assert gh_run(ws.pr_args())[0] == 0
    assert gh_run(ws.issues_args())[0] == 0
    assert fake.sequence() == []
    assert all(i["state"] == "open" for i in fake.state.issues.values())


def test_issues_first_run_rerun_and_disappearance(fake, ws, gh_run):
    findings = [finding("breaking", f"--flag-{n}") for n in range(3)]
    ws.write(make_report(findings))
    code, out, _ = gh_run(ws.issues_args())
    assert code == 0 and out.startswith("issues: created")
    assert fake.sequence() == [("GET", f"{R}/issues")] + [("POST", f"{R}/issues")] * 3 + [
        ("GET", f"{R}/issues")
    ]
    assert sorted(i["title"] for i in fake.state.issues.values()) == sorted(
        f"quarkci: breaking drift in quark-torch-ptq: cli-flag-removed --flag-{n}" for n in range(3)
    )

    fake.clear_log()
    assert gh_run(ws.issues_args())[1].startswith("issues: unchanged")
    assert fake.sequence() == [("GET", f"{R}/issues")]

    ws.write(make_report(findings[1:]))
    fake.clear_log()
    assert gh_run(ws.issues_args())[1].startswith("issues: closed")
    gone = next(n for n, i in fake.state.issues.items() if i["title"].endswith("--flag-0"))
    assert fake.sequence() == [("GET", f"{R}/issues"), ("PATCH", f"{R}/issues/{gone}")]  # one write per close
    assert fake.state.issues[gone]["state"] == "closed"

    ws.write(make_report(findings))  # it comes back: quarkci closed it, so quarkci reopens it
    assert gh_run(ws.issues_args())[1].startswith("issues: updated")
    assert fake.state.issues[gone]["state"] == "open"
    assert len(fake.state.issues) == 3


def test_issues_max_new_and_summary(fake, ws, gh_run):
    ws.write(make_report([finding("breaking", f"--f{n}") for n in range(5)]))
    code, out, _ = gh_run(ws.issues_args("--max-new", "2"))
    assert code == 0
    titles = sorted(i["title"] for i in fake.state.issues.values())
    assert len(titles) == 3 and "quarkci: 3 more breaking drift finding(s) awaiting issues" in titles
    gh_run(ws.issues_args("--max-new", "2"))
    gh_run(ws.issues_args("--max-new", "2"))
    open_ = [i for i in fake.state.issues.values() if i["state"] == "open"]
    assert len(open_) == 5 and all("awaiting" not in i["title"] for i in open_)  # summary closed


def test_human_closed_issue_is_not_reopened(fake, ws, gh_run):
    ws.write(make_report([finding("breaking", "--x")]))
    gh_run(ws.issues_args())
    fake.state.issues["1"]["state"] = "closed"
    fake.clear_log()
    assert gh_run(ws.issues_args())[1].startswith("issues: unchanged") and fake.writes() == []


def test_comment_sticky_sequences(fake, ws, gh_run, tmp_path):
    body = tmp_path / "body.md"
    body.write_text("## Report\nall good @octocat\n")
    fake.state.commit_files("feature", {"a.md": b"a\n"}, "feature")
    fake.state.issues["1"] = {
        "id": 1,
        "title": "PR",
        "body": "",
        "labels": [],
        "state": "open",
        "user": "dev",
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "closed_at": None,
        "state_reason": None,
        "pull": {"head": "feature", "base": "main", "head_sha": "", "merged_at": None},
    }
    fake.state.counters["issue"] = 1
    args = ["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"]
    assert gh_run(args)[1].startswith("comment: created")
    assert fake.sequence() == [
        ("GET", f"{R}/issues/1/comments"),
        ("POST", f"{R}/issues/1/comments"),
        ("GET", f"{R}/issues/1/comments"),
    ]
    fake.clear_log()
    assert gh_run(args)[1].startswith("comment: unchanged")
    assert fake.sequence() == [("GET", f"{R}/issues/1/comments")]
    body.write_text("## Report\nchanged\n")
    fake.clear_log()
    assert gh_run(args)[1].startswith("comment: updated")
    cid = next(iter(fake.state.comments))
    assert fake.sequence() == [("GET", f"{R}/issues/1/comments"), ("PATCH", f"{R}/issues/comments/{cid}")]
    other = ["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "other"]
    assert gh_run(other)[1].startswith("comment: created")
    assert len(fake.state.comments) == 2
    assert fake.state.comments[cid]["body"] == "<!-- quarkci:report:ci -->\n## Report\nchanged\n"


def test_comment_over_the_limit_is_shortened_and_accepted(fake, gh_run, tmp_path, monkeypatch):
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.example")
    monkeypatch.setenv("GITHUB_RUN_ID", "42")
    body = tmp_path / "big.md"
    body.write_text("# Big\n" + "".join(f"## S{n}\n" + "y" * 9000 + "\n" for n in range(12)))
    fake.state.issues["1"] = {
        "id": 1,
        "title": "i",
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
    code, _, err = gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body)])
    assert code == 0, err
    (stored,) = [c["body"] for c in fake.state.comments.values()]
    assert len(stored) <= 65536 and stored.startswith("<!-- quarkci:report:report -->\n# Big")
    assert "https://github.example/octo/skills/actions/runs/42" in stored


def test_dispatch(fake, gh_run):
    code, out, _ = gh_run(
        [
            "gh",
            "dispatch",
            "--workflow",
            "release.yml",
            "--ref",
            "main",
            "--input",
            "amd-quark=0.13",
            "--input",
            "scheme=int8",
            "--json",
        ]
    )
    assert code == 0 and json.loads(out)["operation"] == "created"
    assert fake.sequence() == [
        ("GET", f"{R}/contents/.github/workflows/release.yml"),
        ("GET", f"{R}/actions/workflows/release.yml/runs"),  # not dispatched with these inputs before
        ("POST", f"{R}/actions/workflows/release.yml/dispatches"),
    ]
    (sent,) = fake.state.dispatches
    cid = sent["inputs"].pop("correlation-id")
    assert sent == {
        "workflow": "release.yml",
        "ref": "main",
        "inputs": {"amd-quark": "0.13", "scheme": "int8"},
        "by": "quarkci-bot",
    }
    (run,) = fake.state.runs
    assert run["display_title"] == f"release 0.13 [{cid}]"
    assert json.loads(out)["items"][0]["url"].endswith(f"/actions/runs/{run['id']}")
    code, _, err = gh_run(["gh", "dispatch", "--workflow", "ci.yml", "--ref", "main"])
    assert code == 2 and "workflow_dispatch" in err  # read from the file: no POST at all
    assert [c.method for c in fake.calls].count("POST") == 1


@pytest.mark.parametrize("command", ["pr", "issues", "comment", "dispatch"])
def test_dry_run_performs_no_write_and_plans_the_real_writes(fake, ws, gh_run, tmp_path, command):
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    body = tmp_path / "b.md"
    body.write_text("hello\n")
    fake.state.issues["1"] = {
        "id": 1,
        "title": "i",
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
    fake.state.counters["issue"] = 1
    args = {
        "pr": ws.pr_args(),
        "issues": ws.issues_args(),
        "comment": ["gh", "comment", "--pr", "1", "--body-file", str(body)],
        "dispatch": [
            "gh",
            "dispatch",
            "--workflow",
            "release.yml",
            "--ref",
            "main",
            "--input",
            "amd-quark=0.13",
        ],
    }[command]
    before = json.dumps(fake.state.to_json(), sort_keys=True)
    code, out, _ = gh_run([*args, "--dry-run", "--json"])
    assert code == 0
    assert fake.writes() == []
    assert json.dumps(fake.state.to_json(), sort_keys=True) == before
    planned = [(s["method"], s["path"]) for s in json.loads(out)["steps"]]
    assert planned and json.loads(out)["dry_run"] is True
    fake.clear_log()
    code, out, _ = gh_run([*args, "--json"])
    performed = [(s["method"], s["path"]) for s in json.loads(out)["steps"]]
    assert [m for m, _ in performed] == [m for m, _ in planned]
    assert fake.writes() == [(m, p) for m, p in performed]


def test_token_never_printed_or_logged(fake, ws, gh_run, caplog):
    caplog.set_level(logging.DEBUG)
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    fake.faults = []
    from tests.fakegithub import Fault

    fake.faults.append(Fault("502", method="POST", path="/pulls$", times=10))
    code, out, err = gh_run(["-v", *ws.pr_args()])
    assert code == 3 and "502" in err  # 5xx after retries: GitHub unavailable, not bad input
    assert TOKEN not in out + err + caplog.text


def test_bad_credentials_fail_cleanly(fake, ws, gh_run, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_wrong0000000000000000000000000000000")
    ws.write(make_report([finding("breaking", "--x")]))
    code, _, err = gh_run(ws.issues_args())
    assert code == 2 and "401 Bad credentials" in err and "Traceback" not in err


def test_missing_token_and_repo_are_bad_input(ws, gh_run, monkeypatch):
    ws.write(make_report([]))
    assert gh_run(ws.issues_args())[0] == 2
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    code, _, err = gh_run(ws.issues_args("--repo", "not-a-repo"))
    assert code == 2 and "owner/name" in err


def test_comment_refuses_a_pr_whose_head_is_not_the_audited_commit(fake, gh_run, tmp_path):
    """A PR number from an untrusted artifact cannot aim the sticky comment at another PR."""
    body = tmp_path / "body.md"
    body.write_text("## Report\n")
    head = fake.state.commit_files("feature", {"a.md": b"a\n"}, "feature")
    fake.state.issues["1"] = {
        "id": 1,
        "title": "PR",
        "body": "",
        "labels": [],
        "state": "open",
        "user": "dev",
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "closed_at": None,
        "state_reason": None,
        "pull": {"head": "feature", "base": "main", "head_sha": head, "merged_at": None},
    }
    fake.state.counters["issue"] = 1
    args = ["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"]
    code, _out, err = gh_run([*args, "--expect-head-sha", "0" * 40])
    assert code == 2 and "not the audited commit" in err and err.count("\n") == 1
    assert fake.state.comments == {}
    assert all(method == "GET" for method, _ in fake.sequence())
    fake.clear_log()
    code, out, _err = gh_run([*args, "--expect-head-sha", head])
    assert code == 0 and out.startswith("comment: created")
    assert len(fake.state.comments) == 1


@pytest.mark.parametrize("content", ["same", "changed", "human-push"])
def test_pr_a_humans_pr_with_the_marker_on_the_drift_branch_is_named_and_left_alone(
    fake, ws, gh_run, content
):
    """Issue 23: a human-authored PR with quarkci's marker on the drift branch. quarkci opens none beside
    it (GitHub refuses a second open PR per head and base) and edits nothing; it used to retry the
    refused POST /pulls and fail "kept changing during 3 attempts". Now: exit 0, the PR and its author named."""
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    assert gh_run(ws.pr_args())[0] == 0
    fake.state.issues["1"]["user"] = "dev"  # the open PR from the branch is a human's (marker and all)
    marker_body = fake.state.issues["1"]["body"]
    if content == "human-push":
        fake.state.commit_files(BRANCH, {"skills/extra.md": b"mine\n"}, "my own edit")
    head = fake.state.refs[f"refs/heads/{BRANCH}"]
    if content != "same":
        ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT + "changed upstream\n"})
    fake.clear_log()
    code, out, err = gh_run(ws.pr_args())
    assert code == 0, err
    assert out.startswith("pr: unchanged"), out
    assert "PR #1 from this branch is open by dev, not by the token's identity" in out, out
    whose = "a commit not made by quarkci" if content == "human-push" else "quarkci's commit"
    assert f"the branch head {head[:12]} is {whose}" in out, out
    assert fake.writes() == []  # no POST /pulls, no commit on the branch under the human's PR
    assert fake.state.refs[f"refs/heads/{BRANCH}"] == head
    assert fake.state.issues["1"]["body"] == marker_body and fake.state.comments == {}
    assert len([i for i in fake.state.issues.values() if i.get("pull")]) == 1


def test_pr_a_humans_closed_pr_on_the_branch_does_not_stop_quarkci_opening_its_own(fake, ws, gh_run):
    """Negative control: only an *open* PR by another author blocks; a closed one does not."""
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT})
    assert gh_run(ws.pr_args())[0] == 0
    fake.state.issues["1"].update(user="dev", state="closed")
    ws.write(_drift_report(), {SKILL_FILE: FIXED_TEXT + "changed upstream\n"})
    code, out, err = gh_run(ws.pr_args())
    assert code == 0 and out.startswith("pr: created"), (out, err)
    open_pulls = [i for i in fake.state.issues.values() if i.get("pull") and i["state"] == "open"]
    assert [p["user"] for p in open_pulls] == ["quarkci-bot"]


def test_dry_run_shows_the_titles_and_bodies_the_real_run_writes(fake, ws, gh_run, tmp_path):
    """Issue 23: a dry run printed method, path and fingerprint only. Each planned create now carries the
    title and body the real run then writes, byte for byte, in --json and in the text output."""
    findings = [finding("breaking", "--gone"), finding("breaking", "--also-gone")]
    ws.write(
        make_report([finding("mechanical", "w_int4"), *findings], [SKILL_FILE]), {SKILL_FILE: FIXED_TEXT}
    )
    code, out, _ = gh_run([*ws.issues_args(), "--dry-run", "--json"])
    assert code == 0 and fake.writes() == []
    planned = {s["title"]: s["body"] for s in json.loads(out)["steps"]}
    code, text, _ = gh_run([*ws.issues_args(), "--dry-run"])
    assert gh_run(ws.issues_args())[0] == 0
    written = {i["title"]: i["body"] for i in fake.state.issues.values()}
    assert planned == written and len(written) == 2
    for title, body in written.items():
        assert f"      title: {title}" in text.splitlines()
        assert all(f"      | {line}" in text.splitlines() for line in body.splitlines() if line)

    code, out, _ = gh_run([*ws.pr_args(), "--dry-run", "--json"])
    steps = {s["method"] + " " + s["path"].rsplit("/", 1)[-1]: s for s in json.loads(out)["steps"]}
    assert gh_run(ws.pr_args())[0] == 0
    ((number, pr),) = [(n, i) for n, i in fake.state.issues.items() if i.get("pull")]
    assert (steps["POST pulls"]["title"], steps["POST pulls"]["body"]) == (pr["title"], pr["body"])
    head = fake.state.refs[f"refs/heads/{BRANCH}"]
    assert steps["POST commits"]["body"] == fake.state.commits[head]["message"]

    body = tmp_path / "b.md"
    body.write_text("## Report\nall good\n")
    args = ["gh", "comment", "--pr", number, "--body-file", str(body), "--name", "ci"]
    code, text, _ = gh_run([*args, "--dry-run"])
    assert (
        "      | <!-- quarkci:report:ci -->" in text.splitlines() and "      | all good" in text.splitlines()
    )
    assert gh_run(args)[0] == 0
    (comment,) = fake.state.comments.values()
    assert comment["body"] == "<!-- quarkci:report:ci -->\n## Report\nall good\n"


def test_dry_run_payload_lines_cannot_start_a_workflow_command(fake, tmp_path, gh_run):
    """The bodies are untrusted: every printed body line starts with ``| `` after the indent, and a CR
    inside a body line ends the line as the runner would, still behind the prefix."""
    fake.state.issues["1"] = {
        "id": 1, "title": "i", "body": "", "labels": [], "state": "open", "user": "dev",
        "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
        "closed_at": None, "state_reason": None, "pull": None,
    }  # fmt: skip
    fake.state.counters["issue"] = 1
    body = tmp_path / "b.md"
    body.write_bytes(b"::error::forged\r::add-mask::word\n  ##[warning]x\n")
    code, text, _ = gh_run(["gh", "comment", "--pr", "1", "--body-file", str(body), "--dry-run"])
    assert code == 0
    lines = [line for line in re.split(r"\r\n|\r|\n", text) if line.strip()]
    assert not any(line.strip().startswith("::") for line in lines)
    assert not any("##[" in line for line in lines)
    assert "      | ::error::forged" in lines  # shown, behind the prefix
