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


def _sync(tmp_path, run: str) -> dict:
    from tests.realwheels import real_wheel

    argv = [
        "sync",
        "--upstream",
        str(real_wheel("0.13")),
        "--baseline",
        str(real_wheel("0.12.post1")),
        "--skills",
        str(tmp_path / "skills"),
        "--fix",
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
