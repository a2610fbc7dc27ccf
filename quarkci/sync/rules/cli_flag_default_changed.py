"""cli-flag-default-changed: a flag the skill uses changed its default, choices or type since the baseline."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.sync.rules import Skip
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._flags import find_flag, flags_for, resolve
from quarkci.sync.state import AuditState

ID = "cli-flag-default-changed"
DESC = "A CLI flag the skill uses changed its default, choices, type, action or nargs since the baseline"
CATEGORY = "cli_flags"
FIELDS = ("default", "choices", "type", "action", "nargs")


def check(state: AuditState) -> list[Finding]:
    """One ``changed`` finding per (flag claim, changed field) between baseline and upstream facts."""
    if state.baseline is None:
        raise Skip("needs a baseline")
    out = []
    seen: set[tuple[str, str, str]] = set()
    for claim in state.claims_of("cli_flag"):
        res = resolve(claim, state.upstream, state.baseline)
        if res.status not in ("present", "deprecated") or res.item is None:
            continue
        was = find_flag(flags_for(state.baseline, res.target), claim.value)
        if was is None:
            continue
        for field in FIELDS:
            before, after = was.attrs.get(field), res.item.attrs.get(field)
            key = (claim.skill, claim.value, field)
            if before == after or key in seen:
                continue
            seen.add(key)
            out.append(make(
                ID, CATEGORY, "changed", claim, subject=f"{res.target.label} {claim.value} {field}",
                skill_says=f"passes `{claim.value}` to {res.target.label}",
                source_says=f"{release(state.upstream)}: {field} changed from {before!r} to {after!r} "
                            f"(amd-quark {state.baseline.version})",
                impact=f"the command behaves differently when `{claim.value}` relies on its {field}",
                source=source_loc(res.item),
            ))
    return out
