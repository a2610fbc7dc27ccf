"""Round trip per fix kind on the real 0.13 wheel: fix -> re-audit -> the finding is gone, no new finding
appears -> a second --fix is a no-op (nothing applied, no file changed)."""

from __future__ import annotations

import json

import pytest

from quarkci.cli import main

pytestmark = pytest.mark.real

CASES = {
    # rule: (skill name, body, the text the fix must leave behind)
    "dependency-range-mismatch": (
        "quark-onnx-install",
        '```bash\npip install "onnxruntime>=1.22.2,<=1.25.1"\n```\n',
        'pip install "onnxruntime<=1.28.0,>=1.22.2"',
    ),
    "cli-flag-default-changed": (
        "ptq",
        "```bash\nquark-cli torch-llm-ptq --model_dir m --quant_scheme fp8\n```\n\n"
        "`--num_calib_data` defaults to `128`.\n",
        "`--num_calib_data` defaults to `512`.",
    ),
    "python-version-mismatch": (
        "env",
        "Requires Python `>=3.10,<3.13`.\n",
        "Requires Python `>=3.11,<3.14`.",
    ),
    "transformers-version-mismatch": ("env", "Pin `transformers<5.16`.\n", "Pin `transformers<5.17`."),
    "scheme-list-incomplete": (
        "plan",
        "## Available Quantization Schemes\n\n| Scheme | Description | Use Case |\n| --- | --- | --- |\n"
        "| `fp8` | FP8 | serving |\n",
        "| `mx9` | new since amd-quark 0.12.post1; describe before use |  |",
    ),
}


