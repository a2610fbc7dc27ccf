"""contract-drift: our artifact contracts vs the JSON contracts the release ships with its skills.

Delegates to :func:`quarkci.contracts.diff.diff_contracts`, whose findings carry their own rule ids
(``contract-*``, listed in ``quarkci.contracts.diff.RULE_CHANGE``) and a change, never a kind: the
policy's per-rule defaults (``quarkci.sync.policy.RULE_KINDS``) classify them by direction, and the
repository config can override them per rule id. Each id is registered here (:data:`EMITS`, with what
it means) and documented in its own section of docs/rules.md.
"""

from __future__ import annotations

from quarkci.contracts.diff import RULE_CHANGE, diff_contracts
from quarkci.core.findings import Finding
from quarkci.sync.rules import Skip
from quarkci.sync.state import AuditState

ID = "contract-drift"
DESC = "An artifact contract quarkci validates differs from the one the release ships"
CATEGORY = "contracts"
# Every id the contract diff emits -> what it means (the docs section of that id).
EMITS: dict[str, str] = {
    "contract-type-narrowed": "The release accepts a JSON type at a path that our contract rejects",
    "contract-type-widened": "Our contract accepts a JSON type at a path that the release rejects",
    "contract-enum-value-missing": "The release allows an enum value that our closed enum rejects",
    "contract-enum-value-unknown": "The release allows a value our open (pattern) field accepts but does not "
                                   "list as known",
    "contract-enum-value-extra": "Our contract allows or knows an enum value the release rejects (a close "
                                 "upstream value is named as its successor)",
    "contract-enum-value-rejected": "The release allows an enum value that our pattern rejects",
    "contract-enum-opened": "Our contract accepts any value matching a pattern where the release has a "
                            "closed enum",
    "contract-enum-added": "Our contract restricts a field to an enum that the release leaves open",
    "contract-required-optional": "The release requires a field that our contract defines as optional",
    "contract-required-unknown": "The release requires a field that our contract does not define",
    "contract-required-extra": "Our contract requires a field that the release treats as optional",
    "contract-property-unmodelled": "The release defines a field our contract does not model (breaking "
                                    "when our object is closed, mechanical when it is open)",
    "contract-object-opened": "Our object accepts extra fields where the release's rejects them",
    "contract-object-closed": "Our object rejects extra fields where the release's accepts them",
    "contract-unknown-upstream": "The release ships a contract for an artifact quarkci does not register",
    "contract-upstream-copies-differ": "Two copies of one contract inside the release disagree",
    "contract-upstream-example-invalid": "An example documented in a release skill fails the release's "
                                         "own contract",
    "contract-example-rejected": "An example the release's contract accepts fails our contract",
    "contract-not-shipped": "The release ships no contract for an artifact quarkci defines",
    "contract-unreadable": "A contract file in the release is not a readable JSON Schema object",
    "contract-none-shipped": "The release ships no contracts at all (Quark bundles skills from 0.13)",
}
assert set(EMITS) == set(RULE_CHANGE), "register every contract-* id the diff emits, with its meaning"


def check(state: AuditState) -> list[Finding]:
    """The contract diff of the upstream snapshot; skipped for a stored baseline (no files to read)."""
    if state.upstream.snapshot is None:
        raise Skip("needs the upstream snapshot itself, not stored facts")
    return diff_contracts(state.upstream.snapshot)
