"""Claim extraction on our own miniature skills: exact claims with lines, plus negative controls."""

from __future__ import annotations

from pathlib import Path

import pytest

from quarkci.facts import vocabulary
from quarkci.skills import DirectorySource, discover
from quarkci.skills.claims import extract_claims
from quarkci.skills.model import CLAIM_KINDS, Claim

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skills"


def _claims(kind_dir: str) -> list[Claim]:
    source = DirectorySource(FIXTURES / kind_dir)
    return [c for s in discover(source) for c in extract_claims(s, source.read_text)]


def _rows(claims: list[Claim]) -> list[tuple[str, int, str, str]]:
    return [(c.file, c.line, c.kind, c.value) for c in claims]


def _one(claims: list[Claim], file: str, line: int, kind: str, value: str) -> Claim:
    (match,) = [c for c in claims if (c.file, c.line, c.kind, c.value) == (file, line, kind, value)]
    return match


POSITIVE = [
    ("adapter/SKILL.md", 6, "link", "ptq-runner/SKILL.md"),
    ("model-list/SKILL.md", 8, "model_type_count", "4"),
    ("model-list/SKILL.md", 12, "model_type", "alpha"),
    ("model-list/SKILL.md", 12, "model_type", "beta_v2"),
    ("model-list/SKILL.md", 13, "model_type", "gamma-1"),
    ("model-list/SKILL.md", 19, "extra", "cli"),
    ("model-list/SKILL.md", 22, "python_name", "DefaultConfigMapping"),
    ("ptq-runner/SKILL.md", 6, "path", "quark/torch/quantization/config/template.py"),
    ("ptq-runner/SKILL.md", 7, "path", "examples/torch/language_modeling/llm_ptq/quantize_quark.py"),
    ("ptq-runner/SKILL.md", 14, "python_version", "<3.13,>=3.10"),
    ("ptq-runner/SKILL.md", 14, "torch_version", ">=2.4"),
    ("ptq-runner/SKILL.md", 15, "transformers_version", "<4.50,>=4.45"),
    ("ptq-runner/SKILL.md", 17, "scheme_count", "5"),
    ("ptq-runner/SKILL.md", 21, "scheme", "w8a8_demo"),
    ("ptq-runner/SKILL.md", 22, "scheme", "w4_demo_16"),
    ("ptq-runner/SKILL.md", 22, "scheme", "w4_demo_32"),
    ("ptq-runner/SKILL.md", 23, "scheme", "fp8"),
    ("ptq-runner/SKILL.md", 29, "command", "quark-cli torch-llm-ptq"),
    ("ptq-runner/SKILL.md", 30, "cli_flag", "--model_dir"),
    ("ptq-runner/SKILL.md", 31, "cli_flag", "--quant_scheme"),
    ("ptq-runner/SKILL.md", 31, "scheme", "w8a8_demo"),
    ("ptq-runner/SKILL.md", 32, "cli_flag", "--layer_quant_scheme"),
    ("ptq-runner/SKILL.md", 32, "scheme", "fp8"),
    ("ptq-runner/SKILL.md", 33, "cli_flag", "--model_export"),
    ("ptq-runner/SKILL.md", 33, "export_format", "hf_format"),
    ("ptq-runner/SKILL.md", 36, "cli_flag", "--calib_size"),
    ("ptq-runner/SKILL.md", 36, "cli_flag", "--seq_len"),
    ("ptq-runner/SKILL.md", 41, "cli_flag", "--model_dir"),
    ("ptq-runner/SKILL.md", 41, "cli_flag", "--quant_scheme"),
    ("ptq-runner/SKILL.md", 41, "path", "examples/torch/language_modeling/llm_ptq/quantize_quark.py"),
    ("ptq-runner/SKILL.md", 41, "scheme", "fp8"),
    ("ptq-runner/SKILL.md", 44, "export_format", "gguf"),
    ("ptq-runner/SKILL.md", 44, "path", "quark/torch/export/api.py"),
    ("ptq-runner/SKILL.md", 49, "python_name", "quark.torch.LLMTemplate"),
    ("ptq-runner/SKILL.md", 51, "python_argument", "fp8"),
    # the call itself: what it passes, checked against the parameters the release requires
    ("ptq-runner/SKILL.md", 51, "python_call", "quark.torch.LLMTemplate.get_config"),
    ("ptq-runner/SKILL.md", 51, "python_keyword", "quark.torch.LLMTemplate.get_config(scheme=)"),
    # a method called on the imported class itself is a member claim (checked against the class)
    ("ptq-runner/SKILL.md", 51, "python_name", "quark.torch.LLMTemplate.get_config"),
    ("ptq-runner/SKILL.md", 54, "python_default", "LLMTemplate.get_config(exclude_layers=None)"),
    ("ptq-runner/references/api.md", 4, "python_name", "quark.torch.LLMTemplate"),
    ("ptq-runner/references/api.md", 7, "cli_flag", "--num_calib_data"),
    ("ptq-runner/references/api.md", 7, "cli_flag_default", "--num_calib_data=512"),
    ("ptq-runner/references/api.md", 8, "dependency", ">=1.22.2"),
    ("ptq-runner/references/api.md", 9, "cli_flag", "--device"),
    ("ptq-runner/references/api.md", 9, "cli_flag_choices", "--device=cuda|cpu"),
    ("ptq-runner/references/api.md", 10, "command", "quark-cli"),
    ("ptq-runner/references/api.md", 10, "command_count", "9"),
    ("ptq-runner/references/notes.md", 3, "torch_version", "rocm6.3"),
    ("ptq-runner/references/notes.md", 5, "cli_flag", "--num_calib_data"),
]


