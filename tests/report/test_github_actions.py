"""quarkci report github: outputs, job summary, annotations and staging for the skill-sync action."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.core.errors import BadInputError
from quarkci.report import github_actions as rtg
from quarkci.report.markdown import render_json


def _finding(kind: str, n: int, file: str | None = "demo/SKILL.md", **extra) -> dict:
    finding = {
        "fingerprint": f"{n:016x}",
        "kind": kind,
        "rule": f"rule-{n}",
        "category": "cli_flags",
        "skill": "demo",
        "subject": f"--flag-{n}",
        "skill_says": f"passes `--flag-{n}`",
        "source_says": "removed",
        "impact": "the command fails",
        "skill_location": {"file": file, "line": n} if file else None,
        "source_location": None,
        "fix": None,
    }
    finding.update(extra)
    return finding


def _report(findings: list[dict], **extra) -> dict:
    counts = {k: sum(f["kind"] == k for f in findings) for k in rtg.KINDS} | {"ignored": 0}
    report = {
        "status": "partial" if findings else "success",
        "summary": "s",
        "evidence": [],
        "next_actions": [],
        "upstream": {"spec": "amd-quark==0.13", "version": "0.13", "kind": "wheel", "label": "x"},
        "skills_root": "skills",
        "counts": counts,
        "findings": findings,
        "changed_files": [],
        "applied_fixes": [],
        "report_version": 1,
        "mode": "audit",
        "baseline": None,
        "skills": [],
        "release_diff": [],
        "blocked": None,
    }
    report.update(extra)
    return report


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    skill = tmp_path / "skills" / "demo" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: demo\n---\n" + "line\n" * 40, encoding="utf-8")
    return tmp_path


def test_escaping_neutralises_workflow_commands() -> None:
    hostile = "a%b\r\n::add-mask::x,y:z"
    assert rtg.escape_data(hostile) == "a%25b%0D%0A::add-mask::x,y:z"
    assert rtg.escape_property(hostile) == "a%25b%0D%0A%3A%3Aadd-mask%3A%3Ax%2Cy%3Az"


def test_annotations_point_at_skill_lines_most_severe_first(workspace: Path) -> None:
    findings = [_finding("breaking", 3), _finding("semantic", 5), _finding("mechanical", 7)]
    lines = rtg.annotations(_report(findings), workspace)
    assert lines == [
        "::error file=skills/demo/SKILL.md,line=3,title=quarkci breaking%3A rule-3::"
        "demo: passes `--flag-3`; upstream: removed",
        "::warning file=skills/demo/SKILL.md,line=5,title=quarkci semantic%3A rule-5::"
        "demo: passes `--flag-5`; upstream: removed",
        "::notice file=skills/demo/SKILL.md,line=7,title=quarkci mechanical%3A rule-7::"
        "demo: passes `--flag-7`; upstream: removed",
    ]


def test_at_most_ten_annotations(workspace: Path) -> None:
    findings = [_finding("breaking", n) for n in range(1, 26)]
    lines = rtg.annotations(_report(findings), workspace)
    assert len(lines) == 10
    assert [int(re.search(r"line=(\d+)", x).group(1)) for x in lines] == list(range(1, 11))


def test_no_annotation_without_a_workspace_file(workspace: Path) -> None:
    findings = [
        _finding("unverifiable", 1),  # not drift
        _finding("breaking", 2, file=None),  # no location
        _finding("breaking", 3, file="missing/SKILL.md"),  # not in the workspace
        _finding("breaking", 4, file="../../../etc/passwd"),  # escapes the workspace
        _finding("breaking", 5),  # the only one annotated
    ]
    lines = rtg.annotations(_report(findings), workspace)
    assert len(lines) == 1 and "line=5" in lines[0]
    bundled = _report([_finding("breaking", 5)], skills_root="bundled:amd-quark==0.13")
    assert rtg.annotations(bundled, workspace) == []


def test_hostile_finding_text_stays_on_one_annotation_line(workspace: Path) -> None:
    finding = _finding("breaking", 2, skill_says="x\r\n::error file=evil::pwned %0A", rule="r,1:2")
    (line,) = rtg.annotations(_report([finding]), workspace)
    assert "\n" not in line and "\r" not in line
    assert line.endswith("::demo: x%0D%0A::error file=evil::pwned %250A; upstream: removed")
    assert "title=quarkci breaking%3A r%2C1%3A2::" in line


def test_summary_is_cut_to_the_limit_at_a_line_boundary() -> None:
    text = "".join(f"| row {n} | é |\n" for n in range(1000))
    assert rtg.summary(text, limit_bytes=10**6) == text
    cut = rtg.summary(text, limit_bytes=500)
    body, note = cut.split("\n\n_Report cut")
    assert len(body.encode("utf-8")) <= 500 and text.startswith(body) and body.endswith("|")
    assert "artifact" in note


def test_outputs_and_main_write_github_files(workspace: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    report_dir = tmp_path / "out"
    report_dir.mkdir()
    report = _report(
        [_finding("breaking", 2), _finding("mechanical", 4)], changed_files=["skills/demo/SKILL.md"]
    )
    (report_dir / "validation_report.json").write_text(json.dumps(report), encoding="utf-8")
    # the .md on disk is never what the summary shows (raw HTML in it stays out)
    (report_dir / "validation_report.md").write_text(
        '# Skill sync\n<img src="https://t/p.png">\n', encoding="utf-8"
    )
    output, step_summary = tmp_path / "gh_output", tmp_path / "gh_summary"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    stage = tmp_path / "stage"

    assert (
        cli.main(
            [
                "report",
                "github",
                "--report-dir",
                str(report_dir),
                "--workspace",
                str(workspace),
                "--stage-changed",
                str(stage),
            ]
        )
        == 0
    )

    matches = re.findall(r"^([\w-]+)<<(quarkci_[0-9a-f]{32})\n(.*?)\n\2$", output.read_text(), re.M | re.S)
    parsed = {key: value for key, _, value in matches}
    assert parsed["status"] == "partial"
    assert (parsed["breaking"], parsed["mechanical"], parsed["semantic"]) == ("1", "1", "0")
    assert parsed["upstream-version"] == "0.13"
    assert json.loads(parsed["changed-files"]) == ["skills/demo/SKILL.md"]
    assert parsed["report-json"] == str(report_dir / "validation_report.json")
    assert step_summary.read_text() == render_json(report) and "<img" not in step_summary.read_text()
    printed = capsys.readouterr().out.splitlines()
    assert [x.split(" ")[0] for x in printed[:2]] == ["::error", "::notice"]
    assert (stage / "skills/demo/SKILL.md").read_text() == (workspace / "skills/demo/SKILL.md").read_text()


def test_missing_report_is_summarised_not_fatal(tmp_path: Path, monkeypatch) -> None:
    output, step_summary = tmp_path / "gh_output", tmp_path / "gh_summary"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    (tmp_path / "empty").mkdir()  # the composite action creates --out before sync runs
    assert cli.main(["report", "github", "--report-dir", str(tmp_path / "empty")]) == 0
    assert "wrote no report" in step_summary.read_text()
    assert re.search(r"^status<<quarkci_[0-9a-f]{32}\n\n", output.read_text(), re.M)


def test_a_report_dir_that_does_not_exist_is_bad_input_and_writes_nothing(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    output, step_summary = tmp_path / "gh_output", tmp_path / "gh_summary"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    assert cli.main(["report", "github", "--report-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1 and err[0].startswith("quarkci: error: --report-dir") and "no such directory" in err[0]
    )
    assert not output.exists() and not step_summary.exists()


def test_stage_changed_refuses_paths_outside_the_workspace(workspace: Path, tmp_path: Path) -> None:
    for bad in ("/etc/passwd", "../outside", "skills/../../x", ".", "skills//demo/SKILL.md", "", 7):
        with pytest.raises(BadInputError, match=r"^--stage-changed: changed file"):
            rtg.stage_changed([bad], workspace, tmp_path / "stage")
    with pytest.raises(BadInputError, match="not a regular file"):
        rtg.stage_changed(["skills/nope.md"], workspace, tmp_path / "stage")
    (workspace / "skills" / "leak.md").symlink_to("/etc/passwd")  # a link out of the workspace
    with pytest.raises(BadInputError, match="outside"):
        rtg.stage_changed(["skills/leak.md"], workspace, tmp_path / "stage")
    # the whole plan is checked first: a bad name after a good one copies nothing
    with pytest.raises(BadInputError):
        rtg.stage_changed(["skills/demo/SKILL.md", "skills/nope.md"], workspace, tmp_path / "stage")
    assert not (tmp_path / "stage").exists()
    assert rtg.stage_changed(["skills/demo/SKILL.md"], workspace, tmp_path / "stage") == [
        "skills/demo/SKILL.md"
    ]


def _symlinked_workspace(tmp_path: Path) -> Path:
    """``ws/`` beside a secret; ``ws/link -> ..`` (a directory out of it), ``ws/file -> ../secret.txt``,
    ``ws/inner -> skills`` (a link that stays inside)."""
    ws = tmp_path / "ws"
    (ws / "skills" / "demo").mkdir(parents=True)
    (ws / "skills" / "demo" / "SKILL.md").write_text("fixed\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("token\n", encoding="utf-8")
    (ws / "link").symlink_to("..", target_is_directory=True)
    (ws / "file").symlink_to(tmp_path / "secret.txt")
    (ws / "inner").symlink_to("skills", target_is_directory=True)
    return ws


@pytest.mark.parametrize("changed", ["link/secret.txt", "file", "link/ws/link/secret.txt"])
def test_stage_changed_never_follows_a_link_out_of_the_workspace(tmp_path: Path, changed: str) -> None:
    ws = _symlinked_workspace(tmp_path)
    stage = tmp_path / "stage"
    with pytest.raises(BadInputError, match=r"outside"):
        rtg.stage_changed(["skills/demo/SKILL.md", changed], ws, stage)
    assert not any(p.is_file() for p in stage.rglob("*"))  # checked before anything is copied
    # the negative control: the same path read without the check is the secret
    assert (ws / changed).read_text(encoding="utf-8") == "token\n"


def test_stage_changed_follows_a_link_that_stays_inside(tmp_path: Path) -> None:
    ws = _symlinked_workspace(tmp_path)
    stage = tmp_path / "stage"
    assert rtg.stage_changed(["inner/demo/SKILL.md"], ws, stage) == ["inner/demo/SKILL.md"]
    assert (stage / "inner/demo/SKILL.md").read_text(encoding="utf-8") == "fixed\n"


def test_stage_changed_refuses_a_link_planted_in_the_stage_dir(tmp_path: Path) -> None:
    ws = _symlinked_workspace(tmp_path)
    stage, elsewhere = tmp_path / "stage", tmp_path / "elsewhere"
    stage.mkdir()
    elsewhere.mkdir()
    (stage / "skills").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(BadInputError, match=r"copy of 'skills/demo/SKILL.md'.*outside"):
        rtg.stage_changed(["skills/demo/SKILL.md"], ws, stage)
    assert list(elsewhere.iterdir()) == []


def test_report_github_stage_changed_via_a_link_is_exit_2(tmp_path: Path, monkeypatch, capsys) -> None:
    ws = _symlinked_workspace(tmp_path)
    report_dir = tmp_path / "out"
    report_dir.mkdir()
    report = _report([], changed_files=["link/secret.txt"])
    (report_dir / "validation_report.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    args = ["report", "github", "--report-dir", str(report_dir), "--workspace", str(ws)]
    assert cli.main([*args, "--stage-changed", str(tmp_path / "stage")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert (
        line.startswith("quarkci: error: --stage-changed: changed file 'link/secret.txt'")
        and "outside" in line
    )
    assert not (tmp_path / "stage" / "link").exists()


def test_report_github_outside_actions_says_what_it_would_have_written(
    workspace: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    """Issue 23: without $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY it used to exit 0 and print nothing."""
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    report_dir = tmp_path / "out"
    report_dir.mkdir()
    report = _report([_finding("breaking", 2, file=None), _finding("semantic", 3, file=None)])
    (report_dir / "validation_report.json").write_text(json.dumps(report), encoding="utf-8")
    args = ["report", "github", "--report-dir", str(report_dir), "--workspace", str(workspace)]
    assert cli.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("quarkci: GITHUB_OUTPUT is not set")
    printed = dict(line.strip().split("=", 1) for line in out[1:10])
    assert printed == rtg.outputs(report, report_dir)
    assert (printed["status"], printed["breaking"], printed["semantic"]) == ("partial", "1", "1")
    size = len(rtg.summary(render_json(report)).encode("utf-8"))
    assert out[10].startswith(
        f"quarkci: GITHUB_STEP_SUMMARY is not set; the job summary would be {size} bytes"
    )
    assert "starting: # " in out[10]  # the report's heading, not its hidden marker
    assert out[11].endswith(
        f"quarkci report markdown --report-json {report_dir / 'validation_report.json'} --output FILE"
    )
    assert len(out) == 12


def test_report_github_inside_actions_prints_no_plan(tmp_path: Path, monkeypatch, capsys) -> None:
    """Negative control: with both files set nothing of the above is printed; with one, only the other's."""
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "o"))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "s"))
    assert cli.main(["report", "github", "--report-dir", str(tmp_path / "empty")]) == 0
    assert capsys.readouterr().out == ""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    assert cli.main(["report", "github", "--report-dir", str(tmp_path / "empty")]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("quarkci: GITHUB_STEP_SUMMARY is not set") and "wrote no report" in line


def test_outside_actions_escapes_values_spanning_lines() -> None:
    lines = rtg.outside_actions({"upstream-version": "1.0\n::error::x"}, "s\n", None, env={})
    assert lines[1] == '  upstream-version="1.0\\n::error::x"'
