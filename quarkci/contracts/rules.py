"""The finding ids of the contract comparison (``quarkci contracts diff``): one table, each id with what it
means, the *change* :mod:`quarkci.contracts.diff` records and the *kind* the policy gives it.

These are registered finding ids like the sync rules' (docs/rules.md has a section for each, and a
repository's ``.quarkci.yaml`` may name them). The kind follows the direction of the difference (who would
reject whose documents): a document Quark accepts that ours rejects is breaking, the reverse semantic; an
id whose kind is ``None`` is classified by its change alone (``contract-property-unmodelled``: "removed"
when our closed object rejects the field -> breaking, "missing_from_list" when our open object does not
check it -> mechanical). :data:`quarkci.sync.policy.RULE_KINDS` and :data:`quarkci.contracts.diff.RULE_CHANGE`
are read from this table, never written beside it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ContractRule:
    """One contract finding id: ``change`` (a :data:`quarkci.core.findings.CHANGES` value), ``kind``
    (``None``: by the change), ``meaning`` (one line, docs/rules.md's "What it checks")."""

    id: str
    change: str
    kind: str | None
    meaning: str


CONTRACT_RULES: tuple[ContractRule, ...] = (
    ContractRule(
        "contract-type-narrowed",
        "changed",
        "breaking",
        "The release accepts a JSON type at a path that our contract rejects",
    ),
    ContractRule(
        "contract-type-widened",
        "changed",
        "semantic",
        "Our contract accepts a JSON type at a path that the release rejects",
    ),
    ContractRule(
        "contract-enum-value-missing",
        "missing_from_list",
        "breaking",
        "The release allows an enum value that our closed enum rejects",
    ),
    ContractRule(
        "contract-enum-value-unknown",
        "missing_from_list",
        "mechanical",
        "The release allows a value our open (pattern) field accepts but does not list as known",
    ),
    ContractRule(
        "contract-enum-value-extra",
        "removed",
        "semantic",
        "Our contract allows or knows an enum value the release rejects (a close upstream value is "
        "named as its successor)",
    ),
    ContractRule(
        "contract-enum-value-rejected",
        "changed",
        "breaking",
        "The release allows an enum value that our pattern rejects",
    ),
    ContractRule(
        "contract-enum-opened",
        "changed",
        "semantic",
        "Our contract accepts any value matching a pattern where the release has a closed enum",
    ),
    ContractRule(
        "contract-enum-added",
        "changed",
        "semantic",
        "Our contract restricts a field to an enum that the release leaves open",
    ),
    ContractRule(
        "contract-required-optional",
        "changed",
        "mechanical",
        "The release requires a field that our contract defines as optional",
    ),
    ContractRule(
        "contract-required-unknown",
        "missing_from_list",
        "breaking",
        "The release requires a field that our contract does not define",
    ),
    ContractRule(
        "contract-required-extra",
        "changed",
        "semantic",
        "Our contract requires a field that the release treats as optional",
    ),
    ContractRule(
        "contract-property-unmodelled",
        "missing_from_list",
        None,
        "The release defines a field our contract does not model (breaking when our object is "
        "closed, mechanical when it is open)",
    ),
    ContractRule(
        "contract-object-opened",
        "changed",
        "semantic",
        "Our object accepts extra fields where the release's rejects them",
    ),
    ContractRule(
        "contract-object-closed",
        "changed",
        "breaking",
        "Our object rejects extra fields where the release's accepts them",
    ),
    ContractRule(
        "contract-unknown-upstream",
        "missing_from_list",
        "mechanical",
        "The release ships a contract for an artifact quarkci does not register",
    ),
    ContractRule(
        "contract-upstream-copies-differ",
        "changed",
        "semantic",
        "Two copies of one contract inside the release disagree",
    ),
    ContractRule(
        "contract-upstream-example-invalid",
        "changed",
        "semantic",
        "An example documented in a release skill fails the release's own contract",
    ),
    ContractRule(
        "contract-example-rejected",
        "changed",
        "breaking",
        "An example the release's contract accepts fails our contract",
    ),
    ContractRule(
        "contract-not-shipped",
        "not_shown",
        "unverifiable",
        "The release ships no contract for an artifact quarkci defines",
    ),
    ContractRule(
        "contract-unreadable",
        "not_shown",
        "unverifiable",
        "A contract file in the release is not a readable JSON Schema object",
    ),
    ContractRule(
        "contract-none-shipped",
        "not_shown",
        "unverifiable",
        "The release ships no contracts at all (Quark bundles skills from 0.13)",
    ),
    ContractRule(
        "contract-behaviour-rejected",
        "changed",
        "breaking",
        "A document generated from the release's contract (a valid example or a boundary case) "
        "fails our contract",
    ),
    ContractRule(
        "contract-behaviour-extra",
        "changed",
        "semantic",
        "A document generated from our contract fails the release's contract",
    ),
    ContractRule(
        "contract-behaviour-accepted",
        "changed",
        "semantic",
        "A behaviour difference on a field our contract marks x-quarkci-deviation: kept on purpose,"
        " listed with the reason",
    ),
)
RULES: dict[str, str] = {r.id: r.meaning for r in CONTRACT_RULES}
CHANGES: dict[str, str] = {r.id: r.change for r in CONTRACT_RULES}
KINDS: dict[str, str] = {r.id: r.kind for r in CONTRACT_RULES if r.kind is not None}
assert len(RULES) == len(CONTRACT_RULES), "duplicate contract rule id"
