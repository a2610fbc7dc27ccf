"""verify-family-added: the library has an op family the feature map does not list."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, finding

ID = "verify-family-added"
DESC = "An op family exists in the library but not in the skill's feature map"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per family in the fresh inventory that the map lacks (mechanical: --fix adds it)."""
    mapped = state.families("mapped")
    return [
        finding(
            ID,
            "missing_from_list",
            state,
            f"family {name}",
            "the map lists no such family",
            f"family {name} ({fam['category']}, {', '.join(fam['arch'])}) with {len(fam['functions'])} ops",
            "its ops have no correctness feature",
            fam["files"][0] if fam["files"] else "",
            family=name,
        )
        for name, fam in state.families("current").items()
        if name not in mapped
    ]
