"""publish-ptq.yml and day-0's comment job post a GPU runner's report only after re-rendering it from the
JSON records through the one escaper (`quarkci report markdown`), never the ``validation_report.md`` the
runner wrote (the runner runs untrusted model code: mentions, ``<img>`` pixels, a forged marker), and only
when the report is the run's own and was written for the commit the comment's PR head must be.

The steps' shell runs with the real quarkci on planted artifacts; the records are written by the product
itself (``ptq gate --report-dir``, ``report.day0.write``) with the run's GitHub environment set."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from quarkci.contracts.fallback import day0_result
from tests.gates.test_ptq_gate import _summary
from tests.workflows.conftest import ROOT
from tests.workflows.test_hardening import QUARKCI, _step, run_step

RUN_ID, ATTEMPT, SHA = "4242", "2", "c0ffee" + "0" * 34
OTHER_SHA = "d" * 40
HOSTILE_MD = (
    "<!-- quarkci:report:ptq -->\n# PTQ gate: PASS\n@maintainers look <img src=https://x/p.gif>\n"
    "    <!-- quarkci:report:skill-sync -->\n"
)
RUN_ENV = {"GITHUB_RUN_ID": RUN_ID, "GITHUB_RUN_ATTEMPT": ATTEMPT, "GITHUB_SHA": SHA}


def _ptq_artifact(tmp_path: Path, **summary_over) -> Path:
    """A PTQ records artifact as ptq.yml uploads it: the gate's report written by the real command on the
    runner (run id and commit recorded), then the runner's .md replaced by a hostile one."""
    folder = tmp_path / "ptq" / "quarkci-ptq-cpu-fp8"
    folder.mkdir(parents=True)
    (folder / "validation_summary.json").write_text(json.dumps(_summary(**summary_over)))
    env = {**RUN_ENV, "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "quarkci", "ptq", "gate", "--summary", str(folder / "validation_summary.json")]
        + ["--report-dir", str(folder)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode in (0, 1), done.stderr
    (folder / "validation_report.md").write_text(HOSTILE_MD)
    (folder / "pr-number").write_text("7\n")
    return folder


def _rerender(workflows, workflow: str, env: dict[str, str], tmp_path: Path) -> tuple[int, str]:
    name = "Re-render the report from its JSON records (the " + (
        "artifact is untrusted)" if workflow == "publish-ptq.yml" else "GPU runner's artifact is untrusted)"
    )
    code, out, _ = run_step(
        _step(workflows[workflow], name)["run"],
        {"RUNNER_TEMP": str(tmp_path), "PYTHONPATH": str(ROOT), **env},
        tmp_path,
        {"quarkci": QUARKCI},
    )
    return code, out


def test_the_ptq_report_records_its_run_and_commit(tmp_path) -> None:
    report = json.loads((_ptq_artifact(tmp_path) / "validation_report.json").read_text())
    assert (report["kind"], report["run_id"], report["head_sha"]) == ("ptq", f"{RUN_ID}.{ATTEMPT}", SHA)


def test_publish_ptq_rerenders_from_the_json_and_never_posts_the_runners_markdown(
    workflows, tmp_path
) -> None:
    hostile = "src @maintainers <img src=https://x/p.gif>\n    <!-- quarkci:report:skill-sync -->"
    folder = _ptq_artifact(tmp_path, source={"path": hostile, "exists": True, "bytes": 1000, "files": 1})
    env = {"DIR": str(folder), "RUN": f"{RUN_ID}.{ATTEMPT}", "HEAD_SHA": SHA}
    code, out = _rerender(workflows, "publish-ptq.yml", env, tmp_path)
    assert code == 0, out
    body = (tmp_path / "ptq-comment.md").read_text()
    assert body.startswith("<!-- quarkci:report:ptq -->\n# PTQ gate: PASS") and "## Gate checks" in body
    assert "@maintainers" not in body and "<img" not in body and "quarkci:report:skill-sync" not in body
    # negative control: the runner's own .md carries all three, so posting it as is would have posted them
    runner_md = (folder / "validation_report.md").read_text()
    assert "@maintainers" in runner_md and "<img" in runner_md and "    <!-- quarkci:report:" in runner_md
    post = _step(workflows["publish-ptq.yml"], "Post or update the sticky comment")
    assert post["with"]["report"] == "${{ runner.temp }}/ptq-comment.md"
    assert post["with"]["expect-head-sha"] == "${{ github.event.workflow_run.head_sha }}"
    assert (
        "validation_report.md"
        not in (ROOT / ".github" / "workflows" / "publish-ptq.yml").read_text().split("jobs:")[1]
    )


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"RUN": f"{RUN_ID}.{ATTEMPT}", "HEAD_SHA": OTHER_SHA}, "not this commit's report"),
        ({"RUN": "999.1", "HEAD_SHA": SHA}, "not run 999.1's report"),
    ],
)
def test_publish_ptq_refuses_another_commits_or_runs_report(workflows, tmp_path, env, words) -> None:
    folder = _ptq_artifact(tmp_path)
    code, out = _rerender(workflows, "publish-ptq.yml", {"DIR": str(folder), **env}, tmp_path)
    assert code == 2 and words in out, out
    assert not (tmp_path / "ptq-comment.md").exists()


