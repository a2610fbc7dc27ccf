"""prove on the miniature library (PROVED / INCONCLUSIVE / FAILED at the right step) and maintain
drift (add a family, change a tolerance, remove an entry point -> exactly three findings)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from quarkci import cli
from tests.workflows.test_hardening import parse_outputs


def init(root: Path) -> Path:
    assert (
        cli.main(["verify", "init", "--repo", str(root), "--skills", str(root / ".cursor" / "skills")]) == 0
    )
    return root / ".cursor" / "skills" / "verify-minikern"


def prove(skill: Path, feature: str, out: Path, capsys, *flags: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = cli.main(
        [
            "verify",
            "prove",
            "--skill",
            str(skill),
            "--feature",
            feature,
            "--out",
            str(out),
            "--lock",
            str(out.parent / "test.lock"),
            "--json",
            *flags,
        ]
    )
    return code, json.loads(capsys.readouterr().out)


def test_prove_correctness_feature_negative_control_and_cleanup(
    minikern, tmp_path, capsys, monkeypatch, torch_extensions_dir
):
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(torch_extensions_dir))
    # A temp directory of this test's own: other workers' verify runs never appear in it.
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(private_tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    skill = init(minikern)
    before = set(private_tmp.glob("quarkci-verify-*"))
    code, proof = prove(skill, "gemm-correctness", tmp_path / "ev", capsys)
    assert code == 0 and proof["result"] == "PROVED", proof
    steps = [s["step"] for s in proof["steps"]]
    assert steps == [
        "lock",
        "instructions",
        "doctor",
        "harness",
        "drive",
        "negative-control",
        "cleanup",
        "confirm",
    ]
    assert "failed as it must" in proof["steps"][5]["detail"]
    neg = (tmp_path / "ev" / "gemm-correctness" / "negative.stdout.txt").read_text()
    assert "failed" in neg and "PERTURBED calls=" in neg and "PERTURBED calls=0" not in neg
    assert (tmp_path / "ev" / "verify_proof.json").is_file()  # survives cleanup
    assert set(private_tmp.glob("quarkci-verify-*")) == before  # the scratch directory is gone
    assert torch_extensions_dir.is_dir()  # the shared cache stays
    assert "shared TORCH_EXTENSIONS_DIR" in proof["steps"][6]["detail"]
    recorded = json.loads((skill / "features" / "map.json").read_text())["proofs"]
    assert [p["feature"] for p in recorded] == ["gemm-correctness"]  # no longer a draft


def test_generated_reference_test_proves_and_gpu_only_is_inconclusive(
    minikern, tmp_path, capsys, monkeypatch
):
    skill = init(minikern)
    outputs = tmp_path / "github_output"
    outputs.write_text("")
    monkeypatch.setenv("GITHUB_OUTPUT", str(outputs))
    code, proof = prove(skill, "flash-correctness", tmp_path / "flash", capsys, "--github-output")
    assert code == 3 and proof["result"] == "INCONCLUSIVE" and proof["failed_step"] == "doctor"
    assert "no device for GPU-only feature (needs gfx942, gfx950" in proof["reason"]
    assert proof["draft"] is True  # never proved
    assert parse_outputs(outputs.read_text()) == {"result": "INCONCLUSIVE"}  # the step output, as written
    code, proof = prove(skill, "act-correctness", tmp_path / "act", capsys, "--github-output")
    assert code == 0 and len(proof["rows"]) == 6 and all(r["ok"] == "True" for r in proof["rows"])
    assert proof["draft"] is False
    assert parse_outputs(outputs.read_text()) == {"result": "PROVED"}  # appended: the later entry wins
    assert outputs.read_text().count("result<<quarkci_") == 2


def test_a_gate_too_loose_for_its_negative_control_fails(minikern, tmp_path, capsys):
    test = minikern / "tests" / "test_gemm.py"
    test.write_text(test.read_text().replace("rtol=1e-4, atol=1e-4", "rtol=10.0, atol=10.0"))
    skill = init(minikern)
    code, proof = prove(skill, "gemm-correctness", tmp_path / "ev", capsys)
    assert code == 1 and proof["failed_step"] == "negative-control"
    assert "accepted a perturbed output" in proof["reason"]


def test_a_moved_harness_hash_fails_before_driving(minikern, tmp_path, capsys):
    skill = init(minikern)
    test = minikern / "tests" / "test_gemm.py"
    test.write_text(test.read_text() + "\n# edited\n")
    code, proof = prove(skill, "gemm-correctness", tmp_path / "ev", capsys)
    assert (
        code == 1 and proof["failed_step"] == "harness" and "drive" not in [s["step"] for s in proof["steps"]]
    )


def test_prove_says_each_command_and_while_it_runs(minikern, tmp_path, capsys, monkeypatch):
    """Progress on stderr: a line per command started and one per period while it runs (the drive of a
    real kernel is silent for 60-120 s otherwise); stdout keeps the JSON alone."""
    from quarkci.core import progress

    monkeypatch.setattr(progress, "EVERY", 0.05)
    skill = init(minikern)
    test = minikern / "tests" / "test_gemm.py"
    test.write_text(test.read_text() + "\n# edited\n")  # stop after the doctor: no build, no drive
    capsys.readouterr()
    argv = ["verify", "prove", "--skill", str(skill), "--feature", "gemm-correctness"]
    code = cli.main([*argv, "--out", str(tmp_path / "ev"), "--lock", str(tmp_path / "t.lock"), "--json"])
    captured = capsys.readouterr()
    assert code == 1 and json.loads(captured.out)["failed_step"] == "harness"
    lines = captured.err.splitlines()
    assert lines[0].startswith("quarkci: verify prove: gemm-correctness: doctor: `") and lines[0].endswith(
        "..."
    )
    beats = [
        ln
        for ln in lines
        if ln.startswith("quarkci: verify prove: gemm-correctness: doctor: still running (")
    ]
    assert beats, lines  # the doctor imports torch: well over 0.05 s
    assert not any("drive" in ln for ln in lines)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--feature", "nope"], "--feature nope: not in"),
        (["--feature", "gemm-perf"], "prove drives correctness features only"),
        (["--feature", "gemm-correctness", "--github-output"], "--github-output: $GITHUB_OUTPUT is not set"),
    ],
)
def test_prove_bad_input_exits_2_with_one_line(minikern, tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)  # step outputs asked for outside a step
    skill = init(minikern)
    capsys.readouterr()
    assert cli.main(["verify", "prove", "--skill", str(skill), "--out", str(tmp_path / "o"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_maintain_reports_exactly_three_drift_findings_and_fix(minikern, tmp_path, capsys):
    skill = init(minikern)
    capsys.readouterr()
    assert cli.main(["verify", "maintain", "--skill", str(skill), "--out", str(tmp_path / "r0")]) == 0
    (minikern / "minikern" / "moe.py").write_text(
        "import torch\n\n\ndef moe_route(x: torch.Tensor) -> torch.Tensor:\n    return x.softmax(-1)\n"
    )
    test = minikern / "tests" / "test_gemm.py"
    test.write_text(test.read_text().replace("rtol=1e-4, atol=1e-4", "rtol=1e-3, atol=1e-4"))
    (minikern / "scripts" / "op_rmsnorm.py").unlink()
    capsys.readouterr()
    code = cli.main(["verify", "maintain", "--skill", str(skill), "--out", str(tmp_path / "r1"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    got = sorted((f["rule"], f["kind"], f["subject"]) for f in report["findings"])
    assert got == [
        ("verify-entry-point-removed", "breaking", "norm script scripts/op_rmsnorm.py"),
        ("verify-family-added", "mechanical", "family moe"),
        ("verify-tolerance-changed", "mechanical", "gemm tests/test_gemm.py tolerance"),
    ]
    assert (tmp_path / "r1" / "validation_report.sarif").is_file()
    capsys.readouterr()
    assert (
        cli.main(
            ["verify", "maintain", "--skill", str(skill), "--out", str(tmp_path / "r2"), "--fix", "--json"]
        )
        == 1
    )
    after = json.loads(capsys.readouterr().out)
    assert [f["rule"] for f in after["findings"]] == [
        "verify-entry-point-removed"
    ]  # breaking is never auto-fixed
    assert (skill / "features" / "moe-correctness.md").is_file()


def _gpu_only_with_a_drive(monkeypatch) -> None:
    """Make the miniature's GPU-only ``flash-correctness`` drivable, as ``float8_e5m3-correctness`` is in
    amd-quark (a reference check run with ``--device cuda``)."""
    from quarkci.verify import featuremap, generate

    real = featuremap.build

    def build(*args, **kwargs):
        data = real(*args, **kwargs)
        for f in data["features"]:
            if f["id"] == "flash-correctness":
                cmd = "python -c \"import sys; sys.exit('needs a GPU')\" --device cuda"
                f.update(drive=cmd, negative=f"{cmd} --negative-control", parse="verdict", reason="")
        return data

    monkeypatch.setattr(featuremap, "build", build)
    monkeypatch.setattr(generate.featuremap, "build", build)


def test_a_gpu_only_feature_with_a_drive_is_inconclusive_without_a_gpu(
    minikern, tmp_path, capsys, monkeypatch
):
    """Issue 23: SKILL.md listed such a feature without its command, so prove said FAILED "skill and map
    disagree" at the instructions step; it must reach the device gate and answer INCONCLUSIVE."""
    _gpu_only_with_a_drive(monkeypatch)
    skill = init(minikern)
    text = (skill / "SKILL.md").read_text()
    assert "Needs a GPU device" in text and "--device cuda --negative-control" in text
    code, proof = prove(skill, "flash-correctness", tmp_path / "flash", capsys)
    assert code == 3 and proof["result"] == "INCONCLUSIVE" and proof["failed_step"] == "doctor", proof
    assert [s["step"] for s in proof["steps"][:2]] == ["lock", "instructions"]
    assert "no device for GPU-only feature (needs gfx942, gfx950" in proof["reason"]