def test_positive_fixture_claims_exact() -> None:
    assert _rows(_claims("positive")) == POSITIVE


def test_every_claim_kind_is_declared() -> None:
    source = DirectorySource(FIXTURES / "positive")
    resolved = [
        c for s in discover(source) for c in extract_claims(s, source.read_text, vocabulary.shipped())
    ]
    assert {c.kind for c in _claims("positive")} <= set(CLAIM_KINDS)
    # the fixture exercises every kind (a `requirement` names a package of the release vocabulary)
    assert {c.kind for c in resolved} == set(CLAIM_KINDS)
    assert ("model-list/SKILL.md", 20, "requirement", "onnxslim") in _rows(resolved)
    assert ("model-list/SKILL.md", 21, "onnx_config", "XINT8") in _rows(resolved)


def test_flag_context_names_its_command() -> None:
    claims = _claims("positive")
    assert _one(claims, "ptq-runner/SKILL.md", 31, "cli_flag", "--quant_scheme").context["command"] == (
        "quark-cli torch-llm-ptq"
    )
    script = _one(claims, "ptq-runner/SKILL.md", 41, "cli_flag", "--quant_scheme").context
    assert (script["command"], script["inferred"], script["values"]) == ("quantize_quark.py", False, ["fp8"])
    layer = _one(claims, "ptq-runner/SKILL.md", 32, "cli_flag", "--layer_quant_scheme").context
    assert layer["values"] == ["lm_head", "fp8"]
    # a bare fragment in prose takes the one command of its section...
    bare = _one(claims, "ptq-runner/SKILL.md", 36, "cli_flag", "--seq_len").context
    assert (bare["command"], bare["inferred"], bare["inferred_from"]) == (
        "quark-cli torch-llm-ptq",
        True,
        "section",
    )
    # ...and none where the skill names two Quark programs (ambiguous, not guessed)
    notes = _one(claims, "ptq-runner/references/notes.md", 5, "cli_flag", "--num_calib_data").context
    assert notes["command"] is None and notes["inferred"] is True and notes["quark"] is None
    assert notes["candidates"] == ["quantize_quark.py", "quark-cli torch-llm-ptq"]


def test_scheme_context_enumeration_and_count() -> None:
    claims = _claims("positive")
    table = _one(claims, "ptq-runner/SKILL.md", 22, "scheme", "w4_demo_32").context
    assert (table["where"], table["enumerates"], table["count_claimed"], table["count_line"]) == (
        "table",
        True,
        5,
        17,
    )
    flag = _one(claims, "ptq-runner/SKILL.md", 31, "scheme", "w8a8_demo").context
    assert (flag["where"], flag["flag"], flag["enumerates"]) == ("flag", "--quant_scheme", False)


def test_model_type_context_and_versions() -> None:
    claims = _claims("positive")
    model = _one(claims, "model-list/SKILL.md", 13, "model_type", "gamma-1").context
    assert (model["enumerates"], model["count_claimed"], model["count_line"]) == (True, 4, 8)
    py = _one(claims, "ptq-runner/SKILL.md", 14, "python_version", "<3.13,>=3.10").context
    assert py["text"] == "Python 3.10 to 3.12"
    tag = _one(claims, "ptq-runner/references/notes.md", 3, "torch_version", "rocm6.3").context
    assert tag["aspect"] == "accelerator_tag"
    sk = _one(
        claims, "ptq-runner/SKILL.md", 7, "path", "examples/torch/language_modeling/llm_ptq/quantize_quark.py"
    )
    assert sk.context == {"field": "source_knowledge", "index": 1, "directory": False}
    assert sk.skill == "ptq-runner"


def test_negative_prose_words_make_no_claims() -> None:
    """fp8/int8 in prose, a 'Precision' column, JSON and Python blocks, a lone 'Python 3.12',
    'exported to ONNX', 'Qwen3.5 families' and skill-local paths are not claims."""
    assert [c for c in _claims("negative") if c.file.startswith("prose-words/")] == []


