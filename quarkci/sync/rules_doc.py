"""Generate ``docs/rules.md`` from the rule registry, so each rule id has exactly one docs anchor.

``python -m quarkci.sync.rules_doc > docs/rules.md`` regenerates it; a test fails when the committed
file and the registry disagree.
"""

from __future__ import annotations

import sys

from quarkci.contracts.rules import RULES as CONTRACT_RULES
from quarkci.core.rules import Rule
from quarkci.sync.policy import DEFAULT_KINDS, RULE_KINDS
from quarkci.sync.registry import RULES
from quarkci.sync.state import AuditState


def _summary(rule: Rule[AuditState]) -> str:
    doc = (rule.__doc__ or "").strip().splitlines()
    head = doc[0] if doc else ""
    return head.split(":", 1)[1].strip() if ":" in head else head


def render() -> str:
    """The Markdown of ``docs/rules.md``: one section per rule, in registry order."""
    out = [
        "# quarkci drift rules",
        "",
        "Generated from `quarkci/sync/registry.py` by `python -m quarkci.sync.rules_doc`; do not edit by hand.",
        "",
        "Rules report *what changed* (`removed`, `renamed`, `changed`, `missing_from_list`, `deprecated`,",
        "`moved`, `not_shown`, ...); the policy turns that into a kind. Default policy:",
        "",
        "| change | kind |",
        "| --- | --- |",
        *(f"| `{change}` | {kind} |" for change, kind in DEFAULT_KINDS.items()),
        "",
        "Override per rule in the audited repository's `.quarkci.yaml` (`sync: kinds: {rule-id: kind}`),",
        "ignore with `sync: ignore: [...]` or an inline `quarkci: ignore[rule-id]` on the skill line.",
        "",
        "| rule | category | description |",
        "| --- | --- | --- |",
        *(f"| [`{r.ID}`](#{r.ID}) | {r.CATEGORY} | {r.DESC} |" for r in RULES),
        "",
        "The contract comparison (`quarkci contracts diff`) emits findings under ids of its own; each has",
        "its own section after the rules', with its default kind.",
        "",
    ]
    for rule in RULES:
        out += [
            f"## {rule.ID}",
            "",
            f"- **Category:** {rule.CATEGORY}",
            f"- **What it checks:** {rule.DESC}.",
        ]
        summary = _summary(rule)
        if summary and summary != rule.DESC:
            out.append(f"- **Details:** {summary}")
        emits = getattr(rule, "EMITS", ())
        if emits:
            out.append("- **Emits:** " + ", ".join(f"[`{e}`](#{e})" for e in sorted(emits)))
        out.append("")
    rule_ids = {rule.ID for rule in RULES}
    out += ["# Contract comparison ids", ""]
    for cid in sorted(set(CONTRACT_RULES) - rule_ids):
        by = ["`quarkci contracts diff`"] + [
            f"the sync rule [`{r.ID}`](#{r.ID})" for r in RULES if cid in getattr(r, "EMITS", ())
        ]
        out += [
            f"## {cid}",
            "",
            "- **Category:** contracts",
            f"- **What it checks:** {CONTRACT_RULES[cid]}.",
            f"- **Emitted by:** {', '.join(by)}",
            f"- **Default kind:** {RULE_KINDS.get(cid, 'by change: removed -> breaking, else mechanical')}",
            "",
        ]
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(render())
