"""SARIF 2.1.0 renderer: one result per finding, rule ids ``quarkci/<rule>``, level by kind."""

from __future__ import annotations

from typing import Any

from quarkci import __version__
from quarkci.core.documents import dump_json
from quarkci.core.levels import sarif_level
from quarkci.sync.outcome import SyncOutcome
from quarkci.sync.rules import docs_url


def document(outcome: SyncOutcome, prefix: str = "") -> dict[str, Any]:
    """The SARIF log as a dict; ``prefix`` is prepended to skill-relative paths."""
    findings = outcome.findings.findings
    rule_ids = sorted({f.rule for f in findings})
    results = []
    for f in findings:
        result: dict[str, Any] = {
            "ruleId": f"quarkci/{f.rule}",
            "level": sarif_level(f.kind),
            "message": {"text": f"{f.skill_says} -> {f.source_says}. Impact: {f.impact}"},
            "partialFingerprints": {"quarkci/v1": f.fingerprint},
            "properties": {"kind": f.kind, "category": f.category, "skill": f.skill},
        }
        if f.skill_location is not None:
            region = {"startLine": f.skill_location.line} if f.skill_location.line else None
            physical: dict[str, Any] = {"artifactLocation": {"uri": prefix + f.skill_location.file}}
            if region:
                physical["region"] = region
            result["locations"] = [{"physicalLocation": physical}]
        results.append(result)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "quarkci",
                        "version": __version__,
                        "rules": [{"id": f"quarkci/{r}", "helpUri": docs_url(r)} for r in rule_ids],
                    }
                },
                "results": results,
            }
        ],
    }


def render(outcome: SyncOutcome, prefix: str = "") -> str:
    return dump_json(document(outcome, prefix))
