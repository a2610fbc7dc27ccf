"""The finding ids of the contract comparison (``quarkci contracts diff``), each with what it means.

These are registered finding ids like the sync rules' (docs/rules.md has a section for each, and a
repository's ``.quarkci.yaml`` may name them): :mod:`quarkci.contracts.diff` emits them with a *change*;
their kind is set by the policy alone (``quarkci.sync.policy.RULE_KINDS``, by the direction of the
difference: who would reject whose documents).
"""

from __future__ import annotations

from quarkci.contracts.diff import RULE_CHANGE

RULES: dict[str, str] = {
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
    "contract-behaviour-rejected": "A document generated from the release's contract (a valid example or a "
    "boundary case) fails our contract",
    "contract-behaviour-extra": "A document generated from our contract fails the release's contract",
    "contract-behaviour-accepted": "A behaviour difference on a field our contract marks x-quarkci-deviation: "
    "kept on purpose, listed with the reason",
}
assert set(RULES) == set(RULE_CHANGE), "register every contract-* id the diff emits, with its meaning"