def _sync(tmp_path, run: str, fix: bool = True) -> dict:
    from tests.realwheels import real_wheel

    argv = [
        "sync",
        "--upstream",
        str(real_wheel("0.13")),
        "--baseline",
        str(real_wheel("0.12.post1")),
        "--skills",
        str(tmp_path / "skills"),
        *(["--fix"] if fix else []),
        "--out",
        str(tmp_path / run),
        "--fail-on",
        "none",
    ]
    assert main(argv) == 0
    return json.loads((tmp_path / run / "validation_report.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("rule", sorted(CASES))
def test_fix_round_trip(tmp_path, capsys, rule):
    name, body, expected = CASES[rule]
    skill = tmp_path / "skills" / name / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(f"---\nname: {name}\ndescription: round trip\n---\n\n{body}", encoding="utf-8")
    first = _sync(tmp_path, "r1")
    assert any(a for a in first["applied_fixes"]), rule
    text = skill.read_text(encoding="utf-8")
    assert expected in text
    second = _sync(tmp_path, "r2")
    capsys.readouterr()
    assert second["applied_fixes"] == [] and second["changed_files"] == []
    assert skill.read_text(encoding="utf-8") == text
    after = [f"{f['rule']} {f['subject']}" for f in second["findings"] if f["kind"] != "unverifiable"]
    assert after == []  # the fixed finding is gone and the edit introduced no new one


def _one_skill(tmp_path, name: str, body: str):
    skill = tmp_path / "skills" / name / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(f"---\nname: {name}\ndescription: fixes\n---\n\n{body}", encoding="utf-8")
    return skill


def test_one_fix_run_fixes_every_range_on_a_line(tmp_path, capsys):
    # 0.13 METADATA: onnx <=1.22.0,>=1.21.0; onnxruntime <=1.28.0,>=1.22.2 ('cli'); transformers >5,<5.17
    skill = _one_skill(
        tmp_path,
        "quark-onnx-install",
        "Pin `onnx>=1.16,<1.19`, `onnxruntime>=1.18,<1.20` and `transformers>=4.40,<4.50` together.\n",
    )
    first = _sync(tmp_path, "r1")
    assert len(first["applied_fixes"]) == 3
    assert skill.read_text(encoding="utf-8").endswith(
        "Pin `onnx<=1.22.0,>=1.21.0`, `onnxruntime<=1.28.0,>=1.22.2` and `transformers>5,<5.17` together.\n"
    )
    assert first["summary"].endswith("; 3 fixes applied, 0 fixable left")
    second = _sync(tmp_path, "r2")
    capsys.readouterr()
    assert second["applied_fixes"] == [] and second["changed_files"] == []


@pytest.mark.parametrize(
    ("body", "line", "expected"),
    [
        (
            '```toml\n[project]\nrequires-python = ">=3.10,<3.13"\n```\n',
            8,
            'requires-python = ">=3.11,<3.14"',
        ),
        ('requires-python = ">=3.10,<3.13"\n', 6, 'requires-python = ">=3.11,<3.14"'),
        ('```\nrequires-python = ">=3.10,<3.13"\n```\n', 7, 'requires-python = ">=3.11,<3.14"'),
        (
            'Set `requires-python = ">=3.10,<3.13"` in pyproject.toml.\n',
            6,
            '`requires-python = ">=3.11,<3.14"`',
        ),
    ],
)
def test_a_bare_requires_python_line_is_fixed(tmp_path, capsys, body, line, expected):
    # 0.13 METADATA: Requires-Python >=3.11,<3.14; the key states exactly that range, so the fix is exact
    skill = _one_skill(tmp_path, "env", body)
    first = _sync(tmp_path, "r1")
    capsys.readouterr()
    assert first["applied_fixes"] == [f"env/SKILL.md:{line}: Python >=3.10,<3.13 -> >=3.11,<3.14"]
    assert expected in skill.read_text(encoding="utf-8")
    assert first["summary"].endswith("; 1 fixes applied, 0 fixable left")
    assert [f for f in first["findings"] if f["kind"] == "mechanical"] == []


def test_a_mechanical_finding_without_a_fix_is_counted_as_a_hand_edit(tmp_path, capsys):
    # a model's own transformers floor mixed with Quark's cap (0.13: >5,<5.17): no exact rewrite exists
    _one_skill(tmp_path, "env", '```yaml\ntransformers_version_required: ">=4.40,<4.50"\n```\n')
    report = _sync(tmp_path, "r1")
    capsys.readouterr()
    (left,) = [f for f in report["findings"] if f["kind"] == "mechanical"]
    assert left["rule"] == "transformers-version-mismatch" and left["fix"] is None
    assert report["summary"].endswith("; 0 fixes applied, 0 fixable left, 1 mechanical to edit by hand")


MODELS = "| Model | Notes |\n| --- | --- |\n| llama | ok |\n| qwen2 | ok |\n| mistral | ok |\n| phi3 | ok |\n"


def test_a_table_presented_as_a_selection_is_never_completed_row_by_row(tmp_path, capsys):
    # 0.13 quark/torch/quantization/config/template.py registers 51 model templates; the table shows 4
    skill = _one_skill(
        tmp_path, "intake", "## Supported models\n\nModels we have run with Quark:\n\n" + MODELS
    )
    audit = _sync(tmp_path, "audit", fix=False)
    (only,) = [f for f in audit["findings"] if f["kind"] != "unverifiable"]
    assert (only["rule"], only["subject"]) == ("model-list-incomplete", "Supported models: not exhaustive")
    assert "defines 47 more model templates" in only["source_says"]
    assert only["fix"]["insert_after"] is False and only["fix"]["line"] == 8
    fixed = _sync(tmp_path, "r1")
    assert fixed["applied_fixes"] == ["intake/SKILL.md:8: say the list is not exhaustive"]
    text = skill.read_text(encoding="utf-8")
    assert (
        "Models we have run with Quark (not exhaustive):" in text and text.count("\n| ") == 6
    )  # header, rule, the 4 rows: none added
    again = _sync(tmp_path, "r2")
    capsys.readouterr()
    assert (
        again["applied_fixes"] == [] and [f for f in again["findings"] if f["kind"] != "unverifiable"] == []
    )


def test_a_table_presented_as_a_selection_by_its_heading_is_no_list(tmp_path, capsys):
    _one_skill(tmp_path, "intake", "## Models we have run\n\n" + MODELS)
    report = _sync(tmp_path, "r1")
    capsys.readouterr()
    assert report["applied_fixes"] == [] and report["findings"] == []


def test_a_table_that_says_it_lists_all_is_completed(tmp_path, capsys):
    # negative control: "All supported models" says it lists all: one row per missing template
    skill = _one_skill(tmp_path, "intake", "## All supported models\n\n" + MODELS)
    report = _sync(tmp_path, "r1")
    capsys.readouterr()
    assert len(report["applied_fixes"]) == 47
    assert "| `gpt_oss` | describe before use |" in skill.read_text(encoding="utf-8")


def test_a_scheme_table_presented_as_a_selection_is_marked_not_exhaustive(tmp_path, capsys):
    # 0.13 config/template.py registers 28 schemes; the table shows fp8 only, as "Schemes we have tested"
    body = (
        "## Available Quantization Schemes\n\nSchemes we have tested:\n\n"
        "| Scheme | Description |\n| --- | --- |\n| `fp8` | FP8 |\n"
    )
    skill = _one_skill(tmp_path, "plan", body)
    audit = _sync(tmp_path, "audit", fix=False)
    (only,) = [f for f in audit["findings"] if f["kind"] != "unverifiable"]
    assert (only["rule"], only["subject"]) == (
        "scheme-list-incomplete",
        "Available Quantization Schemes: not exhaustive",
    )
    assert "defines 27 more schemes" in only["source_says"]
    fixed = _sync(tmp_path, "r1")
    capsys.readouterr()
    assert fixed["applied_fixes"] == ["plan/SKILL.md:8: say the list is not exhaustive"]
    assert "Schemes we have tested (not exhaustive):" in skill.read_text(encoding="utf-8")
    assert [f for f in fixed["findings"] if f["kind"] != "unverifiable"] == []
