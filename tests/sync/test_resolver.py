"""Skill sync's resolver on the real wheels (issue 21): names checked against what each release accepts.

Each case is a one-skill audit in a temporary directory against the real amd-quark wheel where the fact lives
(downloaded once and cached; facts cached by the wheel's sha256). Expected values were read from the wheels
(paths in the comments).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from quarkci.core.findings import Finding
from quarkci.facts import vocabulary
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
    tmp_path: Path, body: str, upstream: str, baseline: str | None = None, name: str = "probe"
) -> list[Finding]:
    skill = tmp_path / "skills" / name
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {name}\n---\n\n{body}", encoding="utf-8"
    )
    source = DirectorySource(tmp_path / "skills")
    base = _view(baseline) if baseline else None
    # as the sync run does: the shipped vocabulary with the audited release (and the baseline) merged in
    lexicon = vocabulary.shipped().merged([_view(upstream).facts, *([base.facts] if base else [])])
    skills, claims = read_skills(source, lexicon)
    state = AuditState(skills, claims, _view(upstream), base, source.read_text, vocabulary=lexicon)
    return [f for f in audit(state).findings.findings if f.kind != "unverifiable"]


CLI_SCHEMES = (
    "## Run\n\n```bash\nquark-cli torch-llm-ptq --model_dir ./m --output_dir ./o --quant_scheme w_fp8_a_fp8\n"
    "quark-cli torch-llm-ptq --model_dir ./m --output_dir ./o --quant_scheme w_int4_per_group_sym\n```\n"
)


def test_scheme_names_the_0_10_cli_accepts_are_known_there():
    # 0.10: quark/experimental/cli/torch_llm_ptq.py passes choices=SUPPORTED_QUANT_SCHEME, imported from
    # quark/experimental/cli/torch_llm/llm_ptq/customized_configuration.py:72 (63 names with the MX and
    # deprecated ones); neither w_* name is in config/template.py's _schemes
    view = _view("0.10")
    (flag,) = [i for i in view.items("cli_flags") if i.name == "--quant_scheme"]
    choices = flag.attrs["choices"]
    assert isinstance(choices, list) and len(choices) == 63
    assert {"w_fp8_a_fp8", "w_int4_per_group_sym"} <= set(choices)
    assert (
        flag.attrs["choices_from"]
        == "quark/experimental/cli/torch_llm/llm_ptq/customized_configuration.py:72"
    )
    assert "w_fp8_a_fp8" not in view.facts.names("schemes")


def test_cli_scheme_names_are_not_unknown_against_0_10_but_are_against_0_13(tmp_path):
    against_010 = _audit(tmp_path / "a", CLI_SCHEMES, "0.10")
    assert [f for f in against_010 if f.rule == "scheme-unknown"] == []
    assert not any("SUPPORTED_QUANT_SCHEME" in f.source_says for f in against_010)
    # negative control: 0.13 has neither name in its config API nor in any CLI's choices
    against_013 = _audit(tmp_path / "b", CLI_SCHEMES, "0.13")
    unknown = sorted(f.subject for f in against_013 if f.rule == "scheme-unknown")
    assert unknown == ["w_fp8_a_fp8", "w_int4_per_group_sym"]


def test_choices_changed_names_values_not_the_variable(tmp_path):
    # against 0.11 with 0.10 as the baseline: any choices finding lists names, never the list's variable name
    found = _audit(tmp_path, CLI_SCHEMES, "0.11", "0.10")
    assert not any("SUPPORTED_QUANT_SCHEME" in (f.source_says + f.skill_says) for f in found)


TWO_COMMANDS = (
    "## ONNX\n\n```bash\nquark-cli onnx-ptq --input_model_path m.onnx --output_model_path o.onnx\n```\n\n"
    "## Torch\n\n```bash\nquark-cli torch-llm-ptq --model_dir ./m --output_dir ./o --quant_scheme int8\n```\n\n"
    "By default the command calibrates on {n} samples (`--num_calib_data`).\n\n"
    "The default sequence length (`--seq_len`) is {seq}.\n\n"
    "Use 128 samples (`--num_calib_data 128`) for a quick run.\n"
)


def test_stated_default_in_any_phrasing_is_checked_against_its_own_command(tmp_path):
    # 0.13: quark-cli torch-llm-ptq --num_calib_data defaults to 512 and --seq_len to 512;
    # quark-cli onnx-ptq --num_calib_data to 1000
    true = _audit(tmp_path / "a", TWO_COMMANDS.format(n=512, seq=512), "0.13")
    assert [f for f in true if f.rule == "cli-flag-default-changed"] == []
    false = _audit(tmp_path / "b", TWO_COMMANDS.format(n=1000, seq=2048), "0.13")
    changed = sorted(
        (f.subject, f.skill_location.line if f.skill_location else 0)
        for f in false
        if f.rule == "cli-flag-default-changed"
    )
    assert changed == [
        ("quark-cli torch-llm-ptq --num_calib_data default 1000", 18),
        ("quark-cli torch-llm-ptq --seq_len default 2048", 20),
    ]
    assert all("defaults to 512" in f.source_says for f in false if f.rule == "cli-flag-default-changed")


def test_advice_is_no_stated_default(tmp_path):
    body = "```bash\nquark-cli torch-llm-ptq --model_dir ./m --output_dir ./o\n```\n\nUse 64 samples (`--num_calib_data 64`).\n"
    assert [f for f in _audit(tmp_path, body, "0.13") if f.rule == "cli-flag-default-changed"] == []


def test_a_migration_note_naming_two_releases_is_not_usage(tmp_path):
    # 0.12.post1: quark/torch/quantization/config/config.py defines no `Config`; 0.13 does
    note = (
        "`Config` fails to import on 0.12.post1; it is back in 0.13 "
        "(`from quark.torch.quantization.config.config import Config`).\n"
    )
    assert [
        f for f in _audit(tmp_path / "a", note, "0.12.post1") if f.rule == "python-import-unresolved"
    ] == []
    # negative control: the same import as usage is breaking on 0.12.post1
    usage = "```python\nfrom quark.torch.quantization.config.config import Config\n```\n"
    (bad,) = [f for f in _audit(tmp_path / "b", usage, "0.12.post1") if f.rule == "python-import-unresolved"]
    assert bad.kind == "breaking" and bad.subject == "quark.torch.quantization.config.config.Config"


# 0.13 METADATA: Requires-Python >=3.11,<3.14; onnx <=1.22.0,>=1.21.0 (core); onnxruntime <=1.28.0,>=1.22.2
# ('cli'); quark/torch/quantization/config/template.py registers nvfp4 and the gpt_oss template
RANGES_FALSE = (
    "## Versions\n\n"
    "Quark needs onnx 1.18–1.20 for the ONNX flow.\n\n"  # line 8
    "It was tested with onnxruntime 1.20.1 to 1.22.1.\n\n"  # 10
    "Pin `onnx >= 1.16, <= 1.19` in your requirements.\n\n"  # 12
    "- onnxruntime <= 1.21.3 on Linux\n\n"  # 14
    "| package | range |\n| --- | --- |\n| onnxruntime | 1.18 – 1.22 |\n\n"  # 18
    "Python 3.12 is not supported.\n\n"  # 20
    "Not supported: `gpt_oss`.\n\n"  # 22
    "`nvfp4` is not available in this release.\n"  # 24
)
RANGES_TRUE = (
    "## Versions\n\n"
    "Quark needs onnx 1.21–1.22 for the ONNX flow.\n\n"
    "It was tested with onnxruntime 1.22.2 to 1.28.0.\n\n"
    "Pin `onnx >= 1.21, <= 1.22.0` in your requirements.\n\n"
    "- onnxruntime <= 1.28.0 on Linux\n\n"
    "| package | range |\n| --- | --- |\n| onnxruntime | 1.22.2 – 1.28 |\n\n"
    "Python 3.10 is not supported.\n\n"
    "Not supported: `falcon_x`.\n\n"
    "`nvfp4` is available in this release.\n"
)


def test_ranges_and_negative_statements_in_any_phrasing(tmp_path):
    found = sorted(
        (f.rule, f.skill_location.line if f.skill_location else 0)
        for f in _audit(tmp_path / "false", RANGES_FALSE, "0.13", name="quark-onnx-install")
    )
    assert found == [
        ("dependency-range-mismatch", 8),
        ("dependency-range-mismatch", 10),
        ("dependency-range-mismatch", 12),
        ("dependency-range-mismatch", 14),
        ("dependency-range-mismatch", 18),
        ("name-stated-unavailable", 22),
        ("name-stated-unavailable", 24),
        ("python-version-mismatch", 20),
    ]
    # negative control: the same phrasings, true of 0.13, give nothing (onnxruntime is pinned by the 'cli'
    # extra only, so it is checked in an install skill)
    assert _audit(tmp_path / "true", RANGES_TRUE, "0.13", name="quark-onnx-install") == []


PARSED = (
    "```python\n"
    "import quark.torch.quantization.config.config as qcfg\n"  # line 7
    "from quark.torch import LLMTemplate, ModelQuantizer, export_safetensors\n\n"
    'config = LLMTemplate.get_config(scheme="fp8", exclude_layers=["lm_head"], {kv}="fp8")\n'  # 10
    "spec = qcfg.{spec}(weight=None)\n"  # 11
    "quantizer = ModelQuantizer(config, multi_device=False)\n"
    "model = quantizer.quantize_model(model, {loader}=loader)\n"  # 13
    'export_safetensors(model, output_dir="out", weight_format="real_quantized")\n'
    "```\n"
)


def test_python_blocks_are_parsed_with_aliases_instances_and_signatures(tmp_path):
    # 0.13: quark/torch/quantization/config/template.py LLMTemplate.get_config(scheme, algorithm,
    # kv_cache_scheme, ...); ModelQuantizer.quantize_model(model, dataloader); config.py defines no
    # QuantizationSpecz (the alias qcfg hides the module from a line reader); it defines QLayerConfig
    body = PARSED.format(kv="kv_scheme", spec="QuantizationSpecz", loader="calib_loader")
    found = sorted(
        (f.rule, f.subject, f.skill_location.line if f.skill_location else 0)
        for f in _audit(tmp_path / "false", body, "0.13")
    )
    assert found == [
        ("python-import-unresolved", "quark.torch.quantization.config.config.QuantizationSpecz", 11),
        ("python-keyword-unknown", "quark.torch.LLMTemplate.get_config(kv_scheme=)", 10),
        ("python-keyword-unknown", "quark.torch.ModelQuantizer.quantize_model(calib_loader=)", 13),
    ]
    # negative control: the true spelling of each gives nothing
    good = PARSED.format(kv="kv_cache_scheme", spec="QLayerConfig", loader="dataloader")
    assert _audit(tmp_path / "true", good, "0.13") == []


# 0.13 quark/torch/quantization/config/config.py: @dataclass ProgressiveSpec(TwoStageSpec) gets first_stage and
# second_stage from TwoStageSpec; QLayerConfig(BaseQLayerConfig) gets input_tensors, output_tensors, weight,
# bias from quark/common/config.py and adds target_device; quark/torch/export/api.py: QuarkSafetensorsExporter
# has no __init__ of its own, SafetensorsExporter's takes (model, output_dir, custom_mode, weight_format, ...)
INHERITED = (
    "```python\n"
    "from quark.torch.quantization.config.config import ProgressiveSpec, QLayerConfig\n"  # line 7
    "from quark.torch.export.api import QuarkSafetensorsExporter\n\n"
    "spec = ProgressiveSpec(first_stage=a, {stage}=b)\n"  # 10
    "layer = QLayerConfig(weight=spec, {device}=None)\n"  # 11
    'exporter = QuarkSafetensorsExporter(model, {out}="out")\n'  # 12
    "```\n"
)


def test_call_keywords_are_checked_against_inherited_signatures(tmp_path):
    true = INHERITED.format(stage="second_stage", device="target_device", out="output_dir")
    assert [f for f in _audit(tmp_path / "true", true, "0.13") if f.rule == "python-keyword-unknown"] == []
    false = INHERITED.format(stage="second", device="device", out="output_path")
    found = sorted(
        (f.subject, f.skill_location.line if f.skill_location else 0)
        for f in _audit(tmp_path / "false", false, "0.13")
        if f.rule == "python-keyword-unknown"
    )
    assert found == [
        ("quark.torch.export.api.QuarkSafetensorsExporter(output_path=)", 12),
        ("quark.torch.quantization.config.config.ProgressiveSpec(second=)", 10),
        ("quark.torch.quantization.config.config.QLayerConfig(device=)", 11),
    ]


COMMANDS = (
    "```bash\nquark-cli torch-llm-ptq --model_dir m --output_dir o\n"  # line 7
    "quark-cli torch-ptq --model_dir m\n"  # 8
    "quark-quant-perf --help\n```\n"  # 9
)


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        # 0.13 registers quark-quant-perf (entry_points.txt) and no torch-ptq subcommand in any release
        ("0.13", [("cli-command-misspelt", "semantic", "quark-cli torch-ptq", 8)]),
        # 0.10 has no quark-quant-perf console script; the vocabulary says 0.13 has it
        (
            "0.10",
            [
                ("cli-command-misspelt", "semantic", "quark-cli torch-ptq", 8),
                ("cli-command-unknown", "breaking", "quark-quant-perf", 9),
            ],
        ),
        # 0.9's wheel has no console scripts and no packaged CLI: a command other releases install is missing
        # (breaking, with the releases that have it); the name no release has says nothing about Quark there
        (
            "0.9",
            [
                ("cli-command-unknown", "breaking", "quark-cli torch-llm-ptq", 7),
                ("cli-command-unknown", "breaking", "quark-quant-perf", 9),
            ],
        ),
    ],
)
def test_commands_are_resolved_against_every_release(tmp_path, version, expected):
    found = sorted(
        (f.rule, f.kind, f.subject, f.skill_location.line if f.skill_location else 0)
        for f in _audit(tmp_path, COMMANDS, version)
        if f.rule.startswith("cli-command")
    )
    assert found == expected
    if version == "0.10":
        (unknown,) = [
            f for f in _audit(tmp_path / "again", COMMANDS, version) if f.rule == "cli-command-unknown"
        ]
        assert "releases defining it: 0.13" in unknown.source_says


# No amd-quark release has quark.torch.quantisation (the vocabulary of 0.6.0 … 0.13); 0.13 has
# quark/torch/quantization/config/config.py (defining QConfig). quark.experimental.plugin: 0.12.post1 only.
MODULES = (
    "```python\n"
    "from quark.torch.{quant}.config.config import QConfig\n"  # line 7
    "import quark.torch.{quant}.config as qc\n"  # 8
    "```\n\n"
    "The configuration classes live in `quark.torch.{quant}.config`.\n\n"  # 11
    "See `quark.torch.quantization.{config}.config.QConfig`.\n"  # 13
)


def test_a_module_path_no_release_has_is_a_misspelling_with_the_nearest_module(tmp_path):
    found = _audit(tmp_path / "false", MODULES.format(quant="quantisation", config="confg"), "0.13")
    nearest = "the nearest module of amd-quark 0.13 is"
    assert sorted(
        (f.rule, f.kind, f.subject, f.skill_location.line, f.source_says.split(nearest)[-1])
        for f in found
        if f.skill_location
    ) == [
        (
            "python-module-misspelt",
            "semantic",
            "quark.torch.quantisation.config",
            8,
            " `quark.torch.quantization.config`",
        ),
        (
            "python-module-misspelt",
            "semantic",
            "quark.torch.quantisation.config.config",
            7,
            " `quark.torch.quantization.config.config`",
        ),
        (
            "python-module-misspelt",
            "semantic",
            "quark.torch.quantization.confg.config",
            13,
            " `quark.torch.quantization.config.config`",
        ),
    ]
    assert all("no amd-quark release has a module" in f.source_says for f in found)
    # negative control: the true spelling gives nothing
    assert _audit(tmp_path / "true", MODULES.format(quant="quantization", config="config"), "0.13") == []


def test_a_module_an_older_release_had_is_drift_not_a_misspelling(tmp_path):
    body = "```python\nimport quark.experimental.plugin\n```\n"
    (found,) = _audit(tmp_path, body, "0.13")
    assert (found.rule, found.kind, found.subject) == (
        "python-import-unresolved",
        "breaking",
        "quark.experimental.plugin",
    )


def _rules(findings: list[Finding], rule: str) -> list[tuple[int, str]]:
    return sorted(
        (f.skill_location.line if f.skill_location else 0, f.kind) for f in findings if f.rule == rule
    )


# 0.13 METADATA: onnxruntime<=1.28.0,>=1.22.2; extra == "cli"; pulp<4,>=3.3; extra == "cli";
# mypy==1.18.2; extra == "lint". The skill below is no install skill: the extra named in the clause decides.
EXTRA_PINS = (
    "Serving notes.\n\n"
    "* With the `cli` extra you get onnxruntime anywhere from 1.22.2 up to 1.31.0\n"  # line 8: wrong cap
    "* For linting, the `lint` extra holds `mypy==1.16.0`\n"  # 9: wrong pin
    "* amd-quark[cli] brings `pulp>=3.3,<4`\n"  # 10: true
    "* the `cli` extra wants onnxruntime somewhere between 1.22.2 and 1.28.0\n"  # 11: true
)


def test_a_pin_stated_for_a_named_extra_is_checked_against_that_extra(tmp_path):
    found = _audit(tmp_path, EXTRA_PINS, "0.13", name="serving-notes")
    assert _rules(found, "dependency-range-mismatch") == [(8, "mechanical"), (9, "mechanical")]
    # negative control: without naming the extra, an extra-only package outside an install skill is the
    # skill's own choice (unchanged behaviour)
    plain = "Serving notes.\n\nWe run onnxruntime 1.22.2 to 1.31.0 here.\n"
    assert (
        _rules(_audit(tmp_path / "b", plain, "0.13", name="serving-notes"), "dependency-range-mismatch") == []
    )


def test_a_floor_at_a_major_release_is_compared_below_it(tmp_path):
    # 0.8 METADATA: numpy<=2.1.3 (no floor): a stated `numpy>=2.0` rejects numpy 1.26 that 0.8 accepts
    body = "Core pins of this release: `onnxsim==0.4.36` and `numpy>=2.0`.\n"
    assert _rules(_audit(tmp_path, body, "0.8", name="quark-install"), "dependency-range-mismatch") == [
        (6, "mechanical")
    ]
    same = "Core pins of this release: `onnxsim==0.4.36` and `numpy<=2.1.3`.\n"
    assert (
        _rules(_audit(tmp_path / "b", same, "0.8", name="quark-install"), "dependency-range-mismatch") == []
    )


def test_a_requirement_bound_is_no_release_number_of_a_migration_note(tmp_path):
    # 0.13: the 'cli' extra pins pulp<4,>=3.3; `flydsl<0.3,>=0.2.4` holds two 0.x numbers that are flydsl's
    body = "The `cli` extra pins `pulp>=3.0,<4`; the `flydsl` extra pins `flydsl<0.3,>=0.2.4`.\n"
    assert _rules(_audit(tmp_path, body, "0.13", name="notes"), "dependency-range-mismatch") == [
        (6, "mechanical")
    ]


# 0.13 quark/experimental/cli/quark_onnx/onnx_ptq.py: --num_calib_data default 1000;
# torch_llm_ptq.py: --num_calib_data default 512, --seq_len default 512
DEFAULTS_UNWORDED = (
    "```bash\nquark-cli torch-llm-ptq --model_dir ./m --output_dir ./o\n```\n\n"
    "If you leave out `--seq_len`, nothing: it is not a default here.\n\n"  # line 10: no value, no claim
    "Without passing `--seq_len`, the PTQ run slices 1024 tokens.\n\n"  # 12: wrong (512)
    "onnx-ptq reads 128 samples unless you set `--num_calib_data`.\n\n"  # 14: wrong, onnx-ptq's (1000)
    "Worth knowing: `--batch_size` is 1, `--seq_len` 2048, and onnx-ptq takes 1000 samples when "
    "`--num_calib_data` is not given.\n"  # 16: --seq_len wrong (512); the onnx-ptq pair true
)


def test_a_default_is_stated_without_the_word_and_for_the_command_the_sentence_names(tmp_path):
    found = _audit(tmp_path, DEFAULTS_UNWORDED, "0.13")
    changed = sorted(
        (f.skill_location.line if f.skill_location else 0, f.subject)
        for f in found
        if f.rule == "cli-flag-default-changed"
    )
    assert changed == [
        (12, "quark-cli torch-llm-ptq --seq_len default 1024"),
        (14, "quark-cli onnx-ptq --num_calib_data default 128"),
        (16, "quark-cli torch-llm-ptq --seq_len default 2048"),
    ]


def test_a_default_stated_for_no_command_agrees_when_one_command_has_it(tmp_path):
    # no command anywhere in the skill: 512 is torch-llm-ptq's default, 1000 onnx-ptq's; 77 is nobody's
    body = "Calibration: use 100 to 500 samples; the CLI default for `--num_calib_data` is 512.\n\n"
    body += "The CLI default for `--num_calib_data` is 77.\n"
    assert _rules(_audit(tmp_path, body, "0.13"), "cli-flag-default-changed") == [(8, "mechanical")]


def test_a_release_column_of_a_settings_table_states_defaults(tmp_path):
    # 0.13 torch_llm_ptq.py: --seq_len default 512, --batch_size default 1
    body = "| flag | 0.13 value |\n|---|---|\n| `--seq_len` | 4096 |\n| `--batch_size` | 1 |\n"
    assert _rules(_audit(tmp_path, body, "0.13"), "cli-flag-default-changed") == [(8, "mechanical")]
    # negative control: a column of what a recipe passes is no default
    recipe = "| flag | we pass |\n|---|---|\n| `--seq_len` | 4096 |\n"
    assert _rules(_audit(tmp_path / "b", recipe, "0.13"), "cli-flag-default-changed") == []


def test_a_placeholder_flag_is_no_flag(tmp_path):
    body = "Every option takes the form `--flag=value` or `--your-option VALUE`; see `--help`.\n"
    found = _audit(tmp_path, "```bash\nquark-cli torch-llm-ptq --help\n```\n\n" + body, "0.13")
    assert [f for f in found if f.rule.startswith("cli-flag")] == []


def test_a_sentence_scoped_to_one_earlier_release_is_not_checked_against_the_audited_one(tmp_path):
    # 0.11 moved model_preparation.py to quark/torch/utils/llm/; 0.10 had it under the experimental CLI
    body = (
        "The preparation helpers sit in `quark/torch/utils/llm/model_preparation.py`; on 0.10 the same "
        "file was `quark/experimental/cli/torch_llm/llm_utils/model_preparation.py`.\n"
    )
    assert [f for f in _audit(tmp_path, body, "0.11") if f.rule.startswith("source-path")] == []
    # negative control: stated as the 0.11 place, the old path is missing
    wrong = (
        "The preparation helpers sit in `quark/experimental/cli/torch_llm/llm_utils/model_preparation.py`.\n"
    )
    assert _rules(_audit(tmp_path / "b", wrong, "0.11"), "source-path-missing") != []


# 0.13 quark/torch/quantization/config/template.py: LLMTemplate.get(cls, model_type), get_config(self, scheme,
# ...); glm4_moe is registered from 0.11.1 on (vocabulary); quark/torch/quantization/api.py: ModelQuantizer
# has quantize_model and freeze in every release, set_logging_level in 0.6.0 … 0.10 only.
PYTHON_ROLES = """```python
from quark.torch import LLMTemplate, ModelQuantizer
tmpl = LLMTemplate.get("llama")
cfg = tmpl.get_config(scheme="int4_wo_128")
other = LLMTemplate.get("glm4_moe").get_config(scheme="int4_wo_999")
third = LLMTemplate.get("mistrall")
q = ModelQuantizer(cfg)
model = q.quantise_model(model, loader)
q.set_logging_level("INFO")
model = q.freeze(model)
r = ModelQuantizr(cfg)
tok = AutoTokenizer.from_pretrained("<model_dir>")
placeholder = LLMTemplate.get("<model_type>")
```
"""


def test_python_literals_methods_and_unbound_names_resolve_by_their_role(tmp_path):
    found = _audit(tmp_path, PYTHON_ROLES, "0.11")
    got = sorted(
        (f.skill_location.line if f.skill_location else 0, f.rule, f.kind)
        for f in found
        if f.rule in ("python-argument-unknown", "python-name-misspelt", "python-import-unresolved")
    )
    assert got == [
        (10, "python-argument-unknown", "breaking"),  # glm4_moe: 0.11.1 … 0.13, not 0.11
        (10, "python-name-misspelt", "semantic"),  # scheme int4_wo_999: no release
        (11, "python-name-misspelt", "semantic"),  # model type mistrall: no release (nearest mistral)
        (13, "python-name-misspelt", "semantic"),  # ModelQuantizer.quantise_model: no release
        (14, "python-import-unresolved", "breaking"),  # set_logging_level: 0.6.0 … 0.10 only
        (16, "python-name-misspelt", "semantic"),  # ModelQuantizr: unbound, two edits from ModelQuantizer
    ]
    # on 0.10 set_logging_level exists; on 0.13 glm4_moe does
    on_010 = _audit(tmp_path / "b", PYTHON_ROLES, "0.10")
    assert not [f for f in on_010 if f.rule == "python-import-unresolved" and f.skill_location.line == 14]
    on_013 = _audit(tmp_path / "c", PYTHON_ROLES, "0.13")
    assert not [f for f in on_013 if f.rule == "python-argument-unknown"]


def test_a_model_template_count_is_checked_wherever_it_names_the_kind(tmp_path):
    # 0.13 quark/torch/quantization/config/template.py: DEFAULT_TEMPLATES holds 51 model types
    body = (
        "`LLMTemplate.list_available()` gives back 44 names on this release.\n\n"  # line 6: LLMTemplate, wrong
        "The registry carries 51 model templates.\n\n"  # 8: true
        "Quark offers 12 templates for chat formatting.\n"  # 10: not the kind: no claim
    )
    found = _audit(tmp_path, body, "0.13")
    assert _rules(found, "model-count-mismatch") == []  # "44 names" states no kind: no count claim
    body2 = "`LLMTemplate` registers 44 model types here.\n\nThe registry carries 51 model templates.\n"
    assert _rules(
        _audit(tmp_path / "b", body2 + "\nQuark offers 12 templates for chat.\n", "0.13"),
        "model-count-mismatch",
    ) == [(6, "mechanical")]


# 0.12.post1 quark/experimental/cli/torch_llm_ptq.py: --dataset choices pileval, wikitext, cnn_dailymail, ...;
# --device choices cuda, cpu; --evaluation_dataset choices wikitext, wikitext_gpt_oss_120b
CHOICES = (
    "Calibration for `quark-cli torch-llm-ptq` reads `--dataset`, which accepts pileval, wikitext or c4.\n\n"  # 6
    "For `quark-cli torch-llm-ptq`, `--device` is one of `cuda`/`cpu`.\n\n"  # 8: true
    "`quark-cli torch-llm-ptq` scores on `--evaluation_dataset` (wikitext or lambada).\n\n"  # 10
    "`--dataset` is pileval and works well.\n"  # 12: no enumeration closes the clause: no claim
)


def test_a_stated_list_of_flag_values_is_checked_against_the_parsers_choices(tmp_path):
    found = _audit(tmp_path, CHOICES, "0.12.post1")
    assert sorted(
        (f.skill_location.line if f.skill_location else 0, f.kind, f.subject)
        for f in found
        if f.rule == "cli-flag-choice-invalid"
    ) == [
        (6, "mechanical", "quark-cli torch-llm-ptq --dataset c4"),
        (10, "mechanical", "quark-cli torch-llm-ptq --evaluation_dataset lambada"),
    ]


def test_unless_and_otherwise_mark_a_default(tmp_path):
    # 0.13 torch_llm_ptq.py: --seq_len default 512; a store_true flag's "default" is never compared
    body = (
        "```bash\nquark-cli torch-llm-ptq --model_dir ./m --output_dir ./o\n```\n\n"
        "Samples are cut at 4096 tokens unless `--seq_len` says otherwise.\n\n"  # line 10: wrong
        "Use 128 samples unless `--skip_evaluation` is on.\n"  # 12: store_true: no finding
    )
    assert _rules(_audit(tmp_path, body, "0.13"), "cli-flag-default-changed") == [(10, "mechanical")]


def test_python_m_runs_the_console_script_and_a_flag_no_release_has_is_misspelt(tmp_path):
    # entry_points.txt (0.10 … 0.13): quark-cli = quark.experimental.cli.main:main; 0.11 torch_llm_ptq.py
    # defines --num_calib_data; --model_export existed in 0.10 only (vocabulary 'flag' kind)
    body = (
        "```bash\n"
        "python -m quark.experimental.cli.main torch-llm-ptq --model_dir m --num_calib_dat 64\n"  # line 7
        "quark-cli torch-llm-ptq --model_dir m --model_export hf_format\n"  # 8: another release's flag
        "python -m quark.experimental.cli.main torch-llm-ptq --model_dir m --num_calib_data 64\n"  # 9: true
        "```\n"
    )
    found = _audit(tmp_path, body, "0.11")
    got = sorted(
        (f.skill_location.line if f.skill_location else 0, f.rule, f.kind)
        for f in found
        if f.rule.startswith("cli-flag")
    )
    assert got == [(7, "cli-flag-misspelt", "semantic"), (8, "cli-flag-removed", "breaking")]
    (misspelt,) = [f for f in found if f.rule == "cli-flag-misspelt"]
    assert "`--num_calib_data`" in misspelt.source_says


def test_subcommand_and_console_script_counts_are_checked(tmp_path):
    # 0.13 quark/experimental/cli/main.py registers 10 quark-cli subcommands; entry_points.txt: 3 console
    # scripts (quark-cli, quark-quant-perf, quark-skills)
    body = (
        "`quark-cli` offers eight subcommands on this release.\n\n"  # line 6: wrong
        "The wheel installs 3 console scripts.\n\n"  # 8: true
        "We ran 5 commands today.\n\n"  # 10: no quark-cli named: no claim
        "quark-cli has 10 subcommands.\n"  # 12: true
    )
    found = _audit(tmp_path, body, "0.13")
    assert _rules(found, "command-count-mismatch") == [(6, "mechanical")]
    # on 0.9 (no CLI) nothing is checkable
    assert _rules(_audit(tmp_path / "b", body, "0.9"), "command-count-mismatch") == []


def test_a_template_named_in_a_sentence_about_templates_is_checked(tmp_path):
    # vocabulary: glm4_moe is a model template from 0.11.1 on; llama in every release with templates
    body = (
        "`LLMTemplate` ships a template for `glm4_moe` and for `llama`.\n\n"  # line 6: glm4_moe missing on 0.11
        "Fine-tune `glm4_moe` with transformers first.\n"  # 8: not about templates: no claim
    )
    found = _audit(tmp_path, body, "0.11")
    assert [(f.skill_location.line, f.subject) for f in found if f.rule == "model-type-unknown"] == [
        (6, "glm4_moe")
    ]
    assert not [f for f in _audit(tmp_path / "b", body, "0.11.1") if f.rule == "model-type-unknown"]


def test_a_literal_for_a_parameter_the_callable_closes_is_checked(tmp_path):
    # 0.12.post1 quark/torch/export/api.py export_safetensors: `if custom_mode == "quark": ... elif
    # custom_mode in ["awq", "fp8"]: ... else: raise ValueError`; weight_format is only passed on (open)
    body = (
        "```python\nfrom quark.torch import export_safetensors\n"
        'export_safetensors(model, "out", custom_mode="awq")\n'  # line 8: true
        'export_safetensors(model, "out", custom_mode="hf_safetensor")\n'  # 9: no release accepts it
        'export_safetensors(model, "out", "fp8", weight_format="anything")\n'  # 10: open parameter: no claim
        "```\n"
    )
    found = _audit(tmp_path, body, "0.12.post1")
    assert _rules(found, "python-name-misspelt") == [(9, "semantic")]
    assert not _rules(found, "python-argument-unknown")


def test_closed_literals_are_read_only_from_chains_that_raise_for_the_rest():
    from quarkci.facts.public_api import module_item

    text = (
        "def f(mode, fmt, level):\n"
        "    if mode == 'a':\n        pass\n    elif mode in ('b', 'c'):\n        pass\n"
        "    else:\n        raise ValueError(mode)\n"
        "    if fmt not in ['x', 'y']:\n        raise ValueError(fmt)\n"
        "    if level == 'fast':\n        pass\n"  # only compared: other values are accepted
    )
    item = module_item("quark/m.py", text)
    assert item is not None and item.attrs["literals"] == {"f": {"fmt": ["x", "y"], "mode": ["a", "b", "c"]}}


def test_a_scheme_no_release_defines_is_a_misspelling_wherever_it_is_read(tmp_path):
    # vocabulary: int4_wo_128 exists, int4_wo_129 in no release; a YAML value is read by the structured reader
    body = "```yaml\nrecipe:\n  quant_scheme: int4_wo_129\n```\n"
    found = _audit(tmp_path, body, "0.12.post1")
    assert [(f.rule, f.kind) for f in found if f.rule.startswith("scheme-")] == [
        ("scheme-misspelt", "semantic")
    ]
    (finding,) = [f for f in found if f.rule == "scheme-misspelt"]
    assert "int4_wo_128" in finding.source_says


# 0.12.post1: quark.torch exports export_safetensors and export_gguf; GPTAQConfig is defined from 0.11 on
# (vocabulary 'name'); quark-quant-perf and quark-skills are console scripts of 0.13 only (entry_points.txt)
PROSE_NAMES = (
    "Export with `export_safetensors`, or `export_gguff` for GGUF.\n\n"  # line 6: export_gguff misspelt
    "Weights go through `ModelQuantiser`; ONNX `MatMul` nodes stay as they are.\n\n"  # 8: one misspelt class
    "On 0.13, use `GPTAQConfig` for asymmetric GPTQ.\n\n"  # 10: scoped to 0.13 by its own sentence
    "For asymmetric GPTQ use `GPTAQConfig`.\n\n"  # 12: audited on 0.10 below: breaking
    "Import `QuantizationSpec` from `quark.torch.quantization.config.config`.\n\n"  # 14: import said in words
    "Installing registers `quark-cli` and `quark-skills`.\n"  # 16: quark-skills is 0.13's only
)


def test_names_in_prose_code_spans_resolve_against_the_release_history(tmp_path):
    found = _audit(tmp_path, PROSE_NAMES, "0.10")
    got = sorted(
        (f.skill_location.line if f.skill_location else 0, f.rule, f.kind)
        for f in found
        if f.rule.startswith(("python-", "cli-command"))
    )
    assert (6, "python-name-misspelt", "semantic") in got  # export_gguff: one edit from export_gguf
    assert (8, "python-name-misspelt", "semantic") in got  # ModelQuantiser; MatMul (QMatMul's op) is not
    assert not [g for g in got if g[0] == 10]  # "On 0.13, ..." is not checked against 0.10
    assert (12, "python-name-unknown", "breaking") in got
    assert (16, "cli-command-unknown", "breaking") in got
    assert len([g for g in got if g[0] == 8]) == 1
    # on 0.13 GPTAQConfig exists and quark-skills is installed
    later = {
        (f.skill_location.line if f.skill_location else 0, f.rule)
        for f in _audit(tmp_path / "b", PROSE_NAMES, "0.13")
    }
    assert (12, "python-name-unknown") not in later and (16, "cli-command-unknown") not in later


def test_python_floor_and_a_single_supported_version_are_checked(tmp_path):
    # 0.11 METADATA: Requires-Python >=3.9.0,<3.13
    body = (
        "The Python floor is 3.8.\n\n"  # line 6: wrong (3.9)
        "Python 3.13 is supported.\n\n"  # 8: wrong (<3.13)
        "Python 3.12 is supported.\n\n"  # 10: true
        "Python 3.9 is the minimum.\n"  # 12: true
    )
    assert _rules(_audit(tmp_path, body, "0.11"), "python-version-mismatch") == [
        (6, "mechanical"),
        (8, "mechanical"),
    ]


def test_a_note_that_a_name_arrives_later_is_not_checked_against_an_earlier_release(tmp_path):
    # 0.10 torch_llm_ptq.py has no --layer_quant_scheme (0.11 adds it); 0.9 has no LLMTemplate (0.10 adds it)
    body = (
        "```bash\nquark-cli torch-llm-ptq --model_dir m\n```\n\n"
        "`--layer_quant_scheme` arrived only in 0.11.\n\n"  # line 10
        "The `LLMTemplate` helper does not exist yet here.\n"  # 12
    )
    found = _audit(tmp_path, body, "0.10")
    assert not [f for f in found if f.skill_location and f.skill_location.line == 10]
    # round 14: a Python name said not to exist is checked too, and 0.10 has LLMTemplate
    # (quark/torch/quantization/config/template.py): the note is false there, true on 0.9
    assert [
        (f.skill_location.line, f.rule) for f in found if f.skill_location and f.skill_location.line == 12
    ] == [(12, "name-stated-unavailable")]
    assert not [
        f for f in _audit(tmp_path / "9", body, "0.9") if f.skill_location and f.skill_location.line == 12
    ]
    # negative control: stated as usage, the flag is removed on 0.10
    usage = (
        "```bash\nquark-cli torch-llm-ptq --model_dir m\n```\n\nPass `--layer_quant_scheme lm_head fp8`.\n"
    )
    assert _rules(_audit(tmp_path / "b", usage, "0.10"), "cli-flag-removed") == [(10, "breaking")]


def test_a_default_stated_without_its_flag_names_the_setting_by_its_words(tmp_path):
    # 0.13 torch_llm_ptq.py: --num_calib_data default 512 (help "Number of samples for calibration."),
    # --seq_len default 512 ("Sequence length of data"); onnx_ptq.py: --learning_rate default 0.1
    body = (
        "```bash\nquark-cli torch-llm-ptq --model_dir m --output_dir o\n```\n\n"
        "By default the run calibrates on 256 samples.\n\n"  # line 10: wrong (512)
        "The default sequence length is 512.\n\n"  # 12: true
        "By default we keep 3 checkpoints around.\n"  # 14: names no setting of the command: no claim
    )
    assert _rules(_audit(tmp_path, body, "0.13"), "cli-flag-default-changed") == [(10, "mechanical")]
    # negative control: with no command known the words are not matched across every parser
    bare = "By default the run calibrates on 256 samples.\n"
    assert _rules(_audit(tmp_path / "b", bare, "0.13"), "cli-flag-default-changed") == []


def test_a_choices_count_and_an_extra_in_parentheses_are_checked(tmp_path):
    # 0.13 torch_llm_ptq.py: --kv_cache_dtype has 12 choices besides None; METADATA: onnxruntime<=1.28.0,>=1.22.2
    # only for extra == "cli"
    body = (
        "```bash\nquark-cli torch-llm-ptq --model_dir m\n```\n\n"
        "Pass `--quant_algo awq`. `--kv_cache_dtype` offers 14 choices.\n\n"  # line 10: wrong count
        "| package | range |\n|---|---|\n| onnxruntime (cli) | >=1.22.2,<=1.25.0 |\n"  # 14: wrong cap
    )
    found = _audit(tmp_path, body, "0.13", name="deps-notes")
    assert _rules(found, "command-count-mismatch") == [(10, "mechanical")]
    assert _rules(found, "dependency-range-mismatch") == [(14, "mechanical")]
    right = body.replace("14 choices", "12 choices").replace("1.25.0", "1.28.0")
    found = _audit(tmp_path / "b", right, "0.13", name="deps-notes")
    assert not _rules(found, "command-count-mismatch") and not _rules(found, "dependency-range-mismatch")


def _rules_at(findings: list[Finding]) -> list[tuple[str, int]]:
    return sorted((f.rule, f.skill_location.line if f.skill_location else 0) for f in findings)


def test_a_keyword_in_an_inline_call_span_is_checked_against_the_callable(tmp_path):
    # 0.12.post1 quark/torch/quantization/api.py: ModelQuantizer.freeze(model, quantize, runtime_options)
    body = "Call `ModelQuantizer.freeze(model, runtime_opts=opts)` once calibrated.\n"  # line 6
    assert _rules_at(_audit(tmp_path / "a", body, "0.12.post1")) == [("python-keyword-unknown", 6)]
    good = "Call `ModelQuantizer.freeze(model, runtime_options=opts)` once calibrated.\n"
    assert _audit(tmp_path / "b", good, "0.12.post1") == []  # negative control: the real keyword


def test_a_keyword_of_a_call_spread_over_lines_stands_on_its_own_line(tmp_path):
    # 0.11 quark/torch/export/api.py: import_model_from_safetensors takes no trust_remote_code (0.12.post1 does)
    body = (
        "```python\nfrom quark.torch import import_model_from_safetensors\n\n"
        "model = import_model_from_safetensors(\n    model,\n    model_dir,\n    trust_remote_code=True,\n)\n```\n"
    )
    assert _rules_at(_audit(tmp_path / "a", body, "0.11")) == [("python-keyword-unknown", 12)]
    assert _audit(tmp_path / "b", body, "0.12.post1") == []


@pytest.mark.parametrize(
    ("sentence", "release", "expected"),
    [
        # 0.12.post1 export/api.py: export_safetensors(..., weight_format: str = "real_quantized"); 0.13: None
        ("`export_safetensors` leaves `weight_format` as `None` unless you set it.", "0.12.post1", True),
        ("`export_safetensors` leaves `weight_format` as `None` unless you set it.", "0.13", False),
        # 0.13's body picks "real_quantized" when weight_format is None (not for diffusers): computed, not compared
        ('By default `export_safetensors` writes `weight_format="real_quantized"`.', "0.13", False),
        ('By default `export_safetensors` writes `weight_format="fake_quantized"`.', "0.12.post1", True),
        ('By default `export_safetensors` writes `weight_format="real_quantized"`.', "0.12.post1", False),
        # advice, not a default: no finding on either release
        ("Pass `weight_format` as `fake_quantized` to `export_safetensors` when you need it.", "0.13", False),
    ],
)
def test_a_stated_signature_default_is_compared_with_the_release(tmp_path, sentence, release, expected):
    found = _audit(tmp_path, sentence + "\n", release)
    assert [f.rule for f in found] == (["python-default-changed"] if expected else [])
    if expected:
        assert found[0].kind == "mechanical" and found[0].fix is not None


def test_a_word_default_stated_without_its_flag_names_the_flag_by_its_whole_name(tmp_path):
    # 0.12.post1 quark/experimental/cli/torch_llm_ptq.py:153: --output_dir default="exported_model"
    head = "## torch-llm-ptq\n\n```bash\nquark-cli torch-llm-ptq --model_dir ./m --quant_scheme fp8\n```\n\n"
    wrong = _audit(
        tmp_path / "a", head + "The default output directory is `quantized_model`.\n", "0.12.post1"
    )
    assert [(f.rule, f.kind) for f in wrong] == [("cli-flag-default-changed", "mechanical")]
    right = _audit(tmp_path / "b", head + "The default output directory is `exported_model`.\n", "0.12.post1")
    assert right == []
    # a word that matches no flag's whole name ("the default device") is not read as that flag
    vague = _audit(tmp_path / "c", head + "The default model is `llama`.\n", "0.12.post1")
    assert vague == []


def test_a_percentage_and_a_flag_with_its_value_in_one_span_state_defaults(tmp_path):
    # 0.13 quark/experimental/torch/mixed_precision_planner/cli.py: --gpu-memory-utilization 0.8,
    # --max-model-len 4096
    head = "## Planner\n\n```bash\nquark-cli torch-mixed-precision run --strategy s.yaml\n```\n\n"
    body = head + "It uses 90% of GPU memory unless `--gpu-memory-utilization` says otherwise.\n"
    body += "The runtime uses `--max-model-len 8192` by default.\n"
    found = _audit(tmp_path / "a", body, "0.13")
    assert [(f.rule, f.skill_location.line if f.skill_location else 0) for f in found] == [
        ("cli-flag-default-changed", 12),
        ("cli-flag-default-changed", 13),
    ]
    good = head + "It uses 80% of GPU memory unless `--gpu-memory-utilization` says otherwise.\n"
    good += "The runtime uses `--max-model-len 4096` by default.\n"
    assert _audit(tmp_path / "b", good, "0.13") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 0.13 METADATA: lm-eval<0.5,>=0.4.12 (extra quant-perf)
        ("The `quant-perf` extra brings `lm-eval` (0.4.12 or newer, below 0.6).", True),
        ("The `quant-perf` extra brings `lm-eval` (0.4.12 or newer, below 0.5).", False),
        ("The `quant-perf` extra needs `lm-eval` newer than 0.4.11 and older than 0.5.", False),
    ],
)
def test_bounds_said_in_words_are_a_range(tmp_path, text, expected):
    found = _audit(tmp_path, text + "\n", "0.13")
    assert [f.rule for f in found] == (["dependency-range-mismatch"] if expected else [])


def test_a_count_of_schemes_with_describing_words_between_is_checked(tmp_path):
    # 0.11 quark/torch/quantization/config/template.py registers 18 scheme names
    found = _audit(tmp_path / "a", "Quark 0.11 ships 13 built-in `LLMTemplate` schemes.\n", "0.11")
    assert [f.rule for f in found] == ["scheme-count-mismatch"]
    assert _audit(tmp_path / "b", "Quark 0.11 ships 18 built-in `LLMTemplate` schemes.\n", "0.11") == []
    assert (
        _audit(tmp_path / "c", "Pick 2 of the schemes for a first try.\n", "0.11") == []
    )  # a part, no total


def test_a_prose_flag_among_quark_cli_commands_only_is_checked_against_them(tmp_path):
    # --layer_quant_scheme first exists in 0.11's torch-llm-ptq; 0.10 has no command defining it
    head = "## Run\n\n```bash\nquark-cli torch-llm-ptq --model_dir m\nquark-cli onnx-ptq --input_model_path m\n```\n\n"
    body = head + "To treat `lm_head` apart, pass `--layer_quant_scheme lm_head fp8`.\n"
    assert [f.rule for f in _audit(tmp_path / "a", body, "0.10")] == ["cli-flag-removed"]
    assert _audit(tmp_path / "b", body, "0.11") == []


def test_a_prose_flag_another_command_defines_is_not_removed_from_the_inferred_one(tmp_path):
    # the section names only shapeshifter, but --seq_len is torch-llm-ptq's (0.13): which is meant is unsaid
    body = (
        "## Notes\n\n```bash\nquark-cli shapeshifter --help\n```\n\n"
        "| flag | 0.13 |\n|---|---|\n| `--seq_len` | yes |\n"
    )
    assert _audit(tmp_path, body, "0.13") == []


def test_a_model_type_given_to_the_template_constructor_is_a_new_name(tmp_path):
    body = (
        "```python\nfrom quark.torch import LLMTemplate\n\n"
        'tpl = LLMTemplate(model_type="my_llama", kv_layers_name=["*k_proj"], q_layer_name="*q_proj")\n```\n'
    )
    assert _audit(tmp_path / "a", body, "0.13") == []
    lookup = '```python\nfrom quark.torch import LLMTemplate\n\ntpl = LLMTemplate.get("my_llamaa")\n```\n'
    assert [f.rule for f in _audit(tmp_path / "b", lookup, "0.13")] == ["python-name-misspelt"]  # a lookup is


def test_a_default_read_from_the_environment_is_its_fallback(tmp_path):
    # 0.13 quark-quant-perf: --mxfp4-moe-backend default=os.environ.get("QUARK_QUANT_PERF_MXFP4_MOE_BACKEND",
    # "aiter")
    head = "## Quant-Perf\n\n```bash\nquark-quant-perf --help\n```\n\n"
    good = _audit(tmp_path / "a", head + "The default `--mxfp4-moe-backend` is `aiter`.\n", "0.13")
    assert good == []
    wrong = _audit(tmp_path / "b", head + "The default `--mxfp4-moe-backend` is `triton`.\n", "0.13")
    assert [f.rule for f in wrong] == ["cli-flag-default-changed"]


def test_the_onnx_config_names_are_the_choices_of_config(tmp_path):
    # quark-cli onnx-ptq passes --config to get_default_config, which refuses a name outside
    # DefaultConfigMapping (0.13 quark/onnx/quantization/config/custom_config.py:932; XINT8, A16W8, ...)
    view = _view("0.13")
    (config,) = [
        i for i in view.items("cli_flags") if i.name == "--config" and "onnx-ptq" in str(i.attrs["script"])
    ]
    assert config.attrs["choices_from"] == "quark/onnx/quantization/config/custom_config.py:932"
    assert {"XINT8", "A16W8", "S8S8_AAWS_ADAROUND", "MATMUL_NBITS"} <= set(config.attrs["choices"])
    run = "```bash\nquark-cli onnx-ptq --input_model_path m.onnx --calib_data_path d --config={}\n```\n"
    assert [f.rule for f in _audit(tmp_path / "a", run.format("XINT16"), "0.13")] == [
        "cli-flag-choice-invalid"
    ]
    assert _audit(tmp_path / "b", run.format("A16W8"), "0.13") == []


def test_a_command_is_missing_from_a_release_without_any_cli(tmp_path):
    # 0.9's wheel has no entry_points.txt and no quark/experimental/cli: quark-cli arrives in 0.10
    body = "```bash\nquark-cli torch-llm-ptq --model_dir ./m --output_dir ./o\n```\n"
    found = _audit(tmp_path / "a", body, "0.9")
    assert [(f.rule, f.kind) for f in found] == [("cli-command-unknown", "breaking")]
    assert "0.10" in found[0].source_says
    assert _audit(tmp_path / "b", body, "0.10") == []


def test_a_method_called_on_an_exported_class_in_prose_is_checked(tmp_path):
    # 0.13 quark/torch/quantization/config/template.py: LLMTemplate has list_available, no list_templates
    wrong = _audit(tmp_path / "a", "Print `LLMTemplate.list_templates()` to see them.\n", "0.13")
    assert [f.rule for f in wrong] == ["python-name-misspelt"]
    assert _audit(tmp_path / "b", "Print `LLMTemplate.list_available()` to see them.\n", "0.13") == []


def test_a_called_name_nearly_a_quark_family_name_is_misspelt_but_a_bare_onnx_op_is_not(tmp_path):
    # Int4PerGroupSpec exists (quark/torch/quantization/config/config.py, 0.11); Int4GroupSpec nowhere
    found = _audit(tmp_path / "a", "Start from `Int4GroupSpec(group_size=32)`.\n", "0.11")
    assert [f.rule for f in found] == ["python-name-misspelt"] and "Int4PerGroupSpec" in found[0].source_says
    assert _audit(tmp_path / "b", "Each `QuantizeLinear` pairs with a `DequantizeLinear`.\n", "0.13") == []


def test_quark_cli_alone_is_missing_where_no_cli_ships_unless_the_skill_says_so(tmp_path):
    # 0.9's wheel: no entry_points.txt, no quark/experimental/cli (quark-cli arrives in 0.10)
    found = _audit(
        tmp_path / "a", "Check the CLI with `quark-cli -h` first.\n\n```bash\nquark-cli -h\n```\n", "0.9"
    )
    assert [(f.rule, f.kind) for f in found] == [("cli-command-unknown", "breaking")]
    said = "It has no `quark-cli`; everything below is Python.\n\n```bash\nquark-cli -h\n```\n"
    assert [
        f.rule for f in _audit(tmp_path / "b", said.replace("```bash\nquark-cli -h\n```\n", ""), "0.9")
    ] == []


def test_if_you_omit_a_flag_states_its_default(tmp_path):
    # 0.10 quark/experimental/cli/torch_llm_ptq.py: --group_size default 128
    head = "## torch-llm-ptq\n\n```bash\nquark-cli torch-llm-ptq --model_dir ./m\n```\n\n"
    found = _audit(tmp_path / "a", head + "If you omit `--group_size`, weights are grouped by 64.\n", "0.10")
    assert [f.rule for f in found] == ["cli-flag-default-changed"]
    assert (
        _audit(tmp_path / "b", head + "If you omit `--group_size`, weights are grouped by 128.\n", "0.10")
        == []
    )


def test_a_heading_that_says_its_list_is_a_part_is_not_completed(tmp_path):
    table = "| Scheme | Notes |\n|---|---|\n| `fp8` | FP8 |\n| `mxfp4` | MXFP4 |\n"
    part = _audit(tmp_path / "a", "## Built-in schemes worth knowing\n\n" + table, "0.13")
    assert [f.rule for f in part] == []
    whole = _audit(tmp_path / "b", "## Built-in schemes\n\n" + table, "0.13")  # negative control
    assert {f.rule for f in whole} == {"scheme-list-incomplete"}


def test_a_table_with_a_column_per_release_checks_each_cell_against_its_release(tmp_path):
    # METADATA: onnx >=1.16.0,<=1.19.0 isn't 0.13's pin (0.13: onnx<=1.22.0,>=1.21.0)
    table = "| | 0.11 | 0.13 |\n|---|---|---|\n| onnx | 1.16.0 – 1.19.0 | {} |\n"
    assert _audit(tmp_path / "a", table.format("1.21.0 – 1.22.0"), "0.13") == []
    wrong = _audit(tmp_path / "b", table.format("1.20.0 – 1.22.0"), "0.13")
    assert [f.rule for f in wrong] == ["dependency-range-mismatch"]


def test_a_cap_said_in_words_may_be_the_pins_exclusive_cap(tmp_path):
    # 0.13 METADATA: flydsl<0.3,>=0.2.4 (extra flydsl: checked in an install skill)
    name = "quark-install-probe"
    assert _audit(tmp_path / "a", "The `flydsl` pin is 0.2.4 up to 0.3.\n", "0.13", name=name) == []
    wider = _audit(tmp_path / "b", "The `flydsl` pin is 0.2.4 up to 0.4.\n", "0.13", name=name)
    assert [f.rule for f in wider] == ["dependency-range-mismatch"]
    literal = _audit(tmp_path / "c", "The pin is `flydsl>=0.2.4,<=0.3`.\n", "0.13", name=name)  # a specifier
    assert [f.rule for f in literal] == ["dependency-range-mismatch"]


# --- round 5 (kinds found on a fresh development set; each from our own sentences) -------------------------


def _rows(findings, *rules):
    return sorted((f.skill_location.line, f.rule, f.kind) for f in findings if f.rule in rules)


def test_a_quark_cli_subcommand_written_without_the_program_owns_its_flags(tmp_path):
    # 0.13 torch_llm_ptq.py has no --export_weight_format (0.10's had); a table cell `torch-llm-ptq --x`
    body = (
        "## CLI\n\n| Option | Default |\n|---|---|\n| `torch-llm-ptq --num_calib_data` | 512 |\n\n"
        "For fake-quantized weights from `torch-llm-ptq`, add `--export_weight_format fake_quantized`.\n"
    )
    found = _audit(tmp_path, body, "0.13")
    assert _rows(found, "cli-flag-removed") == [(12, "cli-flag-removed", "breaking")]
    assert _rows(found, "cli-flag-default-changed") == []  # 512 is 0.13's default


def test_scheme_names_of_a_known_family_that_no_release_registers_are_semantic(tmp_path):
    body = (
        "## Schemes\n\n"  # 6
        "- AMD FP4 with 64-element groups is the scheme `amdfp4_g64`.\n"  # 8: two edits from amdfp4_g32
        "- For wider groups the built-in scheme `int4_wo_256` is also available.\n"  # 9: int4_wo_* family
        '- Custom schemes: `LLMTemplate.register_scheme("int8_wo", config=cfg)` registers a new one.\n'  # 10
        "- The KV cache scheme stores `fp8_e4m3` values.\n"  # 11: a data type
        '\n```yaml\nlayer_quant_scheme:\n  - ["lm_head", "nvfp4_g32"]\n  - ["*down_proj", "amdfp4_g32"]\n```\n'
        '\n```json\n{"llama": {"scheme": "ptpc_fp8_dynamic"}, "qwen3": {"scheme": "ptpc_fp8"}}\n```\n'
    )
    found = _audit(tmp_path, body, "0.13")
    assert sorted(f.subject for f in found if f.rule == "scheme-misspelt") == [
        "amdfp4_g64",
        "int4_wo_256",
        "nvfp4_g32",
        "ptpc_fp8_dynamic",
    ]
    assert all(f.kind == "semantic" for f in found if f.rule == "scheme-misspelt")
    assert not [f for f in found if f.rule == "scheme-unknown"]  # amdfp4_g32 and ptpc_fp8 are 0.13's


def test_console_scripts_named_in_a_sentence_about_them_are_commands(tmp_path):
    # 0.13 entry_points.txt: quark-cli, quark-quant-perf, quark-skills; no release has quark-quantize
    body = "## After installing\n\nYou get the console scripts `quark-cli`, `quark-skills` and `quark-quantize`.\n"
    found = _audit(tmp_path, body, "0.13")
    assert [
        (f.skill_location.line, f.subject, f.kind) for f in found if f.rule.startswith("cli-command")
    ] == [(8, "quark-quantize", "semantic")]
    skills = "## Skills\n\nSee the `quark-torch-ptq` skill and the `quark-install` skill first.\n"
    assert not [f for f in _audit(tmp_path / "s", skills, "0.13") if f.rule.startswith("cli-command")]


def test_stated_choices_in_a_usage_line_a_table_row_and_before_a_default(tmp_path):
    # 0.13 quark/skills.py: --agent choices=(*_AGENT_SKILLS_DIRS, "all") = claude-code, cursor, codex, all;
    # torch_llm_ptq.py --evaluation_dataset choices wikitext, wikitext_gpt_oss_120b
    body = (
        "## Install the skills\n\n```text\n"
        "usage: quark-skills install [-h] [--agent {claude-code,cursor,all}] [--target TARGET] [--force]\n"  # 9
        "```\n\n## PTQ\n\n"
        "| Flag | Default | Notes |\n|---|---|---|\n"
        "| `--evaluation_dataset` | `wikitext` | also accepts `pileval` |\n"  # 16
    )
    found = _audit(tmp_path, body, "0.13")
    lines = sorted((f.skill_location.line, f.subject) for f in found if f.rule == "cli-flag-choice-invalid")
    assert lines == [
        (9, "quark-skills --agent choices"),
        (16, "any Quark CLI --evaluation_dataset pileval"),
    ]
    sentence = (
        "## PTQ\n\nRun `quark-cli torch-llm-ptq`; `--evaluation_dataset` accepts only `wikitext` and `pileval`, "
        "default `wikitext`.\n"  # 8: the list closes at ", default"
    )
    said = _audit(tmp_path / "s", sentence, "0.13")
    assert [f.skill_location.line for f in said if f.rule == "cli-flag-choice-invalid"] == [8]
    complete = body.replace("{claude-code,cursor,all}", "{claude-code,cursor,codex,all}").replace(
        "pileval", "wikitext_gpt_oss_120b"
    )
    assert not [f for f in _audit(tmp_path / "ok", complete, "0.13") if f.rule == "cli-flag-choice-invalid"]


def test_a_list_introduced_as_defaults_states_each_flags_default(tmp_path):
    # 0.13 quark/experimental/cli/quark_onnx/onnx_ptq.py: --sq_alpha default 0.5, --num_head 32
    body = (
        "## Tuning\n\n```bash\nquark-cli onnx-ptq --input_model_path m.onnx --output_model_path q.onnx\n```\n\n"
        "<details>\n<summary>Defaults</summary>\n\n- `--sq_alpha`: 0.8\n- `--num_head`: 32\n\n</details>\n"
        "\n## Examples\n\n- `--sq_alpha`: 0.9\n"  # a list not introduced as defaults: an example value
    )
    found = _audit(tmp_path, body, "0.13")
    assert [(f.skill_location.line, f.subject) for f in found if f.rule == "cli-flag-default-changed"] == [
        (15, "quark-cli onnx-ptq --sq_alpha default 0.8")
    ]


def test_history_in_a_claims_own_sentence_and_a_release_labelled_block(tmp_path):
    body = (
        "## Migrating to 0.11\n\n"  # 6
        "- The OCP specs (`OCP_MXFP4Spec`) replace the older `MXSpec`.\n"  # 8 (MXSpec: 0.6.0 … 0.8.2)
        "- `--group_size_per_layer` became `--layer_quant_scheme`.\n"  # 9
        "- The helpers moved there in 0.11 from `quark/experimental/cli/torch_llm/llm_utils/`.\n"  # 10
        "- `--evaluation_dataset` is not available before 0.12.post1.\n"  # 11
        "\nBefore (0.10):\n\n```python\nfrom quark.torch import ModelExporter\n```\n"  # 16
        "\nAfter (0.11):\n\n```python\nfrom quark.torch import export_safetensors, ModelExporter\n```\n"  # 22
    )
    found = _audit(tmp_path, body, "0.11")
    assert [(f.skill_location.line, f.rule) for f in found] == [(22, "python-import-unresolved")]


def test_a_sentence_without_python_is_no_sentence_without_the_cli(tmp_path):
    # 0.7 has no console scripts and no packaged CLI: quark-cli torch-llm-ptq arrives in 0.10
    body = "## Basics\n\nTo run the same flow without writing Python, call `quark-cli torch-llm-ptq`.\n"
    found = _audit(tmp_path, body, "0.7")
    assert [(f.rule, f.kind) for f in found if f.rule == "cli-command-unknown"] == [
        ("cli-command-unknown", "breaking")
    ]
    absent = "## Basics\n\n0.7 ships without `quark-cli torch-llm-ptq`; use the example script.\n"
    assert not [f for f in _audit(tmp_path / "n", absent, "0.7") if f.rule == "cli-command-unknown"]


def test_imports_of_an_earlier_block_bind_the_names_of_a_later_one(tmp_path):
    # 0.10 template.py LLMTemplate.__init__ has no gptaq_config; 0.10 export/api.py export_onnx has no dynamo
    body = (
        "## API\n\n```python\nimport quark.torch as qt\nfrom quark.torch import LLMTemplate\n```\n\n"
        '```python\ncustom = LLMTemplate(model_type="x", kv_layers_name=[], q_layer_name="q", '
        "exclude_layers_name=[], gptaq_config=None)\n```\n\n"  # 14
        '```python\nqt.export_onnx(model, output_dir="./o", input_args=(x,), opset_version=17, dynamo=True)\n```\n'
    )
    found = _audit(tmp_path, body, "0.10")
    assert [(f.skill_location.line, f.subject) for f in found if f.rule == "python-keyword-unknown"] == [
        (14, "quark.torch.LLMTemplate(gptaq_config=)"),
        (18, "quark.torch.export_onnx(dynamo=)"),
    ]
    # negative control: 0.11 added both keywords
    assert not [f for f in _audit(tmp_path / "n", body, "0.11") if f.rule == "python-keyword-unknown"]


def test_a_release_as_the_subject_of_a_change_scopes_the_sentence(tmp_path):
    # 0.10 METADATA caps onnx<=1.19.0 (0.9: onnx>=1.16.0 uncapped); 0.12.post1: Requires-Python >=3.11,<3.14
    nine = (
        "# Setup\n\nUpgrading later? 0.10 keeps the Python range but adds `joblib` and caps `onnx<=1.19.0`.\n"
    )
    assert not [f for f in _audit(tmp_path / "a", nine, "0.9") if f.rule == "dependency-range-mismatch"]
    later = (
        "# Setup\n\nAfter upgrading to 0.12.post1 later, note that Python 3.9 and 3.10 are dropped there "
        "(`>=3.11,<3.14`).\n"
    )
    assert not [f for f in _audit(tmp_path / "b", later, "0.11.2") if f.rule == "python-version-mismatch"]
    # negative control: the same range said of the audited release itself
    plain = "# Setup\n\nThis release supports Python `>=3.11,<3.14`.\n"
    assert [
        f.rule for f in _audit(tmp_path / "c", plain, "0.11.2") if f.rule == "python-version-mismatch"
    ] == ["python-version-mismatch"]


def test_a_bare_flag_in_a_sentence_about_another_program_is_that_programs(tmp_path):
    # 0.13 torch_llm_ptq.py has --kv_cache_dtype, no --kv-cache-dtype (vLLM's) and no --model_export (0.10's)
    body = (
        "## Serve\n\nRun `quark-cli torch-llm-ptq --model_dir m --output_dir o --kv_cache_dtype fp8`.\n\n"
        "We load the checkpoint in vLLM with `--kv-cache-dtype fp8`; that flag is vLLM's own.\n\n"  # 10
        "Export for vLLM with `--model_export hf_format`.\n"  # 12
    )
    found = _audit(tmp_path, body, "0.13")
    flags = sorted((f.skill_location.line, f.rule) for f in found if f.rule.startswith("cli-flag"))
    assert flags == [(12, "cli-flag-removed")]


def test_stated_choices_are_the_code_spans_when_there_are_any(tmp_path):
    # 0.10 torch_llm_ptq.py --quant_scheme choices=SUPPORTED_QUANT_SCHEME (w_* names); 0.12.post1's
    # --kv_cache_dtype choices end with None, which a pasted usage line prints as None
    body = (
        "## Schemes\n\nOn 0.10 `--quant_scheme` only accepts the `w_*` names from the CLI's own list, e.g. "
        "`w_fp8_a_fp8`, `w_int4_per_group_sym`.\n"
    )
    assert not [f for f in _audit(tmp_path / "a", body, "0.10") if f.rule == "cli-flag-choice-invalid"]
    usage = "## Help\n\n```text\nusage: quark-cli torch-llm-ptq [-h] [--kv_cache_dtype {fp8,None}]\n```\n"
    found = [f for f in _audit(tmp_path / "b", usage, "0.12.post1") if f.rule == "cli-flag-choice-invalid"]
    assert [f.subject for f in found] == ["quark-cli torch-llm-ptq --kv_cache_dtype choices"]  # lacks many
    assert "None" not in found[0].source_says.split("lacks", 1)[1]


def test_said_to_come_later_or_from_older_clis_is_history(tmp_path):
    # FP4PerGroupSpec: 0.8 on (not 0.7); --multi_gpu: 0.10's torch_llm_ptq.py only
    seven = "## Specs\n\nUse `Int4PerGroupSpec` for weights; `FP4PerGroupSpec` came later.\n"
    assert not [f for f in _audit(tmp_path / "a", seven, "0.7") if f.rule == "python-name-unknown"]
    cli = "## Multi-GPU\n\nOlder CLIs exposed `--multi_gpu`; on 0.13 use `--multi_device`.\n"
    assert not [f for f in _audit(tmp_path / "b", cli, "0.13") if f.rule == "cli-flag-removed"]
    still = (
        "## Schemes\n\nOn the command line the old names still work, e.g. `--quant_scheme w_mxfp4_a_mxfp6`.\n"
    )
    assert [f.rule for f in _audit(tmp_path / "c", still, "0.12.post1") if f.rule == "scheme-unknown"] == [
        "scheme-unknown"
    ]


def test_each_name_of_a_parenthesised_import_stands_on_its_own_line(tmp_path):
    # SVDQuantConfig: 0.12.post1 on (not in 0.11.1's quark/torch/quantization/config/config.py)
    body = (
        "## API\n\n```python\nfrom quark.torch.quantization.config.config import (\n"
        "    QConfig,\n    SVDQuantConfig,\n)\n```\n"  # SVDQuantConfig on line 11
    )
    found = [f for f in _audit(tmp_path, body, "0.11.1") if f.rule == "python-import-unresolved"]
    assert [(f.skill_location.line, f.subject) for f in found] == [
        (11, "quark.torch.quantization.config.config.SVDQuantConfig")
    ]


def test_an_exclusive_cap_said_in_words(tmp_path):
    # 0.7 METADATA: onnxruntime>=1.17.0,<1.20.0
    body = "## Pins\n\n- `onnxruntime`: 1.17.0 up to (but not including) 1.21.0.\n"
    found = [f for f in _audit(tmp_path / "a", body, "0.7") if f.rule == "dependency-range-mismatch"]
    assert [f.skill_location.line for f in found] == [8]
    true = body.replace("1.21.0", "1.20.0")
    assert not [f for f in _audit(tmp_path / "b", true, "0.7") if f.rule == "dependency-range-mismatch"]


def test_pasted_help_option_lines_state_flags_and_defaults(tmp_path):
    # 0.10 quark/experimental/cli/torch_llm_ptq.py: no --layer_quant_scheme (0.11 on); --eval_batch_size
    # default 8; --seq_len 512
    body = (
        "## torch-llm-ptq\n\nRun `quark-cli torch-llm-ptq` with these options:\n\n```text\n"
        "  --model_dir MODEL_DIR\n"  # 11
        "  --seq_len SEQ_LEN                 (default: 512)\n"  # 12
        "  --layer_quant_scheme PATTERN QUANT_SCHEME\n"  # 13
        "  --eval_batch_size EVAL_BATCH_SIZE (default: 16)\n"  # 14
        "```\n"
    )
    found = _audit(tmp_path, body, "0.10")
    assert sorted((f.skill_location.line, f.rule) for f in found if f.rule.startswith("cli-flag")) == [
        (13, "cli-flag-removed"),
        (14, "cli-flag-default-changed"),
    ]


def test_a_flag_followed_by_a_list_of_its_choices_states_no_default(tmp_path):
    # 0.10 --model_export choices onnx, quark_format, hf_format, gguf (default None); --export_weight_format
    # default real_quantized
    body = (
        "## Export\n\nFrom the CLI the export target is chosen with `--model_export` (`onnx`, `quark_format`, "
        "`hf_format`, `gguf`),\nand `--export_weight_format` defaults to `real_quantized`.\n"
    )
    assert not [f for f in _audit(tmp_path, body, "0.10") if f.rule == "cli-flag-default-changed"]


def test_no_quark_cli_said_in_a_list_item_is_its_absence(tmp_path):
    body = "## 0.8\n\n- no console scripts, no `quark-cli`: everything is Python API\n"
    assert not [f for f in _audit(tmp_path, body, "0.8") if f.rule == "cli-command-unknown"]


# --- round 8 (tuned on sync_dev8, outside the repo; held-out sync_9 committed before, 4327952) ---


def _lines(found, *rules):
    return sorted((f.skill_location.line, f.rule) for f in found if not rules or f.rule in rules)


def test_history_in_a_lead_s_parenthesised_aside_does_not_make_the_block_historical(tmp_path):
    # 0.10 quark/torch/export/api.py:481 export_onnx(model, output_dir, input_args, opset_version=None, ...,
    # uint4_int4_flag=False): no `dynamo` (0.11.1 adds it)
    body = (
        "# Export on 0.10\n\n0.10 introduced one-call export functions in `quark.torch` (previously "
        "`ModelExporter` methods).\n\n```python\nfrom quark.torch import export_onnx\n\n"
        'export_onnx(model, output_dir="o", input_args=(x,), dynamo=True)\n```\n'  # 13
    )
    assert _lines(_audit(tmp_path, body, "0.10"), "python-keyword-unknown") == [
        (13, "python-keyword-unknown")
    ]
    aside = body.replace("(previously `ModelExporter` methods)", "and `ModelExporter` was removed later")
    # history in the lead's own clause still frames the block
    assert not _lines(_audit(tmp_path / "h", aside.replace("introduced", "previously had"), "0.10"))


def test_a_method_called_on_an_imported_class_is_checked_against_the_class(tmp_path):
    # 0.10 quark/torch/quantization/config/template.py: LLMTemplate has no get_supported_schemes (0.11 on);
    # no release's LLMTemplate has from_model_type; 0.13's has list_available
    body = (
        "## API\n\n```python\nfrom quark.torch import LLMTemplate\n"
        "import quark.torch.quantization.config.template as tmpl\n\n"
        "LLMTemplate.get_supported_schemes()\n"  # 12
        "tmpl.LLMTemplate.get_supported_schemes()\n"  # 13
        'LLMTemplate.from_model_type("llama")\n'  # 14
        "LLMTemplate.list_available()\n```\n"  # 15
    )
    assert _lines(_audit(tmp_path, body, "0.10"), "python-import-unresolved", "python-name-misspelt") == [
        (12, "python-import-unresolved"),
        (13, "python-import-unresolved"),
        (14, "python-name-misspelt"),
    ]
    assert _lines(
        _audit(tmp_path / "13", body, "0.13"), "python-import-unresolved", "python-name-misspelt"
    ) == [(14, "python-name-misspelt")]


def test_defaults_listed_for_a_callable_its_asides_and_the_callable_a_parenthesis_names(tmp_path):
    # 0.10 quark/torch/utils/llm... get_model(attn_implementation="eager"); export_onnx(opset_version=None,
    # do_constant_folding=True); 0.11 LLMTemplate.get_config(min_kv_scale=0.0); 0.10 export_safetensors
    # weight_format="real_quantized"
    body = (
        '## Notes\n\n- `get_model` defaults: `data_type="auto"`, `attn_implementation="sdpa"`.\n'  # 8
        "- `export_onnx` parameters: `model`, `opset_version` (defaults to 17), `do_constant_folding` "  # 9
        "(default `True`).\n"
        "- `export_safetensors` writes `fake_quantized` weights unless you pass `weight_format`.\n"  # 10
    )
    found = _audit(tmp_path, body, "0.10")
    assert sorted(
        (f.skill_location.line, f.subject) for f in found if f.rule == "python-default-changed"
    ) == [
        (8, "get_model(attn_implementation=)"),
        (9, "export_onnx(opset_version=)"),
        (10, "export_safetensors(weight_format=)"),
    ]
    owner = (
        "## KV\n\n`min_kv_scale` (a `get_config` keyword) defaults to 1e-4; raise it if scales collapse.\n"
    )
    assert _lines(_audit(tmp_path / "o", owner, "0.11"), "python-default-changed") == [
        (8, "python-default-changed")
    ]
    # 0.10 also defines a CLI helper get_config(args, model_type): a keyword of LLMTemplate.get_config is known
    listed = "## KV\n\n`get_config` keywords: `scheme`, `min_kv_scale` (default `0.0`).\n"
    assert not _audit(tmp_path / "l", listed, "0.10")


def test_names_of_other_libraries_are_no_misspelt_quark_names(tmp_path):
    # transformers' QuarkConfig / HqqConfig, the ONNX operator QuantizeLinear, onnxruntime's QuantType.QUInt8;
    # 0.9's quark.onnx defines ExtendedCalibrationMethod, no release an ExtendedCalibMethod
    body = (
        "## Names\n\nLoad with `QuarkConfig` or `HqqConfig`; the graph holds `QuantizeLinear` nodes of "
        "`QUInt8`.\n\nThe calibration-method enum to import is `ExtendedCalibMethod`.\n"  # 10
    )
    found = _audit(tmp_path, body, "0.9")
    assert [(f.skill_location.line, f.rule) for f in found] == [(10, "python-name-misspelt")]
    assert "ExtendedCalibrationMethod" in found[0].source_says
    # a release name with a word before it is the user's subclass
    assert not _audit(tmp_path / "u", "## Mine\n\nWe subclass it as `MyQuantizationConfig`.\n", "0.9")


def test_release_matrix_cells_speak_of_their_column_or_row_release(tmp_path):
    # 0.12.post1 METADATA: Requires-Python >=3.11,<3.14; onnx >=1.21.0,<=1.22.0; 0.11 onnx <=1.19.0
    body = (
        "## Matrix\n\n| Release | Python | onnx |\n|---|---|---|\n"
        "| 0.11 | 3.9 – 3.12 | 1.16.0 – 1.19.0 |\n"  # 10
        "| 0.12.post1 (this one) | 3.11 – 3.13 | 1.21.0 – 1.23.0 |\n"  # 11
        "\n## CLI\n\n| 0.10 CLI | 0.11 CLI |\n|---|---|\n"
        "| `--quant_scheme w_fp8_a_fp8` | `--quant_scheme fp8` |\n"  # 17
    )
    found = _audit(tmp_path, body, "0.12.post1")
    assert _lines(found) == [(11, "dependency-range-mismatch")]
    # the 0.11 row checked on 0.11 agrees; on 0.11 the 0.12.post1 row is not checked
    assert not _audit(tmp_path / "11", body, "0.11")


def test_no_default_cells_user_registered_names_commented_imports_and_failing_imports(tmp_path):
    # 0.13 quark-quant-perf --model has no default; register_scheme names the user's scheme; 0.12.post1
    # quark/torch/quantization/config/config.py defines no Config (0.13 brings it back)
    body = (
        "## quark-quant-perf\n\n| Flag | Default |\n|---|---|\n| `--model` | required |\n\n"
        "## Scheme\n\n```python\nfrom quark.torch import LLMTemplate\n\n"
        'LLMTemplate.register_scheme("my_fp8", cfg)\nLLMTemplate.get("llama").get_config(scheme="my_fp8")\n```\n'
    )
    assert not _audit(tmp_path, body, "0.13")
    notes = (
        "## Imports that break\n\n- `from quark.torch.quantization.config.config import Config` fails on "
        "0.12.post1; use `QConfig`.\n\n```python\n# before (0.11.x)\n"
        "# from quark.torch.quantization.config.config import Config\n"
        "from quark.torch.quantization.config.config import QConfig\n```\n"
    )
    assert not _audit(tmp_path / "n", notes, "0.12.post1")
    used = notes.replace("# from quark", "from quark")
    assert _lines(_audit(tmp_path / "u", used, "0.12.post1")) == [(12, "python-import-unresolved")]


def test_model_types_in_json_values_in_words_and_with_a_version_suffix(tmp_path):
    # 0.12.post1 config/template.py registers no gemma4 (0.13 does); no release registers llama3_1; 0.13
    # registers kimi_k25 and kimi_k2
    body = (
        '## Recipe\n\n```json\n{\n  "model_type": "gemma4",\n  "scheme": "nvfp4"\n}\n```\n'  # 10
        '\n```json\n{"model_type": "acme_lm"}\n```\n'  # the user's own type: no claim
    )
    assert _lines(_audit(tmp_path, body, "0.12.post1")) == [(10, "model-type-unknown")]
    words = "## Templates\n\nIs there a template for Llama 3? Yes, use the `llama3_1` template.\n"
    found = _audit(tmp_path / "w", words, "0.10")
    assert _lines(found) == [(8, "model-type-misspelt")] and found[0].kind == "semantic"
    listed = "## Templates\n\nThe built-in templates:\n\n- Kimi: `kimi_k25` and kimi_k2\n"
    assert _lines(_audit(tmp_path / "l", listed, "0.13")) == []


def test_flags_in_plain_words_html_comments_shell_comments_and_an_extra_s_list(tmp_path):
    # 0.12.post1 torch_llm_ptq.py has no --template_file (0.13 adds it); 0.13 wheel has no
    # quark.experimental.plugin (0.12.post1 had it); 0.11 --seq_len default 512; 0.13 METADATA pins
    # onnxruntime<=1.28.0,>=1.22.2 in the `cli` extra
    body = (
        "## Recipes\n\nRun `quark-cli torch-llm-ptq`. Pass it with --template_file my.json next to "  # 8
        "`--quant_scheme`; the syntax is --option=value.\n"
    )
    assert _lines(_audit(tmp_path, body, "0.12.post1")) == [(8, "cli-flag-removed")]
    assert not _audit(tmp_path / "13", body, "0.13")
    comment = "## Hooks\n\n<!-- runtime hooks come from quark.experimental.plugin -->\n\nText.\n"
    assert _lines(_audit(tmp_path / "c", comment, "0.13")) == [(8, "python-import-unresolved")]
    assert not _audit(tmp_path / "c12", comment, "0.12.post1")
    shell = (
        "## PTQ\n\n```bash\n# --seq_len is 2048 when omitted; --batch_size is 1\n"  # 9
        "quark-cli torch-llm-ptq --model_dir m --output_dir o\n```\n"
    )
    found = _audit(tmp_path / "s", shell, "0.11")
    assert [(f.skill_location.line, f.subject) for f in found] == [
        (9, "quark-cli torch-llm-ptq --seq_len default 2048")
    ]
    extra = "## Pins\n\nWhat the `cli` extra brings in:\n\n- `onnxruntime>=1.22.2,<=1.25.1`\n"  # 10
    assert _lines(_audit(tmp_path / "e", extra, "0.13")) == [(10, "dependency-range-mismatch")]


def test_a_usage_line_names_its_program_for_its_section(tmp_path):
    # 0.13 quark-cli torch-mixed-precision takes --model-dir and --output-dir (torch-llm-ptq spells them
    # --model_dir / --output_dir)
    body = (
        "## Planner\n\n```text\nusage: quark-cli torch-mixed-precision {decision-space,run} [--model-dir D]\n"
        "```\n\n1. `decision-space` first, with `--model-dir` and `--output-dir`.\n\n"
        "```bash\nquark-cli torch-llm-ptq --model_dir m --output_dir o\n```\n"
    )
    assert not _lines(_audit(tmp_path, body, "0.13"), "cli-flag-renamed", "cli-flag-removed")
    # without the usage line the section runs torch-llm-ptq only, which spells them with underscores
    bare = body.replace(
        "usage: quark-cli torch-mixed-precision {decision-space,run} [--model-dir D]", "(help)"
    )
    assert _lines(_audit(tmp_path / "b", bare, "0.13"), "cli-flag-renamed") == [
        (12, "cli-flag-renamed"),
        (12, "cli-flag-renamed"),
    ]


def test_instead_of_marks_history_only_before_a_quark_name(tmp_path):
    # 0.9 quark/onnx defines AutoSearch but no AutoSearchPro (0.11 on)
    body = (
        "## Search\n\nWant the search driver instead of a fixed config? Import `AutoSearchPro` from "  # 8
        "`quark.onnx`.\n"
    )
    assert _lines(_audit(tmp_path, body, "0.9")) == [
        (8, "python-import-unresolved"),
        (8, "python-name-unknown"),
    ]
    old = "## Search\n\nOn 0.9 use `AutoSearch` instead of `AutoSearchPro`.\n"
    assert not _audit(tmp_path / "o", old, "0.9")


# --- round 9 (tuned on sync_dev9 and the all-true clean_4, outside the repo; held-out sync_10 committed
# before, 6cfea5a) ---


def test_negations_next_to_a_name_quoted_errors_and_lists_of_what_changed(tmp_path):
    # 0.9 has no quark-cli and no LLMTemplate; 0.12.post1 registers mx6 but not mx9; 0.11.2's
    # LLMTemplate.get_config takes kv_cache_scheme "fp8" only and 0.11.2 registers 35 templates
    absent = (
        "## 0.9\n\namd-quark 0.9 has no `quark-cli` and no `LLMTemplate`; configs are written by hand.\n\n"
        "## 0.12.post1\n\n`mx9` is **not** a template scheme yet on 0.12.post1 (only `mx6` is).\n"
    )
    assert not _audit(tmp_path, absent, "0.9")
    assert not _lines(_audit(tmp_path / "12", absent, "0.12.post1"), "scheme-unknown")
    quoted = (
        '## "Unsupported KV cache scheme: ..."\n\n`get_config(kv_cache_scheme=...)` only accepts `fp8` here; '
        "anything else raises `ValueError: Unsupported KV cache scheme`.\n"
    )
    assert not _lines(_audit(tmp_path / "q", quoted, "0.11.2"), "name-stated-unavailable")
    # the control: said unavailable in the skill's own words, where the release has it
    said = "## KV\n\n`fp8` is not available as a KV cache scheme here.\n"
    assert _lines(_audit(tmp_path / "s", said, "0.11.2"), "name-stated-unavailable") == [
        (8, "name-stated-unavailable")
    ]
    additions = (
        "## Templates\n\n0.11.2 ships 35 built-in model templates, six more than 0.11's 29. The additions:\n\n"
        "| model_type | new in 0.11.2? |\n|---|---|\n| `deepseek_v32` | yes |\n| `glm4_moe` | yes |\n"
    )
    assert not _lines(_audit(tmp_path / "a", additions, "0.11.2"), "model-list-incomplete")
    complete = additions.replace(" The additions:", " All of them:")
    assert _lines(_audit(tmp_path / "c", complete, "0.11.2"), "model-list-incomplete")


def test_a_name_a_code_comment_says_does_not_exist_is_no_misspelling(tmp_path):
    # no release's LLMTemplate has from_model_type
    body = (
        '## API\n\n```python\nfrom quark.torch import LLMTemplate\n\nLLMTemplate.from_model_type("m")'
        "  # seen in a fork; does not exist\n```\n"
    )
    assert not _audit(tmp_path, body, "0.11.2")
    assert _lines(_audit(tmp_path / "u", body.replace("does not exist", "handy"), "0.11.2")) == [
        (11, "python-name-misspelt")
    ]


def test_defaults_an_environment_variable_and_a_dropped_python_and_row_commands(tmp_path):
    # 0.13 quark-cli onnx-autosearch --config default S8S8_AAWS_ADAROUND; torch-llm-ptq --num_calib_data 512;
    # 0.12.post1 Requires-Python >=3.11,<3.14; 0.11 export-onnx takes --model-name / --output-dir
    body = (
        "## onnx-autosearch\n\nRun `quark-cli onnx-autosearch`. Its `--config` defaults to `S8S8_AAWS_ADAROUND` "
        "(not `XINT8`).\n\n## PTQ\n\nRun `quark-cli torch-llm-ptq`.\n\nDefaults worth remembering: sequence "
        "length 512, calibration set of 256 samples (`--num_calib_data`).\n"  # 14
    )
    found = _audit(tmp_path, body, "0.13")
    assert [(f.skill_location.line, f.subject) for f in found] == [
        (14, "quark-cli torch-llm-ptq --num_calib_data default 256")
    ]
    dropped = "## Platform\n\n1. Python 3.9 and 3.10 are dropped: 0.12.post1 declares `>=3.11,<3.14`.\n"
    assert not _lines(_audit(tmp_path / "d", dropped, "0.12.post1"), "python-version-mismatch")
    rows = (
        "## onnx-ptq\n\nRun `quark-cli onnx-ptq --input_model_path m.onnx`.\n\n| subcommand | flags |\n|---|---|\n"
        "| `export-onnx` | `--model-name`, `--output-dir` |\n"
    )
    assert not _audit(tmp_path / "r", rows, "0.11")


def test_a_template_column_of_a_serving_table_names_model_types(tmp_path):
    # 0.12.post1 registers qwen3 but no gemma4 (0.13 does)
    body = (
        "## Checkpoints we serve\n\n| model | scheme | template |\n|---|---|---|\n"
        "| Qwen3-8B | `fp8` | `qwen3` |\n| Gemma 4 | `ptpc_fp8` | `gemma4` |\n"  # 11
    )
    assert _lines(_audit(tmp_path, body, "0.12.post1")) == [(11, "model-type-unknown")]
    assert not _audit(tmp_path / "13", body, "0.13")


# --- round 10 (tuned on sync_dev10, sync_dev11 and the all-true clean_5, outside the repository) ---------------


def test_a_pinned_version_agrees_when_the_release_admits_it(tmp_path):
    # 0.8.2 METADATA: onnxruntime<=1.22.0,>=1.17.0; 0.10 has no transformers requirement, only code paths
    # for transformers >= 4.55.1 (quark/experimental/cli/torch_llm/module_replacement/replacement_utils.py)
    body = '## Install\n\n```bash\nuv pip install "amd-quark==0.8.2" "onnxruntime==1.22.0"\n```\n'
    assert not _lines(_audit(tmp_path, body, "0.8.2", name="quark-install"), "dependency-range-mismatch")
    outside = body.replace("1.22.0", "1.23.0")
    assert _lines(
        _audit(tmp_path / "o", outside, "0.8.2", name="quark-install"), "dependency-range-mismatch"
    ) == [(9, "dependency-range-mismatch")]
    lock = '## Lock\n\n```toml\n[packages]\ntransformers = "==4.52.4"  # our choice\n```\n'
    assert not _lines(_audit(tmp_path / "t", lock, "0.10"), "transformers-version-mismatch")
    capped = "## Compat\n\nQuark 0.10 works with transformers below 4.52.\n"
    assert _lines(_audit(tmp_path / "c", capped, "0.10"), "transformers-version-mismatch") == [
        (8, "transformers-version-mismatch")
    ]


def test_a_negation_speaks_of_its_own_sentence_and_clause(tmp_path):
    # 0.10 registers llama, gpt_oss and 25 templates; no ptpc_fp8 (0.11 adds it); 0.13 registers fp8 and has no
    # w_* names
    body = (
        "## Types\n\n`ptpc_fp8` is not available before 0.11. There are 25\nbuilt-in model types, from `llama` "
        "to `gpt_oss`.\n"
    )
    assert not _audit(tmp_path, body, "0.10")
    said = "## Types\n\n`llama` is not available as a model type on 0.10.\n"
    assert _lines(_audit(tmp_path / "s", said, "0.10"), "name-stated-unavailable") == [
        (8, "name-stated-unavailable")
    ]
    clause = "## Schemes\n\nNot accepted by `--quant_scheme`: the old `w_*` names such as `w_fp8_a_fp8`; use `fp8`.\n"
    assert not _lines(_audit(tmp_path / "c", clause, "0.13"), "name-stated-unavailable", "scheme-unknown")


def test_history_said_as_lost_no_longer_exports_becomes_leaves_and_a_past_release_subject(tmp_path):
    # 0.11 torch-llm-ptq has no --group_size / --tasks (0.10 had them); quark.torch 0.11 exports neither
    # ModelExporter nor ModelImporter; 0.11 still ships quark.shares (quark.common is 0.12.post1's); 0.10 keeps
    # model_preparation.py under quark/experimental/cli/torch_llm/llm_utils/ (0.11 moved it to quark/torch/utils/llm/)
    body = (
        "## 0.11\n\n* `torch-llm-ptq` lost `--group_size` and `--tasks`.\n"
        "* `quark.torch` no longer exports `ModelExporter` or `ModelImporter`.\n"
        "* `quark.shares` is still the shared package (it becomes `quark.common` later).\n"
    )
    assert not _audit(tmp_path, body, "0.11")
    kept = body.replace("lost", "takes").replace(" no longer exports", " exports").replace("becomes", "is")
    assert {r for _, r in _lines(_audit(tmp_path / "k", kept, "0.11"))} >= {"cli-flag-removed"}
    moved = "## Files\n\n(0.11 moved that file to `quark/torch/utils/llm/model_preparation.py`).\n"
    assert not _audit(tmp_path / "m", moved, "0.10")
    leaves = "## 0.7\n\n`ModelImporter` joins the exports, while the 0.6.0 function `import_model_info` leaves them.\n"
    assert not _audit(tmp_path / "l", leaves, "0.7")


def test_and_no_name_either_and_a_question_answered_no(tmp_path):
    # 0.9 has no console script and no LLMTemplate; 0.12.post1 installs quark-cli only (quark-skills is 0.13's)
    body = "## 0.9\n\nThere is no `quark-cli` console script (it arrives in 0.10), and no `LLMTemplate` either.\n"
    assert not _lines(_audit(tmp_path, body, "0.9"), "python-name-unknown")
    used = "## 0.9\n\nUse `LLMTemplate` here.\n"
    assert _lines(_audit(tmp_path / "u", used, "0.9")) == [(8, "python-name-unknown")]
    question = "## FAQ\n\n### Is `quark-skills` installed?\n\nNo. Only `quark-cli` is.\n"
    assert not _audit(tmp_path / "q", question, "0.12.post1")
    yes = question.replace("No. Only", "Yes, and so")
    assert _lines(_audit(tmp_path / "y", yes, "0.12.post1")) == [(8, "cli-command-unknown")]
    inline = "## FAQ\n\n**Q: Does 0.12.post1 ship `quark-skills`?** A: No, 0.13 adds it.\n"
    assert not _audit(tmp_path / "i", inline, "0.12.post1")


def test_a_heading_s_own_words_and_not_its_section_s_advice(tmp_path):
    # 0.11.2's CLI takes template scheme names (int4_wo_128), not 0.10's w_* list
    body = (
        "## Troubleshooting\n\n### The CLI rejects `--quant_scheme w_int4_per_group_sym`\n\nRight: the `w_*` "
        "names were only accepted by 0.10's CLI. Use `int4_wo_128` (or `int4_wo_64`).\n"
    )
    assert not _audit(tmp_path, body, "0.11.2")
    accepts = body.replace("rejects", "takes").replace(
        "Right: the `w_*` names were only accepted by 0.10's CLI. ", ""
    )
    assert _lines(_audit(tmp_path / "a", accepts, "0.11.2"), "scheme-unknown") == [(8, "scheme-unknown")]


def test_abridged_choices_release_matrices_and_a_series_column(tmp_path):
    # 0.10 torch-llm-ptq --quant_scheme choices=SUPPORTED_QUANT_SCHEME (w_bfp16, w_fp8_a_fp8, ...); 0.11.2 registers
    # 35 templates; 0.11's onnxslim pin >=0.1.77, 0.11.1's >=0.1.84
    helptext = (
        "## Help\n\n```text\n$ quark-cli torch-llm-ptq -h   (abridged)\n  --model_dir MODEL_DIR\n"
        "  --device {cuda,cpu}\n  --quant_scheme {w_bfp16,w_fp8_a_fp8,w_int4_per_group_sym,...}\n```\n"
    )
    assert not _lines(_audit(tmp_path, helptext, "0.10"), "cli-flag-choice-invalid")
    # the listed values are still checked: a name no release has is misspelt
    wrong = helptext.replace("w_bfp16,", "w_bfp17,")
    assert _lines(_audit(tmp_path / "w", wrong, "0.10")) == [(12, "scheme-misspelt")]
    matrix = (
        "## Model types by release\n\nOn 0.11.2 the registry holds 35 model types.\n\n"
        "| model_type | 0.11 | 0.11.2 |\n|---|---|---|\n| `llama` | ✓ | ✓ |\n| `glm4_moe` | — | ✓ |\n"
    )
    assert not _audit(tmp_path / "m", matrix, "0.11.2")
    pins = (
        "## Pins\n\n| Area | 0.11 | 0.11.1 |\n|---|---|---|\n| `onnxslim` pin | `>=0.1.77` | `>=0.1.84` |\n"
    )
    assert not _audit(tmp_path / "p", pins, "0.11.1", name="quark-install")
    swapped = pins.replace("`>=0.1.77` | `>=0.1.84`", "`>=0.1.84` | `>=0.1.77`")
    assert _lines(_audit(tmp_path / "s", swapped, "0.11.1", name="quark-install")) == [
        (10, "dependency-range-mismatch")
    ]


def test_defaults_after_a_list_of_choices_in_a_help_column_and_a_sentence_s_subcommand(tmp_path):
    # 0.13 quark-quant-perf --gpu-type default mi355x; 0.10 torch-llm-ptq --seq_len default 512 and
    # --num_calib_data 512; 0.13 torch-llm-ptq has no --model_export (0.10's) and has --output_dir
    choices = (
        "## quant-perf\n\nRun `quark-quant-perf --model m`. `--gpu-type` is one of `mi300x`, `mi325x`, "
        "`mi350x`, `mi355x` (default `mi355x`).\n"
    )
    assert not _audit(tmp_path, choices, "0.13")
    assert _lines(
        _audit(tmp_path / "c", choices.replace("(default `mi355x`)", "(default `mi300x`)"), "0.13")
    ) == [(8, "cli-flag-default-changed")]
    column = (
        "## Help\n\n```text\nusage: quark-cli torch-llm-ptq [-h]\n  --seq_len SEQ_LEN         default: 2048\n"
        "  --num_calib_data N        default: 512\n```\n"
    )
    assert _lines(_audit(tmp_path / "h", column, "0.10")) == [(10, "cli-flag-default-changed")]
    words = (
        "## Limits\n\nRun `quark-cli torch-mixed-precision --help` for the planner.\n\n- Not supported: "
        "`--model_export` on torch-llm-ptq (it was a 0.10-only flag); results go to `--output_dir`.\n"
    )
    assert not _audit(tmp_path / "s", words, "0.13")


def test_counts_of_scheme_names_registered_templates_and_an_export_module(tmp_path):
    # 0.10's LLMTemplate registers 13 schemes, 0.11's 18; 0.11.1 `LLMTemplate(model_type="my_moe", ...)` registered
    # by the skill; 0.9 exports through quark/torch/export/safetensors.py (export_hf_model)
    count = "## Schemes\n\n`LLMTemplate.get_config` takes one of the 13 scheme names that 0.11 registers.\n"
    assert _lines(_audit(tmp_path, count, "0.11")) == [(8, "scheme-count-mismatch")]
    assert not _audit(tmp_path / "r", count.replace("13", "18"), "0.11")
    registered = (
        "## Register\n\n```python\nfrom quark.torch import LLMTemplate\n\ntmpl = LLMTemplate(\n"
        '    model_type="my_moe",\n    kv_layers_name=["*k_proj", "*v_proj"],\n)\nLLMTemplate.register_template(tmpl)\n'
        'cfg = LLMTemplate.get("my_moe").get_config(scheme="int4_wo_128")\n```\n'
    )
    assert not _lines(_audit(tmp_path / "t", registered, "0.11.1"), "python-name-misspelt")
    exported = "## PyTorch: UINT4 weights, exported as safetensors\n\nSee below.\n"
    assert not _audit(tmp_path / "e", exported, "0.9")
    from quarkci.sync.rules.export_format_unknown import offered

    items = _view("0.9").items("export_formats")
    assert "safetensors" in offered(items)
    assert "safetensors" not in offered([i for i in items if not i.file.endswith("/safetensors.py")])


# --- round 11 (tuned on sync_dev10, sync_dev11 and clean_5, outside the repository) ---------------------------


def test_a_heading_naming_a_subcommand_owns_its_section_s_bare_flags(tmp_path):
    # 0.10 quark/experimental/cli/torch_llm_ptq.py: --scale_calculation_mode default "even"; no
    # --layer_quant_scheme (0.11 adds it)
    body = (
        "# torch-llm-ptq options in 0.10\n\nThe CLI has `onnx-ptq`, `export-onnx` and `torch-llm-ptq`.\n\n"
        "| Flag | Default | Notes |\n|---|---|---|\n| `--scale_calculation_mode` | `floor` | rounding |\n"  # 12
        "| `--layer_quant_scheme` | none | per pattern |\n"  # 13
    )
    assert _lines(_audit(tmp_path, body, "0.10")) == [
        (12, "cli-flag-default-changed"),
        (13, "cli-flag-removed"),
    ]
    right = body.replace("`floor`", "`even`").replace("| `--layer_quant_scheme` | none | per pattern |\n", "")
    assert not _audit(tmp_path / "r", right, "0.10")


def test_a_w_name_built_from_the_0_10_cli_s_parts_that_no_release_has(tmp_path):
    # 0.10 customized_configuration.py lists w_int8_per_tensor_sym and w_int8_a_int8_per_token_dynamic, no
    # w_int8_per_token_sym
    body = "## Tips\n\n- For int8 weights with per-token int8 activations pick `w_int8_per_token_sym`.\n"
    assert _lines(_audit(tmp_path, body, "0.10")) == [(8, "scheme-misspelt")]
    assert not _audit(tmp_path / "r", body.replace("w_int8_per_token_sym", "w_int8_per_tensor_sym"), "0.10")


def test_defaults_in_python_comments_pronouns_and_a_table_under_a_class_heading(tmp_path):
    # 0.13 export_safetensors(..., weight_format=None); 0.12.post1 --evaluation_dataset default "wikitext";
    # 0.8.2 quark/onnx/quantization/config/config.py QuantizationConfig.include_cle = False
    comment = (
        "## Export\n\n```python\nfrom quark.torch import export_safetensors\n\n"
        'export_safetensors(model, "<out>")  # weight_format defaults to "real_quantized"\n```\n'  # 11
    )
    # 0.12.post1: weight_format: str = "real_quantized"; 0.13's None the body replaces is no default to compare
    assert _lines(_audit(tmp_path, comment.replace("real_", "fake_"), "0.12.post1")) == [
        (11, "python-default-changed")
    ]
    assert not _audit(tmp_path / "r", comment, "0.12.post1")
    assert not _audit(tmp_path / "n", comment, "0.13")
    pronoun = (
        "## PTQ\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\n- `--evaluation_dataset` picks the "
        "perplexity set; it defaults to `wikitext_gpt_oss_120b`.\n"  # 10
    )
    assert _lines(_audit(tmp_path / "p", pronoun, "0.12.post1")) == [(10, "cli-flag-default-changed")]
    right = pronoun.replace("`wikitext_gpt_oss_120b`", "`wikitext`")
    assert not _audit(tmp_path / "pr", right, "0.12.post1")
    table = "## `QuantizationConfig` switches\n\n| field | default in 0.8.2 |\n|---|---|\n| `include_cle` | True |\n"
    assert _lines(_audit(tmp_path / "t", table, "0.8.2")) == [(10, "python-default-changed")]
    assert not _audit(tmp_path / "tr", table.replace("True", "False"), "0.8.2")


def test_template_names_by_their_paragraph_their_siblings_and_a_json_list(tmp_path):
    # 0.11.2 registers kimi_k25 and mistral but no kimi_k2 (0.13 does) and no mistral3 nor deepseek_v4
    # (0.13 registers deepseek_v4); 0.13 console scripts quark-cli, quark-quant-perf, quark-skills; quark.torch
    # 0.13 has no ModelImporter; 0.13 registers 49 templates
    paragraph = (
        "## Model types\n\nPrint `LLMTemplate.list_available()` first.\nFor Kimi K2 checkpoints pass `kimi_k2` "
        "as the model type.\nFor Mistral Small 3 checkpoints pass `mistral3`.\n"  # 9, 10
    )
    assert _lines(_audit(tmp_path, paragraph, "0.11.2")) == [
        (9, "model-type-unknown"),
        (10, "model-type-misspelt"),
    ]
    siblings = "## Newer MoE families you can quantize\n\n- `glm4_moe`\n- `minimax_m2`\n- `qwen3_next`\n- `deepseek_v4`\n"
    assert _lines(_audit(tmp_path / "s", siblings, "0.11.2")) == [(11, "model-type-unknown")]
    assert not _audit(tmp_path / "s13", siblings, "0.13")
    listed = (
        '## Matrix\n\n```json\n{"console_scripts": [\n  "quark-cli",\n  "quark-bench"\n],\n'  # 11
        ' "torch_public_api": ["LLMTemplate", "ModelImporter"]}\n```\n'  # 13
    )
    assert _lines(_audit(tmp_path / "j", listed, "0.13")) == [
        (11, "cli-command-misspelt"),
        (13, "python-name-unknown"),
    ]


def test_ranges_in_a_matrix_cell_naming_its_extra_an_answer_and_the_reader_s_own_version(tmp_path):
    # 0.13 METADATA: onnxruntime<=1.28.0,>=1.22.2 for extra "cli"; 0.12.post1 onnx<=1.22.0,>=1.21.0 (core);
    # 0.11.2 onnx<=1.19.0,>=1.16.0
    cell = "## Matrix\n\n| Quark | onnxruntime |\n|---|---|\n| 0.13 | 1.22.2 – 1.25.1 (`[cli]`) |\n"  # 10
    assert _lines(_audit(tmp_path, cell, "0.13")) == [(10, "dependency-range-mismatch")]
    assert not _audit(tmp_path / "r", cell.replace("1.25.1", "1.28.0"), "0.13")
    answer = (
        "## FAQ\n\n**Q: Which onnx does the base install pull?**\nA: Anything from 1.19.0 up to 1.22.0.\n"
    )
    assert _lines(_audit(tmp_path / "a", answer, "0.12.post1", name="quark-install")) == [
        (9, "dependency-range-mismatch")
    ]
    assert not _audit(tmp_path / "ar", answer.replace("1.19.0", "1.21.0"), "0.12.post1", name="quark-install")
    own = "## onnx\n\n0.11.2 pins `onnx>=1.16.0,<=1.19.0`. Downgrade onnx if you have 1.20 or newer.\n"
    assert not _audit(tmp_path / "o", own, "0.11.2", name="quark-install")


def test_html_comment_commands_and_instructions_inside_a_history_paragraph(tmp_path):
    # 0.12.post1 has no torch-mixed-precision (0.13 adds it); torch-llm-ptq --evaluation_dataset is 0.12.post1's
    # (0.11 lacks it)
    comment = (
        "## Notes\n\n<!-- no longer works: `quark-cli torch-mixed-precision search` -->\n\n"
        "<!-- run `quark-cli torch-mixed-precision search` first -->\n"  # 10
    )
    assert _lines(_audit(tmp_path, comment, "0.12.post1")) == [(10, "cli-command-unknown")]
    paragraph = (
        "# Moving from Quark 0.10 to 0.11\n\n## CLI\n\nThe torch-llm-ptq parser was trimmed: `--model_export` "
        "is gone.\nFor perplexity on another corpus add `--evaluation_dataset wikitext`.\n"  # 11
    )
    assert _lines(_audit(tmp_path / "p", paragraph, "0.11"), "cli-flag-removed") == [(11, "cli-flag-removed")]
    assert not _audit(tmp_path / "p12", paragraph, "0.12.post1")


def test_a_transformers_floor_said_as_quark_s_requirement(tmp_path):
    # 0.6.0 METADATA: transformers>=4.37.2
    body = "## Deps\n\nIt pulls `transformers>=4.40`, `accelerate` and `datasets`.\n"
    assert _lines(_audit(tmp_path, body, "0.6.0")) == [(8, "transformers-version-mismatch")]
    assert not _audit(tmp_path / "r", body.replace("4.40", "4.37.2"), "0.6.0")
    feature = "## Deps\n\nFP8 KV cache requires `transformers>=4.40`.\n"
    assert not _audit(tmp_path / "f", feature, "0.6.0")


# --- round 12 (tuned on sync_dev12, sync_dev13 and the all-true clean_6, outside the repository) ---------------


def test_a_negative_lead_a_no_row_a_question_that_fails_and_replaces(tmp_path):
    # 0.11 torch-llm-ptq has none of --group_size / --model_export (0.10's) and takes int4_wo_32 ... 128;
    # 0.8.1 has no console script; 0.12.post1's config.config has no Config (0.13 brings it back); 0.12.post1
    # has quark.shapeshifter and no quark.onnx_adapter (0.11.x's)
    lead = (
        "## Flags\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\n"
        "These 0.10 options are not accepted by 0.11 (argparse rejects them):\n\n"
        "- `--group_size` (0.10 default 128): choose `int4_wo_32` or `int4_wo_128` instead.\n"  # 12
        "- `--model_export`.\n"
    )
    assert not _audit(tmp_path, lead, "0.11")
    used = lead.replace("These 0.10 options are not accepted by 0.11 (argparse rejects them):", "Options:")
    assert _lines(_audit(tmp_path / "u", used, "0.11"), "cli-flag-removed") == [
        (12, "cli-flag-removed"),
        (13, "cli-flag-removed"),
    ]
    row = "## Matrix\n\n| | 0.8 | 0.8.1 |\n|---|---|---|\n| `quark-cli` | no | **no** |\n"
    assert not _audit(tmp_path / "r", row, "0.8.1")
    assert _lines(_audit(tmp_path / "ry", row.replace("**no**", "yes"), "0.8.1"))
    question = "## FAQ\n\n**Q: Why does `from quark.torch.quantization.config.config import Config` fail?**\n"
    assert not _audit(tmp_path / "q", question, "0.12.post1")
    replaces = "## 0.12.post1\n\n- `quark.shapeshifter` replaces `quark.onnx_adapter`.\n"
    assert not _audit(tmp_path / "p", replaces, "0.12.post1")
    # the imperative is an instruction, not history: 0.12.post1 registers no mx9 (0.13 does)
    imperative = "## Schemes\n\nReplace `<scheme>` with a template scheme such as `mx9`.\n"
    assert _lines(_audit(tmp_path / "i", imperative, "0.12.post1")) == [(8, "scheme-unknown")]
    assert _lines(
        _audit(tmp_path / "pu", "## 0.12.post1\n\n- Import `quark.onnx_adapter`.\n", "0.12.post1")
    ) == [(8, "python-import-unresolved")]


def test_nested_list_leads_subcommand_tables_and_an_extra_in_brackets(tmp_path):
    # 0.11 requires no onnxruntime (0.10 and 0.12.post1 do); 0.12.post1 has no torch-mixed-precision (0.13);
    # 0.12.post1 METADATA: onnxruntime<=1.25.1,>=1.22.2; extra == "cli"
    nested = (
        "# Installing 0.11\n\n1. `pip install amd-quark==0.11`\n2. Check what pip pulled in:\n"
        "   - `onnx` between 1.16.0 and 1.19.0\n   - `onnxruntime` between 1.20.1 and 1.22.1\n"  # 11
    )
    assert _lines(_audit(tmp_path, nested, "0.11", name="quark-install")) == [(11, "dependency-not-required")]
    without = nested.replace("   - `onnxruntime` between 1.20.1 and 1.22.1\n", "")
    assert not _audit(tmp_path / "o", without, "0.11", name="quark-install")
    table = (
        "## Subcommands\n\n| Subcommand | Purpose |\n|---|---|\n| `torch-llm-ptq` | LLM PTQ |\n"
        "| `torch-mixed-precision` | planning |\n"  # 11
    )
    assert _lines(_audit(tmp_path / "t", table, "0.12.post1")) == [(11, "cli-command-unknown")]
    assert not _audit(tmp_path / "t13", table, "0.13")
    pins = "## Pins\n\n| Package | Range |\n|---|---|\n| onnxruntime (`[cli]` extra) | 1.22.2 – 1.28.0 |\n"
    assert _lines(_audit(tmp_path / "p", pins, "0.12.post1")) == [(10, "dependency-range-mismatch")]
    assert not _audit(tmp_path / "pr", pins.replace("1.28.0", "1.25.1"), "0.12.post1")


def test_help_text_wrapped_defaults_no_value_words_comment_neighbours_and_methods_listed(tmp_path):
    # 0.13 quark-quant-perf --gpu-type default mi355x; 0.11 torch-llm-ptq --kv_cache_dtype default None;
    # 0.11.1 quark/experimental/cli/quark_onnx/onnx_ptq.py --num_iters default 1000 (the comment follows the
    # onnx-ptq command passing it, not the onnx-validate one after it);
    # 0.8.1 ModelImporter has get_model_config, get_model_state_dict, import_model_info, import_model
    wrapped = (
        "## quant-perf\n\n```text\nusage: quark-quant-perf [-h]\n  --gpu-type {mi300x,mi325x,mi350x,mi355x}\n"
        "                              default: mi300x\n```\n"  # 11
    )
    assert _lines(_audit(tmp_path, wrapped, "0.13")) == [(11, "cli-flag-default-changed")]
    assert not _audit(tmp_path / "w", wrapped.replace("default: mi300x", "default: mi355x"), "0.13")
    off = (
        "## ptq\n\n```text\nusage: quark-cli torch-llm-ptq [-h]\n  --kv_cache_dtype KV  (default: off)\n```\n"
    )
    assert not _audit(tmp_path / "off", off, "0.11")
    comment = (
        "## ONNX\n\n```bash\nquark-cli onnx-ptq --input_model_path m.onnx --output_model_path q.onnx \\\n"
        "    --config XINT8 --adaround --num_iters 2000 --learning_rate 0.05\n"
        "# --num_iters defaults to 500 when not given\nquark-cli onnx-validate --input_model_path q.onnx\n```\n"  # 11
    )
    assert _lines(_audit(tmp_path / "c", comment, "0.11.1"), "cli-flag-default-changed") == [
        (11, "cli-flag-default-changed")
    ]
    methods = (
        "## 0.8.1\n\n`ModelImporter(model_info_dir)` offers `get_model_config()`, `get_model_state_dict()`,\n"
        "`import_model_info(model)` and `import_model(model, model_config, model_state_dict)`.\n"
    )
    assert not _audit(tmp_path / "m", methods, "0.8.1")
    assert _lines(
        _audit(tmp_path / "mx", methods.replace("import_model_info(", "import_model_infos("), "0.8.1")
    )


def test_a_flag_in_a_comment_s_words_and_a_keyword_written_with_its_equals_sign(tmp_path):
    # 0.11.2 has no --evaluation_dataset (0.12.post1 adds it); 0.12.post1 quark/torch/export/api.py
    # export_safetensors(..., weight_format: str = "real_quantized")
    comment = "## Notes\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\n<!-- add --evaluation_dataset wikitext -->\n"
    assert _lines(_audit(tmp_path, comment, "0.11.2")) == [(10, "cli-flag-removed")]
    assert not _audit(tmp_path / "12", comment, "0.12.post1")
    keyword = (
        "## Export\n\n`export_safetensors` keeps `weight_format=` at `fake_quantized` unless you pass it.\n"
    )
    assert _lines(_audit(tmp_path / "k", keyword, "0.12.post1")) == [(8, "python-default-changed")]
    assert not _audit(tmp_path / "kr", keyword.replace("`fake_quantized`", "`real_quantized`"), "0.12.post1")
    bare = "## Export\n\n`export_safetensors` keeps `weight_format=` at None unless you pass it.\n"
    assert _lines(_audit(tmp_path / "kn", bare, "0.12.post1")) == [(8, "python-default-changed")]


# --- round 13 (tuned on sync_dev12, sync_dev13 and clean_6, outside the repository) ----------------------------


def test_kinds_from_neighbours_schemes_subcommand_listings_rows_and_a_question_s_extra(tmp_path):
    # 0.13 registers int4_wo_32/64/128, no int4_wo_256; 0.10's quark-cli has no onnx-adapter (0.11 adds it);
    # 0.11 has no shapeshifter; 0.12.post1 METADATA: onnxruntime<=1.25.1,>=1.22.2; extra == "cli"
    schemes = (
        "## Groups\n\nSmaller groups are `int4_wo_64` and `int4_wo_32`; for very wide layers `int4_wo_256` "
        "halves the overhead.\n"
    )
    assert _lines(_audit(tmp_path, schemes, "0.13")) == [(8, "scheme-misspelt")]
    assert not _audit(tmp_path / "s", schemes.replace("int4_wo_256", "int4_wo_128"), "0.13")
    listing = (
        "## Help\n\n```text\nusage: quark-cli [-h] ...\n\nsubcommands:\n    onnx-ptq            ONNX PTQ\n"
        "    torch-llm-ptq       PyTorch LLM PTQ\n    onnx-adapter        ONNX Adapter workflows\n```\n"  # 14
    )
    assert _lines(_audit(tmp_path / "l", listing, "0.10")) == [(14, "cli-command-unknown")]
    assert not _audit(tmp_path / "l11", listing, "0.11")
    row = "## Matrix\n\n| | 0.11 |\n|---|---|\n| `quark-cli` subcommands added | `onnx-adapter`, `shapeshifter` |\n"
    assert _lines(_audit(tmp_path / "r", row, "0.11")) == [(10, "cli-command-unknown")]
    question = (
        "## FAQ\n\n**Q: What does the `cli` extra pull in?**\nA: Among others `gguf` and\n"
        "onnxruntime between 1.22.2 and 1.28.0.\n"  # 10
    )
    assert _lines(_audit(tmp_path / "q", question, "0.12.post1")) == [(10, "dependency-range-mismatch")]
    assert not _audit(tmp_path / "qr", question.replace("1.28.0", "1.25.1"), "0.12.post1")


def test_onnx_configs_passed_in_prose_defaults_said_in_words_and_versions_we_test(tmp_path):
    # 0.8 DefaultConfigMapping: XINT8 and no VINT8 (later releases add it), no XINT4 in any release;
    # 0.8 quark/onnx/quantization/config/config.py include_cle: bool = False; 0.13 torch-llm-ptq --seq_len 512;
    # 0.12.post1 Requires-Python >=3.11,<3.14
    configs = (
        '## ONNX presets\n\n- For NPU-friendly int8, `get_default_config("VINT8")`.\n'
        '- For four-bit weights, `get_default_config("XINT4")`.\n- The default: `get_default_config("XINT8")`.\n'
    )
    assert _lines(_audit(tmp_path, configs, "0.8")) == [
        (8, "onnx-config-unknown"),
        (9, "onnx-config-misspelt"),
    ]
    switched = "## ONNX\n\n`include_cle` is switched on by default, so equalization always runs.\n"
    assert _lines(_audit(tmp_path / "s", switched, "0.8"), "python-default-changed") == [
        (8, "python-default-changed")
    ]
    assert not _audit(tmp_path / "so", switched.replace("switched on", "switched off"), "0.8")
    pronoun = (
        "## PTQ\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\n- `--seq_len` sets the calibration length; "
        "out of the box it is 2048 tokens.\n"  # 10
    )
    assert _lines(_audit(tmp_path / "p", pronoun, "0.13")) == [(10, "cli-flag-default-changed")]
    assert not _audit(tmp_path / "pr", pronoun.replace("2048", "512"), "0.13")
    tested = "## Python\n\n**Q: Which Python versions work?**\nA: 3.11 and 3.12 are what we test.\n"
    assert not _audit(tmp_path / "t", tested, "0.12.post1")
    said = "## Python\n\n**Q: Which Python versions work?**\nA: 3.11 and 3.12 only.\n"
    assert _lines(_audit(tmp_path / "ts", said, "0.12.post1")) == [(9, "python-version-mismatch")]


# --- round 14 (tuned on sync_dev15, outside the repository; held-out sync_15 committed before, 8cd7359) ---------


def test_a_task_heading_with_a_negative_word_does_not_frame_the_names_below_it(tmp_path):
    # 0.13 quark/torch/quantization/config/template.py registers mxfp4 and fp8; the config module has no
    # QuantizationConfig (QConfig, and Config as its alias)
    body = (
        "# Adding a template for an unsupported architecture\n\n"
        "Pick `mxfp4` weights with an `fp8` KV cache.\n\n"  # 8
        "```python\nfrom quark.torch.quantization.config.config import QConfig, QuantizationConfig\n```\n"  # 11
    )
    assert _lines(_audit(tmp_path, body, "0.13")) == [(11, "python-import-unresolved")]
    framed = body.replace(
        "# Adding a template for an unsupported architecture", "# Not supported on this release"
    )
    assert (8, "name-stated-unavailable") in _lines(_audit(tmp_path / "n", framed, "0.13"))


def test_an_instance_made_in_one_block_is_known_in_the_next(tmp_path):
    # 0.13 LLMTemplate.get_config(scheme, algorithm, kv_cache_scheme, ..., algo_configs, ...): no
    # algorithm_configs (that is a keyword of LLMTemplate.__init__)
    body = (
        '## Config\n\n```python\nfrom quark.torch import LLMTemplate\n\ntmpl = LLMTemplate.get("llama")\n```\n\n'
        'Then:\n\n```python\ncfg = tmpl.get_config(scheme="fp8", algorithm_configs={})\n```\n'  # 17
    )
    assert _lines(_audit(tmp_path, body, "0.13")) == [(17, "python-keyword-unknown")]
    assert not _audit(tmp_path / "ok", body.replace("algorithm_configs", "algo_configs"), "0.13")


def test_a_span_called_a_signature_states_its_keyword_defaults(tmp_path):
    # quark/torch/export/api.py export_safetensors: weight_format defaults to "real_quantized" up to 0.12.post1,
    # to a None the 0.13 body replaces by "real_quantized" (computed: not compared); pack_method "reorder" in both
    body = (
        "## Export\n\nIts full signature reads\n"
        '`export_safetensors(model, output_dir, weight_format="real_quantized", pack_method="reorder")`.\n'  # 9
    )
    wrong = body.replace('"reorder"', '"order"')
    assert _lines(_audit(tmp_path, wrong, "0.13")) == [(9, "python-default-changed")]
    assert not _audit(tmp_path / "13", body, "0.13")
    assert _lines(_audit(tmp_path / "f", body.replace("real_", "fake_"), "0.12.post1")) == [
        (9, "python-default-changed")
    ]
    assert not _audit(tmp_path / "12", body, "0.12.post1")
    # a call with values in positions is a usage example: its keywords are what it passes, not defaults
    usage = body.replace("model, output_dir,", 'model, "./out",')
    assert not _audit(tmp_path / "u", usage, "0.13")


def test_values_listed_for_a_keyword_an_earlier_call_passes_are_checked_as_passed(tmp_path):
    # every release from 0.11 on: export_safetensors closes custom_mode to quark, awq and fp8
    body = (
        "## Export\n\n```python\nfrom quark.torch import export_safetensors\n\n"
        'export_safetensors(model, "./out", custom_mode="awq")\n```\n\n'
        'Choices:\n\n- `custom_mode`: `"quark"`, `"fp8"` or `"gguf_mode"`. Only `"quark"` is the future.\n'  # 16
    )
    assert _lines(_audit(tmp_path, body, "0.12.post1")) == [(16, "python-name-misspelt")]
    assert not _audit(tmp_path / "ok", body.replace('`"gguf_mode"`', '`"awq"`'), "0.12.post1")
    # no earlier call passes the keyword: whose values they are is not known
    alone = '## Export\n\n- `custom_mode`: `"quark"`, `"fp8"` or `"gguf_mode"`.\n'
    assert not _audit(tmp_path / "alone", alone, "0.12.post1")


def test_a_range_under_an_install_heading_is_read_on_its_own_line(tmp_path):
    # 0.12.post1 METADATA: onnxruntime<=1.25.1,>=1.22.2 only in the `cli` extra
    body = (
        '## Install\n\n```bash\npip install "amd-quark[cli]"\n```\n\n'
        "The extra pins `onnxruntime` to\n`>=1.22.2,<=1.28.0`.\n"  # 13
    )
    assert _lines(_audit(tmp_path, body, "0.12.post1", name="moe-ptq")) == [(13, "dependency-range-mismatch")]
    assert not _audit(tmp_path / "ok", body.replace("1.28.0", "1.25.1"), "0.12.post1", name="moe-ptq")
    # elsewhere, a skill's own pip line for a package only an extra pins is the reader's own copy
    own = '## Installation\n\n```bash\npip install "onnxruntime>=1.18,<1.30"\n```\n'
    assert not _audit(tmp_path / "own", own, "0.12.post1", name="eval-runner")


def test_old_text_said_to_still_work_is_usage_of_the_release(tmp_path):
    # 0.10's CLI list had w_fp8_a_fp8; 0.12.post1's CLI passes --quant_scheme to LLMTemplate, which lacks it
    body = (
        "## Schemes\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\n"
        "Have older notes with `--quant_scheme w_fp8_a_fp8`? They still work here.\n"  # 10
    )
    assert _lines(_audit(tmp_path, body, "0.12.post1")) == [(10, "scheme-unknown")]
    said_gone = body.replace("They still work here.", "They no longer work.")
    assert not _audit(tmp_path / "gone", said_gone, "0.12.post1")


def test_template_names_in_an_html_comment_are_model_type_claims(tmp_path):
    # quark/torch/quantization/config/template.py: kimi_k25 is registered from 0.11.1, not in 0.11
    body = (
        "## Notes\n\n<!-- quark.torch also ships LLM templates for qwen3_moe and\nkimi_k25 checkpoints. -->\n"
    )
    assert _lines(_audit(tmp_path, body, "0.11")) == [(9, "model-type-unknown")]
    assert not _audit(tmp_path / "ok", body, "0.11.1")


def test_a_call_that_leaves_out_a_required_parameter_is_breaking(tmp_path):
    # 0.12.post1 quark/onnx/quantization/config/config.py QConfig.__init__(self, global_config, ...,
    # **kwargs): a misnamed keyword is swallowed, the required global_config is missing
    body = (
        "## Config\n\n```python\nfrom quark.onnx import QConfig\n\nconfig = QConfig(\n"
        "    global_quant_config=layer,\n"  # 12
        '    exclude=["/head/Gemm"],\n)\n```\n'
    )
    assert _lines(_audit(tmp_path, body, "0.12.post1")) == [(12, "python-argument-missing")]
    assert not _audit(tmp_path / "ok", body.replace("global_quant_config", "global_config"), "0.12.post1")
    positional = body.replace("global_quant_config=layer", "layer")
    assert not _audit(tmp_path / "pos", positional, "0.12.post1")
    # arguments spread from a dict, or elided, are not known
    spread = body.replace("global_quant_config=layer", "**opts")
    assert not _audit(tmp_path / "spread", spread, "0.12.post1")
    elided = body.replace("global_quant_config=layer", "...")
    assert not _audit(tmp_path / "elided", elided, "0.12.post1")


# --- round 15 (tuned on sync_dev16 and the all-true clean_7, outside the repository; held-out sync_16
# committed before, 562bc6b) ----------------------------------------------------------------------------


def test_names_dated_by_their_own_words_speak_of_that_time(tmp_path):
    # 0.9 quark/torch/quantization/config/config.py defines OCP_MXFP4Spec and no MXSpec (0.8.2's); 0.10's
    # template.py has no ptpc_fp8; 0.6.0's quark.torch exports import_model_info, 0.7's ModelImporter
    aside = "## Specs\n\nUse `OCP_MXFP4Spec` here (0.8.2 only had the older `MXSpec`).\n"
    assert not _audit(tmp_path / "a", aside, "0.9")
    assert _lines(
        _audit(tmp_path / "au", aside.replace(" (0.8.2 only had the older `MXSpec`)", " or `MXSpec`"), "0.9")
    )
    absent = "## Schemes\n\n`LLMTemplate` has 13 built-in schemes (no `ptpc_fp8` yet).\n"
    assert not _audit(tmp_path / "n", absent, "0.10")
    out = "## Imports\n\n| Before | Now |\n|---|---|\n| 6 names | 6 names (`import_model_info` out, `ModelImporter` in) |\n"
    assert not _audit(tmp_path / "o", out, "0.7")
    assert _lines(_audit(tmp_path / "oi", out.replace("` out, ", "` in, "), "0.7"))


def test_enum_members_a_class_body_assigns_are_quark_names(tmp_path):
    # 0.9 quark/onnx/quant_utils.py: ExtendedQuantType has QInt32 = 7 and QFloat16 = 9
    body = "## Types\n\n`ExtendedQuantType` adds `QInt32` and `QFloat16` to the ONNX Runtime types.\n"
    assert not _audit(tmp_path, body, "0.9")
    assert _lines(_audit(tmp_path / "m", body.replace("`QInt32`", "`QInt31`"), "0.9")) == [
        (8, "python-name-misspelt")
    ]


def test_a_symptom_heading_and_advice_after_a_negation_say_nothing_is_unavailable(tmp_path):
    # 0.11.1 template.py registers int4_wo_128, fp8 and mxfp4 and no mx9 (0.13 adds it)
    body = (
        "## Q: My scheme name is rejected\n\nNames that work include `int4_wo_128`, `fp8` and `mxfp4`.\n"
        "`mx9` is not available here, so fall back to plain `fp8`.\n"
    )
    assert not _audit(tmp_path, body, "0.11.1")
    framed = body.replace("## Q: My scheme name is rejected", "## Rejected by this release")
    assert (8, "name-stated-unavailable") in _lines(_audit(tmp_path / "f", framed, "0.11.1"))


def test_a_column_labelled_with_a_release_series_speaks_of_that_series(tmp_path):
    # quark.onnx_adapter is 0.11.x's (0.12.post1 renamed it quark.shapeshifter); quark.shares -> quark.common
    body = "## Renames\n\n| 0.11.x import | Use now |\n|---|---|\n| `quark.onnx_adapter` | `quark.shapeshifter` |\n"
    assert not _audit(tmp_path, body, "0.12.post1")
    unlabelled = body.replace("| 0.11.x import |", "| Import |")
    assert _lines(_audit(tmp_path / "u", unlabelled, "0.12.post1"))


def test_an_import_said_to_fail_on_this_release_and_a_family_said_to_have_no_template(tmp_path):
    # 0.12.post1's torch config.py has no Config alias (0.13 brings it back); 0.11.1 has no gemma4 template
    body = (
        "## Config\n\n`quark.torch.quantization.config.config` no longer defines `Config`, so\n"
        "`from quark.torch.quantization.config.config import Config` fails on this release.\n"
    )
    assert not _audit(tmp_path, body, "0.12.post1")
    models = "## Models\n\n- `gemma4` and `hunyuan_v1_dense` have no template.\n"
    assert not _audit(tmp_path / "m", models, "0.11.1")
    assert _lines(_audit(tmp_path / "mu", '## Models\n\n- `LLMTemplate.get("gemma4")` works.\n', "0.11.1"))


def test_defaults_stated_in_signature_and_defaults_columns(tmp_path):
    # 0.11 quark/torch/utils/llm/model_preparation.py get_tokenizer(ckpt_path, max_seq_len=2048, ...);
    # 0.12.post1 quark/onnx/quantization/config/algorithm.py GPTQConfig bits=8, AdaRoundConfig optim_device
    # "cpu"; 0.10 onnx_validate.py --per_gpu_eval_batch_size default 4
    signature = "## Helpers\n\n| Function | Signature |\n|---|---|\n| `get_tokenizer` | `get_tokenizer(ckpt_path, max_seq_len=4096)` |\n"
    assert _lines(_audit(tmp_path / "s", signature, "0.11")) == [(10, "python-default-changed")]
    assert not _audit(tmp_path / "s2", signature.replace("4096", "2048"), "0.11")
    defaults = "## ONNX\n\n| Config | Defaults |\n|---|---|\n| `GPTQConfig` | `bits=4`, `block_size=128` |\n"
    assert _lines(_audit(tmp_path / "d", defaults, "0.12.post1")) == [(10, "python-default-changed")]
    assert not _audit(tmp_path / "d8", defaults.replace("bits=4", "bits=8"), "0.12.post1")
    flags = (
        "## CLI\n\n| Subcommand | Selected defaults |\n|---|---|\n"
        "| `onnx-validate` | `--per_gpu_eval_batch_size 8` |\n"
    )
    assert _lines(_audit(tmp_path / "f", flags, "0.10")) == [(10, "cli-flag-default-changed")]
    assert not _audit(tmp_path / "f4", flags.replace("size 8", "size 4"), "0.10")


def test_a_python_name_said_not_to_exist_is_checked_against_the_release(tmp_path):
    # 0.12.post1 quark/torch/__init__.py exports disable_native_inference; 0.10 ModelExporter defines
    # export_quark_model (api.py:718)
    gone = "## Native\n\n`disable_native_inference` is not available in this release.\n"
    assert _lines(_audit(tmp_path, gone, "0.12.post1")) == [(8, "name-stated-unavailable")]
    removed = "## Export\n\n`ModelExporter.export_quark_model` has already been removed in this release.\n"
    assert _lines(_audit(tmp_path / "r", removed, "0.10")) == [(8, "name-stated-unavailable")]
    # a function said to refuse something exists: nothing said unavailable
    refuses = "## Schemes\n\n`LLMTemplate.register_scheme` refuses a name that is already registered.\n"
    assert not _audit(tmp_path / "n", refuses, "0.13")


def test_a_default_said_without_its_callable_takes_the_one_its_heading_names(tmp_path):
    # 0.10 quark/torch/export/api.py export_safetensors(..., pack_method: str = "reorder")
    body = '## `export_safetensors` in detail\n\nUnless you pass it, `pack_method` is `"order"`.\n'
    assert _lines(_audit(tmp_path, body, "0.10")) == [(8, "python-default-changed")]
    assert not _audit(tmp_path / "ok", body.replace('"order"', '"reorder"'), "0.10")


def test_list_neighbours_and_instances_of_earlier_blocks_make_claims(tmp_path):
    # no release registers int4_wo_256 (template.py: 32, 64, 128); 0.6.0's ModelExporter has no
    # export_safetensors_model (0.9 adds it)
    listed = "## Picks\n\n1. Decode-bound: `int4_wo_128`, and `int4_wo_32` on `lm_head`.\n2. Coarser: `int4_wo_256`.\n"
    assert _lines(_audit(tmp_path / "l", listed, "0.11.2")) == [(9, "scheme-misspelt")]
    instance = (
        "## Export\n\n```python\nfrom quark.torch import ModelExporter\n\nexporter = ModelExporter(config=cfg, export_dir=d)\n```\n\n"
        "Then call `exporter.export_safetensors_model(model, quant_config)`.\n"  # 14
    )
    assert _lines(_audit(tmp_path / "i", instance, "0.6.0")) == [(14, "python-import-unresolved")]
    assert not _audit(tmp_path / "i10", instance, "0.10")


def test_defaults_in_html_comments_extras_list_heads_and_requirement_tables(tmp_path):
    # 0.13 torch_llm_ptq.py --evaluation_dataset default wikitext; 0.13 METADATA onnxruntime<=1.28.0,>=1.22.2
    # (cli) and no onnxruntime_genai; 0.8.2 METADATA: no evaluate, Requires-Python >=3.10.0,<3.13
    comment = "## Eval\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\n<!-- torch-llm-ptq's --evaluation_dataset defaults to wikitext2 -->\n"
    assert _lines(_audit(tmp_path / "c", comment, "0.13")) == [(10, "cli-flag-default-changed")]
    assert not _audit(tmp_path / "c2", comment.replace("wikitext2", "wikitext"), "0.13")
    extras = (
        "## What each extra brings in\n\n- **`cli`** — the big one: `onnxruntime>=1.22.2,<=1.25.1`, `gguf`,\n"
        "  `onnxruntime_genai`.\n"
    )
    assert _lines(_audit(tmp_path / "e", extras, "0.13")) == [
        (8, "dependency-range-mismatch"),
        (9, "dependency-not-required"),
    ]
    assert not _audit(tmp_path / "e12", extras, "0.12.post1")
    tables = (
        "## Interpreter\n\n| Python | Status |\n|---|---|\n| 3.9 – 3.12 | supported |\n\n"
        "## Runtime pins declared by the wheel\n\n| Package | Constraint |\n|---|---|\n| `evaluate` | unpinned |\n"
    )
    assert _lines(_audit(tmp_path / "t", tables, "0.8.2")) == [
        (10, "python-version-mismatch"),
        (16, "dependency-not-required"),
    ]
    assert not _audit(tmp_path / "t9", tables, "0.9")  # 0.9: Requires-Python >=3.9, requires evaluate


def test_a_count_in_a_table_cell_and_a_lead_brought_up_to_date(tmp_path):
    # 0.10 template.py registers 13 schemes; 0.11 moved the LLM helpers to quark/torch/utils/llm
    count = "## Fields\n\n| Field | Values |\n|---|---|\n| `scheme` | one of the 18 built-in schemes |\n"
    assert _lines(_audit(tmp_path / "n", count, "0.10")) == [(10, "scheme-count-mismatch")]
    assert not _audit(tmp_path / "n13", count.replace("18", "13"), "0.10")
    lead = (
        "## Helpers\n\nThe helpers that used to sit in the CLI tree are a public module now:\n\n"
        "```python\nfrom quark.torch.utils.llm import get_model_type\n```\n"  # 11
    )
    assert _lines(_audit(tmp_path / "h", lead, "0.11")) == [(11, "python-import-unresolved")]


def test_a_dataclass_constructed_without_a_field_it_requires_is_breaking(tmp_path):
    # 0.13 quark/torch/quantization/config/config.py: @dataclass Int4PerGroupSpec(DataTypeSpec) declares
    # ch_axis: int and group_size: int with no default (DataTypeSpec is a plain class assigning neither)
    body = (
        "## Spec\n\n```python\nimport quark.torch.quantization.config.config as qcfg\n\n"
        "spec = qcfg.Int4PerGroupSpec(group_size=128).to_quantization_spec()\n```\n"  # 11
    )
    assert _lines(_audit(tmp_path, body, "0.13")) == [(11, "python-argument-missing")]
    assert not _audit(
        tmp_path / "ok", body.replace("(group_size=128)", "(ch_axis=-1, group_size=128)"), "0.13"
    )
    # a field whose default a plain base may give is not known: QTensorConfig's base is a dataclass, so
    # its required dtype is known and passed here
    passed = "## Spec\n\n```python\nfrom quark.torch.quantization.config.config import QTensorConfig\n\nQTensorConfig(dtype=d)\n```\n"
    assert not _audit(tmp_path / "q", passed, "0.13")


# --- round 16 (tuned on sync_dev17 and the all-true clean_8, outside the repository; held-out sync_17
# committed before, 4ea220d) ----------------------------------------------------------------------------


def test_a_count_of_more_besides_one_named_is_no_total(tmp_path):
    # 0.13 entry_points.txt: quark-cli, quark-quant-perf, quark-skills
    more = "## Scripts\n\nNext to `quark-cli` the wheel installs two more console scripts.\n"
    assert not _audit(tmp_path / "m", more, "0.13")
    total = more.replace("Next to `quark-cli` the wheel installs two more", "The wheel installs two")
    assert _lines(_audit(tmp_path / "t", total, "0.13")) == [(8, "command-count-mismatch")]


def test_a_sentence_in_a_named_series_and_a_future_aside_speak_of_that_release(tmp_path):
    # quark.onnx_adapter is 0.11.x's (0.12.post1 has quark.shapeshifter); 0.9's quark.onnx has the module
    # calibrate and no calibration package (0.10 adds it)
    series = "## Rename\n\nIn the 0.11 series this package was `quark.onnx_adapter`.\n"
    assert not _audit(tmp_path / "s", series, "0.12.post1")
    assert _lines(_audit(tmp_path / "su", "## Rename\n\nImport `quark.onnx_adapter`.\n", "0.12.post1")) == [
        (8, "python-import-unresolved")
    ]
    aside = "## Calibration\n\nCalibrators live in `quark.onnx.calibrate` (0.10 turns it into `quark.onnx.calibration`).\n"
    assert not _audit(tmp_path / "a", aside, "0.9")
    assert _lines(_audit(tmp_path / "au", aside.replace(" (0.10 turns it into", " and"), "0.9"))


def test_names_a_negation_right_after_them_governs_are_said_absent(tmp_path):
    # 0.11.2 defines no enable_native_inference (0.12.post1 adds it); 0.10's LLMTemplate has no
    # get_supported_schemes (0.11 adds it); 0.6.0's DefaultConfigMapping has no A8W8 (0.8 adds it)
    part = "## Native\n\n`enable_native_inference` is not part of `quark.torch` yet.\n"
    assert not _audit(tmp_path / "p", part, "0.11.2")
    assert _lines(_audit(tmp_path / "pu", "## Native\n\nCall `enable_native_inference` first.\n", "0.11.2"))
    method = "## Schemes\n\nThere is no `LLMTemplate.get_supported_schemes()` classmethod here.\n"
    assert not _audit(tmp_path / "m", method, "0.10")
    assert _lines(_audit(tmp_path / "mu", method.replace("There is no", "Call"), "0.10")) == [
        (8, "python-import-unresolved")
    ]
    among = (
        "## ONNX configs\n\nThe named ONNX configs include `XINT8`. `FP16` and `A8W8` are not among them.\n"
    )
    assert not _audit(tmp_path / "a", among, "0.6.0")
    assert (8, "onnx-config-unknown") in _lines(
        _audit(tmp_path / "au", among.replace(" are not among them", " work too"), "0.6.0")
    )


def test_a_bare_name_said_absent_is_looked_up_in_the_framework_the_file_names(tmp_path):
    # 0.11.1: Float16Spec is quark.torch.quantization's; quark.onnx has BFloat16Spec and no Float16Spec
    onnx = "## Specs\n\nThe `quark.onnx` specs: `Int8Spec`, `BFloat16Spec`. There is no `Float16Spec`.\n"
    assert not _audit(tmp_path / "o", onnx, "0.11.1")
    torch = onnx.replace("`quark.onnx`", "`quark.torch`").replace(
        "`Int8Spec`, `BFloat16Spec`", "`Int8PerTensorSpec`"
    )
    assert (8, "name-stated-unavailable") in _lines(_audit(tmp_path / "t", torch, "0.11.1"))


def test_a_status_cell_saying_the_row_s_name_is_gone(tmp_path):
    # 0.12.post1 config.py defines RotationConfig and no QuaRotConfig; its ModelExporter is only the Brevitas
    # extension's (quark/torch/extensions/brevitas/api.py), quark.torch exports none
    table = (
        "## Migration\n\n| Old | Status |\n|---|---|\n"
        "| `QuaRotConfig` | removed; use `RotationConfig` |\n"  # 10
        "| `ModelExporter` in `quark.torch` | gone; use `export_safetensors` |\n"  # 11
    )
    assert not _audit(tmp_path / "t", table, "0.12.post1")
    stale = table.replace(
        "| `QuaRotConfig` | removed; use `RotationConfig` |", "| `RotationConfig` | removed |"
    )
    assert _lines(_audit(tmp_path / "s", stale, "0.12.post1")) == [(10, "name-stated-unavailable")]


def test_a_span_no_signature_of_the_callable_names_is_a_value(tmp_path):
    # 0.11.2 export_safetensors(model, output_dir, custom_mode="quark", weight_format="real_quantized",
    # pack_method="reorder"); 0.10 ModelExporter.export_onnx_model(..., verbose=False, ..., do_constant_folding=True)
    values = "## Export\n\n`export_safetensors` writes `real_quantized` weights packed with `reorder` unless told otherwise.\n"
    assert not _audit(tmp_path / "v", values, "0.11.2")
    switches = "## ONNX\n\n`do_constant_folding` is on by default and `verbose` is off.\n"
    assert not _audit(tmp_path / "s", switches, "0.10")
    # 0.12.post1 export_safetensors defaults weight_format to "real_quantized" (0.13: None); "leaves it unset"
    # is no history
    unset = "## Export\n\nIf `weight_format` is omitted, `export_safetensors` leaves it unset (`None`).\n"
    assert _lines(_audit(tmp_path / "u", unset, "0.12.post1")) == [(8, "python-default-changed")]
    assert not _audit(tmp_path / "u13", unset, "0.13")


def test_a_cell_opening_with_also_lists_more_values_of_the_row_s_flag(tmp_path):
    # 0.13 quark/quant_perf/cli.py --gpu-type choices: mi300x, mi325x, mi350x, mi355x (default mi355x)
    row = "## Flags\n\n| Flag | Default | Meaning |\n|---|---|---|\n| `--gpu-type` | `mi355x` | also `mi300x` or `mi400x` |\n"
    assert _lines(_audit(tmp_path / "r", row, "0.13"), "cli-flag-choice-invalid") == [
        (10, "cli-flag-choice-invalid")
    ]
    assert not _audit(tmp_path / "ok", row.replace("mi400x", "mi350x"), "0.13")


def test_a_floor_the_wheel_asks_for_is_quark_s_own_requirement(tmp_path):
    # 0.6.0 METADATA: Requires-Dist transformers>=4.37.2
    floor = "## Requirements\n\nThe wheel asks for `transformers` 4.40 or newer.\n"
    assert _lines(_audit(tmp_path / "f", floor, "0.6.0")) == [(8, "transformers-version-mismatch")]
    assert not _audit(tmp_path / "ok", floor.replace("4.40", "4.37.2"), "0.6.0")


def test_an_enum_member_names_its_class(tmp_path):
    # 0.8.2 quark/onnx/quant_utils.py has VitisQuantType and no ExtendedQuantType (0.9 adds it)
    member = "## Types\n\nSelect it as `ExtendedQuantType.QMX`.\n"
    assert _lines(_audit(tmp_path / "m", member, "0.8.2")) == [(8, "python-name-unknown")]
    assert not _audit(tmp_path / "ok", member, "0.9")


def test_values_a_later_sentence_says_are_also_accepted_are_the_previous_flag_s(tmp_path):
    # 0.10 quark/experimental/cli/torch_llm_ptq.py --model_export choices: onnx, quark_format, hf_format, gguf
    body = (
        "## Export\n\n`quark-cli torch-llm-ptq --model_export` selects `onnx`, `quark_format` or `gguf`, and the "
        "flag may be repeated. The `hf_format` layout is also accepted.\n"
    )
    assert not _audit(tmp_path / "ok", body, "0.10")
    stale = body.replace("The `hf_format` layout", "A `quark_safetensors` layout")
    assert _lines(_audit(tmp_path / "s", stale, "0.10")) == [(8, "cli-flag-choice-invalid")]


def test_a_default_said_of_a_parameter_names_its_callable_by_a_word(tmp_path):
    # 0.7 quark/torch/quantization/config/config.py: SmoothQuantConfig.alpha = 1 (the word "SmoothQuant"
    # begins its name; AutoSmoothQuantConfig has auto_alpha, no alpha)
    body = "## SmoothQuant\n\nSmoothQuant balances scales with `alpha`, which is 0.5 unless you set it.\n"
    assert _lines(_audit(tmp_path / "s", body, "0.7")) == [(8, "python-default-changed")]
    assert not _audit(tmp_path / "ok", body.replace("0.5", "1"), "0.7")


# --- round 17 (tuned on sync_dev18 and the all-true clean_9, outside the repository; held-out sync_18
# committed before, and scored on round 16's code first) ----------------------------------------------------


def test_values_in_a_choices_column_or_said_also_offered_are_the_flag_s(tmp_path):
    # 0.13 quant_perf --gpu-type: mi300x, mi325x, mi350x, mi355x; 0.11 torch_llm_ptq.py --kv_cache_dtype has
    # fp8 and mxfp4 and no int4_per_group
    column = "## Flags\n\n| Flag | Default | Allowed values |\n|---|---|---|\n| `--gpu-type` | `mi355x` | `mi300x`, `mi250x` |\n"
    assert _lines(_audit(tmp_path / "c", column, "0.13"), "cli-flag-choice-invalid") == [
        (10, "cli-flag-choice-invalid")
    ]
    assert not _audit(tmp_path / "cok", column.replace("mi250x", "mi325x"), "0.13")
    offered = (
        "## KV cache\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\n"
        "`--kv_cache_dtype` takes `fp8` or `mxfp4`.\nFor 4-bit caches the parser also offers `int4_per_group`.\n"
    )
    assert _lines(_audit(tmp_path / "o", offered, "0.11"), "cli-flag-choice-invalid") == [
        (11, "cli-flag-choice-invalid")
    ]
    assert not _audit(tmp_path / "ook", offered.replace("int4_per_group", "fp8_dynamic"), "0.11")


def test_a_default_written_as_an_enum_member_agrees_with_its_value(tmp_path):
    # 0.13 quark/experimental/torch/quant_perf/cli.py: --mode default=BottleneckMode.DIFFERENTIAL.value
    body = (
        "## Bottlenecks\n\n```bash\nquark-quant-perf bottlenecks --session ./s --mode absolute\n```\n\n"
        "`--mode` is `differential` unless you switch it.\n"
    )
    assert not _audit(tmp_path / "ok", body, "0.13")
    assert _lines(
        _audit(tmp_path / "x", body.replace("`differential` unless", "`absolute` unless"), "0.13")
    ) == [(12, "cli-flag-default-changed")]


def test_the_command_a_default_belongs_to_is_not_one_it_is_contrasted_with(tmp_path):
    # 0.12.post1: onnx-ptq --num_calib_data defaults to 1000, torch-llm-ptq's to 512
    contrast = (
        "## Calibration\n\n```bash\nquark-cli onnx-ptq --input_model_path m.onnx\n```\n\n"
        "Here `--num_calib_data` defaults to 1000, unlike `torch-llm-ptq`.\n"
    )
    assert not _audit(tmp_path / "c", contrast, "0.12.post1")
    assert _lines(_audit(tmp_path / "n", contrast.replace("unlike", "on"), "0.12.post1")) == [
        (12, "cli-flag-default-changed")
    ]
    heading = (
        "## Run\n\n```bash\nquark-cli onnx-ptq --input_model_path m.onnx\n```\n\n### `onnx-ptq` defaults\n\n"
        "| Flag | Default |\n|---|---|\n| `--num_calib_data` | `1000` |\n\n"
        "For comparison, `quark-cli torch-llm-ptq` calibrates on 512 samples by default.\n"
    )
    assert not _audit(tmp_path / "h", heading, "0.12.post1")


def test_python_versions_said_unsupported_hold_when_the_release_excludes_them(tmp_path):
    # 0.13 METADATA Requires-Python >=3.11,<3.14
    body = "## Python\n\nAt least 3.11 and below 3.14. Python 3.9 and 3.10 are not supported.\n"
    assert not _audit(tmp_path / "ok", body, "0.13")
    stale = body.replace("Python 3.9 and 3.10 are", "Python 3.11 and 3.12 are")
    assert (8, "python-version-mismatch") in _lines(_audit(tmp_path / "x", stale, "0.13"))


def test_a_bare_class_both_frameworks_define_may_mean_either(tmp_path):
    # 0.13: quark.onnx exports a QConfig (exclude=None, no with_llm_template); the torch QConfig in
    # quark/torch/quantization/config/config.py defines with_llm_template and builds exclude with a factory
    body = (
        "## Torch\n\nUse `QConfig.with_llm_template(template, scheme)` for a template config.\n\n"
        "| Field | Default |\n|---|---|\n| `exclude` | `[]` |\n"
    )
    assert not _audit(tmp_path, body, "0.13")


def test_more_ways_a_name_is_said_absent(tmp_path):
    # 0.11.2 template.py has no kimi_k2 / deepseek_v4 (later releases add them); its quark.torch exports no
    # ModelExporter; 0.9 config.py has no QronosConfig or GPTAQConfig; 0.8.1's DefaultConfigMapping has
    # neither BF16_MIXED_BFP16 nor BF16_MIXED_MXINT8 (0.9 adds them); 0.8.2's has no BF16_MIXED_BFP16
    cases = [
        ("## Templates\n\n`kimi_k2` and `deepseek_v4` have no built-in template here.\n", "0.11.2"),
        ("## Export\n\n`ModelExporter` is no longer importable from `quark.torch`.\n", "0.11.2"),
        ("## Algorithms\n\n`RotationConfig` is here. No `QronosConfig` and no `GPTAQConfig`.\n", "0.9"),
        (
            "## ONNX presets\n\n`BF16_MIXED_BFP16` (without `_ADAQUANT`) and `BF16_MIXED_MXINT8` are not presets yet.\n",
            "0.8.1",
        ),
        (
            "## ONNX presets\n\n**Q: Is there a plain `BF16_MIXED_BFP16`?**\nA: No. Only `BF16_BFP16`.\n",
            "0.8.2",
        ),
        ("## Missing\n\nSome names:\n\n- `QronosConfig`. Rotation goes through `RotationConfig`.\n", "0.8.2"),
        ("## Not in this release\n\n- `QConfig` / `QLayerConfig` (0.11 and later).\n", "0.8.2"),
        ("## Export\n\n`from quark.torch import export_safetensors` is the one to avoid here.\n", "0.9"),
    ]
    for n, (body, release) in enumerate(cases):
        assert not _audit(tmp_path / str(n), body, release), body
    # the same names used: each is a finding
    assert _lines(
        _audit(
            tmp_path / "u1",
            "## Templates\n\n`kimi_k2` and `deepseek_v4` have a built-in template here.\n",
            "0.11.2",
        )
    )
    assert _lines(
        _audit(
            tmp_path / "u2",
            "## ONNX presets\n\n**Q: Is there a plain `BF16_MIXED_BFP16`?**\nA: Yes.\n",
            "0.8.2",
        )
    )
    assert _lines(_audit(tmp_path / "u3", "## Present\n\n- `QronosConfig`.\n", "0.8.2"))


def test_other_times_named_by_a_release_s_possessive_a_labelled_column_or_older_text(tmp_path):
    # 0.13's CLI takes template schemes only (0.10's took w_* names); 0.12.post1 has quark.shapeshifter and no
    # quark.onnx_adapter (0.11.x's); 0.11.2's quark.torch exports no ModelExporter (0.10's did)
    possessive = "## CLI\n\n- 0.10's `--quant_scheme` took names such as `w_int4_per_group_sym`; now use `int4_wo_128`.\n"
    assert not _audit(tmp_path / "p", possessive, "0.13")
    column = "## Renames\n\n| Old name (0.11.x) | Replacement |\n|---|---|\n| `quark.onnx_adapter.Engine` | `quark.shapeshifter.Engine` |\n"
    assert not _audit(tmp_path / "c", column, "0.12.post1")
    older = (
        "## Export\n\nIf an older notebook still does the following, rewrite it:\n\n"
        "```python\nfrom quark.torch import ModelExporter\n```\n"
    )
    assert not _audit(tmp_path / "o", older, "0.11.2")
    assert _lines(
        _audit(
            tmp_path / "ou",
            older.replace("If an older notebook still does the following, rewrite it:", "Run:"),
            "0.11.2",
        )
    )


def test_a_heading_for_one_kind_of_model_lists_no_complete_set(tmp_path):
    # 0.11.1 registers 35 templates; a table of four MoE ones under "Built-in templates for MoE models"
    body = (
        "## Built-in templates for MoE models\n\n| Template | Note |\n|---|---|\n"
        "| `qwen3_moe` | a |\n| `glm4_moe` | b |\n| `deepseek_v3` | c |\n| `qwen2_moe` | d |\n"
    )
    assert not _audit(tmp_path / "m", body, "0.11.1")
    assert _lines(
        _audit(tmp_path / "a", body.replace("for MoE models", ""), "0.11.1"), "model-list-incomplete"
    )


def test_a_run_described_with_one_number_and_its_flag_in_parentheses_states_the_default(tmp_path):
    # 0.13 quark/experimental/torch/quant_perf/cli.py: --max-search-candidates default=20
    body = "## Search\n\nRun `quark-quant-perf`.\n\nThe search tries at most 50 candidates (`--max-search-candidates`).\n"
    assert _lines(_audit(tmp_path / "d", body, "0.13")) == [(10, "cli-flag-default-changed")]
    assert not _audit(tmp_path / "ok", body.replace("50", "20"), "0.13")
    # advice, a condition or an example is no statement of the default
    for n, said in enumerate(
        (
            "Use at most 50 candidates (`--max-search-candidates`).",
            "If time is short, the search tries at most 50 candidates (`--max-search-candidates`).",
            "The search can try 50 candidates (`--max-search-candidates`).",
        )
    ):
        assert not _audit(
            tmp_path / str(n),
            body.replace("The search tries at most 50 candidates (`--max-search-candidates`).", said),
            "0.13",
        ), said


def test_a_yaml_mapping_keyed_by_a_callable_passes_its_keys_as_keywords(tmp_path):
    # 0.11.2 import_model_from_safetensors(model, model_dir, multi_device=False): no trust_remote_code
    # (0.12.post1 adds it)
    body = (
        "## Import\n\n```yaml\nimport_model_from_safetensors:\n  model_dir: ./out\n  trust_remote_code: true\n"
        "other:\n  trust_remote_code: true\n```\n"
    )
    assert _lines(_audit(tmp_path / "y", body, "0.11.2")) == [(11, "python-keyword-unknown")]
    assert not _audit(tmp_path / "ok", body, "0.12.post1")


def test_an_enum_member_written_in_lower_case_is_checked_against_the_class_body(tmp_path):
    # 0.9 quark/torch/quantization/config/type.py: class Dtype(Enum) assigns int2 and no int3 (0.10 adds it)
    body = "## Types\n\nFor sub-4-bit experiments `Dtype.int2` is available, and `Dtype.int3` as well.\n"
    assert _lines(_audit(tmp_path / "n", body, "0.9")) == [(8, "python-import-unresolved")]
    assert not _audit(tmp_path / "ok", body, "0.10")


# --- round 18 (tuned on sync_dev19 and the all-true clean_10, outside the repository; held-out sync_19
# committed before it) ---


def test_a_flag_given_to_quark_cli_without_a_subcommand_is_one_of_its_subcommands(tmp_path):
    # 0.10 quark/experimental/cli/torch_llm_ptq.py has no --layer_quant_scheme (0.11 adds it); quark-cli's own
    # parser has no flags, so a table under a bare `quark-cli` speaks of its subcommands' flags
    body = (
        "## Flags\n\nThese go to `quark-cli`.\n\n| Flag | Purpose |\n|---|---|\n"
        "| `--group_size` | group width |\n| `--layer_quant_scheme` | per-layer scheme |\n"
    )
    assert _lines(_audit(tmp_path / "r", body, "0.10")) == [(13, "cli-flag-removed")]
    assert not _audit(tmp_path / "ok", body.replace("--layer_quant_scheme", "--exclude_layers"), "0.10")


def test_an_import_kept_for_old_scripts_is_still_an_import_now(tmp_path):
    # 0.11.2 quark/torch/__init__.py no longer exports ModelExporter (0.10 did)
    body = (
        "## Export\n\n```python\nfrom quark.torch import ModelExporter  # still handy for old scripts\n```\n"
    )
    assert _lines(_audit(tmp_path / "i", body, "0.11.2")) == [(9, "python-import-unresolved")]
    assert not _audit(tmp_path / "ok", body, "0.10")
    old = body.replace("still handy for old scripts", "the old API: removed in 0.11")
    assert not _audit(tmp_path / "h", old, "0.11.2")


def test_the_values_a_closed_keyword_accepts_stated_in_prose_are_arguments(tmp_path):
    # 0.11.2 quark/torch/export/api.py export_safetensors closes custom_mode in quark, awq, fp8; no release
    # accepts gptq
    body = (
        "## Export\n\nCall `export_safetensors(model, output_dir)`.\n\n"
        "- `custom_mode` accepts `quark`, `awq`, `fp8` and `gptq`.\n"
    )
    assert _lines(_audit(tmp_path / "g", body, "0.11.2")) == [(10, "python-name-misspelt")]
    assert not _audit(tmp_path / "ok", body.replace(", `fp8` and `gptq`", " and `fp8`"), "0.11.2")
    # which callable is meant must be said: custom_mode is closed by ModelExporter's methods too
    assert not _audit(
        tmp_path / "n", body.replace("Call `export_safetensors(model, output_dir)`.", "Export."), "0.11.2"
    )


def test_a_capitalised_sentence_after_a_span_on_the_next_line_has_its_own_negation(tmp_path):
    # 0.13 config/template.py registers llama, gpt_oss and glm5_next
    body = "## Templates\n\n`llama`, `gpt_oss`\nNot supported on this release: `glm5_next`.\n"
    assert _lines(_audit(tmp_path / "n", body, "0.13")) == [(9, "name-stated-unavailable")]
    assert not _audit(
        tmp_path / "ok", body.replace("Not supported on this release: `glm5_next`.", ""), "0.13"
    )


def test_the_module_an_import_fails_from_is_where_not_what_is_missing(tmp_path):
    # 0.12.post1 quark/torch/quantization/config/config.py defines QConfig and no Config (0.13 has it again)
    body = (
        "## Config\n\n`Config` fails to import from `quark.torch.quantization.config.config` on this release; "
        "build a `QConfig` instead.\n"
    )
    assert not _audit(tmp_path / "ok", body, "0.12.post1")
    # the module itself said not to import is still a claim about it
    module = "## Config\n\n`quark.torch.quantization.config.config` fails to import on this release.\n"
    assert _lines(_audit(tmp_path / "n", module, "0.12.post1")) == [(8, "name-stated-unavailable")]


def test_more_ways_of_saying_a_name_is_not_there_agree_with_a_release_without_it(tmp_path):
    # 0.11.2 has 18 schemes, ptpc_fp8 one of them and no amdfp4; fp6_e2m3 is a Dtype member; 0.8.2 has no
    # config/template.py; 0.13 quark-cli registers no register-template (its --template_file help names it)
    cases = {
        "0.11.2": "`ptpc_fp8` is one of the schemes; `amdfp4` is not.",
        "0.13": "Names like `fp8_e4m3` and `fp6_e2m3` are `Dtype` members, not schemes.",
        "0.8.2": "The `quark/torch/quantization/config/template.py` module does not exist yet.",
    }
    for n, (version, said) in enumerate(cases.items()):
        assert not _audit(tmp_path / str(n), f"## Notes\n\n{said}\n", version), said
    assert _audit(tmp_path / "s", "## Notes\n\nUse `amdfp4`.\n", "0.11.2")
    assert _audit(tmp_path / "p", "## Notes\n\nSee `quark/torch/quantization/config/template.py`.\n", "0.8.2")
    said = (
        "## CLI\n\nThere is no `register-template` subcommand, even though the help text of `--template_file` "
        "mentions `quark-cli register-template -h`.\n"
    )
    assert not _audit(tmp_path / "c", said, "0.13")
    assert _audit(tmp_path / "cr", "## CLI\n\nRun `quark-cli register-template -h`.\n", "0.13")


def test_a_line_mapping_an_old_name_to_a_new_one_dates_the_old_one(tmp_path):
    # 0.11 moved model_preparation.py from quark/experimental/cli/torch_llm/llm_utils/ to quark/torch/utils/llm/
    old, new = (
        "quark/experimental/cli/torch_llm/llm_utils/model_preparation.py",
        "quark/torch/utils/llm/model_preparation.py",
    )
    assert not _audit(tmp_path / "m", f"## Moves\n\n- `{old}` -> `{new}`\n", "0.11")
    assert _lines(_audit(tmp_path / "r", f"## Moves\n\n- `{new}` -> `{old}`\n", "0.11")) == [
        (8, "source-path-missing")
    ]


def test_a_special_method_of_a_quark_class_is_no_misspelt_method(tmp_path):
    body = "## Template\n\n`LLMTemplate.__init__` gains `gptaq_config` in 0.11.\n"
    assert not _audit(tmp_path / "d", body, "0.11")
    assert _audit(tmp_path / "m", body.replace("__init__", "get_confgi"), "0.11")


def test_a_default_of_none_the_body_replaces_is_no_stated_default_to_compare(tmp_path):
    # 0.13 export_safetensors(weight_format: str | None = None) picks "real_quantized"; 0.12.post1 declares
    # weight_format: str = "real_quantized"
    body = "## Export\n\nWhen `weight_format` is left unset, `export_safetensors` picks `fake_quantized`.\n"
    assert not _audit(tmp_path / "n", body, "0.13")
    assert _lines(_audit(tmp_path / "c", body, "0.12.post1")) == [(8, "python-default-changed")]


def test_cpython_names_the_interpreter_range(tmp_path):
    # 0.7 METADATA Requires-Python: >=3.9.0,<3.12; 0.8: >=3.9.0,<3.13
    body = "## Install\n\nSupported interpreters: CPython 3.9 through 3.12.\n"
    assert _lines(_audit(tmp_path / "r", body, "0.7")) == [(8, "python-version-mismatch")]
    assert not _audit(tmp_path / "ok", body, "0.8")


def test_a_code_block_holding_a_requirements_file_pins_its_packages(tmp_path):
    # 0.12.post1 METADATA: transformers <5.3,>5 for extra cli; 0.13: <5.17,>5
    body = "## Requirements of the `cli` extra\n\n```text\ntransformers>5,<5.17\naccelerate\n```\n"
    assert _lines(_audit(tmp_path / "r", body, "0.12.post1")) == [(9, "transformers-version-mismatch")]
    assert not _audit(tmp_path / "ok", body, "0.13")
    # a console log mentioning a pin is no requirements file
    log = body.replace("transformers>5,<5.17\naccelerate", "Collecting transformers>5,<5.17\nDone")
    assert not _audit(tmp_path / "log", log, "0.12.post1")


def test_a_collection_of_schemes_as_subject_states_their_count(tmp_path):
    # 0.13 config/template.py registers 28 scheme names (0.12.post1: 27)
    body = "## Schemes\n\nThe scheme collection registers 27 names.\n"
    assert _lines(_audit(tmp_path / "c", body, "0.13")) == [(8, "scheme-count-mismatch")]
    assert not _audit(tmp_path / "ok", body, "0.12.post1")


def test_a_name_said_imported_from_a_module_is_an_import_from_it(tmp_path):
    # 0.10 quark/onnx/__init__.py exports no AdaRoundConfig (0.11 does)
    body = "## API\n\nAlgorithm objects such as `AdaRoundConfig` are imported from `quark.onnx` directly.\n"
    assert _lines(_audit(tmp_path / "i", body, "0.10")) == [(8, "python-import-unresolved")]
    assert not _audit(tmp_path / "ok", body, "0.11")


# --- round 19 (tuned on sync_dev20 and the all-true clean_11, outside the repository; held-out sync_20
# committed before it) ---


@pytest.mark.parametrize(
    ("said", "wrong", "right"),
    [
        # 0.10 adds QronosConfig (quark/torch/quantization/config/config.py)
        ("Use QronosConfig for error-correcting rounding.", "0.9", "0.10"),
        # 0.10 adds VINT8 to DefaultConfigMapping (quark/onnx/quantization/config/custom_config.py)
        ("Among the quark.onnx presets: VINT8 for vector units.", "0.9", "0.10"),
        # 0.11 moved model_preparation.py to quark/torch/utils/llm/
        ("`get_model` lives in quark/torch/utils/llm/model_preparation.py now.", "0.10", "0.11"),
        # 0.12.post1 renames onnx-adapter to shapeshifter
        ("The shapeshifter subcommand rewrites input shapes.", "0.11.2", "0.12.post1"),
    ],
)
def test_a_bare_prose_word_some_release_defines_is_read_as_a_span(tmp_path, said, wrong, right):
    body = f"## Notes\n\n{said}\n"
    assert _lines(_audit(tmp_path / "w", body, wrong)), said
    assert not _audit(tmp_path / "r", body, right), said


def test_english_words_and_link_targets_are_never_lifted(tmp_path):
    body = (
        "## Notes\n\nThe config is optional; see [the guide](quark/torch/missing_file.py) and "
        "https://example.com/quark/torch/gone.py for the model.\n"
    )
    assert not _audit(tmp_path / "e", body, "0.13")


def test_a_gone_label_dates_the_names_after_it(tmp_path):
    # 0.11 quark/experimental/cli/torch_llm_ptq.py has no --multi_gpu (0.10 did)
    body = "## torch-llm-ptq\n\nRun `quark-cli torch-llm-ptq --model_dir m`.\n\nGone: `--multi_gpu`.\n"
    assert not _audit(tmp_path / "g", body, "0.11")
    assert _lines(_audit(tmp_path / "u", body.replace("Gone:", "Add"), "0.11")) == [(10, "cli-flag-removed")]


def test_an_extra_named_before_a_line_break_holds_for_the_pins_after_it(tmp_path):
    # 0.13 METADATA: mypy==1.18.2; extra == "lint"
    body = (
        "## Lint\n\nThe checks run under the `lint` extra, which pins\nmypy==1.17.0 and `pyspelling==2.11`.\n"
    )
    assert _lines(_audit(tmp_path / "p", body, "0.13")) == [(9, "dependency-range-mismatch")]
    assert not _audit(tmp_path / "ok", body.replace("1.17.0", "1.18.2"), "0.13")


def test_onnx_runtime_in_two_words_is_onnxruntime(tmp_path):
    # 0.6.0 METADATA: onnxruntime<1.20.0,>=1.17.0 and onnx>=1.16.0
    body = "## Deps\n\nONNX Runtime must satisfy `>=1.17.0,<1.20.0`.\n"
    assert not _audit(tmp_path / "ok", body, "0.6.0")
    assert _lines(_audit(tmp_path / "w", body.replace("1.20.0", "1.21.0"), "0.6.0")) == [
        (8, "dependency-range-mismatch")
    ]


def test_advice_after_a_dash_is_no_part_of_the_negation(tmp_path):
    # 0.12.post1 config/config.py defines QConfig and no Config
    body = (
        "## Config\n\n`Config` fails to import from `quark.torch.quantization.config.config` on 0.12.post1 "
        "— use `QConfig`.\n"
    )
    assert not _audit(tmp_path / "ok", body, "0.12.post1")


def test_a_scheme_count_in_words_after_the_collection(tmp_path):
    # 0.10 config/template.py registers 13 schemes
    body = "## Schemes\n\nThe scheme collection registers eighteen names.\n"
    assert _lines(_audit(tmp_path / "c", body, "0.10")) == [(8, "scheme-count-mismatch")]
    assert not _audit(tmp_path / "ok", body.replace("eighteen", "thirteen"), "0.10")


def test_a_list_under_a_lead_about_presets_names_configurations(tmp_path):
    # 0.6.0 DefaultConfigMapping has BF16 and no FP16 (0.7 adds it)
    body = "## quark.onnx\n\nPreset families available here:\n\n- float: `BF16`, and FP16\n"
    assert _lines(_audit(tmp_path / "p", body, "0.6.0")) == [(10, "onnx-config-unknown")]
    assert not _audit(tmp_path / "ok", body, "0.7")


@pytest.mark.parametrize(
    ("said", "version"),
    [
        ("onnxruntime 1.20 or newer is outside the supported range for 0.6.0.", "0.6.0"),
        ("- No standalone `export_safetensors` function in 0.9.", "0.9"),
        ("`export_safetensors` rejects a `custom_mode` other than `quark`, `awq` or `fp8`.", "0.10"),
        ("0.13's `main.py` registers no `register-template` subcommand.", "0.13"),
        (
            "So `from quark.torch.quantization.config.config import Config` fails with `ImportError`.",
            "0.12.post1",
        ),
        ("`numpy>=2.0` (earlier releases capped numpy at `<=2.1.3`).", "0.12.post1"),
        ("- `onnx<=1.19.0,>=1.16.0`; onnxruntime is not a declared dependency.", "0.11.2"),
    ],
)
def test_more_true_negatives_and_histories_say_nothing_false(tmp_path, said, version):
    assert not _audit(tmp_path, f"## Notes\n\n{said}\n", version), said


def test_the_positive_forms_of_those_negatives_are_checked(tmp_path):
    assert _audit(tmp_path / "r", "## Notes\n\nonnxruntime 1.20 or newer is supported.\n", "0.6.0")
    assert _audit(tmp_path / "n", "## Notes\n\nUse `export_safetensors`.\n", "0.9")
    assert _audit(tmp_path / "p", "## Notes\n\nnumpy is capped at `<=2.1.3`.\n", "0.12.post1")


def test_a_bare_package_name_said_installed_is_a_requirement(tmp_path):
    # 0.10 METADATA requires onnxsim and no onnxslim (0.11 adds onnxslim)
    body = "## Deps\n\n- Graph slimming relies on onnxslim, which pip installs for you.\n"
    assert _lines(_audit(tmp_path / "r", body, "0.10")) == [(8, "dependency-not-required")]
    assert not _audit(tmp_path / "ok", body, "0.11")


# --- round 20 (tuned on sync_dev21 and the all-true clean_12, outside the repository; held-out sync_21
# committed before it) ---


def test_a_scheme_only_the_cli_takes_is_refused_by_the_config_api(tmp_path):
    # 0.10: quark-cli torch-llm-ptq --quant_scheme takes w_* names (customized_configuration.py
    # SUPPORTED_QUANT_SCHEME); LLMTemplate.get_config raises on a name outside its _schemes registry
    call = "## Notes\n\n`LLMTemplate.get_config(scheme={!r})` builds the config.\n"
    assert _lines(_audit(tmp_path / "w", call.format("w_int4_per_group_sym"), "0.10")) == [
        (8, "python-argument-unknown")
    ]
    assert not _audit(tmp_path / "t", call.format("int4_wo_128"), "0.10")  # a registry name
    cli = "## CLI\n\nRun `quark-cli torch-llm-ptq --model_dir m --quant_scheme w_int4_per_group_sym`.\n"
    assert not _audit(tmp_path / "c", cli, "0.10")  # the same name where the CLI takes it


@pytest.mark.parametrize(
    ("said", "version", "rule"),
    [
        # 0.11 template.py _collect_supported_schemes: 18 names
        ("LLMTemplate ships twenty-one schemes in 0.11, among them int8.", "0.11", "scheme-count-mismatch"),
        # 0.8.2 quark/onnx/quantization/config/custom_config.py DefaultConfigMapping: 57 keys (64 in 0.9)
        ("There are sixty-four preset names in 0.8.2 for quark.onnx.", "0.8.2", "onnx-config-count-mismatch"),
        ("The ONNX table `DefaultConfigMapping` holds 64 entries.", "0.8.2", "onnx-config-count-mismatch"),
        # 0.10 template.py DEFAULT_TEMPLATES: 25 templates
        ("The 0.10 wheel registers twenty-nine model types.", "0.10", "model-count-mismatch"),
    ],
)
def test_a_count_in_words_or_digits_next_to_a_kind_is_checked(tmp_path, said, version, rule):
    assert _lines(_audit(tmp_path, f"## Notes\n\n{said}\n", version)) == [(8, rule)]


@pytest.mark.parametrize(
    ("said", "version"),
    [
        ("Combine two schemes per layer for mixed precision.", "0.13"),  # English, not a total
        ("The 0.10 wheel registers twenty-five model types.", "0.10"),  # true (25)
        ("There are fifty-seven preset names in 0.8.2 for quark.onnx.", "0.8.2"),  # true (57)
        ("For quark.onnx, list the 1–3 presets that fit the target.", "0.13"),  # a range, no total
        ("XINT8 is one of 65 presets of quark.onnx.", "0.13"),  # true, after "one of"
        ("All four entry points are plain functions re-exported by quark.torch.", "0.13"),  # not scripts
    ],
)
def test_counts_that_are_no_total_or_are_true_say_nothing(tmp_path, said, version):
    assert not _audit(tmp_path, f"## Notes\n\n{said}\n", version), said


def test_entry_points_of_the_command_line_are_console_scripts(tmp_path):
    # 0.13 entry_points.txt: quark-cli, quark-quant-perf, quark-skills
    body = "## Notes\n\nThe wheel installs four console entry points.\n"
    assert _lines(_audit(tmp_path, body, "0.13")) == [(8, "command-count-mismatch")]


def test_a_table_shorter_than_the_total_its_section_states_is_a_selection(tmp_path):
    # 0.13 template.py DEFAULT_TEMPLATES: 51 templates; the table lists 2
    body = (
        "## Built-in model types\n\n0.13 registers fifty-one built-in templates at import time. They "
        "differ in their excluded layers:\n\n| model_type | exclude |\n|---|---|\n| `llama` | `lm_head` |\n"
        "| `qwen3_moe` | `*.gate` |\n"
    )
    assert not _audit(tmp_path / "s", body, "0.13")
    stale = body.replace("fifty-one", "fifty")
    assert _lines(_audit(tmp_path / "c", stale, "0.13")) == [(8, "model-count-mismatch")]


@pytest.mark.parametrize("lead", ["A selection (not the full list):", "The list gained, among others:"])
def test_a_lead_saying_selection_makes_a_complete_heading_s_table_partial(tmp_path, lead):
    body = f"## Built-in model types\n\n{lead}\n\n| model_type |\n|---|\n| `llama` |\n| `qwen3` |\n"
    assert not _audit(tmp_path, body, "0.13")


def test_no_longer_re_exports_dates_the_names(tmp_path):
    # 0.11 defines no ModelImporter anywhere (0.7 … 0.10 did)
    body = "## API\n\nSince 0.11, `quark.torch` no longer re-exports ModelExporter or ModelImporter.\n"
    assert not _audit(tmp_path, body, "0.11")


def test_a_bare_method_of_a_class_the_sentence_names_is_that_method(tmp_path):
    # 0.8 quark/torch/export/api.py: ModelImporter.import_model_info(self, model)
    body = "## Reload\n\nUse `qt.ModelImporter(model_info_dir=d)` followed by `import_model_info(model)`.\n"
    assert not _audit(tmp_path / "m", body, "0.8")
    alone = "## Reload\n\nCall `import_model_info(model)` to reload.\n"
    assert _lines(_audit(tmp_path / "a", alone, "0.13"), "python-name-unknown") == [
        (8, "python-name-unknown")
    ]


def test_a_bare_package_pinned_with_an_operator_in_prose_is_a_range(tmp_path):
    # 0.8 METADATA: onnxsim==0.4.36
    body = "## Deps\n\nThe wheel depends on onnxsim pinned at ==0.4.35 and onnx at least 1.16.0.\n"
    assert _lines(_audit(tmp_path / "w", body, "0.8")) == [(8, "dependency-range-mismatch")]
    assert not _audit(tmp_path / "r", body.replace("0.4.35", "0.4.36"), "0.8")


@pytest.mark.parametrize(
    ("said", "wrong", "right"),
    [
        # 0.8 quark/torch/export/config/config.py JsonExporterConfig.weight_format: str = "real_quantized"
        (
            "When weight_format is not given, JsonExporterConfig uses fake_quantized.",
            "fake_quantized",
            "real_quantized",
        ),
        # 0.9 quark/torch/quantization/config/config.py GPTQConfig.block_size: int = 128
        ("GPTQConfig's block_size defaults to 64 in this release.", "64", "128"),
        # 0.8 quark/onnx/quantization/config/config.py QuantizationConfig.include_cle: bool = False
        (
            "A freshly built QuantizationConfig() has include_cle=True unless you switch it off.",
            "True",
            "False",
        ),
    ],
)
def test_a_default_said_in_bare_words_is_checked(tmp_path, said, wrong, right):
    version = "0.9" if "GPTQ" in said else "0.8"
    body = f"## Defaults\n\n{said}\n"
    assert _lines(_audit(tmp_path / "w", body, version)) == [(8, "python-default-changed")], said
    assert not _audit(tmp_path / "r", body.replace(wrong, right), version), said


def test_history_in_another_clause_leaves_a_default_current(tmp_path):
    # 0.9 GPTQConfig.block_size = 128; true_sequential is no GPTQConfig field in 0.9
    body = "## GPTQ\n\n`GPTQConfig`'s `block_size` defaults to 64 in this release; `true_sequential` is gone since 0.9.\n"
    assert _lines(_audit(tmp_path / "w", body, "0.9")) == [(8, "python-default-changed")]
    # 0.11 moved model_preparation.py to quark/torch/utils/llm/ (0.10: quark/experimental/cli/torch_llm/llm_utils/)
    dated = (
        "## Files\n\n`model_preparation.py` lives in `quark/torch/utils/llm/` since 0.11; in 0.10 it was under "
        "`quark/experimental/cli/torch_llm/llm_utils/`.\n"
    )
    assert not _audit(tmp_path / "d", dated, "0.11.2")


def test_enum_members_in_prose_and_code_are_checked_as_members(tmp_path):
    # 0.11 quark/onnx/quantization/config/spec.py CalibMethod.MinMSE; 0.9 quark/torch/quantization/config/type.py
    # Dtype.fp8_e4m3
    prose = "## ONNX\n\nXInt8Spec calibrates with CalibMethod.MinMse.\n"
    found = _audit(tmp_path / "p", prose, "0.11")
    assert _lines(found) == [(8, "python-name-misspelt")] and "`MinMSE`" in found[0].source_says
    code = (
        "## Spec\n\n```python\nfrom quark.torch.quantization.config.type import Dtype\n"
        "from quark.torch.quantization.config.config import QuantizationSpec\n"
        "spec = QuantizationSpec(dtype=Dtype.fp8_e4m3fn)\n```\n"
    )
    assert _lines(_audit(tmp_path / "c", code, "0.9")) == [(11, "python-name-misspelt")]
    assert not _audit(tmp_path / "t", code.replace("fp8_e4m3fn", "fp8_e4m3"), "0.9")


@pytest.mark.parametrize(
    ("body", "version"),
    [
        ("```yaml\nquant_scheme: null\nkv_cache_dtype: null\n```\n", "0.11.2"),  # a YAML null
        ("- `--kv-cache-scheme` of quark-quant-perf is either unset or fp8.\n", "0.13"),  # None in words
        # 0.12.post1 quark/experimental/cli/quark_onnx/onnx_ptq.py: --exclude_nodes default=""
        ("| flag | default |\n|---|---|\n| `--exclude_nodes` | empty |\n", "0.12.post1"),
        ("```python\nimport quark\nprint(quark.__version__)\n```\n", "0.8.2"),  # a module dunder
        # 0.11.2 DEFAULT_TEMPLATES has kimi_k25 and deepseek_v32 (model types, not schemes)
        (
            "`LLMTemplate` in 0.11.2 knows 18 scheme names and 35 model types (for example `kimi_k25`, "
            "`deepseek_v32`).\n",
            "0.11.2",
        ),
        ("NumPy 2.2 and newer are excluded by `numpy<=2.1.3`.\n", "0.11.2"),  # the versions left out
        # 0.10 AWQConfig takes no `algorithm`: the fallback value is no owner of the keyword
        (
            'If a template has no AWQ config, `algorithm="awq"` falls back to a default `AWQConfig()`.\n',
            "0.10",
        ),
        # a sentence's final stop is no part of its last word; the negation is the next sentence's
        (
            "- 25 built-in model types, including llama and gpt_oss. `qwen3` has no template in 0.10.\n",
            "0.10",
        ),
        (
            "| Release | Python |\n|---|---|\n| 0.8 | `>=3.9.0,<3.13` |\n| 0.8.1 | `>=3.9.0,<3.13` |\n"
            "| 0.8.2 | `>=3.10.0,<3.13` |\n",
            "0.8.2",
        ),  # the 0.8 row is release 0.8, not the 0.8 series
    ],
)
def test_round_20_true_text_says_nothing(tmp_path, body, version):
    assert not _audit(tmp_path, f"## Notes\n\n{body}", version), body


def test_the_negative_controls_of_those_true_texts_are_checked(tmp_path):
    flag = "## Notes\n\n| flag | default |\n|---|---|\n| `--exclude_nodes` | node1 |\n"
    assert _lines(_audit(tmp_path / "f", flag, "0.12.post1")) == [(10, "cli-flag-default-changed")]
    rows = "## Notes\n\n| Release | Python |\n|---|---|\n| 0.8.2 | `>=3.9.0,<3.13` |\n"
    assert _lines(_audit(tmp_path / "r", rows, "0.8.2")) == [(10, "python-version-mismatch")]


def test_what_replaced_an_old_name_is_current_unless_the_sentence_dates_it(tmp_path):
    # METADATA: 0.11 onnxslim>=0.1.77, 0.11.2 onnxslim>=0.1.84; quark/shapeshifter/ is 0.12.post1's
    body = "## Deps\n\nonnxsim==0.4.36 was replaced by `onnxslim>=0.1.84`.\n"
    assert _lines(_audit(tmp_path / "w", body, "0.11")) == [(8, "dependency-range-mismatch")]
    assert not _audit(tmp_path / "r", body, "0.11.2")
    dated = "## Files\n\nIn 0.12.post1 `quark/onnx_adapter/` is replaced by `quark/shapeshifter/`.\n"
    assert not _audit(tmp_path / "d", dated, "0.11.2")


def test_a_positional_argument_s_values_are_checked_in_prose_counts_and_commands(tmp_path):
    # 0.13 quark/experimental/torch/mixed_precision_planner/cli.py: parser.add_argument("stage", choices=_STAGES),
    # _STAGES = decision-space, sensitivity-profile, search, select-best-plan, build-qconfig, run
    listed = (
        "## torch-mixed-precision\n\nSix stages exist: decision-space,\nsensitivity-profile, search, "
        "select-best-plan, build-qconfig and export-plan.\n"
    )
    assert _lines(_audit(tmp_path / "l", listed, "0.13")) == [(9, "cli-flag-choice-invalid")]
    assert not _audit(tmp_path / "lt", listed.replace("export-plan", "run"), "0.13")
    counted = "## torch-mixed-precision\n\nThe planner has seven stages.\n"
    assert _lines(_audit(tmp_path / "c", counted, "0.13")) == [(8, "command-count-mismatch")]
    assert not _audit(tmp_path / "ct", counted.replace("seven", "six"), "0.13")
    run = (
        "## torch-mixed-precision\n\n```bash\nquark-cli torch-mixed-precision export-plan --strategy s.yaml\n"
        "quark-cli torch-mixed-precision <STAGE> --strategy s.yaml\n```\n"
    )
    found = _audit(tmp_path / "r", run, "0.13")
    assert _lines(found) == [(9, "cli-flag-choice-invalid")] and found[0].kind == "breaking"
    assert not _audit(tmp_path / "rt", run.replace("export-plan", "search"), "0.13")


@pytest.mark.parametrize(
    ("said", "version", "rule", "right"),
    [
        # 0.10 quark/experimental/cli/torch_llm_ptq.py --pack_method choices=['order', 'reorder']
        (
            "The `--pack_method` flag of quark-cli torch-llm-ptq takes order, reorder or interleave, and reorder "
            "is what you get by default.",
            "0.10",
            "cli-flag-choice-invalid",
            ("order, reorder or interleave", "order or reorder"),
        ),
        # 0.9 quark/onnx/quantize.py quantize_static(calibrate_method=CalibrationMethod.MinMax)
        (
            "Without an explicit `calibrate_method`, `quantize_static` calibrates with `PowerOfTwoMethod.MinMSE`.",
            "0.9",
            "python-default-changed",
            ("`PowerOfTwoMethod.MinMSE`", "`MinMax`"),
        ),
        # 0.11.2 quark/torch/quantization/config/config.py OCP_MXFP4Spec.is_dynamic: bool = True
        (
            "OCP_MXFP4Spec needs ch_axis; is_dynamic defaults to False.",
            "0.11.2",
            "python-default-changed",
            ("False", "True"),
        ),
    ],
)
def test_round_20_defaults_and_choices_in_more_phrasings(tmp_path, said, version, rule, right):
    body = f"## Notes\n\n{said}\n"
    assert _lines(_audit(tmp_path / "w", body, version)) == [(8, rule)], said
    assert not _audit(tmp_path / "r", body.replace(*right), version), said


# --- round 21 (tuned on sync_dev22, outside the repository; its first score on round 20's code was
# 35/53 and 37/44) ---


@pytest.mark.parametrize(
    ("body", "version"),
    [
        # 0.13 main.py registers no torch-ptq and no register-template subcommand
        (
            "The help of `--template_file` points to `quark-cli register-template -h`. Neither torch-ptq nor "
            "register-template is registered as a subcommand in 0.13.\n",
            "0.13",
        ),
        # 0.11 moved model_preparation.py to quark/torch/utils/llm/
        (
            "Note: model_preparation.py now lives in quark/torch/utils/llm/ rather than under "
            "quark/experimental/cli/torch_llm/llm_utils/.\n",
            "0.11",
        ),
        # 0.10 torch_llm_ptq.py: --eval_batch_size default "8", help "Default 1"
        (
            'Note: the help text of `--eval_batch_size` of quark-cli torch-llm-ptq says "Default 1", but the '
            'parser default is the string "8".\n',
            "0.10",
        ),
        ("- **Dtype**: int8, uint8, fp8_e5m2, fp8_e4m3, fp6_e3m2, fp6_e2m3, fp4, mx6, mx9, bfp16\n", "0.13"),
        ("SVDQuantConfig is not one of the names get_config accepts; build it by hand.\n", "0.12.post1"),
    ],
)
def test_round_21_true_text_says_nothing(tmp_path, body, version):
    assert not _audit(tmp_path, f"## Notes\n\n{body}", version), body


@pytest.mark.parametrize(
    ("body", "version", "expected"),
    [
        # 0.13 DefaultConfigMapping has XINT8; names are matched exactly
        (
            '```python\nfrom quark.onnx import QConfig\ncfg = QConfig.get_default_config("XInt8")\n```\n',
            "0.13",
            [(10, "onnx-config-misspelt")],
        ),
        # 0.11 template.py registers 18 schemes
        (
            "It is looked up in LLMTemplate, which knows the twenty built-in schemes:\n",
            "0.11",
            [(8, "scheme-count-mismatch")],
        ),
        # 0.12.post1 DEFAULT_TEMPLATES: 41 templates; "compared with 0.11.2" names the other release
        (
            "LLMTemplate ships 45 model templates in this release; a few are new compared with 0.11.2.\n",
            "0.12.post1",
            [(8, "model-count-mismatch")],
        ),
        # 0.12.post1 config.py QConfig.min_kv_scale: float = 0.0
        (
            "### QConfig fields and defaults\n\n| Field | Default |\n|---|---|\n| min_kv_scale | 1.0 |\n",
            "0.12.post1",
            [(12, "python-default-changed")],
        ),
    ],
)
def test_round_21_drift_in_more_phrasings(tmp_path, body, version, expected):
    assert _lines(_audit(tmp_path, f"## Notes\n\n{body}", version)) == expected, body


def test_a_list_introduced_as_defaults_states_each_item_s_default(tmp_path):
    # 0.10 quark/experimental/cli/quark_onnx/onnx_ptq.py --num_calib_data default 1000
    body = (
        "## onnx-ptq\n\nDefaults when a flag of quark-cli onnx-ptq is omitted:\n\n"
        "1. `--num_calib_data` is 512 (the number of calibration samples)\n"
    )
    assert _lines(_audit(tmp_path / "w", body, "0.10")) == [(10, "cli-flag-default-changed")]
    assert not _audit(tmp_path / "r", body.replace("512", "1000"), "0.10")


@pytest.mark.parametrize(
    ("body", "version"),
    [
        # 0.13 main.py: no torch-ptq subcommand; the docstring's synopsis still names it
        ("The synopsis of `main.py` shows `quark-cli torch-ptq`; that subcommand does not exist.\n", "0.13"),
        ("The synopsis mentions `quark-cli torch-ptq`, but no such subcommand exists.\n", "0.13"),
        # 0.12.post1 METADATA numpy>=2.0; 0.11.x pinned numpy<=2.1.3
        ("* `numpy>=2.0` (0.11.x pinned `numpy<=2.1.3`).\n", "0.12.post1"),
        # 0.12.post1 renames quark.onnx_adapter to quark.shapeshifter (0.11 has the former)
        (
            "It is `quark.onnx_adapter` here. 0.12.post1 later renames that package to `quark.shapeshifter`.\n",
            "0.11",
        ),
        # 0.8 ModelImporter.import_model_info
        ("* `ModelImporter(model_info_dir)` has `import_model_info` and `import_model`.\n", "0.8"),
        # 0.13 quark-cli onnx-autosearch --config default S8S8_AAWS_ADAROUND (onnx-ptq's is XINT8)
        (
            "## onnx-ptq\n\n* `onnx-autosearch`: `--model_name` is required; `--config` defaults to "
            "`S8S8_AAWS_ADAROUND`.\n",
            "0.13",
        ),
        # 0.13 export-onnx takes --model-name; onnx-ptq takes --model_name
        (
            "## onnx-ptq\n\n* `export-onnx` uses dashed flags (`--model-name`) while `export-oga` takes "
            "`--model_path`.\n",
            "0.13",
        ),
    ],
)
def test_round_21_more_true_text_says_nothing(tmp_path, body, version):
    assert not _audit(tmp_path, f"## Notes\n\n{body}", version), body


# --- round 22 (tuned on the all-true clean_13, outside the repository) ---


@pytest.mark.parametrize(
    ("body", "version"),
    [
        # 0.11 METADATA: Requires-Python >=3.9.0,<3.13; classifiers 3.10, 3.11, 3.12
        ("* `Requires-Python: >=3.9.0,<3.13`; the classifiers name Python 3.10, 3.11 and 3.12.\n", "0.11"),
        # 0.9 METADATA: the same range and classifiers
        (
            "`Requires-Python: >=3.9.0,<3.13`, though the classifiers only list Python 3.10, 3.11\nand 3.12.\n",
            "0.9",
        ),
        # 0.12.post1 METADATA onnx>=1.21.0,<=1.22.0; 0.11's was onnx>=1.16.0,<=1.19.0
        ("* `onnx>=1.21.0,<=1.22.0` (0.11.x: `onnx>=1.16.0,<=1.19.0`).\n", "0.12.post1"),
        # 0.13 quark/onnx/__init__.py raises ImportError when onnxruntime is not installed
        (
            '`quark.onnx` imports `onnxruntime` on import and raises `ImportError` ("Quark depends on\n'
            'ONNXRuntime...") when it is missing.\n',
            "0.13",
        ),
        # 0.13 quark/onnx/quantization/config/config.py QConfig(..., **kwargs) keeps extras in extra_options
        (
            "* `QConfig(global_config, specific_layer_config=None, layer_type_config=None, exclude=None,\n"
            "  algo_config=None, use_external_data_format=False, **kwargs)`: the `None` defaults become\n"
            "  `{}`, `{}`, `[]` and `[]` in the body, and extra keyword arguments are kept in\n"
            "  `extra_options`.\n\n## `quark-cli onnx-ptq`\n\nRun it.\n",
            "0.13",
        ),
        # 0.10 torch_llm_ptq.py took w_fp8_a_fp8 and --model_export hf_format; 0.13 takes neither
        (
            "Old 0.10 command and its 0.13 equivalent:\n\n```bash\n# 0.10\nquark-cli torch-llm-ptq "
            "--model_dir $MODEL --quant_scheme w_fp8_a_fp8 \\\n    --model_export hf_format --output_dir out/\n"
            "# 0.13\nquark-cli torch-llm-ptq --model_dir $MODEL --quant_scheme fp8 --output_dir out/\n```\n",
            "0.13",
        ),
    ],
)
def test_round_22_true_text_says_nothing(tmp_path, body, version):
    assert not _audit(tmp_path, f"## Notes\n\n{body}", version), body


@pytest.mark.parametrize(
    ("body", "version", "expected"),
    [
        # 0.11 METADATA classifiers: 3.10, 3.11, 3.12 only
        (
            "The classifiers list Python 3.10, 3.11, 3.12 and 3.13.\n",
            "0.11",
            [(8, "python-version-mismatch")],
        ),
        # the aside dates the old pins only: the current one is still checked (0.12.post1 onnx<=1.22.0)
        (
            "* `onnx>=1.20.0,<=1.22.0` (0.11.x: `onnx>=1.16.0,<=1.19.0`).\n",
            "0.12.post1",
            [(8, "dependency-range-mismatch")],
        ),
        # the same failure without its condition is a claim: 0.13 has quark.onnx
        (
            "`quark.onnx` imports `onnxruntime` on import and raises `ImportError`.\n",
            "0.13",
            [(8, "name-stated-unavailable")],
        ),
        # a comment labelling the audited release leaves its commands checked (0.13 has no w_fp8_a_fp8)
        (
            "```bash\n# 0.10\nquark-cli torch-llm-ptq --model_dir m --quant_scheme w_fp8_a_fp8 --output_dir o\n"
            "# 0.13\nquark-cli torch-llm-ptq --model_dir m --quant_scheme w_fp8_a_fp8 --output_dir o\n```\n",
            "0.13",
            [(12, "scheme-unknown")],
        ),
    ],
)
def test_round_22_drift_beside_those_phrasings(tmp_path, body, version, expected):
    assert _lines(_audit(tmp_path, f"## Notes\n\n{body}", version)) == expected, body


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("# 0.10", "==0.10.*"),
        ("# Quark 0.13 (this release)", "==0.13.*"),
        ("// since 0.11", ">=0.11"),
        ("# up to 0.11.2", "<=0.11.2"),
        ("# amd-quark>=0.12 only", ">=0.12"),
        ("# --model_export was removed in 0.12", None),  # a remark, not a label
        ("# 0.10 -> 0.13", None),  # two releases
        ("x = 1  # 0.10", None),  # code before the comment
    ],
)
def test_a_code_comment_labels_the_lines_after_it_only_when_it_is_a_label(line, expected):
    from quarkci.skills.claims.context import comment_label

    assert comment_label(line) == expected
