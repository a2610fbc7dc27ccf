"""``sync --fix`` (:mod:`quarkci.sync.fixer`) on a copy of the skills bundled in the real amd-quark 0.13
wheel, baseline 0.12.post1 (downloaded at test time, cached): the fixes applied, what is left, and a
second run that changes nothing.
"""

from __future__ import annotations

import json

import pytest

from quarkci.cli import main

pytestmark = pytest.mark.real


def test_fix_on_a_copy_of_the_real_bundled_skills_is_idempotent(tmp_path):
    import zipfile

    from tests.realwheels import real_wheel

    prefix = "quark/_bundled_skills/"
    with zipfile.ZipFile(real_wheel("0.13")) as zf:
        for name in zf.namelist():
            if name.startswith(prefix) and not name.endswith("/"):
                target = tmp_path / "skills" / name[len(prefix) :]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(name))
    argv = [
        "sync",
        "--upstream",
        str(real_wheel("0.13")),
        "--baseline",
        str(real_wheel("0.12.post1")),
        "--skills",
        str(tmp_path / "skills"),
    ]
    main([*argv, "--fix", "--out", str(tmp_path / "r1")])
    first = json.loads((tmp_path / "r1" / "validation_report.json").read_text(encoding="utf-8"))
    # 12 edits as before (the 15 missing model templates go into one table cell) plus the onnxruntime
    # range on its two lines (CPU and GPU install patterns) and in the version table (line 89), plus the
    # stated template count (36 -> 51, DEFAULT_TEMPLATES of 0.13)
    assert len(first["applied_fixes"]) == 16
    # left: the JSON example's transformers range (a model's floor mixed with Quark's cap: no exact rewrite)
    (left,) = [f for f in first["findings"] if f["kind"] == "mechanical"]
    assert left["rule"] == "transformers-version-mismatch" and left["fix"] is None
    assert left["skill_location"]["line"] == 41
    install = (tmp_path / "skills" / "_legacy_impl/l1-atomic/onnx/quark-onnx-install/SKILL.md").read_text(
        encoding="utf-8"
    )
    assert install.count('pip install "onnxruntime<=1.28.0,>=1.22.2"') == 2  # both bounds kept
    intake = (
        tmp_path / "skills" / "_legacy_impl/l1-atomic/torch/quark-torch-model-intake/SKILL.md"
    ).read_text(encoding="utf-8")
    assert "kimi_k25, minimax_m2, deepseek_v4, gemma4," in intake
    assert "Quark has built-in templates for 51 model families:" in intake
    text = (tmp_path / "skills" / "_legacy_impl/l1-atomic/torch/quark-torch-quant-plan/SKILL.md").read_text(
        encoding="utf-8"
    )
    assert "## Available Quantization Schemes (28 total)" in text
    # notes are true: mx9 is the one scheme 0.12.post1 lacks; the others existed before (no release named);
    # a 3-column table (Scheme | Description | Use Case) gets its note in the Description column
    assert "| `mx9` | new since amd-quark 0.12.post1; describe before use |  |" in text
    assert "| `int4_fp8` | describe before use |  |" in text
    assert "added in amd-quark" not in text
    snapshot = {p: p.read_bytes() for p in (tmp_path / "skills").rglob("*") if p.is_file()}
    main([*argv, "--fix", "--out", str(tmp_path / "r2")])
    second = json.loads((tmp_path / "r2" / "validation_report.json").read_text(encoding="utf-8"))
    assert second["applied_fixes"] == [] and second["changed_files"] == []
    assert {p: p.read_bytes() for p in (tmp_path / "skills").rglob("*") if p.is_file()} == snapshot
