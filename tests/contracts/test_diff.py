"""Contract diff: our schemas vs the contracts shipped in a release (fake snapshot + real 0.13 wheel)."""

from __future__ import annotations

import copy
import json

import pytest

from quarkci.contracts import diff
from quarkci.core.artifacts import ARTIFACTS, load_schema
from quarkci.sync.policy import classify


def diff_contracts(snapshot, include_deviations: bool = False):
    """The contract diff as the policy classifies it (the diff itself sets no kind)."""
    return [classify(f) for f in diff.diff_contracts(snapshot, include_deviations=include_deviations)]


SHARED = "quark/_bundled_skills/_legacy_impl/shared/contracts/"


class FakeSnapshot:
    """The smallest Snapshot: an in-memory dict of path -> text."""

    kind = "wheel"

    def __init__(self, files: dict[str, str], version: str = "9.9") -> None:
        self._files = dict(files)
        self.version = version
        self.label = f"fake {version}"
        self.coverage = frozenset({"quark"})

    def exists(self, path: str) -> bool:
        return path in self._files

    def read_text(self, path: str) -> str:
        return self._files[path]

    def files(self, prefix: str = "") -> list[str]:
        return sorted(p for p in self._files if p.startswith(prefix))

    def covers(self, path: str) -> bool:
        return path.startswith("quark/")


def _upstream(**overrides) -> FakeSnapshot:
    """A release whose contracts are ours with x-quarkci annotations stripped, then ``overrides``."""
    files = {}
    for name in ARTIFACTS:
        schema = overrides.get(name, load_schema(name))
        files[SHARED + f"{name}.schema.json"] = schema if isinstance(schema, str) else json.dumps(schema)
    return FakeSnapshot(files)


def _rules(findings):
    """The structural findings (the behaviour comparison has its own tests below)."""
    return sorted(
        (f.skill, f.rule, f.subject, f.kind) for f in findings if not f.rule.startswith("contract-behaviour-")
    )


def test_identical_contracts_have_no_findings():
    assert diff_contracts(_upstream()) == []


def test_release_without_contracts_is_unverifiable_not_drift():
    [finding] = diff_contracts(FakeSnapshot({"quark/__init__.py": ""}, version="0.12"))
    assert (finding.kind, finding.rule) == ("unverifiable", "contract-none-shipped")


def test_renamed_workflow_value_is_reported_with_its_successor():
    schema = load_schema("session_context")
    schema["properties"]["workflow"] = {
        "type": "string",
        "enum": ["quark-torch-llm-ptq", "quark-torch-install", "quark-install"],
    }
    findings = diff_contracts(_upstream(session_context=schema))
    by_subject = {f.subject: f for f in findings}
    unknown = by_subject["$.workflow = quark-torch-llm-ptq"]
    assert (unknown.rule, unknown.kind) == ("contract-enum-value-unknown", "mechanical")
    old = by_subject["$.workflow = quark-torch-ptq"]
    assert (old.rule, old.kind, old.change) == ("contract-enum-value-extra", "semantic", "renamed")
    assert "closest upstream value: 'quark-torch-llm-ptq'" in old.source_says
    assert "$.workflow = undecided" not in by_subject  # a deliberate deviation, hidden by default
    assert "$.workflow = undecided" in {
        f.subject for f in diff_contracts(_upstream(session_context=schema), include_deviations=True)
    }


def test_new_upstream_enum_value_in_a_closed_enum_is_breaking():
    schema = load_schema("env_context")
    schema["properties"]["hardware"]["properties"]["accelerator"]["enum"].append("intel-xpu")
    assert _rules(diff_contracts(_upstream(env_context=schema))) == [
        (
            "contract:env_context",
            "contract-enum-value-missing",
            "$.hardware.accelerator = intel-xpu",
            "breaking",
        )
    ]


def test_required_field_changes_in_both_directions():
    schema = load_schema("quant_plan")
    schema["required"] = [r for r in schema["required"] if r != "exclude_layers"] + ["algorithm", "seed"]
    assert _rules(diff_contracts(_upstream(quant_plan=schema))) == [
        ("contract:quant_plan", "contract-required-extra", "$.exclude_layers required", "semantic"),
        ("contract:quant_plan", "contract-required-optional", "$.algorithm required", "mechanical"),
        ("contract:quant_plan", "contract-required-unknown", "$.seed required", "breaking"),
    ]


def test_type_changes_in_both_directions():
    schema = load_schema("model_analysis")
    props = schema["properties"]["quantization_targets"]["properties"]
    props["linear_layer_count"]["type"] = ["integer", "string"]
    schema["properties"]["model"]["properties"]["hidden_size"]["type"] = (
        "number"  # upstream accepts 1.5, ours not
    )
    schema["properties"]["risks"]["items"]["properties"]["message"]["type"] = "null"
    assert _rules(diff_contracts(_upstream(model_analysis=schema))) == [
        ("contract:model_analysis", "contract-type-narrowed", "$.model.hidden_size type", "breaking"),
        (
            "contract:model_analysis",
            "contract-type-narrowed",
            "$.quantization_targets.linear_layer_count type",
            "breaking",
        ),
        ("contract:model_analysis", "contract-type-narrowed", "$.risks[].message type", "breaking"),
        ("contract:model_analysis", "contract-type-widened", "$.risks[].message type", "semantic"),
    ]


