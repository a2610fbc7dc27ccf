"""model-count-mismatch: the number of model templates the skill states differs from upstream (mechanical)."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import count_mismatches
from quarkci.sync.state import AuditState

ID = "model-count-mismatch"
DESC = "The skill states a model template count that differs from the number upstream registers"
CATEGORY = "model_templates"


def check(state: AuditState) -> list[Finding]:
    """One finding per ``model_type_count`` claim ("ships 51 built-in model templates", a "Supported
    models (36)" heading) whose number differs from the release's distinct ``model_templates`` names (the
    templates template.py registers); see :func:`~quarkci.sync.rules._common.count_mismatches`."""
    return count_mismatches(
        state,
        rule=ID,
        category=CATEGORY,
        claim_kind="model_type_count",
        fact_kind="model_templates",
        noun="model templates",
        subject="model template count",
        how="registered templates",
    )
