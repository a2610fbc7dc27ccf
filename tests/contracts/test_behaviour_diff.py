"""``contracts diff`` compares by behaviour (issue 11): documents generated from each side's schema are
validated against the other; stricter-than-upstream cases are breaking, with the field; differences kept
on purpose (``x-quarkci-deviation``) are listed as accepted with the reason and never fail the gate."""

from __future__ import annotations

import copy
import json

import pytest

from quarkci.contracts import diff as diffmod
from quarkci.contracts.behaviour import compare, documents, node_at
from quarkci.contracts.diff import UpstreamContract, behaviour_findings, diff_contracts
from quarkci.core.artifacts import load_schema
from quarkci.sync.policy import classify


def _strict_session() -> dict:
    """session_context as quarkci had it before issue 11: non-empty goal, inline hardware forbidden."""
    s = copy.deepcopy(load_schema("session_context"))
    s["properties"]["user_goal"]["minLength"] = 1
    s["properties"]["hardware"] = {"not": {}}
    return s


def _strict_install() -> dict:
    s = copy.deepcopy(load_schema("pytorch_install_result"))
    s["if"] = {"properties": {"status": {"const": "failed"}}, "required": ["status"]}
    s["then"] = {"required": ["failure_reason"]}
    return s


def test_generated_documents_are_valid_for_their_own_schema_and_cover_boundaries():
    schema = load_schema("session_context")
    docs = documents(schema)
    assert len(docs) >= 30
    assert any(d.get("user_goal") == "" for d in docs)  # boundary: empty string
    assert any(d.get("open_questions") == [] for d in docs)
    assert {
        d["constraints"].get("execution_mode") for d in docs if "execution_mode" in d.get("constraints", {})
    } == {"plan_only", "interactive_execute", "batch_execute"}


@pytest.mark.parametrize(
    "strict, name, field, fragment",
    [
        (_strict_session, "session_context", "$.user_goal", "non-empty"),
        (_strict_session, "session_context", "$.hardware", "not allowed"),
        (_strict_install, "pytorch_install_result", "$", "failure_reason"),
    ],
)
def test_stricter_than_upstream_is_breaking_with_the_field(strict, name, field, fragment):
    upstream = UpstreamContract(name, f"up/{name}.schema.json", load_schema(name))
    findings = [classify(f) for f in behaviour_findings(name, strict(), upstream)]  # the policy sets kinds
    hits = [f for f in findings if f.subject == field]
    assert [(f.kind, f.rule) for f in hits] == [("breaking", "contract-behaviour-rejected")]
    assert fragment in hits[0].skill_says and hits[0].source_says.startswith("accepts e.g. {")
    # negative control: the same schema on both sides has no behaviour difference
    assert behaviour_findings(name, load_schema(name), upstream) == []


def test_looser_than_upstream_is_semantic_and_a_marked_field_is_accepted_with_its_reason():
    ours = load_schema("session_context")
    upstream = copy.deepcopy(ours)
    upstream["properties"]["workflow"] = {"type": "string", "enum": ["quark-torch-ptq"]}
    upstream["properties"]["constraints"]["properties"]["offline"] = {"const": False}
    findings = {
        f.subject: classify(f)
        for f in behaviour_findings(
            "session_context", ours, UpstreamContract("session_context", "up.json", upstream)
        )
    }
    assert findings["$.constraints.offline"].kind == "semantic"
    assert findings["$.constraints.offline"].rule == "contract-behaviour-extra"
    accepted = findings["$.workflow"]
    assert (
        accepted.rule == "contract-behaviour-accepted" and "catalog skill name" in accepted.extra["accepted"]
    )


def test_node_at_follows_properties_and_items():
    schema = load_schema("session_context")
    assert node_at(schema, "$.route.prerequisites[0].reason")[-1] == {"type": "string"}
    assert len(node_at(schema, "$.nope.deeper")) == 1


def test_compare_is_symmetric_in_what_it_reports():
    ours, theirs = _strict_session(), load_schema("session_context")
    sides = {d.accepted_by for d in compare(ours, theirs)}
    assert sides == {"upstream"}
    assert {d.accepted_by for d in compare(theirs, ours)} == {"ours"}


@pytest.mark.real
def test_real_0_13_quark_documents_validate_against_ours_and_the_old_strict_schemas_were_breaking(
    monkeypatch,
):
    from tests.realwheels import real_snapshot

    snap = real_snapshot("0.13")
    findings = diff_contracts(snap)
    behaviour = [classify(f) for f in findings if f.rule.startswith("contract-behaviour-")]
    assert [f for f in behaviour if f.kind == "breaking"] == []  # Quark's documents pass quarkci's schemas
    accepted = [f for f in behaviour if f.rule == "contract-behaviour-accepted"]
    assert accepted and all(f.extra["accepted"] for f in accepted)
    assert "$.route" in {f.subject for f in accepted if f.skill == "contract:session_context"}

    strict = {"session_context": _strict_session(), "pytorch_install_result": _strict_install()}
    monkeypatch.setattr(diffmod, "load_schema", lambda name: strict.get(name) or load_schema(name))
    old = {(f.skill, f.subject) for f in diff_contracts(snap) if f.rule == "contract-behaviour-rejected"}
    assert {
        ("contract:session_context", "$.user_goal"),
        ("contract:session_context", "$.hardware"),
        ("contract:pytorch_install_result", "$"),
    } <= old


@pytest.mark.real
def test_cli_diff_against_0_13_lists_accepted_differences_and_passes_the_gate(capsys):
    from quarkci import cli
    from tests.realwheels import real_wheel

    assert cli.main(["contracts", "diff", "--upstream", str(real_wheel("0.13"))]) == 0
    out = capsys.readouterr().out
    assert "accepted     contract:session_context: $.route" in out and "reason: " in out
    assert json.loads(json.dumps(out)) == out
