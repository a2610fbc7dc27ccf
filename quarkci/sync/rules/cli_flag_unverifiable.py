"""cli-flag-unverifiable: the script a flag belongs to is not in the snapshot (e.g. examples/ in a wheel)."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules._flags import resolve
from quarkci.sync.state import AuditState

ID = "cli-flag-unverifiable"
DESC = "A CLI flag belongs to a script this snapshot does not hold, so it cannot be checked"
CATEGORY = "cli_flags"


def check(state: AuditState) -> list[Finding]:
    """One finding per flag claim the snapshot cannot show (never drift)."""
    out = []
    for claim in state.claims_of("cli_flag"):
        res = resolve(claim, state.upstream, state.baseline)
        if res.status != "not_shown":
            continue
        out.append(
            make(
                ID,
                CATEGORY,
                "not_shown",
                claim,
                subject=f"{res.target.label} {claim.value}",
                skill_says=f"passes `{claim.value}` to {res.target.label}",
                source_says=f"{release(state.upstream)}: cannot tell; {res.reason}",
                impact="not checked; audit against a git checkout of amd/Quark to verify it",
            )
        )
    return out
