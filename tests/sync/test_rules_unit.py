"""Rules on hand-built facts and claims: each rule's positive case and its negative control."""

from __future__ import annotations

from quarkci.facts.base import FactItem, FactSet
from quarkci.skills.model import Claim
from quarkci.sync.rules import (
    export_format_unknown,
    fact_unverifiable,
    source_path_missing,
    torch_index_tag_unknown,
    torch_version_mismatch,
    upstream_fact_moved,
)
from quarkci.sync.state import AuditState, UpstreamView


def view(
    version: str, kinds: dict[str, list[FactItem]], files=(), coverage=("quark", "metadata"), unavailable=None
) -> UpstreamView:
    facts = FactSet(
        version=version,
        label=f"amd-quark=={version}",
        coverage=frozenset(coverage),
        kinds=kinds,
        unavailable=unavailable or {},
    )
    return UpstreamView(spec=f"amd-quark=={version}", kind="wheel", facts=facts, files=frozenset(files))


def claim(kind: str, value: str, line: int = 3, **context) -> Claim:
    return Claim(kind=kind, value=value, skill="s", file="s/SKILL.md", line=line, context=context)


def state(claims, upstream, baseline=None, text: str = "") -> AuditState:
    return AuditState([], claims, upstream, baseline, lambda _f: text)


def test_export_format_unknown_and_control():
    up = view(
        "1.0",
        {
            "export_formats": [
                FactItem("export_safetensors", "quark/torch/export/api.py", 10),
                FactItem("GgufExporter", "quark/torch/export/api.py", 40),
            ]
        },
    )
    found = export_format_unknown.check(
        state(
            [
                claim("export_format", "onnx"),
                claim("export_format", "gguf"),
                claim("export_format", "safetensors"),
            ],
            up,
        )
    )
    assert [f.subject for f in found] == ["onnx"] and found[0].change == "removed"


def test_upstream_fact_moved_reports_skills_reading_the_old_file():
    old = "quark/torch/utils/llm/model_preparation.py"
    new = "quark/torch/quantization/config/template.py"
    base = view("0.10", {"model_templates": [FactItem("llama", old, 5), FactItem("opt", old, 6)]})
    up = view(
        "0.11", {"model_templates": [FactItem("llama", new, 50), FactItem("opt", new, 51)]}, files=[old, new]
    )
    sk = claim("path", old, line=4, field="source_knowledge")
    found = upstream_fact_moved.check(state([sk, claim("path", new, line=5)], up, base))
    assert len(found) == 1
    assert found[0].change == "moved" and found[0].subject == f"{old} -> {new}"
    assert "2 model_templates facts" in found[0].source_says
    # control: no move when the facts stayed
    same = view(
        "0.11", {"model_templates": [FactItem("llama", old, 5), FactItem("opt", old, 6)]}, files=[old]
    )
    assert upstream_fact_moved.check(state([sk], same, base)) == []


def test_missing_source_file_points_at_where_its_facts_went():
    old = "quark/torch/utils/llm/model_preparation.py"
    new = "quark/torch/quantization/config/template.py"
    base = view("0.10", {"model_templates": [FactItem("llama", old, 5)]})
    up = view("0.11", {"model_templates": [FactItem("llama", new, 50)]}, files=[new])
    (found,) = source_path_missing.check(state([claim("path", old, field="source_knowledge")], up, base))
    assert f"most likely now `{new}` (by content: holds 1 fact amd-quark 0.10 read from the file)" in (
        found.source_says
    )
    # paths outside upstream trees, absolute or escaping paths are not upstream claims
    odd = [claim("path", "/etc/passwd"), claim("path", "quark/../x.py"), claim("path", "references/a.md")]
    assert source_path_missing.check(state(odd, up, base)) == []


def test_torch_rules_use_declared_requirement_and_index_tags():
    up = view(
        "1.0",
        {
            "torch_matrix": [
                FactItem("torch", "METADATA", 9, {"specifier": ">=2.5", "source": "METADATA"}),
                FactItem("rocm6.4", "docs/source/install.rst", 20, {"accelerator": "rocm"}),
            ]
        },
    )
    text = "- PyTorch 2.2 or newer, index rocm6.4 or cu118"
    claims = [
        claim("torch_version", ">=2.2", line=1, text="PyTorch 2.2 or newer"),
        claim("torch_version", "rocm6.4", line=1, aspect="accelerator_tag"),
        claim("torch_version", "cu118", line=1, aspect="accelerator_tag"),
    ]
    (mismatch,) = torch_version_mismatch.check(state(claims, up, text=text))
    assert mismatch.fix.new == "- PyTorch 2.5 or newer, index rocm6.4 or cu118"
    (tag,) = torch_index_tag_unknown.check(state(claims, up, text=text))
    assert tag.subject.startswith("PyTorch index cu118")


