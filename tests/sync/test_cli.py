"""``quarkci sync`` end to end on the miniature releases: exit codes, golden reports, --fix, blocked audit."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.core.documents import read_artifact

from .conftest import FIXTURES

GOLDEN = FIXTURES / "golden"


def _run(wheels, skills: Path | str, out: Path, *extra: str) -> int:
    return main(
        [
            "sync",
            "--upstream",
            str(wheels["0.99"]),
            "--baseline",
            str(wheels["0.98"]),
            "--skills",
            str(skills),
            "--out",
            str(out),
            *extra,
        ]
    )


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run from tmp_path with relative paths, so reports hold no host paths."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _stage(wheels, tmp: Path) -> dict[str, str]:
    """Copy wheels and skills under ``tmp`` and return relative specs (stable report text)."""
    for path in wheels.values():
        shutil.copy(path, tmp / path.name)
    shutil.copytree(FIXTURES / "skills", tmp / "skills")
    return {v: p.name for v, p in wheels.items()}


def test_exit_codes(wheels, in_tmp):
    assert _run(wheels, FIXTURES / "skills" / "positive", in_tmp / "a") == 1
    assert _run(wheels, FIXTURES / "skills" / "positive", in_tmp / "b", "--fail-on", "none") == 0
    assert _run(wheels, FIXTURES / "skills" / "negative", in_tmp / "c") == 0
    assert _run(wheels, FIXTURES / "skills" / "negative", in_tmp / "d", "--fail-on", "mechanical") == 0
    # semantic threshold: the positive skill has semantic and breaking drift
    assert _run(wheels, FIXTURES / "skills" / "positive", in_tmp / "e", "--fail-on", "semantic") == 1


def test_golden_reports_are_byte_identical(wheels, in_tmp, capsys):
    names = _stage(wheels, in_tmp)
    wheels_rel = {v: Path(n) for v, n in names.items()}
    assert _run(wheels_rel, "skills/positive", Path("out1")) == 1
    assert _run(wheels_rel, "skills/positive", Path("out2")) == 1
    for name in ("validation_report.md", "validation_report.json", "validation_report.sarif"):
        first = (in_tmp / "out1" / name).read_bytes()
        assert first == (in_tmp / "out2" / name).read_bytes(), name
    if os.environ.get("QUARKCI_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        for name in ("validation_report.md", "validation_report.json", "validation_report.sarif"):
            shutil.copy(in_tmp / "out1" / name, GOLDEN / name)
    for name in ("validation_report.md", "validation_report.json", "validation_report.sarif"):
        assert (in_tmp / "out1" / name).read_text(encoding="utf-8") == (GOLDEN / name).read_text(
            encoding="utf-8"
        )
    document = read_artifact("validation_report", in_tmp / "out1" / "validation_report.json")
    assert document["status"] == "failed" and document["mode"] == "audit"
    # contract-none-shipped (a quarkci-schema comparison) left the skill audit: 5 unverifiable, not 6;
    # `export_gguf` named in prose is no function of the miniature 0.99 wheel (python-name-unknown)
    assert document["counts"] == {
        "breaking": 5,
        "semantic": 1,
        "mechanical": 9,
        "unverifiable": 5,
        "ignored": 0,
    }
    assert document["baseline"]["version"] == "0.98"


def test_json_flag_prints_the_report(wheels, in_tmp, capsys):
    assert _run(wheels, FIXTURES / "skills" / "negative", in_tmp / "o", "--json") == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads((in_tmp / "o" / "validation_report.json").read_text(encoding="utf-8"))
    assert printed["status"] == "success"


def test_fix_applies_mechanical_only_and_is_idempotent(wheels, in_tmp, skills_copy):
    skill = skills_copy / "positive" / "drifty" / "SKILL.md"
    skill.chmod(0o644)
    before = skill.read_text(encoding="utf-8")
    assert _run(wheels, skills_copy / "positive", in_tmp / "f1", "--fix") == 1  # breaking remains
    assert skill.stat().st_mode & 0o777 == 0o644  # --fix keeps the file's permissions
    after = skill.read_text(encoding="utf-8")
    assert after != before
    report = json.loads((in_tmp / "f1" / "validation_report.json").read_text(encoding="utf-8"))
    assert len(report["applied_fixes"]) == 8  # 9 mechanical; the default-change finding has no fix
    assert len(report["changed_files"]) == 1 and report["changed_files"][0].endswith("drifty/SKILL.md")
    assert "- Python 3.10 to 3.13 and PyTorch 2.2 or newer." in after
    assert "## Available Quantization Schemes (4 total)" in after
    # nvfp4 is not in the 0.98 baseline: the note says only what is true, in the Description column
    assert "| `nvfp4` | new since amd-quark 0.98; describe before use |" in after
    assert "  --exclude lm_head \\" in after
    # breaking findings untouched
    assert "| `old_scheme` |" in after and "--old_flag" in after and "quark/old/removed.py" in after
    # after the fix, only non-fixable drift is left
    assert report["counts"]["mechanical"] == 1
    assert _run(wheels, skills_copy / "positive", in_tmp / "f2", "--fix") == 1
    assert skill.read_text(encoding="utf-8") == after
    again = json.loads((in_tmp / "f2" / "validation_report.json").read_text(encoding="utf-8"))
    assert again["applied_fixes"] == [] and again["changed_files"] == []


def test_changed_files_are_relative_to_the_repository_root_whatever_the_cwd(wheels, tmp_path, monkeypatch):
    from quarkci.github.report_input import load_report, read_changed_files

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)  # a repository root marker, as a checkout has
    shutil.copytree(FIXTURES / "skills", repo / "skills")
    elsewhere = tmp_path / "elsewhere" / "deep"
    elsewhere.mkdir(parents=True)
    for cwd, out in ((elsewhere, tmp_path / "r1"), (repo / "skills" / "positive", tmp_path / "r2")):
        shutil.rmtree(repo / "skills")
        shutil.copytree(FIXTURES / "skills", repo / "skills")
        monkeypatch.chdir(cwd)
        assert _run(wheels, os.path.relpath(repo / "skills" / "positive"), out, "--fix") == 1
        report = json.loads((out / "validation_report.json").read_text(encoding="utf-8"))
        assert report["changed_files"] == ["skills/positive/drifty/SKILL.md"], cwd
        files = read_changed_files(load_report(out / "validation_report.json"), repo)
        assert files["skills/positive/drifty/SKILL.md"] == (repo / report["changed_files"][0]).read_bytes()


def test_outside_a_repository_changed_files_stay_relative_to_the_cwd(wheels, in_tmp, skills_copy):
    assert _run(wheels, skills_copy / "positive", in_tmp / "f", "--fix") == 1
    report = json.loads((in_tmp / "f" / "validation_report.json").read_text(encoding="utf-8"))
    assert report["changed_files"] == ["skills/positive/drifty/SKILL.md"]  # in_tmp is the cwd, no .git above


def test_a_fix_run_reports_mode_fix_and_applied_and_left_counts(wheels, in_tmp, skills_copy):
    assert _run(wheels, skills_copy / "positive", in_tmp / "audit", "--fail-on", "none") == 0
    audit = json.loads((in_tmp / "audit" / "validation_report.json").read_text(encoding="utf-8"))
    assert audit["mode"] == "audit" and "fixes applied" not in audit["summary"]  # negative control
    assert "8 of these can be applied with `--fix`" in (in_tmp / "audit" / "validation_report.md").read_text()
    assert _run(wheels, skills_copy / "positive", in_tmp / "fix", "--fix", "--fail-on", "none") == 0
    report = read_artifact("validation_report", in_tmp / "fix" / "validation_report.json")
    assert report["mode"] == "fix"
    # the mechanical finding left has no fix: the summary says it is a hand edit, not "nothing left"
    assert report["summary"] == (
        "7 findings: 5 breaking, 1 semantic, 1 mechanical; 5 unverifiable; 8 fixes applied, 0 fixable left, "
        "1 mechanical to edit by hand"
    )
    assert len(report["applied_fixes"]) == 8 and report["counts"]["mechanical"] == 1
    (left,) = [f for f in report["findings"] if f["kind"] == "mechanical"]
    assert left["fix"] is None
    md = (in_tmp / "fix" / "validation_report.md").read_text(encoding="utf-8")
    assert (
        "**Mode:** fix" in md
        and "`--fix` applied 8 fixes" in md
        and "0 of the findings below can still" in md
    )
    # a second --fix run finds nothing left to fix: still a fix run, said so (the command passes fix=True)
    assert _run(wheels, skills_copy / "positive", in_tmp / "fix2", "--fix", "--fail-on", "none") == 0
    again = json.loads((in_tmp / "fix2" / "validation_report.json").read_text(encoding="utf-8"))
    assert again["mode"] == "fix" and again["summary"].endswith(
        "; 0 fixes applied, 0 fixable left, 1 mechanical to edit by hand"
    )


def test_the_report_says_fix_when_the_producer_says_so_even_with_nothing_applied():
    from quarkci.report.dto import build
    from quarkci.sync.outcome import SyncOutcome
    from quarkci.sync.policy import FindingSet

    outcome = SyncOutcome(
        mode="audit",
        upstream=("amd-quark==0.13", "0.13", "wheel", "w"),
        baseline=("0.12", "b"),
        skills_root="skills",
        skills=(),
        findings=FindingSet(()),
        fix=True,
    )
    report = build(outcome)
    assert report.mode == "fix" and report.summary.endswith("; 0 fixes applied, 0 fixable left")
    assert build(replace(outcome, fix=None)).mode == "audit"  # inferred: nothing applied, nothing changed
    assert build(replace(outcome, mode="calibration")).mode == "calibration"


def test_fix_refuses_bundled_skills(wheels, in_tmp, capsys):
    assert (
        main(
            [
                "sync",
                "--upstream",
                str(wheels["0.99"]),
                "--baseline",
                str(wheels["0.98"]),
                "--skills",
                f"bundled:{wheels['0.99']}",
                "--fix",
                "--out",
                str(in_tmp / "x"),
            ]
        )
        == 2
    )
    assert "--fix needs --skills DIR" in capsys.readouterr().err
    assert not (in_tmp / "x").exists()


def test_unreachable_upstream_writes_a_blocked_report(in_tmp, capsys):
    code = main(
        [
            "sync",
            "--upstream",
            "amd-quark",
            "--skills",
            str(FIXTURES / "skills" / "positive"),
            "--out",
            str(in_tmp / "blocked"),
        ]
    )
    assert code == 3
    report = read_artifact("validation_report", in_tmp / "blocked" / "validation_report.json")
    assert report["mode"] == "blocked" and report["status"] == "failed"
    assert report["blocked"]["skills"] == ["drifty"]
    assert "drifty" in (in_tmp / "blocked" / "validation_report.md").read_text(encoding="utf-8")
    assert "upstream unreachable" in capsys.readouterr().err


def test_no_baseline_means_calibration(wheels, in_tmp):
    code = main(
        [
            "sync",
            "--upstream",
            str(wheels["0.99"]),
            "--skills",
            str(FIXTURES / "skills" / "negative"),
            "--out",
            str(in_tmp / "cal"),
        ]
    )
    assert code == 0
    report = json.loads((in_tmp / "cal" / "validation_report.json").read_text(encoding="utf-8"))
    assert report["mode"] == "calibration" and report["baseline"] is None
    recorded = in_tmp / "cal" / "baselines" / "0.99.json"
    assert recorded.is_file()
    # the recorded baseline is usable as --baseline FILE
    assert (
        main(
            [
                "sync",
                "--upstream",
                str(wheels["0.99"]),
                "--skills",
                str(FIXTURES / "skills" / "negative"),
                "--baseline",
                str(recorded),
                "--out",
                str(in_tmp / "again"),
            ]
        )
        == 0
    )
    again = json.loads((in_tmp / "again" / "validation_report.json").read_text(encoding="utf-8"))
    assert again["mode"] == "audit" and again["release_diff"] == []


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--upstream", "no/such/path.whl"], "no such file"),
        (["--upstream", "amd-quark>=1"], "pin one exact release"),
        (["--baseline", "missing-baseline.json"], "--baseline: missing-baseline.json: no such file"),
        (["--baseline", "garbage"], "--baseline: 'garbage': only amd-quark is supported"),
        (["--skills", "bundled:foo"], "--skills: bundled:'foo': only amd-quark is supported"),
        (["--out", "/proc/quarkci-x"], "--out: /proc/quarkci-x: cannot write in /proc"),
        (["--skills", "no-such-skills-dir"], "no such directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(wheels, in_tmp, capsys, argv, message):
    args = {
        "--upstream": str(wheels["0.99"]),
        "--skills": str(FIXTURES / "skills" / "negative"),
        "--out": str(in_tmp / "bad"),
    }
    args.update(dict(zip(argv[::2], argv[1::2], strict=True)))
    flat = [x for kv in args.items() for x in kv]
    assert main(["sync", *flat]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err  # one line, before any progress line (no work started)
    assert not (in_tmp / "bad").exists()


def test_unquoted_colon_in_the_description_is_audited_reported_and_fixed(wheels, in_tmp, skills_copy):
    """A description holding ': ' is not YAML (Codex and the skills CLI skip such a skill); the skill's
    claims are still audited, the entry is one mechanical finding, and --fix quotes it."""
    skill = skills_copy / "negative" / "colon" / "SKILL.md"
    skill.parent.mkdir()
    line = "description: Use when: quantizing with quark-cli. Not for: ONNX"
    skill.write_text(
        f"---\nname: colon\n{line}\n---\n# Colon\n\nRun `quark-cli nosuchcmd`.\n", encoding="utf-8"
    )
    assert _run(wheels, skills_copy / "negative", in_tmp / "c", "--fail-on", "none") == 0
    report = json.loads((in_tmp / "c" / "validation_report.json").read_text(encoding="utf-8"))
    mine = [
        (f["rule"], f["kind"], f["skill_location"]["line"])
        for f in report["findings"]
        if f["skill"] == "colon"
    ]
    assert ("skill-frontmatter-invalid", "mechanical", 3) in mine
    assert any(rule.startswith("cli-command") for rule, _, _ in mine)  # the body was audited
    assert _run(wheels, skills_copy / "negative", in_tmp / "c2", "--fix", "--fail-on", "none") == 0
    fixed = skill.read_text(encoding="utf-8").splitlines()[2]
    assert fixed == 'description: "Use when: quantizing with quark-cli. Not for: ONNX"'
    assert _run(wheels, skills_copy / "negative", in_tmp / "c3", "--fail-on", "none") == 0
    again = json.loads((in_tmp / "c3" / "validation_report.json").read_text(encoding="utf-8"))
    assert not [f for f in again["findings"] if f["rule"] == "skill-frontmatter-invalid"]


def test_not_a_zip_wheel_is_bad_input(in_tmp, capsys):
    fake = in_tmp / "amd_quark-0.99-py3-none-any.whl"
    fake.write_bytes(b"not a zip")
    assert (
        main(
            [
                "sync",
                "--upstream",
                str(fake),
                "--skills",
                str(FIXTURES / "skills" / "negative"),
                "--out",
                str(in_tmp / "bad"),
            ]
        )
        == 2
    )
    assert not (in_tmp / "bad").exists()


def test_malformed_skill_is_a_breaking_finding_and_fail_on_decides(wheels, in_tmp, skills_copy, capsys):
    broken = skills_copy / "negative" / "broken" / "SKILL.md"
    broken.parent.mkdir()
    broken.write_text("---\nname: [unclosed\n---\n# broken\n", encoding="utf-8")
    (skills_copy / "negative" / "binary").mkdir()
    (skills_copy / "negative" / "binary" / "SKILL.md").write_bytes(b"\xff\xfe\x00binary")
    assert _run(wheels, skills_copy / "negative", in_tmp / "m") == 1  # breaking findings, --fail-on breaking
    report = json.loads((in_tmp / "m" / "validation_report.json").read_text(encoding="utf-8"))
    errors = {s["path"]: s["error"] for s in report["skills"] if s["error"]}
    assert set(errors) == {"broken/SKILL.md", "binary/SKILL.md"}
    drift = [(f["rule"], f["kind"], f["subject"]) for f in report["findings"] if f["kind"] != "unverifiable"]
    assert drift == [
        ("skill-unreadable", "breaking", "binary/SKILL.md"),
        ("skill-unreadable", "breaking", "broken/SKILL.md"),
    ]  # the clean skill still clean
    err = capsys.readouterr().err
    assert "broken/SKILL.md" in err and "Traceback" not in err
    assert _run(wheels, skills_copy / "negative", in_tmp / "n", "--fail-on", "none") == 0


def test_no_readable_skill_at_all_is_bad_input_before_any_work(wheels, in_tmp, capsys):
    skills = in_tmp / "skills"
    (skills / "binary").mkdir(parents=True)
    (skills / "binary" / "SKILL.md").write_bytes(b"\xff\xfe\x00binary")
    assert _run(wheels, skills, in_tmp / "r") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "--skills" in err[0] and "none of the 1 skills is readable" in err[0]
    assert not (in_tmp / "r").exists()


def test_unreachable_baseline_spec_also_blocks(wheels, in_tmp):
    code = main(
        [
            "sync",
            "--upstream",
            str(wheels["0.99"]),
            "--baseline",
            "amd-quark",
            "--skills",
            str(FIXTURES / "skills" / "negative"),
            "--out",
            str(in_tmp / "bb"),
        ]
    )
    assert code == 3
    report = json.loads((in_tmp / "bb" / "validation_report.json").read_text(encoding="utf-8"))
    assert report["mode"] == "blocked" and report["blocked"]["skills"] == ["clean"]


def test_pyproject_config_of_the_audited_repo_applies(wheels, in_tmp, skills_copy):
    (skills_copy / ".git").mkdir()
    (skills_copy / "pyproject.toml").write_text(
        '[tool.quarkci.sync]\nignore = [{rule = "cli-flag-removed"}, {rule = "scheme-unknown"},'
        ' {rule = "model-type-unknown"}, {rule = "source-path-missing"}, {rule = "python-name-unknown"}]\n',
        encoding="utf-8",
    )
    # every breaking finding of the positive skill is ignored by the repo's policy: exit 0 at --fail-on breaking
    assert _run(wheels, skills_copy / "positive", in_tmp / "p") == 0
    report = json.loads((in_tmp / "p" / "validation_report.json").read_text(encoding="utf-8"))
    assert report["counts"]["breaking"] == 0 and report["counts"]["ignored"] == 5


def test_an_empty_skills_directory_is_bad_input_not_a_clean_run(wheels, in_tmp, capsys):
    empty = in_tmp / "no-skills"
    empty.mkdir()
    assert (
        main(
            [
                "sync",
                "--upstream",
                str(wheels["0.99"]),
                "--baseline",
                str(wheels["0.98"]),
                "--skills",
                str(empty),
                "--out",
                str(in_tmp / "r"),
            ]
        )
        == 2
    )
    assert "no SKILL.md found" in capsys.readouterr().err
    assert not (in_tmp / "r").exists()


def test_an_out_path_under_a_file_is_bad_input_before_any_work(wheels, in_tmp, capsys):
    blocker = in_tmp / "afile"
    blocker.write_text("x")
    assert main(["sync", "--upstream", str(wheels["0.99"]), "--out", str(blocker / "r")]) == 2
    err = capsys.readouterr().err
    assert "is not a directory" in err and "extracting facts" not in err
