"""The real proof on amd-quark's own kernels (installed 0.13): inventory, one CPU correctness
feature proved through the JIT-compiled hw_emulation extension, a GPU-only feature INCONCLUSIVE.

The JIT build is counted here (about 45 s cold on 2 shared cores, measured); the session fixture
shares one TORCH_EXTENSIONS_DIR cache between tests and the prover leaves it in place."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from quarkci import cli

pytestmark = pytest.mark.ml


@pytest.fixture(scope="module")
def quark_skill(tmp_path_factory):
    pytest.importorskip("quark")
    if shutil.which("g++") is None or shutil.which("ninja") is None:
        if os.environ.get("CI"):  # the real proof must run in CI: a missing toolchain is a failure there
            pytest.fail("g++ and ninja are needed to JIT-build hw_emulation (ninja comes with the ml extra)")
        pytest.skip("g++ and ninja are needed to JIT-build hw_emulation")
    project = tmp_path_factory.mktemp("project")  # commands of an installed library run from the project root
    old = os.getcwd()
    os.chdir(project)
    try:
        assert cli.main(["verify", "init", "--repo", "installed:amd-quark", "--lib", "quark-kernels"]) == 0
    finally:
        os.chdir(old)
    skill = project / ".cursor" / "skills" / "verify-quark-kernels"
    assert json.loads((skill / "features" / "map.json").read_text())["workdir"] == "../../.."
    return skill


def test_inventory_of_quark_kernels(quark_skill):
    data = json.loads((quark_skill / "features" / "map.json").read_text())
    fams = {f["name"]: f for f in data["families"]}
    assert {"hw_emulation", "float8_e5m3", "mx", "aiter", "flydsl"} <= set(fams)
    subs = {s["name"]: s for s in fams["hw_emulation"]["subfeatures"]}
    assert subs["mx"]["ops"] == ["fake_quantize_to_low_precision_fp"] and "cpu" in subs["mx"]["arch"]
    assert subs["tqt"]["ops"] == ["tqt_backward"] and "cpu" in subs["tqt"]["arch"]
    assert "cpu" not in subs["mxfp4"]["arch"]
    assert subs["affine"]["arch"] == [
        "gpu"
    ]  # its CPU build only throws "not implemented on non CUDA-devices"
    assert fams["hw_emulation"]["build"] == "torch cpp_extension JIT"
    assert "cpu" not in fams["flydsl"]["arch"] and {"gfx942", "gfx950"} <= set(fams["flydsl"]["arch"])
    assert "cpu" not in fams["aiter"]["arch"] and "cpu" not in fams["mx"]["arch"]
    assert "cpu" not in fams["float8_e5m3"]["arch"]  # its CPU path is the reference itself
    feats = {f["id"]: f for f in data["features"]}
    for gpu_only in (
        "aiter-correctness",
        "flydsl-correctness",
        "mx-correctness",
        "hw_emulation-mxfp4-correctness",
    ):
        assert "cpu" not in feats[gpu_only]["arch"], gpu_only
    assert feats["float8_e5m3-correctness"]["drive"].endswith("--device cuda")
    assert feats["hw_emulation-tqt-correctness"]["drive"].endswith("helpers/check_tqt.py")
    assert feats["hw_emulation-tqt-correctness"]["arch"] == ["cpu", "gpu"]
    assert data["version"] == "0.13" or data["version"].startswith("0.13")


def test_prove_mx_fake_quantize_on_cpu_and_gpu_only_inconclusive(
    quark_skill, tmp_path, capsys, monkeypatch, torch_extensions_dir
):
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(torch_extensions_dir))
    capsys.readouterr()
    code = cli.main(
        [
            "verify",
            "prove",
            "--skill",
            str(quark_skill),
            "--feature",
            "hw_emulation-mx-correctness",
            "--out",
            str(tmp_path / "ev"),
            "--lock",
            str(tmp_path / "lock"),
            "--json",
        ]
    )
    proof = json.loads(capsys.readouterr().out)
    assert code == 0 and proof["result"] == "PROVED", proof["steps"]
    mx_rows = [r for r in proof["rows"] if r.get("block") == "32"]
    assert {r["shape"] for r in mx_rows} >= {"1x7", "3x37", "5x65", "2x3x100"}  # odd and partial blocks
    assert all(r["ok"] == "True" and r["max_abs_err"] == "0.000e+00" for r in proof["rows"])
    assert (
        "VERDICT: fail"
        in (tmp_path / "ev" / "hw_emulation-mx-correctness" / "negative.stdout.txt").read_text()
    )
    assert (tmp_path / "ev" / "verify_proof.json").is_file()
    assert proof["unverified"] == ["GPU path (gpu) not exercised: CPU stand-in"]
    assert any("torch_extensions" in p.name for p in torch_extensions_dir.iterdir()) or any(
        torch_extensions_dir.iterdir()
    )
    capsys.readouterr()
    code = cli.main(
        [
            "verify",
            "prove",
            "--skill",
            str(quark_skill),
            "--feature",
            "hw_emulation-tqt-correctness",
            "--out",
            str(tmp_path / "tqt"),
            "--lock",
            str(tmp_path / "lock"),
            "--json",
        ]
    )
    proof = json.loads(capsys.readouterr().out)
    assert code == 0 and proof["result"] == "PROVED" and len(proof["rows"]) == 15, proof["steps"]
    assert (
        "VERDICT: fail"
        in (tmp_path / "tqt" / "hw_emulation-tqt-correctness" / "negative.stdout.txt").read_text()
    )
    capsys.readouterr()
    code = cli.main(
        [
            "verify",
            "prove",
            "--skill",
            str(quark_skill),
            "--feature",
            "aiter-correctness",
            "--out",
            str(tmp_path / "gpu"),
            "--lock",
            str(tmp_path / "lock"),
            "--json",
        ]
    )
    proof = json.loads(capsys.readouterr().out)
    assert (
        code == 3
        and proof["result"] == "INCONCLUSIVE"
        and "no device for GPU-only feature" in proof["reason"]
    )


def test_float8_e5m3_without_a_gpu_is_inconclusive_and_the_file_stem_resolves(quark_skill, tmp_path, capsys):
    """Issue 23 on the real library: ``float8_e5m3-correctness`` (GPU-only, with a drive command) said
    FAILED "skill and map disagree" on a CPU machine; ``hw_emulation-correctness`` was exit 2."""
    import torch

    from quarkci.verify import featuremap
    from quarkci.verify.generate import disagreements

    data = featuremap.load(quark_skill)
    assert disagreements((quark_skill / "SKILL.md").read_text(), data) == []
    stem = featuremap.resolve_features(data, "hw_emulation-correctness")
    assert {"hw_emulation-mx-correctness", "hw_emulation-tqt-correctness"} <= set(stem) and len(stem) >= 3
    if torch.cuda.is_available():
        pytest.skip("a GPU is present: the feature is drivable here")
    capsys.readouterr()
    code = cli.main(
        ["verify", "prove", "--skill", str(quark_skill), "--feature", "float8_e5m3-correctness",
         "--out", str(tmp_path / "f8"), "--lock", str(tmp_path / "lock"), "--json"]
    )  # fmt: skip
    proof = json.loads(capsys.readouterr().out)
    assert code == 3 and proof["result"] == "INCONCLUSIVE" and proof["failed_step"] == "doctor", proof
    assert "no device for GPU-only feature" in proof["reason"]
