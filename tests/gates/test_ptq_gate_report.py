"""``ptq gate --report-dir DIR`` writes the PTQ ``validation_report.{md,json}`` (kind ``ptq``: the PTQ
stages and the gate) from a planted validation summary, through the one report producer. No Quark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from quarkci.cli import main
from quarkci.core.documents import read_artifact
from tests.gates.test_ptq_gate import _summary

ROOT = Path(__file__).resolve().parents[2]


def _plant(tmp_path: Path, summary: dict) -> Path:
    path = tmp_path / "validation_summary.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    return path


def test_a_passing_gate_writes_the_report_with_the_stages(tmp_path, capsys):
    summary = _plant(tmp_path, _summary())
    out = tmp_path / "report"
    assert main(["ptq", "gate", "--summary", str(summary), "--report-dir", str(out)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    md = (out / "validation_report.md").read_text(encoding="utf-8")
    assert md.startswith("<!-- quarkci:report:ptq -->\n# PTQ gate: PASS\n")
    assert "| quantize and export (ptq run) | `succeeded` | `scheme fp8` |" in md
    assert "| validate (ptq validate) | `done` | `reload ok; demo task accuracy 100% (source 100%)` |" in md
    assert "| gate (ptq gate) | `PASS` |" in md
    assert md.count("| pass |") == len(verdict["checks"]) == 13  # one row per gate check
    doc = read_artifact("validation_report", out / "validation_report.json")
    assert (
        doc["kind"] == "ptq"
        and doc["status"] == "success"
        and doc["ptq"] == {"pass": True, "failure_class": None, "scheme": "fp8", "size_ratio": 0.26}
    )


def test_a_failing_gate_writes_the_failure_into_the_report(tmp_path, capsys):
    # negative control: the corrupted-scales case (reload clean, demo accuracy collapsed)
    bad = _summary()
    bad["reload"]["task_accuracy"] = 0.0
    bad["run"] = {
        "status": "succeeded",
        "scheme": "fp8",
        "stage": None,
        "failure_class": None,
        "message": None,
    }
    summary = _plant(tmp_path, bad)
    out = tmp_path / "report"
    assert main(["ptq", "gate", "--summary", str(summary), "--report-dir", str(out)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    cls = verdict["failure_class"]
    assert cls and verdict["pass"] is False
    md = (out / "validation_report.md").read_text(encoding="utf-8")
    assert md.startswith(f"<!-- quarkci:report:ptq -->\n# PTQ gate: FAIL ({cls})\n")
    assert f"| gate (ptq gate) | `FAIL` | `{cls}` |" in md
    assert "demo task accuracy 0% (source 100%)" in md
    doc = read_artifact("validation_report", out / "validation_report.json")
    assert doc["status"] == "failed" and doc["ptq"]["failure_class"] == cls


def test_a_failed_run_is_named_in_the_stages(tmp_path, capsys):
    failed = _summary(
        run={
            "status": "failed",
            "scheme": "mx9",
            "stage": "export",
            "failure_class": "EXPORT_FAILED",
            "message": "no exporter",
        }
    )
    summary = _plant(tmp_path, failed)
    main(["ptq", "gate", "--summary", str(summary), "--report-dir", str(tmp_path / "r")])
    md = (tmp_path / "r" / "validation_report.md").read_text(encoding="utf-8")
    assert "| quantize and export (ptq run) | `failed` | `stage export: EXPORT_FAILED: no exporter` |" in md


def test_the_report_needs_no_quark_import(tmp_path):
    summary = _plant(tmp_path, _summary())
    code = (
        "import sys\nfrom quarkci.cli import main\n"
        f"rc = main(['ptq', 'gate', '--summary', {str(summary)!r}, '--report-dir', {str(tmp_path / 'r')!r}])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('quark', 'torch', 'transformers'))\n"
        "print(rc, heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.stdout.strip().splitlines()[-1] == "0 []", done.stderr
    assert (tmp_path / "r" / "validation_report.md").is_file()


def test_bad_report_dir_is_exit_2_before_the_summary_is_read(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert (
        main(["ptq", "gate", "--summary", str(tmp_path / "missing.json"), "--report-dir", str(blocker)]) == 2
    )
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--report-dir" in err and "missing.json" not in err


def test_unreadable_summary_writes_no_report(tmp_path, capsys):
    summary = tmp_path / "validation_summary.json"
    summary.write_text("{not json")
    assert main(["ptq", "gate", "--summary", str(summary), "--report-dir", str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r" / "validation_report.md").exists()
    assert json.loads(capsys.readouterr().out)["failure_class"] == "USER_CONFIG_ERROR"
