"""model-list-incomplete: an upstream model template is missing from a model list the skill presents as complete."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import list_incomplete
from quarkci.sync.state import AuditState

ID = "model-list-incomplete"
DESC = "An upstream model template is missing from a model list the skill presents as complete"
CATEGORY = "model_templates"


def check(state: AuditState) -> list[Finding]:
    """See :func:`quarkci.sync.rules._common.list_incomplete` (claims `model_type` vs facts `model_templates`)."""
    return list_incomplete(
        state,
        rule=ID,
        category=CATEGORY,
        claim_kind="model_type",
        fact_kind="model_templates",
        noun="model template",
    )
