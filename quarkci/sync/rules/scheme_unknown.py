"""scheme-unknown: a scheme the skill names is not defined upstream."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import unknown_names
from quarkci.sync.state import AuditState

ID = "scheme-unknown"
DESC = "A scheme the skill names is not defined upstream"
CATEGORY = "schemes"


def check(state: AuditState) -> list[Finding]:
    """See :func:`quarkci.sync.rules._common.unknown_names` (claims `scheme` vs facts `schemes`)."""
    return unknown_names(
        state, rule=ID, category=CATEGORY, claim_kind="scheme", fact_kind="schemes", noun="scheme"
    )
