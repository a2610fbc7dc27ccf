"""docs/rules.md is generated from the registry: every rule id has one anchor and the file is current."""

from __future__ import annotations

from pathlib import Path

from quarkci.sync.registry import RULES
from quarkci.sync.rules import docs_url
from quarkci.sync.rules_doc import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_committed_rules_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == render(), (
        "regenerate: python -m quarkci.sync.rules_doc > docs/rules.md"
    )


def test_every_rule_has_exactly_one_anchor():
    text = render()
    for rule in RULES:
        assert text.count(f"\n## {rule.ID}\n") == 1
        assert docs_url(rule.ID).endswith(f"#{rule.ID}")
