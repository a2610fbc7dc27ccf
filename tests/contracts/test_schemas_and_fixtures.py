"""Every registered artifact has a Draft 2020-12 schema; positive fixtures (including each
artifact's failure fallback) validate; negative fixtures fail at the expected JSON path."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from quarkci.contracts import fallback
from quarkci.core.artifacts import ARTIFACTS, load_schema
from quarkci.core.documents import infer_artifact, load_document, validate_document

FIXTURES = Path(__file__).parent.parent / "fixtures" / "contracts"
POSITIVE = sorted((FIXTURES / "positive").iterdir())
EXPECTED = yaml.safe_load((FIXTURES / "negative" / "expected.yaml").read_text())


def test_schema_directory_holds_exactly_the_registered_artifacts():
    names = {
        p.name.removesuffix(".schema.json")
        for p in resources.files("quarkci.core").joinpath("schemas").iterdir()
        if p.name.endswith(".schema.json")
    }
    assert names == set(ARTIFACTS)
    assert len(ARTIFACTS) == 13
    assert {a.name for a in ARTIFACTS.values() if a.own} == {
        "run_result",
        "validation_summary",
        "verify_proof",
        "day0_result",
    }


@pytest.mark.parametrize("name", list(ARTIFACTS))
def test_schema_is_valid_draft_2020_12_and_keeps_quarks_required_fields(name):
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    # required top-level fields published by Quark 0.13 (facts from its contracts)
    quark_required = {
        "session_context": {"user_goal", "workflow", "constraints", "open_questions"},
        "env_context": {"environment", "hardware"},
        "workspace_context": {"model_path", "model_source", "output_dir"},
        "pytorch_install_result": {"status", "pytorch_version", "accelerator_tag"},
        "quark_install_result": {"status", "quark_version"},
        "model_analysis": {"analysis_status", "model", "quantization_targets", "risks"},
        "quant_plan": {
            "model",
            "global_scheme",
            "exclude_layers",
            "layer_quant_config",
            "requires_confirmation",
        },
        "run_manifest": {"workflow", "inputs", "outputs", "steps"},
        "validation_report": {"status", "summary", "evidence", "next_actions"},
    }.get(name)
    if quark_required is None:  # quarkci's own artifacts: no Quark contract to keep
        assert ARTIFACTS[name].own
        return
    assert set(schema["required"]) == quark_required


def test_every_artifact_has_a_fallback_fixture():
    fallbacks = {infer_artifact(p) for p in POSITIVE if p.name.startswith("fallback.")}
    assert fallbacks == set(ARTIFACTS)


@pytest.mark.parametrize("path", POSITIVE, ids=lambda p: p.name)
def test_positive_fixture_is_valid(path):
    assert validate_document(load_document(path), infer_artifact(path)) == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_negative_fixture_fails_at_the_expected_path(name):
    path = FIXTURES / "negative" / name
    problems = validate_document(load_document(path), infer_artifact(path))
    want = EXPECTED[name]
    assert any(p.path == want["path"] and want["message"] in p.message for p in problems), problems


def test_every_negative_fixture_has_an_expectation():
    files = {p.name for p in (FIXTURES / "negative").iterdir() if p.name != "expected.yaml"}
    assert files == set(EXPECTED)


BUILT = {
    "session_context": lambda: fallback.session_context("use quark", ["install or quantize?"]),
    "env_context": lambda: fallback.env_context("linux", "3.12"),
    "workspace_context": lambda: fallback.workspace_context("m", "out", ["m"]),
    "pytorch_install_result": lambda: fallback.pytorch_install_result(
        "python -c 'import torch'", "No module named torch"
    ),
    "quark_install_result": lambda: fallback.quark_install_result(
        "python -c 'import quark'", "No module named quark"
    ),
    "model_analysis": lambda: fallback.model_analysis("acme/x", ["model_type unreadable"]),
    "quant_plan": lambda: fallback.quant_plan("llama", "./model_analysis.json", ["accelerator"]),
    "run_manifest": lambda: fallback.run_manifest(
        "quark-torch-ptq", {"model_dir": "/m"}, ["no GPU"], ["quark-cli x"]
    ),
    "validation_report": lambda: fallback.validation_report("never started", ["no GPU"], ["run preflight"]),
    "verify_proof": lambda: fallback.verify_proof(
        "mx-correctness", "mx", "doctor", "no device for GPU-only feature"
    ),
    "run_result": lambda: fallback.run_result("fp8", "out/model", "export", "MODEL_UNSUPPORTED", "boom"),
    "validation_summary": lambda: fallback.validation_summary("src", "out/model", "no output"),
    "day0_result": lambda: fallback.day0_result(
        "/m", "fp8", "SYSTEMIC", "no GPU visible", "retry when it is back"
    ),
}

# what makes each fallback a fallback; flipping it must make the document invalid (negative control)
BREAK = {
    "session_context": lambda d: d.update(open_questions=[]),
    "env_context": lambda d: d["hardware"].update(accelerator="maybe-cuda"),
    "workspace_context": lambda d: d.update(model_source="guessed"),
    "pytorch_install_result": lambda d: d.update(status="maybe"),
    "quark_install_result": lambda d: d.update(status="maybe"),
    "model_analysis": lambda d: d.update(risks=[]),
    "quant_plan": lambda d: d.update(requires_confirmation=False),
    "run_manifest": lambda d: d.pop("blocked_by"),
    "validation_report": lambda d: d.update(status="unknown"),
    "verify_proof": lambda d: d.update(reason=""),
    "run_result": lambda d: d.update(stage=None),
    "validation_summary": lambda d: d["output"].update(exists="no"),
    "day0_result": lambda d: d["publish"].update(recommended="yes"),
}


def test_fallback_builders_cover_the_registry():
    assert set(fallback.FALLBACKS) == set(ARTIFACTS) == set(BUILT) == set(BREAK)


@pytest.mark.parametrize("name", list(ARTIFACTS))
def test_fallback_builder_output_is_valid_and_breaking_it_is_caught(name):
    document = BUILT[name]()
    assert validate_document(document, name) == []
    json.dumps(document)  # JSON-serialisable
    BREAK[name](document)
    assert validate_document(document, name) != []


@pytest.mark.parametrize(
    "call",
    [
        lambda: fallback.session_context("g", []),
        lambda: fallback.model_analysis("m", []),
        lambda: fallback.run_manifest("w", {}, []),
    ],
)
def test_fallback_builders_refuse_to_build_an_invalid_fallback(call):
    with pytest.raises(ValueError):
        call()
