"""The sync (:mod:`quarkci.sync.run`, through ``quarkci sync``) on the real amd-quark 0.13 wheel and its
bundled skills, baseline 0.12.post1 (downloaded at test time, cached).

Every asserted finding was checked by hand against the wheel contents (template.py, METADATA, the
bundled SKILL.md files); see the comments.
"""

from __future__ import annotations

import pytest

from quarkci.cli import main
from quarkci.core.documents import read_artifact

pytestmark = pytest.mark.real


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from tests.realwheels import real_wheel

    out = tmp_path_factory.mktemp("real")
    code = main(
        [
            "sync",
            "--upstream",
            str(real_wheel("0.13")),
            "--baseline",
            str(real_wheel("0.12.post1")),
            "--out",
            str(out),
        ]
    )
    document = read_artifact("validation_report", out / "validation_report.json")
    return code, document


def _findings(document, rule):
    return [f for f in document["findings"] if f["rule"] == rule]


def test_release_diff_0_12_post1_to_0_13(report):
    _code, d = report
    changes = {(c["category"], c["change"], c["name"]) for c in d["release_diff"]}
    # schemes 27 -> 28: mx9 is new; nothing removed
    assert {n for cat, ch, n in changes if cat == "schemes"} == {"mx9"}
    assert not any(cat == "schemes" and ch == "removed" for cat, ch, _ in changes)
    # model templates 41 -> 51
    added = {n for cat, ch, n in changes if cat == "model_templates" and ch == "added"}
    assert added == {
        "gemma4",
        "gemma4_unified",
        "glm5_next",
        "hunyuan_v1_dense",
        "kimi_k3",
        "lfm2",
        "muse_glimmer",
        "qwen3_5",
        "qwen4_exp",
        "qwen4_exp_text",
    }
    assert not any(cat == "model_templates" and ch == "removed" for cat, ch, _ in changes)
    # the packaged CLI gained --template_file and lost nothing
    flags = {
        (ch, n) for cat, ch, n in changes if cat == "cli_flags" and n.startswith("quark-cli torch-llm-ptq ")
    }
    assert flags == {("added", "quark-cli torch-llm-ptq --template_file")}
    # a dependency change touches only the skills stating a range for that package (issue 14): the lint
    # and quant-perf pins touch none; onnxruntime touches the ONNX install skill that pins it
    deps = {c["name"]: c["skills"] for c in d["release_diff"] if c["category"] == "dependencies"}
    assert deps["pyspelling"] == [] and deps["anthropic"] == []
    assert deps["onnxruntime"] == ["_legacy_impl/l1-atomic/onnx/quark-onnx-install"]
    # every CLI of the wheel is read: 0.13 adds the quark-quant-perf console script and its flags
    assert ("cli_flags", "added", "quark-quant-perf --model") in changes
    # public names per module: Config is back in quark.torch.quantization.config.config (an alias in 0.13)
    api = {c["name"]: c for c in d["release_diff"] if c["category"] == "public_api"}
    assert "Config" in api["quark.torch.quantization.config.config"]["after"].split("added ", 1)[1].split(
        ", "
    )


