"""The drift rules on the miniature releases 0.98 -> 0.99: planted drift found exactly, controls clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from quarkci.skills import DirectorySource
from quarkci.sync import policy
from quarkci.sync.audit import audit
from quarkci.sync.baseline import diff, load, save
from quarkci.sync.run import build_view, read_skills
from quarkci.sync.state import AuditState
from quarkci.upstream.resolve import resolve

from .conftest import FIXTURES

EXPECTED_POSITIVE = {
    ("breaking", "cli-flag-removed", "quark-cli torch-llm-ptq --old_flag"),
    ("breaking", "model-type-unknown", "gone_model"),
    ("breaking", "scheme-unknown", "old_scheme"),
    ("breaking", "source-path-missing", "quark/old/removed.py"),
    ("semantic", "cli-flag-deprecated", "quark-cli torch-llm-ptq --group_size"),
    ("mechanical", "cli-flag-renamed", "quark-cli torch-llm-ptq --exclude_layers"),
    ("mechanical", "cli-flag-default-changed", "quark-cli torch-llm-ptq --num_calib_data default"),
    ("mechanical", "model-list-incomplete", "drifty > Supported Model Architectures: qwen2"),
    ("mechanical", "model-list-incomplete", "drifty > Supported Model Architectures: qwen3"),
    ("mechanical", "python-version-mismatch", "Python 3.9 to 3.12 in drifty/SKILL.md"),
    ("mechanical", "scheme-count-mismatch", "scheme count"),
    ("mechanical", "scheme-list-incomplete", "drifty > Available Quantization Schemes: mxfp4"),
    ("mechanical", "scheme-list-incomplete", "drifty > Available Quantization Schemes: nvfp4"),
    ("mechanical", "transformers-version-mismatch", "transformers <5.16 in drifty/SKILL.md"),
    ("unverifiable", "cli-flag-unverifiable", "quantize_quark.py --model_dir"),
    ("unverifiable", "cli-flag-unverifiable", "quantize_quark.py --only_in_examples"),
    ("unverifiable", "cli-flag-unverifiable", "quantize_quark.py --quant_scheme"),
    ("unverifiable", "source-path-unverifiable", "examples/torch/language_modeling/llm_ptq/README.md"),
    ("unverifiable", "version-unverifiable", "PyTorch 2.2 or newer in drifty/SKILL.md"),
}


def _state(wheels, skills_dir: Path, with_baseline: bool = True) -> AuditState:
    up = build_view("0.99", resolve(str(wheels["0.99"])))
    base = build_view("0.98", resolve(str(wheels["0.98"]))) if with_baseline else None
    source = DirectorySource(skills_dir)
    skills, claims = read_skills(source)
    return AuditState(skills, claims, up, base, source.read_text, frozenset(source.files()))


def _triples(result) -> set[tuple[str, str, str]]:
    return {(f.kind, f.rule, f.subject) for f in result.findings.findings}


def test_planted_drift_is_found_exactly(wheels):
    result = audit(_state(wheels, FIXTURES / "skills" / "positive"))
    assert _triples(result) == EXPECTED_POSITIVE


def test_negative_control_has_no_drift(wheels):
    state = _state(wheels, FIXTURES / "skills" / "negative")
    assert {c.value for c in state.claims if c.kind == "cli_flag"} >= {"--upgrade", "--query-gpu"}
    result = audit(state)
    assert result.findings.drift() == []
    # pip / nvidia-smi flags are not about Quark: not even unverifiable
    # contract-* comparisons of quarkci's own schemas belong to `contracts diff`, not to a skill audit
    assert result.findings.findings == ()
    assert not result.findings.fails("mechanical")


def test_findings_carry_locations_fixes_and_likely_new_home(wheels):
    result = audit(_state(wheels, FIXTURES / "skills" / "positive"))
    by_rule = {f.rule: f for f in result.findings.findings}
    moved = by_rule["source-path-missing"]
    assert "most likely now `quark/new/removed.py`" in moved.source_says
    assert moved.skill_location.file == "drifty/SKILL.md" and moved.skill_location.line == 5
    renamed = by_rule["cli-flag-renamed"]
    assert renamed.fix is not None and renamed.fix.new == "  --exclude lm_head \\"
    assert renamed.source_location.file == "quark/experimental/cli/torch_llm_ptq.py"
    py = by_rule["python-version-mismatch"]
    assert py.fix.new == "- Python 3.10 to 3.13 and PyTorch 2.2 or newer."
    count = by_rule["scheme-count-mismatch"]
    assert count.fix.new == "## Available Quantization Schemes (4 total)"
    tf = by_rule["transformers-version-mismatch"]
    assert tf.fix.new == "- Pin transformers with `transformers<5.17`."
    # breaking findings never carry fixes
    assert all(f.fix is None for f in result.findings.findings if f.kind == "breaking")


def test_without_baseline_baseline_rules_skip_and_removed_items_still_break(wheels):
    result = audit(_state(wheels, FIXTURES / "skills" / "positive", with_baseline=False))
    skipped = {rule for rule, _ in result.skipped}
    # cli-flag-default-changed still checks defaults the skill states (no baseline needed for those)
    # upstream-fact-moved still checks the facts a sentence says a cited file holds (no baseline needed)
    assert skipped == {"api-name-removed"}
    rules = {f.rule for f in result.findings.findings}
    assert "cli-flag-removed" in rules and "cli-flag-default-changed" not in rules
    # without a baseline the dest-based successor is unknown: --exclude_layers is simply removed
    assert ("breaking", "cli-flag-removed", "quark-cli torch-llm-ptq --exclude_layers") in _triples(result)


def test_policy_overrides_and_ignores(wheels, tmp_path):
    state = _state(wheels, FIXTURES / "skills" / "positive")
    config = policy.parse_config(
        {
            "kinds": {"cli-flag-deprecated": "breaking"},
            "ignore": [{"rule": "scheme-list-incomplete"}, {"rule": "model-type-unknown", "skill": "drift*"}],
        },
        "test",
    )
    result = audit(state, config)
    kinds = {f.rule: f.kind for f in result.findings.findings}
    assert kinds["cli-flag-deprecated"] == "breaking"
    assert "scheme-list-incomplete" not in kinds and "model-type-unknown" not in kinds
    assert len(result.findings.ignored) == 3


@pytest.mark.parametrize(
    "bad",
    [
        {"kinds": {"no-such-rule": "breaking"}},
        {"kinds": {"cli-flag-deprecated": "unverifiable"}},
        {"ignore": [{"colour": "red"}]},
        {"surprise": 1},
    ],
)
def test_bad_config_is_bad_input(bad):
    from quarkci.core.errors import BadInputError

    with pytest.raises(BadInputError):
        policy.parse_config(bad, "cfg")


def test_config_file_is_found_in_the_audited_repo(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".quarkci.yaml").write_text(
        "sync:\n  ignore:\n    - rule: scheme-unknown\n", encoding="utf-8"
    )
    (tmp_path / "skills").mkdir()
    config = policy.load_config(tmp_path / "skills")
    assert [i.rule for i in config.ignore] == ["scheme-unknown"]
    other = tmp_path / "elsewhere"
    (other / ".git").mkdir(parents=True)
    assert policy.load_config(other) == policy.Config()


def test_inline_ignore_marker(wheels, tmp_path, skills_copy):
    skill = skills_copy / "positive" / "drifty" / "SKILL.md"
    text = skill.read_text(encoding="utf-8").replace(
        "| `old_scheme` |", "| `old_scheme` <!-- quarkci: ignore[scheme-unknown] --> |"
    )
    skill.write_text(text, encoding="utf-8")
    result = audit(_state(wheels, skills_copy / "positive"))
    assert "scheme-unknown" not in {f.rule for f in result.findings.findings}
    assert [f.rule for f, _ in result.findings.ignored] == ["scheme-unknown"]


def test_calibration_round_trip_and_release_diff(wheels, tmp_path):
    state = _state(wheels, FIXTURES / "skills" / "positive")
    path = save(state.baseline, tmp_path)
    assert path.name == "0.98.json"
    first = path.read_bytes()
    save(state.baseline, tmp_path)
    assert path.read_bytes() == first  # written only on change, byte-identical
    stored = load(path)
    assert stored.facts.to_json() == state.baseline.facts.to_json()
    assert stored.files == state.baseline.files
    changes = {
        (c.category, c.change, c.name): c.skills
        for c in diff(stored, state.upstream, state.skills, state.claims)
    }
    assert changes[("schemes", "added", "nvfp4")] == ("drifty",)
    assert changes[("schemes", "removed", "old_scheme")] == ("drifty",)
    assert changes[("model_templates", "added", "qwen3")] == ("drifty",)
    assert changes[("cli_flags", "removed", "quark-cli torch-llm-ptq --old_flag")] == ("drifty",)
    assert changes[("cli_flags", "changed", "quark-cli torch-llm-ptq --num_calib_data")] == ("drifty",)
    assert ("export_formats", "removed", "export_gguf") in changes
    assert changes[("files", "removed", "quark/old/removed.py")] == ("drifty",)


def test_tampered_baseline_is_bad_input(wheels, tmp_path):
    from quarkci.core.errors import BadInputError

    state = _state(wheels, FIXTURES / "skills" / "negative")
    path = save(state.baseline, tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('"int8"', '"int9"'), encoding="utf-8")
    with pytest.raises(BadInputError, match="sha256"):
        load(path)
