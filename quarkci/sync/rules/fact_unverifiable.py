"""fact-unverifiable: the skill names an item of a fact kind the snapshot cannot show."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.skills.model import CLAIM_KINDS
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState

ID = "fact-unverifiable"
DESC = "A claim whose fact kind the snapshot does not show (its source file is outside the snapshot)"
CATEGORY = "facts"

# Claim kinds with their own *-unverifiable handling elsewhere (flags, paths, version ranges).
_OWN_RULES = {"cli_flag", "path", "python_version", "torch_version", "transformers_version"}


def check(state: AuditState) -> list[Finding]:
    """One finding per claim of a kind whose facts are empty and marked unavailable."""
    view = state.upstream
    out = []
    for claim_kind, fact_kind in sorted(CLAIM_KINDS.items()):
        if claim_kind in _OWN_RULES or not fact_kind:
            continue
        missing = view.unavailable(fact_kind)
        if view.items(fact_kind) or not missing:
            continue
        for claim in state.claims_of(claim_kind):
            out.append(
                make(
                    ID,
                    fact_kind,
                    "not_shown",
                    claim,
                    subject=f"{claim_kind} {claim.value}",
                    skill_says=f"names {claim_kind.replace('_', ' ')} `{claim.value}`",
                    source_says=f"{release(view)}: cannot tell; needs {', '.join(missing)}, not in this snapshot",
                    impact="not checked",
                )
            )
    return out
