"""cli-flag-deprecated: a flag the skill passes is marked deprecated upstream (semantic)."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._flags import resolve
from quarkci.sync.state import AuditState

ID = "cli-flag-deprecated"
DESC = "A CLI flag the skill uses still exists but its help marks it deprecated"
CATEGORY = "cli_flags"


def check(state: AuditState) -> list[Finding]:
    """One finding per flag claim whose matching fact has ``deprecated`` set."""
    out = []
    for claim in state.claims_of("cli_flag"):
        res = resolve(claim, state.upstream, state.baseline)
        if res.status != "deprecated" or res.item is None:
            continue
        help_text = str(res.item.attrs.get("help") or "").strip()
        said = f': "{help_text}"' if help_text else ""
        out.append(
            make(
                ID,
                CATEGORY,
                "deprecated",
                claim,
                subject=f"{res.target.label} {claim.value}",
                skill_says=f"passes `{claim.value}` to {res.target.label}",
                source_says=f"{release(state.upstream)}: `{claim.value}` is deprecated{said}",
                impact="works today; the behaviour the skill relies on may change or be removed next release",
                source=source_loc(res.item),
            )
        )
    return out