def test_negative_flags_of_other_commands_are_not_quark() -> None:
    claims = [c for c in _claims("negative") if c.file.startswith("other-cli/") and c.kind == "cli_flag"]
    # the one Quark program of the file is a command claim of its own
    assert [(c.line, c.value) for c in _claims("negative") if c.kind == "command"] == [
        (19, "quark-cli torch-llm-ptq")
    ]
    assert _rows(claims) == [
        ("other-cli/SKILL.md", 9, "cli_flag", "--quantization"),
        ("other-cli/SKILL.md", 9, "cli_flag", "--tensor-parallel-size"),
        ("other-cli/SKILL.md", 10, "cli_flag", "--upgrade"),
        ("other-cli/SKILL.md", 13, "cli_flag", "--max-model-len"),
        ("other-cli/SKILL.md", 18, "cli_flag", "--rm"),
        ("other-cli/SKILL.md", 22, "cli_flag", "--shm-size"),
        ("other-cli/SKILL.md", 26, "cli_flag", "--device"),
    ]
    commands = [c.context["command"] for c in claims]
    assert commands == ["vllm", "vllm", "pip", None, "docker", None, None]
    assert claims[-1].context["values"] == ["/dev/kfd"]  # not a program named "kfd"
    # `error: unrecognized arguments: --bogus` is a quoted message, not a command line
    assert [c.context["quark"] for c in claims] == [False, False, False, False, False, None, None]
    assert claims[3].context["candidates"] == ["pip", "vllm"]  # ambiguous among non-Quark programs
    assert claims[5].context["candidates"] == ["docker", "quark-cli torch-llm-ptq"]  # could be Quark's
    # `--quantization fp8` of vllm is no scheme claim, and --help is never a claim
    assert not any(c.kind == "scheme" or c.value == "--help" for c in claims)


def test_thin_adapter_claims_only_its_delegation_link() -> None:
    source = DirectorySource(FIXTURES / "positive")
    adapter = next(s for s in discover(source) if s.name == "adapter")
    assert adapter.delegates_to == "ptq-runner/SKILL.md"
    # its one claim is the link it delegates through (a dead one would leave the adapter useless)
    assert _rows(extract_claims(adapter, source.read_text)) == [
        ("adapter/SKILL.md", 6, "link", "ptq-runner/SKILL.md")
    ]


def test_errored_skill_has_no_claims(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "SKILL.md").write_text("---\nname: [x\n---\n`--quant_scheme fp8`\n", encoding="utf-8")
    source = DirectorySource(tmp_path)
    (skill,) = discover(source)
    assert skill.error and extract_claims(skill, source.read_text) == []


def test_unreadable_reference_is_skipped(tmp_path: Path) -> None:
    root = tmp_path
    (root / "s" / "references").mkdir(parents=True)
    (root / "s" / "SKILL.md").write_text("---\nname: s\n---\n\nUse `--seq_len 1`.\n", encoding="utf-8")
    (root / "s" / "references" / "bad.md").write_bytes(b"\xff\xfe`--x 1`")
    source = DirectorySource(root)
    (skill,) = discover(source)
    assert _rows(extract_claims(skill, source.read_text)) == [("s/SKILL.md", 5, "cli_flag", "--seq_len")]


@pytest.mark.parametrize(
    ("line", "kind", "value"),
    [
        ("Requires Python 3.11, 3.12, or 3.13.", "python_version", "<3.14,>=3.11"),
        ("Not supported: Python 3.14+", "python_version", "<3.14"),
        ("Works with PyTorch 2.2 or newer.", "torch_version", ">=2.2"),
        ("Transformers is constrained to `>5,<5.16` here.", "transformers_version", "<5.16,>5"),
        ("- `llama9` → transformers >= 4.51.0", "transformers_version", ">=4.51.0"),
    ],
)
def test_version_statement_forms(tmp_path: Path, line: str, kind: str, value: str) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "SKILL.md").write_text(f"---\nname: s\n---\n\n{line}\n", encoding="utf-8")
    source = DirectorySource(tmp_path)
    (skill,) = discover(source)
    assert _rows(extract_claims(skill, source.read_text)) == [("s/SKILL.md", 5, kind, value)]


def test_non_contiguous_python_list_is_not_a_range(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "SKILL.md").write_text(
        "---\nname: s\n---\n\nPython 3.9, 3.11 and 3.13 only.\n", encoding="utf-8"
    )
    source = DirectorySource(tmp_path)
    (skill,) = discover(source)
    assert extract_claims(skill, source.read_text) == []


def test_a_file_labelled_as_a_skeleton_to_write_is_not_an_upstream_path(tmp_path: Path) -> None:
    skill = tmp_path / "pass-author"
    skill.mkdir()
    (skill / "SKILL.md").write_text(
        "---\nname: pass-author\ndescription: write a pass\n---\n"
        "# Pass author\n\n"
        "**Skeleton** (`quark/passes/my_new_pass.py`):\n\n"
        "```python\nclass MyNewPass: ...\n```\n\n"
        "See `quark/passes/existing_pass.py` for a finished one.\n",
        encoding="utf-8",
    )
    source = DirectorySource(tmp_path)
    [found] = discover(source)
    paths = [(c.value, c.line) for c in extract_claims(found, source.read_text) if c.kind == "path"]
    assert paths == [("quark/passes/existing_pass.py", 13)]
