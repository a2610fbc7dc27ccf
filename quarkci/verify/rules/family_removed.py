"""verify-family-removed: a family the feature map lists is gone from the library."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, finding

ID = "verify-family-removed"
DESC = "An op family in the skill's feature map no longer exists in the library"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per mapped family the fresh inventory lacks (breaking: never auto-fixed)."""
    current = state.families("current")
    return [
        finding(
            ID,
            "removed",
            state,
            f"family {name}",
            f"family {name} with {len(fam['functions'])} ops",
            "no such family",
            "its features drive code that no longer exists",
            family=name,
        )
        for name, fam in state.families("mapped").items()
        if name not in current
    ]
