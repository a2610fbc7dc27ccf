"""skill-link-broken on the skills bundled in the real amd-quark 0.13 wheel (downloaded at test time, cached).

Checked by hand against the wheel: 0.13's bundled ONNX skills under ``_legacy_impl/l1-atomic/onnx/`` link
``../../shared/contracts/...``, one directory short of ``_legacy_impl/shared/contracts/``;
``model_analysis`` and ``quant_plan`` exist there and again under
``quark-torch-ptq/references/contracts/`` (two of each name, so no fix), ``subgraph_partition.schema.json``
exists nowhere in the tree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quarkci.cli import main

pytestmark = pytest.mark.real

ONNX = "_legacy_impl/l1-atomic/onnx"


def _sync(out: Path, upstream: str, baseline: str | None, skills: str | None = None) -> list[dict]:
    from tests.realwheels import real_wheel

    argv = ["sync", "--upstream", str(real_wheel(upstream)), "--out", str(out), "--fail-on", "none"]
    argv += ["--baseline", str(real_wheel(baseline)) if baseline else "none"]
    if skills is not None:
        argv += ["--skills", skills]
    assert main(argv) == 0
    return json.loads((out / "validation_report.json").read_text(encoding="utf-8"))["findings"]


def test_default_job_reports_the_three_dead_schema_links_of_the_onnx_skills(tmp_path, capsys):
    # the default job: 0.13's bundled skills against 0.13 (baseline: the previous release)
    found = [f for f in _sync(tmp_path, "0.13", "0.12.post1") if f["rule"] == "skill-link-broken"]
    capsys.readouterr()
    rows = sorted(
        (f["kind"], f["skill_location"]["file"], f["skill_location"]["line"], f["subject"]) for f in found
    )
    assert rows == [
        (
            "breaking",
            f"{ONNX}/quark-onnx-model-intake/SKILL.md",
            51,
            f"{ONNX}/quark-onnx-model-intake/SKILL.md: ../../shared/contracts/model_analysis.schema.json",
        ),
        (
            "breaking",
            f"{ONNX}/quark-onnx-quant-plan/SKILL.md",
            57,
            f"{ONNX}/quark-onnx-quant-plan/SKILL.md: ../../shared/contracts/quant_plan.schema.json",
        ),
        (
            "breaking",
            f"{ONNX}/quark-onnx-subgraph-partitioner/SKILL.md",
            50,
            f"{ONNX}/quark-onnx-subgraph-partitioner/SKILL.md: "
            "../../shared/contracts/subgraph_partition.schema.json",
        ),
    ]
    says = {f["subject"].rsplit("/", 1)[-1]: f["source_says"] for f in found}
    assert says["model_analysis.schema.json"].endswith(
        "nearest file of that name: `_legacy_impl/shared/contracts/model_analysis.schema.json` "
        "(nearest of 2 files of that name)"
    )
    assert (
        "`_legacy_impl/shared/contracts/quant_plan.schema.json` (nearest of 2"
        in says["quant_plan.schema.json"]
    )
    assert (
        "no file named `subgraph_partition.schema.json` exists anywhere"
        in says["subgraph_partition.schema.json"]
    )
    assert all(f["fix"] is None for f in found)  # two files of each name: the agent must choose
    # README/CONTRIBUTING links to ../../docs/ and the template's <primary_artifact> are no findings
