"""contract-drift: our artifact contracts vs the JSON contracts the release ships with its skills.

Delegates to :func:`quarkci.contracts.diff.diff_contracts`, whose findings carry their own rule ids
(``contract-*``, listed in ``quarkci.contracts.diff.RULE_CHANGE``) and a direction-aware kind that
the policy keeps as the default (the repository config can still override it per rule id).
"""

from __future__ import annotations

from quarkci.contracts.diff import RULE_CHANGE, diff_contracts
from quarkci.core.findings import Finding
from quarkci.sync.rules import Skip
from quarkci.sync.state import AuditState

ID = "contract-drift"
DESC = "An artifact contract quarkci validates differs from the one the release ships"
CATEGORY = "contracts"
EMITS: tuple[str, ...] = tuple(sorted(RULE_CHANGE))


def check(state: AuditState) -> list[Finding]:
    """The contract diff of the upstream snapshot; skipped for a stored baseline (no files to read)."""
    if state.upstream.snapshot is None:
        raise Skip("needs the upstream snapshot itself, not stored facts")
    return diff_contracts(state.upstream.snapshot)
