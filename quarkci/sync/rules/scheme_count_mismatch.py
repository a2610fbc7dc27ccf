"""scheme-count-mismatch: the number of schemes the skill states differs from upstream (mechanical)."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import count_mismatches
from quarkci.sync.state import AuditState

ID = "scheme-count-mismatch"
DESC = "The skill states a scheme count that differs from the number of schemes upstream defines"
CATEGORY = "schemes"


def check(state: AuditState) -> list[Finding]:
    """One finding per ``scheme_count`` claim whose number differs from ``len(schemes)``.

    Upstream count: distinct ``_schemes[...]`` names in template.py, aliases included.
    The fix rewrites the first occurrence of the stated number on the claim's line
    (:func:`~quarkci.sync.rules._common.count_mismatches`).
    """
    return count_mismatches(
        state,
        rule=ID,
        category=CATEGORY,
        claim_kind="scheme_count",
        fact_kind="schemes",
        noun="schemes",
        subject="scheme count",
        how="aliases included",
    )
