"""contract-upstream-example-invalid: a skill's documented example document that the release's own
contract rejects (real skill drift; the comparison of quarkci's schemas with upstream's is
``quarkci contracts diff``, not part of a skill audit)."""

from __future__ import annotations

from quarkci.contracts.diff import upstream_contracts
from quarkci.contracts.examples import example_findings
from quarkci.core.findings import Finding
from quarkci.sync.rules import Skip
from quarkci.sync.state import AuditState

ID = "contract-upstream-example-invalid"
DESC = "A skill's documented example (## Outputs: <artifact>) fails the contract the release ships for it"
CATEGORY = "contracts"


def check(state: AuditState) -> list[Finding]:
    """Examples of the release's bundled skills that its own contract rejects; only for the skills
    being audited (matched by skill name). Skipped for stored facts (no files to read)."""
    snapshot = state.upstream.snapshot
    if snapshot is None:
        raise Skip("needs the upstream snapshot itself, not stored facts")
    grouped, _problems = upstream_contracts(snapshot)
    if not grouped:
        return []
    shared = {a: (copies[0].path, copies[0].schema) for a, copies in grouped.items()}
    audited = {s.name for s in state.skills} | {s.id for s in state.skills}
    return [f for f in example_findings(snapshot, shared)
            if f.rule == ID and f.skill in audited and _same_file(f, state)]


def _same_file(finding: Finding, state: AuditState) -> bool:
    """The example's SKILL.md is one of the audited files (a renamed copy elsewhere is not ours)."""
    loc = finding.skill_location
    if loc is None:
        return False
    return any(s.path == loc.file for s in state.skills)
