"""The audit (:func:`quarkci.sync.audit.audit`, every rule) of one-skill trees against the real wheel where
the fact exists: each case of issue 9's "What was seen".

Every expected value below was checked by hand against the wheel (paths in the comments). A skill is
written to a temporary directory; the facts come from the real amd-quark wheels (downloaded once and
cached, facts cached by the wheel's sha256).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from quarkci.core.findings import Finding
from quarkci.skills import DirectorySource
from quarkci.sync.audit import audit
from quarkci.sync.run import build_view, read_skills
from quarkci.sync.state import AuditState, UpstreamView

pytestmark = pytest.mark.real


@cache
def _view(version: str) -> UpstreamView:
    from tests.realwheels import real_snapshot

    return build_view(f"amd-quark=={version}", real_snapshot(version))


def _audit(
    tmp_path: Path,
    body: str,
    upstream: str,
    baseline: str | None = None,
    name: str = "probe",
    description: str = "probe",
) -> list[Finding]:
    skill = tmp_path / "skills" / name
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n\n{body}", encoding="utf-8"
    )
    source = DirectorySource(tmp_path / "skills")
    skills, claims = read_skills(source)
    state = AuditState(
        skills, claims, _view(upstream), _view(baseline) if baseline else None, source.read_text
    )
    return list(audit(state).findings.findings)


def _rules(findings: list[Finding], kind: str | None = None) -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = {}
    for f in findings:
        if kind is None or f.kind == kind:
            out.setdefault(f.rule, []).append(f)
    return out


# --- missed breaking drift -------------------------------------------------------------------------------


def test_scheme_named_as_example_value_in_prose_and_yaml_is_breaking(tmp_path):
    # neither name is a scheme of quark/torch/quantization/config/template.py in 0.13
    body = (
        "## Inputs\n\n- `quant_scheme` — quantization scheme (e.g., `w_fp8_a_fp8`, `w_int4_a_bf16`)\n\n"
        "## Outputs\n\n```yaml\nquant_scheme: w_fp8_a_fp8\n```\n"
    )
    found = _rules(_audit(tmp_path, body, "0.13"), "breaking")["scheme-unknown"]
    assert sorted(f.subject for f in found) == ["w_fp8_a_fp8", "w_int4_a_bf16"]


def test_import_of_a_name_the_module_never_defined_is_breaking(tmp_path):
    # quark/torch/utils/llm/__init__.py (0.13) imports no LLMTemplate; it lives in quark.torch /
    # config.template
    body = (
        "```python\nfrom quark.torch import ModelQuantizer\n"
        "from quark.torch.utils.llm import LLMTemplate\n```\n"
    )
    findings = _audit(tmp_path, body, "0.13", "0.12.post1")
    (bad,) = _rules(findings)["python-import-unresolved"]
    assert bad.kind == "breaking" and bad.subject == "quark.torch.utils.llm.LLMTemplate"
    assert "ImportError" in bad.impact
    assert bad.skill_location is not None and bad.skill_location.line == 8


def test_transformers_range_in_a_json_example_is_read(tmp_path):
    # METADATA of 0.13: Requires-Dist: transformers<5.17,>5; extra == "cli"
    body = '```json\n{\n  "transformers_version_required": ">=4.48.0,<5.16"\n}\n```\n'
    (tf,) = _rules(_audit(tmp_path, body, "0.13"))["transformers-version-mismatch"]
    assert (
        tf.kind == "mechanical" and tf.fix is None
    )  # an example's range mixes a model floor: no exact rewrite


def test_export_class_named_in_prose_removed_since_the_baseline(tmp_path):
    # 0.10: class ModelExporter in quark/torch/export/api.py; 0.13 exports no ModelExporter anywhere
    (gone,) = _rules(_audit(tmp_path, "Use `ModelExporter` to write the checkpoint.\n", "0.13", "0.10"))[
        "api-name-removed"
    ]
    assert gone.kind == "breaking" and "ModelExporter" in gone.source_says


@pytest.mark.parametrize(
    "sentence",
    [
        "Quark supports Python 3.11 to 3.13.",
        "Quark supports Python 3.11-3.13.",
        "Quark supports Python 3.11 through 3.13.",
    ],
)
def test_python_range_before_a_period_is_a_claim(tmp_path, sentence):
    # 0.11.2 METADATA: Requires-Python >=3.9.0,<3.13; classifiers 3.10, 3.11, 3.12
    (py,) = _rules(_audit(tmp_path, sentence + "\n", "0.11.2"))["python-version-mismatch"]
    assert "<3.13,>=3.9.0" in py.source_says
    # classifiers and Requires-Python disagree there (3.9 is allowed, yet not listed): said, and no fix
    assert "the two disagree" in py.source_says and py.fix is None


def test_python_floor_before_a_period_is_a_claim(tmp_path):
    (py,) = _rules(_audit(tmp_path, "It requires Python >= 3.10.\n", "0.13"))["python-version-mismatch"]
    assert "`<3.14,>=3.11`" in py.source_says


def test_config_class_removed_in_0_12_post1_and_back_in_0_13(tmp_path):
    # 0.11.2 quark/torch/quantization/config/config.py defines Config; 0.12.post1 does not; 0.13 re-exports it
    body = "```python\nfrom quark.torch.quantization.config.config import Config\n```\n"
    (gone,) = _rules(_audit(tmp_path, body, "0.12.post1", "0.11.2"))["api-name-removed"]
    assert gone.kind == "breaking" and gone.subject == "quark.torch.quantization.config.config.Config"
    assert not _rules(_audit(tmp_path, body, "0.13", "0.12.post1"), "breaking")


def test_function_removed_in_0_12_post1(tmp_path):
    # revert_model_patching: defined in 0.11.2 quark/torch/utils/llm/model_preparation.py, gone in 0.12.post1
    body = "Call `quark.torch.utils.llm.model_preparation.revert_model_patching(model)` afterwards.\n"
    (gone,) = _rules(_audit(tmp_path, body, "0.12.post1", "0.11.2"))["api-name-removed"]
    assert gone.subject == "quark.torch.utils.llm.model_preparation.revert_model_patching"


def test_stated_cli_default_differs_from_the_parser(tmp_path):
    # 0.13 quark/experimental/cli/torch_llm_ptq.py: --num_calib_data type=int, default=512
    body = (
        "```bash\nquark-cli torch-llm-ptq --model_dir m --quant_scheme fp8\n```\n\n"
        "`--num_calib_data` defaults to `128`.\n"
    )
    (changed,) = _rules(_audit(tmp_path, body, "0.13"))["cli-flag-default-changed"]
    assert "512" in changed.source_says and changed.fix is not None and "`512`" in changed.fix.new


def test_advice_about_sample_count_is_no_default_claim(tmp_path):
    body = (
        "```bash\nquark-cli torch-llm-ptq --model_dir m --quant_scheme fp8\n```\n\n"
        "Use 128 samples with `--num_calib_data 128` on small GPUs.\n"
    )
    assert "cli-flag-default-changed" not in _rules(_audit(tmp_path, body, "0.13"))


def test_onnx_and_onnxruntime_ranges_against_requires_dist(tmp_path):
    # 0.13 METADATA: onnx<=1.22.0,>=1.21.0 (core); onnxruntime<=1.28.0,>=1.22.2; extra == "cli"
    body = '```bash\npip install "onnxruntime>=1.20" "onnx>=1.19,<1.20"\n```\n'
    found = _rules(_audit(tmp_path, body, "0.13", name="quark-onnx-install"))["dependency-range-mismatch"]
    assert sorted(f.subject.split()[0] for f in found) == ["onnx", "onnxruntime"]
    # the same range where the release agrees is silent
    ok = '```bash\npip install "onnxruntime>=1.22.2,<=1.28.0"\n```\n'
    assert "dependency-range-mismatch" not in _rules(
        _audit(tmp_path / "ok", ok, "0.13", name="quark-onnx-install")
    )


def test_flags_of_other_cli_parsers_are_checked(tmp_path):
    # 0.13: quark/experimental/cli/quark_onnx/onnx_ptq.py registers quark-cli onnx-ptq's flags (no --bogus);
    # quark-quant-perf's parser is quark/experimental/torch/quant_perf/cli.py (has --gpu-type)
    body = (
        "```bash\nquark-cli onnx-ptq --input_model_path m.onnx --bogus_flag\n"
        "quark-quant-perf --model m --gpu-type mi300x\n```\n"
    )
    findings = _audit(tmp_path, body, "0.13")
    removed = _rules(findings)["cli-flag-removed"]
    assert [f.subject for f in removed] == ["quark-cli onnx-ptq --bogus_flag"]
    assert not [f for f in findings if "not in this snapshot" in f.source_says]


def test_export_choice_missing_from_the_release_cli(tmp_path):
    # 0.10 torch_llm_ptq.py: --model_export choices=[None, "onnx", "quark_format", "hf_format", "gguf"]
    body = "```bash\nquark-cli torch-llm-ptq --model_dir m --model_export vllm_adopted_safetensors\n```\n"
    (bad,) = _rules(_audit(tmp_path, body, "0.10"))["cli-flag-choice-invalid"]
    assert bad.kind == "breaking" and "hf_format" in bad.source_says


# --- false positives of one kind -------------------------------------------------------------------------


def test_export_value_for_an_absent_script_is_unverifiable(tmp_path):
    body = "```bash\npython quantize_quark.py --model_dir m --model_export hf_format\n```\n"
    for version in ("0.11.2", "0.13"):
        findings = _audit(tmp_path, body, version)
        assert not [f for f in findings if f.kind == "breaking"], version


def test_code_block_introduced_as_historical_is_not_checked(tmp_path):
    body = "This no longer works:\n\n```python\nfrom quark.torch.utils.llm import LLMTemplate\n```\n"
    assert "python-import-unresolved" not in _rules(_audit(tmp_path, body, "0.13"))


def test_non_exhaustive_table_is_not_a_complete_list(tmp_path):
    body = (
        "## Supported Model Architectures (not exhaustive; see template.py for all)\n\n"
        "| Model type | Notes |\n| --- | --- |\n| `llama` | x |\n| `qwen2` | y |\n"
    )
    assert "model-list-incomplete" not in _rules(_audit(tmp_path, body, "0.13"))


def test_parameter_names_under_a_scheme_heading_are_no_schemes(tmp_path):
    body = "## Scheme options\n\n- `quant_scheme` — the scheme\n- `layer_quant_scheme` — per layer\n"
    assert "scheme-unknown" not in _rules(_audit(tmp_path, body, "0.13"))


@pytest.mark.parametrize("version", ["0.11.2", "0.10"])
def test_not_supported_python_314_is_true_on_older_releases(tmp_path, version):
    body = "- **Supported**: Python 3.10, 3.11, 3.12\n- **Not supported**: Python 3.14+\n"
    findings = _rules(_audit(tmp_path, body, version)).get("python-version-mismatch", [])
    assert not [f for f in findings if "3.14" in f.skill_says]


def test_statement_scoped_to_older_releases_is_not_checked_against_0_13(tmp_path):
    body = "For `amd-quark>=0.11,<0.12` use Python 3.10, 3.11 or 3.12.\n"
    assert "python-version-mismatch" not in _rules(_audit(tmp_path, body, "0.13"))
    # ... and is checked against a release inside its scope (0.11.2: Requires-Python >=3.9.0,<3.13), never
    # rewritten (a scoped statement keeps its own release's wording)
    (scoped,) = _rules(_audit(tmp_path, body, "0.11.2"))["python-version-mismatch"]
    assert scoped.fix is None


def test_a_spec_range_fix_keeps_both_bounds(tmp_path):
    # 0.13: Requires-Python >=3.11,<3.14 with classifiers 3.11-3.13 (they agree): an exact rewrite exists
    (py,) = _rules(_audit(tmp_path, "Requires Python `>=3.10,<3.13`.\n", "0.13"))["python-version-mismatch"]
    assert py.fix is not None and "`>=3.11,<3.14`" in py.fix.new


def test_missing_package_is_named_in_the_message(tmp_path):
    # quark/shapeshifter/ does not exist in 0.11.2 (it does in 0.13)
    body = "Run `quark.shapeshifter.shapeshifter(config)`.\n"
    (bad,) = _rules(_audit(tmp_path, body, "0.11.2"))["python-import-unresolved"]
    assert "no module `quark.shapeshifter`" in bad.source_says
    assert "python-import-unresolved" not in _rules(_audit(tmp_path, body, "0.13"))


def test_migration_note_naming_the_old_api_is_not_drift(tmp_path):
    body = "Use `export_safetensors` instead of `ModelExporter` (the class was removed in 0.11).\n"
    assert "api-name-removed" not in _rules(_audit(tmp_path, body, "0.13", "0.10"))


def test_frontmatter_description_is_read(tmp_path):
    description = ">\n  Drives `quark.torch.utils.llm.LLMTemplate` for Python 3.10 to 3.12."
    findings = _rules(_audit(tmp_path, "Body.\n", "0.13", description=description))
    (bad,) = findings["python-import-unresolved"]
    assert bad.skill_location is not None and bad.skill_location.line == 4  # the folded scalar's first line
    assert "python-version-mismatch" in findings


def test_a_skills_own_example_is_checked_against_the_release_contract(tmp_path):
    # 0.13 ships contracts/run_manifest.schema.json requiring (among others) `inputs`; this example lacks it
    body = "## Outputs: run_manifest.yaml\n\n```yaml\nworkflow: quark-torch-ptq\n```\n"
    (bad,) = _rules(_audit(tmp_path, body, "0.13"))["contract-upstream-example-invalid"]
    assert bad.kind == "semantic" and bad.skill_location is not None
    assert bad.skill_location.file == "probe/SKILL.md" and "rejects it" in bad.source_says
