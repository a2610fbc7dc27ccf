"""quarkci.core.rules: the one rule runner (sync's and verify's registries), and the Rule protocol."""

from __future__ import annotations

import types

import pytest

from quarkci.core.findings import Finding
from quarkci.core.rules import RuleError, Skip, run_rules
from quarkci.sync import registry
from quarkci.verify import rules as verify_rules


def _rule(rule_id: str, check) -> types.ModuleType:
    module = types.ModuleType(rule_id)
    module.ID, module.DESC, module.CATEGORY, module.check = rule_id, "d", "c", check  # type: ignore[attr-defined]
    return module


def _finding(rule_id: str) -> Finding:
    return Finding(rule=rule_id, change="removed", category="c", skill="s", subject=rule_id,
                   skill_says="x", source_says="y", impact="z")  # fmt: skip


def _skip(state: object) -> list[Finding]:
    raise Skip("no baseline")


def _crash(state: object) -> list[Finding]:
    raise KeyError("k")


def test_findings_in_registry_order_and_skips_recorded() -> None:
    rules = [
        _rule("b-rule", lambda s: [_finding("b-rule")]),
        _rule("skips", _skip),
        _rule("a-rule", lambda s: [_finding("a-rule")]),
    ]
    found, skipped = run_rules(rules, object())  # type: ignore[arg-type]
    assert [f.rule for f in found] == ["b-rule", "a-rule"]
    assert skipped == [("skips", "no baseline")]


def test_a_crash_is_a_rule_error_tagged_with_the_rule_id() -> None:
    with pytest.raises(RuleError, match=r"rule crashes crashed: KeyError") as caught:
        run_rules([_rule("ok", lambda s: []), _rule("crashes", _crash)], object())  # type: ignore[arg-type]
    assert caught.value.rule == "crashes" and isinstance(caught.value.__cause__, KeyError)


def test_both_registries_hold_rules_with_unique_ids() -> None:
    for rules in (registry.RULES, verify_rules.RULES):
        ids = [r.ID for r in rules]
        assert len(ids) == len(set(ids)) and all(callable(r.check) and r.DESC and r.CATEGORY for r in rules)
