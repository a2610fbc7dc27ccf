"""Claim extraction (:mod:`quarkci.skills.claims`) over the skills bundled in the real amd-quark 0.13
wheel (downloaded from PyPI at test time, cached); every value was checked by reading the wheel's
quark/_bundled_skills/ by hand."""

from __future__ import annotations

from collections import Counter

import pytest

from quarkci.skills import SnapshotSource, discover
from quarkci.skills.claims import extract_claims
from quarkci.skills.model import Claim
from tests.realwheels import real_snapshot

pytestmark = pytest.mark.real


@pytest.fixture(scope="module")
def bundled():
    source = SnapshotSource(real_snapshot("0.13"))
    skills = discover(source)
    claims = [c for s in skills for c in extract_claims(s, source.read_text)]
    return skills, claims


def _find(claims: list[Claim], file: str, line: int, kind: str, value: str) -> Claim:
    (match,) = [c for c in claims if (c.file, c.line, c.kind, c.value) == (file, line, kind, value)]
    return match


def test_0_13_claims_by_kind(bundled):
    _, claims = bundled
    counts = Counter(c.kind for c in claims)
    # every kind is found in the real skills; the totals below are what the extractors give today
    assert set(counts) == {
        "cli_flag",
        "scheme",
        "scheme_count",
        "model_type",
        "model_type_count",
        "python_version",
        "torch_version",
        "transformers_version",
        "export_format",
        "path",
        "python_name",
        "python_keyword",
        "python_argument",
        "python_call",  # a call in a parsed Python block, with what it passes
        "command",
        "dependency",
        "cli_flag_default",
        "link",
        "extra",  # `pip install "amd-quark[cli]"` (a `requirement` needs the vocabulary, not given here)
    }
    # 52 relative links in 38 files, none leaving the tree (README/CONTRIBUTING files are not read)
    assert counts["link"] == 52 and len({c.file for c in claims if c.kind == "link"}) == 38
    assert not any(c.value.startswith("../") for c in claims if c.kind == "link")
    assert counts["scheme_count"] == 1 and counts["model_type_count"] == 1
    assert counts["model_type"] == 36
    assert counts["path"] >= 157  # 157 source_knowledge entries + inline upstream paths
    assert sum(1 for c in claims if c.kind == "path" and c.context.get("field") == "source_knowledge") == 157


def test_0_13_quant_plan_scheme_table(bundled):
    """'Available Quantization Schemes (21 total)' lists 22 names (the uint4 row abbreviates four)."""
    _, claims = bundled
    plan = "_legacy_impl/l1-atomic/torch/quark-torch-quant-plan/SKILL.md"
    assert _find(claims, plan, 56, "scheme_count", "21").context["where"] == "heading"
    table = [c for c in claims if c.file == plan and c.kind == "scheme" and c.context["where"] == "table"]
    assert len(table) == 22
    assert {c.value for c in table if c.line == 66} == {
        "uint4_wo_32",
        "uint4_wo_64",
        "uint4_wo_128",
        "uint4_wo_per_channel",
    }
    assert all(
        c.context["enumerates"] and c.context["count_claimed"] == 21 and c.context["count_line"] == 56
        for c in table
    )


def test_0_13_exact_claims(bundled):
    _, claims = bundled
    flag = _find(claims, "quark-torch-ptq/SKILL.md", 116, "cli_flag", "--quant_scheme")
    assert flag.context["command"] == "quark-cli torch-llm-ptq" and not flag.context["inferred"]
    assert _find(claims, "quark-torch-ptq/SKILL.md", 25, "python_version", "<3.14,>=3.11")
    assert _find(claims, "quark-torch-ptq/SKILL.md", 25, "torch_version", ">=2.2")
    assert _find(claims, "quark-install/SKILL.md", 65, "transformers_version", "<5.16")
    intake = "_legacy_impl/l1-atomic/torch/quark-torch-model-intake/SKILL.md"
    assert _find(claims, intake, 66, "model_type_count", "36")
    assert _find(claims, intake, 98, "transformers_version", ">=4.51.0").context["model_types"] == ["llama4"]
    tag = _find(
        claims, "_legacy_impl/l1-atomic/torch/quark-torch-install/SKILL.md", 81, "torch_version", "rocm6.4"
    )
    assert tag.context["aspect"] == "accelerator_tag"
    sk = _find(
        claims,
        "_legacy_impl/l1-atomic/torch/quark-torch-install/SKILL.md",
        12,
        "path",
        "tools/ci/install_torch.sh",
    )
    assert sk.context["field"] == "source_knowledge"