def test_fact_unverifiable_only_when_the_kind_is_unavailable():
    claims = [claim("scheme", "fp8")]
    blind = view(
        "1.0", {"schemes": []}, unavailable={"schemes": ["quark/torch/quantization/config/template.py"]}
    )
    (found,) = fact_unverifiable.check(state(claims, blind))
    assert found.change == "not_shown"
    seen = view("1.0", {"schemes": [FactItem("fp8", "t.py", 1)]})
    assert fact_unverifiable.check(state(claims, seen)) == []


def test_paths_outside_the_wheel_are_unverifiable_unless_bundled():
    from quarkci.sync.rules import source_path_unverifiable

    up = view("0.13", {}, files=["quark/_bundled_skills/_legacy_impl/CONTRIBUTING.md"])
    claims = [
        claim("path", "skills/_legacy_impl/CONTRIBUTING.md"),
        claim("path", "skills/_legacy_impl/GONE.md"),
        claim("path", "docs/source/install.rst"),
        claim("path", "quark/x.py"),
    ]
    found = source_path_unverifiable.check(state(claims, up))
    assert sorted(f.subject for f in found) == ["docs/source/install.rst", "skills/_legacy_impl/GONE.md"]
    assert all(f.change == "not_shown" for f in found)


def test_a_stale_torch_index_tag_is_fixed_to_the_one_tag_of_its_accelerator():
    def up(*tags):
        items = [
            FactItem(t, "tools/ci/install_torch.sh", n, {"accelerator": a}) for n, (t, a) in enumerate(tags)
        ]
        return view("1.0", {"torch_matrix": items})

    text = "pip install torch --index-url https://download.pytorch.org/whl/cu126"
    tag = claim(
        "torch_version", "cu126", line=1, aspect="accelerator_tag", text="download.pytorch.org/whl/cu126"
    )
    (found,) = torch_index_tag_unknown.check(
        state([tag], up(("cu128", "cuda"), ("rocm6.4", "rocm")), text=text)
    )
    assert found.fix.new == "pip install torch --index-url https://download.pytorch.org/whl/cu128"
    # negative control: two CUDA tags, which one was meant is the author's call
    (found,) = torch_index_tag_unknown.check(
        state([tag], up(("cu128", "cuda"), ("cu130", "cuda")), text=text)
    )
    assert found.fix is None


def test_a_stale_torch_index_tag_on_a_source_tree_is_fixed_by_one_fix_run(tmp_path, capsys):
    import json

    from quarkci.cli import main

    tree = tmp_path / "quark-src"
    (tree / "quark").mkdir(parents=True)
    (tree / "tools" / "ci").mkdir(parents=True)
    (tree / "pyproject.toml").write_text(
        '[project]\nname = "amd-quark"\nversion = "0.99"\n', encoding="utf-8"
    )
    (tree / "quark" / "__init__.py").write_text("", encoding="utf-8")
    (tree / "tools" / "ci" / "install_torch.sh").write_text(
        "pip install torch --index-url https://download.pytorch.org/whl/rocm6.4\n"
        "pip install torch --index-url https://download.pytorch.org/whl/cu128\n",
        encoding="utf-8",
    )
    skill = tmp_path / "skills" / "install" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: install\ndescription: x\n---\n\n```bash\n"
        "pip install torch --index-url https://download.pytorch.org/whl/cu126\n```\n",
        encoding="utf-8",
    )
    argv = ["sync", "--upstream", str(tree), "--skills", str(tmp_path / "skills"), "--baseline", "none"]
    assert main([*argv, "--out", str(tmp_path / "r1"), "--fix", "--fail-on", "none"]) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "r1" / "validation_report.json").read_text(encoding="utf-8"))
    assert report["applied_fixes"] == ["install/SKILL.md:7: PyTorch index cu126 -> cu128"]
    assert "download.pytorch.org/whl/cu128" in skill.read_text(encoding="utf-8")
    assert report["summary"].endswith("; 1 fixes applied, 0 fixable left")
