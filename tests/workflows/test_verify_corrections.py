"""verify.yml's corrections PR (issue 15): the verify job corrects the committed skill's mechanical
drift in the checkout and stages the changed files; a separate least-privilege job opens the PR with
``quarkci gh pr --key verify-quark-kernels`` only for a PROVED run, never on pull_request; the watch
asks for it. The skill step's shell is executed with the real quarkci on the miniature library."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.workflows.conftest import ROOT
from tests.workflows.test_hardening import _permissions, _step, run_step

MINIKERN = ROOT / "tests" / "fixtures" / "verify" / "minikern"
SKILL = ".cursor/skills/verify-minikern"
STEP = "The committed skill with its mechanical drift corrected, or a fresh one (inventory)"


def test_only_the_corrections_job_writes_and_only_for_a_proved_run(workflows) -> None:
    verify = workflows["verify.yml"]
    jobs = verify["jobs"]
    assert jobs["corrections"]["permissions"] == {"contents": "write", "pull-requests": "write"}
    for name, job in jobs.items():
        if name != "corrections":
            assert (job.get("permissions") or {}).get("contents") == "read", name
    assert _permissions(verify) == {"contents": "write", "pull-requests": "write"}
    condition = jobs["corrections"]["if"]
    for needed in (
        "inputs.corrections-pr",
        "needs.verify.outputs.committed == 'true'",
        "needs.verify.outputs.result == 'PROVED'",
        "github.event_name != 'pull_request'",
        "github.event_name != 'pull_request_target'",
    ):
        assert needed in condition
    assert jobs["corrections"]["needs"] == "verify"
    assert not [s for s in jobs["corrections"]["steps"] if "checkout" in str(s.get("uses", ""))]
    run = next(s["run"] for s in jobs["corrections"]["steps"] if "quarkci gh pr" in s.get("run", ""))
    assert "--key verify-quark-kernels" in run and "drift/validation_report.json" in run
    for trigger in ("workflow_dispatch", "workflow_call"):
        assert verify["on"][trigger]["inputs"]["corrections-pr"] == {
            **verify["on"][trigger]["inputs"]["corrections-pr"],
            "type": "boolean",
            "default": False,
        }
    assert set(verify["on"]) == {"workflow_dispatch", "workflow_call"}
    # the staged corrections live under a dot directory: the upload must keep hidden files
    upload = next(s for s in jobs["verify"]["steps"] if "upload-artifact" in str(s.get("uses", "")))
    assert upload["with"]["include-hidden-files"] is True


def test_the_watch_asks_for_the_corrections_pr_and_grants_what_the_job_needs(workflows) -> None:
    job = workflows["upstream-watch.yml"]["jobs"]["verify"]
    assert job["with"]["corrections-pr"] is True
    assert job["permissions"] == {"contents": "write", "pull-requests": "write"}
    # negative control: the skill-sync delivery stays its own job, with its own (drift) key
    assert "--key" not in (ROOT / ".github/workflows/skill-sync-deliver.yml").read_text()


def _committed_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(MINIKERN, repo, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "quarkci", "verify", "init", "--repo", ".", "--skills", ".cursor/skills"],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    return repo


def test_the_skill_step_stages_exactly_the_corrected_files_and_gh_pr_plans_them(workflows, tmp_path) -> None:
    repo = _committed_repo(tmp_path)
    test = repo / "tests" / "test_gemm.py"  # mechanical drift: a tolerance changed
    test.write_text(test.read_text().replace("rtol=1e-4, atol=1e-4", "rtol=1e-3, atol=1e-4"))
    # quarkci as installed, except that `installed:amd-quark` is the miniature library
    stub = f'args=("${{@/installed:amd-quark/{repo}}}")\nexec {sys.executable} -m quarkci "${{args[@]}}"\n'
    work = tmp_path / "work"
    env = {"SKILL": SKILL, "WORK": str(work), "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    script = f"cd {tmp_path}\n" + _step(workflows["verify.yml"], STEP)["run"]  # the job's workspace
    code, out, outputs = run_step(script, env, tmp_path, {"quarkci": stub})
    assert code == 0, out
    assert outputs["committed"] == "true"
    report = json.loads((work / "drift" / "validation_report.json").read_text())
    assert report["applied_fixes"] and report["changed_files"]
    staged = sorted(
        p.relative_to(work / "corrections").as_posix()
        for p in (work / "corrections").rglob("*")
        if p.is_file()
    )
    assert staged == report["changed_files"] and f"{SKILL}/features/map.json" in staged
    for name in staged:  # the staged bytes are the corrected checkout's
        assert (work / "corrections" / name).read_bytes() == (repo / name).read_bytes()
    # the proved skill is the corrected one
    assert (work / "skills" / "verify-quark-kernels" / "features" / "map.json").read_bytes() == (
        repo / SKILL / "features" / "map.json"
    ).read_bytes()

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "quarkci",
            "gh",
            "pr",
            "--key",
            "verify-quark-kernels",
            "--report",
            str(work / "drift" / "validation_report.json"),
            "--root",
            str(work / "corrections"),
            "--repo",
            "octo/skills",
            "--dry-run",
            "--json",
        ],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    plan = json.loads(done.stdout)
    assert done.returncode == 0 and plan["operation"] == "created"
    assert plan["items"][0]["key"].startswith("quarkci/verify-quark-kernels/")
    assert [s["what"] for s in plan["steps"] if s["path"].endswith("/git/blobs")] == [
        f"blob {p}" for p in staged
    ]


def test_without_drift_the_step_stages_nothing(workflows, tmp_path) -> None:
    repo = _committed_repo(tmp_path)
    stub = f'args=("${{@/installed:amd-quark/{repo}}}")\nexec {sys.executable} -m quarkci "${{args[@]}}"\n'
    work = tmp_path / "work"
    env = {"SKILL": SKILL, "WORK": str(work), "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    script = f"cd {tmp_path}\n" + _step(workflows["verify.yml"], STEP)["run"]
    code, out, outputs = run_step(script, env, tmp_path, {"quarkci": stub})
    assert code == 0, out
    assert outputs["committed"] == "true"
    assert json.loads((work / "drift" / "validation_report.json").read_text())["changed_files"] == []
    assert not [p for p in (work / "corrections").rglob("*") if p.is_file()]


PROVE = "Prove one correctness feature"


def test_the_prove_step_writes_its_result_through_quarkci(workflows, tmp_path) -> None:
    """The prove step's shell with the real quarkci on the miniature library: the command writes the
    step output ``result`` (no inline Python); INCONCLUSIVE (exit 3) passes the step, bad input fails
    it with exit 2 and no output."""
    repo = _committed_repo(tmp_path)
    work = repo / "verify-work"  # the copied skill keeps its workdir (../../..: the repository)
    (work / "skills").mkdir(parents=True)
    shutil.copytree(repo / SKILL, work / "skills" / "verify-quark-kernels")
    stub = f'exec {sys.executable} -m quarkci "$@"\n'
    script = _step(workflows["verify.yml"], PROVE)["run"]
    assert "python" not in script
    env = {"WORK": str(work), "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TMPDIR": str(tmp_path)}
    code, out, outputs = run_step(
        script, {**env, "FEATURE": "flash-correctness"}, tmp_path, {"quarkci": stub}
    )
    assert code == 0, out
    assert outputs == {"result": "INCONCLUSIVE"}
    proof = json.loads((work / "prove.json").read_text())  # the proof, as uploaded
    assert proof["failed_step"] == "doctor" and "no device for GPU-only feature" in proof["reason"]
    code, out, outputs = run_step(script, {**env, "FEATURE": "nope"}, tmp_path, {"quarkci": stub})
    assert code == 2 and "--feature nope: not in" in out
    assert outputs == {}
