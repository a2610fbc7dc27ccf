"""verify-tolerance-changed: a correctness gate's rtol/atol changed."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, finding, mapped_entries

ID = "verify-tolerance-changed"
DESC = "The rtol/atol of a mapped correctness gate changed"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per entry point whose gate tolerance differs (mechanical)."""
    out = []
    for family, target, entry, current in mapped_entries(state):
        if current is None or entry["kind"] == "perf":
            continue
        was = (entry["gate"].get("rtol"), entry["gate"].get("atol"))
        is_ = (current["gate"].get("rtol"), current["gate"].get("atol"))
        if was != is_:
            out.append(
                finding(
                    ID,
                    "changed",
                    state,
                    f"{family} {target} tolerance",
                    f"rtol={was[0]}, atol={was[1]}",
                    f"rtol={is_[0]}, atol={is_[1]}",
                    "the feature file states a tolerance the gate no longer applies",
                    target,
                    family=family,
                    target=target,
                )
            )
    return out
