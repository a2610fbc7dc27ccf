"""cli-flag-removed: a flag the skill passes no longer exists in the script it belongs to."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._flags import resolve
from quarkci.sync.rules.cli_flag_misspelt import misspelt
from quarkci.sync.state import AuditState

ID = "cli-flag-removed"
DESC = "A CLI flag the skill uses is not defined by the script it is passed to"
CATEGORY = "cli_flags"


def check(state: AuditState) -> list[Finding]:
    """One finding per flag claim whose script exists but defines no such flag (and no successor); a flag
    no release defines for any command is ``cli-flag-misspelt``'s."""
    out = []
    for claim in state.claims_of("cli_flag"):
        res = resolve(claim, state.upstream, state.baseline)
        if res.status != "removed" or misspelt(state, claim.value) or claim.context.get("negative"):
            continue  # "`--x` is not available before 0.12": the flag's absence agrees
        had = ""
        if res.was is not None and state.baseline is not None:
            had = f" (it was defined in amd-quark {state.baseline.version} at {res.was.file}:{res.was.line})"
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                subject=f"{res.target.label} {claim.value}",
                skill_says=f"passes `{claim.value}` to {res.target.label}",
                source_says=f"{release(state.upstream)}: {res.reason or f'{res.target.label} defines no `{claim.value}`'}{had}",
                impact=f"the command fails with 'unrecognized arguments: {claim.value}'",
                source=source_loc(res.was) if res.was is not None and state.baseline is not None else None,
            )
        )
    return out
