"""Build validation reports following the wire contract (docs: notes/report_contract.md)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

SKILL_FILE = "skills/quark-torch-ptq/SKILL.md"
FIXED_TEXT = "---\nname: quark-torch-ptq\n---\nUse `--quant_scheme w_int4_per_group`.\n"


def fingerprint(rule: str, skill: str, subject: str) -> str:
    key = json.dumps([rule, skill, subject], separators=(",", ":"))
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def finding(kind: str, subject: str, *, rule: str = "", skill: str = "quark-torch-ptq", **over: Any) -> dict:
    rule = rule or {"breaking": "cli-flag-removed", "mechanical": "scheme-renamed"}.get(
        kind, "workflow-changed"
    )
    f = {
        "fingerprint": fingerprint(rule, skill, subject),
        "kind": kind,
        "rule": rule,
        "category": "cli_flags",
        "skill": skill,
        "subject": subject,
        "skill_says": f"uses {subject}",
        "source_says": f"{subject} removed",
        "impact": "the command fails",
        "skill_location": {"file": "quark-torch-ptq/SKILL.md", "line": 4},
        "source_location": {"file": "quark/cli/torch_llm_ptq.py", "line": 40},
        "fix": None,
    }
    if kind == "mechanical":
        f["fix"] = {
            "file": "quark-torch-ptq/SKILL.md",
            "line": 4,
            "old": subject,
            "new": subject + "_per_group",
            "insert_after": False,
            "description": "rename",
        }
    f.update(over)
    return f


def make_report(
    findings: list[dict], changed: list[str] | None = None, *, version: str = "0.13", mode: str = "audit"
) -> dict:
    counts = {
        k: sum(1 for f in findings if f["kind"] == k)
        for k in ("breaking", "semantic", "mechanical", "unverifiable")
    }
    return {
        "status": "partial" if findings else "success",
        "summary": f"{len(findings)} findings",
        "evidence": [],
        "next_actions": [],
        "report_version": 1,
        "mode": mode,
        "upstream": {
            "spec": f"amd-quark=={version}",
            "version": version,
            "kind": "wheel",
            "label": f"amd-quark {version} (PyPI wheel)",
        },
        "baseline": {"version": "0.12.post1", "label": "baseline"},
        "skills_root": "skills",
        "counts": counts,
        "findings": findings,
        "changed_files": changed or [],
        "blocked": None,
    }
