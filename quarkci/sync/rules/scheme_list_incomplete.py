"""scheme-list-incomplete: an upstream scheme is missing from a scheme list the skill presents as complete."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import list_incomplete
from quarkci.sync.state import AuditState

ID = "scheme-list-incomplete"
DESC = "An upstream scheme is missing from a scheme list the skill presents as complete"
CATEGORY = "schemes"


def check(state: AuditState) -> list[Finding]:
    """See :func:`quarkci.sync.rules._common.list_incomplete` (claims `scheme` vs facts `schemes`)."""
    return list_incomplete(
        state, rule=ID, category=CATEGORY, claim_kind="scheme", fact_kind="schemes", noun="scheme"
    )
