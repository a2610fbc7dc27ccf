"""ptq.yml writes validation_report.md (the PTQ stages and their gate) through `quarkci ptq gate
--report-dir`, uploads it and puts it in the job summary; publish-ptq.yml (the separate least-privilege
workflow_run job) posts it, re-rendered from its JSON, as the sticky comment with `quarkci gh comment`.
The Gate step's shell is run with the real quarkci on a planted validation summary (the gate is
hermetic: no Quark)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.gates.test_ptq_gate import _summary
from tests.workflows.conftest import ROOT
from tests.workflows.test_hardening import _permissions, _step, run_step

QUARKCI = f'exec {sys.executable} -m quarkci "$@"\n'


@pytest.mark.parametrize(
    ("accuracy", "rc", "passed", "failure"),
    [(1.0, 0, "true", ""), (0.0, 1, "false", "BEHAVIOUR_PROBE_FAILED")],
)
def test_the_gate_step_writes_the_report_and_the_job_summary(
    workflows, tmp_path, accuracy, rc, passed, failure
) -> None:
    work = tmp_path / "ptq"
    work.mkdir()
    summary = _summary()
    summary["reload"]["task_accuracy"] = accuracy  # 0.0: the negative control, a collapsed export
    (work / "validation_summary.json").write_text(json.dumps(summary))
    step = _step(workflows["ptq.yml"], "Gate")
    code, out, outputs = run_step(
        step["run"], {"WORK": str(work), "PYTHONPATH": str(ROOT)}, tmp_path, {"quarkci": QUARKCI}
    )
    assert code == rc, out
    assert outputs == {"pass": passed, "failure-class": failure}  # written by `ptq gate --github-output`
    assert json.loads((work / "gate.json").read_text())["pass"] is (rc == 0)  # the verdict, uploaded
    report = (work / "validation_report.md").read_text()
    assert report.startswith("<!-- quarkci:report:ptq -->\n# PTQ gate: " + ("PASS" if rc == 0 else "FAIL"))
    assert "## Stages" in report and "| gate (ptq gate) |" in report
    assert report in (tmp_path / "summary").read_text()  # the job summary carries the report
    assert json.loads((work / "validation_report.json").read_text())["kind"] == "ptq"
    upload = next(
        s for s in workflows["ptq.yml"]["jobs"]["ptq"]["steps"] if "upload-artifact" in str(s.get("uses"))
    )
    assert "ptq/*.md" in upload["with"]["path"] and "ptq/*.json" in upload["with"]["path"]


def test_the_gate_step_on_a_summary_it_cannot_read_fails_with_user_config_error(workflows, tmp_path) -> None:
    work = tmp_path / "ptq"
    work.mkdir()
    (work / "validation_summary.json").write_text(json.dumps({"summary_version": 1, "scheme": 3}))
    step = _step(workflows["ptq.yml"], "Gate")
    code, out, outputs = run_step(
        step["run"], {"WORK": str(work), "PYTHONPATH": str(ROOT)}, tmp_path, {"quarkci": QUARKCI}
    )
    assert code == 2, out
    assert outputs == {"pass": "false", "failure-class": "USER_CONFIG_ERROR"}
    assert json.loads((work / "gate.json").read_text())["failure_class"] == "USER_CONFIG_ERROR"
    assert not (work / "validation_report.md").exists()  # no report for unreadable input


def test_ptq_stays_read_only_and_publish_ptq_holds_the_write(workflows) -> None:
    # least privilege holds: ptq.yml itself stays read-only, the writes live in publish-ptq.yml (its
    # re-rendered comment: tests/workflows/test_release_comments.py)
    post = _step(workflows["publish-ptq.yml"], "Post or update the sticky comment")
    assert post["uses"] == "$/actions/publish-report"
    assert _permissions(workflows["ptq.yml"]) == {"contents": "read", "actions": "read"}
    assert _permissions(workflows["publish-ptq.yml"])["pull-requests"] == "write"


def test_both_release_workflows_publish_validation_report_md(workflows) -> None:
    day0 = (ROOT / ".github" / "workflows" / "day0-release.yml").read_text()
    ptq = (ROOT / ".github" / "workflows" / "ptq.yml").read_text()
    assert "validation_report.md" in day0
    assert '--report-dir "$WORK"' in ptq  # ptq/validation_report.md, uploaded by the ptq/*.md glob
    assert Path(ROOT / "quarkci" / "report" / "templates" / "ptq_report.md.j2").is_file()