def test_the_generated_skill_and_its_map_never_disagree(minikern, monkeypatch):
    from quarkci.verify import featuremap
    from quarkci.verify.generate import disagreements

    _gpu_only_with_a_drive(monkeypatch)
    skill = init(minikern)
    text = (skill / "SKILL.md").read_text()
    data = featuremap.load(skill)
    drivable = [f["id"] for f in data["features"] if f["kind"] == "correctness" and f["drive"]]
    assert "flash-correctness" in drivable and len(drivable) == 4
    assert disagreements(text, data) == []
    # negative control: the old rendering (a GPU-only feature's command left out) is caught
    flash = next(f for f in data["features"] if f["id"] == "flash-correctness")
    assert disagreements(text.replace(flash["drive"], "(left out)"), data) == ["flash-correctness"]


def test_maintain_report_counts_the_skills_it_sees_and_is_titled_for_verify(minikern, tmp_path, capsys):
    """Issue 23: the report said "0 SKILL.md under .cursor/skills" beside the one it maintains, and was
    titled "Skill sync report"."""
    skill = init(minikern)
    capsys.readouterr()
    out = tmp_path / "r"
    assert cli.main(["verify", "maintain", "--skill", str(skill), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["path"] for s in report["skills"]] == ["verify-minikern/SKILL.md"]
    md = (out / "validation_report.md").read_text()
    assert "\n# Verify maintain report\n" in md and "Skill sync report" not in md
    assert "| Skills | 1 under " in md and "skills: 1 SKILL.md under" in md
    other = skill.parent / "another" / "SKILL.md"  # a second skill beside it is counted too
    other.parent.mkdir()
    other.write_text("---\nname: another\ndescription: d\n---\nbody\n")
    assert cli.main(["verify", "maintain", "--skill", str(skill), "--out", str(out)]) == 0
    assert "skills: 2 SKILL.md under" in (out / "validation_report.md").read_text()


def test_a_sync_report_keeps_its_title():
    """Negative control: the title follows the report's upstream kind; a sync report is unchanged."""
    from quarkci.report.markdown import render_json
    from tests.report.test_github_actions import _report

    assert "\n# Skill sync report\n" in render_json(_report([]))
    verify = _report([], upstream={"spec": "x", "version": "1", "kind": "verify", "label": "x"})
    assert "\n# Verify maintain report\n" in render_json(verify)


def _act_split_in_two(monkeypatch) -> None:
    """The act family's file lists two correctness features (as hw_emulation-correctness.md lists the
    mx, tqt and affine ones in amd-quark): ids ``act-silu-correctness`` and ``act-gelu-correctness``."""
    from quarkci.verify import featuremap, generate

    real = featuremap.build

    def build(*args, **kwargs):
        data = real(*args, **kwargs)
        out = []
        for f in data["features"]:
            if f["id"] == "act-correctness":
                out += [{**f, "id": "act-silu-correctness"}, {**f, "id": "act-gelu-correctness"}]
            else:
                out.append(f)
        data["features"] = out
        return data

    monkeypatch.setattr(featuremap, "build", build)
    monkeypatch.setattr(generate.featuremap, "build", build)


def test_a_feature_file_stem_proves_each_feature_it_lists(minikern, tmp_path, capsys, monkeypatch):
    """Issue 23: ``--feature hw_emulation-correctness`` (the file's stem, not an id) was exit 2."""
    _act_split_in_two(monkeypatch)
    skill = init(minikern)
    assert (skill / "features" / "act-correctness.md").is_file()
    out = tmp_path / "ev"
    outputs = tmp_path / "github_output"
    outputs.write_text("")
    monkeypatch.setenv("GITHUB_OUTPUT", str(outputs))
    code, doc = prove(skill, "act-correctness", out, capsys, "--github-output")
    assert code == 0, doc
    # several proofs have no one result: the step output is empty (as verify.yml's reader gave it)
    assert parse_outputs(outputs.read_text()) == {"result": ""}
    assert doc["file"] == "act-correctness"
    assert [(p["feature"], p["result"]) for p in doc["proofs"]] == [
        ("act-silu-correctness", "PROVED"),
        ("act-gelu-correctness", "PROVED"),
    ]
    for feature in ("act-silu-correctness", "act-gelu-correctness"):
        assert json.loads((out / feature / "verify_proof.json").read_text())["feature"] == feature
    capsys.readouterr()
    code = cli.main(["verify", "prove", "--skill", str(skill), "--feature", "act-silu-correctness",
                     "--out", str(tmp_path / "one"), "--lock", str(tmp_path / "test.lock")])  # fmt: skip
    assert code == 0 and (tmp_path / "one" / "verify_proof.json").is_file()  # an id: one proof, as before


def test_a_feature_that_is_neither_id_nor_file_stem_lists_both(minikern, tmp_path, capsys):
    skill = init(minikern)
    capsys.readouterr()
    args = ["verify", "prove", "--skill", str(skill), "--out", str(tmp_path / "o"), "--feature", "act"]
    assert cli.main(args) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "--feature act: not in features/map.json as a feature id" in line
    assert "nor a feature file stem (one of: act-correctness, act-isa," in line
    assert not (tmp_path / "o").exists()