def test_real_findings(report):
    code, d = report
    assert d["mode"] == "audit" and d["baseline"]["version"] == "0.12.post1"
    # quark-torch-quant-plan says "Available Quantization Schemes (21 total)"; template.py defines 28
    (count,) = _findings(d, "scheme-count-mismatch")
    assert count["skill_location"] == {
        "file": "_legacy_impl/l1-atomic/torch/quark-torch-quant-plan/SKILL.md",
        "line": 56,
    }
    assert count["fix"]["new"] == "## Available Quantization Schemes (28 total)"
    # its scheme tables omit mx9 (new in 0.13), int4_fp8, mxfp4_weight_only, the amdfp4_global* pair
    missing = {f["subject"].rsplit(": ", 1)[-1] for f in _findings(d, "scheme-list-incomplete")}
    assert missing == {
        "amdfp4_global16",
        "amdfp4_global32",
        "fp4_block16_scale_e4m3",
        "int4_fp8",
        "mx9",
        "mxfp4_weight_only",
    }
    # quark-torch-model-intake's architecture table lacks the 10 templates 0.13 added, plus 5 older ones
    models = {f["subject"].rsplit(": ", 1)[-1] for f in _findings(d, "model-list-incomplete")}
    assert models == {
        "gemma4",
        "gemma4_unified",
        "glm5_next",
        "hunyuan_v1_dense",
        "kimi_k3",
        "lfm2",
        "muse_glimmer",
        "qwen3_5",
        "qwen4_exp",
        "qwen4_exp_text",
        "deepseek_v4",
        "glm4_moe_lite",
        "glm_moe_dsa",
        "kimi_k2",
        "minimax_m3_vl",
    }
    # quark-install says transformers<5.16; METADATA: Requires-Dist transformers<5.17,>5; extra == "cli"
    tf = {f["skill_location"]["file"]: f for f in _findings(d, "transformers-version-mismatch")}
    assert tf["quark-install/SKILL.md"]["fix"]["new"].count("transformers<5.17") == 1
    assert code == (1 if d["counts"]["breaking"] else 0)


def test_real_negative_controls(report):
    _code, d = report
    rules = {f["rule"] for f in d["findings"]}
    # every Python statement matches Requires-Python >=3.11,<3.14
    assert "python-version-mismatch" not in rules
    # every flag passed to quark-cli torch-llm-ptq exists in torch_llm_ptq.py
    assert not [f for f in d["findings"] if f["rule"].startswith("cli-flag-") and f["kind"] != "unverifiable"]
    # every model type the skills name exists upstream; the only unknown schemes are the two of the
    # legacy file2file skill (checked by hand: neither is a key of template.py's scheme registry in 0.13)
    assert "model-type-unknown" not in rules
    assert {f["subject"] for f in _findings(d, "scheme-unknown")} == {"w_fp8_a_fp8", "w_int4_a_bf16"}
    # quark-cli subcommands other than torch-llm-ptq are read from their own parsers (quark_onnx/...)
    assert not [
        f
        for f in _findings(d, "cli-flag-unverifiable")
        if "quark-cli" in f["subject"] and "not in this snapshot" in f["source_says"]
    ]
    # contract-* comparisons of quarkci's own schemas are `contracts diff`'s, not a skill audit's
    assert {r for r in rules if r.startswith("contract-")} <= {"contract-upstream-example-invalid"}
    # quantize_quark.py lives in examples/, which the wheel does not ship: unverifiable, never drift
    unver = _findings(d, "cli-flag-unverifiable")
    assert unver and all(f["kind"] == "unverifiable" for f in unver)
    assert any(f["subject"].startswith("quantize_quark.py ") for f in unver)


def test_every_finding_names_the_skill_that_holds_its_location(report):
    """A finding's ``skill`` is the id (directory) of the skill whose file it points into, for every rule:
    0.13 bundles ``quark-onnx-model-intake`` twice (top level and under ``_legacy_impl/``), and the example
    rule used to name the legacy one's findings by the frontmatter name, i.e. the other skill."""
    _code, document = report
    located = [f for f in document["findings"] if f.get("skill_location")]
    assert located and _findings(document, "contract-upstream-example-invalid")
    wrong = [
        (f["rule"], f["skill"], f["skill_location"]["file"])
        for f in located
        if f["skill"] != "." and not f["skill_location"]["file"].startswith(f["skill"] + "/")
    ]
    assert wrong == []
    examples = {f["skill"] for f in _findings(document, "contract-upstream-example-invalid")}
    assert (
        "_legacy_impl/l1-atomic/onnx/quark-onnx-model-intake" in examples
        and "quark-onnx-model-intake" not in examples
    )
