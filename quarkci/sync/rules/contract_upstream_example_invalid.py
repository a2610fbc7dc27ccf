"""contract-upstream-example-invalid: a skill's documented example document that the release's own
contract rejects (real skill drift; the comparison of quarkci's schemas with upstream's is
``quarkci contracts diff``, not part of a skill audit)."""

from __future__ import annotations

from dataclasses import replace

from quarkci.contracts.diff import upstream_contracts
from quarkci.contracts.examples import BUNDLED_ROOT, example_findings
from quarkci.core.findings import Finding
from quarkci.core.rules import Skip
from quarkci.sync.state import AuditState

ID = "contract-upstream-example-invalid"
DESC = "A skill's documented example (## Outputs: <artifact>) fails the contract the release ships for it"
CATEGORY = "contracts"


class _AuditedSkills:
    """The audited SKILL.md files seen through the two snapshot methods the example reader uses, under
    the bundled-skills prefix it expects (so a ``--skills DIR`` audit checks the user's own examples)."""

    def __init__(self, state: AuditState) -> None:
        self._state = state
        self._paths = {BUNDLED_ROOT + s.path: s.path for s in state.skills if s.error is None}

    def files(self, prefix: str = "") -> list[str]:
        return sorted(p for p in self._paths if p.startswith(prefix))

    def read_text(self, path: str) -> str:
        if path not in self._paths or self._state.read_skill_file is None:
            raise FileNotFoundError(path)
        return self._state.read_skill_file(self._paths[path])


def check(state: AuditState) -> list[Finding]:
    """Examples in the audited skills that the contract the release ships for their artifact rejects.
    Skipped for stored facts (the release's contract files are needed); silent before 0.13 (no contracts)."""
    snapshot = state.upstream.snapshot
    if snapshot is None:
        raise Skip("needs the upstream snapshot itself, not stored facts")
    grouped, _problems = upstream_contracts(snapshot)
    if not grouped:
        return []
    shared = {a: (copies[0].path, copies[0].schema) for a, copies in grouped.items()}
    # `skill` is the skill's id (its directory), as every other rule's finding says: the example reader's
    # frontmatter name is not unique (0.13 bundles a top-level and a _legacy_impl/ skill of one name)
    ids = {s.path: s.id for s in state.skills}
    found = [f for f in example_findings(_AuditedSkills(state), shared) if f.rule == ID]  # type: ignore[arg-type]
    return [
        replace(f, skill=ids.get(f.skill_location.file, f.skill)) if f.skill_location else f for f in found
    ]
