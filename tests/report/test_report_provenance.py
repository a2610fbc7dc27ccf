"""A report belongs to the run that wrote it: sync records run_id, report github and report markdown
--expect-run refuse another run's report (a stale one committed in the PR or left in --out)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.core.documents import load_document
from quarkci.report.markdown import render_json
from quarkci.report.provenance import current_run_id, run_matches, stale_reason
from tests.sync.conftest import FIXTURES, build_wheel

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, None),
        ({"GITHUB_RUN_ID": "812", "GITHUB_RUN_ATTEMPT": "2"}, "812.2"),
        ({"GITHUB_RUN_ID": "812"}, "812.1"),
        ({"GITHUB_RUN_ID": "812", "QUARKCI_RUN_ID": "812.2.ab12"}, "812.2.ab12"),
        ({"QUARKCI_RUN_ID": "  ", "GITHUB_RUN_ID": "9"}, "9.1"),
        ({"QUARKCI_RUN_ID": "x" * 300}, "x" * 200),
    ],
)
def test_current_run_id(env: dict[str, str], expected: str | None) -> None:
    assert current_run_id(env) == expected


def test_run_matching_is_by_whole_dotted_parts() -> None:
    assert run_matches("812.2.ab12", "812.2") and run_matches("812.2", "812.2")
    assert not run_matches("812.21", "812.2") and not run_matches("8812.2", "812.2")
    assert not run_matches("812.2", "")  # nothing expected never "matches" by accident
    assert stale_reason({"run_id": "812.2.ab"}, "812.2") is None
    assert stale_reason({}, None) is None  # outside CI: nothing to compare
    assert "names no run" in (stale_reason({}, "812.2") or "")
    assert "written by run 811.1" in (stale_reason({"run_id": "811.1"}, "812.2") or "")


def _sync(tmp_path: Path, out: Path, upstream: str | None = None) -> int:
    wheels = {v: build_wheel(FIXTURES / f"rel_{v.replace('.', '')}", v, tmp_path) for v in ("0.98", "0.99")}
    return cli.main(
        [
            "sync",
            "--upstream",
            upstream or str(wheels["0.99"]),
            "--baseline",
            str(wheels["0.98"]),
            "--skills",
            str(tmp_path / "skills"),
            "--out",
            str(out),
            "--fail-on",
            "none",
        ]
    )


@pytest.fixture
def ws(tmp_path: Path, monkeypatch) -> Path:
    import shutil

    shutil.copytree(ROOT / "tests" / "fixtures" / "skills" / "positive", tmp_path / "skills")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "output.txt"))
    return tmp_path


def _publish(ws: Path, out: Path) -> tuple[int, list[str], str]:
    code = cli.main(["report", "github", "--report-dir", str(out), "--workspace", str(ws)])
    return code, [], (ws / "summary.md").read_text(encoding="utf-8") if (ws / "summary.md").exists() else ""


def test_sync_records_the_run_and_report_github_publishes_it(ws: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("QUARKCI_RUN_ID", "812.1.aa")
    assert _sync(ws, ws / "out") == 0
    report = load_document(ws / "out" / "validation_report.json")
    assert report["run_id"] == "812.1.aa"
    capsys.readouterr()
    code, _, summary = _publish(ws, ws / "out")
    assert code == 0
    assert summary == render_json(report)
    assert any(x.startswith("::error file=") for x in capsys.readouterr().out.splitlines())


def test_a_stale_report_in_out_is_not_published_when_sync_fails(ws: Path, monkeypatch, capsys) -> None:
    """An earlier run's report is in --out; this run's sync fails before writing (bad --upstream)."""
    monkeypatch.setenv("QUARKCI_RUN_ID", "811.1.aa")
    assert _sync(ws, ws / "out") == 0  # the earlier run
    stale = load_document(ws / "out" / "validation_report.json")
    assert stale["findings"]
    monkeypatch.setenv("QUARKCI_RUN_ID", "812.1.bb")
    assert _sync(ws, ws / "out", upstream=str(ws / "no-such.whl")) == 2  # fails before writing
    assert load_document(ws / "out" / "validation_report.json") == stale  # the stale one is still there
    capsys.readouterr()
    code, _, summary = _publish(ws, ws / "out")
    out, err = capsys.readouterr()
    assert code == 0
    assert not [x for x in out.splitlines() if x.startswith("::")]  # no annotation from the stale report
    assert "wrote no report for this run" in summary and "811.1.aa" in summary and "812.1.bb" in summary
    assert "Skill sync report" not in summary
    outputs = (ws / "output.txt").read_text(encoding="utf-8")
    assert re.search(r"^status<<quarkci_[0-9a-f]{32}\n\n", outputs, re.M)
    assert "not this run's" in err
    # negative control: the same report is published by the run that wrote it
    monkeypatch.setenv("QUARKCI_RUN_ID", "811.1.aa")
    capsys.readouterr()
    assert _publish(ws, ws / "out")[0] == 0
    assert any(x.startswith("::error file=") for x in capsys.readouterr().out.splitlines())


def test_a_report_without_run_id_is_stale_in_ci_and_fine_locally(ws: Path, monkeypatch, capsys) -> None:
    assert _sync(ws, ws / "out") == 0  # outside CI: no run_id recorded
    assert "run_id" not in load_document(ws / "out" / "validation_report.json")
    capsys.readouterr()
    assert _publish(ws, ws / "out")[0] == 0  # outside CI: published
    assert any(x.startswith("::error file=") for x in capsys.readouterr().out.splitlines())
    (ws / "summary.md").unlink()
    monkeypatch.setenv("GITHUB_RUN_ID", "812")  # the same report, committed in a PR, seen by a CI run
    _, _, summary = _publish(ws, ws / "out")
    assert "names no run" in summary
    assert not [x for x in capsys.readouterr().out.splitlines() if x.startswith("::")]


def test_the_summary_never_renders_the_md_on_disk(ws: Path, monkeypatch) -> None:
    monkeypatch.setenv("QUARKCI_RUN_ID", "812.1.aa")
    assert _sync(ws, ws / "out") == 0
    hostile = '<img src="https://t/p.png"> <details open><summary>@team</summary>\n'
    (ws / "out" / "validation_report.md").write_text(hostile, encoding="utf-8")
    _, _, summary = _publish(ws, ws / "out")
    assert "<img" not in summary and "<details open>" not in summary and "Skill sync report" in summary


def test_report_markdown_expect_run(ws: Path, monkeypatch, capsys, tmp_path: Path) -> None:
    monkeypatch.setenv("QUARKCI_RUN_ID", "812.2.aa")
    assert _sync(ws, ws / "out") == 0
    monkeypatch.delenv("QUARKCI_RUN_ID")
    capsys.readouterr()
    args = ["report", "markdown", "--report-json", str(ws / "out" / "validation_report.json")]
    assert cli.main([*args, "--expect-run", "812.2", "--output", str(tmp_path / "ok.md")]) == 0
    assert (tmp_path / "ok.md").read_text(encoding="utf-8").startswith("<!-- quarkci:report:skill-sync -->")
    assert cli.main([*args, "--expect-run", "813.1", "--output", str(tmp_path / "stale.md")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("quarkci: error: --report-json") and "written by run 812.2.aa" in line
    assert not (tmp_path / "stale.md").exists()
    # without --expect-run, no check (the flag is what a publisher passes)
    assert cli.main([*args, "--output", str(tmp_path / "any.md")]) == 0
    report = json.loads((ws / "out" / "validation_report.json").read_text(encoding="utf-8"))
    assert report["run_id"] == "812.2.aa"


def test_a_release_report_records_the_commit_and_the_publisher_checks_it() -> None:
    from quarkci.report.provenance import other_commit_reason, provenance

    sha = "ab" * 20
    env = {"GITHUB_RUN_ID": "7", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_SHA": sha.upper()}
    assert provenance(env) == {"run_id": "7.2", "head_sha": sha}
    assert provenance({}) == {}  # a local run records nothing
    assert provenance({"GITHUB_SHA": "not-a-sha"}) == {}
    report = provenance(env)
    assert other_commit_reason(report, sha) is None and other_commit_reason(report, "") is None
    assert "not for " + "cd" * 20 in (other_commit_reason(report, "cd" * 20) or "")
    assert "names no commit" in (other_commit_reason({}, sha) or "")  # negative control: no record


def test_report_markdown_refuses_a_release_report_without_its_records(tmp_path, capsys) -> None:
    from quarkci import cli

    report = {"status": "success", "summary": "s", "evidence": [], "next_actions": [], "kind": "ptq"}
    (tmp_path / "validation_report.json").write_text(json.dumps(report))
    argv = ["report", "markdown", "--report-json", str(tmp_path / "validation_report.json")]
    assert cli.main([*argv, "--output", str(tmp_path / "c.md")]) == 2
    err = capsys.readouterr().err
    assert "a ptq report needs validation_summary.json beside it" in err and err.count("\n") == 1
    assert not (tmp_path / "c.md").exists()
