"""verify-entry-point-removed: a pytest target, op-test script or perf harness the map names is gone."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, entries, finding

ID = "verify-entry-point-removed"
DESC = "An entry point of a mapped family no longer exists"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per entry point of a shared family that is gone (breaking)."""
    out = []
    for old, new in state.shared():
        now = entries(new)
        for target, entry in entries(old).items():
            if target not in now:
                out.append(finding(ID, "removed", state, f"{old['name']} {entry['kind']} {target}",
                                   f"drive {old['name']} with `{target}`", f"{target} is gone",
                                   "the skill's Drive command fails", family=old["name"], target=target))
    return out