def test_differing_upstream_copies_and_unknown_and_unreadable_contracts():
    snap = _upstream()
    changed = copy.deepcopy(load_schema("run_manifest"))
    changed["properties"]["notes"] = {"type": "string"}
    snap._files["quark/_bundled_skills/quark-torch-ptq/references/contracts/run_manifest.schema.json"] = (
        json.dumps(changed)
    )
    snap._files["quark/_bundled_skills/x/contracts/eval_report.schema.json"] = "{}"
    snap._files["quark/_bundled_skills/y/contracts/quant_plan.schema.json"] = "{not json"
    rules = {(f.skill, f.rule) for f in diff_contracts(snap)}
    assert rules == {
        ("contract:run_manifest", "contract-property-unmodelled"),
        ("contract:run_manifest", "contract-upstream-copies-differ"),
        ("contract:eval_report", "contract-unknown-upstream"),
        ("contract:quant_plan", "contract-unreadable"),
    }


def test_diff_is_deterministic():
    schema = load_schema("session_context")
    schema["properties"]["workflow"] = {"type": "string", "enum": ["a-b", "c-d"]}
    first = [f.one_line() for f in diff_contracts(_upstream(session_context=schema))]
    assert first == [f.one_line() for f in diff_contracts(_upstream(session_context=schema))]


SKILL = """---
name: quark-demo-router
description: demo
---
# demo

## Outputs: session_context.json

```json
{DOC}
```

## Next
"""


def test_documented_examples_are_checked_against_both_contracts():
    snap = _upstream()
    bad_for_both = {"user_goal": "g", "workflow": "quark-torch-ptq", "constraints": {}}
    snap._files["quark/_bundled_skills/a/SKILL.md"] = SKILL.replace("{DOC}", json.dumps(bad_for_both))
    [finding] = [f for f in diff_contracts(snap) if not f.rule.startswith("contract-behaviour-")]
    assert (finding.rule, finding.kind, finding.skill) == (
        "contract-upstream-example-invalid",
        "semantic",
        "quark-demo-router",
    )
    assert str(finding.skill_location) == "a/SKILL.md:9"
    assert "missing required field 'open_questions'" in finding.source_says

    loose = _upstream(session_context={"type": "object"})
    inline = {
        "user_goal": "g",
        "workflow": "quark-torch-ptq",
        "constraints": {"execution_mode": "yolo"},
        "open_questions": [],
    }
    loose._files["quark/_bundled_skills/a/SKILL.md"] = SKILL.replace("{DOC}", json.dumps(inline))
    rejected = [f for f in diff_contracts(loose) if f.rule.endswith("example-rejected")]
    assert [(f.kind, f.subject) for f in rejected] == [("breaking", "session_context example")]
    assert "$.constraints.execution_mode: 'yolo' is not one of" in rejected[0].source_says

    good = _upstream()
    valid = {"user_goal": "g", "workflow": "quark-torch-ptq", "constraints": {}, "open_questions": []}
    good._files["quark/_bundled_skills/a/SKILL.md"] = SKILL.replace("{DOC}", json.dumps(valid))
    assert diff_contracts(good) == []


def test_an_alias_bomb_example_is_skipped_by_the_bounded_loader_not_expanded():
    from quarkci.contracts.examples import documented_examples

    bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10)
    )
    snap = _upstream()
    snap._files["quark/_bundled_skills/a/SKILL.md"] = SKILL.replace("```json\n{DOC}", "```yaml\n" + bomb)
    snap._files["quark/_bundled_skills/b/SKILL.md"] = SKILL.replace("```json\n{DOC}", "```yaml\nuser_goal: g")
    # the bomb (10**9 nodes once expanded) is refused before expansion; the small YAML example is read
    assert [(e.path, e.document) for e in documented_examples(snap)] == [
        ("quark/_bundled_skills/b/SKILL.md", {"user_goal": "g"})
    ]


@pytest.mark.real
def test_real_0_13_wheel():
    from tests.realwheels import real_snapshot

    findings = [
        f for f in diff_contracts(real_snapshot("0.13")) if not f.rule.startswith("contract-behaviour-")
    ]
    assert _rules(findings) == [
        (
            "contract:quark_install_result",
            "contract-upstream-copies-differ",
            "quark/_bundled_skills/quark-install/references/contracts/quark_install_result.schema.json",
            "semantic",
        ),
        (
            "contract:session_context",
            "contract-enum-value-extra",
            "$.workflow = quark-torch-llm-ptq-workflow",
            "semantic",
        ),
        (
            "quark-onnx-model-intake",
            "contract-upstream-example-invalid",
            "model_analysis example",
            "semantic",
        ),
        ("quark-onnx-quant-plan", "contract-upstream-example-invalid", "quant_plan example", "semantic"),
        ("quark-onnx-router", "contract-upstream-example-invalid", "session_context example", "semantic"),
        (
            "quark-torch-file2file-quantization",
            "contract-upstream-example-invalid",
            "run_manifest example",
            "semantic",
        ),
    ]
    legacy = findings[1]
    assert legacy.change == "renamed"
    assert "quark-torch-ptq" in legacy.source_says
    router = findings[4]
    assert "'quark-onnx-ptq-workflow' is not one of" in router.source_says
    deviations = {
        f.subject
        for f in diff_contracts(real_snapshot("0.13"), include_deviations=True)
        if not f.rule.startswith("contract-behaviour-")
    } - {f.subject for f in findings}
    assert deviations == {
        "$.workflow enum",
        "$.workflow = undecided",
        "$.steps[].kind = export",
        "$.steps[].kind = evaluate",
    }