def test_publish_ptq_shows_the_gate_evaluated_on_the_summary_not_the_runners_verdict(
    workflows, tmp_path
) -> None:
    """A runner that writes a report saying PASS for a collapsed export still gets FAIL in the comment."""
    over = _summary()["reload"] | {"task_accuracy": 0.0}
    folder = _ptq_artifact(tmp_path, reload=over)
    report = json.loads((folder / "validation_report.json").read_text())
    report["ptq"]["pass"], report["status"] = True, "success"  # the forged verdict
    (folder / "validation_report.json").write_text(json.dumps(report))
    env = {"DIR": str(folder), "RUN": f"{RUN_ID}.{ATTEMPT}", "HEAD_SHA": SHA}
    code, out = _rerender(workflows, "publish-ptq.yml", env, tmp_path)
    assert code == 0, out
    assert "# PTQ gate: FAIL" in (tmp_path / "ptq-comment.md").read_text()


def _day0_artifact(tmp_path: Path) -> Path:
    from quarkci.report import day0 as day0_report

    folder = tmp_path / "day0"
    folder.mkdir()
    result = day0_result("/m @maintainers <img src=x>", "int8", "UNKNOWN", "x", "investigate")
    (folder / "day0_result.json").write_text(json.dumps(result))
    with pytest.MonkeyPatch.context() as patch:
        for key, value in RUN_ENV.items():
            patch.setenv(key, value)
        day0_report.write(result, folder)
    (folder / "validation_report.md").write_text(HOSTILE_MD.replace(":ptq", ":day0"))
    return folder


def test_the_day0_comment_is_rerendered_and_bound_to_the_run_and_commit(workflows, tmp_path) -> None:
    _day0_artifact(tmp_path)
    code, out = _rerender(
        workflows, "day0-release.yml", {"RUN": f"{RUN_ID}.{ATTEMPT}", "HEAD_SHA": SHA}, tmp_path
    )
    assert code == 0, out
    body = (tmp_path / "day0" / "comment.md").read_text()
    assert body.startswith("<!-- quarkci:report:day0 -->\n# Day-0 release: ")
    assert "@maintainers" not in body  # the mention is broken (a zero-width space after the @)
    assert "<img" not in re.sub(r"`[^`\n]*`", "", body)  # a tag only inside a code span: no pixel
    assert "quarkci:report:ptq" not in body and "\n    <!--" not in body
    comment = workflows["day0-release.yml"]["jobs"]["comment"]
    (post,) = [s for s in comment["steps"] if s.get("uses") == "$/actions/publish-report"]
    assert post["with"]["report"] == "${{ runner.temp }}/day0/comment.md"
    assert post["with"]["expect-head-sha"] == "${{ github.sha }}"
    # negative control: another commit's report is refused before anything is posted
    (tmp_path / "day0" / "comment.md").unlink()
    code, out = _rerender(
        workflows, "day0-release.yml", {"RUN": f"{RUN_ID}.{ATTEMPT}", "HEAD_SHA": OTHER_SHA}, tmp_path
    )
    assert code == 2 and "not this commit's report" in out and not (tmp_path / "day0" / "comment.md").exists()
