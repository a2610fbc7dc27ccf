"""model-type-unknown: a model type the skill names has no upstream model template."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import unknown_names
from quarkci.sync.state import AuditState

ID = "model-type-unknown"
DESC = "A model type the skill names has no upstream model template"
CATEGORY = "model_templates"


def check(state: AuditState) -> list[Finding]:
    """See :func:`quarkci.sync.rules._common.unknown_names` (claims `model_type` vs facts `model_templates`)."""
    return unknown_names(
        state,
        rule=ID,
        category=CATEGORY,
        claim_kind="model_type",
        fact_kind="model_templates",
        noun="model template",
        also=("cli_models",),
    )
