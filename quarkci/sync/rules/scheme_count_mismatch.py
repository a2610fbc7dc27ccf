"""scheme-count-mismatch: the number of schemes the skill states differs from upstream (mechanical)."""

from __future__ import annotations

import re

from quarkci.core.findings import Finding, Fix
from quarkci.sync.rules._common import kind_source, make, release
from quarkci.sync.state import AuditState

ID = "scheme-count-mismatch"
DESC = "The skill states a scheme count that differs from the number of schemes upstream defines"
CATEGORY = "schemes"


def check(state: AuditState) -> list[Finding]:
    """One finding per ``scheme_count`` claim whose number differs from ``len(schemes)``.

    Upstream count: distinct ``_schemes[...]`` names in template.py, aliases included.
    The fix rewrites the first occurrence of the stated number on the claim's line.
    """
    view = state.upstream
    if not view.items("schemes"):
        return []
    count = len(view.facts.names("schemes"))
    out = []
    for claim in state.claims_of("scheme_count"):
        try:
            stated = int(claim.value)
        except ValueError:
            continue
        if stated == count:
            continue
        line = state.line(claim.file, claim.line)
        fix = None
        pattern = re.compile(rf"(?<![\d.]){stated}(?![\d.])")
        if line is not None and pattern.search(line):
            fix = Fix(
                claim.file,
                claim.line,
                line,
                pattern.sub(str(count), line, count=1),
                description=f"scheme count {stated} -> {count}",
            )
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject="scheme count",
                skill_says=f"states {stated} schemes",
                source_says=f"{release(view)} defines {count} schemes (aliases included)",
                impact="the agent trusts a stale list size",
                source=kind_source(view, "schemes"),
                fix=fix,
            )
        )
    return out
