"""Every emitted finding id is a registered rule with its own docs/rules.md section and an absolute help
URL; only the policy sets a finding's kind."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from quarkci.contracts.rules import RULES as CONTRACT_RULES
from quarkci.sync import rules as rules_pkg
from quarkci.sync.registry import FINDING_RULE_IDS, RULE_IDS, RULES

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "quarkci" / "sync" / "rules"
DOC = ROOT / "docs" / "rules.md"


def test_every_module_under_rules_is_registered() -> None:
    modules = {p.stem for p in RULES_DIR.glob("*.py") if not p.name.startswith("_")}
    registered = {r.__name__.rsplit(".", 1)[1] for r in RULES}
    assert modules - registered == set(), "add the module to quarkci/sync/registry.py RULES"
    assert registered - modules == set()


def test_module_name_is_the_rule_id() -> None:
    assert [r.__name__.rsplit(".", 1)[1].replace("_", "-") for r in RULES] == list(RULE_IDS)


def test_every_finding_id_has_its_own_docs_section() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert set(RULE_IDS) | set(CONTRACT_RULES) <= FINDING_RULE_IDS and len(CONTRACT_RULES) == 24
    for rule_id in sorted(FINDING_RULE_IDS):
        assert text.count(f"\n## {rule_id}\n") == 1, f"docs/rules.md has no section ## {rule_id}"


def test_every_rule_id_literal_in_the_detectors_is_registered() -> None:
    """A finding id written anywhere in the rules or the contract diff is a registered id."""
    ids: set[str] = set()
    for path in [*RULES_DIR.glob("*.py"), *(ROOT / "quarkci" / "contracts").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "rule" and isinstance(node.value, ast.Constant):
                ids.add(node.value.value)
            if (
                isinstance(node, ast.Call)
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and node.args[0].value.startswith("contract-")
            ):
                ids.add(node.args[0].value)
    assert ids and ids <= FINDING_RULE_IDS, sorted(ids - FINDING_RULE_IDS)


def test_the_golden_report_carries_only_registered_ids() -> None:
    report = json.loads(
        (ROOT / "tests" / "fixtures" / "sync" / "golden" / "validation_report.json").read_text()
    )
    assert report["findings"] and {f["rule"] for f in report["findings"]} <= FINDING_RULE_IDS


def test_no_detector_sets_a_kind() -> None:
    """Rules never classify: no ``Finding(kind=...)`` under sync/rules or contracts (the policy does)."""
    offenders = []
    for path in [*RULES_DIR.glob("*.py"), *(ROOT / "quarkci" / "contracts").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "Finding"
                and any(k.arg == "kind" for k in node.keywords)
            ):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_help_url_is_absolute_and_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(rules_pkg.DOCS_URL_ENV, raising=False)
    assert rules_pkg.docs_url("scheme-unknown") == rules_pkg.DEFAULT_DOCS_URL + "#scheme-unknown"
    assert re.match(r"^https://[^/]+/", rules_pkg.DEFAULT_DOCS_URL)
    monkeypatch.setenv(rules_pkg.DOCS_URL_ENV, "https://example.org/fork/rules.html")
    assert (
        rules_pkg.docs_url("contract-type-narrowed")
        == "https://example.org/fork/rules.html#contract-type-narrowed"
    )
    for bad in ("docs/rules.md", "javascript:alert(1)", "https://example.org/r#x"):
        monkeypatch.setenv(rules_pkg.DOCS_URL_ENV, bad)
        assert rules_pkg.docs_url("x").startswith(rules_pkg.DEFAULT_DOCS_URL)


def test_policy_classifies_contract_findings_by_direction() -> None:
    from quarkci.core.findings import Finding
    from quarkci.sync.policy import Config, classify

    def make(rule: str, change: str) -> Finding:
        return Finding(rule, change, "contracts", "contract:x", "$.a", "a", "b", "c")

    assert classify(make("contract-enum-added", "changed")).kind == "semantic"  # not the change's mechanical
    assert classify(make("contract-property-unmodelled", "removed")).kind == "breaking"
    assert classify(make("contract-property-unmodelled", "missing_from_list")).kind == "mechanical"
    assert (
        classify(
            make("contract-type-widened", "changed"), Config(kinds={"contract-type-widened": "breaking"})
        ).kind
        == "breaking"
    )
    assert (
        classify(
            make("contract-not-shipped", "not_shown"), Config(kinds={"contract-not-shipped": "breaking"})
        ).kind
        == "unverifiable"
    )
